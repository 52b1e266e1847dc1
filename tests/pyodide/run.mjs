// Run the engine tests inside Pyodide under Node.js.
//
// Usage (see run.py, which downloads the wheels first):
//   node tests/pyodide/run.mjs WHEEL... -- [extra pytest args]
// Loads Pyodide from node_modules, installs the given pure-Python wheels from disk (no
// network), mounts src/, tests/ and docs/ and runs pytest over /tests.  Tests that start a
// subprocess cannot run in WebAssembly: they carry the `needs_subprocess` marker and are
// deselected here.  Test modules of the build tools (they import tools/, which is not
// mounted) are skipped by tests/conftest.py.  Nothing else is left out.
// Exits with pytest's status.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const argv = process.argv.slice(2);
const split = argv.indexOf("--");
const wheels = split < 0 ? argv : argv.slice(0, split);
const extra = split < 0 ? [] : argv.slice(split + 1);

const started = Date.now();
const pyodide = await loadPyodide();
// Forward Python's output byte for byte (pytest prints progress dots without newlines).
pyodide.setStdout({ write: (buf) => { process.stdout.write(buf); return buf.length; } });
pyodide.setStderr({ write: (buf) => { process.stderr.write(buf); return buf.length; } });
const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
for (const wheel of wheels) {
  const bytes = await readFile(wheel);
  pyodide.unpackArchive(new Uint8Array(bytes), "wheel", { extractDir: sitePackages });
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
