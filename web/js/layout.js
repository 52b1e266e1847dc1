// Where everything goes on the table for a viewport and a view: pure arithmetic, no
// drawing and no DOM (unit-tested with node --test).

const TOP_WIDE = 58;
const TOP_NARROW = 88;

/** Seat directions (degrees, 0 = right, 90 = up) for the opponents, in play order. */
function opponentAngles(k) {
  if (k === 2) return [150, 30];
  if (k === 3) return [170, 90, 10];
  return [172, 120, 60, 8];
}

/** Everything's position for a viewport of w x h CSS pixels and a view. */
export function computeLayout(w, h, view) {
  const players = view ? view.players : 4;
  const narrow = w < 640;
  const short = !narrow && h < 560; // landscape phones: opponents in a row, no card backs
  const handN = view ? Math.max(view.hand.length, 1) : 9;
  const TOP_BAR = narrow ? TOP_NARROW : TOP_WIDE;
  let cardW = Math.round(Math.min(w / (narrow ? 5.4 : 9.5), (h - TOP_BAR) * 0.13, 104));
  cardW = Math.max(cardW, 50);
  const cardH = Math.round(cardW * 1.4);
  const margin = narrow ? 10 : 24;
  const handY = h - cardH - (narrow ? 14 : 22);
  const maxHandW = Math.min(w - 2 * margin, cardW * 9);
  const step = handN > 1 ? Math.min(cardW * 0.92, (maxHandW - cardW) / (handN - 1)) : 0;
  const handW = cardW + step * (handN - 1);
  const handX = (w - handW) / 2;
  const hand = [];
  if (view) {
    view.hand.forEach((card, i) => {
      hand.push({ card, x: handX + i * step, y: handY, w: cardW, h: cardH, hitW: i === handN - 1 ? cardW : step });
    });
  }
  const trickW = Math.round(cardW * (narrow ? 0.82 : 0.86));
  const trickH = Math.round(trickW * 1.4);
  const top = TOP_BAR + (narrow ? 8 : 12);
  const humanBadgeY = handY - (narrow || short ? 30 : 40);
  const centreTop = top + (narrow ? 120 : short ? 58 : 60);
  const centreBottom = humanBadgeY - (narrow ? 20 : 24);
  const cx = w / 2;
  const cy = (centreTop + centreBottom) / 2 + (narrow ? 6 : 0);
  const seats = [{ x: cx, y: humanBadgeY, dir: { x: 0, y: 1 }, human: true }];
  const k = players - 1;
  if (narrow || short) {
    const cell = Math.min((w - 2 * margin) / k, 200);
    const x0 = cx - (cell * k) / 2;
    for (let i = 0; i < k; i++) {
      const x = x0 + cell * (i + 0.5);
      seats.push({ x, y: top + (short ? 26 : 58), dir: norm(x - cx, top - cy), cell });
    }
  } else {
    const rx = w / 2 - Math.max(120, w * 0.12);
    const ry = (cy - top) - 52;
    opponentAngles(k).forEach((a) => {
      const r = (a * Math.PI) / 180;
      const x = cx + rx * Math.cos(r);
      const y = cy - ry * Math.sin(r) - (Math.abs(Math.cos(r)) > 0.9 ? 10 : 0);
      seats.push({ x, y, dir: norm(Math.cos(r), -Math.sin(r)), cell: 170 });
    });
  }
  // The trick: each card toward its player's side, far enough apart that every card's
  // corner (rank and suit) stays visible, so you can tell who played what.
  const trickPos = seats.map((s, i) => {
    const rot = ((i * 37) % 11 - 5) * 0.012;
    if (narrow || short) {
      // Phones: the opponents' cards in a row, each under its player's badge; yours below.
      if (i === 0) return { x: cx - trickW / 2, y: cy - trickH * (short ? 0.2 : 0.05), rot };
      const gap = Math.min(s.cell || trickW, trickW * 1.9);
      const x = cx + ((s.x - cx) / (s.cell || gap)) * Math.max(gap, trickW + 4);
      return { x: x - trickW / 2, y: cy - trickH * (short ? 0.85 : 0.95), rot: rot * 0.5 };
    }
    return { x: cx + s.dir.x * trickW * 1.6 - trickW / 2, y: cy + s.dir.y * trickH * 0.72 - trickH / 2, rot };
  });
  let trump = { x: margin + 20, y: humanBadgeY - trickH - 46, w: trickW, h: trickH };
  if (short) trump = { x: margin + 4, y: cy - trickH / 2 - 4, w: trickW * 0.9, h: trickH * 0.9 };
  else if (narrow) trump = { x: margin + 4, y: humanBadgeY - trickH * 0.9 - 54, w: trickW * 0.9, h: trickH * 0.9 };
  return {
    w, h, narrow, cardW, cardH, trickW, trickH, hand, handY, seats, trickPos, cx, cy, trump,
    top, margin, short, backW: Math.round(cardW * (narrow ? 0.34 : 0.5)),
  };
}

function norm(x, y) {
  const l = Math.hypot(x, y) || 1;
  return { x: x / l, y: y / l };
}
