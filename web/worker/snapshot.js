// The memory snapshot's lifecycle in the engine worker: find the stored one, check it,
// hand it to a restore, make a new one when the worker is idle, drop a damaged one.
// The file format and its checks are ../snapshot-file.js's (a file in the origin-private
// file system).  A failed snapshot is deleted and the start goes on normally (another
// build's is replaced without a word); one another tab is using is left alone.

import { mark } from "./progress.js";

// Imported without waiting (a static import held back the whole worker: A/B, table dealt
// at 474 vs 488 ms).  Should it fail to load, this visit starts without snapshots.
const snapshotFiles = import("../snapshot-file.js");
snapshotFiles.catch(() => {});
let sf = null; // the module, once findSnapshot() has it

// Named "… snapshot=timeout": the page gave up on restoring a snapshot; drop it.
export const skipSnapshot = /\bsnapshot=timeout\b/.test(self.name ?? "");

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

/** What the snapshot did on this visit: "none", "used", "made" or "failed: …". */
export const snapshot = { state: skipSnapshot ? "failed: restoring the snapshot took too long; started normally" : "none" };

const OLD_SNAPSHOT_CACHE = "jabberwocky-snapshot"; // where earlier builds stored it

/** The stored snapshot was made by another build or another Pyodide (not damaged). */
export class OtherBuild extends Error {}

/** The stored snapshot ({stored, canMake}); a damaged one is deleted (and said so), a
 *  busy one (another tab's) kept. */
export async function findSnapshot() {
  try {
    sf = await snapshotFiles;
  } catch {
    snapshotOpening?.then((file) => file.close(), () => {});
    return { stored: null, canMake: false }; // start normally, without snapshots
  }
  if (!sf.canStoreSnapshots()) return { stored: null, canMake: false };
  if (skipSnapshot) {
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
    snapshot.state = `failed: ${err?.message ?? err}`;
    await sf.dropSnapshotFile();
    return { stored: null, canMake: true };
  }
}

/**
 * `stored`, checked at once (sf.openSnapshot), while build.json is still on its way; it
 * rejects with OtherBuild when build.json names another build or Pyodide.
 */
export function checkSnapshot(stored, infoPromise) {
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

/** loadPyodide's options for restoring `image` (see snapshot-file.js). */
export const restoreOptions = (create, image, length) => sf.restoreOptions(create, image, length);

export const dropSnapshot = () => sf.dropSnapshotFile();

/** Make a snapshot of `pyodide` (everything the engine needs imported first) and store
 *  it; tells the page ("snapshot" message). */
export async function makeSnapshot(pyodide, info, prepare) {
  const t0 = performance.now();
  let state;
  let size = 0;
  try {
    prepare();
    const made = await sf.encodeSnapshot(pyodide.makeMemorySnapshot(), info);
    size = made.body.byteLength;
    await sf.writeSnapshotFile(made);
    state = "made";
  } catch (err) {
    state = `failed: ${err?.message ?? err}`;
  }
  snapshot.state = state;
  self.postMessage({ type: "snapshot", payload: { snapshot: state, ms: Math.round(performance.now() - t0), bytes: size } });
}

/** Builds before the snapshot file kept a 31 MB copy in Cache Storage: free that space. */
export function forgetOldSnapshot() {
  if (typeof caches !== "undefined") caches.delete(OLD_SNAPSHOT_CACHE).catch(() => {});
}
