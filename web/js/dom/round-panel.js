// The panel at the end of a round (and of the game): bids, tricks, points, totals.

import { el, $ } from "./util.js";
import { t, number } from "../i18n.js";
import { seatName } from "../names.js";

export function renderRoundPanel(state) {
  const view = state.view;
  const panel = $("round-panel");
  const show = Boolean(view) && !state.busy && (view.phase === "round-over" || view.phase === "game-over");
  panel.hidden = !show;
  if (!show) return;
  const over = view.phase === "game-over";
  const res = view.round_result || (view.history.length ? view.history[view.history.length - 1] : null);
  $("round-title").textContent = over ? t("round.game_over") : t("round.done", { round: view.round, rounds: view.rounds });
  const table = $("round-table");
  table.replaceChildren();
  const head = el("thead");
  const hr = el("tr");
  for (const key of ["round.col_player", "round.col_bid", "round.col_made", "round.col_points", "round.col_total"]) {
    hr.append(el("th", { scope: "col" }, t(key)));
  }
  head.append(hr);
  const body = el("tbody");
  const winners = view.winners || [];
  for (let s = 0; s < view.players; s++) {
    const cls = [];
    if (res && res.bids[s] === res.taken[s]) cls.push("exact");
    if (over && winners.includes(s)) cls.push("winner");
    const tr = el("tr", { className: cls.join(" ") });
    tr.append(el("th", { scope: "row" }, seatName(view, s)));
    if (res) {
      const pts = res.points[s];
      tr.append(el("td", {}, number(res.bids[s])), el("td", {}, number(res.taken[s])),
        el("td", {}, pts > 0 ? t("round.plus", { n: pts }) : number(pts)));
    } else {
      tr.append(el("td"), el("td"), el("td"));
    }
    tr.append(el("td", { className: "tot" }, number(view.scores[s])));
    body.append(tr);
  }
  table.append(head, body);
  const line = $("round-winners");
  if (over) {
    const names = winners.map((s) => seatName(view, s));
    const youWon = winners.includes(0);
    if (names.length === 1) line.textContent = youWon ? t("round.you_win") : t("round.wins", { name: names[0] });
    else line.textContent = t(youWon ? "round.shared_with_you" : "round.shared", { names });
  } else {
    line.textContent = res && res.bids[0] === res.taken[0] ? t("round.you_made_it") : "";
  }
  panel.querySelector('[data-action="next-round"]').hidden = over;
  panel.querySelector('[data-action="play-again"]').hidden = !over;
  panel.querySelector('[data-action="replay"]').hidden = !over;
  panel.classList.toggle("final", over);
}
