// The cast: the bots are creatures of Lewis Carroll's "Jabberwocky" (1871, public domain),
// each with a name in the player's language (catalogue `cast.<creature>`) and a small
// portrait of our own drawing (the SVGs below), one per seat.  Only what the page shows
// changes: records, links and the engine's view keep their seats and levels as they were.
// A bot's level stays in sight as a row of pips under its portrait (one to five, from
// random to hard) and in the badge's title.

import { bidResults } from "./bubbles.js";

/** The creature at each bot seat, by the seat's number (seat 0 is the first human's). */
export const CAST = ["jubjub", "bandersnatch", "borogove", "tove"];

/** The creature of bot seat `seat` (1 to 4; beyond, round again). */
export function creatureOf(seat) {
  return CAST[(Math.max(seat, 1) - 1) % CAST.length];
}

/** How many pips a level shows (unknown levels, such as a record's named bot: none). */
const PIPS = { random: 1, easy: 2, medium: 3, learned: 4, hard: 5 };
export const MAX_PIPS = 5;
export function pipsOf(level) {
  return PIPS[level] ?? 0;
}

const svg = (body) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${body}</svg>`;

/** The portraits: 32 x 32, on a round ground (the badge clips nothing). */
export const PORTRAITS = {
  // the Jubjub bird: a round, crested, beaky bird
  jubjub: svg(
    '<circle cx="16" cy="16" r="16" fill="#f3d36b"/>'
    + '<ellipse cx="15" cy="21" rx="9" ry="7.5" fill="#e0613a"/>'
    + '<circle cx="15" cy="12.5" r="6.5" fill="#e0613a"/>'
    + '<path d="M11.5 7 L12.5 2.5 L14.5 6 L16.5 2 L17.5 6.5 Z" fill="#7a2e8c"/>'
    + '<path d="M20.5 11.5 L28 13.5 L20.5 15.5 Z" fill="#f5b52e" stroke="#8a5a00" stroke-width="0.7"/>'
    + '<circle cx="16.5" cy="11.5" r="2.4" fill="#fff"/><circle cx="17.2" cy="11.8" r="1.2" fill="#222"/>'
    + '<path d="M8.5 20 Q13 15.5 18 20.5 Q13 24 8.5 20 Z" fill="#b2432a"/>'),
  // the Bandersnatch: a frumious, furry snapper with wild eyes
  bandersnatch: svg(
    '<circle cx="16" cy="16" r="16" fill="#8fc7b8"/>'
    + '<polygon points="28.0,17.0 24.7,19.2 26.6,22.6 22.7,23.0 22.8,26.9 19.2,25.4 17.4,28.9 14.9,25.9 11.7,28.2 10.9,24.4 7.0,25.0 8.0,21.2 4.3,19.9 7.0,17.0 4.3,14.1 8.0,12.8 7.0,9.0 10.9,9.6 11.7,5.8 14.9,8.1 17.4,5.1 19.2,8.6 22.8,7.1 22.7,11.0 26.6,11.4 24.7,14.8" fill="#6b4f2a"/>'
    + '<circle cx="12" cy="14" r="3" fill="#fff"/><circle cx="11" cy="13.2" r="1.3" fill="#222"/>'
    + '<circle cx="20" cy="14" r="3" fill="#fff"/><circle cx="21.2" cy="14.8" r="1.3" fill="#222"/>'
    + '<path d="M9.5 19.5 Q16 25 22.5 19.5 Z" fill="#3a1f10"/>'
    + '<path d="M10.5 19.8 L12 22 L13.5 20.4 L15 22.6 L16.5 20.6 L18 22.6 L19.5 20.4 L21 21.8 L21.8 19.8 Z" fill="#fff"/>'),
  // a borogove: a thin, shabby bird, its feathers sticking out all round like a live mop
  borogove: svg(
    '<circle cx="16" cy="16" r="16" fill="#c8b6e2"/>'
    + '<path d="M20.0 14.0L27.0 14.0M19.8 15.4L26.3 17.4M19.1 16.6L24.4 20.4M18.0 17.5L21.5 22.7M16.7 17.9L17.9 23.8M15.3 17.9L14.1 23.8M14.0 17.5L10.5 22.7M12.9 16.6L7.6 20.4M12.2 15.4L5.7 17.4M12.0 14.0L5.0 14.0M12.2 12.6L5.7 10.6M12.9 11.4L7.6 7.6M14.0 10.5L10.5 5.3M15.3 10.1L14.1 4.2M16.7 10.1L17.9 4.2M18.0 10.5L21.5 5.3M19.1 11.4L24.4 7.6M19.8 12.6L26.3 10.6" stroke="#6e6456" stroke-width="1.6" stroke-linecap="round"/>'
    + '<circle cx="16" cy="14" r="5" fill="#8d8273"/>'
    + '<path d="M14 23 L13 29 M18 23 L19 29" stroke="#c2772a" stroke-width="1.3" stroke-linecap="round"/>'
    + '<circle cx="14.6" cy="13" r="1.7" fill="#fff"/><circle cx="14.9" cy="13.2" r="0.8" fill="#222"/>'
    + '<path d="M17.5 14.5 L21 15.5 L17.5 16.5 Z" fill="#e9a13b"/>'),
  // a slithy tove: something like a badger, something like a lizard, something like a corkscrew
  tove: svg(
    '<circle cx="16" cy="16" r="16" fill="#b7d98b"/>'
    + '<path d="M22 19 q4 -1 4 2.5 q0 3 -3 2.5 q-2.5 -0.5 -1.5 -2.5 q1 -1.6 2.6 -0.6" fill="none" stroke="#55606b" stroke-width="1.6" stroke-linecap="round"/>'
    + '<ellipse cx="15" cy="19" rx="9" ry="6" fill="#8a8f96"/>'
    + '<ellipse cx="11" cy="13.5" rx="6" ry="5" fill="#8a8f96"/>'
    + '<path d="M7 11.5 Q11 8 15 11.5 L14 13 Q11 11 8 13 Z" fill="#f4f1e8"/>'
    + '<circle cx="9" cy="14" r="1.5" fill="#222"/><circle cx="13" cy="14" r="1.5" fill="#222"/>'
    + '<path d="M9 24.5 L8 27 M13 24.8 L12.5 27.5 M18 24.8 L18.5 27.5" stroke="#55606b" stroke-width="1.4" stroke-linecap="round"/>'),
};

/** How a bot at `seat` feels, from the view alone: "thinking" while it is to act,
 *  "pleased" when the round is over and its bid made (taken equals bid: what the round
 *  panel marks made), "dismayed" when it is missed, or once it has taken more tricks than
 *  it bid; else null (its plain face). */
export function moodOf(view, seat) {
  if (!view || !Array.isArray(view.bids)) return null;
  const result = bidResults(view)[seat]; // the round over: its bid made or missed
  if (result) return result.made ? "pleased" : "dismayed";
  if (view.to_act === seat && (view.phase === "bidding" || view.phase === "playing")) return "thinking";
  const bid = view.bids[seat];
  return bid !== null && bid !== undefined && view.taken[seat] > bid ? "dismayed" : null;
}

/** Each creature's eyes (x, y, radius on the 32 x 32 portrait) and the colour around them:
 *  its expressions are drawn over them. */
const EYES = {
  jubjub: { skin: "#e0613a", eyes: [[16.5, 11.5, 2.4]] },
  bandersnatch: { skin: "#6b4f2a", eyes: [[12, 14, 3], [20, 14, 3]] },
  borogove: { skin: "#8d8273", eyes: [[14.6, 13, 1.7]] },
  tove: { skin: "#8a8f96", eyes: [[9, 14, 1.5], [13, 14, 1.5]] },
};

/** The layer a mood adds to a portrait: pleased, eyes closed in a smile and rosy cheeks;
 *  dismayed, brows knitted and a drop of sweat; thinking, eyes turned up (the table adds
 *  a thought bubble beside the face). */
function moodLayer(creature, mood) {
  const { skin, eyes } = EYES[creature] ?? EYES.jubjub;
  const mid = eyes.reduce((a, [x]) => a + x, 0) / eyes.length;
  const n = (v) => Math.round(v * 10) / 10;
  const each = (f) => eyes.map(([x, y, r]) => f(x, y, r)).join("");
  if (mood === "pleased") {
    return each((x, y, r) => `<circle cx="${x}" cy="${y}" r="${n(r + 0.5)}" fill="${skin}"/>`
      + `<path d="M${n(x - r)} ${n(y + 0.8)} Q${x} ${n(y - r * 1.3)} ${n(x + r)} ${n(y + 0.8)}" stroke="#1d1d1d" stroke-width="1.3" fill="none" stroke-linecap="round"/>`
      + `<ellipse cx="${x}" cy="${n(y + r + 2)}" rx="${n(Math.max(r, 1.6))}" ry="1.1" fill="#ff6f91" opacity="0.8"/>`);
  }
  if (mood === "dismayed") {
    return each((x, y, r) => {
      const inner = x <= mid ? 1 : -1; // the brow's inner end, toward the face's middle, raised
      return `<path d="M${n(x - inner * (r + 1))} ${n(y - r - 0.6)} L${n(x + inner * (r + 1))} ${n(y - r - 2.6)}" stroke="#1d1d1d" stroke-width="1.3" stroke-linecap="round"/>`;
    }) + '<path d="M26 4.5 Q23.6 8.6 24.4 9.8 Q26 11.2 27.6 9.8 Q28.4 8.6 26 4.5 Z" fill="#5ab4ff" stroke="#1f6fb8" stroke-width="0.6"/>';
  }
  if (mood === "thinking") {
    return each((x, y, r) => `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff"/>`
      + `<circle cx="${n(x + r * 0.2)}" cy="${n(y - r * 0.45)}" r="${n(Math.max(0.7, r * 0.5))}" fill="#222"/>`);
  }
  return "";
}

const images = new Map();

/** The portrait of `creature` (with `mood`'s expression, moodOf) as an image ready to
 *  draw, or null while it loads (`onLoad` is called once it has: the table draws again). */
export function portrait(creature, onLoad, mood = null) {
  const key = `${creature}|${mood ?? ""}`;
  let entry = images.get(key);
  if (!entry) {
    const img = new Image();
    entry = { img, ready: false, waiting: new Set() };
    img.onload = () => {
      entry.ready = true;
      for (const f of entry.waiting) f();
      entry.waiting.clear();
    };
    const base = PORTRAITS[creature] ?? PORTRAITS.jubjub;
    const layer = mood ? moodLayer(creature, mood) : "";
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(base.replace(/<\/svg>$/, `${layer}</svg>`))}`;
    images.set(key, entry);
  }
  if (entry.ready) return entry.img;
  if (onLoad) entry.waiting.add(onLoad);
  return null;
}
