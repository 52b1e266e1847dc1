// A first visit's two big files arrive brotli-compressed: Pyodide's WebAssembly module
// (pyodide/pyodide.asm.wasm.br, 2.74 MB against 3.55 MB as GitHub Pages gzips the
// module) and the first standard-library archive (pyodide/python_stdlib.zip.br: its
// entries stored, 0.61 MB, against 0.88 MB for deflated entries, which GitHub Pages
// sends as they are).  Browsers decode brotli only as a Content-Encoding the server
// chose, so this worker decodes them itself, with brotli-dec-wasm (Rust's
// brotli-decompressor as WebAssembly, in vendor/brotli-dec-wasm/), chunk by chunk as the
// bytes arrive: Pyodide compiles the module while it downloads, as it would from the
// network.
//
// The decoded files are also left in the cache "jabberwocky-early" for the service
// worker, whose install takes them from there (checking their hashes) instead of
// downloading them a second time (stashDecoded).  Imported only on a first visit
// (worker.js).
//
// Measured and dropped: the decoding (and the module's compiling) in a worker of its own,
// so that this thread evaluates Pyodide's scripts meanwhile.  On a quiet two-core machine
// the first table came later, not sooner: 1.11x, 1.05x and 0.98x in three runs of 6-10
// paired cold visits (bench/startup.py --ab), the third thread competing for the cores.

import { initSync, BrotliDecStream, BrotliStreamResultCode } from "../vendor/brotli-dec-wasm/brotli_dec_wasm.js";
import { expectCompressed } from "./progress.js";
import { compileNow } from "./compile.js";
import { loadBuildInfo } from "./build-info.js";

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

// What each file decoded must begin with, and the type it is served as.
const KINDS = {
  wasm: { magic: [0x00, 0x61, 0x73, 0x6d], type: "application/wasm", what: "a WebAssembly module" }, // "\0asm"
  zip: { magic: [0x50, 0x4b, 0x03, 0x04], type: "application/zip", what: "a zip archive" }, // "PK\3\4"
};
const MAGIC_LENGTH = 4;

/** The kind of file at `url`, by its extension (a WebAssembly module unless a zip). */
export const kindOf = (url) => (new URL(url).pathname.endsWith(".zip") ? KINDS.zip : KINDS.wasm);

/**
 * `body` (a stream of brotli bytes) decoded, as a stream.  Bytes that already start as the
 * file itself (`kind` says how it begins: a WebAssembly module by default) pass through (a
 * server that sent the file with Content-Encoding: br had the browser decode it).  If the
 * bytes cannot be decoded, do not decode to such a file or end early (a download cut
 * short), the stream goes on with the file itself (`plainUrl`), from the byte where the
 * decoded ones stopped: Pyodide, which is reading the stream, never sees the difference.
 * (Brotli carries no checksum: bytes damaged in the middle may decode to a wrong module,
 * which then fails to compile; wasm.js then compiles the module itself.  An archive is
 * checked against its hash before Python reads it: decoded().)
 */
export function decodeBrotli(body, fetchImpl, plainUrl, kind = KINDS.wasm) {
  const isFile = (bytes) => bytes.length >= MAGIC_LENGTH && kind.magic.every((byte, i) => bytes[i] === byte);
  const notFile = () => new Error(`the brotli stream does not hold ${kind.what}`);
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
      if (joined.length < MAGIC_LENGTH) {
        head = joined;
        return;
      }
      if (!isFile(joined)) throw notFile();
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
      if (head?.length) throw notFile();
      decoder?.free();
      decoder = null;
      controller.close();
      return;
    }
    passThrough ??= isFile(value);
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
      const response = await fetchImpl(plainUrl, { credentials: "same-origin" });
      if (!response.ok || !response.body) throw new Error(`${plainUrl} answered HTTP ${response.status}`);
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

const stash = []; // {url, type, chunks, complete}: the decoded files, kept for the service worker
// written last into EARLY_CACHE: the service worker's install waits for it (sw.js)
const EARLY_DONE = "__jabberwocky-early-complete__";

/** A stream that passes `stream`'s chunks on (the same objects: no copy), each first
 *  given to `onChunk`; `onEnd` is called when it ends. */
function passing(stream, onChunk, onEnd = () => {}) {
  const reader = stream.getReader();
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        onEnd();
        controller.close();
        return;
      }
      onChunk(value);
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * The Response Pyodide gets for `url` (its module or its standard library): `body`
 * decoded.  The decoded bytes are kept, and written into the cache "jabberwocky-early" by
 * stashDecoded() the first time the engine worker is quiet (loop.js): written while
 * Pyodide started, a loopback cold start measured 0.17 s slower in one run.  The cache is
 * made at once, empty, so the service worker's install knows to wait for them.  The
 * loading bar counts the compressed bytes as they arrive (progress.js).
 */
export function decoded(url, body, fetchImpl) {
  const kind = kindOf(url);
  const entry = { url, type: kind.type, chunks: [], done: null };
  entry.complete = new Promise((resolve) => (entry.done = resolve));
  stash.push(entry);
  Promise.resolve().then(() => caches.open(EARLY_CACHE)).catch(() => {});
  // the decoder is fetched and compiled now, while the bytes arrive, not when Pyodide
  // first reads them (its scripts are still loading then)
  loadDecoder(fetchImpl).catch(() => {}); // a failure is the stream's (decodeBrotli)
  const count = expectCompressed(new URL(url).pathname.split("/").pop());
  const wire = passing(body, (chunk) => count(chunk.byteLength)); // the bar: bytes on the wire
  const response = new Response(passing(decodeBrotli(wire, fetchImpl, url, kind), (chunk) => entry.chunks.push(chunk), entry.done),
    { status: 200, headers: { "Content-Type": kind.type } });
  response.jabberwockyCounted = true;
  if (kind === KINDS.wasm) {
    response.jabberwockyModuleUrl = url; // wasm.js compiles the module itself if this fails
    // Decoded and compiled from now, as the bytes arrive: Pyodide asks for its module only
    // once pyodide.asm.mjs is evaluated, and this thread is idle until that script is in.
    compileNow(response);
    return response;
  }
  // The archive is read whole before Python starts anyway: it is checked first.
  return checkedFile(url, response, fetchImpl, loadBuildInfo(fetchImpl)).then((checked) => {
    if (checked.jabberwockyFetched) stash.splice(stash.indexOf(entry), 1); // the service worker fetches it
    else checked.jabberwockyCounted = true;
    return checked;
  });
}

const SITE = new URL("../", import.meta.url).href; // the site's root (this file is worker/brotli.js)
const hex = (digest) => Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * `response` (a decoded file, `url`) read whole and checked against the SHA-256 that
 * build.json (`info`, a promise of its contents) gives for it (brotli has no checksum:
 * bytes damaged in the middle could decode to a wrong archive, which Python's zip reader
 * would not notice).  Resolves to a Response of those bytes, or, when they do not match,
 * to the file itself fetched anew (marked `jabberwockyFetched`).  Without a hash to check
 * against (no build.json, no entry), the bytes are taken as they are.
 */
export async function checkedFile(url, response, fetchImpl, info) {
  const expected = Promise.resolve(info).then((got) => got?.sha256?.[url.slice(SITE.length)] ?? null, () => null);
  const headers = { "Content-Type": response.headers.get("Content-Type") ?? "application/octet-stream" };
  try {
    const bytes = await response.arrayBuffer();
    const want = await expected;
    if (!want || hex(await crypto.subtle.digest("SHA-256", bytes)) === want) {
      return new Response(bytes, { status: 200, headers });
    }
  } catch {
    // unreadable: fetched anew below
  }
  const fetched = await fetchImpl(url, { credentials: "same-origin" });
  fetched.jabberwockyFetched = true;
  return fetched;
}

/** Write the decoded files into "jabberwocky-early" (worker.js, when the engine worker is
 *  first quiet), then the mark that they are all there; if one is not whole, the cache
 *  goes, and the service worker downloads the files itself. */
export async function stashDecoded() {
  const entries = stash.splice(0);
  if (!entries.length) return;
  try {
    const timeout = new Promise((resolve) => setTimeout(() => resolve(false), 1000));
    const complete = await Promise.race([Promise.all(entries.map((entry) => entry.complete)).then(() => true), timeout]);
    if (!complete) throw new Error("a file was not decoded whole");
    const cache = await caches.open(EARLY_CACHE);
    for (const entry of entries) {
      await cache.put(entry.url, new Response(new Blob(entry.chunks), { headers: { "Content-Type": entry.type } }));
    }
    await cache.put(new URL(`../${EARLY_DONE}`, import.meta.url).href, new Response("")); // at the site's root
  } catch {
    await caches.delete(EARLY_CACHE).catch(() => {});
  }
}
