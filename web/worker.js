// The engine worker: boots Pyodide, installs the engine wheel and answers the page.
// Split by job (web/worker/): progress.js (the bar and the boot timings), site-cache.js
// (Pyodide's files from the service worker's cache), wasm.js (WebAssembly patches),
// snapshot.js (the memory snapshot's lifecycle; its file format is snapshot-file.js),
// boot.js (a restore or a normal start, the wheel, the engine), loop.js (the messages).
//
// Protocol (docs/web-protocol.md): the page sends {id, type, payload}; the worker answers
// {id, result} or {id, error: {kind, message, code, params}}.  Unsolicited messages:
// {type: "progress", payload: {fraction, key, params}}, {type: "ready", payload: {pyodide,
// snapshot, ms, build, timings}} and, once a memory snapshot has been stored for the next
// visit, {type: "snapshot", payload: {snapshot: "made"|"failed: …", ms, bytes}}; also
// {type: "restoring"} (a snapshot restore begins: the page gives it 20 s, then replaces
// this worker by one named "… snapshot=timeout", which starts normally) and
// {type: "failed", payload: {kind, message, code, params}} when the engine cannot start.
// All URLs are relative: the site works under any sub-path.

import { installFetch } from "./worker/site-cache.js";
import { installWasmPatches } from "./worker/wasm.js";
import { boot } from "./worker/boot.js";
import { serve } from "./worker/loop.js";

installFetch();
installWasmPatches();
serve(boot());
