// What the game says as it goes: the live region for screen readers (every move, trick,
// round and turn) and the message box for refusals and hints.  It listens to the
// controller's events and finds its words in the catalogue.

import { el, $ } from "./util.js";
import { t, msg, percent } from "../i18n.js";
import { seatName, seatNames, isYou, viewerOf } from "../names.js";
import { turnText } from "./status.js";
import { suitOf } from "../cards.js";

export function createAnnouncer({ controller, toast }) {
  const live = $("live");
  let last = 0;

  /** Speak a line (appended; lines older than a few seconds are cleared). */
  function say(text) {
    const now = Date.now();
    if (now - last > 4000) live.replaceChildren();
    last = now;
    live.append(el("p", {}, text));
    while (live.childElementCount > 6) live.firstChild.remove();
  }

  const on = (type, fn) => controller.addEventListener(type, (e) => fn(e.detail));

  // an online table's reaction (its words: "online.reaction.*"), said with who sent it
  on("online-react", ({ seat, r }) => {
    const view = controller.state.view;
    const key = `online.reaction.${r}`;
    if (view && t(key) !== key) say(t("online.reaction_said", { name: seatName(view, seat), reaction: t(key) }));
  });

  on("game", ({ how, view }) => {
    if (how === "new") say(t("announce.new_game", { players: view.players, seed: view.seed }));
    else if (how === "save") say(t("announce.restored"));
    else if (how === "import") say(t("announce.loaded", { seed: view.seed }));
  });
  on("deal", ({ view }) => {
    toast.clearMove(); // a message about an earlier move does not belong to a new round
    say(t("announce.deal", { round: view.round, rounds: view.rounds, cards: view.hand_size, trump_card: view.trump_card, name: seatName(view, view.dealer) }));
  });
  on("move", ({ seat, kind, value, view }) => {
    if (kind === "bid") {
      say(isYou(view, seat) ? t("announce.you_bid", { n: value }) : t("announce.bids", { name: seatName(view, seat), n: value }));
      if (view.phase === "playing") say(t("announce.bidding_over", { turn: turnText({ view, mode: controller.state.mode }) }));
    } else {
      say(isYou(view, seat) ? t("announce.you_play", { card: value }) : t("announce.plays", { name: seatName(view, seat), card: value }));
    }
  });
  on("trick", ({ trick, view }) => {
    toast.clearMove();
    say(isYou(view, trick.winner) ? t("announce.you_win_trick") : t("announce.wins_trick", { name: seatName(view, trick.winner) }));
    // and why (the engine's reason)
    if (trick.why === "trump") say(t("announce.why_trump"));
    else if (trick.why === "led") say(t("announce.why_led", { suit: suitOf(trick.cards[0]) }));
  });
  on("round", ({ view }) => {
    const r = view.round_result;
    if (!r) return;
    const me = viewerOf(view);
    const mine = r.bids[me] === r.taken[me] ? t("announce.you_made", { n: r.bids[me] }) : t("announce.you_missed", { bid: r.bids[me], taken: r.taken[me] });
    const scores = seatNames(view).map((name, s) => t("announce.score", { name, points: view.scores[s] }));
    say(t("announce.round_over", { round: view.round, mine, scores }));
    if (view.phase === "game-over") say(t("announce.game_over", { count: view.winners.length, names: view.winners.map((s) => seatName(view, s)) }));
  });
  on("turn", ({ view }) => {
    say(t(view.phase === "bidding" ? "announce.your_turn_bid" : "announce.your_turn_play"));
  });
  on("refused", ({ card, reason }) => {
    const text = card ? t("notice.cant_play", { card, reason }) : msg(reason);
    toast.show(text, 4200, "move");
    say(text);
  });
  on("hint", ({ hint }) => {
    toast.clearMove(); // "Thinking…" is over: the odds or the card are the answer
    if (hint.kind === "card") {
      const text = hint.reason ? t("announce.hint_card_why", { card: hint.suggestion, reason: hint.reason }) : t("announce.hint_card", { card: hint.suggestion });
      toast.show(text, 4200, "move");
      say(text);
      document.querySelector(`#hand [data-card="${hint.suggestion}"]`)?.focus();
    } else {
      const odds = (hint.probabilities || []).map((p, n) => t("announce.odds_item", { n, chance: percent(p) }));
      say(t("announce.hint_bid", { bid: hint.suggestion, odds }));
    }
  });
  on("notice", (detail) => toast.notice(detail));
  on("taken-back", () => {
    toast.show(t("announce.taken_back"), 3000, "move");
    say(t("announce.taken_back"));
  });
  on("watch", ({ state, seed }) => {
    if (state === "start") say(t("announce.watch_start", { seed }));
    else if (state === "end") say(t("announce.watch_end"));
    else if (state === "diverged") toast.show(t("notice.watch_diverged"), 8000);
  });

  return { say };
}
