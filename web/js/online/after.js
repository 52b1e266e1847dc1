// After the game and a seat changing hands, on the page of one who watches: the offer to
// take a seat that a bot plays for a friend who left (the host's `seat_stand_in`).  The
// host decides (online/host.js `take`); this only offers it.  Loaded with the online table.
//
// And for a guest whose host left before the end: the offer to save what was played in the
// open, the finished rounds the host sent at each round's end (`jabberwocky-public/1`).
//
// Hooks: #online-bar button[data-action="online-take-seat"][data-seat],
// button[data-action="online-save-public"][data-rounds] (docs/web-protocol.md).

import { t } from "../i18n.js";

/** The seat one who watches may take now (a bot stands in for a friend who left), or -1. */
export function seatToTake(online) {
  if (!online || online.role !== "guest" || online.status !== "watching") return -1;
  return (online.presence || []).indexOf("stand_in");
}

/** The file the finished rounds of `room` are saved as. */
export function publicFileName(room) {
  return `jabberwocky-public-${String(room).slice(0, 8)}.json`;
}

/** Show or hide the offers in the online bar `bar` for the table `online` (the store's). */
export function renderAfterGame(bar, online) {
  const save = bar.querySelector('[data-action="online-save-public"]');
  const rounds = online?.role === "guest" && online.status === "ended" ? online.publicRounds || 0 : 0;
  save.hidden = rounds === 0;
  save.dataset.rounds = String(rounds);
  if (rounds) save.textContent = t("online.public.save", { n: rounds });
  const button = bar.querySelector('[data-action="online-take-seat"]');
  const seat = seatToTake(online);
  button.hidden = seat < 0;
  if (seat < 0) return;
  const name = online.names?.[seat] || t("online.seat_n", { n: seat + 1 });
  button.dataset.seat = String(seat);
  button.textContent = t("online.seat_take.button", { n: seat + 1, name });
}
