// The score sheet: every round's bids, tricks made and running totals.

import { el, $, openDialog, tableHead } from "../dom/util.js";
import { t, number } from "../i18n.js";
import { cardShort, suitOf } from "../cards.js";
import { seatName, seatNames } from "../names.js";

export function fillScoreSheet(table, view) {
  table.replaceChildren();
  const head = tableHead([el("th", { scope: "col", "aria-label": t("sheet.round") }, "#"), t("sheet.trump"), ...seatNames(view)]);
  const body = el("tbody");
  for (const row of view.history) {
    const tr = el("tr");
    tr.append(roundCell(row.round, row.hand_size), trumpCell(row.trump_card));
    for (let s = 0; s < view.players; s++) {
      const exact = row.bids[s] === row.taken[s];
      const td = el("td", { className: exact ? "exact" : "" });
      td.append(el("span", { className: "bm" }, t("sheet.bid_made", { bid: row.bids[s], taken: row.taken[s] })), el("span", { className: "tot" }, number(row.totals[s])));
      td.setAttribute("aria-label", t("sheet.cell", { name: seatName(view, s), bid: row.bids[s], taken: row.taken[s], total: row.totals[s] }));
      tr.append(td);
    }
    body.append(tr);
  }
  if (view.phase === "bidding" || view.phase === "playing") {
    // the round in play: its row says so ("now"), and its cells hold the tricks so far
    // (not "1 / 0…", which read as cut off)
    const tr = el("tr", { className: "current" });
    const round = roundCell(view.round, view.hand_size);
    round.append(el("span", { className: "bm now" }, t("sheet.now")));
    tr.append(round, trumpCell(view.trump_card));
    for (let s = 0; s < view.players; s++) {
      tr.append(el("td", {}, t("sheet.current", { bid: view.bids[s] === null ? "–" : view.bids[s], taken: view.taken[s] })));
    }
    body.append(tr);
  }
  const foot = el("tfoot");
  const fr = el("tr");
  fr.append(el("th", { scope: "row", colspan: "2" }, t("sheet.total")));
  view.scores.forEach((p) => fr.append(el("td", {}, number(p))));
  foot.append(fr);
  table.append(head, body, foot);
}

function roundCell(round, cards) {
  const th = el("th", { scope: "row" }, number(round));
  th.append(el("span", { className: "bm" }, t("sheet.cards", { n: cards })));
  return th;
}

function trumpCell(card) {
  const td = el("td", { className: `trump suit-${suitOf(card)}` }, cardShort(card));
  td.setAttribute("aria-label", t("sheet.trump_cell", { card }));
  return td;
}

export function showScores(view) {
  if (!view) return;
  fillScoreSheet($("score-sheet"), view);
  openDialog($("dlg-scores"));
}
