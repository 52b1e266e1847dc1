// From state to the DOM layer: hand/bid buttons, status, panels, hint odds, focus.

import { app, $ } from "./app.js";
import * as ui from "./ui/dialogs.js";
import { savePrefs } from "./persist.js";

const tipsSeen = new Set();

export function paint(state) {
  const view = state.view;
  const settled = !state.busy;
  app.renderer.request();
  const layout = app.renderer.relayout();
  $("bid-panel").style.bottom = `${aboveYourBadge(layout)}px`;
  placeToast(layout);
  // While something is in flight the human cannot act: show it as not their turn.
  const shown = view && (settled ? view : { ...view, your_turn: false });
  app.a11y.renderHand(shown, layout);
  app.a11y.renderBids(shown, state.ui.hint);
  app.a11y.renderStatus(shown, state.busy || app.driving);
  renderHint(state);
  if (view) app.a11y.renderSeats(view);
  if (settled) {
    document.body.dataset.phase = view ? view.phase : state.phase;
    ui.renderRoundPanel(view);
    guideFocus(view);
    if (!view || !view.your_turn) ui.hideTips();
    else if (!state.prefs.tipsDone) {
      ui.showTip(view.phase, tipsSeen, () => savePrefs({ tipsDone: tipsSeen.size >= 2 }));
    }
  }
}

/** CSS `bottom` (px) that puts a panel just above your badge. */
function aboveYourBadge(layout) {
  return Math.round(layout.h - layout.seats[0].y + (layout.narrow ? 20 : 26));
}

/** The message box sits above your hand (and above the bid panel when it shows) but never
 *  so high that it covers the opponents' name badges at the top of the table. */
export function placeToast(layout = app.renderer.layout()) {
  const toast = $("toast");
  if (toast.hidden || !layout) return;
  const bid = $("bid-panel");
  let bottom = aboveYourBadge(layout) + (bid.hidden ? 0 : bid.offsetHeight + 10);
  const opponents = layout.seats.slice(1);
  if (opponents.length) {
    const badgeBottom = Math.min(...opponents.map((s) => s.y)) + (layout.narrow ? 25 : 27) + 8;
    const ceiling = layout.h - badgeBottom - toast.offsetHeight;
    bottom = Math.max(8, Math.min(bottom, ceiling));
  }
  toast.style.bottom = `${bottom}px`;
}

/** Keep keyboard focus useful: when focus is lost (its control vanished), put it on
 *  the control the player needs next.  Checked a moment later, once any move of focus in
 *  progress has landed (a paint can run inside a blur, while focus is on its way to the
 *  next control: that focus is not lost). */
let focusCheck = 0;
function guideFocus(view) {
  clearTimeout(focusCheck);
  focusCheck = setTimeout(() => landFocus(view), 0);
}

function landFocus(view) {
  // (not when focus has left the page itself, e.g. tabbed on to the browser's own controls)
  if (!view || document.body.dataset.input !== "keyboard" || !document.hasFocus()) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || active.closest("[hidden]") || active.disabled;
  if (!lost || document.querySelector("dialog[open]")) return;
  let target = null;
  if (view.phase === "round-over") target = document.querySelector('[data-action="next-round"]');
  else if (view.phase === "game-over") target = document.querySelector('[data-action="play-again"]');
  else if (view.your_turn && view.phase === "bidding") target = document.querySelector("[data-bid]:not([disabled])");
  else if (view.your_turn && view.phase === "playing") target = document.querySelector('#hand [data-card][aria-disabled="false"]');
  if (target && active !== target) target.focus({ preventScroll: true });
}

function renderHint(state) {
  const box = $("bid-hint");
  const hint = state.ui.hint;
  if (!hint || hint.kind !== "bid") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.replaceChildren();
  const title = document.createElement("p");
  title.textContent = `Chance of taking exactly… (suggested bid: ${hint.suggestion})`;
  box.append(title);
  if (!hint.probabilities || !hint.probabilities.length) {
    title.textContent = `Suggested bid: ${hint.suggestion} (what the ${hint.level} bot would bid).`;
    return;
  }
  const list = document.createElement("ol");
  list.className = "odds";
  list.start = 0;
  hint.probabilities.forEach((p, n) => {
    const li = document.createElement("li");
    if (n === hint.suggestion) li.className = "suggested";
    const label = document.createElement("span");
    label.textContent = String(n);
    const bar = document.createElement("span");
    bar.className = "bar";
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.style.width = `${Math.round(p * 100)}%`;
    bar.append(fill);
    const pct = document.createElement("span");
    pct.textContent = `${Math.round(p * 100)}%`;
    li.setAttribute("aria-label", `${n} tricks: ${Math.round(p * 100)} percent`);
    li.append(label, bar, pct);
    list.append(li);
  });
  box.append(list);
}
