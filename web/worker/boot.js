// Booting the engine: Pyodide (restored from the memory snapshot when there is one that
// fits this build, else started normally), then the engine's entry point.  The engine
// comes inside the first standard-library archive (pyodide/python_stdlib.zip, made by
// tools/precompile_stdlib.mjs: its sources and their bytecode), which Pyodide mounts as it
// starts: there is no wheel to fetch or unpack, and nothing to compile.
//
// build.json (the build, the Pyodide version) and the stored snapshot are looked up
// together; Pyodide starts once the snapshot lookup is done.  A restore runs while the
// image is checked; only the image waits for build.json's word that it fits this build
// (the engine is imported in it).

import { mark, progress, expectBytes, knowSizes } from "./progress.js";
import { realFetch, openSiteCache, useSiteCacheOf } from "./site-cache.js";
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

// Run before a memory snapshot: with every engine module imported, a restored engine
// imports nothing before its first answers.  (`pass` last, so runPython hands back
// nothing: no proxy of the list of names is held when the snapshot is taken.)
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

async function bootFromSnapshot(stored, image) {
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
  return { pyodide: py, handle };
}

// -- boot -----------------------------------------------------------------------------

/**
 * Start the engine.  Resolves to {pyodide, handle, info, canMakeSnapshot}:
 * handle(type, payloadJson) -> JSON text is the engine's entry point.
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
  const { stored, canMake } = await findSnapshot();
  if (stored) {
    // Pyodide starts at once; only its module's bytes wait for the site cache, and only
    // the image, at the last moment, for build.json's word that the snapshot fits.
    useSiteCacheOf(stored.meta.build, infoPromise);
    self.postMessage({ type: "restoring", payload: {} }); // the page watches the time
    try {
      const restored = await bootFromSnapshot(stored, checkSnapshot(stored, infoPromise));
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
  const handle = importEngine(py);
  mark("engine");
  return { pyodide: py, handle, info: await infoPromise, canMakeSnapshot: canMake };
}
