// The Pyodide half of bench/bots_pyodide.py (run that; it calls this).
//
//   node bench/bots_pyodide.mjs DECISIONS SEED LEVEL [HARD_ARGS]
//
// Loads Pyodide from node_modules (the npm package the site self-hosts), mounts src/
// and bench/, runs bots_pyodide.measure(...) and prints its JSON result as the last
// line of stdout.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [decisions = "300", seed = "pyodide-bench", level = "hard", hardArgs = ""] = process.argv.slice(2);

const started = Date.now();
const py = await loadPyodide();
py.FS.mkdirTree("/work/src");
py.FS.mkdirTree("/work/bench");
py.mountNodeFS("/work/src", path.join(root, "src"));
py.mountNodeFS("/work/bench", path.join(root, "bench"));
console.error(`pyodide ${py.version} loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
py.globals.set("args", py.toPy([Number(decisions), seed, level, hardArgs]));
const out = py.runPython(`
import json, sys
sys.path[:0] = ["/work/src", "/work/bench"]
import bots_pyodide
json.dumps(bots_pyodide.measure(*args))
`);
console.log(out);
