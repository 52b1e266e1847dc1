// web/worker/brotli.js: a first visit's brotli-compressed WebAssembly module decoded as a
// stream, and a download that is cut short, not brotli, or not a module ending in the
// module itself, byte for byte.  (Bytes damaged in the middle decode to a module that
// fails to compile; web/worker/wasm.js then compiles the module itself: e2e/test_pwa.py.)
// The module and the decoder are copied as the build lays them out (worker/, vendor/).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync } from "node:zlib";
import { ROOT } from "./engine-info.mjs";

let dir;
let decodeBrotli;
const DECODER = path.join(ROOT, "node_modules", "brotli-dec-wasm", "pkg");
const MODULE_URL = "https://example.test/pyodide/pyodide.asm.wasm";


/** `n` bytes of noise, the same on every run (a linear congruential generator). */
function noise(n, seed) {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

// A stand-in module: the WebAssembly magic, then bytes that compress somewhat (text and
// noise, so that the compressed stream is long enough to be cut and damaged).
const moduleBytes = Buffer.concat([
  Buffer.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0]),
  ...Array.from({ length: 40 }, (_, i) => Buffer.concat([
    Buffer.from("(module (func $f (result i32) i32.const 42))".repeat(50)), noise(2000, 10 + i)])),
]);
const compressed = brotliCompressSync(moduleBytes);

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "jabberwocky-brotli-"));
  mkdirSync(path.join(dir, "worker"));
  cpSync(path.join(ROOT, "web", "worker", "brotli.js"), path.join(dir, "worker", "brotli.js"));
  cpSync(DECODER, path.join(dir, "vendor", "brotli-dec-wasm"), { recursive: true });
  ({ decodeBrotli } = await import(pathToFileURL(path.join(dir, "worker", "brotli.js")).href));
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** A stream of `bytes` in chunks of `size`. */
function chunks(bytes, size) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
      at += size;
    },
  });
}

/** fetch() for the decoder's wasm and the module itself; counts the module's fetches. */
function fetcher() {
  const calls = { module: 0 };
  const impl = async (url) => {
    if (url === MODULE_URL) {
      calls.module += 1;
      return new Response(chunks(moduleBytes, 7000));
    }
    if (url.endsWith("brotli_dec_wasm_bg.wasm")) return new Response(readFileSync(new URL(url)));
    return new Response("no", { status: 404 });
  };
  return { impl, calls };
}

async function decoded(body, fetch) {
  return Buffer.from(await new Response(decodeBrotli(body, fetch.impl, MODULE_URL)).arrayBuffer());
}

for (const size of [1, 997, 65536, 1 << 22]) {
  test(`decodes the module from chunks of ${size} bytes without fetching it`, async () => {
    const fetch = fetcher();
    assert.ok(compressed.length > 50000 && compressed.length < moduleBytes.length / 2);
    const out = await decoded(chunks(compressed, size), fetch);
    assert.equal(Buffer.compare(out, moduleBytes), 0);
    assert.equal(fetch.calls.module, 0);
  });
}

test("a module that arrives already decoded passes through", async () => {
  const fetch = fetcher();
  const out = await decoded(chunks(moduleBytes, 4096), fetch);
  assert.equal(Buffer.compare(out, moduleBytes), 0);
  assert.equal(fetch.calls.module, 0);
});

const damaged = {
  "cut short": compressed.subarray(0, Math.floor(compressed.length / 2)),
  "not brotli": noise(5000, 1),
  "brotli of something else": brotliCompressSync(Buffer.from("<html>not a module</html>".repeat(100))),
};

for (const [name, bytes] of Object.entries(damaged)) {
  test(`${name}: the stream goes on with the module itself, byte for byte`, async () => {
    const fetch = fetcher();
    const out = await decoded(chunks(bytes, 512), fetch);
    assert.equal(Buffer.compare(out, moduleBytes), 0);
    assert.equal(fetch.calls.module, 1);
  });
}
