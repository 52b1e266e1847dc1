// The engine worker's message loop: {id, type, payload} in, {id, result} or {id, error}
// out (one request at a time, in order), plus work for quiet moments: a first visit's
// decoded files left for the service worker, and making a snapshot, wait until the worker
// has answered and then heard nothing for a while, so they never delay an answer (every
// request puts them off).

import { progress, timings, started } from "./progress.js";
import { snapshot, makeSnapshot, forgetOldSnapshot } from "./snapshot.js";
import { importEverything } from "./boot.js";

const SNAPSHOT_IDLE_MS = 1500; // made while the player thinks, not between bot moves
const QUIET_MS = 300;

let quietTimers = [];

function whenQuiet(ms, task) {
  quietTimers.push(setTimeout(task, ms));
}

function notQuiet() {
  quietTimers.forEach(clearTimeout);
  quietTimers = [];
}

function answer(handle, id, type, payload) {
  let text;
  try {
    text = JSON.stringify(payload ?? {});
  } catch (err) {
    return { id, error: { kind: "RequestError", message: `the payload is not JSON: ${err?.message ?? err}`, code: "request.payload_not_text", params: {} } };
  }
  try {
    const reply = JSON.parse(handle(type, text));
    return "error" in reply ? { id, error: reply.error } : { id, result: reply.result };
  } catch (err) {
    return { id, error: { kind: "InternalError", message: String(err?.message ?? err), code: "internal", params: { detail: String(err?.message ?? err).slice(0, 300) } } };
  }
}

/** Serve requests once `booting` (boot()'s promise) has resolved; tell the page "ready"
 *  (or "failed").  `idleTask` runs once, the first time the worker is quiet after an
 *  answer.  Returns the handler of the page's messages (worker.js listens). */
export function serve(booting, idleTask = null) {
  let engine = null;
  let snapshotPending = false;
  // run once, the first time the worker is quiet after an answer, in this order
  const onceQuiet = idleTask ? [idleTask] : [];
  const booted = booting.then(
    (started_) => {
      engine = started_;
      snapshotPending = started_.canMakeSnapshot;
      progress(1, "loading.ready");
      self.postMessage({
        type: "ready",
        payload: {
          pyodide: engine.pyodide.version,
          snapshot: snapshot.state,
          ms: Math.round(performance.now() - started),
          build: engine.info.build,
          timings,
          timeOrigin: performance.timeOrigin, // the worker's clock, for bench/startup_profile.py
        },
      });
      setTimeout(forgetOldSnapshot, SNAPSHOT_IDLE_MS);
    },
    (err) => {
      const detail = String(err?.message ?? err);
      self.postMessage({ type: "failed", payload: { kind: "InternalError", message: `The game engine could not start: ${detail}`, code: "loading.engine_failed", params: { detail } } });
      throw err;
    },
  );

  return async (event) => {
    const { id, type, payload } = event.data ?? {};
    try {
      await booted;
    } catch (err) {
      const detail = String(err?.message ?? err);
      self.postMessage({ id, error: { kind: "InternalError", message: `the engine did not start: ${detail}`, code: "loading.engine_failed", params: { detail } } });
      return;
    }
    notQuiet();
    if (typeof type !== "string") {
      self.postMessage({ id, error: { kind: "RequestError", message: "a request needs a type", code: "request.unknown_type", params: { value: String(type), choices: [] } } });
      return;
    }
    self.postMessage(answer(engine.handle, id, type, payload));
    // each its own microtask: one that throws does not stop the others
    if (onceQuiet.length) whenQuiet(QUIET_MS, () => onceQuiet.splice(0).forEach((task) => queueMicrotask(task)));
    if (snapshotPending) {
      whenQuiet(SNAPSHOT_IDLE_MS, () => {
        snapshotPending = false;
        makeSnapshot(engine.pyodide, engine.info, () => importEverything(engine.pyodide));
      });
    }
  };
}
