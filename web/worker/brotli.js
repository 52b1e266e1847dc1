// A first visit's WebAssembly module arrives brotli-compressed (pyodide/pyodide.asm.wasm.br,
// 2.74 MB against 3.55 MB as GitHub Pages gzips the module: see js/early.js).  Browsers
// decode brotli only as a Content-Encoding the server chose, so this worker decodes it
// itself, with brotli-dec-wasm (Rust's brotli-decompressor as WebAssembly, in
// vendor/brotli-dec-wasm/), chunk by chunk as the bytes arrive: Pyodide compiles the
// module while it downloads, as it would from the network.
//
// The decoded module is also left in the cache "jabberwocky-early" for the service
// worker, whose install takes it from there (checking its hash) instead of downloading
// the module a second time (stashDecoded).  Imported only on such a first visit
// (worker.js).

import { initSync, BrotliDecStream, BrotliStreamResultCode } from "../vendor/brotli-dec-wasm/brotli_dec_wasm.js";

export const EARLY_CACHE = "jabberwocky-early"; // sw.js's EARLY
const DECODER = new URL("../vendor/brotli-dec-wasm/brotli_dec_wasm_bg.wasm", import.meta.url);
const OUT_CHUNK = 1 << 20; // bytes out per call at most

let decoderReady = null;

/** The decoder, compiled once (synchronously, from its bytes: Pyodide's own module is the
 *  only one compiled by streaming here, see wasm.js). */
function loadDecoder(fetchImpl) {
  decoderReady ??= (async () => {
    const response = await fetchImpl(DECODER.href, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`${DECODER.pathname} answered HTTP ${response.status}`);
    initSync({ module: await response.arrayBuffer() });
  })();
  return decoderReady;
}

const MAGIC = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"
const isWasm = (bytes) => bytes.length >= 4 && MAGIC.every((byte, i) => bytes[i] === byte);

/**
 * `body` (a stream of brotli bytes) decoded, as a stream.  Bytes that already start as a
 * WebAssembly module pass through (a server that sent the file with Content-Encoding: br
 * had the browser decode it).  If the bytes cannot be decoded, do not decode to a module
 * or end early (a download cut short), the stream goes on with the module itself
 * (`moduleUrl`), from the byte where the decoded ones stopped: Pyodide, which is compiling
 * the stream, never sees the difference.  (Brotli carries no checksum: bytes damaged in
 * the middle may decode to a wrong module, which then fails to compile; wasm.js then
 * compiles the module itself.)
 */
export function decodeBrotli(body, fetchImpl, moduleUrl) {
  const reader = body.getReader();
  let decoder = null;
  let passThrough = null; // decided by the first bytes
  let finished = false;
  let head = new Uint8Array(0); // decoded bytes held until the first four are checked
  let emitted = 0; // bytes handed on
  let plain = null; // after a failure: the module's own reader, and bytes still to skip
  let skip = 0;

  function emit(controller, bytes) {
    if (!bytes.length) return;
    if (head !== null) {
      const joined = new Uint8Array(head.length + bytes.length);
      joined.set(head);
      joined.set(bytes, head.length);
      if (joined.length < MAGIC.length) {
        head = joined;
        return;
      }
      if (!isWasm(joined)) throw new Error("the brotli stream does not hold a WebAssembly module");
      head = null;
      bytes = joined;
    }
    emitted += bytes.length;
    controller.enqueue(bytes);
  }

  // Each step reads one chunk; it may hand on nothing (a chunk of brotli too small to
  // decode to a byte, skipped bytes), and a pull that enqueues nothing is not called
  // again: pull repeats steps until one enqueued or closed.
  let handed = 0;
  const counting = (controller) => ({
    enqueue(bytes) {
      handed += 1;
      controller.enqueue(bytes);
    },
    close() {
      handed += 1;
      controller.close();
    },
  });

  async function decodeNext(controller) {
    await loadDecoder(fetchImpl);
    const { done, value } = await reader.read();
    if (done) {
      if (!passThrough && !finished) throw new Error("the brotli stream ended early");
      if (head?.length) throw new Error("the brotli stream does not hold a WebAssembly module");
      decoder?.free();
      decoder = null;
      controller.close();
      return;
    }
    passThrough ??= isWasm(value);
    if (passThrough) {
      head = null;
      emitted += value.length;
      controller.enqueue(value);
      return;
    }
    decoder ??= new BrotliDecStream();
    let input = value;
    for (;;) {
      const result = decoder.dec(input, OUT_CHUNK);
      const out = result.buf;
      const code = result.code;
      input = input.subarray(result.input_offset);
      result.free();
      emit(controller, out);
      if (code === BrotliStreamResultCode.ResultSuccess) finished = true;
      if (code !== BrotliStreamResultCode.NeedsMoreOutput) break;
    }
  }

  async function plainNext(controller) {
    const { done, value } = await plain.read();
    if (done) {
      controller.close();
      return;
    }
    const drop = Math.min(skip, value.length);
    skip -= drop;
    if (drop < value.length) controller.enqueue(value.subarray(drop));
  }

  async function step(controller) {
    if (plain) return plainNext(controller);
    try {
      return await decodeNext(controller);
    } catch {
      reader.cancel().catch(() => {});
      try {
        decoder?.free();
      } catch {
        // a decoder that failed may be gone already
      }
      decoder = null;
      const response = await fetchImpl(moduleUrl, { credentials: "same-origin" });
      if (!response.ok || !response.body) throw new Error(`${moduleUrl} answered HTTP ${response.status}`);
      plain = response.body.getReader();
      skip = emitted;
      return plainNext(controller);
    }
  }

  return new ReadableStream({
    async pull(controller) {
      const counted = counting(controller);
      const before = handed;
      while (handed === before) await step(counted);
    },
    cancel(reason) {
      decoder?.free();
      plain?.cancel(reason).catch(() => {});
      return reader.cancel(reason);
    },
  });
}

const WASM_HEADERS = { "Content-Type": "application/wasm" };
let stash = null; // {url, chunks, done}: the decoded module, kept for the service worker

/** A stream that passes `stream`'s chunks on and keeps them (the same objects: no copy). */
function keeping(stream, chunks, done) {
  const reader = stream.getReader();
  return new ReadableStream({
    async pull(controller) {
      const { done: end, value } = await reader.read();
      if (end) {
        done();
        controller.close();
        return;
      }
      chunks.push(value);
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * The Response Pyodide gets for its module (`url`): `body` decoded.  The decoded bytes
 * are kept, and written into the cache "jabberwocky-early" by stashDecoded() the first
 * time the engine worker is quiet (loop.js): written while Pyodide started, a loopback
 * cold start measured 0.17 s slower in one run.  The cache is made at once, empty, so the service worker's
 * install knows to wait for them.
 */
export function decodedModule(url, body, fetchImpl) {
  const entry = { url, chunks: [], done: null };
  entry.complete = new Promise((resolve) => (entry.done = resolve));
  stash = entry;
  Promise.resolve().then(() => caches.open(EARLY_CACHE)).catch(() => {});
  const response = new Response(keeping(decodeBrotli(body, fetchImpl, url), entry.chunks, entry.done),
    { status: 200, headers: WASM_HEADERS });
  response.jabberwockyModuleUrl = url; // wasm.js compiles the module itself if this fails
  return response;
}

/** Write the decoded module into "jabberwocky-early" (worker.js, when the engine worker is
 *  first quiet); if there is none to write, the cache goes, and the service worker
 *  downloads the module itself. */
export async function stashDecoded() {
  const entry = stash;
  stash = null;
  if (!entry) return;
  try {
    const complete = await Promise.race([entry.complete.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 1000))]);
    if (!complete) throw new Error("the module was not decoded whole");
    const cache = await caches.open(EARLY_CACHE);
    await cache.put(entry.url, new Response(new Blob(entry.chunks), { headers: WASM_HEADERS }));
  } catch {
    await caches.delete(EARLY_CACHE).catch(() => {});
  }
}
