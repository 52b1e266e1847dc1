// The host of an online table: the only referee.  Its engine (the page's own worker)
// deals, checks every move and runs the bots; this module relays.  It reads every guest
// message as untrusted (protocol.js: size, schema, rate, replay; then the seat's token,
// whose turn it is — the engine decides that), makes an accepted move through the
// controller for THAT guest's seat only, refuses anything else with a reason code (logged
// for the host, sent back) and changes nothing then.  After every change each guest is
// sent only its own seat's view (the engine's seat_views, one request for every guest) and
// the public move; a view travels as what changed since the last one that guest was sent
// (viewdiff.js), whole after a sync.
//
// Messages (docs/online.md): to a new peer {t: "host", build}; to a guest {t: "welcome",
// seat, started, names}, {t: "lobby", seats}, {t: "deal", how, VIEW}, {t: "move", action,
// VIEW, re?}, {t: "sync", n, view}, {t: "hint", re, hint}, {t: "refused", re?, code,
// params}, {t: "presence", presence}, {t: "react", seat, r}, {t: "record", record},
// {t: "end", code}, {t: "public", public} (at a round's end: its finished rounds), {t: "again"} (the host started a new game at this table), {t: "seated",
// seat} (one who watched took that seat) — VIEW: {n, view} or {n, patch, h}.
//
// After the game (the "again" part): the host may start a new game at the same table —
// the same seats, names and rules, a new deal — and every guest's page goes to it; one who
// watches may take a seat a bot stands in for (a friend who left): that seat is theirs from
// then on, under their own token, and the friend who left watches if they come back.

import { encode, readGuestMessage, MAX_GUEST_CHARS, RateLimit, Sequence, SeatBook, newRoomCode, refusal, MAX_NAME, REACTIONS } from "./protocol.js";
import { openLink } from "./transport.js";
import { turns } from "./thinking.js";
import { ViewSender } from "./viewdiff.js";

export const HOST_KEY = "jabberwocky.onlineHost"; // the table a host's reload opens again
const AWAY_MS = 30000; // a friend who has not come back after this long is "gone"
const LOG_MAX = 200;
// a friend away and nobody connected: join the room again after the first wait, then after
// each of the next
const ANNOUNCE_FIRST_MS = 3000;
const ANNOUNCE_AGAIN_MS = 5000;

/**
 * Open a table: `plan` {players, seats: per seat "host" | "friend" | a bot level, rules,
 * hostName}; `controller` the page's; `engine` the page's engine; `build` this page's
 * build.  Returns the table: {room, link, state(), subscribe(fn), start(level), close(),
 * log}.
 */
export async function openTable({ plan, controller, engine, build, room = newRoomCode(), linkOpener = openLink, resumed = null, storage = globalThis.localStorage }) {
  const friendSeats = plan.seats.map((k, s) => (k === "friend" ? s : -1)).filter((s) => s >= 0);
  const book = resumed ? SeatBook.fromJSON(resumed.book) : new SeatBook(friendSeats);
  const guests = new Map(); // peer -> {seat, name, rate, seq, token, refusedAt}
  const names = resumed ? [...resumed.names] : plan.seats.map(() => "");
  if (!resumed) names[0] = plan.hostName || "";
  const away = new Map(); // seat -> when its friend went away
  const listeners = new Set();
  const log = []; // refusals: {at, seat, code}
  let refusedCount = 0;
  let started = Boolean(resumed);
  let seq = 0;
  let nextHow = "game";
  const seedOf = () => controller.state.view?.seed ?? null;
  const pendingRe = new Map(); // seat -> the sequence number of its move under way
  const standIns = new Map(); // friends' seats a bot plays while they are away -> its level
  const formerHolders = new Map(); // token -> the seat it held, taken by one who watched
  const taking = new Set(); // seats being taken now (a second ask waits its answer)
  let again = false; // a new game at this table is being dealt
  const link = await linkOpener(room);
  const timers = new Set(); // cleared when the table closes
  const later = (fn, ms) => {
    const id = setTimeout(() => {
      timers.delete(id);
      fn();
    }, ms);
    timers.add(id);
  };

  const send = (peer, kind, fields = {}) => link.send(encode(kind, fields, ++seq), peer);
  const seated = () => [...guests].filter(([, g]) => g.seat !== null);
  // friends without a seat (the table was full, or they asked to watch): they are sent the
  // public view (the engine's public_view: no hand at all) after every change
  const watchers = () => [...guests].filter(([, g]) => g.hello && g.seat === null && !g.replaced);
  // everyone at the table now: the seated friends and those who watch
  const audience = () => [...seated(), ...watchers()];

  function presence() {
    return plan.seats.map((kind, s) => {
      if (s === 0) return "here";
      if (kind !== "friend") return "bot";
      if (!book.holders.has(s)) return started ? "bot" : "open";
      if ([...guests.values()].some((g) => g.seat === s)) return "connected";
      if (standIns.has(s)) return "stand_in";
      const since = away.get(s);
      return since !== undefined && performance.now() - since > AWAY_MS ? "gone" : "reconnecting";
    });
  }

  function state() {
    return { room, started, presence: presence(), names: [...names], seats: plan.seats, refused: refusedCount, log: log.slice(-20) };
  }

  /** What a reload of the host's page needs to open the same table again (with the
   *  autosave: main.js resumes both). */
  function keep() {
    try {
      if (started) storage?.setItem(HOST_KEY, JSON.stringify({ room, plan, book: book.toJSON(), names, seed: seedOf() }));
    } catch { /* no storage: no resuming */ }
  }

  function changed() {
    keep();
    const now = state();
    controller.store.set({ online: { role: "host", room, presence: now.presence, names: now.names, started, clock: plan.clock || 0 } });
    for (const fn of listeners) fn(now);
    const msg = { presence: now.presence, names: now.names };
    for (const [peer] of guests) send(peer, "presence", msg);
  }

  /** Count and log a refusal (the lobby shows the count; tests read the log). */
  function logRefusal(seat, code) {
    refusedCount += 1;
    log.push({ at: Math.round(performance.now()), seat, code });
    if (log.length > LOG_MAX) log.shift();
  }

  function refuse(peer, guest, reason, re) {
    logRefusal(guest?.seat ?? null, reason.code);
    // an answer per refusal, within the sender's own rate: a flood is not echoed back
    const now = performance.now();
    // (a guest not refused before has no time: the clock itself may be under 100 ms)
    if (guest && now - (guest.refusedAt ?? -Infinity) < 100) return;
    if (guest) guest.refusedAt = now;
    send(peer, "refused", { ...(re ? { re } : {}), code: reason.code, params: reason.params || {} });
    for (const fn of listeners) fn(state());
  }

  /** Send `kind` with `view` to a guest: what changed since the last view it was sent, or
   *  the `whole` view (numbered: the guest asks for a sync when one is missing). */
  function sendView(peer, guest, kind, fields, view, whole = false) {
    guest.views ??= new ViewSender();
    send(peer, kind, { ...fields, ...guest.views.fields(view, whole) });
  }

  /** One guest is sent the whole table as it is: its seat's view, or the public one. */
  async function pushWhole(peer, guest, kind) {
    const seat = guest.seat;
    const { result, error } = seat === null ? await engine.publicView() : await engine.seatView(seat);
    if (!error && guests.get(peer) === guest && guest.seat === seat) sendView(peer, guest, kind, turnOf(kind, result), result, true);
  }

  // The guests' views come with the answer to each move (engine.sendViewsAlong: one trip
  // to the worker, not two) and wait here for the move's event, which sends them.
  let along = null; // the engine's last {views, public} for the guests
  const viewsWanted = () => {
    const seats = [...new Set(seated().map(([, g]) => g.seat))];
    const watching = watchers().length > 0;
    return seats.length || watching ? { seats, public: watching } : null;
  };
  const tookViews = (views) => {
    along = views;
  };
  // the views came with this move (no view for a guest holds the deal code: compare what
  // they all hold)
  const SAME_TABLE = ["step", "round", "phase", "to_act", "dealer", "trump_card"];

  /** The views that came with the move the host's table now shows (`shown`): for every
   *  guest and watcher there now, or null (then they are asked for). */
  function viewsAlong(shown, to, watching) {
    const fresh = along;
    along = null;
    if (!fresh || !shown) return null;
    const bySeat = new Map(fresh.views.map((v) => [v.viewer, v]));
    const all = [...bySeat.values(), ...(fresh.public ? [fresh.public] : [])];
    if (!all.every((v) => SAME_TABLE.every((k) => v[k] === shown[k]))) return null;
    if (to.some(([, g]) => !bySeat.has(g.seat)) || (watching.length && !fresh.public)) return null;
    return { views: to.map(([, g]) => bySeat.get(g.seat)), public: fresh.public };
  }

  /** Every guest is sent `kind` with its seat's view, every watcher with the public view:
   *  those that came with the move's answer (`shown`: the host's view after it), else one
   *  engine request for all of them.  `fieldsOf(guest)`: the message's other fields. */
  async function pushAll(kind, fieldsOf, shown = null) {
    const to = seated();
    const watching = watchers();
    if (!to.length && !watching.length) return;
    let result = viewsAlong(shown, to, watching);
    if (!result) {
      const seats = to.map(([, g]) => g.seat);
      const answer = await engine.seatViews(seats, watching.length > 0);
      if (answer.error) return;
      result = answer.result;
    }
    to.forEach(([peer, guest], i) => {
      if (guests.get(peer) === guest && guest.seat === result.views[i].viewer) sendView(peer, guest, kind, fieldsOf(guest), result.views[i]);
    });
    for (const [peer, guest] of watching) {
      if (guests.get(peer) === guest && guest.seat === null) sendView(peer, guest, kind, fieldsOf(guest), result.public);
    }
  }

  /** A `sync` says how long the turn under way has run here (ms), so that a page that
   *  comes in mid-turn shows the same thinking time (online/thinking.js). */
  function turnOf(kind, view) {
    const ms = kind === "sync" ? turns.elapsed(view?.step, performance.now()) : null;
    return ms === null ? {} : { turn_ms: Math.round(ms) };
  }

  // -- what guests send -------------------------------------------------------------------

  // a frame the wire's guard refused before the library read it (wire-guard.js): counted
  // and logged as any refusal; a peer not known yet (still connecting) has no seat
  link.onRefused = (code, peer, params) => {
    const guest = peer ? guests.get(peer) : undefined;
    if (guest) return refuse(peer, guest, { code, params });
    logRefusal(null, code);
    for (const fn of listeners) fn(state());
  };

  link.onPeerJoin = (peer) => {
    const guest = { seat: null, name: "", rate: new RateLimit(), seq: new Sequence(), token: null, hello: false };
    guests.set(peer, guest);
    // said until the guest says hello (a first message can be lost while a connection
    // settles)
    const announce = () => {
      if (guests.get(peer) !== guest || guest.hello) return;
      send(peer, "host", { build });
      later(announce, 1500);
    };
    announce();
  };

  link.onPeerLeave = (peer) => {
    const guest = guests.get(peer);
    guests.delete(peer);
    if (guest?.seat !== null && guest?.seat !== undefined) {
      away.set(guest.seat, performance.now());
      later(changed, AWAY_MS + 50);
      later(stillAway, ANNOUNCE_FIRST_MS);
    }
    changed();
  };

  // A friend away and nobody connected: the host's page joins the room again (a fresh
  // announcement with fresh offers) after ANNOUNCE_FIRST_MS, then every ANNOUNCE_AGAIN_MS,
  // until someone is back.  Seen
  // here under load: the library's periodic announcements can stop after a long while, and
  // a tracker then forgets the host, so a friend back from a reload finds nobody.  With
  // someone connected it does not (it would cut them off); their page would look again.
  function stillAway() {
    if (!away.size) return; // (close() clears this timer)
    if (!link.peers().length && !link.attempting?.()) link.refresh?.();
    later(stillAway, ANNOUNCE_AGAIN_MS);
  }

  link.onMessage = (text, peer) => {
    const guest = guests.get(peer);
    if (!guest) return;
    // the size first (a 1 MB message is refused without being looked at), then the rate,
    // then the schema
    if (typeof text !== "string" || text.length > MAX_GUEST_CHARS) return refuse(peer, guest, readGuestMessage(text).reason);
    if (!guest.rate.take(performance.now())) {
      refusedCount += 1; // a flood: counted, logged once a second at most, never answered
      if (!log.length || log[log.length - 1].code !== "online.refused.rate") log.push({ at: Math.round(performance.now()), seat: guest.seat, code: "online.refused.rate" });
      return;
    }
    const read = readGuestMessage(text);
    if (!read.ok) return refuse(peer, guest, read.reason);
    const msg = read.msg;
    if (!guest.seq.accept(msg.s)) return refuse(peer, guest, refusal("online.refused.replay"), msg.s);
    handle(peer, guest, msg);
  };

  function handle(peer, guest, msg) {
    if (msg.t === "hello") return hello(peer, guest, msg);
    if (!guest.hello) return refuse(peer, guest, refusal("online.refused.no_hello"), msg.s);
    if (msg.t === "bye") return link.onPeerLeave(peer);
    if (msg.t === "take") return take(peer, guest, msg);
    if (msg.t === "sync") {
      if (!started) return undefined;
      return pushWhole(peer, guest, "sync");
    }
    if (guest.seat === null) return refuse(peer, guest, refusal("online.refused.no_seat"), msg.s);
    if ("seat" in msg && msg.seat !== guest.seat) return refuse(peer, guest, refusal("online.refused.wrong_seat", { seat: msg.seat }), msg.s);
    if (msg.t === "react") {
      for (const [p] of guests) send(p, "react", { seat: guest.seat, r: msg.r });
      controller.emit("online-react", { seat: guest.seat, r: msg.r });
      return undefined;
    }
    if (!started) return refuse(peer, guest, refusal("online.refused.not_started"), msg.s);
    if (msg.t === "hint") return hint(peer, guest, msg);
    return move(peer, guest, msg);
  }

  function hello(peer, guest, msg) {
    if (guest.hello && msg.token === guest.token) {
      // said twice while the connection settled: the same answer
      send(peer, "welcome", { seat: guest.seat, started, names: [...names], full: false, clock: plan.clock || 0 });
      return undefined;
    }
    if (guest.hello) return refuse(peer, guest, refusal("online.refused.hello_again"), msg.s);
    if (msg.build !== build) {
      send(peer, "end", { code: "online.other_build", params: { theirs: msg.build, ours: build } });
      return undefined;
    }
    guest.hello = true;
    guest.token = msg.token;
    guest.name = (msg.name || "").slice(0, MAX_NAME);
    const seat = msg.watch ? null : started ? book.seatOf(msg.token) : book.claim(msg.token);
    // a token already connected elsewhere (a second tab): the newer connection has it
    if (seat !== null) {
      for (const [p, g] of guests) {
        if (p !== peer && g.seat === seat) Object.assign(g, { seat: null, replaced: true });
      }
      away.delete(seat);
      if (!started && msg.name) names[seat] = msg.name.slice(0, MAX_NAME);
      guest.name = names[seat];
    }
    guest.seat = seat;
    if (seat !== null && standIns.has(seat)) {
      // back: the friend has the seat again (the bot standing in steps aside)
      standIns.delete(seat);
      controller.standIn(seat, null);
    }
    // a friend whose seat went to one who watched, while they were away: they watch now
    const lost = seat === null && formerHolders.has(msg.token) ? { lost: formerHolders.get(msg.token) } : {};
    send(peer, "welcome", { seat, started, names: [...names], full: seat === null && !msg.watch && !("lost" in lost), clock: plan.clock || 0, ...lost });
    if (started) pushWhole(peer, guest, "sync");
    changed();
    return undefined;
  }

  async function hint(peer, guest, msg) {
    const { result, error } = await engine.seatHint(guest.seat);
    if (error) return refuse(peer, guest, { code: error.code, params: error.params }, msg.s);
    send(peer, "hint", { re: msg.s, hint: result });
    return undefined;
  }

  async function move(peer, guest, msg) {
    const kind = msg.t === "bid" ? "bid" : "card";
    const value = kind === "bid" ? msg.n : msg.card;
    pendingRe.set(guest.seat, msg.s);
    const { error } = await controller.remoteMove(guest.seat, kind, value);
    if (error) {
      pendingRe.delete(guest.seat);
      refuse(peer, guest, { code: error.code, params: error.params }, msg.s);
    }
  }

  // -- what the table does: each guest is told -----------------------------------------------

  const onGame = ({ detail }) => {
    if (detail.how === "new") nextHow = "game"; // not the autosave put back after a reload
  };
  const onDeal = ({ detail }) => {
    keep();
    const how = nextHow;
    nextHow = "round";
    pushAll("deal", () => ({ how }), detail.view);
  };
  const onMove = ({ detail }) => {
    const action = { seat: detail.seat, kind: detail.kind, value: detail.value };
    const re = pendingRe.get(detail.seat);
    pendingRe.delete(detail.seat);
    pushAll("move", (guest) => (guest.seat === detail.seat && re ? { action, re } : { action }), detail.view);
  };
  const onRound = ({ detail }) => {
    if (detail.view.phase === "game-over") sendRecord();
    else sendPublic();
  };
  /** At a round's end, what of the game is public (its finished rounds, no deal code) to
   *  every guest: what each keeps if this table closes before the end. */
  async function sendPublic() {
    const { result, error } = await engine.publicRecord();
    if (error) return;
    const text = JSON.stringify(result);
    for (const [peer] of audience()) send(peer, "public", { public: text });
  }
  async function sendRecord() {
    const { result, error } = await engine.exportRecord();
    if (error) return;
    // to those who watched too: once the game is over every card has been played in the
    // open, and the deal code tells nothing more (a new game at the table has a new one)
    for (const [peer] of audience()) send(peer, "record", { record: result.record });
  }
  // The turn clock (off unless the host set one): a friend to act for `plan.clock` seconds
  // has their move made by the medium bot, and the table says so.
  let clockTimer = 0;
  const onIdle = ({ detail }) => {
    clearTimeout(clockTimer);
    const v = detail.view;
    if (!plan.clock || !v || !(v.phase === "bidding" || v.phase === "playing")) return;
    const seat = v.to_act;
    if (!(v.remote || []).includes(seat) || v.stand_ins?.[seat]) return;
    const step = v.step;
    clockTimer = setTimeout(() => controller.autoMove(seat, step), plan.clock * 1000);
    timers.add(clockTimer);
  };
  const onClock = ({ detail }) => {
    controller.notice("online.clock_ran_out", { name: names[detail.seat] || "" }, 6000);
    for (const [peer] of guests) send(peer, "clock", { seat: detail.seat });
  };
  const events = { game: onGame, deal: onDeal, move: onMove, round: onRound, idle: onIdle, "online-clock": onClock };

  function attach() {
    for (const [type, fn] of Object.entries(events)) controller.addEventListener(type, fn);
    controller.useEngine(engine, "host");
    engine.sendViewsAlong?.({ wanted: viewsWanted, took: tookViews });
  }

  /** Start the game: friend seats nobody took become bots of `level`. */
  function start(level) {
    if (started) return Promise.resolve(false);
    started = true;
    const seats = plan.seats.map((kind, s) => {
      if (s === 0) return "human";
      if (kind !== "friend") return kind;
      if (book.holders.has(s)) return "remote";
      book.release(s);
      return level;
    });
    // a person's name, or none (null) for a bot's seat or a person who gave none
    const tableNames = names.map((n, s) => ((seats[s] === "human" || seats[s] === "remote") && n ? n : null));
    attach();
    changed();
    for (const [peer, guest] of guests) send(peer, "welcome", { seat: guest.seat, started: true, names: tableNames, clock: plan.clock || 0 });
    return controller.newGame({ players: plan.players, seats, names: tableNames, rules: plan.rules });
  }

  async function close(code = "online.host_left") {
    try {
      storage?.removeItem(HOST_KEY);
    } catch { /* as in keep() */ }
    for (const id of timers) clearTimeout(id);
    timers.clear();
    for (const [peer] of guests) send(peer, "end", { code });
    for (const [type, fn] of Object.entries(events)) controller.removeEventListener(type, fn);
    engine.sendViewsAlong?.(null);
    controller.online = null;
    controller.store.set({ online: null });
    await new Promise((r) => setTimeout(r, 200)); // let the last message leave
    guests.clear();
    await link.leave();
  }

  /** A bot of `level` plays `seat` until its friend comes back (the host's choice, for a
   *  friend who is away). */
  async function standIn(seat, level) {
    if (!started || !book.holders.has(seat) || [...guests.values()].some((g) => g.seat === seat)) return false;
    const { error } = await controller.standIn(seat, level);
    if (error) return false;
    standIns.set(seat, level);
    changed();
    return true;
  }

  /** The host's own reaction (one of REACTIONS): to every screen, this one too. */
  function react(r) {
    if (!REACTIONS.includes(r)) return false;
    for (const [peer] of guests) send(peer, "react", { seat: 0, r });
    controller.emit("online-react", { seat: 0, r });
    return true;
  }

  // -- after the game, and a seat changing hands --------------------------------------------

  /** One who watches (`guest`, no seat) takes `msg.seat`, which a bot plays for a friend
   *  who left: the seat is held by their token from now on (the friend's no longer holds
   *  it), the stand-in steps aside, and they are sent their hand and the table as it is. */
  async function take(peer, guest, msg) {
    if (!started) return refuse(peer, guest, refusal("online.refused.not_started"), msg.s);
    // (a page replaced by the same token's newer one is that friend's: they have a seat)
    if (guest.seat !== null || guest.replaced) return refuse(peer, guest, refusal("online.refused.not_watching"), msg.s);
    const seat = msg.seat;
    const held = [...guests.values()].some((g) => g.seat === seat);
    if (!standIns.has(seat) || held || taking.has(seat) || !book.holders.has(seat)) {
      return refuse(peer, guest, refusal("online.refused.seat_not_free", { seat }), msg.s);
    }
    taking.add(seat);
    const name = guest.name.trim() || null;
    const { error } = await controller.takeSeat(seat, name);
    taking.delete(seat);
    if (error) return refuse(peer, guest, { code: error.code, params: error.params }, msg.s);
    if (guests.get(peer) !== guest) return undefined; // they left meanwhile: the seat waits, as any friend's
    formerHolders.set(book.holders.get(seat), seat);
    book.holders.set(seat, guest.token);
    formerHolders.delete(guest.token);
    standIns.delete(seat);
    away.delete(seat);
    names[seat] = name || "";
    guest.seat = seat;
    send(peer, "welcome", { seat, started: true, names: [...names], full: false, took: true, clock: plan.clock || 0 });
    controller.notice("online.seat_take.given", { name: names[seat], n: seat + 1 }, 6000);
    for (const [p] of guests) if (p !== peer) send(p, "seated", { seat });
    for (const [p, g] of audience()) pushWhole(p, g, "sync");
    changed();
    return undefined;
  }

  /** Play again at this table: a new game (a new deal) with the same seats, names and
   *  rules, once the game is over; every guest goes to it, friends away keep their
   *  stand-ins.  Only the host can (a guest has no message for it). */
  async function playAgain() {
    const view = controller.state.view;
    if (!started || again || view?.phase !== "game-over") return false;
    again = true;
    try {
      // the seats as the game had them (a friend who took a seat keeps it; friends away
      // stay theirs), read from the engine's view: the same after a reload of this page
      const remote = new Set(view.remote || []);
      const seats = view.seats.map((kind, s) => (remote.has(s) ? "remote" : kind));
      for (const [peer] of guests) send(peer, "again", {});
      const ok = await controller.newGame({ players: view.players, seats, names: view.player_names, rules: plan.rules });
      if (!ok) return false;
      for (const [seat, level] of standIns) await controller.standIn(seat, level);
      changed();
      return true;
    } finally {
      again = false;
    }
  }

  const table = {
    room,
    link,
    log,
    state,
    start,
    close,
    standIn,
    playAgain,
    react,
    subscribe(fn) {
      listeners.add(fn);
      fn(state());
      return () => listeners.delete(fn);
    },
  };
  // A reload of the host's page opens the same table again (its guests wait and come
  // back by themselves); closing the page for good leaves them waiting until they give up.
  if (resumed) {
    attach();
    nextHow = "round";
  }
  changed();
  return table;
}
