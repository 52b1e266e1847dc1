// Run the engine tests inside Pyodide under Node.js.
//
// Usage (see run.py, which downloads the wheels first):
//   node tests/pyodide/run.mjs [--stdlib FIRST.zip LATER.zip MICROPIP.whl] WHEEL... -- [extra pytest args]
// Loads Pyodide from node_modules, installs the given pure-Python wheels from disk (no
// network), mounts src/, tests/ and docs/ and runs pytest over /tests.  With --stdlib, Pyodide
// gets the site's standard library in its two archives (tools/precompile_stdlib.mjs): the
// game's modules first, every other one fetched on first import through the site's own
// finder (tools/stdlib_finder.py), as in the browser; the wheels are then installed by
// micropip (from the site's wheel), so micropip, pytest and hypothesis import what they
// need from the second archive.  Tests that start a
// subprocess cannot run in WebAssembly: they carry the `needs_subprocess` marker and are
// deselected here.  Test modules of the build tools and the benches (they import tools/
// or bench/, which are not mounted) are skipped by tests/conftest.py.  Nothing else is left out.
// Exits with pytest's status.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const argv = process.argv.slice(2);
const split = argv.indexOf("--");
let wheels = split < 0 ? argv : argv.slice(0, split);
const extra = split < 0 ? [] : argv.slice(split + 1);
let stdlib = null;
if (wheels[0] === "--stdlib") {
  const [first, later, micropip] = wheels.slice(1, 4);
  stdlib = { first, later, micropip };
  wheels = wheels.slice(4);
}

const started = Date.now();
const pyodide = await loadPyodide(stdlib ? { stdLibURL: stdlib.first } : {});
// Forward Python's output byte for byte (pytest prints progress dots without newlines).
pyodide.setStdout({ write: (buf) => { process.stdout.write(buf); return buf.length; } });
pyodide.setStderr({ write: (buf) => { process.stderr.write(buf); return buf.length; } });
if (stdlib) {
  let fetches = 0;
  const later = new Uint8Array(await readFile(stdlib.later));
  globalThis.jabberwockyFetchStdlib = (where) => {
    fetches += 1;
    pyodide.FS.writeFile(where, later);
  };
  pyodide.runPython("import _jabberwocky_stdlib; _jabberwocky_stdlib.install()");
  await pyodide.loadPackage(stdlib.micropip, { errorCallback: (m) => { throw new Error(m); } });
  pyodide.FS.mkdirTree("/tmp/wheels");
  const urls = [];
  for (const wheel of wheels) {
    const target = `/tmp/wheels/${path.basename(wheel)}`;
    pyodide.FS.writeFile(target, new Uint8Array(await readFile(wheel)));
    urls.push(`emfs:${target}`);
  }
  pyodide.globals.set("wheel_urls", pyodide.toPy(urls));
  await pyodide.runPythonAsync("import micropip\nawait micropip.install(list(wheel_urls), deps=False)");
  // (not imported here: pytest must import hypothesis's plugin itself to rewrite its asserts)
  const versions = pyodide.runPython("import importlib.metadata as m; ', '.join(f'{n} {m.version(n)}' for n in ('pytest', 'hypothesis'))");
  console.log(`split standard library: the second archive fetched ${fetches} time(s); micropip installed ${wheels.length} wheels (${versions})`);
} else {
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const wheel of wheels) {
    const bytes = await readFile(wheel);
    pyodide.unpackArchive(new Uint8Array(bytes), "wheel", { extractDir: sitePackages });
  }
}
pyodide.FS.mkdirTree("/src");
pyodide.FS.mkdirTree("/tests");
pyodide.FS.mkdirTree("/docs");
pyodide.mountNodeFS("/src", path.join(ROOT, "src"));
pyodide.mountNodeFS("/tests", path.join(ROOT, "tests"));
pyodide.mountNodeFS("/docs", path.join(ROOT, "docs")); // tests/test_bot_api.py runs docs/bots.md's bot
console.log(`pyodide ${pyodide.version} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const args = ["-q", "-p", "no:cacheprovider", "-m", "not needs_subprocess",
  "--rootdir", "/tests", "/tests", ...extra];
pyodide.globals.set("pytest_args", pyodide.toPy(args));
const status = await pyodide.runPythonAsync(`
import os, sys
os.chdir("/tmp")
sys.path.insert(0, "/src")
import pytest
int(pytest.main(list(pytest_args)))
`);
console.log(`pytest under pyodide: ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
process.exit(status);
