// Split Pyodide's standard library in two, the part the game imports as bytecode.
//
//   node tools/precompile_stdlib.mjs ENGINE.whl FIRST.zip LATER.zip [ENGINE_PYC.zip]
//
// (With ENGINE_PYC.zip, also the engine's modules that a first table imports, as bytecode
// for the site's wheel: see the end of this file and tools/site.py's engine_bytecode.)
//
// Pyodide's python_stdlib.zip holds the source of every module (2.5 MB, sent whole to
// every first visit, which gzip cannot shrink), and every visit compiles the ~130 modules
// that Python's start-up and the engine import: most of Pyodide's own start-up time.
// This script boots the pinned Pyodide under Node.js, installs the engine wheel as
// web/worker/boot.js does, runs tools/exercise_engine.py (every request the page sends)
// and writes two archives:
//
// - FIRST.zip (the site's pyodide/python_stdlib.zip): the modules that were imported, as
//   unchecked-hash .pyc (zipimport loads them without compiling or checking anything),
//   compiled without docstrings and without column positions (line numbers stay), which
//   makes them 35% smaller; and _jabberwocky_stdlib.pyc (tools/stdlib_finder.py), the
//   finder that fetches the second archive on first use.  Modules Python has frozen in
//   (os, io, codecs, site, importlib's bootstrap, ...) are never read from the archive:
//   they are left out of it.
// - LATER.zip (pyodide/python_stdlib_later.zip): every other entry, byte for byte as the
//   npm package has it (source), for any later import (micropip, a traceback through the
//   standard library, an engine import the scenario does not reach).
//
// The bytecode must come from Pyodide's own Python (3.14), hence Node.js and not the
// CPython that runs build.py.  Same inputs, same bytes: entries keep their order and
// timestamps.

import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [wheel, first, later, engine] = process.argv.slice(2);
if (!wheel || !first || !later) {
  console.error("usage: node tools/precompile_stdlib.mjs ENGINE.whl FIRST.zip LATER.zip [ENGINE_PYC.zip]");
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

// No column positions in what compile() makes here (line numbers are kept).
const py = await loadPyodide({ env: { HOME: "/home/pyodide", PYTHONNODEBUGRANGES: "1" } });
py.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel");
py.runPython(refresh[1]);
// The engine's modules a first table needs (the worker's import, the page's first
// requests), noted before the exercise below imports the rest: their bytecode goes into
// the site's wheel (ENGINE_PYC.zip).
// Python's source with its docstrings left out (both compilations below use it): the site
// reads no docstring.
const WITHOUT_DOCSTRINGS = `
def without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree
`;

const firstTable = JSON.parse(py.runPython(`
import json, sys
from jabberwocky import webapi
webapi.reset()
for kind in ("levels", "rules", "new_game"):
    webapi.handle(kind, "{}")
json.dumps(sorted(m.__file__ for name, m in list(sys.modules.items())
                  if name.split(".")[0] == "jabberwocky" and getattr(m, "__file__", None)))
`));
const script = readFileSync(new URL("./exercise_engine.py", import.meta.url), "utf8");
const { modules } = JSON.parse(py.runPython(script));

py.globals.set("imported", py.toPy(modules));
py.globals.set("finder_source", readFileSync(new URL("./stdlib_finder.py", import.meta.url), "utf8"));
const result = py.runPython(`
import ast, copy, importlib.util, io, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

STDLIB = "/lib/python314.zip"
FINDER = "_jabberwocky_stdlib.py"

def file_of(name, module):
    spec = getattr(module, "__spec__", None)
    return getattr(spec, "origin", None) == "frozen" and getattr(module, "__file__", None)

frozen = {f[len(STDLIB) + 1:].removesuffix("c") for f in
          (file_of(n, m) for n, m in list(sys.modules.items())) if f and f.startswith(STDLIB)}
wanted = set(imported) - frozen

${WITHOUT_DOCSTRINGS}
def pyc(name, source, date_time, external_attr):
    tree = without_docstrings(ast.parse(source, f"{STDLIB}/{name}"))
    code = compile(tree, f"{STDLIB}/{name}", "exec", dont_inherit=True)
    info = zipfile.ZipInfo(name[:-3] + ".pyc", date_time)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = external_attr
    return info, _code_to_hash_pyc(code, importlib.util.source_hash(source), False)

def folders(names):
    out = set()
    for name in names:
        parts = name.split("/")[:-1]
        out.update("/".join(parts[:i]) + "/" for i in range(1, len(parts) + 1))
    return out

source = zipfile.ZipFile(STDLIB)
entries = [(info, source.read(info)) for info in source.infolist()]
files = [info.filename for info, _ in entries if not info.is_dir()]
first_folders = folders(f for f in files if f in wanted)
later_folders = folders(f for f in files if f not in wanted)
later_names = []
bufs = io.BytesIO(), io.BytesIO()
done = 0
with zipfile.ZipFile(bufs[0], "w") as first, zipfile.ZipFile(bufs[1], "w") as later:
    for info, data in entries:
        # (a copy of the entry for each archive: writing one records its offset in it)
        if info.is_dir():
            if info.filename in first_folders:
                first.writestr(copy.copy(info), data)
            if info.filename in later_folders:
                later.writestr(copy.copy(info), data)
        elif info.filename in wanted:
            first.writestr(*pyc(info.filename, data, info.date_time, info.external_attr),
                           compresslevel=9)
            done += 1
        else:
            later.writestr(copy.copy(info), data, compresslevel=9)
            later_names.append(info.filename)
    finder = {"__name__": "_jabberwocky_stdlib"}  # module_names() from the finder itself
    exec(compile(finder_source, "tools/stdlib_finder.py", "exec"), finder)
    names = finder["module_names"](later_names)
    marker = "NAMES: frozenset[str] = frozenset()"
    if finder_source.count(marker) != 1:
        raise RuntimeError(f"tools/stdlib_finder.py must contain {marker!r} once")
    filled = finder_source.replace(marker, f"NAMES: frozenset[str] = frozenset({names!r})")
    first.writestr(*pyc(FINDER, filled.encode(), (1980, 1, 1, 0, 0, 0), 0o644 << 16),
                   compresslevel=9)
missing = wanted - {info.filename for info, _ in entries}
if missing or done != len(wanted):
    raise RuntimeError(f"compiled {done} of the {len(wanted)} imported modules; missing {sorted(missing)[:5]}")
(bufs[0].getvalue(), bufs[1].getvalue(), done, len(frozen & set(imported)), len(names))
`);
const [firstBytes, laterBytes, count, frozenCount, laterCount] = result.toJs();
result.destroy();
writeFileSync(first, firstBytes);
writeFileSync(later, laterBytes);
if (engine) {
  // The engine's own modules as bytecode, where Python looks for it beside the installed
  // sources (jabberwocky/__pycache__/<name>.cpython-314.pyc), unchecked-hash and without
  // docstrings as above (the engine reads no __doc__; the sources beside them keep theirs
  // for tracebacks): tools/site.py adds them to the site's wheel, so a first visit imports
  // the engine without compiling it.
  py.globals.set("first_table", py.toPy(firstTable));
  const compiled = py.runPython(`
import ast, importlib.util, io, pathlib, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

${WITHOUT_DOCSTRINGS}
root = pathlib.Path(importlib.util.find_spec("jabberwocky").submodule_search_locations[0])
# only what a first table imports (noted above): any other module (the review, the
# statistics, the command line, …) is compiled from its source when it is first imported
used = {pathlib.Path(f) for f in first_table}
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as out:
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts or path not in used:
            continue
        source = path.read_bytes()
        code = compile(without_docstrings(ast.parse(source, str(path))), str(path), "exec",
                       dont_inherit=True)
        name = pathlib.Path(importlib.util.cache_from_source(str(path))).relative_to(root.parent)
        info = zipfile.ZipInfo(name.as_posix(), (1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        out.writestr(info, _code_to_hash_pyc(code, importlib.util.source_hash(source), False),
                     compresslevel=9)
buf.getvalue()
`);
  const engineBytes = compiled.toJs();
  compiled.destroy();
  writeFileSync(engine, engineBytes);
  console.log(`engine: the ${firstTable.length} modules a first table imports as bytecode in ${engine} (${engineBytes.byteLength} bytes)`);
}
console.log(`standard library: ${count} modules as bytecode in ${first} (${firstBytes.byteLength} bytes; ` +
  `${frozenCount} frozen modules left out), ${laterCount} modules for later in ${later} (${laterBytes.byteLength} bytes)`);
