// The review screen: a finished game stepped through bid by bid and card by card with
// every hand face up (review/draw.js), a round and a trick picker, the hard bot's view of
// each decision a person made (asked of the worker one decision at a time in the
// background, with progress, kept per game for the visit), and what the seat to act saw.
// Loaded when first opened.  Sources (the engine's review requests): {} the table's
// finished game, {record} a record's text, {challenge, player} a result of a challenge.

import { $, el, openDialog, tableHead } from "../dom/util.js";
import { t, msg, number, percent, onLanguage, language } from "../i18n.js";
import { dayName, dateOfDailySeed } from "../daily.js";
import { cardShort } from "../cards.js";
import { seatNames } from "../names.js";
import { drawReview } from "./draw.js";
import * as M from "./model.js";

// The screen's state is the controller's (`controller.screen("review")`), held here as `S`
// while the screen is in use.
let S = null;

/** {answers: digest -> Map(step -> review_analyse answer) for the visit, current: the
 *  review on screen {source, timeline, i, names, token, seen}, token: bumped by every
 *  review opened or closed (older answers are dropped), wired: the dialog's listeners}. */
const initialState = () => ({ answers: new Map(), current: null, token: 0, wired: false });

const dialog = () => $("dlg-review");

/** The review's title: the day of a deal of the day (its seed names the date), else the
 *  game's deal code, said as one. */
function reviewTitle(seed) {
  const day = dateOfDailySeed(seed);
  return day ? t("review.title_daily", { date: dayName(day, language(), true) }) : t("review.title", { seed });
}

/** Open the review of `source` (asks the engine for the timeline; says why not). */
export async function openReview(source, { controller }) {
  S = controller.screen("review", initialState);
  wire(controller);
  const dlg = dialog();
  const my = ++S.token;
  S.current = null;
  dlg.dataset.state = "loading";
  dlg.dataset.step = "";
  $("review-title").textContent = t("review.title_loading");
  openDialog(dlg);
  const { result, error } = await controller.engine.review(source);
  if (my !== S.token) return false;
  if (error) {
    dlg.close();
    controller.notice("review.refused", { reason: error }, 9000);
    return false;
  }
  const timeline = result;
  const humans = timeline.seats.map((k, s) => (k === "human" ? s : -1)).filter((s) => s >= 0);
  const pseudoView = { players: timeline.players, seats: timeline.seats, player_names: timeline.player_names, viewer: humans[0] ?? 0 };
  const names = seatNames(pseudoView);
  if (!S.answers.has(timeline.digest)) S.answers.set(timeline.digest, new Map());
  S.current = { source, timeline, i: timeline.decisions[0] ?? 0, names, humans, token: my, seen: false, pseudoView, controller };
  dlg.dataset.state = "ready";
  dlg.dataset.steps = String(timeline.steps.length);
  dlg.dataset.decisions = String(timeline.decisions.length);
  $("review-title").textContent = reviewTitle(timeline.seed);
  fillRoundPicker();
  render();
  $("review-canvas").focus();
  analyseAll(controller, my);
  return true;
}

function wire(controller) {
  if (S.wired) return;
  S.wired = true;
  const dlg = dialog();
  const go = (i) => {
    if (!S.current || i === null || i === undefined) return;
    S.current.i = M.moveBy(S.current.timeline, i, 0);
    S.current.seen = false;
    render();
  };
  const actions = {
    "review-first": () => go(0),
    "review-last": () => go(S.current.timeline.steps.length - 1),
    "review-prev": () => go(M.moveBy(S.current.timeline, S.current.i, -1)),
    "review-next": () => go(M.moveBy(S.current.timeline, S.current.i, 1)),
    "review-prev-trick": () => go(M.trickBy(S.current.timeline, S.current.i, -1)),
    "review-next-trick": () => go(M.trickBy(S.current.timeline, S.current.i, 1)),
    "review-prev-decision": () => go(M.decisionBy(S.current.timeline, S.current.i, -1)),
    "review-next-decision": () => go(M.decisionBy(S.current.timeline, S.current.i, 1)),
    "review-goto": (button) => go(Number(button.dataset.step)),
    "review-seen": () => toggleSeen(controller),
    "review-close": () => dlg.close(),
  };
  dlg.addEventListener("click", (e) => {
    const button = e.target.closest("[data-action]");
    if (!button || button.disabled || !S.current) return;
    const action = actions[button.dataset.action];
    if (action) {
      e.stopPropagation();
      action(button);
    }
  });
  dlg.addEventListener("keydown", (e) => {
    if (!S.current || e.altKey || e.ctrlKey || e.metaKey) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    const keys = {
      ArrowLeft: "review-prev", ArrowRight: "review-next", Home: "review-first", End: "review-last",
      PageUp: "review-prev-trick", PageDown: "review-next-trick", ArrowUp: "review-prev-trick", ArrowDown: "review-next-trick",
    };
    let name = keys[e.key];
    if (e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) name = e.key === "ArrowLeft" ? "review-prev-decision" : "review-next-decision";
    if (e.key === "s" || e.key === "S") name = "review-seen";
    if (!name) return;
    e.preventDefault();
    actions[name]();
  });
  $("review-round").addEventListener("change", (e) => go(M.roundStart(S.current.timeline, Number(e.target.value))));
  $("review-trick").addEventListener("change", (e) => {
    const r = M.roundAt(S.current.timeline, S.current.i);
    const k = Number(e.target.value);
    go(k === 0 ? r.first_step : r.tricks[k - 1]);
  });
  dlg.addEventListener("close", () => {
    S.token += 1; // the background analysis stops after the request under way
    S.current = null;
    dlg.dataset.state = "closed";
  });
  window.addEventListener("resize", () => S.current && render());
  onLanguage(() => {
    if (!S.current) return;
    S.current.names = seatNames(S.current.pseudoView);
    $("review-title").textContent = reviewTitle(S.current.timeline.seed);
    fillRoundPicker();
    render();
  });
}

function fillRoundPicker() {
  const select = $("review-round");
  select.replaceChildren(...S.current.timeline.rounds.map((r) => el("option", { value: String(r.round) },
    t("review.round_option", { round: r.round, cards: r.hand_size }))));
}

function fillTrickPicker(round, number) {
  const select = $("review-trick");
  const options = [el("option", { value: "0" }, t("review.bidding_title"))];
  round.tricks.forEach((_, k) => options.push(el("option", { value: String(k + 1) }, t("review.trick_option", { n: k + 1 }))));
  select.replaceChildren(...options);
  select.value = String(number);
}

const analysisOf = (step) => S.answers.get(S.current.timeline.digest)?.get(step) ?? null;

/** Is `seat` the one person at the table, unnamed (the page calls them "you")? */
const isYouAt = (seat) => S.current.humans.length === 1 && seat === S.current.humans[0] && !S.current.timeline.player_names[seat];

/** The sentence for a step: who did what (and who won the trick). */
function caption(step) {
  const name = S.current.names[step.seat];
  const you = isYouAt(step.seat);
  if (step.kind === "bid") return you ? t("announce.you_bid", { n: step.value }) : t("announce.bids", { name, n: step.value });
  const play = you ? t("announce.you_play", { card: step.value }) : t("announce.plays", { name, card: step.value });
  if (step.trick && step.trick.winner !== null) {
    const w = step.trick.winner;
    const wonBy = isYouAt(w) ? t("announce.you_win_trick") : t("announce.wins_trick", { name: S.current.names[w] });
    return t("review.caption_trick", { play, won: wonBy });
  }
  return play;
}

/** A card's rating by the hard bot, in words (model.js cardRating). */
const rating = (a, which) => {
  const { key, params } = M.cardRating(a, which);
  const shares = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, k === "points" ? v : percent(v)]));
  return t(key, shares);
};

/** The hard bot's verdict on a person's decision, or what a bot's step offers. */
function verdict(step) {
  if (!step.human) return t("review.bot_step", { name: S.current.names[step.seat] });
  if (step.choices === 1) return t("review.forced");
  const a = analysisOf(step.step);
  if (!a) return t("review.analysing");
  if (step.kind === "bid") {
    const odds = a.probabilities || [];
    if (!a.differs) return t("review.bid_same", { bid: a.chosen, chance: percent(odds[a.chosen] ?? a.chosen_odds) });
    return t("review.bid_differs", { bid: a.chosen, suggestion: a.suggestion, chosen_chance: percent(a.chosen_odds), suggested_chance: percent(a.suggested_odds) });
  }
  if (!a.differs) return t("review.card_same", { card: a.chosen, rating: rating(a, "chosen") });
  if (a.chosen_score === null) return t("review.card_renege", { card: a.chosen, suggested_card: a.suggestion });
  return t("review.card_differs", { card: a.chosen, suggested_card: a.suggestion, chosen_rating: rating(a, "chosen"), suggested_rating: rating(a, "suggested") });
}

function render() {
  if (!S.current) return;
  const { timeline, i } = S.current;
  const dlg = dialog();
  const step = timeline.steps[i];
  const round = M.roundAt(timeline, i);
  const trickNo = M.trickNumber(step);
  const a = step.human ? analysisOf(step.step) : null;
  dlg.dataset.step = String(i);
  dlg.dataset.round = String(round.round);
  dlg.dataset.trick = String(trickNo);
  dlg.dataset.seat = String(step.seat);
  dlg.dataset.kind = step.kind;
  dlg.dataset.human = String(step.human);
  dlg.dataset.differs = a ? String(a.differs) : "";
  $("review-round").value = String(round.round);
  fillTrickPicker(round, trickNo);
  $("review-where").textContent = t("review.where", { step: i + 1, steps: timeline.steps.length, round: round.round, rounds: timeline.rounds.length });
  $("review-caption").textContent = caption(step);
  $("review-verdict").textContent = verdict(step);
  $("review-verdict").dataset.kind = step.human ? (a ? (a.differs ? "differs" : "same") : "pending") : "bot";
  const last = timeline.steps.length - 1;
  for (const [action, off] of [["review-first", i === 0], ["review-prev", i === 0], ["review-prev-trick", i === 0], ["review-next", i === last], ["review-next-trick", i === last], ["review-last", i === last],
    ["review-prev-decision", M.decisionBy(timeline, i, -1) === null], ["review-next-decision", M.decisionBy(timeline, i, 1) === null]]) {
    dlg.querySelector(`[data-action="${action}"]`).disabled = off;
  }
  const drawn = drawReview($("review-canvas"), { timeline, i, names: S.current.names, analysis: a, theme: document.documentElement.dataset.theme });
  S.current.drawn = drawn;
  describeHands(step);
  $("review-seen").hidden = !S.current.seen;
  dlg.querySelector('[data-action="review-seen"]').setAttribute("aria-expanded", String(S.current.seen));
  renderSummary();
}

/** The hands in words, for screen readers (the canvas is hidden from them). */
function describeHands(step) {
  const list = $("review-hands");
  list.replaceChildren(...S.current.names.map((name, s) => el("li", {}, t("review.hand_line", { name, cards: step.hands[s].map(cardShort) }))));
}

/** Per round: each person's bid beside the hard bot's, and how many cards it would have played otherwise. */
function renderSummary() {
  const { timeline } = S.current;
  const mine = S.answers.get(timeline.digest);
  const total = timeline.decisions.length;
  const done = timeline.decisions.filter((d) => mine.has(d)).length;
  const progress = $("review-progress");
  progress.max = Math.max(1, total);
  progress.value = done;
  dialog().dataset.analysed = String(done);
  $("review-progress-text").textContent = done < total ? t("review.progress", { done, total }) : t("review.progress_done", { total });
  const multi = S.current.humans.length > 1;
  const cols = ["review.col_round", ...(multi ? ["review.col_player"] : []), "review.col_bid", "review.col_hard_bid", "review.col_cards"];
  const thead = tableHead(cols.map((key) => t(key)));
  const body = el("tbody");
  for (const row of M.decisionRows(timeline, mine, S.current.humans)) {
    const tr = el("tr", { "data-round": String(row.round), "data-seat": String(row.seat) });
    const th = el("th", { scope: "row" });
    th.append(el("button", { type: "button", "data-action": "review-goto", "data-step": String(row.bidStep ?? row.firstStep) }, number(row.round)));
    tr.append(th);
    if (multi) tr.append(el("td", {}, S.current.names[row.seat]));
    const ab = row.bidAnswer;
    tr.append(el("td", {}, ab ? t("review.bid_cell", { bid: row.bid, chance: percent(ab.chosen_odds) }) : row.bid === null ? "–" : number(row.bid)));
    tr.append(el("td", { className: ab && ab.differs ? "differs" : "" }, ab ? (ab.differs ? t("review.bid_cell", { bid: ab.suggestion, chance: percent(ab.suggested_odds) }) : t("review.same")) : "…"));
    if (ab) tr.dataset.bidDiffers = String(ab.differs);
    tr.append(el("td", { className: row.cardsDiffer ? "differs" : "" }, row.cardsKnown < row.cards ? "…" : t("review.cards_cell", { differ: row.cardsDiffer, cards: row.cards })));
    body.append(tr);
  }
  $("review-rounds").replaceChildren(thead, body);
}

async function analyseAll(controller, my) {
  const { timeline } = S.current;
  const mine = S.answers.get(timeline.digest);
  for (const step of M.analysisOrder(timeline, S.current.i)) {
    if (my !== S.token) return;
    if (mine.has(step)) continue;
    const { result, error } = await controller.engine.reviewAnalyse(S.current.source, step);
    if (my !== S.token) return;
    if (error) {
      $("review-progress-text").textContent = t("review.analysis_failed", { reason: msg(error) });
      return;
    }
    mine.set(step, result);
    if (S.current.i === step) render();
    else renderSummary();
  }
}

async function toggleSeen(controller) {
  if (!S.current) return;
  S.current.seen = !S.current.seen;
  if (!S.current.seen) {
    render();
    return;
  }
  const { i, source, token: my } = S.current;
  const box = $("review-seen");
  box.replaceChildren(el("p", { className: "note" }, t("review.analysing_seen")));
  render();
  const { result, error } = await controller.engine.reviewSeen(source, i);
  if (!S.current || S.current.token !== my || S.current.i !== i || !S.current.seen) return;
  if (error) {
    box.replaceChildren(el("p", {}, msg(error)));
    return;
  }
  const o = result.observation;
  const name = S.current.names[result.seat];
  const lines = [
    t("review.seen_hand", { cards: o.hand.map(cardShort) }),
    t("review.seen_trump", { card: o.trump_card }),
    t("review.seen_bids", { bids: o.bids.map((b, s) => t("review.seen_bid", { name: S.current.names[s], bid: b === null ? "–" : b })) }),
    o.trick.length ? t("review.seen_trick", { cards: o.trick.map(cardShort) }) : t("review.seen_no_trick"),
    t("review.seen_taken", { taken: o.taken.map((n, s) => t("review.seen_bid", { name: S.current.names[s], bid: n })) }),
    t("review.seen_allowed", { moves: o.phase === "bidding" ? o.legal_bids.map(String) : o.legal_cards.map(cardShort) }),
  ];
  // a bot's own dice (its random stream) mean nothing at a person's seat
  if (result.kind !== "human" && !isYouAt(result.seat)) lines.push(t("review.seen_key", { key: o.bot_key }));
  const ul = el("ul");
  lines.forEach((line) => ul.append(el("li", {}, line)));
  const you = isYouAt(result.seat);
  const title = you ? t("review.seen_title_you") : t(result.kind === "human" ? "review.seen_title_person" : "review.seen_title", { name });
  box.replaceChildren(el("h3", {}, title), ul, el("p", { className: "note" }, t("review.seen_note")));
  box.dataset.step = String(i);
}
