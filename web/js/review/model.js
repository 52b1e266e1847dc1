// The review's positions and summaries: pure functions of the engine's `review` answer
// (docs/web-protocol.md, Reviews) and its `review_analyse` answers, unit-tested with
// node --test.  Position i shows step i: every hand as it was before the move, the move
// itself marked, the trick as it is after it.

/** The round (the timeline's round object) step `i` belongs to. */
export function roundAt(timeline, i) {
  const number = timeline.steps[i]?.round ?? 1;
  return timeline.rounds.find((r) => r.round === number) ?? timeline.rounds[0];
}

/** The position one move, one trick or one round away (clamped to the game). */
export function moveBy(timeline, i, delta) {
  return Math.max(0, Math.min(timeline.steps.length - 1, i + delta));
}

/** The first position of the trick before/after the one `i` is in (or of the bidding). */
export function trickBy(timeline, i, delta) {
  const starts = timeline.rounds.flatMap((r) => [r.first_step, ...r.tricks]);
  const here = starts.filter((s) => s <= i).length - 1;
  const target = delta > 0 ? starts[here + 1] : (i > starts[here] ? starts[here] : starts[here - 1]);
  return target === undefined ? (delta > 0 ? timeline.steps.length - 1 : 0) : target;
}

/** The first position of round `number`. */
export function roundStart(timeline, number) {
  const r = timeline.rounds.find((x) => x.round === number);
  return r ? r.first_step : 0;
}

/** The next (delta 1) or previous (-1) decision of a person from `i`, or null. */
export function decisionBy(timeline, i, delta) {
  const list = delta > 0 ? timeline.decisions.filter((d) => d > i) : timeline.decisions.filter((d) => d < i);
  if (!list.length) return null;
  return delta > 0 ? list[0] : list[list.length - 1];
}

/** Which trick of its round step `i` is (1-based), 0 during the bidding. */
export function trickNumber(step) {
  return step.trick ? step.trick.number : 0;
}

/** The order to analyse the decisions in: from position `i` on, then the ones before. */
export function analysisOrder(timeline, i) {
  const after = timeline.decisions.filter((d) => d >= i);
  const before = timeline.decisions.filter((d) => d < i);
  return [...after, ...before];
}

/** The steps of round `r` (the timeline's round object): [first, end). */
function roundSpan(timeline, r) {
  const next = timeline.rounds.find((x) => x.round === r.round + 1);
  return [r.first_step, next ? next.first_step : timeline.steps.length];
}

/**
 * One row per round and person: {round, seat, bidStep, bid, bidAnswer (or null while not
 * analysed), cards (how many card decisions), cardsKnown, cardsDiffer}.  answers: step ->
 * review_analyse answer.
 */
export function decisionRows(timeline, answers, humans) {
  const rows = [];
  for (const r of timeline.rounds) {
    const [first, end] = roundSpan(timeline, r);
    for (const seat of humans) {
      const steps = timeline.decisions.filter((d) => d >= first && d < end && timeline.steps[d].seat === seat);
      if (!steps.length) continue;
      const bidStep = steps.find((d) => timeline.steps[d].kind === "bid") ?? null;
      const cards = steps.filter((d) => timeline.steps[d].kind === "card");
      const known = cards.filter((d) => answers.has(d));
      rows.push({
        round: r.round,
        seat,
        bidStep,
        firstStep: steps[0],
        bid: bidStep === null ? null : timeline.steps[bidStep].value,
        bidAnswer: bidStep === null ? null : answers.get(bidStep) ?? null,
        cards: cards.length,
        cardsKnown: known.length,
        cardsDiffer: known.filter((d) => answers.get(d).differs).length,
      });
    }
  }
  return rows;
}

/** The hand of `seat` at position `i`, and the card the move there takes out of it. */
export function handAt(timeline, i, seat) {
  const step = timeline.steps[i];
  return { cards: step.hands[seat], played: step.seat === seat && step.kind === "card" ? step.value : null };
}

/** The cards of the trick drawn at position `i` ({leader, cards, winner}) or null. */
export function trickAt(timeline, i) {
  const step = timeline.steps[i];
  if (step.trick) return step.trick;
  return null;
}

/** Round `number`'s result is known at position `i` (the round's last move is at or before it). */
export function roundDone(timeline, i) {
  const step = timeline.steps[i];
  const next = timeline.steps[i + 1];
  return Boolean(step.trick && step.trick.winner !== null && (!next || next.round !== step.round));
}

/** The table's bids and tricks taken after the move at `i` ({bids, taken, scores}). */
export function countsAt(timeline, i) {
  const step = timeline.steps[i];
  return { bids: step.bids, taken: step.taken, scores: step.scores };
}

/**
 * A card's rating by the hard bot (a `review_analyse` answer `a`; `which`: "chosen" or
 * "suggested") as a catalogue key and its parameters (shares 0..1, the page formats them):
 * the chance of making the bid with it when the engine gives it (`*_chance`), with the
 * chance of winning the game when the bot plays its cards for the game (`*_win`: its card
 * may then have less chance of making the bid than yours, and this says what it gains),
 * else the bot's mean score over its sampled deals, rounded to hundredths.
 */
export function cardRating(a, which) {
  const p = a[`${which}_chance`];
  const win = a[`${which}_win`];
  if (typeof p === "number" && typeof win === "number") return { key: "review.rating_win", params: { win, p } };
  if (typeof p === "number") return { key: "review.rating_chance", params: { p } };
  return { key: "review.rating_points", params: { points: Math.round(a[`${which}_score`] * 100) / 100 } };
}
