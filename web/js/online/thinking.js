// How long the person to act at an online table has been thinking: "0:12" by the badge of
// that seat on every screen (host, friends, watchers), and "thinking for 0:12" in the
// screen reader's seat list.  With the host's turn clock on, a friend's seat shows the time
// left instead ("⏳ 0:18").  Loaded with the online table (lobby.js); main.js's render calls
// `renderThinking` on every change of the page's state.
//
// Whose clock: the host's.  Each page starts the turn when its own table has settled on it
// (the same moment the host's turn clock starts, its controller's "idle"), so the figure
// needs no message while everyone watches; but a page that joins or comes back mid-turn (a
// reload, a dropped connection, a friend who watches) would start from 0:00, so the host's
// `sync` carries `turn_ms`, how long that turn has run on the host's page (durations, not
// times of day: the devices' clocks need not agree), and the page starts from there.
//
// Cheap on a phone: the figure is one small element over the canvas whose text changes
// once a second (the canvas is not redrawn for it), and the seat list's line is one span
// whose text changes (the list is not a live region: nothing is announced each second).
// Reduced motion stops animations, not this figure: it is text, not motion.

import { $ } from "../dom/util.js";
import { t } from "../i18n.js";
import { slotOf } from "../names.js";

/** The longest turn the host's figure may say (a bad figure is ignored). */
const MAX_TURN_MS = 6 * 3600 * 1000;

/** "0:07", "1:05", "61:40": minutes and seconds. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const acting = (view) => Boolean(view) && (view.phase === "bidding" || view.phase === "playing") && Number.isInteger(view.to_act);

/** The seat whose thinking shows: a person's seat to act (not a bot's, nor a friend's a bot
 *  stands in for), else null. */
export function thinkingSeat(view) {
  if (!acting(view)) return null;
  const seat = view.to_act;
  if ((view.seats?.[seat] ?? "human") !== "human" || view.stand_ins?.[seat]) return null;
  return seat;
}

/** Whether the host's turn clock runs for `seat` (it times friends at other devices only,
 *  not the host, not a bot standing in). */
export function clockRuns(view, seat, clock) {
  return clock > 0 && seat !== null && (view?.remote || []).includes(seat) && !view.stand_ins?.[seat];
}

/** When this page's current turn began, keyed by the view's step (each move is a step). */
export class TurnTimer {
  constructor() {
    this.step = null;
    this.at = 0;
    this.told = null; // the host's word: {step, at}
  }

  /** The page shows `view` at `now`; `settled`: nothing is under way (the table is idle).
   *  A new turn starts when the table has settled on it (or when the host said it did);
   *  no turn outside bidding or play. */
  see(view, now, settled) {
    if (!acting(view)) this.step = null;
    else if (settled && view.step !== this.step) {
      this.step = view.step;
      this.at = this.told?.step === view.step ? this.told.at : now;
    }
  }

  /** The host says the turn of `step` has run for `ms` (a `sync`): false for a figure
   *  that cannot be one. */
  heard(step, ms, now) {
    if (!Number.isInteger(step) || typeof ms !== "number" || !(ms >= 0 && ms <= MAX_TURN_MS)) return false;
    this.told = { step, at: now - ms };
    if (this.step === step) this.at = this.told.at;
    return true;
  }

  /** How long the turn of `step` has run (ms), or null when it is not this page's turn. */
  elapsed(step, now) {
    return this.step !== null && this.step === step ? Math.max(0, now - this.at) : null;
  }
}

/** This page's turn (one table at a time). */
export const turns = new TurnTimer();

/** What the figure says for `view` at `now`: {seat, seconds, left} (left: the turn clock's
 *  seconds left, or null), or null when there is nothing to show. */
export function thinkingNow(view, clock, now, timer = turns) {
  const seat = thinkingSeat(view);
  if (seat === null) return null;
  const ms = timer.elapsed(view.step, now);
  if (ms === null) return null;
  const seconds = Math.floor(ms / 1000);
  const left = clockRuns(view, seat, clock) ? Math.max(0, Math.ceil(clock - ms / 1000)) : null;
  return { seat, seconds, left };
}

/** Where the figure goes for the seat at `slot` of layout `L` (CSS px; `side`: which way it
 *  extends from the point): an opponent's just under its badge's bottom edge, at its right
 *  end (clear of its words, and of the dealer's D at the top); the bottom seat's left of its
 *  badge (`w`: its width as drawn), or — where that leaves no room for `width` px, a phone
 *  upright — just under the badge's left end, above the hand. */
export function thinkingSpot(L, slot, width = 0) {
  const s = L?.seats?.[slot];
  if (!s) return null;
  if (slot === 0) {
    const half = (s.w || 240) / 2;
    const left = s.x - half - 6;
    if (left - width >= 4) return { x: Math.round(left), y: Math.round(s.y), side: "left" };
    return { x: Math.round(s.x - half + 8), y: Math.round(s.y + s.bh / 2 + 3), side: "right" };
  }
  return { x: Math.round(s.x + s.bw / 2 - 6), y: Math.round(s.y + s.bh / 2 - 3), side: "below" };
}

let last = { state: null, layout: () => null };
let timer = 0;

function paint() {
  clearTimeout(timer);
  timer = 0;
  const box = $("online-thinking");
  if (!box) return;
  const { state, layout } = last;
  const view = state?.view;
  const now = performance.now();
  const shown = state?.online ? thinkingNow(view, state.online.clock || 0, now) : null;
  const line = document.querySelector("#seats [data-thinking-seat]");
  if (!shown) {
    box.hidden = true;
    box.dataset.thinkingSeat = "";
    delete box.dataset.thinkingS;
    delete box.dataset.clockLeftS;
    if (line) line.textContent = "";
    return;
  }
  const { seat, seconds, left } = shown;
  box.hidden = false;
  box.dataset.thinkingSeat = String(seat);
  box.dataset.thinkingS = String(seconds);
  if (left === null) delete box.dataset.clockLeftS;
  else box.dataset.clockLeftS = String(left);
  box.textContent = left === null ? t("online.thinking.badge", { time: clockText(seconds) }) : t("online.thinking.left_badge", { time: clockText(left) });
  const spot = thinkingSpot(layout(), slotOf(view, seat), box.offsetWidth);
  if (spot) {
    box.dataset.side = spot.side;
    box.style.left = `${spot.x}px`;
    box.style.top = `${spot.y}px`;
  }
  if (line && line.dataset.thinkingSeat === String(seat)) {
    const words = left === null ? t("online.thinking.for", { time: clockText(seconds) }) : t("online.thinking.left", { time: clockText(left), thinking: clockText(seconds) });
    if (line.textContent !== words) line.textContent = words;
  }
  // the next whole second of this turn
  const ms = turns.elapsed(view.step, now) ?? 0;
  timer = setTimeout(paint, 1000 - (ms % 1000) + 5);
}

/**
 * Show the thinking time for `state` (the controller's); `layout()` gives where the
 * canvas draws the badges.  Called on every change of the page's state (and a resize); in
 * between, the figure ticks by itself once a second while a turn runs.
 */
export function renderThinking(state, layout) {
  turns.see(state.online ? state.view : null, performance.now(), !state.busy);
  last = { state, layout };
  paint();
}
