// A guest's page receiving views (web/js/online/guest.js with viewdiff.js): whole views
// and patches build the host's views; a patch it cannot build from (garbled, for a view it
// does not hold) is dropped, the table stays as it was and the whole view is asked for
// (`sync`), once while none comes.  The views are the real engine's (a CPython process).

import { test } from "node:test";
import assert from "node:assert/strict";
import { joinTable } from "../../web/js/online/guest.js";
import { GameController } from "../../web/js/controller.js";
import { encode, newRoomCode } from "../../web/js/online/protocol.js";
import { diff, viewHash } from "../../web/js/online/viewdiff.js";
import { startEngine } from "./engine-process.mjs";

const tick = () => new Promise((r) => setTimeout(r, 5));
const presenter = { deal() {}, bid() {}, cancel() {}, card: async () => {}, collect: async () => {}, redraw() {}, addEventListener() {} };

test("patches build the host's views; a bad one is dropped and the whole view asked for", async () => {
  const data = new Map();
  globalThis.localStorage = { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, String(v)) };
  const engine = startEngine();
  try {
    await engine.request("new_game", { seed: "guest-views", players: 3, seats: ["human", "remote", "remote"], rules: "jabberwocky" });
    const first = await engine.request("seat_view", { seat: 1 });
    let host = await engine.request("state");
    const move = host.phase === "bidding" ? ["bid", { bid: host.legal_bids[0] }] : ["play", { card: host.legal_cards[0] }];
    await engine.request(...move);
    const second = await engine.request("seat_view", { seat: 1 });
    host = await engine.request("state");

    const sent = [];
    const link = { send: (text) => sent.push(JSON.parse(text)), leave: async () => {} };
    const controller = new GameController({ engine: { ready: Promise.resolve({}) } });
    controller.presenter = presenter;
    const guest = await joinTable({ room: newRoomCode(), name: "Ada", controller, localEngine: {}, build: "b1", linkOpener: async () => link });
    let s = 0;
    const say = (kind, fields) => link.onMessage(encode(kind, fields, ++s), "host");
    say("host", { build: "b1" });
    assert.equal(sent.at(-1).t, "hello");
    say("welcome", { seat: 1, started: true, names: ["H", "Ada", "Bo"] });
    say("sync", { n: 1, view: first });
    await tick();
    assert.deepEqual(guest.views.at(-1), first);
    assert.equal(controller.state.view.step, first.step);

    const action = { seat: 0, kind: move[0] === "bid" ? "bid" : "card", value: Object.values(move[1])[0] };
    const patch = diff(first, second);
    // garbled (its result is not the host's view), and a gap: dropped, one sync asked for
    say("move", { action, n: 2, patch, h: viewHash(first) });
    say("move", { action, n: 3, patch, h: viewHash(second) });
    await tick();
    assert.deepEqual(guest.views.slice(-2), [null, null]);
    assert.equal(controller.state.view.step, first.step, "the table stays as it was");
    assert.deepEqual(sent.filter((m) => m.t === "sync").length, 1, "the whole view asked for once");
    // the host answers with the whole view; the next patch applies to it
    say("sync", { n: 4, view: second });
    await tick();
    assert.equal(controller.state.view.step, second.step);
    say("move", { action, n: 5, patch: diff(second, first), h: viewHash(first) });
    assert.deepEqual(guest.views.at(-1), first, "a patch against the whole view of the sync");
    assert.equal(sent.filter((m) => m.t === "sync").length, 1);
    // a patch that does not apply at all
    say("move", { action, n: 6, patch: [1, { hand: [2, "AS"] }], h: viewHash(first) });
    await tick();
    assert.equal(guest.views.at(-1), null);
    assert.equal(sent.filter((m) => m.t === "sync").length, 2, "asked again: a whole view came in between");
  } finally {
    engine.stop();
    delete globalThis.localStorage;
  }
});
