// The engine worker: boots Pyodide, imports the engine and answers the page.
// Split by job (web/worker/): progress.js (the bar and the boot timings), site-cache.js
// (Pyodide's files from the service worker's cache), wasm.js (WebAssembly patches),
// snapshot.js (the memory snapshot's lifecycle; its file format is snapshot-file.js),
// boot.js (a restore or a normal start, the engine), loop.js (the messages),
// build-info.js (build.json, fetched once), brotli.js (a first visit's decoding).
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

//
// This file imports nothing statically: its first act is to see to a first visit's big
// downloads (expectEarly), and only then are the worker's modules imported, all at once
// (the same depth of imports as static ones).

const SITE_CACHE_PREFIX = "jabberwocky-site-"; // sw.js's PREFIX
const EARLY_FILES = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"];
const early = new Map(); // absolute URL -> Promise<Response | null>, taken by site-cache.js
let brotli = null; // worker/brotli.js, once a file comes compressed
const nativeFetch = self.fetch.bind(self); // site-cache.js replaces self.fetch

/** `body` (brotli) decoded as the file at `url` (worker/brotli.js), or null: then the
 *  file is fetched as usual. */
function decodedFile(url, body) {
  brotli ??= import("./worker/brotli.js");
  return brotli.then(({ decoded }) => decoded(url, body, nativeFetch), () => {
    body.cancel().catch(() => {});
    return null;
  });
}

/**
 * A first visit's big downloads, Pyodide's WebAssembly module and standard library,
 * begun before this worker's modules are in: otherwise Pyodide asks for them only once
 * those, pyodide.mjs and build.json have arrived, over a slow link ~0.5 s later.  Both
 * come brotli-compressed (`<file>.br`) and are decoded here as they arrive
 * (worker/brotli.js).
 *
 * - Named "… early" (js/early.js): the page fetched them as it began to load and sends
 *   each response's body here as a stream ({type: "early"}, {encoding: "br"}), or says it
 *   failed (the file is then fetched here as usual).
 * - Otherwise, when Cache Storage holds no site cache of this game (the service worker
 *   has not installed yet: a first visit), they are fetched here at once.
 *
 * Each response goes to the first fetch of its URL (site-cache.js's fetchCached), so
 * nothing is downloaded twice: the decoded files are left for the service worker's
 * precache (worker/brotli.js's stashDecoded).  A repeat visit reads these files from the
 * site cache instead.
 */
function expectEarly() {
  const urls = EARLY_FILES.map((file) => new URL(file, self.location.href).href);
  if (self.name.split(" ").includes("early")) {
    const settle = new Map();
    for (const url of urls) early.set(url, new Promise((resolve) => settle.set(url, resolve)));
    return (message) => {
      const { url, failed, status, headers, body, encoding } = message.payload ?? {};
      const resolve = settle.get(url);
      if (!resolve) return;
      settle.delete(url);
      if (failed) resolve(null);
      else if (encoding === "br") resolve(decodedFile(url, body));
      else resolve(new Response(body, { status, headers }));
    };
  }
  const check = Promise.resolve().then(() => caches.keys()).then(
    (names) => names.some((name) => name.startsWith(SITE_CACHE_PREFIX)),
    () => false, // no Cache Storage here: no service worker either, the network it is
  );
  const fetchBrotli = async (url) => {
    const response = await nativeFetch(`${url}.br`, { credentials: "same-origin" });
    if (!response.ok || !response.body) return null;
    return decodedFile(url, response.body);
  };
  for (const url of urls) {
    early.set(url, check.then((cached) => (cached ? null : fetchBrotli(url))).catch(() => null));
  }
  return () => {};
}

const takeEarlyMessage = expectEarly();
// The page's requests are held until loop.js serves them (a message with no listener
// would be lost), then handed over in order.
const held = [];
let onRequest = (event) => held.push(event);
self.onmessage = (event) => (event.data?.type === "early" ? takeEarlyMessage(event.data) : onRequest(event));

Promise.all([
  import("./worker/site-cache.js"),
  import("./worker/wasm.js"),
  import("./worker/boot.js"),
  import("./worker/loop.js"),
]).then(([{ installFetch, cachedEarly }, { installWasmPatches, prefetchModule }, { boot }, { serve }]) => {
  installFetch(early);
  installWasmPatches();
  prefetchModule(cachedEarly); // a repeat visit: compiled while the snapshot is read
  // the decoded module, for the service worker, once the worker is first quiet
  const stash = () => brotli?.then((module) => module.stashDecoded()).catch(() => {});
  const serveRequest = serve(boot(), stash);
  for (const event of held.splice(0)) serveRequest(event);
  onRequest = serveRequest;
}, (err) => {
  // as a failed static import would: the page sees the worker's error event
  setTimeout(() => { throw err; });
});
