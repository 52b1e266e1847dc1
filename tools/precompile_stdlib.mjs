// Split Pyodide's standard library in two, the part the game imports as bytecode, and put
// the engine into the first part.
//
//   node tools/precompile_stdlib.mjs ENGINE.whl FIRST.zip LATER.zip
//
// Pyodide's python_stdlib.zip holds the source of every module (2.5 MB, sent whole to
// every first visit, which gzip cannot shrink), and every visit compiles the ~130 modules
// that Python's start-up and the engine import: most of Pyodide's own start-up time.
// This script boots the pinned Pyodide under Node.js, puts the engine wheel on sys.path as
// a zip archive (the page imports the engine from a zip archive too: the first one below),
// runs tools/exercise_engine.py (every request the page sends) and writes two archives:
//
// - FIRST.zip (the site's pyodide/python_stdlib.zip): the modules that were imported, as
//   unchecked-hash .pyc (zipimport loads them without compiling or checking anything),
//   compiled without docstrings and without column positions (line numbers stay), which
//   makes them 35% smaller; _jabberwocky_stdlib.pyc (tools/stdlib_finder.py), the
//   finder that fetches the second archive on first use; and the engine: its package's
//   files as the wheel has them (sources, for tracebacks; the catalogue; the bots'
//   weights) and, beside the source of each module the page imported, its bytecode
//   (jabberwocky/…/<name>.pyc, compiled in the same way), so the engine worker imports
//   it straight from the archive with nothing to unpack and nothing to compile.  Modules Python has frozen in (os, io,
//   codecs, site, importlib's bootstrap, ...) are never read from the archive: they are
//   left out of it.
// - LATER.zip (pyodide/python_stdlib_later.zip): every other entry, byte for byte as the
//   npm package has it (source), for any later import (micropip, a traceback through the
//   standard library, an engine import the scenario does not reach).
//
// The bytecode must come from Pyodide's own Python (3.14), hence Node.js and not the
// CPython that runs build.py.  Same inputs, same bytes: entries keep their order and
// timestamps.

import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [wheel, first, later] = process.argv.slice(2);
if (!wheel || !first || !later) {
  console.error("usage: node tools/precompile_stdlib.mjs ENGINE.whl FIRST.zip LATER.zip");
  process.exit(2);
}

// No column positions in what compile() makes here (line numbers are kept).
const py = await loadPyodide({ env: { HOME: "/home/pyodide", PYTHONNODEBUGRANGES: "1" } });
const WHEEL = "/tmp/jabberwocky-engine.whl";
py.FS.writeFile(WHEEL, new Uint8Array(readFileSync(wheel)));
py.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(WHEEL)})`);
// Python's source with its docstrings left out (the compilation below uses it): the site
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

const script = readFileSync(new URL("./exercise_engine.py", import.meta.url), "utf8");
const { modules } = JSON.parse(py.runPython(script));

// the engine's modules the page imported (names inside the wheel): compiled below; any
// other (the command line, the tournaments, …) is compiled from its source if it ever is
const engineUsed = JSON.parse(py.runPython(`
import json, sys
prefix = ${JSON.stringify(WHEEL + "/")}
json.dumps(sorted(m.__file__[len(prefix):] for name, m in list(sys.modules.items())
                  if name.split(".")[0] == "jabberwocky"
                  and (getattr(m, "__file__", None) or "").startswith(prefix)))
`));
py.globals.set("imported", py.toPy(modules));
py.globals.set("engine_wheel", WHEEL);
py.globals.set("engine_used", py.toPy(engineUsed));
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
done = engine_modules = 0
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
    # the engine: its files as the wheel has them, and each module's bytecode beside it
    wheel = zipfile.ZipFile(engine_wheel)
    for info in wheel.infolist():
        if info.filename.split("/")[0] != "jabberwocky" or "/__pycache__/" in info.filename:
            continue  # the wheel's .dist-info (and any bytecode of its own)
        data = wheel.read(info)
        entry = zipfile.ZipInfo(info.filename, info.date_time)
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.external_attr = info.external_attr
        first.writestr(entry, data, compresslevel=9)
        if info.filename in engine_used:
            first.writestr(*pyc(info.filename, data, info.date_time, info.external_attr),
                           compresslevel=9)
            engine_modules += 1
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
(bufs[0].getvalue(), bufs[1].getvalue(), done, len(frozen & set(imported)), len(names),
 engine_modules)
`);
const [firstBytes, laterBytes, count, frozenCount, laterCount, engineCount] = result.toJs();
result.destroy();
writeFileSync(first, firstBytes);
writeFileSync(later, laterBytes);
console.log(`standard library: ${count} modules as bytecode in ${first} (${firstBytes.byteLength} bytes; ` +
  `${frozenCount} frozen modules left out; the engine's files, ${engineCount} of its modules as bytecode), ` +
  `${laterCount} modules for later in ${later} (${laterBytes.byteLength} bytes)`);
