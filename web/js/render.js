// Canvas drawing only: the table, cards, seats, trick, trump.  Reads state, never changes the game.

import { isRed, rankLabel, rankOf, suitOf, SUIT_SYMBOLS } from "./cards.js";
import { computeLayout, TAG } from "./layout.js";
import { bidBubbles, bidResults } from "./bubbles.js";
import { classicFace } from "./faces.js";
import { t, language } from "./i18n.js";
import { seatName, slotOf, seatAt, viewerOf, isYou, botLevel } from "./names.js";
import { creatureOf, portrait, pipsOf, moodOf, MAX_PIPS } from "./cast.js";

const RED = "#c0262d";
const BLACK = "#17181c";
/** Four-colour decks: clubs green, diamonds blue (players ask for it; it helps colour-blind
 *  players tell the suits apart). */
const FOUR = { C: "#0f7a35", D: "#1d4fc4", H: RED, S: BLACK };
// The keyboard focus on a card (a brighter cousin of style.css's focus colour), in a dark frame.
const FOCUS = "#4fd1ff";

/** The table's colours, dark (the default) and light. */
const PALETTES = {
  dark: {
    felt: ["#2f7d55", "#1d5c3d", "#0d3020"], ring: "rgba(255,255,255,0.07)",
    badge: "rgba(8, 22, 15, 0.78)", badgeActive: "rgba(38, 30, 8, 0.92)", badgeLine: "rgba(255,255,255,0.18)",
    name: "#fff", line: "#e8efe9", exact: "#9be7a9", muted: "#c3d3c9",
    label: "#f6e7b0", labelMuted: "#c9d8cf", tag: "rgba(8, 22, 15, 0.88)", won: "#7ee081", wonFill: "rgba(10, 40, 18, 0.92)",
  },
  light: {
    felt: ["#8fd1a8", "#63b283", "#3f8a5e"], ring: "rgba(0,0,0,0.08)",
    badge: "rgba(255, 255, 255, 0.88)", badgeActive: "rgba(255, 242, 196, 0.97)", badgeLine: "rgba(0,0,0,0.18)",
    name: "#10241a", line: "#1f3a2b", exact: "#0f6b2c", muted: "#33503f",
    label: "#3d2c00", labelMuted: "#20362a", tag: "rgba(255, 255, 255, 0.92)", won: "#0f7a35", wonFill: "rgba(232, 255, 238, 0.96)",
  },
};
let P = PALETTES.dark;
let fourColour = false;
let classic = false; // the classic deck: illustrated court cards (faces.js)

/** The colour a suit is printed in (two colours, or four). */
export function suitColor(suit) {
  if (fourColour) return FOUR[suit];
  return suit === "H" || suit === "D" ? RED : BLACK;
}

/** The look the next frames draw with: {theme: "dark"|"light", fourColour, deck}. */
export function setLook({ theme, fourColour: four, deck }) {
  P = PALETTES[theme] || PALETTES.dark;
  fourColour = Boolean(four);
  classic = deck === "classic";
}

/** Draw the table again (set by createRenderer: a portrait that has loaded asks for it). */
let request = () => {};

/** Forget the drawn cards (new faces have arrived). */
export function redrawCards() {
  sprites.clear();
}

// ---------------------------------------------------------------- suit shapes

function suitPath(ctx, suit, s) {
  ctx.beginPath();
  if (suit === "H") {
    ctx.moveTo(0, 0.45 * s);
    ctx.bezierCurveTo(-0.12 * s, 0.3 * s, -0.5 * s, 0.06 * s, -0.5 * s, -0.17 * s);
    ctx.bezierCurveTo(-0.5 * s, -0.44 * s, -0.18 * s, -0.54 * s, 0, -0.27 * s);
    ctx.bezierCurveTo(0.18 * s, -0.54 * s, 0.5 * s, -0.44 * s, 0.5 * s, -0.17 * s);
    ctx.bezierCurveTo(0.5 * s, 0.06 * s, 0.12 * s, 0.3 * s, 0, 0.45 * s);
  } else if (suit === "D") {
    ctx.moveTo(0, -0.5 * s);
    ctx.quadraticCurveTo(0.16 * s, -0.2 * s, 0.38 * s, 0);
    ctx.quadraticCurveTo(0.16 * s, 0.2 * s, 0, 0.5 * s);
    ctx.quadraticCurveTo(-0.16 * s, 0.2 * s, -0.38 * s, 0);
    ctx.quadraticCurveTo(-0.16 * s, -0.2 * s, 0, -0.5 * s);
  } else if (suit === "S") {
    ctx.moveTo(0, -0.5 * s);
    ctx.bezierCurveTo(0.12 * s, -0.3 * s, 0.5 * s, -0.12 * s, 0.5 * s, 0.1 * s);
    ctx.bezierCurveTo(0.5 * s, 0.33 * s, 0.2 * s, 0.4 * s, 0.05 * s, 0.22 * s);
    ctx.quadraticCurveTo(0.08 * s, 0.42 * s, 0.18 * s, 0.5 * s);
    ctx.lineTo(-0.18 * s, 0.5 * s);
    ctx.quadraticCurveTo(-0.08 * s, 0.42 * s, -0.05 * s, 0.22 * s);
    ctx.bezierCurveTo(-0.2 * s, 0.4 * s, -0.5 * s, 0.33 * s, -0.5 * s, 0.1 * s);
    ctx.bezierCurveTo(-0.5 * s, -0.12 * s, -0.12 * s, -0.3 * s, 0, -0.5 * s);
  } else {
    const r = 0.215 * s;
    ctx.arc(0, -0.25 * s, r, 0, Math.PI * 2);
    ctx.moveTo(-0.24 * s + r, 0.06 * s);
    ctx.arc(-0.24 * s, 0.06 * s, r, 0, Math.PI * 2);
    ctx.moveTo(0.24 * s + r, 0.06 * s);
    ctx.arc(0.24 * s, 0.06 * s, r, 0, Math.PI * 2);
    ctx.moveTo(0.1 * s, 0);
    ctx.arc(0, 0, 0.1 * s, 0, Math.PI * 2);
    ctx.moveTo(-0.04 * s, 0.1 * s);
    ctx.quadraticCurveTo(-0.04 * s, 0.4 * s, -0.18 * s, 0.5 * s);
    ctx.lineTo(0.18 * s, 0.5 * s);
    ctx.quadraticCurveTo(0.04 * s, 0.4 * s, 0.04 * s, 0.1 * s);
  }
  ctx.closePath();
}

export function drawSuit(ctx, suit, x, y, s, color) {
  ctx.save();
  ctx.translate(x, y);
  ctx.fillStyle = color || suitColor(suit);
  suitPath(ctx, suit, s);
  ctx.fill("nonzero");
  ctx.restore();
}

// ---------------------------------------------------------------- cards

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

// The table's text face (card ranks, badges, labels); warmFonts() prepares it.
// After the Latin faces, faces with Hangul: Korean needs one, and the system has it.
const SANS = '"DejaVu Sans", "Helvetica Neue", Arial, "Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif';

function cardCorner(ctx, card, w, h, color) {
  const fs = Math.max(11, Math.round(w * 0.23));
  ctx.fillStyle = color;
  ctx.font = `700 ${fs}px ${SANS}`;
  ctx.textAlign = "center";
  ctx.textBaseline = "alphabetic";
  const label = rankLabel(card);
  const cxr = w * 0.06 + fs * 0.42 + (label === "10" ? fs * 0.08 : 0);
  if (label === "10") {
    ctx.save();
    ctx.translate(cxr, fs * 1.02);
    ctx.scale(0.82, 1);
    ctx.fillText(label, 0, 0);
    ctx.restore();
  } else {
    ctx.fillText(label, cxr, fs * 1.02);
  }
  drawSuit(ctx, suitOf(card), cxr, fs * 1.55, fs * 0.78, color);
}

// Card faces and backs are drawn once per size (with their shadow) into small canvases
// and copied from there: text and curves on every frame made long main-thread tasks.
const sprites = new Map();
const MAX_SPRITES = 360;

function makeCanvas(w, h) {
  if (typeof OffscreenCanvas === "function") return new OffscreenCanvas(w, h);
  const c = document.createElement("canvas");
  c.width = w;
  c.height = h;
  return c;
}

function cardSprite(card, faceUp, w, h, dpr) {
  const face = faceUp !== false && card ? card : "back";
  const art = classic && face !== "back" && "JQK".includes(rankOf(face)) ? classicFace(face, fourColour) : null;
  const key = `${face}|${w}|${h}|${dpr}|${language()}|${fourColour ? 4 : 2}|${art ? "c" : "s"}`; // indices: the language's
  let sp = sprites.get(key);
  if (sp) return sp;
  if (sprites.size >= MAX_SPRITES) sprites.clear();
  const pad = Math.ceil(Math.max(3, w * 0.06) * 2 + Math.max(1, w * 0.025)) + 1;
  const canvas = makeCanvas(Math.ceil((w + 2 * pad) * dpr), Math.ceil((h + 2 * pad) * dpr));
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.translate(pad, pad);
  paintCard(g, face === "back" ? null : face, w, h, art);
  sp = { canvas, pad };
  sprites.set(key, sp);
  return sp;
}

function paintCard(ctx, card, w, h, art = null) {
  const r = Math.max(4, w * 0.08);
  ctx.shadowColor = "rgba(0,0,0,0.35)";
  ctx.shadowBlur = Math.max(3, w * 0.06);
  ctx.shadowOffsetY = Math.max(1, w * 0.025);
  roundRect(ctx, 0, 0, w, h, r);
  if (!card) {
    ctx.fillStyle = "#7a1c2a";
    ctx.fill();
    ctx.shadowColor = "transparent";
    drawBack(ctx, w, h, r);
  } else {
    ctx.fillStyle = "#fdfcf8";
    ctx.fill();
    ctx.shadowColor = "transparent";
    ctx.lineWidth = 1;
    ctx.strokeStyle = "rgba(0,0,0,0.25)";
    ctx.stroke();
    if (art) drawClassicFace(ctx, card, w, h, art);
    else drawFace(ctx, card, w, h);
  }
}

/** A card at (x, y) size w x h; opts: faceUp, dim, glow (color), glowWidth, rot, and sprite {w, h}
 *  (the size to draw the card at before scaling: moving cards reuse one image). */
export function drawCard(ctx, card, x, y, w, h, opts = {}) {
  const m = ctx.getTransform();
  const dpr = Math.max(1, Math.round(Math.hypot(m.a, m.b) * 4) / 4);
  const sw = Math.max(8, Math.round(opts.sprite ? opts.sprite.w : w));
  const sh = Math.max(8, Math.round(opts.sprite ? opts.sprite.h : h));
  const sp = cardSprite(card, opts.faceUp, sw, sh, dpr);
  const kx = w / sw;
  const ky = h / sh;
  ctx.save();
  ctx.translate(x + w / 2, y + h / 2);
  if (opts.rot) ctx.rotate(opts.rot);
  ctx.translate(-w / 2, -h / 2);
  ctx.drawImage(sp.canvas, -sp.pad * kx, -sp.pad * ky, (sw + 2 * sp.pad) * kx, (sh + 2 * sp.pad) * ky);
  const r = Math.max(4, w * 0.08);
  if (opts.glow) {
    roundRect(ctx, -1.5, -1.5, w + 3, h + 3, r + 1.5);
    ctx.lineWidth = opts.glowWidth || 3;
    ctx.strokeStyle = opts.glow;
    ctx.stroke();
  }
  if (opts.dim) {
    roundRect(ctx, 0, 0, w, h, r);
    ctx.fillStyle = "rgba(20, 32, 26, 0.42)";
    ctx.fill();
  }
  ctx.restore();
}

/** The keyboard's focus on a card: a thick bright ring between two dark ones, a little
 *  outside the card, so it reads on a white card, on dark felt and on pale felt alike (a
 *  thin light ring vanished against the light theme's table). */
function focusRing(ctx, x, y, w, h, rot) {
  const r = Math.max(4, w * 0.08);
  const o = Math.max(5, w * 0.06);
  ctx.save();
  ctx.translate(x + w / 2, y + h / 2);
  if (rot) ctx.rotate(rot);
  ctx.translate(-w / 2, -h / 2);
  roundRect(ctx, -o, -o, w + 2 * o, h + 2 * o, r + o);
  ctx.lineWidth = 8;
  ctx.strokeStyle = "rgba(6, 12, 9, 0.92)";
  ctx.stroke();
  ctx.lineWidth = 4;
  ctx.strokeStyle = FOCUS;
  ctx.stroke();
  ctx.restore();
}

/** A court card of the classic deck: the illustration with its own corner letters, which
 *  are replaced where the player's language letters its cards otherwise (German B, D). */
function drawClassicFace(ctx, card, w, h, art) {
  ctx.drawImage(art, 0, 0, w, h);
  const letter = rankLabel(card);
  if (letter === rankOf(card)) return;
  const corner = () => {
    ctx.fillStyle = "#fff";
    ctx.fillRect(w * 0.03, h * 0.04, w * 0.115, h * 0.11);
    ctx.fillStyle = suitColor(suitOf(card));
    ctx.font = `${Math.round(h * 0.105)}px "DejaVu Serif", Georgia, serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(letter, w * 0.085, h * 0.097);
  };
  corner();
  ctx.save();
  ctx.translate(w, h);
  ctx.rotate(Math.PI);
  corner();
  ctx.restore();
}

function drawFace(ctx, card, w, h) {
  const color = suitColor(suitOf(card));
  const suit = suitOf(card);
  cardCorner(ctx, card, w, h, color);
  ctx.save();
  ctx.translate(w, h);
  ctx.rotate(Math.PI);
  cardCorner(ctx, card, w, h, color);
  ctx.restore();
  const rank = rankOf(card);
  if ("JQK".includes(rank)) {
    const letter = rankLabel(card);
    const fw = w * 0.52;
    const fh = h * 0.56;
    const fx = (w - fw) / 2;
    const fy = (h - fh) / 2;
    roundRect(ctx, fx, fy, fw, fh, w * 0.04);
    ctx.fillStyle = isRed(card) && !fourColour ? "#fbe9e7" : "#eceff1";
    ctx.fill();
    ctx.lineWidth = Math.max(1, w * 0.015);
    ctx.strokeStyle = color;
    ctx.stroke();
    ctx.fillStyle = color;
    ctx.font = `700 ${Math.round(fh * 0.46)}px "DejaVu Serif", Georgia, serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(letter, w / 2, fy + fh * 0.38);
    drawSuit(ctx, suit, w / 2, fy + fh * 0.76, fw * 0.34, color);
  } else {
    const size = rank === "A" ? w * 0.62 : w * 0.46;
    drawSuit(ctx, suit, w / 2, h / 2, size, color);
  }
}

function drawBack(ctx, w, h, r) {
  const inset = Math.max(2.5, w * 0.07);
  ctx.save();
  roundRect(ctx, inset, inset, w - 2 * inset, h - 2 * inset, r * 0.6);
  ctx.clip();
  const g = ctx.createLinearGradient(0, 0, w, h);
  g.addColorStop(0, "#9b2335");
  g.addColorStop(1, "#6d1424");
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, w, h);
  ctx.strokeStyle = "rgba(255, 225, 200, 0.28)";
  ctx.lineWidth = 1;
  const gap = Math.max(5, w * 0.12);
  ctx.beginPath();
  for (let d = -h; d < w + h; d += gap) {
    ctx.moveTo(d, 0);
    ctx.lineTo(d + h, h);
    ctx.moveTo(d, h);
    ctx.lineTo(d + h, 0);
  }
  ctx.stroke();
  ctx.restore();
  roundRect(ctx, inset, inset, w - 2 * inset, h - 2 * inset, r * 0.6);
  ctx.strokeStyle = "rgba(255, 230, 190, 0.7)";
  ctx.lineWidth = Math.max(1, w * 0.02);
  ctx.stroke();
}

// ---------------------------------------------------------------- table

function drawFelt(ctx, L) {
  const g = ctx.createRadialGradient(L.cx, L.cy, 10, L.cx, L.cy, Math.max(L.w, L.h) * 0.75);
  g.addColorStop(0, P.felt[0]);
  g.addColorStop(0.55, P.felt[1]);
  g.addColorStop(1, P.felt[2]);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, L.w, L.h);
  ctx.save();
  ctx.strokeStyle = P.ring;
  ctx.lineWidth = 2;
  ctx.beginPath();
  const rx = L.narrow ? L.w * 0.4 : Math.min(L.w * 0.36, 420);
  const ry = L.narrow ? (L.handY - L.top) * 0.28 : (L.handY - L.top) * 0.36;
  ctx.ellipse(L.cx, L.cy, rx, ry, 0, 0, Math.PI * 2);
  ctx.stroke();
  ctx.restore();
}

function pill(ctx, x, y, w, h, fill, stroke) {
  roundRect(ctx, x, y, w, h, h / 2);
  ctx.fillStyle = fill;
  ctx.fill();
  if (stroke) {
    ctx.lineWidth = 2;
    ctx.strokeStyle = stroke;
    ctx.stroke();
  }
}

function text(ctx, str, x, y, size, color, weight = 600, align = "center") {
  ctx.font = `${weight} ${size}px ${SANS}`;
  ctx.fillStyle = color;
  ctx.textAlign = align;
  ctx.textBaseline = "middle";
  ctx.fillText(str, x, y);
}

/**
 * Draws a line in every weight and size of the table's text into a scratch canvas, one
 * font per call of `later` (each a short task).  The first use of a font in a fresh
 * page costs up to ~35 ms (the browser looks the face up and rasterizes its glyphs);
 * done while the loading screen waits for the engine, it takes that out of the first
 * frame of the table (otherwise one long main-thread task of ~90-130 ms on a first visit).
 */
export function warmFonts(later) {
  const ctx = makeCanvas(4, 4).getContext("2d");
  const sample = [t("table.trump"), t("table.broken"), t("table.led"), t("badge.dealer_mark"),
    t("badge.human", { name: t("seat.you"), bid: 0, taken: 0, score: t("badge.points", { points: 0 }) }), t("seat.bot", { n: 1 }), "0123456789"].join(" ");
  const fonts = [500, 600, 700, 800].flatMap((weight) => [10, 11, 12, 13, 14].map((size) =>
    `${weight} ${size}px ${SANS}`));
  const next = () => {
    const font = fonts.shift();
    if (font === undefined) return;
    ctx.font = font;
    ctx.fillText(sample, 0, 2);
    later(next);
  };
  later(next);
}

/** `str` in at most `max` px: at the largest font size from `size` down to `min` at which
 *  it fits, else cut with "…" at `min`.  {str, size, cut}; the context keeps that font. */
export function fitSized(ctx, str, max, size, weight = 600, min = size) {
  let px = size;
  ctx.font = `${weight} ${px}px ${SANS}`;
  while (px > min && ctx.measureText(str).width > max) {
    px -= 1;
    ctx.font = `${weight} ${px}px ${SANS}`;
  }
  let s = str;
  while (s.length > 1 && ctx.measureText(s).width > max) s = s.slice(0, -1);
  return s === str ? { str, size: px, cut: false } : { str: s.slice(0, -1) + "…", size: px, cut: true };
}

/** The first of `choices` (one text, or a list longest first) that fits `max` px uncut,
 *  else the last, cut: fitSized's {str, size, cut}; the context keeps its font. */
function fitFirst(ctx, choices, max, size, weight, min) {
  let fitted;
  for (const str of [choices].flat()) {
    fitted = fitSized(ctx, str, max, size, weight, min);
    if (!fitted.cut) break;
  }
  return fitted;
}

/** A seat's name in at most `max` px: bold from `size` down to 9 px, then the regular
 *  weight (narrower: "Banderschnatz" on a badge at five seats on a phone), and only then
 *  cut.  fitSized's {str, size, cut} and the weight to draw it in. */
export function fitName(ctx, str, max, size) {
  const bold = fitSized(ctx, str, max, size, 700, 9);
  if (!bold.cut) return { ...bold, weight: 700 };
  return { ...fitSized(ctx, str, max, size, 500, 9), weight: 500 };
}

function fitText(ctx, str, max, size, weight = 600) {
  return fitSized(ctx, str, max, size, weight).str;
}

function drawBadge(ctx, L, view, seat, s, now, reducedMotion = false, dealing = false) {
  const small = L.narrow || L.short;
  const bw = s.bw;
  const bh = s.bh;
  const x = s.x - bw / 2;
  const y = s.y - bh / 2;
  const active = view.to_act === seat && (view.phase === "bidding" || view.phase === "playing");
  if (active) {
    const pulse = 0.55 + 0.45 * Math.sin(now / 260);
    ctx.save();
    ctx.shadowColor = `rgba(255, 214, 90, ${pulse})`;
    ctx.shadowBlur = 18;
    roundRect(ctx, x, y, bw, bh, 12);
    ctx.fillStyle = "rgba(255, 214, 90, 0.9)";
    ctx.fill();
    ctx.restore();
  }
  roundRect(ctx, x, y, bw, bh, 12);
  ctx.fillStyle = active ? P.badgeActive : P.badge;
  ctx.fill();
  ctx.lineWidth = active ? 2.5 : 1;
  ctx.strokeStyle = active ? "#e0b23a" : P.badgeLine;
  ctx.stroke();
  const nameSize = small ? 13 : 14;
  const lineSize = small ? 12 : 13;
  // a bot's portrait at the left, its level's pips under it; the words beside
  const level = botLevel(view, seat);
  const mood = level && !dealing ? moodOf(view, seat) : null; // (nobody thinks while the cards are dealt)
  const face = level ? portrait(creatureOf(seat), request, mood) : null;
  // (on a phone upright the badges are too narrow to share: the portrait sits under the
  // badge's left end, beside the card backs, and the words keep the badge's width)
  const under = L.narrow;
  const p = level ? s.face.size : 0;
  if (level) {
    const px = s.face.x;
    const py = s.face.y;
    if (face) ctx.drawImage(face, px, py, p, p);
    if (mood === "thinking") thoughtBubble(ctx, px + p * 0.82, py + p * 0.12, p, now, reducedMotion);
    const pips = pipsOf(level);
    const gap = Math.max(4, p * 0.14);
    for (let i = 0; i < (pips ? MAX_PIPS : 0); i++) {
      ctx.beginPath();
      ctx.arc(px + p / 2 + (i - (MAX_PIPS - 1) / 2) * gap, py + p + 5, Math.max(1.4, p * 0.045), 0, Math.PI * 2);
      ctx.fillStyle = i < pips ? P.name : P.badgeLine;
      ctx.fill();
    }
  }
  const tx = s.x + (p && !under ? (p + 4) / 2 : 0);
  const room = bw - (p && !under ? p + 8 : 0);
  // the dealer's mark sits on the badge's top right corner, level with the name: the name
  // (centred on tx) keeps clear of it
  const markR = small ? 10 : 11;
  const nameRoom = view.dealer === seat ? Math.min(room - 6, 2 * (x + bw - 2 - markR - 3 - tx)) : room - 6;
  const name = fitName(ctx, seatName(view, seat), nameRoom, nameSize);
  text(ctx, name.str, tx, y + bh * 0.26, name.size, P.name, name.weight);
  const bid = view.bids[seat];
  const exact = bid !== null && view.taken[seat] === bid;
  // The counts must show whole (a narrow badge at five seats, wide glyphs): a smaller font,
  // else the catalogue's short form, before anything is cut.
  const counts = { bid: bid === null ? "–" : bid, taken: view.taken[seat] };
  let line = fitSized(ctx, t("badge.bid_won", counts), room - 6, lineSize, 500, 10);
  if (line.cut) line = fitSized(ctx, t("badge.bid_won_short", counts), room - 6, lineSize, 500, 10);
  text(ctx, line.str, tx, y + bh * 0.56, line.size, exact ? P.exact : P.line, 500);
  const pts = fitText(ctx, t("badge.points", { points: view.scores[seat] }), room - 6, 12, 500);
  text(ctx, pts, tx, y + bh * 0.81, 12, P.muted, 500);
  if (view.dealer === seat) dealerMark(ctx, x + bw - 2, y + 2, markR);
}

/** A thought bubble at a thinking bot's face: three dots in a small cloud (with motion
 *  they light in turn; without, they stay still). */
function thoughtBubble(ctx, x, y, p, now, still) {
  const r = Math.max(7, p * 0.24);
  ctx.save();
  ctx.fillStyle = "#fff";
  ctx.strokeStyle = "rgba(0,0,0,0.35)";
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.ellipse(x + r * 0.9, y - r * 0.3, r * 1.35, r * 0.85, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(x - r * 0.45, y + r * 0.75, r * 0.22, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  for (let i = 0; i < 3; i++) {
    const lit = still || Math.floor(now / 300) % 3 >= i;
    ctx.beginPath();
    ctx.arc(x + r * 0.9 + (i - 1) * r * 0.6, y - r * 0.3, r * 0.16, 0, Math.PI * 2);
    ctx.fillStyle = lit ? "#3d2c00" : "rgba(61,44,0,0.3)";
    ctx.fill();
  }
  ctx.restore();
}

/** An online table: a friend's connection on their badge (its words are in the bar over the
 *  table and the screen reader's seat list): green connected, a gold ring reconnecting,
 *  red gone. */
const PRESENCE_COLOURS = { connected: "#3fbf5a", reconnecting: "#e0b23a", gone: "#d0524a" };

function presenceDot(ctx, s, presence) {
  const colour = PRESENCE_COLOURS[presence];
  if (!colour) return;
  const x = s.x - s.bw / 2 + 10;
  const y = s.y - s.bh / 2 + 10;
  ctx.beginPath();
  ctx.arc(x, y, 5, 0, Math.PI * 2);
  if (presence === "reconnecting") {
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2.5;
    ctx.stroke();
  } else {
    ctx.fillStyle = colour;
    ctx.fill();
  }
}

function dealerMark(ctx, x, y, r) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fillStyle = "#f5f0e1";
  ctx.fill();
  ctx.strokeStyle = "#8a6d1d";
  ctx.lineWidth = 2;
  ctx.stroke();
  text(ctx, t("badge.dealer_mark"), x, y + 0.5, 12, "#5a4510", 800);
}

function drawOpponentBacks(ctx, L, seat, s, count, face = false) {
  if (!count || L.short) return;
  const bw = L.backW;
  const bh = bw * 1.4;
  // on a phone upright a bot's face sits under its badge's left end: the backs beside it
  const aside = L.narrow && face ? s.face.size + 6 : 0;
  const fan = L.narrow ? Math.min(58, s.bw - aside - bw - 4) : 100;
  const step = Math.min(bw * 0.32, fan / Math.max(count, 1));
  const total = bw + step * (count - 1);
  // In front of the player: toward the centre of the table.
  const off = s.bh / 2 + 4 + bh * 0.5;
  const side = !L.narrow && Math.abs(s.dir.x) > 0.9;
  const cx = side ? s.x - s.dir.x * (s.bw / 2 + total * 0.5 + 8) : aside ? s.x - s.bw / 2 + aside + total / 2 + 2 : s.x;
  const cy = side ? s.y : s.y + off;
  const x0 = cx - total / 2;
  const y0 = cy - bh / 2;
  for (let i = 0; i < count; i++) {
    drawCard(ctx, null, x0 + i * step, y0, bw, bh, { faceUp: false, rot: (i - (count - 1) / 2) * 0.04 });
  }
}

function drawTrump(ctx, L, view) {
  if (!view.trump_card) return;
  const T = L.trump;
  const stockX = T.x;
  const faceX = T.x + T.w * 0.42;
  for (let i = 2; i >= 0; i--) drawCard(ctx, null, stockX - i * 1.5, T.y - i * 1.5, T.w, T.h, { faceUp: false });
  drawCard(ctx, view.trump_card, faceX, T.y + T.h * 0.08, T.w, T.h, { rot: 0.12 });
  const lx = faceX + T.w * 0.3;
  text(ctx, t("table.trump"), lx, T.y + T.h + 16, L.narrow ? 12 : 13, P.label, 700);
  if (view.trump_broken) text(ctx, t("table.broken"), lx, T.y + T.h + 31, 12, P.labelMuted, 500);
}


function drawTrick(ctx, L, view, shown) {
  if (!shown || !shown.cards) return;
  const complete = shown.cards.length === view.players && shown.winner !== undefined && shown.winner !== null;
  shown.cards.forEach((card, i) => {
    const seat = (shown.leader + i) % view.players;
    const p = L.trickPos[slotOf(view, seat)];
    const won = complete && shown.winner === seat;
    // the trick's winner ringed green, unlike the gold of the seat to act
    drawCard(ctx, card, p.x, p.y, L.trickW, L.trickH, { rot: p.rot, glow: won ? P.won : null, glowWidth: won ? 5 : 3, dim: complete && !won });
  });
  if (shown.cards.length > 1 && !complete) {
    // who led: a tag next to the first card, clear of its corners
    tag(ctx, L.ledTag[slotOf(view, shown.leader)], t("table.led"), P.tag, P.label, 12, TAG.w);
  }
  if (complete) {
    const name = seatName(view, shown.winner);
    // where even 11 px does not fit the sentence (a phone on its side, 568 px wide), the
    // short one: "Bandersnatch wins"
    const words = isYou(view, shown.winner) ? t("table.you_won_trick")
      : [t("table.won_trick", { name }), t("table.won_trick_short", { name })];
    // and why it is theirs, under the name (the engine's reason: a trump, or the suit led)
    const why = shown.why === "trump" ? t("table.why_trump")
      : shown.why === "led" ? t("table.why_led", { symbol: SUIT_SYMBOLS[suitOf(shown.cards[0])] }) : null;
    const dy = why ? 12 : 0;
    tag(ctx, { ...L.label, y: L.label.y - dy }, words, P.wonFill, P.won, 14, L.labelMax);
    if (why) tag(ctx, { ...L.label, y: L.label.y + dy + 2 }, why, P.tag, P.label, 12, L.labelMax);
  }
}

const BUBBLE_LOOK = {
  bid: { fill: "#fff6d6", line: "#b8901f", text: "#3d2c00" },
  made: { fill: "#e3f8e6", line: "#1f8a3a", text: "#0d4d1e" },
  missed: { fill: "#fde6e4", line: "#c0392b", text: "#6b1410" },
};

/** The bids made this round, each in a bubble at its seat (bubbles.js says which), with a
 *  tail toward the badge; yours above your badge. */
function drawBidBubbles(ctx, L, view, shown) {
  const results = bidResults(view);
  const shownBids = results.length ? results : bidBubbles(view, shown);
  for (const { seat, bid, taken, made } of shownBids) {
    const at = L.bubbles[slotOf(view, seat)];
    if (!at) continue;
    // at the round's end: made (green) or missed (red), with what was taken
    const look = made === undefined ? BUBBLE_LOOK.bid : made ? BUBBLE_LOOK.made : BUBBLE_LOOK.missed;
    // the words, longest first: the first that fits where the bubble goes
    const choices = made === undefined ? [t("table.bid_bubble", { bid }), String(bid)]
      : made ? [t("table.bid_made", { bid }), t("table.bid_made_short", { bid })]
        : [t("table.bid_missed", { bid, taken }), t("table.bid_missed_short", { bid, taken })];
    const h = at.h;
    const fitted = fitFirst(ctx, choices, (at.maxW ?? Infinity) - 14, Math.round(h * 0.5), 800, 11);
    const words = fitted.str;
    const size = fitted.size;
    const w = Math.ceil(ctx.measureText(words).width) + 14;
    const x = Math.max(4, Math.min(L.w - w - 4, at.align === "right" ? at.x - w : at.align === "left" ? at.x : at.x - w / 2));
    const y = at.y - h / 2;
    const tx = Math.max(x + 14, Math.min(x + w - 14, at.align === "right" ? at.x - 16 : at.x));
    ctx.save();
    ctx.shadowColor = "rgba(0,0,0,0.35)";
    ctx.shadowBlur = 6;
    roundRect(ctx, x, y, w, h, h / 2);
    if (at.tail === "left" || at.tail === "right") {
      const ex = at.tail === "left" ? x : x + w; // the edge toward the badge
      const k = at.tail === "left" ? 1 : -1;
      ctx.moveTo(ex + 4 * k, at.y - 6);
      ctx.lineTo(ex - 8 * k, at.y);
      ctx.lineTo(ex + 4 * k, at.y + 6);
    } else {
      ctx.moveTo(tx - 6, at.tail === "up" ? y + 1 : y + h - 1);
      ctx.lineTo(tx, at.tail === "up" ? y - 7 : y + h + 7);
      ctx.lineTo(tx + 6, at.tail === "up" ? y + 1 : y + h - 1);
    }
    ctx.fillStyle = look.fill;
    ctx.fill();
    ctx.restore();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = look.line;
    roundRect(ctx, x, y, w, h, h / 2);
    ctx.stroke();
    text(ctx, words, x + w / 2, at.y + 0.5, size, look.text, 800);
  }
}

/** A claim just accepted: the cards that take the rest, face up in a row across the middle
 *  of the table, ringed as winners, under the words "You claimed the last 3 tricks". */
function drawClaim(ctx, L, claimed) {
  const n = claimed.cards.length;
  const w = L.trickW;
  const h = L.trickH;
  const room = L.w - 2 * L.margin;
  const step = n > 1 ? Math.min(w * 1.12, (room - w) / (n - 1)) : 0;
  const total = w + step * (n - 1);
  const x0 = L.cx - total / 2;
  // on a phone on its side in the opponents' row, the words beside (the notice shows
  // above your badge there); elsewhere across the middle, the words above
  const y = L.short ? L.trickPos[1].y : L.cy - h / 2 + 10;
  claimed.cards.forEach((card, i) => drawCard(ctx, card, x0 + i * step, y, w, h, { glow: P.won, glowWidth: 4 }));
  const words = t("table.you_claimed", { n: claimed.tricks });
  if (L.short) tag(ctx, { x: x0 + total + 12, y: y + h / 2, align: "left" }, words, P.wonFill, P.won, 13, L.w - L.margin - (x0 + total + 12));
  else tag(ctx, { x: L.cx, y: y - 18, align: "center" }, words, P.wonFill, P.won, 14, Math.min(room, 340));
}

/** A pill with `words` anchored at {x, y, align} (the pill's left, centre or right);
 *  at most TAG.w wide for the led tag (layout.js places it by that size).  Words too long
 *  for `maxW` are drawn smaller (down to 11 px); `words` may be a list, longest first: the
 *  first that fits uncut is drawn, else the last, cut. */
function tag(ctx, at, words, fill, color, size = 12, maxW = Infinity) {
  const fitted = fitFirst(ctx, words, maxW - 12, size, 700, Math.min(size, 11));
  const w = ctx.measureText(fitted.str).width + 12;
  const h = size + 8;
  const x = at.align === "right" ? at.x - w : at.align === "left" ? at.x : at.x - w / 2;
  pill(ctx, x, at.y - h / 2, w, h, fill, color);
  text(ctx, fitted.str, x + w / 2, at.y + 0.5, fitted.size, color, 700);
}

function drawHand(ctx, L, view, ui, count) {
  const playing = view.phase === "playing" && view.your_turn;
  const legal = new Set(view.legal_cards || []);
  const reneges = new Set(view.renege_cards || []);
  let focused = null; // its ring is drawn over the cards beside it
  L.hand.slice(0, count).forEach((slot, i) => {
    const isLegal = legal.has(slot.card);
    let lift = 0;
    if (playing && isLegal) lift = L.cardH * 0.1;
    if (ui.focusCard === slot.card || ui.hoverCard === slot.card) lift += L.cardH * 0.06;
    let glow = null;
    if (ui.hint && ui.hint.kind === "card" && ui.hint.suggestion === slot.card) glow = "#ffd65a";
    if (ui.flash && ui.flash.card === slot.card && ui.flash.until > performance.now()) glow = "#ff6b6b";
    if (playing && reneges.has(slot.card) && !glow) glow = "#ff9f43";
    const rot = (i - (L.hand.length - 1) / 2) * 0.012;
    drawCard(ctx, slot.card, slot.x, slot.y - lift, slot.w, slot.h, { dim: playing && !isLegal, glow, rot });
    if (ui.focusCard === slot.card) focused = [slot.x, slot.y - lift, slot.w, slot.h, rot];
  });
  if (focused) focusRing(ctx, ...focused);
}

/** The badge of the seat the page shows from (`watching`: a friend watching an online
 *  table, for whom it is another player's: said in the third person). */
function drawHumanBadge(ctx, L, view, now, watching = false) {
  const s = L.seats[0];
  const me = viewerOf(view);
  const active = view.to_act === me && (view.phase === "bidding" || view.phase === "playing");
  const bid = view.bids[me];
  const size = L.narrow ? 13 : 14;
  const full = t(watching ? "badge.human_watched" : "badge.human", { name: seatName(view, me), bid: bid === null ? "–" : bid, taken: view.taken[me], score: t("badge.points", { points: view.scores[me] }) });
  const label = fitText(ctx, full, Math.min(L.w - 2 * L.margin - 70, 264), size, 600);
  ctx.font = `600 ${size}px ${SANS}`; // the face text() draws it in
  const w = ctx.measureText(label).width + 36;
  const h = s.bh;
  const x = s.x - w / 2;
  const y = s.y - h / 2;
  let stroke = null;
  if (active) {
    const pulse = 0.6 + 0.4 * Math.sin(now / 260);
    stroke = `rgba(255, 214, 90, ${pulse})`;
  }
  s.w = w; // its width as drawn: an online table's thinking time goes beside it (online/thinking.js)
  pill(ctx, x, y, w, h, active ? P.badgeActive : P.badge, stroke);
  text(ctx, label, s.x, s.y + 0.5, size, P.name, 600);
  if (view.dealer === me) dealerMark(ctx, x + w + 14, s.y, 11);
}

// ---------------------------------------------------------------- renderer

/** getFrame() gives {view, table, reducedMotion, theme, fourColour}: what to draw, and how. */
export function createRenderer(canvas, getFrame) {
  const ctx = canvas.getContext("2d");
  let layout = null;
  let size = { w: 0, h: 0, dpr: 1 };
  let frame = 0;
  const flights = [];

  let sizeDirty = true;
  let laidFor = null;

  function resize() {
    if (sizeDirty) {
      sizeDirty = false;
      const dpr = Math.min(window.devicePixelRatio || 1, 3);
      const w = canvas.clientWidth || window.innerWidth;
      const h = canvas.clientHeight || window.innerHeight;
      if (w !== size.w || h !== size.h || dpr !== size.dpr) {
        size = { w, h, dpr };
        canvas.width = Math.round(w * dpr);
        canvas.height = Math.round(h * dpr);
        laidFor = null;
      }
    }
    const view = getFrame().view;
    if (!layout || laidFor !== view) {
      layout = computeLayout(size.w, size.h, view);
      laidFor = view;
    }
    return layout;
  }

  function draw(now) {
    frame = 0;
    const st = getFrame();
    setLook(st);
    resize();
    ctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
    drawFelt(ctx, layout);
    const view = st.view;
    if (view) {
      const counts = st.table.dealtCounts;
      drawTrump(ctx, layout, view);
      for (let slot = 1; slot < view.players; slot++) {
        const seat = seatAt(view, slot);
        const n = counts ? Math.min(counts[seat], view.hand_counts[seat]) : view.hand_counts[seat];
        drawOpponentBacks(ctx, layout, seat, layout.seats[slot], n, Boolean(botLevel(view, seat)));
        drawBadge(ctx, layout, view, seat, layout.seats[slot], now, st.reducedMotion, Boolean(counts));
        presenceDot(ctx, layout.seats[slot], st.presence?.[seat]);
      }
      drawTrick(ctx, layout, view, st.table.shownTrick);
      if (st.table.claimed) drawClaim(ctx, layout, st.table.claimed);
      drawHumanBadge(ctx, layout, view, now, st.watching);
      drawBidBubbles(ctx, layout, view, st.table.shownTrick);
      drawHand(ctx, layout, view, st.table, counts ? counts[viewerOf(view)] : view.hand.length);
    }
    drawFlights(now);
    const pulsing = !st.reducedMotion && view && view.to_act !== null && view.phase !== "game-over";
    const busy = flights.length > 0 || pulsing;
    if (busy) request();
  }

  function drawFlights(now) {
    for (let i = flights.length - 1; i >= 0; i--) {
      const f = flights[i];
      const k = Math.min(1, Math.max(0, (now - f.start) / f.duration));
      if (k <= 0) continue;
      const e = k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2;
      const lerp = (a, b) => a + (b - a) * e;
      drawCard(ctx, f.card, lerp(f.from.x, f.to.x), lerp(f.from.y, f.to.y), lerp(f.from.w, f.to.w),
        lerp(f.from.h, f.to.h), { faceUp: f.faceUp, rot: lerp(f.from.rot || 0, f.to.rot || 0), sprite: f.to.w >= f.from.w ? f.to : f.from });
      if (k >= 1) {
        flights.splice(i, 1);
        f.resolve();
      }
    }
  }

  function requestFrame() {
    if (!frame) frame = requestAnimationFrame(draw);
  }
  request = requestFrame;

  /** Fly a card; resolves when it lands.  from/to: {x, y, w, h, rot}. */
  function fly(card, from, to, duration, faceUp = true, delay = 0) {
    return new Promise((resolve) => {
      flights.push({ card, from, to, duration: Math.max(duration, 1), faceUp, start: performance.now() + delay, resolve });
      request();
    });
  }

  const resized = () => {
    sizeDirty = true;
    request();
  };
  window.addEventListener("resize", resized);
  if (typeof ResizeObserver === "function") new ResizeObserver(resized).observe(canvas);
  /** Land every flight now (a new game replaces what was being shown). */
  function finishFlights() {
    for (const f of flights.splice(0)) f.resolve();
    request();
  }

  return {
    request: requestFrame,
    fly,
    finishFlights,
    layout: () => layout || resize(),
    relayout: resize,
  };
}
