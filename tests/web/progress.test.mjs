// web/worker/progress.js: a first visit's brotli downloads count on the loading bar as the
// compressed bytes they travel as (build.json's size of `<file>.br`), not the bytes they
// decode to, and nothing is shown before build.json's sizes are known.

import { test, before } from "node:test";
import assert from "node:assert/strict";

const MB = 1024 * 1024; // the bar's megabytes (progress.js rounds to a tenth)
const posted = [];
let progress;

before(async () => {
  globalThis.self = globalThis;
  globalThis.postMessage = (message) => posted.push(message);
  progress = await import("../../web/worker/progress.js");
});

test("compressed bytes count against the compressed size, once the sizes are known", () => {
  const count = progress.expectCompressed("pyodide.asm.wasm");
  count(1 * MB);
  assert.deepEqual(posted, [], "no bar before build.json's sizes");
  progress.expectBytes("pyodide.asm.wasm"); // boot.js asks for it too: still compressed
  progress.knowSizes({ sizes: { "pyodide/pyodide.asm.wasm": 10 * MB, "pyodide/pyodide.asm.wasm.br": 4 * MB } });
  count(1 * MB);
  const last = posted.at(-1);
  assert.equal(last.type, "progress");
  assert.equal(last.payload.key, "loading.downloading");
  assert.deepEqual(last.payload.params, { loaded: 2, total: 4 });
  assert.ok(Math.abs(last.payload.fraction - progress.DOWNLOAD_SHARE * 0.5) < 1e-9);
});

test("the last byte in, the words move on to setting up the table", () => {
  const count = progress.expectCompressed("pyodide.asm.wasm");
  count(2 * MB); // 4 of 4 MB: the module compiles on, and "4 of 4 MB" would stay beside a bar at 60%
  const last = posted.at(-1);
  assert.equal(last.payload.key, "loading.starting_python");
  assert.equal(last.payload.fraction, progress.DOWNLOAD_SHARE);
});
