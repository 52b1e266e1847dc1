// Precompile the part of Pyodide's standard library that the game imports.
//
//   node tools/precompile_stdlib.mjs ENGINE.whl OUT.zip
//
// Pyodide's python_stdlib.zip holds source files only, so every visit compiles the ~130
// standard-library modules that Python's start-up and the engine import: most of
// Pyodide's own start-up time.  This script boots the pinned Pyodide under Node.js,
// installs the engine wheel as web/worker/boot.js does, runs tools/exercise_engine.py (every
// request the page sends) and then writes a copy of python_stdlib.zip in which every
// standard-library module that was imported is bytecode instead of source: an
// unchecked-hash .pyc, which zipimport loads without compiling or checking anything.
// Keeping the sources as well would add 0.7 MB to download for what only a traceback
// through the standard library would show.  Modules that were not imported stay as
// they are.  The bytecode must come from Pyodide's own Python (3.14), hence Node.js and
// not the CPython that runs build.py.  Same inputs, same bytes: entries keep their
// order and timestamps.

import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [wheel, out] = process.argv.slice(2);
if (!wheel || !out) {
  console.error("usage: node tools/precompile_stdlib.mjs ENGINE.whl OUT.zip");
  process.exit(2);
}

// The engine is installed with web/worker/boot.js's own code, so the modules imported here are
// the ones the page imports.
const workerSource = readFileSync(new URL("../web/worker/boot.js", import.meta.url), "utf8");
const refresh = /const REFRESH_FINDERS = `([^`]*)`;/.exec(workerSource);
if (!refresh) {
  console.error("web/worker/boot.js no longer defines REFRESH_FINDERS: install the wheel here as the worker does");
  process.exit(1);
}

const py = await loadPyodide();
py.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel");
py.runPython(refresh[1]);
const script = readFileSync(new URL("./exercise_engine.py", import.meta.url), "utf8");
const { modules } = JSON.parse(py.runPython(script));

py.globals.set("imported", py.toPy(modules));
const result = py.runPython(`
import importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

STDLIB = "/lib/python314.zip"
wanted = set(imported)
source = zipfile.ZipFile(STDLIB)
buf = io.BytesIO()
done = 0
with zipfile.ZipFile(buf, "w") as target:
    for info in source.infolist():
        data = source.read(info)
        if info.filename not in wanted:
            target.writestr(info, data, compresslevel=9)
            continue
        code = compile(data, f"{STDLIB}/{info.filename}", "exec", dont_inherit=True)
        pyc = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
        pyc.compress_type = zipfile.ZIP_DEFLATED
        pyc.external_attr = info.external_attr
        target.writestr(pyc, _code_to_hash_pyc(code, importlib.util.source_hash(data), False),
                        compresslevel=9)
        done += 1
if done != len(wanted):
    raise RuntimeError(f"compiled {done} of the {len(wanted)} imported modules")
(buf.getvalue(), done)
`);
const [bytes, count] = result.toJs();
result.destroy();
writeFileSync(out, bytes);
console.log(`precompiled ${count} standard-library modules into ${out} (${bytes.byteLength} bytes)`);
