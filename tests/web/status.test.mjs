// The status line follows what the table shows: while the round's last card is still
// flying, the engine's view already says the round is over, but the line keeps saying
// whose card it is until the card lands (seen in a review: "round over" ran ahead).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { useCatalogue } from "../../web/js/i18n.js";
import { lastCardInFlight, turnText } from "../../web/js/dom/status.js";
import { ROOT } from "./engine-info.mjs";

useCatalogue("en", JSON.parse(readFileSync(path.join(ROOT, "web/i18n/en.json"), "utf8")));

// The round's last trick, led by seat 2 at a table of four; seat 1 played its last card.
const LAST = { leader: 2, cards: ["TS", "4S", "KS", "9S"], winner: 0 };
const view = (phase) => ({
  phase, players: 4, viewer: 0, seats: ["human", "medium", "medium", "medium"],
  trick: { leader: 0, cards: [] }, last_trick: LAST, to_act: null, your_turn: false,
});
const flying = { shownTrick: { leader: 2, cards: ["TS", "4S", "KS"] } };
const landed = { shownTrick: LAST };

test("while the last card flies, the line names its player, not the round's end", () => {
  const state = { view: view("round-over"), table: flying, mode: "play" };
  assert.equal(lastCardInFlight(state), 1);
  assert.equal(turnText(state), "Jubjub to play");
});

test("once it has landed, the line says the round (or the game) is over", () => {
  assert.equal(turnText({ view: view("round-over"), table: landed, mode: "play" }), "round over");
  assert.equal(turnText({ view: view("game-over"), table: landed, mode: "play" }), "game over");
  assert.equal(lastCardInFlight({ view: view("round-over"), table: landed }), null);
});

test("your own last card: the line does not tell you it is your turn again", () => {
  const state = { view: view("round-over"), table: { shownTrick: { leader: 1, cards: ["TS", "4S", "KS"] } }, mode: "play" };
  state.view.last_trick = { leader: 1, cards: ["TS", "4S", "KS", "9S"], winner: 1 };
  assert.equal(lastCardInFlight(state), 0);
  assert.equal(turnText(state), "round over");
});

test("a table that shows another trick, or no table at all, is not a card in flight", () => {
  assert.equal(lastCardInFlight({ view: view("round-over"), table: { shownTrick: { leader: 2, cards: ["TS", "4S", "QS"] } } }), null);
  assert.equal(lastCardInFlight({ view: view("round-over") }), null);
  const next = { ...view("playing"), trick: { leader: 0, cards: ["2S"] } };
  assert.equal(lastCardInFlight({ view: next, table: flying }), null, "the next trick has begun");
});

test("the saved table drawn before the engine is up says it is loading, not whose turn it is", () => {
  const view = { phase: "playing", players: 4, viewer: 0, your_turn: true, to_act: 0, trick: { leader: 0, cards: [] }, last_trick: null };
  assert.equal(turnText({ view, table: {}, mode: "play", preview: true }), "Loading…");
  assert.equal(turnText({ view, table: {}, mode: "play", preview: false }), "your turn to play");
});

test("mid-round too: while a trick's last card flies, the line names its player, not the next leader", () => {
  const state = { view: { ...view("playing"), to_act: 0, your_turn: false }, table: flying, mode: "play" };
  state.view.to_act = 2; // the trick's winner leads next
  assert.equal(lastCardInFlight(state), 1);
  assert.equal(turnText(state), "Jubjub to play");
  assert.equal(turnText({ ...state, table: landed }), turnText({ view: state.view, mode: "play" }));
});
