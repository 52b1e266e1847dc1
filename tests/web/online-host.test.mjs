// The host's relay (web/js/online/host.js) with a fake wire, controller and engine: who
// may take which seat, what each guest is sent, and what a guest's bad message changes
// (nothing).  The e2e test (e2e/test_online.py) plays the same over WebRTC.

import { test } from "node:test";
import assert from "node:assert/strict";
import { openTable } from "../../web/js/online/host.js";
import { GameController } from "../../web/js/controller.js";
import { PROTOCOL, newToken } from "../../web/js/online/protocol.js";
import { ViewKeeper } from "../../web/js/online/viewdiff.js";

const tick = () => new Promise((r) => setTimeout(r, 5));
const open = []; // every table a test opened: closed after it (their timers end)
test.afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/** A wire with peers the test speaks for: sent[peer] holds what the host sent them. */
function fakeLink() {
  const sent = new Map();
  const link = {
    sent,
    onMessage: () => {}, onPeerJoin: () => {}, onPeerLeave: () => {},
    send(text, peer) {
      if (!sent.has(peer)) sent.set(peer, []);
      sent.get(peer).push(JSON.parse(text));
    },
    leave: async () => {},
    peers: () => [...sent.keys()],
  };
  return link;
}

/** An engine that answers like the host's: each seat's view names its own cards only. */
function fakeEngine() {
  const calls = [];
  const view = (seat) => ({ phase: "bidding", seats: ["human", "human", "human", "medium"], remote: [1, 2], stand_ins: {}, viewer: seat, to_act: 1, your_turn: seat === 1, hand: [`${seat + 2}C`], step: 0 });
  const answer = (result) => Promise.resolve({ result });
  const publicView = () => ({ ...view(0), hand: [], your_turn: false, handoff: true });
  return {
    calls,
    ready: Promise.resolve({ build: "b1" }),
    newGame: (t) => (calls.push(["newGame", t]), answer(view(0))),
    seatView: (seat) => (calls.push(["seatView", seat]), answer(view(seat))),
    publicView: () => (calls.push(["publicView"]), answer(publicView())),
    seatViews: (seats, withPublic) => {
      for (const seat of seats) calls.push(["seatView", seat]);
      if (withPublic) calls.push(["publicView"]);
      return answer({ views: seats.map(view), public: withPublic ? publicView() : null });
    },
    seatBid: (seat, n) => {
      calls.push(["seatBid", seat, n]);
      return seat === 1 ? answer(view(seat)) : Promise.resolve({ error: { kind: "IllegalMoveError", code: "move.not_your_turn", params: { seat } } });
    },
    seatPlay: (seat) => Promise.resolve({ error: { kind: "IllegalMoveError", code: "move.not_your_turn", params: { seat } } }),
    seatHint: () => answer({ kind: "bid", suggestion: 0 }),
    seatAuto: (seat) => (calls.push(["seatAuto", seat]), answer({ action: { seat, kind: "bid", value: 0 }, view: { ...view(0), to_act: 0, step: 1 } })),
    seatStandIn: (seat, level) => (calls.push(["seatStandIn", seat, level]), answer(view(seat))),
    state: () => answer(view(0)),
    exportRecord: () => answer({ record: "{}" }),
  };
}

const presenter = { deal() {}, bid() {}, cancel() {}, card: async () => {}, collect: async () => {}, redraw() {}, addEventListener() {} };

async function table(seats = ["host", "friend", "friend", "medium"], clock = 0) {
  const link = fakeLink();
  const engine = fakeEngine();
  const controller = new GameController({ engine });
  controller.presenter = { ...presenter, deal: (v) => controller.setView(v), bid: (seat, n, v) => controller.setView(v) };
  const host = await openTable({ plan: { players: seats.length, seats, rules: "jabberwocky", hostName: "Hana", clock }, controller, engine, build: "b1", linkOpener: async () => link });
  open.push(host);
  let seq = 0;
  const say = (peer, fields, s = ++seq) => link.onMessage(JSON.stringify({ v: PROTOCOL, s, ...fields }), peer);
  return { link, engine, controller, host, say };
}

const last = (link, peer, t) => link.sent.get(peer).filter((m) => m.t === t).at(-1);
/** The view `peer` holds after every view the host sent it (whole or patched), as its page
 *  builds it (null when one could not be built). */
function viewAt(link, peer) {
  const keeper = new ViewKeeper();
  let view = null;
  for (const m of link.sent.get(peer)) if ("n" in m) view = keeper.take(m);
  return view;
}

test("friends take the friend seats in turn; a third watches; the token gets the seat back", async () => {
  const { link, host, say } = await table();
  const [a, b, c] = [newToken(), newToken(), newToken()];
  for (const peer of ["pa", "pb", "pc"]) link.onPeerJoin(peer);
  assert.equal(last(link, "pa", "host").build, "b1", "a new peer is told who the host is");
  say("pa", { t: "hello", token: a, name: "Ada", build: "b1" });
  say("pb", { t: "hello", token: b, name: "Bo", build: "b1" });
  say("pc", { t: "hello", token: c, name: "Cy", build: "b1" });
  assert.equal(last(link, "pa", "welcome").seat, 1);
  assert.equal(last(link, "pb", "welcome").seat, 2);
  assert.deepEqual([last(link, "pc", "welcome").seat, last(link, "pc", "welcome").full], [null, true]);
  assert.deepEqual(host.state().presence, ["here", "connected", "connected", "bot"]);
  assert.deepEqual(host.state().names.slice(0, 3), ["Hana", "Ada", "Bo"]);
  // Ada's page reloads: a new peer with the same token has seat 1 again; Cy's token cannot
  link.onPeerLeave("pa");
  assert.equal(host.state().presence[1], "reconnecting");
  link.onPeerJoin("pa2");
  say("pa2", { t: "hello", token: a, name: "Ada", build: "b1" });
  assert.equal(last(link, "pa2", "welcome").seat, 1);
  assert.equal(host.state().presence[1], "connected");
});

test("a guest on another build is told so and gets no seat", async () => {
  const { link, host, say } = await table();
  link.onPeerJoin("px");
  say("px", { t: "hello", token: newToken(), name: "Old", build: "b0" });
  const end = last(link, "px", "end");
  assert.deepEqual(end, { v: PROTOCOL, t: "end", s: end.s, code: "online.other_build", params: { theirs: "b0", ours: "b1" } });
  assert.equal(last(link, "px", "welcome"), undefined);
  assert.deepEqual(host.state().presence, ["here", "open", "open", "bot"]);
});

test("Start: taken seats play from afar, empty ones are bots; each guest gets only its own view", async () => {
  const { link, engine, host, say } = await table();
  link.onPeerJoin("pa");
  say("pa", { t: "hello", token: newToken(), name: "Ada", build: "b1" });
  await host.start("easy");
  await tick();
  const [, plan] = engine.calls.find((c) => c[0] === "newGame");
  assert.deepEqual(plan.seats, ["human", "remote", "easy", "medium"]);
  assert.deepEqual(plan.names, ["Hana", "Ada", null, null]);
  const deal = last(link, "pa", "deal");
  assert.equal(deal.how, "game");
  assert.equal(deal.view.viewer, 1, "the deal sent to seat 1 is seat 1's view");
  assert.ok(engine.calls.every((c) => c[0] !== "seatView" || c[1] === 1), "no other seat's view was asked for");
});

test("a friend who finds the table full watches: the public view after every change, no hand, no moves", async () => {
  const { link, engine, host, say } = await table(["host", "friend", "medium"]);
  for (const peer of ["pa", "pw"]) link.onPeerJoin(peer);
  say("pa", { t: "hello", token: newToken(), name: "Ada", build: "b1" });
  say("pw", { t: "hello", token: newToken(), name: "Wil", build: "b1" });
  assert.deepEqual([last(link, "pw", "welcome").seat, last(link, "pw", "welcome").full], [null, true]);
  await host.start("easy");
  await tick();
  assert.equal(last(link, "pw", "welcome").started, true);
  const deal = last(link, "pw", "deal");
  assert.equal(deal.how, "game");
  assert.deepEqual([deal.view.hand, deal.view.your_turn], [[], false], "the watcher's view holds no hand");
  assert.equal(last(link, "pa", "deal").view.viewer, 1, "the seated friend still gets its own view");
  say("pa", { t: "bid", n: 1 });
  await tick();
  const move = last(link, "pw", "move");
  assert.deepEqual(move.action, { seat: 1, kind: "bid", value: 1 });
  assert.deepEqual(viewAt(link, "pw").hand, []);
  assert.equal(move.re, undefined);
  assert.ok(engine.calls.every((c) => c[0] !== "seatView" || c[1] === 1), "no seat's view was asked for the watcher");
  // a watcher's moves and hints are refused and reach no engine
  const bids = engine.calls.filter((c) => c[0] === "seatBid").length;
  say("pw", { t: "bid", n: 0 });
  say("pw", { t: "hint" });
  await tick();
  assert.equal(engine.calls.filter((c) => c[0] === "seatBid").length, bids);
  assert.equal(last(link, "pw", "refused").code, "online.refused.no_seat");
  // one who comes in during play, asking to watch, gets the table as it is
  link.onPeerJoin("pv");
  say("pv", { t: "hello", token: newToken(), name: "Vi", build: "b1", watch: true });
  await tick();
  assert.deepEqual([last(link, "pv", "welcome").seat, last(link, "pv", "welcome").full], [null, false]);
  assert.deepEqual(last(link, "pv", "sync").view.hand, []);
  say("pv", { t: "sync" });
  await tick();
  assert.equal(link.sent.get("pv").filter((m) => m.t === "sync").length, 2);
});

test("bad messages are refused with a reason and change nothing; a good bid goes through", async () => {
  const { link, engine, host, say } = await table();
  link.onPeerJoin("pa");
  link.onPeerJoin("pb");
  say("pa", { t: "bid", n: 1 }); // before hello
  say("pa", { t: "hello", token: newToken(), name: "Ada", build: "b1" });
  say("pb", { t: "hello", token: newToken(), name: "Bo", build: "b1" });
  say("pa", { t: "bid", n: 1 }); // before the start
  await host.start("easy");
  await tick();
  const moves = () => engine.calls.filter((c) => c[0] === "seatBid");
  say("pa", { t: "bid", n: 1, seat: 2 }); // another seat
  say("pa", { t: "bid", n: 1 }, 1); // a replay of an old number
  link.onMessage("}{", "pa");
  link.onMessage("x".repeat(1 << 20), "pa");
  say("pa", { t: "bid", n: 1, extra: "field" });
  say("pb", { t: "bid", n: 0 }); // seat 2, out of turn: the engine refuses
  await tick();
  assert.deepEqual(moves(), [["seatBid", 2, 0]], "only the well-formed move of the right seat reached the engine");
  const codes = host.log.map((e) => e.code);
  for (const code of ["online.refused.no_hello", "online.refused.not_started", "online.refused.wrong_seat", "online.refused.replay",
    "online.refused.not_json", "online.refused.too_large", "online.refused.field", "move.not_your_turn"]) {
    assert.ok(codes.includes(code), `${code} in ${codes}`);
  }
  assert.equal(last(link, "pb", "refused").code, "move.not_your_turn");
  say("pa", { t: "bid", n: 1 });
  await tick();
  assert.deepEqual(moves().at(-1), ["seatBid", 1, 1]);
  const answer = link.sent.get("pa").filter((m) => m.t === "move").at(-1);
  assert.deepEqual(answer.action, { seat: 1, kind: "bid", value: 1 });
  assert.ok(answer.re > 0, "the mover's answer names its request");
  assert.equal(link.sent.get("pb").filter((m) => m.t === "move").at(-1).re, undefined);
});

test("a flood is cut by the rate limit, counted, and not echoed back", async () => {
  const { link, host, say } = await table();
  link.onPeerJoin("pa");
  say("pa", { t: "hello", token: newToken(), name: "Ada", build: "b1" });
  const before = link.sent.get("pa").length;
  for (let i = 0; i < 1000; i++) say("pa", { t: "react", r: "nonsense" });
  assert.ok(host.state().refused >= 1000 - 1);
  assert.ok(link.sent.get("pa").length - before < 30, "the host does not answer every message of a flood");
  assert.ok(host.log.some((e) => e.code === "online.refused.rate"));
});

test("closing the table tells every guest the host has left", async () => {
  const { link, host, say } = await table();
  link.onPeerJoin("pa");
  say("pa", { t: "hello", token: newToken(), name: "Ada", build: "b1" });
  await host.close();
  assert.equal(last(link, "pa", "end").code, "online.host_left");
});

test("a bot may stand in for a friend who is away, and steps aside when they are back", async () => {
  const { link, engine, host, say } = await table();
  const token = newToken();
  link.onPeerJoin("pa");
  say("pa", { t: "hello", token, name: "Ada", build: "b1" });
  await host.start("easy");
  assert.equal(await host.standIn(1, "medium"), false, "not while the friend is there");
  link.onPeerLeave("pa");
  assert.equal(await host.standIn(2, "medium"), false, "not for a seat no friend holds");
  assert.equal(await host.standIn(1, "medium"), true);
  assert.equal(host.state().presence[1], "stand_in");
  link.onPeerJoin("pa2");
  say("pa2", { t: "hello", token, name: "Ada", build: "b1" });
  await tick();
  const standIns = engine.calls.filter((c) => c[0] === "seatStandIn");
  assert.deepEqual(standIns, [["seatStandIn", 1, "medium"], ["seatStandIn", 1, null]]);
  assert.equal(host.state().presence[1], "connected");
});

test("the turn clock: a friend who does not move in time has the medium bot move for them", async () => {
  const { link, engine, host, say } = await table(["host", "friend", "friend", "medium"], 0.05);
  link.onPeerJoin("pa");
  say("pa", { t: "hello", token: newToken(), name: "Ada", build: "b1" });
  await host.start("easy");
  await new Promise((r) => setTimeout(r, 150));
  assert.deepEqual(engine.calls.filter((c) => c[0] === "seatAuto"), [["seatAuto", 1]], "once, for the seat to act");
  assert.equal(last(link, "pa", "clock").seat, 1, "the guests are told");
  assert.deepEqual(last(link, "pa", "move").action, { seat: 1, kind: "bid", value: 0 });
});

test("no turn clock unless the host set one", async () => {
  const { link, engine, host, say } = await table();
  link.onPeerJoin("pa");
  say("pa", { t: "hello", token: newToken(), name: "Ada", build: "b1" });
  await host.start("easy");
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(engine.calls.filter((c) => c[0] === "seatAuto"), []);
});
