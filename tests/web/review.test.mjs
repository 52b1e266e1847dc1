// The review's positions and summaries (web/js/review/model.js) on a real game's timeline
// from the engine, and the challenge key of the link (web/js/fragment.js).

import { test, after } from "node:test";
import assert from "node:assert/strict";
import * as M from "../../web/js/review/model.js";
import { parseFragment, serializeFragment } from "../../web/js/fragment.js";
import { startEngine } from "./engine-process.mjs";

const engine = startEngine();
after(() => engine.stop());

const RULES = { name: "jabberwocky", version: 1, schedule: [2, 3], hook: true, trump_lead: "after-broken", scoring: "exact-1", renege_penalty: 0 };

async function finishedTimeline() {
  let v = await engine.request("new_game", { seed: "review-model", players: 4, bots: "medium", rules: RULES });
  while (v.phase !== "game-over") {
    if (v.phase === "round-over") v = await engine.request("next_round");
    else if (v.your_turn) v = v.phase === "bidding" ? await engine.request("bid", { bid: v.legal_bids[0] }) : await engine.request("play", { card: v.legal_cards[0] });
    else v = (await engine.request("bot_step")).view;
  }
  return engine.request("review");
}

test("stepping by move, trick, round and decision stays inside the game and lands where it says", async () => {
  const tl = await finishedTimeline();
  const last = tl.steps.length - 1;
  assert.equal(tl.steps.length, 4 * (1 + 2) + 4 * (1 + 3)); // 4 bids and 4 cards a trick
  assert.equal(M.moveBy(tl, 0, -1), 0);
  assert.equal(M.moveBy(tl, last, 1), last);
  // tricks: from the bidding to trick 1, then on; back from inside a trick to its start
  const r1 = tl.rounds[0];
  assert.equal(M.trickBy(tl, r1.first_step, 1), r1.tricks[0]);
  assert.equal(M.trickBy(tl, r1.tricks[0] + 2, -1), r1.tricks[0]);
  assert.equal(M.trickBy(tl, r1.tricks[0], -1), r1.first_step);
  assert.equal(M.trickBy(tl, r1.tricks[1], 1), tl.rounds[1].first_step);
  assert.equal(M.trickBy(tl, last, 1), last);
  assert.equal(M.roundStart(tl, 2), tl.rounds[1].first_step);
  assert.equal(M.roundAt(tl, tl.rounds[1].first_step).round, 2);
  // decisions are the human seat's moves, in order
  assert.ok(tl.decisions.every((d) => tl.steps[d].human && tl.steps[d].seat === 0));
  assert.equal(M.decisionBy(tl, -1, 1), tl.decisions[0]);
  assert.equal(M.decisionBy(tl, tl.decisions.at(-1), 1), null);
  assert.equal(M.decisionBy(tl, tl.decisions[1], -1), tl.decisions[0]);
  // analysis starts where the player is looking, then wraps round
  const mid = tl.decisions[3];
  assert.deepEqual(M.analysisOrder(tl, mid), [...tl.decisions.slice(3), ...tl.decisions.slice(0, 3)]);
});

test("the hand drawn at a card step still holds the card it plays; the trick holds it after", async () => {
  const tl = await finishedTimeline();
  for (let i = 0; i < tl.steps.length; i++) {
    const step = tl.steps[i];
    const { cards, played } = M.handAt(tl, i, step.seat);
    if (step.kind === "card") {
      assert.equal(played, step.value);
      assert.ok(cards.includes(step.value));
      assert.equal(M.trickAt(tl, i).cards.at(-1), step.value);
    } else {
      assert.equal(played, null);
    }
  }
  // the last move of each round completes a trick with a winner
  for (const r of tl.rounds) {
    const next = tl.rounds.find((x) => x.round === r.round + 1);
    const end = (next ? next.first_step : tl.steps.length) - 1;
    assert.ok(M.roundDone(tl, end));
    assert.ok(!M.roundDone(tl, end - 1));
  }
});

test("the per-round rows: the bid beside the hard bot's, the cards analysed and those that differ", async () => {
  const tl = await finishedTimeline();
  const answers = new Map();
  for (const d of tl.decisions) answers.set(d, await engine.request("review_analyse", { step: d }));
  const rows = M.decisionRows(tl, answers, [0]);
  assert.deepEqual(rows.map((r) => r.round), [1, 2]);
  assert.ok(rows.every((r) => r.bidAnswer && r.cardsKnown === r.cards));
  assert.deepEqual(rows.map((r) => r.cards), [2, 3]);
  const differs = tl.decisions.filter((d) => tl.steps[d].kind === "card" && answers.get(d).differs).length;
  assert.equal(rows.reduce((n, r) => n + r.cardsDiffer, 0), differs);
  assert.deepEqual(rows.map((r) => r.bidAnswer.differs), rows.map((r) => r.bidAnswer.suggestion !== r.bid));
  // the same step always gets the same answer (the analysis is seeded)
  const again = await engine.request("review_analyse", { step: tl.decisions[0] });
  assert.deepEqual(again, answers.get(tl.decisions[0]));
  // half analysed: only what is known is counted
  const half = new Map([...answers].slice(0, 2)); // round 1's bid and first card
  const partial = M.decisionRows(tl, half, [0]);
  assert.deepEqual(partial.map((r) => [r.cardsKnown, r.bidAnswer !== null]), [[1, true], [0, false]]);
});

test("a challenge link: its text is kept as it is, anything else beside it is the usual options", async () => {
  const info = await engine.request("rules");
  const levels = (await engine.request("levels")).levels;
  const text = "jc1.KlqfhkQGY2hhbC0xBAADAwP_C2phYmJlcndvY2t5AQIjAQEABEFsZXgcAAMByxs";
  const parsed = parseFragment(`#challenge=${text}`, levels, info);
  assert.equal(parsed.options.challenge, text);
  assert.deepEqual(parsed.problems, []);
  assert.equal(serializeFragment({ challenge: text, seed: "ignored", players: 4 }), `#challenge=${text}`);
  // anything else is the engine's to verify: the text reaches it as it was written
  for (const bad of ["jc1.<script>", "jc1.a b", "jc1.\u202e", "jc1.AA=="]) {
    const p = parseFragment(`#challenge=${encodeURIComponent(bad)}`, levels, info);
    assert.equal(p.options.challenge, bad.trim());
    assert.deepEqual(p.problems, []);
  }
  const long = parseFragment(`#challenge=jc1.${"A".repeat(info.challenge_max_length)}`, levels, info);
  assert.deepEqual(long.problems.map((x) => x.key), ["link.challenge_too_long"]);
  // pass-and-play seats travel as bots=human,…
  const seats = parseFragment("#seed=x&players=4&bots=human,medium,easy", levels, info);
  assert.deepEqual(seats.options.bots, ["human", "medium", "easy"]);
  assert.deepEqual(seats.problems, []);
});

test("a card's rating says the chance of winning the game beside the bid's when the bot played for the game", () => {
  const a = { chosen_chance: 0.5, suggested_chance: 0.35, chosen_win: 0.41, suggested_win: 0.48, chosen_score: 0.41, suggested_score: 0.48 };
  assert.deepEqual(M.cardRating(a, "suggested"), { key: "review.rating_win", params: { win: 0.48, p: 0.35 } });
  assert.deepEqual(M.cardRating(a, "chosen"), { key: "review.rating_win", params: { win: 0.41, p: 0.5 } });
  // an analysis made before the bot played for the game (no *_win), or one with no chances
  assert.deepEqual(M.cardRating({ chosen_chance: 0.5, chosen_win: null }, "chosen"), { key: "review.rating_chance", params: { p: 0.5 } });
  assert.deepEqual(M.cardRating({ chosen_chance: null, chosen_score: 0.456 }, "chosen"), { key: "review.rating_points", params: { points: 0.46 } });
});

test("the review's name column widens for a long name, up to its cap", async () => {
  const { reviewLayout, labelWidth } = await import("../../web/js/review/draw.js");
  const phone = reviewLayout(390, 430, 5);
  assert.equal(phone.wide, false);
  assert.equal(labelWidth(phone, 40), phone.labelW); // short names: the layout's own width
  assert.equal(labelWidth(phone, 120), 134); // "Bandersnatch (D)" whole: 120 px and the margin
  assert.equal(labelWidth(phone, 400), phone.labelCap); // never past 40% of the width
  assert.equal(phone.labelCap, 156);
  const desk = reviewLayout(1280, 480, 5);
  assert.equal(desk.wide, true);
  assert.equal(labelWidth(desk, 120), 170);
  assert.ok(labelWidth(desk, 260) > 170 && labelWidth(desk, 260) <= desk.labelCap);
});
