// Booting the engine: Pyodide (restored from the memory snapshot when there is one that
// fits this build, else started normally), the engine wheel, the engine's entry point.
//
// build.json (the wheel, the build, the Pyodide version) and the stored snapshot are
// looked up together; Pyodide starts once the snapshot lookup is done.  A restore runs
// while the image is checked; only the image waits for build.json's word that it fits
// this build (the engine is imported in it; the wheel is unpacked after the first
// answers).  Otherwise Pyodide boots while the wheel is fetched.

import { mark, progress, expectBytes, knowSizes, exactBytes, countBytes, bodyLength } from "./progress.js";
import { realFetch, fetchCached, openSiteCache, useSiteCacheOf } from "./site-cache.js";
import { snapshot, findSnapshot, checkSnapshot, restoreOptions, dropSnapshot, OtherBuild } from "./snapshot.js";
import { provideStdlib } from "./stdlib.js";
import { loadBuildInfo } from "./build-info.js";

// Imported without waiting: build.json and the snapshot are looked up meanwhile.
const pyodideModule = import("../pyodide/pyodide.mjs");
pyodideModule.catch(() => {}); // awaited by loadPyodide() below, which reports the failure
// pyodide.mjs imports this one only inside loadPyodide(): asked for now, it loads in
// parallel (same URL).  A restore makes Pyodide's module with it (restoreOptions).
const pyodideAsm = import("../pyodide/pyodide.asm.mjs");
pyodideAsm.catch(() => {});

const TRACK = ["pyodide.asm.wasm", "python_stdlib.zip"];

async function loadPyodide(options) {
  return (await pyodideModule).loadPyodide(options);
}

// -- the engine wheel -----------------------------------------------------------------

async function fetchWheel(info) {
  const key = "wheel";
  const response = await fetchCached(new URL(info.wheel, self.location.href));
  if (!response.ok) throw new Error(`the engine wheel ${info.wheel} could not be loaded (HTTP ${response.status})`);
  exactBytes(key, bodyLength(response));
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

export const importEverything = (py) => py.runPython(IMPORT_EVERYTHING);

function importEngine(py) {
  const webapi = py.pyimport("jabberwocky.webapi");
  webapi.reset();
  return webapi.handle;
}

// -- a restore ------------------------------------------------------------------------

async function bootFromSnapshot(stored, image, wheel) {
  progress(0.3, "loading.restoring");
  // Pyodide starts, fetches and compiles its module while the image is checked; the
  // image is written into its memory once both are done.
  const create = async (settings) => (await pyodideAsm).default(settings);
  const py = await loadPyodide(restoreOptions(create, image, stored.meta.length));
  mark("pyodide");
  provideStdlib(py, { installFinder: false }); // installed before the snapshot was made
  progress(0.9, "loading.game");
  const handle = importEngine(py); // imported before the snapshot was made
  mark("engine");
  const probe = JSON.parse(handle("levels", "{}"));
  if (!probe.result || !Array.isArray(probe.result.levels)) {
    throw new Error("the restored engine does not answer");
  }
  return { pyodide: py, handle, wheelLater: wheel };
}

// -- boot -----------------------------------------------------------------------------

/**
 * Start the engine.  Resolves to {pyodide, handle, info, canMakeSnapshot, wheelLater}:
 * handle(type, payloadJson) -> JSON text is the engine's entry point; wheelLater, after a
 * restore, the wheel's bytes (a promise) to unpack once the first answers are out.
 */
export async function boot() {
  progress(0, "loading.starting");
  // build.json is fetched while the snapshot is looked up; neither start waits for it
  // before Pyodide starts (a restore checks the fit later).
  const infoPromise = loadBuildInfo(realFetch).then(async (info) => {
    mark("buildInfo");
    knowSizes(info);
    await openSiteCache(info);
    return info;
  });
  infoPromise.catch(() => {}); // awaited below
  expectBytes("wheel");
  const wheel = infoPromise.then(fetchWheel);
  wheel.catch(() => {}); // awaited below; avoid an unhandled rejection meanwhile
  const { stored, canMake } = await findSnapshot();
  if (stored) {
    // Pyodide starts at once; only its module's bytes wait for the site cache, and only
    // the image, at the last moment, for build.json's word that the snapshot fits.
    useSiteCacheOf(stored.meta.build, infoPromise);
    self.postMessage({ type: "restoring", payload: {} }); // the page watches the time
    try {
      const restored = await bootFromSnapshot(stored, checkSnapshot(stored, infoPromise), wheel);
      snapshot.state = "used";
      return { ...restored, info: await infoPromise, canMakeSnapshot: false };
    } catch (err) {
      if (await infoPromise.then(() => false, () => true)) throw err; // no build.json: no start
      // made by another build or another Pyodide: replaced without a word; else damaged
      if (!(err instanceof OtherBuild)) snapshot.state = `failed: ${err?.message ?? err}`;
      await dropSnapshot();
    }
  }
  for (const name of TRACK) expectBytes(name);
  const py = await loadPyodide({ _makeSnapshot: canMake });
  mark("pyodide");
  provideStdlib(py, { installFinder: true });
  progress(0.9, "loading.game");
  installWheel(py, await wheel);
  progress(0.95, "loading.game");
  const handle = importEngine(py);
  mark("engine");
  return { pyodide: py, handle, info: await infoPromise, canMakeSnapshot: canMake, wheelLater: null };
}

/** Unpack the wheel after a restore (only tracebacks need its files: every module the
 *  engine uses was imported before the snapshot). */
export async function installWheelLater(py, bytes) {
  try {
    installWheel(py, await bytes);
  } catch {
    // the restored engine has every module it needs; only tracebacks lose their lines
  }
}
