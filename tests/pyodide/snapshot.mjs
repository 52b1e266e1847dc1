// The stored memory snapshot, end to end in the real runtime (Pyodide under Node.js):
// web/snapshot-file.js encodes an image Pyodide made, opens it again and writes it back,
// and a new Pyodide restored through restoreOptions() (as the game's worker does it) has
// the interpreter's state of the moment the snapshot was made.
//
// Usage: node tests/pyodide/snapshot.mjs   (from anywhere; exits non-zero on a failure)
//
// The file itself (origin-private file system) needs a browser: e2e/test_runtime.py
// covers it, with damaged and foreign files.

import assert from "node:assert/strict";
import { webcrypto } from "node:crypto";
import { loadPyodide } from "pyodide";
import create from "pyodide/pyodide.asm.mjs";

globalThis.crypto ??= webcrypto; // Node 18 has no global WebCrypto
const { encodeSnapshot, openSnapshot, restoreOptions } = await import("../../web/snapshot-file.js");

const started = Date.now();
const checks = [];
async function check(name, fn) {
  await fn();
  checks.push(name);
  console.log(`ok  ${name}`);
}

const maker = await loadPyodide({ _makeSnapshot: true });
maker.runPython("import decimal, json\nmarker = [12345, 'jabberwocky', str(decimal.Decimal('1.5'))]\npass");
const image = maker.makeMemorySnapshot();
const stored = await encodeSnapshot(image, { pyodide: maker.version, build: "test" });
const opened = await openSnapshot(stored);

await check("only the pages that hold data are stored", () => {
  assert.ok(stored.body.byteLength < image.byteLength, `${stored.body.byteLength} of ${image.byteLength} bytes`);
});

await check("the whole image comes back byte for byte", () => {
  assert.deepEqual(opened.place(new Uint8Array(image.length)), image);
});

await check("a part of it, from any offset, over memory already written below a mark", () => {
  const skip = 144; // not page-aligned, as Pyodide's header is not
  const target = new Uint8Array(image.length - skip);
  const touchedBelow = 5 * 1048576 + 123;
  target.fill(0xab, 0, touchedBelow); // written before: the zero stretches there must be cleared
  opened.place(target, skip, touchedBelow);
  assert.deepEqual(target, image.subarray(skip));
  assert.deepEqual(opened.place(new Uint8Array(100)), image.subarray(0, 100));
});

async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

await check("a changed byte or a page table out of order is refused", async () => {
  const flipped = stored.body.slice();
  flipped[flipped.length - 1] ^= 1;
  await assert.rejects(openSnapshot({ meta: stored.meta, body: flipped }), /digest/);
  // two runs swapped, with a digest that matches the damaged body
  assert.ok(stored.meta.runs >= 2);
  const swapped = stored.body.slice();
  swapped.set(stored.body.subarray(8, 16), 0);
  swapped.set(stored.body.subarray(0, 8), 8);
  await assert.rejects(openSnapshot({ meta: { ...stored.meta, digest: await digest(swapped) }, body: swapped }), /page table/);
});

let untouchedAboveBreak = null;
async function createAndLook(settings) {
  const module = await create(settings);
  // The state restoreSnapshot meets (nothing runs in between): the zero stretches above
  // the break are not written, so they must be zero in the fresh memory.
  const words = new Uint32Array(module.HEAPU8.buffer, 0, module.HEAPU8.length >> 2);
  untouchedAboveBreak = true;
  for (let i = Math.ceil(module._sbrk(0) / 4); i < words.length; i++) {
    if (words[i] !== 0) {
      untouchedAboveBreak = false;
      break;
    }
  }
  return module;
}

await check("a new Pyodide restored through restoreOptions() has the state of the moment", async () => {
  const py = await loadPyodide(restoreOptions(createAndLook, Promise.resolve(opened), image.length));
  assert.equal(untouchedAboveBreak, true, "the fresh memory above the break was written before the restore");
  assert.equal(py.runPython("'decimal' in __import__('sys').modules"), true);
  assert.deepEqual(py.runPython("marker").toJs(), [12345, "jabberwocky", "1.5"]);
  assert.equal(py.runPython("sum(range(10))"), 45); // and it runs on
});

await check("a damaged header is refused before Python runs", async () => {
  const damaged = { length: opened.length, place: (target, ...rest) => {
    opened.place(target, ...rest);
    if (target.length >= 8 && rest.length === 0) target[4] = 7; // the header's size
    return target;
  } };
  await assert.rejects(loadPyodide(restoreOptions(create, Promise.resolve(damaged), image.length)), /header/);
});

console.log(`${checks.length} snapshot checks passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
