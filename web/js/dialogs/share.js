// Share a game: its link, and its seed exactly as it must be typed back into New game.

import { $, openDialog } from "../dom/util.js";
import { t } from "../i18n.js";

export function openShare(link, seed) {
  $("share-seed").textContent = seed;
  $("share-link").value = link;
  $("share-status").textContent = "";
  openDialog($("dlg-share"));
}

export function copyLink() {
  return copyText($("share-link"), $("share-status"), "share.copied", "share.copy_yourself");
}

/** Copy `field`'s text and say so in `status` (`okKey`); where the clipboard is refused
 *  the text is selected for copying by hand (`failKey`). */
export async function copyText(field, status, okKey, failKey) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(field.value);
    ok = true;
  } catch {
    field.focus();
    field.select();
  }
  status.textContent = t(ok ? okKey : failKey);
}
