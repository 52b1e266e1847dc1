// The review's table on a canvas: every seat's hand face up in a row (play order from the
// top), the seat to act marked, the move of this step outlined (and the hard bot's other
// choice, once it is known), and the trick with who leads and who won it.  Drawing only.

import { drawCard } from "../render.js";
import { t } from "../i18n.js";
import { handAt, countsAt } from "./model.js";

const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif';
const GOLD = "#ffd65a";
const BLUE = "#59b7ff";
const COLOURS = {
  dark: { bg: "#153b28", row: "rgba(255,255,255,0.05)", active: "rgba(255, 214, 90, 0.16)", text: "#f4f7f5", muted: "#b9cbbf", line: "rgba(255,255,255,0.14)", win: GOLD },
  light: { bg: "#cfe9d9", row: "rgba(0,0,0,0.04)", active: "rgba(255, 200, 40, 0.28)", text: "#10241a", muted: "#33503f", line: "rgba(0,0,0,0.14)", win: "#8a5f00" },
};

function fit(ctx, text, max, size, weight = 600) {
  let s = size;
  ctx.font = `${weight} ${s}px ${SANS}`;
  while (s > 9 && ctx.measureText(text).width > max) {
    s -= 1;
    ctx.font = `${weight} ${s}px ${SANS}`;
  }
  if (ctx.measureText(text).width <= max) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(cut + "…").width > max) cut = cut.slice(0, -1);
  return cut + "…";
}

/** Where everything goes for a canvas of w x h css pixels and n seats. */
export function reviewLayout(w, h, n) {
  const wide = w >= 720 || w > 1.35 * h; // the trick beside the hands (a desktop, a phone on its side)
  const pad = 8;
  const trick = wide
    ? { x: w - Math.min(360, Math.round(w * 0.32)), y: pad, w: Math.min(360, Math.round(w * 0.32)) - pad, h: h - 2 * pad }
    : { x: pad, y: h - Math.min(150, Math.round(h * 0.3)), w: w - 2 * pad, h: Math.min(150, Math.round(h * 0.3)) - pad };
  const rowsW = (wide ? trick.x - pad : w) - 2 * pad;
  const rowsH = (wide ? h : trick.y) - 2 * pad;
  const rowH = Math.floor(rowsH / n);
  // the seats' names: this wide at least, wider for a long name (widened, up to labelCap,
  // by labelWidth: "Bandersnatch (D)" whole on a phone rather than cut short)
  const labelW = wide ? 170 : Math.min(104, Math.round(w * 0.27));
  const labelCap = wide ? Math.max(170, Math.round(rowsW * 0.4)) : Math.round(w * 0.4);
  const cardH = Math.max(36, Math.min(112, rowH - 14));
  const cardW = Math.round(cardH * 0.7);
  const rows = Array.from({ length: n }, (_, k) => ({ x: pad, y: pad + k * rowH, w: rowsW, h: rowH }));
  return { wide, pad, rows, labelW, labelCap, cardW, cardH, trick };
}

/** The label column's width for names as wide as `widest` px (bold, at the label's size):
 *  the layout's own width, or wider up to its cap. */
export const labelWidth = (L, widest) => Math.max(L.labelW, Math.min(L.labelCap, Math.ceil(widest) + 14));

/**
 * Draw position `i` of `timeline`.  names: the seats' names; analysis: the hard bot's
 * answer for this step (or null); theme: "dark" | "light".
 */
export function drawReview(canvas, { timeline, i, names, analysis, theme }) {
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  if (!w || !h) return null;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const C = COLOURS[theme] || COLOURS.dark;
  ctx.fillStyle = C.bg;
  ctx.fillRect(0, 0, w, h);
  const n = timeline.players;
  const step = timeline.steps[i];
  const L = reviewLayout(w, h, n);
  const size = L.wide ? 16 : 13;
  ctx.font = `700 ${size}px ${SANS}`;
  const dealerMark = ` (${t("badge.dealer_mark")})`;
  L.labelW = labelWidth(L, Math.max(...names.slice(0, n).map((name) => ctx.measureText(name + dealerMark).width)));
  const counts = countsAt(timeline, i);
  const suggestion = analysis && analysis.differs ? analysis.suggestion : null;
  const drawn = { rows: [], trick: [] };
  // one row a seat, in play order from the seat after the dealer (who bids first)
  const round = timeline.rounds.find((r) => r.round === step.round);
  const order = Array.from({ length: n }, (_, k) => (round.dealer + 1 + k) % n);
  order.forEach((seat, k) => {
    const row = L.rows[k];
    const acting = seat === step.seat;
    ctx.fillStyle = acting ? C.active : k % 2 ? "transparent" : C.row;
    ctx.fillRect(row.x, row.y + 2, row.w, row.h - 4);
    if (acting) {
      ctx.fillStyle = GOLD;
      ctx.fillRect(row.x, row.y + 2, 4, row.h - 4);
    }
    const lx = row.x + 10;
    ctx.fillStyle = C.text;
    ctx.textBaseline = "top";
    const name = seat === round.dealer ? names[seat] + dealerMark : names[seat];
    ctx.fillText(fit(ctx, name, L.labelW - 14, size, 700), lx, row.y + 8);
    ctx.fillStyle = C.muted;
    const bid = counts.bids[seat];
    ctx.fillText(fit(ctx, t("badge.bid_won", { bid: bid === null ? "–" : bid, taken: counts.taken[seat] }), L.labelW - 14, size - 2, 500), lx, row.y + 10 + size * 1.25);
    ctx.fillText(fit(ctx, t("badge.points", { points: counts.scores[seat] }), L.labelW - 14, size - 2, 500), lx, row.y + 12 + size * 2.4);
    const { cards, played } = handAt(timeline, i, seat);
    const span = row.w - L.labelW - 8;
    const gap = cards.length > 1 ? Math.min(L.cardW + 4, (span - L.cardW) / (cards.length - 1)) : 0;
    const cy = row.y + (row.h - L.cardH) / 2;
    cards.forEach((card, j) => {
      const x = row.x + L.labelW + j * gap;
      const isPlayed = card === played;
      const isSuggested = acting && card === suggestion;
      const lift = isPlayed || isSuggested ? Math.min(6, (row.h - L.cardH) / 2 - 1) : 0;
      drawCard(ctx, card, x, cy - lift, L.cardW, L.cardH, {
        faceUp: true,
        glow: isPlayed ? GOLD : isSuggested ? BLUE : null,
        glowWidth: 3,
      });
      drawn.rows.push({ seat, card, x, y: cy - lift, w: L.cardW, h: L.cardH, played: isPlayed, suggested: isSuggested });
    });
    if (step.kind === "bid" && acting) {
      const bx = row.x + L.labelW + Math.max(0, cards.length - 1) * gap + L.cardW + 10;
      const text = t("review.bids_tag", { n: step.value });
      ctx.font = `700 ${size}px ${SANS}`;
      const tw = ctx.measureText(text).width + 14;
      if (bx + tw < row.x + row.w) {
        ctx.fillStyle = GOLD;
        ctx.fillRect(bx, row.y + row.h / 2 - size, tw, size * 2);
        ctx.fillStyle = "#1b1400";
        ctx.textBaseline = "middle";
        ctx.fillText(text, bx + 7, row.y + row.h / 2);
        ctx.textBaseline = "top";
      }
    }
  });
  drawTrick(ctx, L, C, timeline, step, names, round, drawn);
  return drawn;
}

function drawTrick(ctx, L, C, timeline, step, names, round, drawn) {
  const box = L.trick;
  ctx.strokeStyle = C.line;
  ctx.lineWidth = 1;
  ctx.strokeRect(box.x + 0.5, box.y + 0.5, box.w - 1, box.h - 1);
  const size = L.wide ? 14 : 12;
  ctx.fillStyle = C.muted;
  ctx.textBaseline = "top";
  const trick = step.trick;
  const title = trick ? t("review.trick_title", { n: trick.number, count: round.hand_size }) : t("review.bidding_title");
  ctx.fillText(fit(ctx, title, box.w - 16, size, 600), box.x + 8, box.y + 6);
  // the trump card, small, at the start
  const n = timeline.players;
  const inner = { x: box.x + 8, y: box.y + 10 + size * 1.4, w: box.w - 16, h: box.h - 18 - size * 2.8 };
  const slots = n + 1; // the trump card, then one place per card of the trick
  const GAP = 8;
  const cap = L.cardW * (L.wide ? 0.9 : 1.1);
  // one row in play order, or two columns when the box is narrow and tall: the larger cards
  const sizeFor = (cols, labelH) => {
    const rows = Math.ceil(slots / cols);
    const byWidth = (inner.w - (cols - 1) * GAP - 6) / cols;
    const byHeight = ((inner.h - rows * labelH - (rows - 1) * 4) / rows) / 1.43;
    return Math.max(14, Math.min(cap, byWidth, byHeight));
  };
  // A name wider than its card ("★ Bandersnatch" under a phone's small cards): the names
  // under a row of cards take two lines, each name under its card and the next one's place.
  ctx.font = `700 ${size - 1}px ${SANS}`;
  const widest = Math.max(...names.slice(0, n).map((name) => ctx.measureText(`★ ${name}`).width));
  let labelH = size * 1.5;
  let cols = sizeFor(2, labelH) > sizeFor(slots, labelH) * 1.15 ? 2 : slots;
  const stagger = cols === slots && widest > sizeFor(slots, labelH) + GAP - 3;
  if (stagger) {
    labelH = size * 2.8;
    cols = sizeFor(2, labelH) > sizeFor(slots, labelH) * 1.15 ? 2 : slots;
  }
  const cw = sizeFor(cols, labelH);
  const ch = cw * 1.43;
  const rowsUsed = Math.ceil(slots / cols);
  const blockH = rowsUsed * (ch + labelH) + (rowsUsed - 1) * 4;
  const top = L.wide ? inner.y + Math.max(0, (inner.h - blockH) / 3) : inner.y;
  // two columns share the box's width: each name has its column's
  const pitch = cols === slots ? cw + GAP : Math.max(cw + GAP, inner.w / cols);
  const place = (k) => ({
    x: inner.x + (k % cols) * pitch + (k > 0 && cols === slots ? 6 : 0),
    y: top + Math.floor(k / cols) * (ch + labelH + 4),
  });
  const twoLines = stagger && cols === slots;
  const labelW = twoLines ? 2 * pitch - 6 : pitch - 3;
  const labelY = (k, p) => p.y + ch + 3 + (twoLines && k % 2 ? size * 1.3 : 0);
  const p0 = place(0);
  drawCard(ctx, round.trump_card, p0.x, p0.y, cw, ch, { faceUp: true });
  ctx.fillStyle = C.muted;
  ctx.fillText(fit(ctx, t("table.trump"), labelW, size - 1, 600), p0.x, labelY(0, p0));
  if (!trick) return;
  trick.cards.forEach((card, k) => {
    const seat = (trick.leader + k) % n;
    const p = place(k + 1);
    const last = k === trick.cards.length - 1 && step.kind === "card";
    const won = trick.winner === seat;
    drawCard(ctx, card, p.x, p.y, cw, ch, { faceUp: true, glow: won ? GOLD : last ? "#ffffff" : null, glowWidth: won ? 4 : 2 });
    ctx.fillStyle = won ? C.win : C.text; // each theme's gold: the dark one's does not read on the light felt
    const label = won ? `★ ${names[seat]}` : k === 0 ? `▸ ${names[seat]}` : names[seat];
    ctx.fillText(fit(ctx, label, labelW, size - 1, won ? 700 : 500), p.x, labelY(k + 1, p));
    drawn.trick.push({ seat, card, won });
  });
}

