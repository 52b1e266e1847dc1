// web/worker/brotli.js: a first visit's brotli-compressed WebAssembly module (and standard
// library archive) decoded as a stream, and a download that is cut short, not brotli, or
// not the file ending in the file itself, byte for byte; the archive checked against
// build.json's SHA-256.  (Bytes damaged in the middle decode to a module that
// fails to compile; web/worker/wasm.js then compiles the module itself: e2e/test_pwa.py.)
// The module and the decoder are copied as the build lays them out (worker/, vendor/).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync } from "node:zlib";
import { createHash } from "node:crypto";
import { ROOT } from "./engine-info.mjs";

let dir;
let decodeBrotli;
let kindOf;
let checkedFile;
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
  for (const name of ["brotli.js", "progress.js", "build-info.js", "compile.js"]) {
    cpSync(path.join(ROOT, "web", "worker", name), path.join(dir, "worker", name));
  }
  cpSync(DECODER, path.join(dir, "vendor", "brotli-dec-wasm"), { recursive: true });
  ({ decodeBrotli, kindOf, checkedFile } = await import(pathToFileURL(path.join(dir, "worker", "brotli.js")).href));
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

// -- the standard library's archive ---------------------------------------------------

const SITE = "https://example.test/";
const ZIP_URL = `${SITE}pyodide/python_stdlib.zip`;
// A stand-in archive: a zip's local-header magic, then bytes that compress somewhat.
const zipBytes = Buffer.concat([Buffer.from("PK\x03\x04", "latin1"),
  ...Array.from({ length: 20 }, (_, i) => Buffer.concat([Buffer.from("def f(): return 42\n".repeat(40)), noise(500, 90 + i)]))]);

function zipFetcher() {
  const calls = { zip: 0 };
  const impl = async (url) => {
    if (url === ZIP_URL) {
      calls.zip += 1;
      return new Response(chunks(zipBytes, 3000), { headers: { "Content-Type": "application/zip" } });
    }
    if (url.endsWith("brotli_dec_wasm_bg.wasm")) return new Response(readFileSync(new URL(url)));
    return new Response("no", { status: 404 });
  };
  return { impl, calls };
}

const decodedAs = async (body, fetch, url) =>
  Buffer.from(await new Response(decodeBrotli(body, fetch.impl, url, kindOf(url))).arrayBuffer());

test("the kind of file is told by its name", () => {
  assert.equal(kindOf(ZIP_URL).type, "application/zip");
  assert.equal(kindOf(MODULE_URL).type, "application/wasm");
});

test("the archive decodes, and a module where the archive belongs ends in the archive itself", async () => {
  let fetch = zipFetcher();
  assert.equal(Buffer.compare(await decodedAs(chunks(brotliCompressSync(zipBytes), 1000), fetch, ZIP_URL), zipBytes), 0);
  assert.equal(fetch.calls.zip, 0);
  fetch = zipFetcher();
  assert.equal(Buffer.compare(await decodedAs(chunks(compressed, 1000), fetch, ZIP_URL), zipBytes), 0);
  assert.equal(fetch.calls.zip, 1, "the archive itself, fetched once");
});

const digest = (bytes) => createHash("sha256").update(bytes).digest("hex");
const zipResponse = (bytes) => new Response(bytes, { headers: { "Content-Type": "application/zip" } });

// checkedFile names a file by its path from the site's root as seen from worker/brotli.js,
// here the temporary directory: the file URLs are made relative to that root.  build.json
// comes as worker/build-info.js gives it: its contents, or a failure.
const infoOf = (impl, root) => impl(`${root}build.json`)
  .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))));

test("a decoded archive with build.json's hash is taken; another is fetched anew", async () => {
  const root = pathToFileURL(dir + path.sep).href;
  const url = `${root}pyodide/python_stdlib.zip`;
  const calls = { zip: 0 };
  const impl = async (asked) => {
    if (asked === `${root}build.json`) return new Response(JSON.stringify({ sha256: { "pyodide/python_stdlib.zip": digest(zipBytes) } }));
    if (asked === url) {
      calls.zip += 1;
      return zipResponse(zipBytes);
    }
    return new Response("no", { status: 404 });
  };
  const good = await checkedFile(url, zipResponse(zipBytes), impl, infoOf(impl, root));
  assert.equal(Buffer.compare(Buffer.from(await good.arrayBuffer()), zipBytes), 0);
  assert.equal(good.jabberwockyFetched, undefined);
  assert.equal(calls.zip, 0);

  const wrong = Buffer.from(zipBytes);
  wrong[5000] ^= 0xff;
  const fetched = await checkedFile(url, zipResponse(wrong), impl, infoOf(impl, root));
  assert.equal(fetched.jabberwockyFetched, true);
  assert.equal(Buffer.compare(Buffer.from(await fetched.arrayBuffer()), zipBytes), 0);
  assert.equal(calls.zip, 1);
});

test("without a hash to check against, the decoded archive is taken as it is", async () => {
  const root = pathToFileURL(dir + path.sep).href;
  const url = `${root}pyodide/python_stdlib.zip`;
  const impl = async () => new Response("no", { status: 404 });
  const taken = await checkedFile(url, zipResponse(zipBytes), impl, infoOf(impl, root));
  assert.equal(Buffer.compare(Buffer.from(await taken.arrayBuffer()), zipBytes), 0);
  assert.equal(taken.jabberwockyFetched, undefined);
});
