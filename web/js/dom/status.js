// The status line under the title and the page's state markers on <body> (the test
// contract: data-phase, data-your-turn, data-busy, data-step, data-round, data-mode,
// data-trick-cards, data-trick-winner and data-trick-why: what the table shows of the trick;
// data-bid-bubbles: the bids shown at their seats).

import { $ } from "./util.js";
import { t } from "../i18n.js";
import { SUIT_SYMBOLS } from "../cards.js";
import { botLevel, seatName, viewerOf } from "../names.js";
import { acceptsInput } from "../controller.js";
import { bidBubbles, bidResults } from "../bubbles.js";
import { moodOf } from "../cast.js";

/** The seat whose card is still on its way to complete a trick: the view (the engine's,
 *  after the card) already names the next trick's leader, or says the round is over, while
 *  the table still shows the trick without that card.  Null when the table has caught up (or there is no such
 *  card). */
export function lastCardInFlight(state) {
  const view = state.view;
  const shown = state.table?.shownTrick;
  const last = view?.last_trick;
  if (!shown || !last || view.trick?.cards?.length) return null; // no trick just completed
  if (shown.leader !== last.leader || shown.cards.length !== last.cards.length - 1) return null;
  if (shown.cards.some((c, i) => c !== last.cards[i])) return null;
  return (last.leader + last.cards.length - 1) % view.players;
}

/** Whose turn it is, in words: what the table shows, so the line does not name the next
 *  trick's leader, or say "round over", while a trick's last card is still flying. */
export function turnText(state) {
  const view = state.view;
  // the autosave's table, drawn before the engine is up: nobody may move yet
  if (state.preview) return t("status.loading");
  const flying = lastCardInFlight(state);
  if (flying !== null && flying !== viewerOf(view)) return t("turn.other_play", { name: seatName(view, flying) });
  if (view.phase === "game-over") return t("turn.game_over");
  if (state.mode === "closed") return t("turn.closed");
  if (view.phase === "round-over") return t("turn.round_over");
  if (view.your_turn && state.mode === "watch") return t("turn.watch_yours");
  if (view.your_turn) return t(view.phase === "bidding" ? "turn.you_bid" : "turn.you_play");
  if (view.to_act === null || view.to_act === undefined) return "";
  return t(view.phase === "bidding" ? "turn.other_bid" : "turn.other_play", { name: seatName(view, view.to_act) });
}

export function statusText(state) {
  const view = state.view;
  if (!view) return t("status.loading");
  return t("status.line", {
    round: view.round, rounds: view.rounds, cards: t("status.cards", { n: view.hand_size }),
    trump: SUIT_SYMBOLS[view.trump_suit] || "", turn: turnText(state),
  });
}

export function renderStatus(state) {
  const view = state.view;
  $("status").textContent = statusText(state);
  const body = document.body.dataset;
  body.yourTurn = acceptsInput(state) ? "true" : "false";
  body.busy = state.busy ? "true" : "false";
  body.mode = state.mode;
  // what the table shows of the trick: its cards, and its winner once it is complete
  const shown = state.table.shownTrick;
  body.trickCards = String(shown?.cards?.length ?? 0);
  body.trickWinner = shown && view && shown.cards.length === view.players && shown.winner !== undefined && shown.winner !== null ? String(shown.winner) : "";
  // why it is theirs (the engine's "trump" or "led"), while the winner is on show
  body.trickWhy = body.trickWinner && shown.why ? shown.why : "";
  // the bids shown in bubbles at their seats: "seat:bid" in seat order, space-separated
  body.bidBubbles = bidBubbles(view, shown).map((b) => `${b.seat}:${b.bid}`).join(" ");
  // at the round's end, each bid marked at its seat: "seat:made" or "seat:missed"
  body.bidResults = bidResults(view).map((r) => `${r.seat}:${r.made ? "made" : "missed"}`).join(" ");
  // the bots' faces that show a mood: "seat:mood" (thinking, pleased, dismayed)
  body.moods = view && !state.table.dealtCounts ? view.bids.flatMap((_, s) => {
    const mood = botLevel(view, s) ? moodOf(view, s) : null;
    return mood ? [`${s}:${mood}`] : [];
  }).join(" ") : "";
  // how many tricks a claim just took while its cards show (else empty)
  body.claimShown = state.table.claimed ? String(state.table.claimed.tricks) : "";
  if (view) {
    body.step = String(view.step);
    body.round = String(view.round);
    if (!state.busy) body.phase = view.phase;
  }
}
