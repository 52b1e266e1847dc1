// After the game and a seat changing hands, on the page of one who watches: the offer to
// take a seat that a bot plays for a friend who left (the host's `seat_stand_in`).  The
// host decides (online/host.js `take`); this only offers it.  Loaded with the online table.
//
// Hook: #online-bar button[data-action="online-take-seat"][data-seat] (docs/web-protocol.md).

import { t } from "../i18n.js";

/** The seat one who watches may take now (a bot stands in for a friend who left), or -1. */
export function seatToTake(online) {
  if (!online || online.role !== "guest" || online.status !== "watching") return -1;
  return (online.presence || []).indexOf("stand_in");
}

/** Show or hide the offer in the online bar `bar` for the table `online` (the store's). */
export function renderAfterGame(bar, online) {
  const button = bar.querySelector('[data-action="online-take-seat"]');
  const seat = seatToTake(online);
  button.hidden = seat < 0;
  if (seat < 0) return;
  const name = online.names?.[seat] || t("online.seat_n", { n: seat + 1 });
  button.dataset.seat = String(seat);
  button.textContent = t("online.seat_take.button", { n: seat + 1, name });
}
