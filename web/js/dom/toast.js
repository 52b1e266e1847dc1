// The message box over the table.  It shows the controller's notices (and any view's),
// placed above your hand (and above the bid panel when it shows) but never so high that
// it covers the opponents' badges.  Kind "move": about a move you tried; cleared by your
// next action, a finished trick or a new round.

import { $ } from "./util.js";
import { t } from "../i18n.js";

export function createToast({ layout }) {
  const box = $("toast");
  let timer = 0;
  let kind = "";

  /** Show `text` for `ms` milliseconds. */
  function show(text, ms = 4200, k = "") {
    box.textContent = text;
    box.hidden = false;
    kind = k;
    clearTimeout(timer);
    timer = setTimeout(hide, ms);
    place();
  }

  /** Show a catalogue entry. */
  const notice = ({ key, params = {}, ms, kind: k }) => show(t(key, params), ms, k);

  function hide() {
    clearTimeout(timer);
    box.hidden = true;
  }

  function clearMove() {
    if (kind === "move") hide();
  }

  function place(L = layout()) {
    if (box.hidden || !L) return;
    const bid = $("bid-panel");
    let bottom = aboveYourBadge(L) + (bid.hidden ? 0 : bid.offsetHeight + 10);
    const opponents = L.seats.slice(1);
    if (opponents.length) {
      const badgeBottom = Math.min(...opponents.map((s) => s.y)) + (L.narrow ? 25 : 27) + 8;
      const ceiling = L.h - badgeBottom - box.offsetHeight;
      bottom = Math.max(8, Math.min(bottom, ceiling));
    }
    box.style.bottom = `${bottom}px`;
  }

  return { show, notice, hide, clearMove, place };
}

/** CSS `bottom` (px) that puts a panel just above your badge. */
export function aboveYourBadge(L) {
  return Math.round(L.h - L.seats[0].y + (L.narrow ? 20 : 26));
}
