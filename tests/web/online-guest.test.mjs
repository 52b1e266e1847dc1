// A guest's side (web/js/online/guest.js): the host as an engine transport (a request is
// a message, the host's answer resolves it) and the seat token kept per room.

import { test } from "node:test";
import assert from "node:assert/strict";
import { HostTransport, seatToken, hasSeatToken } from "../../web/js/online/guest.js";
import { Engine } from "../../web/js/engine.js";

function storage() {
  const data = new Map();
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => data.set(k, String(v)) };
}

test("the guest's moves and hint travel to the host; its answer resolves them", async () => {
  const sent = [];
  const transport = new HostTransport((kind, fields) => sent.push([kind, fields]) && sent.length);
  const engine = new Engine(transport);
  const bid = engine.bid(2);
  const play = engine.play("TD");
  const hint = engine.hint();
  assert.deepEqual(sent, [["bid", { n: 2 }], ["play", { card: "TD" }], ["hint", {}]]);
  assert.equal(transport.answer(1, { result: { step: 5 } }), true);
  assert.equal(transport.answer(1, { result: {} }), false, "answered once");
  transport.answer(2, { error: { kind: "IllegalMoveError", code: "move.not_your_turn", params: {} } });
  assert.deepEqual(await bid, { result: { step: 5 } });
  assert.equal((await play).error.code, "move.not_your_turn");
  transport.failAll(); // the host went away
  assert.equal((await hint).error.code, "online.no_answer");
});

test("what a guest may not ask of the host is refused at once, nothing sent", async () => {
  const sent = [];
  const engine = new Engine(new HostTransport((...m) => sent.push(m)));
  for (const answer of [await engine.takeBack(), await engine.claim(), await engine.newGame({ players: 4, bots: "easy" })]) {
    assert.equal(answer.error.code, "online.not_here");
  }
  assert.deepEqual(sent, []);
});

test("a seat token per room, kept on the device", () => {
  const store = storage();
  assert.equal(hasSeatToken("room-a", store), false);
  const token = seatToken("room-a", store);
  assert.match(token, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(seatToken("room-a", store), token, "the same token after a reload");
  assert.equal(hasSeatToken("room-a", store), true);
  assert.notEqual(seatToken("room-b", store), token, "another room, another token");
  store.setItem("jabberwocky.onlineSeat.room-c", "tampered!");
  assert.match(seatToken("room-c", store), /^[A-Za-z0-9_-]{22}$/, "a damaged token is replaced");
});
