// Share a game: its link, and its seed exactly as it must be typed back into New game.

import { $, openDialog } from "../dom/util.js";
import { t } from "../i18n.js";

export function openShare(link, seed) {
  $("share-seed").textContent = seed;
  $("share-link").value = link;
  $("share-status").textContent = "";
  openDialog($("dlg-share"));
}

export async function copyLink() {
  const input = $("share-link");
  let ok = false;
  try {
    await navigator.clipboard.writeText(input.value);
    ok = true;
  } catch {
    input.focus();
    input.select();
  }
  $("share-status").textContent = t(ok ? "share.copied" : "share.copy_yourself");
}
