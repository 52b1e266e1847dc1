// This round's tricks, one row each: who played what, who led (▸) and who won (★): the
// last trick can be looked at again, and a screen reader gets the trick history.

import { el, $, openDialog, tableHead } from "../dom/util.js";
import { t, number } from "../i18n.js";
import { cardShort, suitOf } from "../cards.js";
import { seatName, seatNames } from "../names.js";

export function fillTricks(table, view) {
  table.replaceChildren();
  const tricks = view.tricks || [];
  const head = tableHead([el("th", { scope: "col", "aria-label": t("tricks.number") }, "#"), ...seatNames(view)]);
  const body = el("tbody");
  tricks.forEach((trick, i) => {
    const tr = el("tr", { className: i === tricks.length - 1 ? "last" : "" });
    tr.append(el("th", { scope: "row" }, number(i + 1)));
    const bySeat = new Array(view.players).fill(null);
    trick.cards.forEach((card, k) => { bySeat[(trick.leader + k) % view.players] = card; });
    bySeat.forEach((card, seat) => {
      const led = seat === trick.leader;
      const won = seat === trick.winner;
      const td = el("td", { className: `suit-${suitOf(card)}${won ? " won" : ""}` });
      td.textContent = `${led ? "▸ " : ""}${cardShort(card)}${won ? " ★" : ""}`;
      td.setAttribute("aria-label", t(won ? "tricks.cell_won" : led ? "tricks.cell_led" : "tricks.cell", { name: seatName(view, seat), card }));
      tr.append(td);
    });
    body.append(tr);
  });
  table.append(head, body);
  $("tricks-empty").hidden = tricks.length > 0;
}

export function showTricks(view) {
  if (!view) return;
  $("dlg-tricks-title").textContent = t("tricks.title", { round: view.round });
  fillTricks($("tricks-table"), view);
  openDialog($("dlg-tricks"));
}
