// After an online game, and a seat changing hands (web/js/online/host.js, guest.js,
// after.js) with a fake wire, controller and engine: the host plays again at the same table
// (a guest cannot), one who watches takes a seat a bot plays for a friend who left (and
// that friend watches when back), and the record goes to those who watched too.  The e2e
// test (e2e/test_online_after.py) plays the same over WebRTC.

import { test } from "node:test";
import assert from "node:assert/strict";
import { openTable } from "../../web/js/online/host.js";
import { joinTable } from "../../web/js/online/guest.js";
import { seatToTake, renderAfterGame } from "../../web/js/online/after.js";
import { GameController } from "../../web/js/controller.js";
import { PROTOCOL, newToken, readGuestMessage } from "../../web/js/online/protocol.js";
import { ViewKeeper } from "../../web/js/online/viewdiff.js";

/** The view `peer` holds after every view the host sent it, whole or patched (protocol 2),
 *  as its page builds it (null when one could not be built). */
function viewAt(link, peer) {
  const keeper = new ViewKeeper();
  let view = null;
  for (const m of link.sent.get(peer)) if ("n" in m) view = keeper.take(m);
  return view;
}

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
const open = [];
test.afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

function fakeLink() {
  const sent = new Map();
  return {
    sent,
    onMessage: () => {}, onPeerJoin: () => {}, onPeerLeave: () => {},
    send(text, peer) {
      if (!sent.has(peer)) sent.set(peer, []);
      sent.get(peer).push(JSON.parse(text));
    },
    leave: async () => {},
  };
}

/** An engine like the host's, whose game can be over (`engine.phase`). */
function fakeEngine() {
  const calls = [];
  const engine = {
    calls,
    phase: "bidding",
    names: ["Hana", "Ada", "Bo", null],
    standIns: {},
    ready: Promise.resolve({ build: "b1" }),
  };
  const view = (seat) => ({
    phase: engine.phase, players: 4, seats: ["human", "human", "human", "medium"], remote: [1, 2],
    stand_ins: { ...engine.standIns }, viewer: seat, to_act: 0, your_turn: seat === 0, hand: [`${seat + 2}C`],
    step: 0, player_names: [...engine.names], rules: { name: "jabberwocky" },
  });
  const answer = (result) => Promise.resolve({ result });
  Object.assign(engine, {
    newGame: (t) => {
      calls.push(["newGame", t]);
      engine.phase = "bidding";
      engine.standIns = {};
      return answer(view(0));
    },
    seatView: (seat) => (calls.push(["seatView", seat]), answer(view(seat))),
    publicView: () => (calls.push(["publicView"]), answer({ ...view(0), hand: [], handoff: true })),
    seatViews: (seats, withPublic) => {
      calls.push(["seatViews", seats, withPublic]);
      return answer({ views: seats.map(view), public: withPublic ? { ...view(0), hand: [], handoff: true } : null });
    },
    seatStandIn: (seat, level) => {
      calls.push(["seatStandIn", seat, level]);
      if (level) engine.standIns[seat] = level;
      else delete engine.standIns[seat];
      return answer(view(seat));
    },
    seatTake: (seat, name) => {
      calls.push(["seatTake", seat, name]);
      if (!engine.standIns[seat]) return Promise.resolve({ error: { kind: "RequestError", code: "online.no_stand_in", params: { seat } } });
      delete engine.standIns[seat];
      engine.names[seat] = name;
      return answer(view(seat));
    },
    state: () => answer(view(0)),
    exportRecord: () => answer({ record: '{"format":"jabberwocky-game/1"}' }),
    publicRecord: () => (calls.push(["publicRecord"]), answer({ format: "jabberwocky-public/1", rounds: [{ round: 1 }] })),
    publicCheck: (text) => {
      calls.push(["publicCheck", text]);
      const data = JSON.parse(text);
      return data.format === "jabberwocky-public/1" ? answer(data) : Promise.resolve({ error: { kind: "RecordError", code: "record.format", params: {} } });
    },
  });
  return engine;
}

const presenter = { deal() {}, bid() {}, cancel() {}, card: async () => {}, collect: async () => {}, redraw() {}, addEventListener() {} };

async function table() {
  const link = fakeLink();
  const engine = fakeEngine();
  const controller = new GameController({ engine });
  controller.presenter = { ...presenter, deal: (v) => controller.setView(v) };
  const notices = [];
  controller.notice = (code, params) => notices.push([code, params]);
  const seats = ["host", "friend", "friend", "medium"];
  const host = await openTable({ plan: { players: 4, seats, rules: "jabberwocky", hostName: "Hana" }, controller, engine, build: "b1", linkOpener: async () => link });
  open.push(host);
  let seq = 0;
  const say = (peer, fields, s = ++seq) => link.onMessage(JSON.stringify({ v: PROTOCOL, s, ...fields }), peer);
  return { link, engine, controller, host, say, notices };
}

const last = (link, peer, t) => (link.sent.get(peer) || []).filter((m) => m.t === t).at(-1);

/** Two friends seated (Ada at 1, Bo at 2) and Cy watching; the game started. */
async function started() {
  const t = await table();
  const tokens = { a: newToken(), b: newToken(), c: newToken() };
  for (const peer of ["pa", "pb", "pc"]) t.link.onPeerJoin(peer);
  t.say("pa", { t: "hello", token: tokens.a, name: "Ada", build: "b1" });
  t.say("pb", { t: "hello", token: tokens.b, name: "Bo", build: "b1" });
  t.say("pc", { t: "hello", token: tokens.c, name: "Cy", build: "b1" });
  await t.host.start("easy");
  await tick();
  return { ...t, tokens };
}

test("the host plays again at the same table: the same seats, names and rules, a new deal to everyone", async () => {
  const { link, engine, controller, host, say } = await started();
  assert.equal(await host.playAgain(), false, "not before the game is over");
  engine.phase = "game-over";
  controller.setView((await engine.state()).result);
  assert.equal(await host.playAgain(), true);
  await tick();
  const games = engine.calls.filter((c) => c[0] === "newGame");
  assert.equal(games.length, 2);
  assert.deepEqual(games[1][1].seats, ["human", "remote", "remote", "medium"], "the friends keep their seats");
  assert.deepEqual(games[1][1].names, ["Hana", "Ada", "Bo", null]);
  assert.equal(games[1][1].rules, "jabberwocky");
  assert.equal(games[1][1].seed, undefined, "a new deal");
  for (const peer of ["pa", "pb", "pc"]) {
    const msgs = link.sent.get(peer).map((m) => m.t);
    assert.ok(msgs.lastIndexOf("again") < msgs.lastIndexOf("deal"), `${peer} is told, then dealt`);
    assert.equal(last(link, peer, "deal").how, "game");
  }
  assert.equal(viewAt(link, "pa").viewer, 1, "each friend its own seat's view");
  assert.equal(viewAt(link, "pc").hand.length, 0, "the watcher still watches");
  // a guest has no message to start one: refused, nothing dealt
  say("pa", { t: "again" });
  await tick();
  assert.equal(last(link, "pa", "refused")?.code, "online.refused.kind");
  assert.equal(engine.calls.filter((c) => c[0] === "newGame").length, 2);
});

test("a friend away keeps their stand-in in the game played again", async () => {
  const { link, engine, controller, host } = await started();
  link.onPeerLeave("pb");
  assert.equal(await host.standIn(2, "medium"), true);
  engine.phase = "game-over";
  controller.setView((await engine.state()).result);
  assert.equal(await host.playAgain(), true);
  assert.deepEqual(engine.standIns, { 2: "medium" });
  assert.equal(host.state().presence[2], "stand_in");
});

test("one who watches takes a seat a bot plays for a friend who left; the friend back watches", async () => {
  const { link, engine, host, say, notices, tokens } = await started();
  // not while the friend is there, nor from one who has a seat
  say("pc", { t: "take", seat: 2 });
  await tick();
  assert.deepEqual([last(link, "pc", "refused").code, last(link, "pc", "refused").params], ["online.refused.seat_not_free", { seat: 2 }]);
  link.onPeerLeave("pb");
  await host.standIn(2, "medium");
  say("pa", { t: "take", seat: 2 });
  await tick(120); // past the refusals' pace
  assert.equal(last(link, "pa", "refused").code, "online.refused.not_watching");
  say("pc", { t: "take", seat: 1 });
  await tick(120);
  assert.equal(last(link, "pc", "refused").code, "online.refused.seat_not_free", "Ada is there");
  // seat 2: Cy has it, under Cy's name; the stand-in steps aside
  say("pc", { t: "take", seat: 2 });
  await tick();
  assert.deepEqual(engine.calls.filter((c) => c[0] === "seatTake"), [["seatTake", 2, "Cy"]]);
  const welcome = last(link, "pc", "welcome");
  assert.deepEqual([welcome.seat, welcome.took, welcome.started], [2, true, true]);
  assert.equal(viewAt(link, "pc").viewer, 2, "Cy's hand and the table as they are");
  assert.equal(last(link, "pa", "seated").seat, 2, "the others are told");
  assert.deepEqual(host.state().presence, ["here", "connected", "connected", "bot"]);
  assert.equal(host.state().names[2], "Cy");
  assert.ok(notices.some(([code]) => code === "online.seat_take.given"));
  // Bo comes back with the old token: they watch, told why
  link.onPeerJoin("pb2");
  say("pb2", { t: "hello", token: tokens.b, name: "Bo", build: "b1" });
  const back = last(link, "pb2", "welcome");
  assert.deepEqual([back.seat, back.lost, back.full], [null, 2, false]);
  assert.equal(host.state().presence[2], "connected", "Cy keeps the seat");
  // Cy reloads: Cy's own token holds seat 2 now
  link.onPeerLeave("pc");
  link.onPeerJoin("pc2");
  say("pc2", { t: "hello", token: tokens.c, name: "Cy", build: "b1" });
  assert.equal(last(link, "pc2", "welcome").seat, 2);
});

test("the take message is schema-checked as every guest message", () => {
  assert.equal(readGuestMessage(JSON.stringify({ v: PROTOCOL, t: "take", s: 1, seat: 2 })).ok, true);
  for (const bad of [{ seat: "2" }, { seat: 12 }, {}, { seat: 1, token: "x" }]) {
    const read = readGuestMessage(JSON.stringify({ v: PROTOCOL, t: "take", s: 1, ...bad }));
    assert.equal(read.ok, false, JSON.stringify(bad));
    assert.equal(read.reason.code, "online.refused.field");
  }
});

test("after the game the record goes to those who watched too", async () => {
  const { link, engine, controller } = await started();
  engine.phase = "game-over";
  controller.emit("round", { view: (await engine.state()).result });
  await tick();
  for (const peer of ["pa", "pb", "pc"]) assert.ok(last(link, peer, "record"), peer);
});

test("the offer to take a seat: only to one who watches, only a seat a bot stands in for", () => {
  const online = { role: "guest", status: "watching", presence: ["here", "connected", "stand_in", "bot"] };
  assert.equal(seatToTake(online), 2);
  assert.equal(seatToTake({ ...online, status: "playing" }), -1);
  assert.equal(seatToTake({ ...online, presence: ["here", "connected", "gone", "bot"] }), -1);
  assert.equal(seatToTake({ ...online, role: "host" }), -1);
  assert.equal(seatToTake(null), -1);
});

test("a guest: told of a new game at the table, of a seat taken, and of its own seat lost", async () => {
  const data = new Map();
  globalThis.localStorage = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, String(v)), removeItem: (k) => data.delete(k) };
  const link = fakeLink();
  const controller = new GameController({ engine: fakeEngine() });
  const notices = [];
  controller.notice = (code, params) => notices.push([code, params]);
  const guest = await joinTable({ room: "abcdefghijkmnpqrstuv", name: "Bo", controller, localEngine: fakeEngine(), build: "b1", linkOpener: async () => link });
  const hear = (fields, s) => link.onMessage(JSON.stringify({ v: PROTOCOL, s, ...fields }), "host");
  hear({ t: "host", build: "b1" }, 1);
  assert.equal(link.sent.get("host")[0].t, "hello");
  hear({ t: "welcome", seat: null, started: true, names: ["Hana", "Ada", "Cy", null], full: false, lost: 2 }, 2);
  assert.equal(guest.state().status, "watching");
  assert.deepEqual(notices.at(-1), ["online.seat_take.lost", { name: "Cy" }]);
  hear({ t: "seated", seat: 2 }, 3);
  assert.deepEqual(notices.at(-1), ["online.seat_take.given", { name: "Cy", n: 3 }]);
  hear({ t: "again" }, 4);
  assert.deepEqual(notices.at(-1)[0], "online.again.started");
  assert.equal(guest.takeSeat(1) > 0, true);
  assert.deepEqual(link.sent.get("host").at(-1).seat, 1);
  assert.equal(link.sent.get("host").at(-1).t, "take");
  hear({ t: "welcome", seat: 1, started: true, names: ["Hana", "Bo", "Cy", null], full: false, took: true }, 5);
  assert.equal(guest.state().status, "playing");
  assert.deepEqual(notices.at(-1), ["online.seat_take.taken", { n: 2 }]);
  assert.equal(guest.takeSeat(2), 0, "one with a seat asks for none");
  await guest.leave();
});

test("at each round's end the host sends what is public to everyone; after the game, the record", async () => {
  const { link, engine, controller } = await started();
  engine.phase = "round-over";
  controller.emit("round", { view: (await engine.state()).result });
  await tick();
  for (const peer of ["pa", "pb", "pc"]) {
    assert.equal(JSON.parse(last(link, peer, "public").public).format, "jabberwocky-public/1", peer);
    assert.equal(last(link, peer, "record"), undefined, "no record before the end");
  }
  engine.phase = "game-over";
  controller.emit("round", { view: (await engine.state()).result });
  await tick();
  assert.equal(engine.calls.filter((c) => c[0] === "publicRecord").length, 1, "the record, not the public part, at the end");
});

test("a guest keeps the checked public rounds; when the host leaves before the end it offers to save them", async () => {
  const data = new Map();
  globalThis.localStorage = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, String(v)), removeItem: (k) => data.delete(k) };
  const link = fakeLink();
  const controller = new GameController({ engine: fakeEngine() });
  const notices = [];
  controller.notice = (code) => notices.push(code);
  const local = fakeEngine();
  const guest = await joinTable({ room: "abcdefghijkmnpqrstuw", name: "Bo", controller, localEngine: local, build: "b1", linkOpener: async () => link });
  const hear = (fields, s) => link.onMessage(JSON.stringify({ v: PROTOCOL, s, ...fields }), "host");
  hear({ t: "host", build: "b1" }, 1);
  hear({ t: "public", public: '{"format":"jabberwocky-game/1","seed":"x"}' }, 2);
  await tick();
  assert.equal(guest.publicRecord(), null, "what its own engine refuses is not kept");
  hear({ t: "public", public: JSON.stringify({ format: "jabberwocky-public/1", rounds: [{ round: 1 }, { round: 2 }] }) }, 3);
  await tick();
  assert.equal(JSON.parse(guest.publicRecord()).rounds.length, 2);
  assert.equal(guest.state().publicRounds, 2);
  hear({ t: "end", code: "online.host_left" }, 4);
  assert.equal(guest.state().status, "ended");
  assert.equal(notices.at(-1), "online.public.kept");
  // the bar's offer
  const buttons = new Map(["online-take-seat", "online-save-public"].map((a) => [a, { hidden: true, dataset: {}, textContent: "" }]));
  const bar = { querySelector: (sel) => buttons.get(/data-action="([^"]+)"/.exec(sel)[1]) };
  renderAfterGame(bar, { role: "guest", ...guest.state() });
  assert.equal(buttons.get("online-save-public").hidden, false);
  assert.equal(buttons.get("online-save-public").dataset.rounds, "2");
  renderAfterGame(bar, { role: "guest", ...guest.state(), status: "over", publicRounds: 2 });
  assert.equal(buttons.get("online-save-public").hidden, true, "the whole record came: nothing to offer");
  await guest.leave();
});

test("a guest's first refusal is answered even in the host page's first 100 ms", async () => {
  // performance.now() counts from the page's (here the process's) start: a guest never
  // refused before must not look refused "at 0 ms" (it once went unanswered so)
  const { link, say } = await started();
  const realNow = performance.now;
  performance.now = () => 50;
  try {
    say("pb", { t: "again" });
    await tick();
    assert.equal(last(link, "pb", "refused")?.code, "online.refused.kind");
    say("pb", { t: "again" });
    await tick();
    assert.equal(link.sent.get("pb").filter((m) => m.t === "refused").length, 1, "the next within 100 ms is not echoed");
  } finally {
    performance.now = realNow;
  }
});
