// The autosave's saved view (web/js/save.js): which visits may draw it before the engine
// is up (peekSavedView), and that a damaged or foreign view is never drawn.
// (No localStorage under Node: storage.js keeps the values in memory.)

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeSave, peekSavedView, peekSavedRecord } from "../../web/js/save.js";

const OPTIONS = { seed: "paint", players: 4, bots: "random", bv: 4 };
const VIEW = {
  phase: "playing", players: 4, seats: ["human", "random", "random", "random"], hand: ["2H", "3C"],
  step: 7, round: 1, rounds: 13, scores: [0, 0, 0, 0], seed: "paint", handoff: false, remote: [false, false, false, false],
};

test("a visit that resumes the saved game may draw its saved view", () => {
  writeSave("RECORD", OPTIONS, VIEW);
  for (const hash of ["", "#", "#lang=de", "#seed=paint&players=4&bots=random&bv=4", "#seed=paint&players=4&bots=random", "#seed=paint", "#seed=paint&lang=ko"]) {
    assert.deepEqual(peekSavedView(hash), VIEW, hash);
    assert.equal(peekSavedRecord(hash), "RECORD", hash);
  }
});

test("another game's link draws nothing and resumes nothing early", () => {
  writeSave("RECORD", OPTIONS, VIEW);
  for (const hash of ["#seed=other", "#seed=paint&players=5", "#seed=paint&bots=hard", "#players=4", "#daily", "#join=abc", "#seed=paint&rules=honour"]) {
    assert.equal(peekSavedView(hash), null, hash);
    assert.equal(peekSavedRecord(hash), null, hash);
  }
});

test("a damaged or foreign saved view is ignored; the record still resumes", () => {
  const bad = [
    "not a view", 42, null, [], { ...VIEW, phase: "dealing" }, { ...VIEW, players: "four" },
    { ...VIEW, seats: ["human", "random", "random"] }, { ...VIEW, hand: null }, { ...VIEW, hand: [1, 2] },
    { ...VIEW, step: "7" }, { ...VIEW, scores: [0] }, { ...VIEW, seed: "another" },
    { ...VIEW, seats: ["human", "human", "random", "random"] }, // pass-and-play: hands hidden between players
    { ...VIEW, handoff: true }, { ...VIEW, remote: [false, true, false, false] }, // an online host's table
  ];
  for (const view of bad) {
    writeSave("RECORD", OPTIONS, view);
    assert.equal(peekSavedView(""), null, JSON.stringify(view));
    assert.equal(peekSavedRecord(""), "RECORD");
  }
  writeSave("RECORD", OPTIONS); // saved before views were: the record alone
  assert.equal(peekSavedView(""), null);
  assert.equal(peekSavedRecord(""), "RECORD");
});
