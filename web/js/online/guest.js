// A guest at an online table: the host's engine plays behind the page's own typed engine
// methods (`HostTransport`: engine.bid(n), engine.play(card) and engine.hint() travel to
// the host as messages and come back as the host's answer), and the host's news (the
// others' moves, the deals, the table as it is) are shown by the controller
// (`remoteNews`): the guest's controls, keyboard, hints and animations are a bot game's.
// The guest keeps a seat token for the room (localStorage), so a reload or a dropped
// connection gets its seat back.  After the game the host sends the whole record; the
// guest's own engine takes it, and the table is the guest's to review (and, for one with a
// seat, the game goes into their statistics from that seat).  The host may then start a
// new game at the same table ("again"): the page goes to its deal by itself.  One who
// watches may take a seat a bot plays for a friend who left (`takeSeat`).

import { Engine } from "../engine.js";
import { encode, readHostMessage, newToken, isRoomCode, PROTOCOL, REACTIONS } from "./protocol.js";
import { openLink } from "./transport.js";
import { turns } from "./thinking.js";
import { ViewKeeper } from "./viewdiff.js";

const TOKEN_KEY = "jabberwocky.onlineSeat."; // + room code: this device's seat token there
const ANSWER_MS = 20000;
const HOST_GONE_MS = 90000; // a host away this long has left (a reload takes seconds)
const SYNC_AGAIN_MS = 2000; // a sync asked for and not answered is asked for again after this
// With no host: join the room again (a fresh announcement, not the tracker's next periodic
// one, which can be minutes away) after each of these waits, the last one repeated; after
// SLOW_MS the page says in words what may be wrong.
export const RETRY_MS = [4000, 6000, 9000, 12000, 15000];
export const SLOW_MS = 40000;
// A connection under way (its checks running) is not thrown away by a fresh announcement:
// the next look waits for it to end, up to this long.
const ATTEMPT_MS = 45000;

/** True when this device has taken a seat at `room` before (a reload gets it back). */
export function hasSeatToken(room, storage = globalThis.localStorage) {
  try {
    return Boolean(storage?.getItem(TOKEN_KEY + room));
  } catch {
    return false;
  }
}

/** This device's seat token for `room` (made and kept the first time). */
export function seatToken(room, storage = localStorage) {
  const key = TOKEN_KEY + room;
  let token = null;
  try {
    token = storage.getItem(key);
  } catch { /* no storage: a token for this visit */ }
  if (!token || !/^[A-Za-z0-9_-]{22}$/.test(token)) {
    token = newToken();
    try {
      storage.setItem(key, token);
    } catch { /* as above */ }
  }
  return token;
}

const refusedError = (code, params = {}) => ({ error: { kind: "IllegalMoveError", message: code, code, params } });

/** The host as an engine transport: the requests a guest's controller makes, as messages. */
export class HostTransport extends EventTarget {
  constructor(sendToHost) {
    super();
    this.sendToHost = sendToHost;
    this.pending = new Map(); // sequence -> resolve
    this.ready = Promise.resolve({});
    this.log = [];
  }

  send(kind, payload = {}) {
    const message = kind === "bid" ? ["bid", { n: payload.bid }]
      : kind === "play" ? ["play", { card: payload.card }]
        : kind === "hint" ? ["hint", {}] : null;
    // anything else (take-backs, claims) is not for an online table; the host deals
    if (!message) return Promise.resolve(refusedError("online.not_here"));
    return new Promise((resolve) => {
      const s = this.sendToHost(...message);
      const timer = setTimeout(() => {
        this.pending.delete(s);
        resolve(refusedError("online.no_answer"));
      }, ANSWER_MS);
      this.pending.set(s, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  /** The connection to the host is gone: every request waiting is answered so. */
  failAll() {
    for (const [re] of [...this.pending]) this.answer(re, refusedError("online.no_answer"));
  }

  /** The host's answer to request `re`: true when one was waiting for it. */
  answer(re, outcome) {
    const waiter = this.pending.get(re);
    if (!waiter) return false;
    this.pending.delete(re);
    waiter(outcome);
    return true;
  }
}

/**
 * Join the table `room` as `name`: returns {room, state(), subscribe(fn), leave(), link}.
 * `localEngine`: the page's own engine (it takes the record after the game).
 */
export async function joinTable({ room, name, controller, localEngine, build, watch = false, linkOpener = openLink }) {
  if (!isRoomCode(room)) throw new Error("not a room code");
  const token = seatToken(room);
  const link = await linkOpener(room);
  const listeners = new Set();
  const received = []; // every message from the host, as text (tests read them)
  const receivedAt = []; // when each came (ms since the epoch: bench/online_latency.py)
  const views = []; // the view each message carried, as built here (null: none)
  const shownAt = []; // [step, when]: each move's start on this table (the bench reads it)
  const keeper = new ViewKeeper(); // the view held and its number: patches apply to it
  let syncAsked = -Infinity;
  let host = null;
  let helloSent = 0;
  let seq = 0;
  let info = { status: "looking", seat: null, started: false, names: [], presence: [], code: null };
  let games = 0; // games started at this table since joining ("again" counts them)
  let publicText = null; // the finished rounds of the game, as the host last sent them

  const sendToHost = (kind, fields) => {
    seq += 1;
    if (host) link.send(encode(kind, fields, seq), host);
    return seq;
  };
  const transport = new HostTransport(sendToHost);
  const hostEngine = new Engine(transport);

  function update(patch) {
    info = { ...info, ...patch };
    controller.store.set({ online: { role: "guest", room, ...info } });
    for (const fn of listeners) fn(info);
  }

  function hello() {
    sendToHost("hello", { token, name: name.slice(0, 24), build, watch });
  }

  let peerJoinedAt = -Infinity; // a peer that has just connected may be the host, about to say so
  link.onPeerJoin = () => {
    peerJoinedAt = performance.now();
  };
  let giveUp = 0;
  // no host yet (or no longer): look again on a schedule the page shows (`retries`), and
  // say what may be wrong once it has been long (`slow`)
  let retryTimer = 0;
  let lookingSince = performance.now();
  let closed = false;
  function lookAgain(first = false) {
    clearTimeout(retryTimer);
    if (first) {
      lookingSince = performance.now();
      update({ retries: 0, slow: false });
    }
    const wait = RETRY_MS[Math.min(info.retries || 0, RETRY_MS.length - 1)];
    let held = 0;
    const look = async () => {
      if (closed || host !== null || info.status === "ended" || info.status === "over") return;
      // a connection being made: let it end (connected, or failed: then it is said why);
      // a peer that has just connected may be the host, about to say so
      if ((link.attempting?.() && held < ATTEMPT_MS) || performance.now() - peerJoinedAt < 3000) {
        held += 1000;
        retryTimer = setTimeout(look, 1000);
        return;
      }
      update({ retries: (info.retries || 0) + 1, slow: performance.now() - lookingSince >= SLOW_MS });
      await link.refresh?.();
      if (host === null && !closed) lookAgain();
    };
    retryTimer = setTimeout(look, wait);
  }
  // what the browser knows of why no host came: a direct connection that failed (the
  // networks need a TURN server), a TURN server that refused the login
  link.onTrouble = (trouble) => {
    if (closed || host !== null || info.trouble === "turn_refused") return;
    update({ trouble });
  };
  link.onPeerLeave = (peer) => {
    if (peer !== host) return;
    host = null;
    transport.failAll();
    if (info.status === "ended" || info.status === "over") return;
    // the host's page may be reloading: its table opens again and says so; after a while
    // without it, the host has left
    update({ status: "reconnecting" });
    lookAgain(true);
    clearTimeout(giveUp);
    giveUp = setTimeout(() => {
      if (host === null) news({ t: "end", code: "online.host_left" });
    }, HOST_GONE_MS);
  };
  link.onMessage = (text, peer) => {
    const read = readHostMessage(text);
    if (!read.ok) return;
    const msg = read.msg;
    if (msg.t === "host") {
      // the peer that says it is the host (see docs/online.md on trust); a new host
      // connection (the host's page reloaded, or ours) starts a new hello; the host says
      // it again until our hello arrives
      // while connected to a host, no other peer can take its place (nor learn our token)
      if (host !== null && host !== peer) return;
      if (host === peer && helloSent && performance.now() - helloSent < 1000) return;
      clearTimeout(giveUp);
      clearTimeout(retryTimer);
      host = peer;
      if (info.retries || info.slow || info.trouble) update({ retries: 0, slow: false, trouble: null });
      link.trust?.(peer); // the host's messages may be longer than a guest's (wire-guard.js)
      helloSent = performance.now();
      hello();
      return;
    }
    if (peer !== host) return;
    received.push(text);
    receivedAt.push(performance.timeOrigin + performance.now());
    if (msg.t === "deal" || msg.t === "sync" || msg.t === "move") {
      // the view, whole or as what changed since the one held; one that cannot be built
      // (a gap, a patch that does not apply or gives another view than the host's) is
      // dropped and the whole table asked for again
      const view = keeper.take(msg);
      views.push(view);
      if (view === null) {
        const now = performance.now();
        if (now - syncAsked > SYNC_AGAIN_MS) {
          syncAsked = now;
          sendToHost("sync", {});
        }
        return;
      }
      syncAsked = -Infinity;
      const shown = { ...msg, view };
      delete shown.patch;
      delete shown.h;
      news(shown);
      return;
    }
    views.push(null);
    news(msg);
  };
  // when each move starts on this table (after the ones before it have been shown)
  const onShown = ({ detail }) => {
    if (controller.online === "guest") shownAt.push([detail.view?.step ?? null, performance.timeOrigin + performance.now()]);
  };
  controller.addEventListener("move", onShown);

  function news(msg) {
    if (msg.t === "welcome") {
      // no seat (the table is full, or we asked to watch): we watch the public table
      const status = msg.seat === null ? (msg.full && !msg.started ? "full" : "watching") : msg.started ? "playing" : "waiting";
      update({ status, seat: msg.seat, started: msg.started, names: msg.names, full: Boolean(msg.full) || info.full, clock: Number(msg.clock) || 0 });
      seatNews(msg);
    } else if (msg.t === "presence") {
      update({ presence: msg.presence, names: msg.names });
    } else if (msg.t === "deal" || msg.t === "sync" || msg.t === "move") {
      if (msg.re !== undefined && transport.answer(msg.re, { result: msg.view })) return;
      if (msg.t === "sync") turns.heard(msg.view?.step, msg.turn_ms, performance.now()); // the host's thinking time
      if (controller.online !== "guest") controller.useEngine(hostEngine, "guest");
      // a watcher's view is the public one (no hand, your_turn false): nothing accepts input
      const status = info.seat === null ? "watching" : "playing";
      if (info.status !== status) update({ status, started: true });
      controller.remoteNews(msg);
    } else if (msg.t === "hint") {
      transport.answer(msg.re, { result: msg.hint });
    } else if (msg.t === "refused") {
      if (msg.re === undefined || !transport.answer(msg.re, refusedError(msg.code, msg.params))) {
        controller.notice("online.refused_notice", { reason: { code: msg.code, params: msg.params || {} } }, 6000);
      }
    } else if (msg.t === "clock") {
      controller.notice("online.clock_ran_out", { name: info.names?.[msg.seat] || "" }, 6000);
    } else if (msg.t === "react") {
      if (REACTIONS.includes(msg.r) && Number.isInteger(msg.seat)) controller.emit("online-react", { seat: msg.seat, r: msg.r });
    } else if (msg.t === "record") {
      keepRecord(msg.record);
    } else if (msg.t === "public" && typeof msg.public === "string") {
      keepPublic(msg.public);
    } else if (msg.t === "again") {
      // a new game at this table: its deal follows (and takes the table from the review)
      games += 1;
      publicText = null; // the last game's rounds: its whole record came at its end
      update({ publicRounds: 0 });
      controller.notice("online.again.started", {}, 8000);
    } else if (msg.t === "seated" && Number.isInteger(msg.seat)) {
      controller.notice("online.seat_take.given", { name: info.names?.[msg.seat] || "", n: msg.seat + 1 }, 6000);
    } else if (msg.t === "end") {
      // the table is closed: the table shown stays, the page's own engine plays from here;
      // a game not over stays on show with nothing on it to play (its hands are the host's)
      if (controller.online === "guest") controller.useEngine(localEngine, null);
      if (info.status !== "over") controller.closeTable();
      // before the end: what was public is what this page keeps (the record never came)
      const kept = info.status !== "over" && publicText && msg.code === "online.host_left";
      update({ status: "ended", code: msg.code, params: msg.params || {}, publicRounds: kept ? info.publicRounds : 0 });
      controller.notice(kept ? "online.public.kept" : msg.code, msg.params || {}, 12000);
    }
  }

  /** What of the game is public, from the host at a round's end: checked by this page's
   *  own engine (untrusted), kept for the table's end (`publicText`: the finished rounds,
   *  no deal code and no card of the round in play). */
  async function keepPublic(text) {
    const { result, error } = await localEngine.publicCheck(text);
    if (error) return;
    publicText = JSON.stringify(result);
    update({ publicRounds: result.rounds.length });
  }

  /** A welcome that changes this page's seat: one who watched took a seat, or a friend
   *  back after a drop finds their seat was given to one who watched. */
  function seatNews(msg) {
    if (msg.took && msg.seat !== null) controller.notice("online.seat_take.taken", { n: msg.seat + 1 }, 8000);
    if (Number.isInteger(msg.lost)) controller.notice("online.seat_take.lost", { name: msg.names?.[msg.lost] || "" }, 12000);
  }

  /** The whole record, after the game: the guest's own engine takes it (every hand face
   *  up for the review; the table stays as it is), and one with a seat keeps it in their
   *  statistics, from their own seat. */
  async function keepRecord(record) {
    const game = games;
    await controller._tail; // the last trick is shown first
    if (game !== games) return; // the host has started another game meanwhile
    const seat = info.seat;
    const { error } = await localEngine.importRecord(record);
    if (error || game !== games) return;
    controller.useEngine(localEngine, null);
    update({ status: "over" });
    controller.notice("online.record_kept", {}, 8000);
    if (seat !== null) {
      import("../stats/keep.js").then((m) => m.keepGameRecord(localEngine, record, { me: seat, online: true })).catch(() => {});
    }
  }

  const guest = {
    room,
    link,
    received,
    receivedAt,
    views,
    shownAt,
    state: () => info,
    subscribe(fn) {
      listeners.add(fn);
      fn(info);
      return () => listeners.delete(fn);
    },
    /** One who watches asks for `seat`, which a bot plays for a friend who left (the host
     *  checks; a welcome with the seat, or a refusal, answers). */
    takeSeat: (seat) => (info.seat === null && Number.isInteger(seat) ? sendToHost("take", { seat }) : 0),
    /** Send a reaction (one of protocol.REACTIONS). */
    react: (r) => (REACTIONS.includes(r) ? sendToHost("react", { r }) : 0),
    /** The finished rounds this page keeps (`jabberwocky-public/1` text), or null. */
    publicRecord: () => publicText,
    /** Tests: send `text` to the host as it is (a hostile guest). */
    inject: (text) => host && link.send(text, host),
    /** Tests: the host's peer id (raw frames go onto its connection's data channel). */
    hostPeer: () => host,
    nextSeq: () => ++seq,
    protocol: PROTOCOL,
    async leave() {
      closed = true;
      clearTimeout(retryTimer);
      sendToHost("bye", {});
      await new Promise((r) => setTimeout(r, 150));
      await link.leave();
      controller.removeEventListener("move", onShown);
      if (controller.online === "guest") controller.useEngine(localEngine, null);
      controller.store.set({ online: null });
    },
  };
  update({ status: "looking" });
  lookAgain(true);
  return guest;
}
