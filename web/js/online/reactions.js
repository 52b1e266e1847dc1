// Reactions at an online table: a few preset words ("Nice!", "Oops", …: the protocol's
// REACTIONS, their words the catalogues' "online.reaction.*") that a player at the table
// sends with one tap, shown for a moment by the sender's badge on every screen.  A guest's
// reaction travels to the host, who checks it as any message (schema, rate: a flood is cut
// there) and passes it to everyone; the host's own goes to everyone directly.  The buttons
// also wait a moment after each tap (COOLDOWN_MS), so a finger on them cannot flood.
// Loaded only at an online table (lobby.js, and main.js's dynamic import when one arrives).

import { el } from "../dom/util.js";
import { t } from "../i18n.js";
import { slotOf } from "../names.js";
import { REACTIONS } from "./protocol.js";

/** Each reaction's words (a catalogue key; tests keep these and REACTIONS the same). */
export const REACTION_WORDS = {
  nice: "online.reaction.nice", oops: "online.reaction.oops", wow: "online.reaction.wow",
  thinking: "online.reaction.thinking", gg: "online.reaction.gg",
};

/** How long a reaction shows by the badge, and how long the buttons wait after a tap. */
export const REACTION_MS = 2600;
export const COOLDOWN_MS = 1200;

/** Whether this page's player may react now: the host once the game has started, a guest
 *  with a seat during play (one who watches only watches). */
export function mayReact(online) {
  if (!online) return false;
  return online.role === "host" ? Boolean(online.started) : online.status === "playing";
}

/** One tap at a time: `take(now)` is true when a reaction may go (and starts the wait). */
export class ReactionGate {
  constructor(wait = COOLDOWN_MS) {
    this.wait = wait;
    this.at = -Infinity;
  }

  take(now) {
    if (now - this.at < this.wait) return false;
    this.at = now;
    return true;
  }
}

/** Where `seat`'s reaction shows (CSS px): just above the middle of its badge, or, for the
 *  seat at the bottom, over its badge (`place` "over": above it sits the bid panel, which a
 *  bubble must not cover); null for a seat or reaction that is not at this table. */
export function bubbleSpot(layout, view, seat, r) {
  if (!REACTIONS.includes(r) || !view || !Number.isInteger(seat) || seat < 0 || seat >= view.players) return null;
  const slot = slotOf(view, seat);
  const spot = layout?.seats?.[slot];
  if (!spot) return null;
  if (slot === 0) return { x: Math.round(spot.x), y: Math.round(spot.y), place: "over" };
  return { x: Math.round(spot.x), y: Math.round(Math.max(4, spot.y - spot.bh / 2 - 6)), place: "above" };
}

/** The buttons opened on a phone fold when the player's turn comes (open, they would sit
 *  over the bid panel and the hand); the player may open them again.  `view`: the table's. */
export function foldOnTurn(box, view) {
  const turn = view?.your_turn ? String(view.step) : "";
  if (turn && box.dataset.turnStep !== turn && box.dataset.open !== undefined) foldReactions(box, false);
  box.dataset.turnStep = turn;
}

/**
 * The buttons (`box`, the page's #online-reactions): one per reaction
 * (`data-action="online-react"`, `data-reaction`; a click goes through actions.js to
 * lobby.js `react`), shown while the player may react.  Called on every change of the
 * online state.
 */
export function renderReactions(box, online) {
  box.hidden = !mayReact(online);
  if (box.hidden) return;
  if (box.childElementCount !== REACTIONS.length + 1) {
    // on a phone the buttons fold behind one (`data-action="online-reactions"`), last so
    // that it sits in the corner with the others opening above it
    const toggle = el("button", { type: "button", "data-action": "online-reactions", "aria-expanded": "false" });
    box.replaceChildren(...REACTIONS.map((r) => el("button", { type: "button", "data-action": "online-react", "data-reaction": r })), toggle);
  }
  for (const button of box.children) {
    button.textContent = button.dataset.reaction ? t(REACTION_WORDS[button.dataset.reaction]) : t("online.reactions_label");
  }
}

/** Open or close the folded buttons (a phone's); `open` undefined: the other way. */
export function foldReactions(box, open = box.dataset.open === undefined) {
  if (open) box.dataset.open = "";
  else delete box.dataset.open;
  box.querySelector('[data-action="online-reactions"]')?.setAttribute("aria-expanded", String(open));
}

/** The buttons wait `ms` after a tap (disabled, `data-cooling`). */
export function coolDown(box, ms = COOLDOWN_MS) {
  foldReactions(box, false);
  box.dataset.cooling = "true";
  for (const b of box.querySelectorAll('[data-action="online-react"]')) b.disabled = true;
  setTimeout(() => {
    delete box.dataset.cooling;
    for (const b of box.querySelectorAll('[data-action="online-react"]')) b.disabled = false;
  }, ms);
}

/** Show `seat`'s reaction `r` by its badge in `root` (the table's area) for REACTION_MS;
 *  a newer one of the same seat replaces it.  False when it is not for this table. */
export function showReaction(root, layout, view, seat, r) {
  const spot = bubbleSpot(layout, view, seat, r);
  if (!spot) return false;
  root.querySelector(`.reaction-bubble[data-reaction-seat="${seat}"]`)?.remove();
  const bubble = el("div", { className: "reaction-bubble", "data-reaction-seat": String(seat), "data-reaction": r, "data-place": spot.place, "aria-hidden": "true" }, t(REACTION_WORDS[r]));
  bubble.style.left = `${spot.x}px`;
  bubble.style.top = `${spot.y}px`;
  root.append(bubble);
  setTimeout(() => bubble.remove(), REACTION_MS);
  return true;
}
