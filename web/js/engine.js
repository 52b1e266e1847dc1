// The engine as the page sees it: one protocol module.  Only this file knows the engine's
// request names and the shape of its answers; the rest of the page calls typed methods
// (`engine.play(card)`, `engine.bid(n)`, `engine.review(source)`, …), each resolving to
// an outcome, {result} or {error: {kind, message, code, params}} (never a rejection).
//
//   import { engine } from "./engine.js";
//   engine.addEventListener("progress", (e) => bar(e.detail.fraction, e.detail.key));
//   await engine.ready;                       // {pyodide, snapshot, ms, build}
//   const { result: view, error } = await engine.newGame({ players: 4, bots: "medium" });
//
// Behind the methods stands a transport: anything with `send(kind, payload)` resolving to
// the engine's answer as it travels ({result} or {error}).  Today's is the engine worker
// (WorkerTransport: it starts as soon as this module is imported, so Python boots while
// the page renders, and reports its start-up through events); a remote host over a data
// channel can stand behind the same methods by offering the same `send`.
//
// `error.kind` is the Python exception's class name ("IllegalMoveError", "RecordError",
// "SeedError", …) or "InternalError"; `code` + `params` are its message as a catalogue
// entry.  Events (the transport's): "progress" {fraction, key, params}, "restoring" {} (a
// stored snapshot is being restored; `engine.restoring` says so from then on), "ready"
// {…}, "snapshot" {snapshot, ms, bytes}, "failed" {kind, message, params}.  Tests and
// outside checks use window.__jabberwocky.

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

/** An error (an EngineError, a thrown Error, an answer's error) as an outcome's error. */
function errorOf(err) {
  return {
    kind: err?.kind || "Error",
    message: err?.message || String(err),
    code: err?.code || "internal",
    params: err?.params || {},
  };
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

/** The engine worker as a transport: the worker's boot (progress, a snapshot restore that
 *  takes too long, failure) and one answer per request, matched by id. */
export class WorkerTransport extends EventTarget {
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

  /** Send one request; resolves with the engine's answer, {result} or {error} (a worker
   *  that failed answers every request with its failure). */
  send(kind, payload = {}) {
    if (this.failure) return Promise.resolve({ error: errorOf(this.failure) });
    const id = this.nextId++;
    const sent = performance.now();
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, type: kind, payload, sent });
      this.worker.postMessage({ id, type: kind, payload });
    });
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
      waiter.resolve(msg.error ? { error: msg.error } : { result: msg.result });
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
    for (const waiter of this.pending.values()) waiter.resolve({ error: errorOf(this.failure) });
    this.pending.clear();
    this.dispatchEvent(new CustomEvent("failed", { detail: { kind: "InternalError", message, params } }));
  }
}

/**
 * The page's engine: typed methods over a transport.  Every answer is unwrapped here and
 * nowhere else (`call`); start-up (ready, progress, events) is the transport's, passed on.
 */
/** The requests an online host makes along with its guests' views (the engine's
 *  `with_views`: src/jabberwocky/webapi/api.py WITH_VIEWS). */
const WITH_VIEWS = new Set(["bid", "play", "bot_step", "next_round", "seat_bid", "seat_play", "seat_auto"]);

export class Engine {
  constructor(transport) {
    this.transport = transport;
    this.along = null;
  }

  /**
   * An online host (online/host.js): every request that changes the table also answers
   * the views its guests are sent after it, in the same answer (`with_views`: one trip to
   * the worker instead of two).  `along`: {wanted() -> {seats, public} | null, took(views,
   * kind)}, or null to stop.
   */
  sendViewsAlong(along) {
    this.along = along;
  }

  get ready() {
    return this.transport.ready ?? Promise.resolve({});
  }

  get progress() {
    return this.transport.progress ?? { fraction: 1, key: "loading.shuffling", params: {} };
  }

  get restoring() {
    return Boolean(this.transport.restoring);
  }

  get log() {
    return this.transport.log ?? [];
  }

  addEventListener(type, listener, options) {
    this.transport.addEventListener?.(type, listener, options);
  }

  removeEventListener(type, listener, options) {
    this.transport.removeEventListener?.(type, listener, options);
  }

  /** One request by name, as an outcome: {result} or {error: {kind, message, code,
   *  params}}; never rejects (a transport that throws is reported as an error). */
  async call(kind, payload = {}) {
    const wanted = this.along && WITH_VIEWS.has(kind) ? this.along.wanted() : null;
    if (wanted) {
      const along = this.along;
      const answer = await this.call("with_views", { request: kind, payload, ...wanted });
      if (answer.error) return answer;
      along.took(answer.result.views, kind);
      return { result: answer.result.result };
    }
    let answer;
    try {
      answer = await this.transport.send(kind, payload);
    } catch (err) {
      return { error: errorOf(err) };
    }
    if (answer && typeof answer === "object" && answer.error) return { error: errorOf(answer.error) };
    if (!answer || typeof answer !== "object" || !("result" in answer)) {
      return { error: errorOf({ kind: "InternalError", message: `no answer to ${kind}` }) };
    }
    return { result: answer.result };
  }

  /** The same request as a promise of its result, rejected with an EngineError (the test
   *  hook's `request`). */
  async request(kind, payload = {}) {
    const { result, error } = await this.call(kind, payload);
    if (error) throw new EngineError(error.kind, error.message, error.code, error.params);
    return result;
  }

  // -- the deal of the day (docs/daily.md): its table, its par, the result -----------------

  /** The table of `date`'s deal ("YYYY-MM-DD", UTC): {date, seed, players, bots, rules, …}. */
  daily(date) {
    return this.call("daily", { date });
  }

  /** The par of `date`: the hard bot's game in the player's seat (10 s or more in
   *  Pyodide), asked a round at a time so that other requests are answered in between. */
  async dailyPar(date) {
    for (;;) {
      const answer = await this.call("daily_par", { date, rounds: 1 });
      if (answer.error || answer.result.done) return answer;
    }
  }

  /** The table's daily game as the day's result: marks, points, eligible, challenge. */
  dailyResult() {
    return this.call("daily_result");
  }

  // -- what the engine offers ------------------------------------------------------------

  /** The bot levels ({levels, default, bots_version}). */
  levels() {
    return this.call("levels");
  }

  /** The rules: presets, every option's specification, table sizes, limits. */
  rules() {
    return this.call("rules");
  }

  // -- starting a game (each answers the view) -------------------------------------------

  /** A new game: {seed?, players, bots, rules} or, in pass-and-play, {seed?, players,
   *  seats, names, rules}. */
  newGame({ seed, players, bots, seats, names, rules }) {
    const payload = seats ? { players, seats, names, rules } : { players, bots, rules };
    if (seed) payload.seed = seed;
    return this.call("new_game", payload);
  }

  /** Play the deals of a challenge's text, as `name` (or no name). */
  playChallenge(text, name = "") {
    return this.call("challenge_play", { text, name: name || null });
  }

  /** Put a record's text on the table (the engine replays it); `remote`: the person
   *  seats played elsewhere (an online host resuming its table). */
  importRecord(record, remote = undefined) {
    return this.call("import_record", remote === undefined ? { record } : { record, remote });
  }

  /** Resume the page's own autosave (its record's text): as importRecord, but a game
   *  saved before its first move resumes too (a reload right after the deal); `remote`
   *  as for importRecord (an online host resuming its table). */
  resumeSave(record, remote = undefined) {
    return this.call("import_record", { ...(remote === undefined ? { record } : { record, remote }), saved: true });
  }

  /** Would importRecord accept this record's text? {seed, players, step}, the table untouched. */
  checkRecord(record) {
    return this.call("check_record", { record });
  }

  /** The table's game as a record: {record, filename}. */
  exportRecord() {
    return this.call("export_record");
  }

  /** The device's view of the table as it is now. */
  state() {
    return this.call("state");
  }

  // -- moves (each answers the view; botStep {action, view}) -----------------------------

  bid(n) {
    return this.call("bid", { bid: n });
  }

  play(card) {
    return this.call("play", { card });
  }

  botStep() {
    return this.call("bot_step");
  }

  nextRound() {
    return this.call("next_round");
  }

  claim() {
    return this.call("claim");
  }

  reveal() {
    return this.call("reveal");
  }

  takeBack() {
    return this.call("take_back");
  }

  /** What the strongest bot at the table would do in the human's place. */
  hint() {
    return this.call("hint");
  }

  // -- an online table: the host's engine referees each guest's seat -------------------

  /** A person seat's own view (what the host sends that guest). */
  seatView(seat) {
    return this.call("seat_view", { seat });
  }

  /** The table as anyone may see it, no hand at all (what the host sends a friend who
   *  watches). */
  publicView() {
    return this.call("public_view");
  }

  /** The views of several person seats and, with `withPublic`, the public view, in one
   *  answer ({views: [per seat, in order], public: view | null}): what the host sends its
   *  guests after a move. */
  seatViews(seats, withPublic = false) {
    return this.call("seat_views", { seats, public: withPublic });
  }

  /** A guest's bid / card for their seat (refused unless it is that seat's turn);
   *  answers that seat's new view. */
  seatBid(seat, n) {
    return this.call("seat_bid", { seat, bid: n });
  }

  seatPlay(seat, card) {
    return this.call("seat_play", { seat, card });
  }

  /** The hint for a guest's seat, on its turn only. */
  seatHint(seat) {
    return this.call("seat_hint", { seat });
  }

  /** A bot of `level` plays a guest's seat while they are away (null: they have it back);
   *  answers that seat's view. */
  seatStandIn(seat, level) {
    return this.call("seat_stand_in", { seat, level });
  }

  /** What of the game is public (its finished rounds, no deal code): what the host sends
   *  its guests at each round's end (`jabberwocky-public/1`). */
  publicRecord() {
    return this.call("public_record", {});
  }

  /** A public record's text (from the host: untrusted) checked by this engine, and
   *  written again. */
  publicCheck(text) {
    return this.call("public_check", { text });
  }

  /** One who watched takes the seat a bot stands in for (`name`: theirs, or null); the
   *  stand-in steps aside.  Answers that seat's view. */
  seatTake(seat, name) {
    return this.call("seat_take", { seat, name });
  }

  /** A guest's turn clock ran out: one move for them by the stand-in level
   *  ({action, view}, as botStep). */
  seatAuto(seat) {
    return this.call("seat_auto", { seat });
  }

  // -- challenges ------------------------------------------------------------------------

  /** Read and verify a challenge's text (the invitation). */
  challengeOpen(text) {
    return this.call("challenge_open", { text });
  }

  /** The table's game as a challenge, under `name` (null: none); `seat`: the maker's in
   *  an online game (jabberwocky-challenge/2). */
  challengeEncode(name, seat = null) {
    return this.call("challenge_encode", seat === null ? { name } : { name, seat });
  }

  /** How the others did, beside the table's challenge game. */
  challengeCompare() {
    return this.call("challenge_compare");
  }

  // -- reviews and statistics --------------------------------------------------------------

  /** The timeline of a game: `source` {} (the table's finished game), {record} or
   *  {challenge, player}. */
  review(source) {
    return this.call("review", source);
  }

  /** The hard bot's view of decision `step` of `source`'s game. */
  reviewAnalyse(source, step) {
    return this.call("review_analyse", { ...source, step });
  }

  /** What the seat to act saw at `step` of `source`'s game. */
  reviewSeen(source, step) {
    return this.call("review_seen", { ...source, step });
  }

  /** Statistics: {records?: [text], facts?: [object], seat?, compare?}. */
  stats(request) {
    return this.call("stats", request);
  }
}

/** The page's engine: the worker's, started now. */
export const engine = typeof Worker === "undefined" ? null : new Engine(new WorkerTransport());

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
    tryRequest: (type, payload) => engine.call(type, payload),
  };
}
