// What the page calls each seat, in the player's language: "You" for the one human at the
// table (the seat the page shows from), a human's own name in pass-and-play (else
// "Player 3"), for bots the creatures of the poem (cast.js: "Jubjub", "Bandersnatch", …).  (The engine's view also lists English names;
// the page never shows those.)  And where each seat sits: the seat the page shows from is at
// the bottom, the others follow in play order.

import { t } from "./i18n.js";
import { creatureOf } from "./cast.js";

/** The seat the view is shown from (the human to act, in pass-and-play). */
export const viewerOf = (view) => view?.viewer ?? 0;

/** How many human seats the view's table has. */
export const humansOf = (view) => (view?.seats || ["human"]).filter((k) => k === "human").length;

/** The place (0 = the bottom, then clockwise in play order) of `seat` on the table. */
export function slotOf(view, seat) {
  return (seat - viewerOf(view) + view.players) % view.players;
}

/** The seat at place `slot`. */
export function seatAt(view, slot) {
  return (slot + viewerOf(view)) % view.players;
}

/** Is `seat` the one the page speaks to as "you"? (Not in pass-and-play: names there.  At
 *  an online table, the one person at this device — the host's page, or a friend's, whose
 *  own seat is one the host's engine calls remote — but not for one who watches, whose
 *  view is the host's seat in hand-off.) */
export function isYou(view, seat) {
  if (seat !== viewerOf(view)) return false;
  if (humansOf(view) <= 1) return true;
  const remote = view?.remote || [];
  return remote.length > 0 && !view.handoff && humansOf(view) - remote.length <= 1;
}

export function seatName(view, seat) {
  const given = view?.player_names?.[seat];
  if (given) return given;
  if (isYou(view, seat)) return t("seat.you");
  if (view?.seats?.[seat] === "human") return t("seat.player", { n: seat + 1 });
  return t(`cast.${creatureOf(seat)}`); // a creature of the poem (cast.js), not "Bot 2"
}

/** A bot seat's level ("medium"), else null (a person's seat). */
export function botLevel(view, seat) {
  const kind = view?.seats?.[seat];
  return kind && kind !== "human" ? kind : null;
}

/** The names of every seat of `view`. */
export function seatNames(view) {
  return Array.from({ length: view.players }, (_, s) => seatName(view, s));
}
