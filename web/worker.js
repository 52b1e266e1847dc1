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
// Start-up: build.json (names the wheel, the build and the Pyodide version) and the
// stored memory snapshot are looked up together; with no snapshot stored (a first visit)
// Pyodide starts at once, without waiting for build.json.  With a snapshot that fits this build,
// Pyodide restores it (every engine module already imported); otherwise it boots
// normally while the engine wheel is fetched in parallel, and a snapshot is made once
// the worker has been idle for a moment after its first answer, so it never delays the
// first dealt table.  Any snapshot failure deletes the stored copy and falls back to a
// normal start.  All URLs are relative, so the site works under any sub-path.

// Imported without waiting for it: the boot below starts fetching build.json and looking
// up the stored snapshot while pyodide.mjs is still on its way.
const pyodideModule = import("./pyodide/pyodide.mjs");
pyodideModule.catch(() => {}); // awaited by loadPyodide() below, which reports the failure

async function loadPyodide(options) {
  return (await pyodideModule).loadPyodide(options);
}

const SNAPSHOT_CACHE = "jabberwocky-snapshot";
const SNAPSHOT_KEY = new URL("./__pyodide-memory-snapshot__", self.location.href).href;
const SNAPSHOT_IDLE_MS = 1500; // made while the player thinks, not between bot moves
const started = performance.now();

let handle = null; // Python callable: handle(type, payload_json) -> JSON text
let pyodide = null;
let snapshotState = "none";
let snapshotPending = false; // true when this boot can and should make a snapshot
let idleTimer = 0;

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
self.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  const url = typeof input === "string" ? input : (input.url ?? String(input));
  for (const name of TRACK) {
    if (url.endsWith(name) && response.ok && response.body && tracked.has(name)) {
      drain(name, response.clone());
    }
  }
  return response;
};

// Pyodide compiles its WebAssembly module while it downloads (streaming); report when
// that is done.  (Only the streaming call: Pyodide also instantiates a tiny helper module.)
if (typeof WebAssembly.instantiateStreaming === "function") {
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = function (...args) {
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
  const response = await realFetch(new URL(info.wheel, self.location.href));
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

function importEngine(py) {
  const webapi = py.pyimport("jabberwocky.webapi");
  webapi.reset();
  return webapi.handle;
}

// -- memory snapshots -----------------------------------------------------------------

async function openSnapshotCache() {
  if (typeof caches === "undefined") return null;
  try {
    return await caches.open(SNAPSHOT_CACHE);
  } catch {
    return null; // storage disabled (private mode, quota): just start normally
  }
}

async function findSnapshot(cache) {
  if (!cache) return null;
  try {
    return (await cache.match(SNAPSHOT_KEY)) ?? null;
  } catch {
    return null;
  }
}

function snapshotFits(response, info) {
  return response.headers.get("x-pyodide") === info.pyodide && response.headers.get("x-build") === info.build;
}

async function snapshotBytes(response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  mark("snapshotBytes");
  const expected = Number(response.headers.get("x-length"));
  if (bytes.byteLength !== expected) {
    throw new Error(`the stored snapshot has ${bytes.byteLength} bytes, expected ${expected}`);
  }
  if (bytes.byteLength < 1024 || bytes.byteLength % 4 !== 0) {
    throw new Error("the stored snapshot is too short to be one");
  }
  const digest = await digestOf(bytes);
  if (digest !== response.headers.get("x-digest")) {
    throw new Error("the stored snapshot does not match its digest");
  }
  return bytes;
}

async function digestOf(bytes) {
  // SHA-256 of the whole snapshot: catches any changed byte before Pyodide trusts it.
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function bootFromSnapshot(cache, response, info, wheel) {
  progress(0.3, "Restoring Python…");
  // Pyodide awaits the snapshot only after it has started fetching and compiling its
  // WebAssembly module, so reading and checking the stored copy overlaps with that.
  const bytes = snapshotBytes(response).then((b) => {
    mark("snapshotRead");
    return b;
  });
  bytes.catch(() => {}); // loadPyodide awaits it and rejects with the reason
  const py = await loadPyodide({ _loadSnapshot: bytes });
  mark("pyodide");
  progress(0.9, "Loading the game…");
  installWheel(py, await wheel);
  const fn = importEngine(py);
  mark("engine");
  const probe = JSON.parse(fn("levels", "{}"));
  if (!probe.result || !Array.isArray(probe.result.levels)) {
    throw new Error("the restored engine does not answer");
  }
  return [py, fn];
}

async function dropSnapshot(cache) {
  try {
    await cache?.delete(SNAPSHOT_KEY);
  } catch {
    // nothing more to do
  }
}

async function makeSnapshot(info) {
  snapshotPending = false;
  const t0 = performance.now();
  let state;
  let size = 0;
  try {
    const bytes = pyodide.makeMemorySnapshot();
    size = bytes.byteLength;
    const cache = await openSnapshotCache();
    if (!cache) throw new Error("Cache Storage is not available");
    const headers = {
      "content-type": "application/octet-stream",
      "x-pyodide": info.pyodide,
      "x-build": info.build,
      "x-length": String(size),
      "x-digest": await digestOf(bytes),
    };
    await cache.put(SNAPSHOT_KEY, new Response(bytes, { headers }));
    state = "made";
  } catch (err) {
    state = `failed: ${err?.message ?? err}`;
  }
  snapshotState = state;
  self.postMessage({ type: "snapshot", payload: { snapshot: state, ms: Math.round(performance.now() - t0), bytes: size } });
}

function scheduleSnapshot(info) {
  if (!snapshotPending) return;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (snapshotPending) makeSnapshot(info);
  }, SNAPSHOT_IDLE_MS);
}

// -- boot -----------------------------------------------------------------------------

async function loadBuildInfo() {
  const response = await realFetch(new URL("./build.json", self.location.href));
  if (!response.ok) throw new Error(`build.json could not be loaded (HTTP ${response.status})`);
  return response.json();
}

async function boot() {
  progress(0, "Starting…");
  // named "… snapshot=timeout": the page gave up on restoring a snapshot and deleted it
  const skip = /\bsnapshot=timeout\b/.test(self.name ?? "");
  if (skip) {
    snapshotState = "failed: restoring the snapshot took too long; started normally";
  }
  // build.json (the wheel's name, the build) is fetched while the snapshot is looked up;
  // only a stored snapshot needs it before Python starts (to check that it fits), so a
  // first visit starts Pyodide without waiting for it.
  const infoPromise = loadBuildInfo().then((info) => {
    mark("buildInfo");
    knowSizes(info);
    return info;
  });
  infoPromise.catch(() => {}); // awaited below
  expectBytes("wheel");
  const wheel = infoPromise.then(fetchWheel);
  wheel.catch(() => {}); // awaited below; avoid an unhandled rejection meanwhile
  const cache = await openSnapshotCache();
  const stored = skip ? null : await findSnapshot(cache);
  if (stored) {
    const info = await infoPromise;
    if (snapshotFits(stored, info)) {
      self.postMessage({ type: "restoring", payload: {} }); // the page watches the time
      try {
        [pyodide, handle] = await bootFromSnapshot(cache, stored, info, wheel);
        snapshotState = "used";
        return info;
      } catch (err) {
        snapshotState = `failed: ${err?.message ?? err}`;
        await dropSnapshot(cache);
      }
    } else {
      await dropSnapshot(cache); // made by another build or another Pyodide
    }
  }
  for (const name of TRACK) expectBytes(name);
  const canSnapshot = cache !== null;
  pyodide = await loadPyodide({ _makeSnapshot: canSnapshot });
  mark("pyodide");
  progress(0.9, "Loading the game…");
  installWheel(pyodide, await wheel);
  progress(0.95, "Loading the game…");
  handle = importEngine(pyodide);
  mark("engine");
  snapshotPending = canSnapshot;
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
  clearTimeout(idleTimer);
  if (typeof type !== "string") {
    self.postMessage({ id, error: { kind: "RequestError", message: "a request needs a type" } });
    return;
  }
  self.postMessage(answer(id, type, payload));
  scheduleSnapshot(info);
};
