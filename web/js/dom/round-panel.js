// The panel at the end of a round: bids, tricks, points, totals.  At the end of the game:
// the final standings first (places shared on a tie, the winners starred), then how the
// last round went.

import { el, $, tableHead } from "./util.js";
import { t, number, language } from "../i18n.js";
import { seatName, seatNames, isYou, viewerOf } from "../names.js";
import { roundComparison, finalComparison } from "../challenge.js";
import { lineChart, chartBlock } from "../stats/charts.js";
import { canChallenge } from "../controller.js";

function roundTable(view, res) {
  const table = el("table", { className: "mini-sheet" });
  const head = tableHead(["round.col_player", "round.col_bid", "round.col_made", "round.col_points", "round.col_total"].map((key) => t(key)));
  const body = el("tbody");
  for (let s = 0; s < view.players; s++) {
    const exact = res && res.bids[s] === res.taken[s];
    const tr = el("tr", { className: exact ? "exact" : "" });
    tr.append(el("th", { scope: "row" }, seatName(view, s)));
    if (res) {
      const pts = res.points[s];
      const made = el("td", {}, number(res.taken[s]));
      if (exact) made.append(el("span", { className: "made-mark", "aria-label": t("round.made_exactly") }, " ✓"));
      tr.append(el("td", {}, number(res.bids[s])), made, el("td", {}, pts > 0 ? t("round.plus", { n: pts }) : number(pts)));
    } else {
      tr.append(el("td"), el("td"), el("td"));
    }
    tr.append(el("td", { className: "tot" }, number(view.scores[s])));
    body.append(tr);
  }
  table.append(head, body);
  return table;
}

/** Seats from the most points down, each with its place (ties share it). */
export function standings(scores) {
  return scores
    .map((points, seat) => ({ seat, points, place: 1 + scores.filter((p) => p > points).length }))
    .sort((a, b) => b.points - a.points || a.seat - b.seat);
}

function standingsTable(view) {
  const table = el("table", { className: "standings" });
  const head = tableHead(["standings.place", "round.col_player", "round.col_total"].map((key) => t(key)));
  const body = el("tbody");
  const winners = view.winners || [];
  for (const { seat, points, place } of standings(view.scores)) {
    const won = winners.includes(seat);
    const tr = el("tr", { className: won ? "winner" : "" });
    tr.append(el("td", { className: "place" }, t("standings.nth", { n: place })));
    const name = el("th", { scope: "row" }, seatName(view, seat));
    if (won) name.prepend(el("span", { className: "star", "aria-label": t("standings.winner") }, "★ "));
    tr.append(name, el("td", { className: "tot" }, number(points)));
    body.append(tr);
  }
  table.append(head, body);
  return table;
}

/** Each player's running total by round (a chart, and its table for screen readers). */
function totalsChart(view) {
  const names = seatNames(view);
  const rounds = view.history.map((row) => number(row.round));
  const series = names.map((name, s) => ({ name, values: [0, ...view.history.map((row) => row.totals[s])] }));
  const chart = lineChart({ series, labels: [number(0), ...rounds], title: t("round.totals_title"), yLabel: (v) => number(v), integer: true, width: 420, height: 120 });
  const tbl = el("table");
  tbl.append(el("caption", {}, t("round.totals_title")));
  const head = tableHead([t("sheet.round"), ...names]);
  const body = el("tbody");
  for (const row of view.history) {
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, number(row.round)));
    row.totals.forEach((v) => tr.append(el("td", {}, number(v))));
    body.append(tr);
  }
  tbl.append(head, body);
  return chartBlock({ chart, caption: t("round.totals_title"), table: tbl, legendNames: names, name: "totals" });
}

let builtFrom = null; // [view, challenge, language] the body was last built from

export function renderRoundPanel(state) {
  const view = state.view;
  const panel = $("round-panel");
  const show = Boolean(view) && !state.busy && (view.phase === "round-over" || view.phase === "game-over");
  panel.hidden = !show;
  if (!show) return;
  const over = view.phase === "game-over";
  const res = view.round_result || (view.history.length ? view.history[view.history.length - 1] : null);
  $("round-title").textContent = over ? t("round.game_over") : t("round.done", { round: view.round, rounds: view.rounds });
  // the body (tables, chart, the challenge's comparison) is built again only when what it
  // shows has changed, not on every change of the store while the panel is up
  const built = [view, state.challenge, language()];
  if (!builtFrom || built.some((k, i) => k !== builtFrom[i])) {
    builtFrom = built;
    fillBody(view, state.challenge, over, res);
  }
  panel.querySelector('[data-action="review"]').hidden = !over;
  const challengeButton = panel.querySelector('[data-action="challenge-friend"]');
  challengeButton.hidden = !over || !canChallenge(state);
  challengeButton.textContent = t(view.challenge ? "round.pass_on" : "round.challenge");
  // an online table closed before its end: no next round here (the top bar's New starts
  // a game of one's own; "Play again" would copy the friends' seats)
  panel.querySelector('[data-action="next-round"]').hidden = over || state.mode === "closed";
  // at an online table the host plays again there, with the same people (online/host.js);
  // a guest waits for the host (a game of their own would leave the table)
  const online = state.online;
  const atTable = Boolean(online) && (online.role === "host" || online.status !== "ended");
  panel.querySelector('[data-action="play-again"]').hidden = !over || atTable;
  panel.querySelector('[data-action="replay"]').hidden = !over || atTable;
  panel.querySelector('[data-action="online-play-again"]').hidden = !over || online?.role !== "host";
  panel.classList.toggle("final", over);
  watchOverflow(panel);
}

/** A panel taller than the screen scrolls under its buttons: a sign above them says there
 *  is more ("More below ▾", a tap scrolls on), kept up to date as it scrolls.
 *  `data-more` on the panel: "true" while some of it is out of sight below. */
function watchOverflow(panel) {
  const sign = $("round-more");
  const update = () => {
    const more = panel.scrollHeight - panel.clientHeight - panel.scrollTop > 4;
    panel.dataset.more = String(more);
    sign.hidden = !more;
  };
  if (!panel.dataset.watched) {
    panel.dataset.watched = "true";
    panel.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    sign.onclick = () => panel.scrollBy({ top: panel.clientHeight * 0.6, behavior: "smooth" });
  }
  sign.textContent = t("round.more_below");
  requestAnimationFrame(update); // once laid out
}

function fillBody(view, challenge, over, res) {
  const box = $("round-body");
  box.replaceChildren();
  const winners = view.winners || [];
  const line = el("p", { className: "winners" });
  if (over) {
    const names = winners.map((s) => seatName(view, s));
    const youWon = winners.some((s) => isYou(view, s));
    if (names.length === 1) line.textContent = youWon ? t("round.you_win") : t("round.wins", { name: names[0] });
    else if (youWon) line.textContent = t("round.shared_with_you", { other_names: winners.filter((s) => !isYou(view, s)).map((s) => seatName(view, s)) });
    else line.textContent = t("round.shared", { names });
    box.append(line, standingsTable(view));
    if (challenge) box.append(finalComparison(challenge, seatName(view, challenge.seat)));
    if (view.history.length > 1) box.append(totalsChart(view));
    box.append(el("h3", {}, t("round.last_round", { round: view.round })), roundTable(view, res));
  } else {
    // your own bid, made or missed, said either way
    const me = viewerOf(view);
    const mine = res && isYou(view, me) ? { bid: res.bids[me], taken: res.taken[me] } : null;
    line.textContent = !mine ? "" : mine.bid === mine.taken ? t("round.you_made_it") : t("round.you_missed", mine);
    line.dataset.yourBid = !mine ? "" : mine.bid === mine.taken ? "made" : "missed";
    box.append(line, roundTable(view, res)); // your bid's fate first: never under the fold
    if (challenge) box.append(roundComparison(challenge, view.round));
  }
}
