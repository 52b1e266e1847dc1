// Keyboard focus kept useful: when focus is lost (its control vanished or was disabled),
// it goes to the control the player needs next.  Checked a moment later, once any move of
// focus under way has landed (a render can run inside a blur, while focus is on its way).

import { acceptsInput } from "../controller.js";

let check = 0;

export function guideFocus(state) {
  clearTimeout(check);
  check = setTimeout(() => land(state), 0);
}

function land(state) {
  const view = state.view;
  // (not when focus has left the page itself, e.g. tabbed on to the browser's own controls)
  if (!view || state.input !== "keyboard" || !document.hasFocus()) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || active.closest("[hidden]") || active.disabled;
  if (!lost || document.querySelector("dialog[open]")) return;
  let target = null;
  const mine = acceptsInput(state);
  if (view.phase === "round-over") target = document.querySelector('[data-action="next-round"]');
  else if (view.phase === "game-over") target = document.querySelector('[data-action="play-again"]');
  else if (mine && view.phase === "bidding") target = document.querySelector("[data-bid]:not([disabled])");
  else if (mine && view.phase === "playing") target = document.querySelector('#hand [data-card][aria-disabled="false"]');
  if (target && active !== target) target.focus({ preventScroll: true });
}
