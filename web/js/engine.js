// The page side of the engine worker: one Promise per request, a `ready` promise and
// progress events.  The worker starts as soon as this module is imported, so Python
// boots while the page renders.
//
//   import { engine, EngineError } from "./engine.js";
//   engine.addEventListener("progress", (e) => bar(e.detail.fraction, e.detail.key));
//   await engine.ready;                       // {pyodide, snapshot, ms, build}
//   const view = await engine.request("new_game", {seed: "x", players: 4, bots: "medium"});
//
// A failed request rejects with an EngineError whose `kind` is the Python exception's
// class name ("IllegalMoveError", "RecordError", "SeedError", …) or "InternalError".
// Events: "progress" {fraction, key, params}, "restoring" {} (a stored snapshot is being
// restored; `engine.restoring` says so from then on), "ready" {…}, "snapshot"
// {snapshot, ms, bytes}, "failed" {kind, message, params}.  Tests and outside checks use
// window.__jabberwocky.

export class EngineError extends Error {
  /** kind: the Python exception's class; code + params: the message as a catalogue entry. */
  constructor(kind, message, code = "internal", params = {}) {
    super(message);
    this.name = "EngineError";
    this.kind = kind;
    this.code = code;
    this.params = params;
  }
}

const RESTORE_TIMEOUT_MS = 20000;
const RESTORE_TIMEOUT_KEY = "jabberwocky.restoreTimeoutMs"; // tests shorten it

function restoreTimeout() {
  try {
    const ms = Number(localStorage.getItem(RESTORE_TIMEOUT_KEY));
    return ms > 0 ? ms : RESTORE_TIMEOUT_MS;
  } catch {
    return RESTORE_TIMEOUT_MS;
  }
}

export class Engine extends EventTarget {
  constructor(workerUrl = new URL("../worker.js", import.meta.url)) {
    super();
    this.workerUrl = workerUrl;
    this.restoreTimer = 0;
    this.restoring = false;
    this.startedAt = performance.now();
    this.nextId = 1;
    this.pending = new Map();
    this.progress = { fraction: 0, key: "loading.starting", params: {} };
    this.info = null;
    this.failure = null;
    this.log = []; // the last requests: {type, sent, ms, ok} (for tests and benchmarks)
    this.ready = new Promise((resolve, reject) => {
      this._resolveReady = resolve;
      this._rejectReady = reject;
    });
    this.ready.catch(() => {}); // reported through the "failed" event as well
    const early = typeof window !== "undefined" ? window.__jabberwockyEarlyWorker : undefined;
    if (early && workerUrl.href === new URL("../worker.js", import.meta.url).href) {
      // js/early.js started the worker before this module loaded: take it over.
      const { worker, held, errors } = early.adopt();
      this._attach(worker);
      queueMicrotask(() => {
        for (const message of held) if (this.worker === worker) this._onMessage(message);
        if (errors.length && this.worker === worker) this._fail(`the engine worker failed: ${errors[0]}`);
      });
    } else {
      this._startWorker(workerUrl);
    }
  }

  _startWorker(url, name = "jabberwocky") {
    // The worker reads its instructions from its name: a URL query would be lost when the
    // service worker answers from its cache (a worker's location is its response's URL).
    this._attach(new Worker(url, { type: "module", name }));
  }

  /** Listen to `worker` and make it the current one. */
  _attach(worker) {
    worker.addEventListener("message", (event) => {
      if (worker === this.worker) this._onMessage(event.data);
    });
    worker.addEventListener("error", (event) => {
      event.preventDefault?.();
      if (worker !== this.worker) return;
      this._fail(`the engine worker failed: ${event.message || "it could not be loaded"}`);
    });
    this.worker = worker;
  }

  /**
   * A memory snapshot that does not restore in time (it should take about a second) is
   * treated like a broken one: the worker is replaced by one that starts normally, the
   * stored snapshot is deleted (by that worker), and requests already sent are sent again.
   */
  _watchRestore() {
    clearTimeout(this.restoreTimer);
    const ms = restoreTimeout();
    this.restoreTimer = setTimeout(() => {
      if (this.info || this.failure) return;
      this.worker.terminate();
      // the new worker deletes the stored snapshot and starts normally
      this._startWorker(this.workerUrl, "jabberwocky snapshot=timeout");
      for (const [id, waiter] of this.pending) {
        this.worker.postMessage({ id, type: waiter.type, payload: waiter.payload });
      }
    }, ms);
  }

  /** Send one request; resolves with its result, rejects with an EngineError. */
  request(type, payload = {}) {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const sent = performance.now();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, type, payload, sent });
      this.worker.postMessage({ id, type, payload });
    });
  }

  // -- the deal of the day (issue 32, docs/daily.md): its table, its par, the result ----

  /** The table of `date`'s deal ("YYYY-MM-DD", UTC): {date, seed, players, bots, rules, …}. */
  daily(date) {
    return this.request("daily", { date });
  }

  /** The par of `date`: the hard bot's game in the player's seat (10 s or more in
   *  Pyodide), asked a round at a time so that other requests are answered in between. */
  async dailyPar(date) {
    for (;;) {
      const answer = await this.request("daily_par", { date, rounds: 1 });
      if (answer.done) return answer;
    }
  }

  /** The table's daily game as the day's result: marks, points, eligible, challenge. */
  dailyResult() {
    return this.request("daily_result");
  }

  _onMessage(msg) {
    if (!msg || typeof msg !== "object") return;
    if (msg.id !== undefined && msg.id !== null) {
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      const ms = performance.now() - waiter.sent;
      this.log.push({ type: waiter.type, sent: Math.round(waiter.sent), ms: Math.round(ms), ok: !msg.error });
      if (this.log.length > 200) this.log.shift();
      if (msg.error) waiter.reject(new EngineError(msg.error.kind, msg.error.message, msg.error.code, msg.error.params));
      else waiter.resolve(msg.result);
      return;
    }
    const detail = msg.payload ?? {};
    if (msg.type === "progress") {
      this.progress = detail;
    } else if (msg.type === "restoring") {
      this.restoring = true;
      this._watchRestore();
    } else if (msg.type === "ready") {
      clearTimeout(this.restoreTimer);
      this.info = { ...detail, pageMs: Math.round(performance.now() - this.startedAt) };
      this._resolveReady(this.info);
    } else if (msg.type === "failed") {
      this._fail(detail.message || "the engine could not start", detail.params?.detail);
      return;
    }
    this.dispatchEvent(new CustomEvent(msg.type, { detail }));
  }

  /** The engine cannot start: `message` for the console and tests, `detail` (the cause,
   *  when the worker knows it) for the page's own sentence. */
  _fail(message, detail = message) {
    if (this.failure) return;
    const params = { detail };
    this.failure = new EngineError("InternalError", message, "loading.engine_failed", params);
    this._rejectReady(this.failure);
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
    this.dispatchEvent(new CustomEvent("failed", { detail: { kind: "InternalError", message, params } }));
  }
}

export const engine = new Engine();

// -- page markers and the test hook ----------------------------------------------------

function mark(name, value) {
  const set = () => {
    document.body.dataset[name] = value;
  };
  if (document.body) set();
  else document.addEventListener("DOMContentLoaded", set, { once: true });
}

if (typeof window !== "undefined" && typeof document !== "undefined") {
  mark("engine", "loading");
  engine.ready.then(
    (info) => {
      mark("engine", "ready");
      mark("snapshot", String(info.snapshot).startsWith("failed") ? "failed" : info.snapshot);
    },
    () => mark("engine", "failed"),
  );
  engine.addEventListener("snapshot", (e) => {
    mark("snapshot", String(e.detail.snapshot).startsWith("failed") ? "failed" : e.detail.snapshot);
  });
  const events = [];
  for (const type of ["progress", "ready", "snapshot", "failed"]) {
    engine.addEventListener(type, (e) => events.push({ type, at: Math.round(performance.now()), ...e.detail }));
  }
  window.__jabberwocky = {
    engine,
    events,
    log: engine.log,
    ready: () => engine.ready,
    request: (type, payload) => engine.request(type, payload),
    /** Like request, but resolves to {result} or {error: {kind, message, code, params}} (never rejects). */
    tryRequest: (type, payload) =>
      engine.request(type, payload).then(
        (result) => ({ result }),
        (err) => ({ error: { kind: err.kind ?? "Error", message: err.message, code: err.code, params: err.params } }),
      ),
  };
}
