// The engine worker: boots Pyodide, installs the engine wheel and answers the page.
//
// Protocol (docs: notes/WEB_PROTOCOL.md): the page sends {id, type, payload}; the worker
// answers {id, result} or {id, error: {kind, message}}.  Unsolicited messages:
// {type: "progress", payload: {fraction, text}}, {type: "ready", payload: {pyodide,
// snapshot, ms, build}} and, once a memory snapshot has been stored for the next visit,
// {type: "snapshot", payload: {snapshot: "made"|"failed: …", ms, bytes}}; also
// {type: "restoring"} (a snapshot restore begins: the page gives it 20 s, then replaces
// this worker by one named "… snapshot=timeout", which starts normally) and
// {type: "failed", payload: {kind, message}} when the engine cannot start at all.
//
// Start-up: build.json (the wheel, the build, the Pyodide version) and the stored memory
// snapshot (a file in the origin-private file system) are looked up together; Pyodide
// starts once the snapshot lookup is done.  A restore runs while the image is checked;
// only the image waits for build.json's word that it fits this build (the engine is
// imported in it; the wheel is unpacked after the first answers).  Otherwise Pyodide
// boots while the wheel is fetched, and a snapshot is made once the worker has been
// idle after its first answer.  A failed snapshot is deleted and the start goes on
// normally (another build's is replaced without a word); one another tab is using is
// left alone.  All URLs are relative: the site works under any sub-path.

// Imported without waiting (a static import held back the whole worker: A/B, table dealt
// at 474 vs 488 ms).  Should it fail to load, this visit starts without snapshots.
const snapshotFiles = import("./snapshot-file.js");
snapshotFiles.catch(() => {});
let sf = null; // the module, once findSnapshot() has it

// Named "… snapshot=timeout": the page gave up on restoring a snapshot; drop it.
const skipSnapshot = /\bsnapshot=timeout\b/.test(self.name ?? "");

// The snapshot's file is opened first thing, before snapshot-file.js (which reads it)
// arrives: a restore begins with the read.  Same name as its FILE_NAME (findSnapshot checks).
const SNAPSHOT_FILE = "jabberwocky-snapshot.bin";
const snapshotOpening = skipSnapshot ? null : openEarly();

function openEarly() {
  try {
    const opening = navigator.storage.getDirectory()
      .then((root) => root.getFileHandle(SNAPSHOT_FILE))
      .then((file) => file.createSyncAccessHandle());
    opening.catch(() => {}); // findSnapshot reads the reason
    return opening;
  } catch {
    return null; // no such storage here: findSnapshot finds out
  }
}

// The site cache, found at once when it is the only one (a new build's cache sits next
// to the old one only while it installs): a restore of the same build reads Pyodide's
// files from it without waiting for build.json to name it (openSiteCacheOf).
const SITE_CACHE_PREFIX = "jabberwocky-site-"; // sw.js's PREFIX
const loneSiteCache = findLoneSiteCache();

async function findLoneSiteCache() {
  try {
    const names = (await caches.keys()).filter((name) => name.startsWith(SITE_CACHE_PREFIX));
    return names.length === 1 ? { name: names[0], cache: await caches.open(names[0]) } : null;
  } catch {
    return null; // no Cache Storage here
  }
}

// Imported without waiting: build.json and the snapshot are looked up meanwhile.
const pyodideModule = import("./pyodide/pyodide.mjs");
pyodideModule.catch(() => {}); // awaited by loadPyodide() below, which reports the failure
// pyodide.mjs imports this one only inside loadPyodide(): asked for now, it loads in
// parallel (same URL).  A restore makes Pyodide's module with it (sf.restoreOptions).
const pyodideAsm = import("./pyodide/pyodide.asm.mjs");
pyodideAsm.catch(() => {});

async function loadPyodide(options) {
  return (await pyodideModule).loadPyodide(options);
}

const SNAPSHOT_IDLE_MS = 1500; // made while the player thinks, not between bot moves
const started = performance.now();

let handle = null; // Python callable: handle(type, payload_json) -> JSON text
let pyodide = null;
let snapshotState = "none";
let snapshotPending = false; // true when this boot can and should make a snapshot

// -- progress -------------------------------------------------------------------------

// Shares of the bar: downloads (bytes counted) up to 0.6, the WebAssembly module compiled
// 0.75, Python started 0.9, the engine imported 0.97, ready 1.
const DOWNLOAD_SHARE = 0.6;
const tracked = new Map(); // key -> {loaded, total}
let lastFraction = 0;
const timings = {}; // boot step -> ms since the worker started

function mark(step) {
  timings[step] = Math.round(performance.now() - started);
}

let lastPost = { at: -Infinity, fraction: -1, text: "" };

function progress(fraction, text) {
  lastFraction = Math.max(lastFraction, Math.min(1, fraction));
  // Downloads report every chunk; the page (and the CPU Python is starting on) needs a
  // new bar only when it moved a percent or 50 ms passed, or the words changed.
  const now = performance.now();
  const words = text.replace(/[\d.]+/g, "#");
  if (words === lastPost.text && lastFraction < 1 && lastFraction - lastPost.fraction < 0.01 && now - lastPost.at < 50) return;
  lastPost = { at: now, fraction: lastFraction, text: words };
  self.postMessage({ type: "progress", payload: { fraction: lastFraction, text } });
}

let buildInfo = null; // build.json once it has arrived: its sizes stand in for content-lengths

function infoSize(key) {
  if (!buildInfo) return 0;
  return (buildInfo.sizes ?? {})[key === "wheel" ? buildInfo.wheel : `pyodide/${key}`] ?? 0;
}

function expectBytes(key) {
  if (!tracked.has(key)) tracked.set(key, { loaded: 0, total: Math.max(1, infoSize(key)), exact: false });
}

function knowSizes(info) {
  // build.json's sizes stand in until a response's content-length says better.
  buildInfo = info;
  for (const [key, entry] of tracked) {
    const size = infoSize(key);
    if (!entry.exact && size > 0) entry.total = Math.max(size, entry.loaded);
  }
}

function exactBytes(key, length) {
  const entry = tracked.get(key);
  if (entry && length > 0) {
    entry.total = length;
    entry.exact = true;
  }
}

function countBytes(key, n) {
  const entry = tracked.get(key);
  if (!entry) return;
  entry.loaded += n;
  let loaded = 0;
  let total = 0;
  for (const e of tracked.values()) {
    loaded += Math.min(e.loaded, e.total);
    total += e.total;
  }
  // The last chunks can arrive after the module is compiled: the bar has moved on to
  // "Starting Python…" by then, and its words stay.
  if (lastFraction > DOWNLOAD_SHARE) return;
  const mb = (b) => (b / 1048576).toFixed(1);
  progress(DOWNLOAD_SHARE * (total ? loaded / total : 0), `Downloading Python… ${mb(loaded)} of ${mb(total)} MB`);
}

async function drain(key, response) {
  // Reads a clone of a response to count its bytes; the original goes on untouched, so
  // streaming compilation and the browser's compiled-code cache still work.
  try {
    exactBytes(key, Number(response.headers.get("content-length")));
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      countBytes(key, value.byteLength);
    }
  } catch {
    // progress only: the real reader reports any failure
  }
}

const TRACK = ["pyodide.asm.wasm", "python_stdlib.zip"];
const realFetch = self.fetch.bind(self);

// The service worker's cache of this build (jabberwocky-site-<build>, see sw.js), once
// build.json has named the build.  The worker reads Pyodide's files from it directly: the
// same bytes the service worker would answer with, but sooner: on a repeat visit the
// WebAssembly module arrives and compiles in ~85 ms instead of ~125-150 ms, through the
// service worker's fetch handler as through its static routes (A/B, 16 visits each,
// static routes on: table dealt at 506 vs 551 ms).
let siteCache = null;
let siteCacheOpened = null; // while restoring: settles once the cache is known

const siteCacheName = (build) => `${SITE_CACHE_PREFIX}${build}`;

/** The cache build.json names (the lone one, already open, when it is that one). */
async function openSiteCache(info) {
  const name = siteCacheName(info.build);
  const lone = await loneSiteCache;
  try {
    siteCache = lone?.name === name ? lone.cache
      : typeof caches !== "undefined" && (await caches.has(name)) ? await caches.open(name) : null;
  } catch {
    siteCache = null; // storage unavailable: requests go through the service worker or the network
  }
}

/** While restoring a snapshot of `build`: its site cache, at once if it is the lone one. */
async function openSiteCacheOf(build, infoPromise) {
  const lone = await loneSiteCache;
  if (lone?.name === siteCacheName(build)) siteCache = lone.cache;
  else await infoPromise.catch(() => {}); // it opens the cache build.json names
}

function urlOf(input) {
  return new URL(typeof input === "string" ? input : (input.url ?? String(input)), self.location.href).href;
}

async function fetchCached(input, init) {
  if (siteCacheOpened) await siteCacheOpened;
  if (siteCache) {
    try {
      const cached = await siteCache.match(urlOf(input), { ignoreSearch: true });
      if (cached) return cached;
    } catch {
      // fall through to a normal request
    }
  }
  return realFetch(input, init);
}

async function fetchTracked(input, init) {
  const response = await fetchCached(input, init);
  const url = urlOf(input);
  for (const name of TRACK) {
    if (url.endsWith(name) && response.ok && response.body && tracked.has(name)) {
      drain(name, response.clone());
    }
  }
  return response;
}

self.fetch = fetchTracked;

// Pyodide's loader wraps every JavaScript function it puts into the WebAssembly table in
// a tiny module of its own, compiled synchronously: ~260 compiles on every start (~18 ms
// of this thread on a repeat visit), of only ~30 different modules (one per function
// signature; the function itself is an import).  A compiled module is immutable, so the
// same bytes can share one: small modules are compiled once per content.
const SMALL_MODULE = 1024; // bytes; Pyodide's own module and any real one are compiled as asked
{
  const Module = WebAssembly.Module;
  const compiled = new Map(); // module bytes (as a string) -> WebAssembly.Module
  const SharedModule = function Module_(bytes, ...rest) {
    if (!new.target) throw new TypeError("WebAssembly.Module must be called with new");
    const view = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : null;
    if (rest.length || !view || view.length > SMALL_MODULE) return new Module(bytes, ...rest);
    const key = String.fromCharCode.apply(null, view);
    let module = compiled.get(key);
    if (!module) {
      module = new Module(view);
      compiled.set(key, module);
    }
    return module;
  };
  SharedModule.prototype = Module.prototype;
  for (const name of ["customSections", "exports", "imports"]) SharedModule[name] = Module[name];
  WebAssembly.Module = SharedModule;
}

// Report when Pyodide's module is compiled and instantiated.  (Only the streaming call:
// Pyodide also instantiates a tiny helper module.)
if (typeof WebAssembly.instantiateStreaming === "function") {
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = function (...args) {
    mark("instantiating");
    const promise = original.apply(this, args);
    promise.then(() => {
      mark("wasm");
      progress(0.75, "Starting Python…");
    }, () => {});
    return promise;
  };
}

// -- the engine wheel -----------------------------------------------------------------

async function fetchWheel(info) {
  const key = "wheel";
  const response = await fetchCached(new URL(info.wheel, self.location.href));
  if (!response.ok) throw new Error(`the engine wheel ${info.wheel} could not be loaded (HTTP ${response.status})`);
  exactBytes(key, Number(response.headers.get("content-length")));
  const reader = response.body.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.byteLength;
    countBytes(key, value.byteLength);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}

// After unpacking, the finders of site-packages must look at the folder again.  Only
// those: importlib.invalidate_caches() would also reset importlib.metadata's finder,
// importing importlib.metadata and email (~0.3 s of a cold start) for nothing.
// tools/precompile_stdlib.mjs reads and runs this very snippet (keep it one template).
const REFRESH_FINDERS = `
import sys
from importlib.machinery import FileFinder
for finder in list(sys.path_importer_cache.values()):
    if isinstance(finder, FileFinder):
        finder.invalidate_caches()
`;

function installWheel(py, bytes) {
  py.unpackArchive(bytes, "wheel");
  py.runPython(REFRESH_FINDERS);
}

// Run before a memory snapshot: with every engine module imported, a restored engine
// needs none of its files, so the worker answers first and unpacks the wheel when idle.
// (`pass` last, so runPython hands back nothing: no proxy of the list of names is held
// when the snapshot is taken.)
const IMPORT_EVERYTHING = `
from jabberwocky.webapi import import_everything
import_everything()
pass
`;
const WHEEL_IDLE_MS = 300;
let wheelLater = null; // after a restore: the wheel's bytes (a promise) until unpacked

async function installWheelLater() {
  const bytes = wheelLater;
  wheelLater = null;
  try {
    installWheel(pyodide, await bytes);
  } catch {
    // the restored engine has every module it needs; only tracebacks lose their lines
  }
}

function importEngine(py) {
  const webapi = py.pyimport("jabberwocky.webapi");
  webapi.reset();
  return webapi.handle;
}

// -- memory snapshots -----------------------------------------------------------------
//
// Stored as a file in the origin-private file system by snapshot-file.js (format and
// checks there).

const OLD_SNAPSHOT_CACHE = "jabberwocky-snapshot"; // where earlier builds stored it

/** The stored snapshot was made by another build or another Pyodide (not damaged). */
class OtherBuild extends Error {}

/**
 * `stored`, checked at once (sf.openSnapshot), while build.json is still on its way; it
 * rejects with OtherBuild when build.json names another build or Pyodide.
 */
function checkSnapshot(stored, infoPromise) {
  const image = Promise.all([sf.openSnapshot(stored), infoPromise]).then(([opened, info]) => {
    if (stored.meta.pyodide !== info.pyodide || stored.meta.build !== info.build) {
      throw new OtherBuild("the stored snapshot was made by another build");
    }
    mark("snapshotChecked");
    return opened;
  });
  image.catch(() => {}); // loadPyodide awaits it and rejects with the reason
  return image;
}

async function bootFromSnapshot(stored, image, wheel) {
  progress(0.3, "Restoring Python…");
  // Pyodide starts, fetches and compiles its module while the image is checked; the
  // image is written into its memory once both are done.
  const create = async (settings) => (await pyodideAsm).default(settings);
  const py = await loadPyodide(sf.restoreOptions(create, image, stored.meta.length));
  mark("pyodide");
  progress(0.9, "Loading the game…");
  const fn = importEngine(py); // imported before the snapshot was made
  wheelLater = wheel; // unpacked once the first answers are out
  mark("engine");
  const probe = JSON.parse(fn("levels", "{}"));
  if (!probe.result || !Array.isArray(probe.result.levels)) {
    throw new Error("the restored engine does not answer");
  }
  return [py, fn];
}

async function makeSnapshot(info) {
  snapshotPending = false;
  const t0 = performance.now();
  let state;
  let size = 0;
  try {
    pyodide.runPython(IMPORT_EVERYTHING);
    const snapshot = await sf.encodeSnapshot(pyodide.makeMemorySnapshot(), info);
    size = snapshot.body.byteLength;
    await sf.writeSnapshotFile(snapshot);
    state = "made";
  } catch (err) {
    state = `failed: ${err?.message ?? err}`;
  }
  snapshotState = state;
  self.postMessage({ type: "snapshot", payload: { snapshot: state, ms: Math.round(performance.now() - t0), bytes: size } });
}

function forgetOldSnapshot() {
  // Builds before the snapshot file kept a 31 MB copy in Cache Storage: free that space.
  if (typeof caches !== "undefined") caches.delete(OLD_SNAPSHOT_CACHE).catch(() => {});
}

// -- work for quiet moments -----------------------------------------------------------
// Unpacking the wheel after a restore and making a snapshot wait until the worker has
// answered and then heard nothing for a while, so they never delay an answer: every new
// request puts them off again.

let quietTimers = [];

function whenQuiet(ms, task) {
  quietTimers.push(setTimeout(task, ms));
}

function notQuiet() {
  quietTimers.forEach(clearTimeout);
  quietTimers = [];
}

// -- boot -----------------------------------------------------------------------------

async function loadBuildInfo() {
  const response = await realFetch(new URL("./build.json", self.location.href));
  if (!response.ok) throw new Error(`build.json could not be loaded (HTTP ${response.status})`);
  return response.json();
}

/** The stored snapshot, or null; a damaged one is deleted (and said so), a busy one kept. */
async function findSnapshot(skip) {
  try {
    sf = await snapshotFiles;
  } catch {
    snapshotOpening?.then((file) => file.close(), () => {});
    return { stored: null, canMake: false }; // start normally, without snapshots
  }
  if (!sf.canStoreSnapshots()) return { stored: null, canMake: false };
  if (skip) {
    await sf.dropSnapshotFile();
    return { stored: null, canMake: true };
  }
  let opening = snapshotOpening ?? undefined;
  if (opening && sf.FILE_NAME !== SNAPSHOT_FILE) {
    opening.then((file) => file.close(), () => {}); // not the file it reads: it opens its own
    opening = undefined;
  }
  try {
    const stored = await sf.readSnapshotFile(opening);
    mark("snapshotRead");
    return { stored, canMake: true };
  } catch (err) {
    if (err instanceof sf.SnapshotBusy) return { stored: null, canMake: false }; // the other tab's
    snapshotState = `failed: ${err?.message ?? err}`;
    await sf.dropSnapshotFile();
    return { stored: null, canMake: true };
  }
}

async function boot() {
  progress(0, "Starting…");
  if (skipSnapshot) {
    snapshotState = "failed: restoring the snapshot took too long; started normally";
  }
  // build.json (the wheel's name, the build) is fetched while the snapshot is looked up;
  // neither start waits for it before Pyodide starts (a restore checks the fit later).
  const infoPromise = loadBuildInfo().then(async (info) => {
    mark("buildInfo");
    knowSizes(info);
    await openSiteCache(info);
    return info;
  });
  infoPromise.catch(() => {}); // awaited below
  expectBytes("wheel");
  const wheel = infoPromise.then(fetchWheel);
  wheel.catch(() => {}); // awaited below; avoid an unhandled rejection meanwhile
  const { stored, canMake } = await findSnapshot(skipSnapshot);
  if (stored) {
    // Pyodide starts at once; only its module's bytes wait for the site cache, and only
    // the image, at the last moment, for build.json's word that the snapshot fits.
    siteCacheOpened = openSiteCacheOf(stored.meta.build, infoPromise);
    self.postMessage({ type: "restoring", payload: {} }); // the page watches the time
    try {
      [pyodide, handle] = await bootFromSnapshot(stored, checkSnapshot(stored, infoPromise), wheel);
      snapshotState = "used";
      return infoPromise;
    } catch (err) {
      if (await infoPromise.then(() => false, () => true)) throw err; // no build.json: no start
      // made by another build or another Pyodide: replaced without a word; else damaged
      if (!(err instanceof OtherBuild)) snapshotState = `failed: ${err?.message ?? err}`;
      wheelLater = null; // the normal start below unpacks it
      await sf.dropSnapshotFile();
    }
  }
  for (const name of TRACK) expectBytes(name);
  pyodide = await loadPyodide({ _makeSnapshot: canMake });
  mark("pyodide");
  progress(0.9, "Loading the game…");
  installWheel(pyodide, await wheel);
  progress(0.95, "Loading the game…");
  handle = importEngine(pyodide);
  mark("engine");
  snapshotPending = canMake;
  return infoPromise;
}

// -- requests -------------------------------------------------------------------------

function answer(id, type, payload) {
  let text;
  try {
    text = JSON.stringify(payload ?? {});
  } catch (err) {
    return { id, error: { kind: "RequestError", message: `the payload is not JSON: ${err?.message ?? err}` } };
  }
  try {
    const reply = JSON.parse(handle(type, text));
    return "error" in reply ? { id, error: reply.error } : { id, result: reply.result };
  } catch (err) {
    return { id, error: { kind: "InternalError", message: String(err?.message ?? err) } };
  }
}

const booted = boot().then(
  (info) => {
    progress(1, "Ready");
    self.postMessage({
      type: "ready",
      payload: {
        pyodide: pyodide.version,
        snapshot: snapshotState,
        ms: Math.round(performance.now() - started),
        build: info.build,
        timings,
      },
    });
    setTimeout(forgetOldSnapshot, SNAPSHOT_IDLE_MS);
    return info;
  },
  (err) => {
    const message = `The game engine could not start: ${err?.message ?? err}`;
    self.postMessage({ type: "failed", payload: { kind: "InternalError", message } });
    throw err;
  },
);

self.onmessage = async (event) => {
  const { id, type, payload } = event.data ?? {};
  let info;
  try {
    info = await booted;
  } catch (err) {
    self.postMessage({ id, error: { kind: "InternalError", message: `the engine did not start: ${err?.message ?? err}` } });
    return;
  }
  notQuiet();
  if (typeof type !== "string") {
    self.postMessage({ id, error: { kind: "RequestError", message: "a request needs a type" } });
    return;
  }
  self.postMessage(answer(id, type, payload));
  if (wheelLater) whenQuiet(WHEEL_IDLE_MS, installWheelLater);
  if (snapshotPending) whenQuiet(SNAPSHOT_IDLE_MS, () => makeSnapshot(info));
};
