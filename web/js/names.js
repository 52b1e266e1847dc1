// What the page calls each seat: "You" and "Bot 1", "Bot 2", … in the player's language.
// (The engine's view also lists English names; the page never shows those.)

import { t } from "./i18n.js";

export function seatName(view, seat) {
  return seat === 0 ? t("seat.you") : t("seat.bot", { n: seat });
}

/** The names of every seat of `view`. */
export function seatNames(view) {
  return Array.from({ length: view.players }, (_, s) => seatName(view, s));
}
