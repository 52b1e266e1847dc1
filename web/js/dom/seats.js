// What a screen reader finds about the table: each seat (bid, tricks, points, cards, dealer,
// to act) and the cards on the table.

import { el, $ } from "./util.js";
import { t } from "../i18n.js";
import { seatName } from "../names.js";

const PRESENCE = { connected: "online.presence.connected", reconnecting: "online.presence.reconnecting", gone: "online.presence.gone", stand_in: "online.presence.stand_in" };

export function renderSeats(state) {
  const view = state.view;
  const seats = $("seats");
  seats.replaceChildren();
  if (!view) return;
  const list = el("ul");
  for (let s = 0; s < view.players; s++) {
    const bid = view.bids[s];
    const parts = [
      seatName(view, s),
      bid === null ? t("seats.no_bid") : t("seats.bid", { n: bid }),
      t("seats.took", { n: view.taken[s] }),
      t("seats.points", { n: view.scores[s] }),
      t("seats.cards", { n: view.hand_counts[s] }),
    ];
    if (view.dealer === s) parts.push(t("seats.dealer"));
    if (view.to_act === s) parts.push(t("seats.to_act"));
    const presence = PRESENCE[state.online?.presence?.[s]];
    if (presence) parts.push(t(presence)); // an online table: is this friend connected?
    const line = el("li", {}, t("seats.line", { parts }));
    // an online table: how long the person to act has been thinking (online/thinking.js
    // fills it once a second; the list is not a live region, so nothing is announced)
    if (state.online && view.to_act === s) line.append(" ", el("span", { "data-thinking-seat": String(s) }));
    list.append(line);
  }
  seats.append(list);
  const cards = view.trick?.cards || [];
  let trick = cards.length
    ? t("trick.so_far", { plays: cards.map((c, i) => t("trick.play", { name: seatName(view, (view.trick.leader + i) % view.players), card: c })) })
    : t("trick.empty");
  const w = view.trick?.winning;
  if (cards.length && w !== null && w !== undefined) {
    trick += " " + t("trick.winning", { name: seatName(view, w), card: cards[(w - view.trick.leader + view.players) % view.players] });
  }
  $("trick-desc").textContent = t("trick.desc", { trump_card: view.trump_card, trick });
}
