// Where everything goes on the table for a viewport and a view: pure arithmetic, no
// drawing and no DOM (unit-tested with node --test: nothing overlaps, everything fits).
//
// Three shapes:
// - wide (desktops, tablets): the opponents around an oval, the trick in the middle;
// - narrow (phones upright, w < 640): the opponents in a row at the top with their card
//   backs under them, their trick cards under those, yours above your badge;
// - short (phones on their side: h < 560 and wider than tall): the opponents in a row, no
//   card backs, their trick cards under their badges, yours above your badge (beside the
//   middle opponent's when there is one); the bid panel docks right.

/** Heights of the top bar (CSS: .topbar), by shape. */
export const TOP_BAR = { wide: 58, narrow: 84, short: 58 };
/** Seat badges (CSS px), by shape. */
export const BADGE = { wide: { w: 150, h: 58 }, narrow: { w: 150, h: 54 }, short: { w: 160, h: 54 } };

/** Seat directions (degrees, 0 = right, 90 = up) for the opponents, in play order. */
function opponentAngles(k) {
  if (k === 2) return [150, 30];
  if (k === 3) return [170, 90, 10];
  return [172, 120, 60, 8];
}

export function shapeOf(w, h) {
  if (h < 560 && w > h) return "short";
  return w < 640 ? "narrow" : "wide";
}

/** Everything's position for a viewport of w x h CSS pixels and a view. */
export function computeLayout(w, h, view) {
  const players = view ? view.players : 4;
  const shape = shapeOf(w, h);
  const narrow = shape === "narrow";
  const short = shape === "short";
  const handN = view ? Math.max(view.hand.length, 1) : 9;
  const bar = TOP_BAR[shape];
  let cardW = Math.round(Math.min(w / (narrow ? 5.4 : 9.5), (h - bar) * 0.13, 104));
  cardW = Math.max(cardW, h < 380 ? 44 : 50);
  const cardH = Math.round(cardW * 1.4);
  const margin = narrow ? 10 : 24;
  const handY = h - cardH - (narrow ? 14 : short ? 12 : 22);
  // A few cards sit side by side with a small gap; more are fanned to fit.
  const maxHandW = Math.min(w - 2 * margin, cardW * 9.5);
  const step = handN > 1 ? Math.min(cardW * 1.06, (maxHandW - cardW) / (handN - 1)) : 0;
  const handW = cardW + step * (handN - 1);
  const handX = (w - handW) / 2;
  const hand = [];
  if (view) {
    view.hand.forEach((card, i) => {
      hand.push({ card, x: handX + i * step, y: handY, w: cardW, h: cardH, hitW: i === handN - 1 ? cardW : Math.min(step, cardW) });
    });
  }
  const trickW = Math.round(cardW * (narrow ? 0.82 : 0.86));
  const trickH = Math.round(trickW * 1.4);
  const top = bar + (narrow ? 8 : 6);
  const badge = short && h < 380 ? { w: BADGE.short.w, h: 46 } : BADGE[shape];
  const humanBadgeY = handY - (narrow || short ? 30 : 40);
  const cx = w / 2;
  const seats = [{ x: cx, y: humanBadgeY, dir: { x: 0, y: 1 }, human: true, bw: 0, bh: narrow ? 26 : 30 }];
  const k = players - 1;
  let cy;
  const trickPos = [];
  const ledTag = [];
  let label;
  let labelMax; // the room the winner's words have there (at most LABEL_WIDE)
  let middle; // the free band between the opponents' trick cards and yours (phones)
  if (narrow || short) {
    const cell = Math.min((w - 2 * margin) / k, 220);
    const x0 = cx - (cell * k) / 2;
    const seatY = top + badge.h / 2;
    const backsH = narrow ? Math.round(cardW * 0.34 * 1.4) : 0;
    // under an opponent's badge on a phone upright: its face (FACE_NARROW) and card backs
    const under = narrow ? Math.max(backsH, FACE_NARROW + 8) + 12 : 8;
    const rowBottom = seatY + badge.h / 2 + under; // the opponents' row ends here
    for (let i = 0; i < k; i++) {
      const x = x0 + cell * (i + 0.5);
      seats.push({ x, y: seatY, dir: { x: 0, y: -1 }, cell, bw: Math.min(cell, badge.w) - 8, bh: badge.h });
    }
    // The trick gathered in the middle of the free band between the opponents' row and
    // your badge: on a phone upright the winner's words go under it (room kept for them),
    // on its side beside it.
    const bandBottom = humanBadgeY - seats[0].bh / 2 - 8 - (narrow ? LABEL_ROOM : 0);
    const room = bandBottom - rowBottom;
    const lift = Math.max(0, Math.min(0.56, (room / trickH - 1) / 2));
    cy = rowBottom + room / 2;
    let mx = cx;
    if (short) {
      // on its side the words go at the trick's right: it moves left when they need room
      const half = clusterBox(trickCluster(k, trickW, trickH, cx, cy, lift), trickW, trickH).w / 2;
      mx = Math.max(margin + trickW * 1.6 + half, Math.min(cx, w - margin - LABEL_MAX - 14 - half));
    }
    trickPos.push(...trickCluster(k, trickW, trickH, mx, cy, lift));
    const bounds = clusterBox(trickPos, trickW, trickH);
    for (let i = 0; i <= k; i++) {
      const p = trickPos[i];
      const near = [{ x: p.x + trickW / 2, y: i === 0 ? p.y + trickH + 12 : p.y - 12, align: "center" }];
      const sides = [{ x: p.x - 6, y: p.y + trickH / 2, align: "right" }, { x: p.x + trickW + 6, y: p.y + trickH / 2, align: "left" }];
      ledTag.push(placeTag([...near, ...(p.x + trickW / 2 < mx ? sides : sides.reverse()), { x: p.x + trickW / 2, y: p.y + trickH / 2, align: "center" }], trickPos, trickW, trickH, w, h));
    }
    if (narrow) {
      label = { x: cx, y: bounds.y + bounds.h + LABEL_ROOM / 2, align: "center" };
    } else {
      const right = bounds.x + bounds.w + 14;
      label = w - margin - right >= bounds.x - 14 - margin
        ? { x: right, y: cy, align: "left" } : { x: bounds.x - 14, y: cy, align: "right" };
    }
    labelMax = label.align === "left" ? w - margin - label.x : label.align === "right" ? label.x - margin : w - 2 * margin;
    middle = { top: rowBottom, bottom: bounds.y - 8 };
  } else {
    const centreTop = top + 60;
    const centreBottom = humanBadgeY - 24;
    cy = (centreTop + centreBottom) / 2;
    const rx = w / 2 - Math.max(120, w * 0.12);
    const ry = (cy - top) - 52;
    opponentAngles(k).forEach((a) => {
      const r = (a * Math.PI) / 180;
      const x = cx + rx * Math.cos(r);
      const y = cy - ry * Math.sin(r) - (Math.abs(Math.cos(r)) > 0.9 ? 10 : 0);
      seats.push({ x, y, dir: norm(Math.cos(r), -Math.sin(r)), cell: 170, bw: badge.w, bh: badge.h });
    });
    seats.forEach((s, i) => {
      const rot = ((i * 37) % 11 - 5) * 0.012;
      if (players === 5 && i > 0) {
        // five cards around the middle would overlap: the opponents' four in a row above
        const col = [-1.62, -0.54, 0.54, 1.62][i - 1];
        trickPos.push({ x: cx + col * trickW - trickW / 2, y: cy - trickH * 0.62 - trickH / 2, rot });
      } else if (players === 5) {
        trickPos.push({ x: cx - trickW / 2, y: cy + trickH * 0.62 - trickH / 2, rot });
      } else {
        trickPos.push({ x: cx + s.dir.x * trickW * 1.6 - trickW / 2, y: cy + s.dir.y * trickH * 0.72 - trickH / 2, rot });
      }
    });
    trickPos.forEach((p, i) => {
      const above = { x: p.x + trickW / 2, y: p.y - 13, align: "center" };
      const below = { x: p.x + trickW / 2, y: p.y + trickH + 13, align: "center" };
      const sides = [{ x: p.x - 6, y: p.y + trickH / 2, align: "right" }, { x: p.x + trickW + 6, y: p.y + trickH / 2, align: "left" }];
      const centre = { x: p.x + trickW / 2, y: p.y + trickH / 2, align: "center" };
      ledTag.push(placeTag(i === 0 ? [below, above, ...sides, centre] : [above, below, ...sides, centre], trickPos, trickW, trickH, w, h));
    });
    // the winner's words under the trick (over none of its cards), else in its middle
    const bounds = clusterBox(trickPos, trickW, trickH);
    const below = bounds.y + bounds.h + LABEL_ROOM / 2;
    label = below + LABEL_ROOM / 2 <= humanBadgeY - seats[0].bh / 2 - 4
      ? { x: cx, y: below, align: "center" }
      : { x: cx, y: players === 5 ? cy : cy + (players === 3 ? trickH * 0.1 : 0), align: "center" };
    labelMax = w - 2 * margin;
    middle = { top: cy - trickH, bottom: cy + trickH };
  }
  let trump = { x: margin + 20, y: humanBadgeY - trickH - 46, w: trickW, h: trickH };
  if (short) trump = { x: margin + 4, y: top + badge.h + 8, w: trickW * 0.9, h: trickH * 0.9 };
  else if (narrow) trump = { x: margin + 4, y: humanBadgeY - trickH * 0.9 - 54, w: trickW * 0.9, h: trickH * 0.9 };
  // a bot's face (its level's dots under it): under its badge's left end on a phone
  // upright (the badges are too narrow to share), else inside the badge at its left
  for (const s of seats.slice(1)) {
    const size = narrow ? FACE_NARROW : Math.round(Math.min(s.bh - 16, short ? 30 : 36));
    s.face = narrow ? { x: s.x - s.bw / 2 + 1, y: s.y + s.bh / 2 + 3, size }
      : { x: s.x - s.bw / 2 + 5, y: s.y - s.bh / 2 + (s.bh - size) / 2 - 4, size };
  }
  // a bid's bubble: under an opponent's badge (over its card backs on a phone upright,
  // beside its face: `maxW`, the room there), above yours
  // (on a desktop: above a badge at the side, beside one at the top, toward the middle)
  const bh = shape === "wide" ? BUBBLE.wide : BUBBLE.h;
  const bubbleAt = (s, i) => {
    const above = { x: s.x, y: s.y - s.bh / 2 - bh / 2 - 8, h: bh, align: "center", tail: "down" };
    const below = { x: s.x, y: s.y + s.bh / 2 + bh / 2 + 8, h: bh, align: "center", tail: "up" };
    if (i === 0) return above;
    if (narrow) return { ...below, x: s.face.x + s.face.size + 4, align: "left", maxW: s.x + s.cell / 2 - s.face.x - s.face.size - 6 };
    if (short) return below;
    if (Math.abs(s.dir.x) > 0.9) return above;
    return s.x <= cx + 1 ? { x: s.x + s.bw / 2 + 12, y: s.y, h: bh, align: "left", tail: "left" }
      : { x: s.x - s.bw / 2 - 12, y: s.y, h: bh, align: "right", tail: "right" };
  };
  const bubbles = seats.map(bubbleAt);
  return {
    w, h, shape, narrow, short, cardW, cardH, trickW, trickH, hand, handY, seats, trickPos, ledTag, label, middle, bubbles,
    labelMax: Math.min(LABEL_WIDE, Math.floor(labelMax)),
    cx, cy, trump, top, margin, backW: Math.round(cardW * (narrow ? 0.34 : 0.5)),
  };
}

/** Where a first-game tip may go on a phone: a free box {x, y, w, h} (the tip takes its
 * width and at most its height, scrolling beyond) that covers no trick card, no card of
 * your hand (raised ones too), no badge, the trump pile nor the winner's words; null on
 * desktops (the tip keeps its corner there) and where no such box exists.
 * Upright: the top of the free band between the opponents' trick cards and yours, above
 * the winner's words.  On its side: the left of the table, under the trump pile and the
 * first opponent's trick card, above your hand and left of your badge. */
export function tipSpot(L) {
  if (!L.narrow && !L.short) return null;
  const pad = 8;
  let box = L.narrow
    ? { x: pad, y: Math.round(L.middle.top), w: L.w - 2 * pad, h: Math.round(L.middle.bottom - L.middle.top) }
    : { x: pad, y: L.top, w: Math.min(Math.floor(L.cx - HUMAN_BADGE_MAX / 2) - 2 * pad, 300), h: L.handY - L.top };
  for (let i = 0; i < 12 && box; i++) {
    const hit = tipObstacles(L).find((o) => hits(box, o));
    if (!hit) break;
    // an obstacle in the box's upper half pushes its top down, one in its lower half its bottom up
    const bottom = box.y + box.h;
    box = hit.y + hit.h / 2 < box.y + box.h / 2
      ? { ...box, y: Math.ceil(hit.y + hit.h) + pad, h: bottom - Math.ceil(hit.y + hit.h) - pad }
      : { ...box, h: Math.floor(hit.y) - pad - box.y };
    if (box.h < 56) box = null;
  }
  return box && box.w >= 160 ? box : null;
}

/** Where the claim button (bw x bh) goes: beside your hand, at its right (else its left),
 *  level with its cards, so the offer is where the eye already is; above your badge at
 *  the right when neither side has room. */
export function claimSpot(L, bw, bh) {
  const gap = 10;
  const edge = 6;
  const y = Math.round(L.handY + L.cardH / 2 - bh / 2);
  if (L.hand.length) {
    const last = L.hand[L.hand.length - 1];
    const right = Math.round(last.x + last.w + gap);
    if (right + bw <= L.w - edge) return { x: right, y, side: "right" };
    const left = Math.round(L.hand[0].x - gap - bw);
    if (left >= edge) return { x: left, y, side: "left" };
  }
  const you = L.seats[0];
  return { x: Math.round(L.w - edge - bw), y: Math.round(you.y - you.bh / 2 - 12 - bh), side: "above" };
}

/** Which mark of the table lies at (x, y), for its explanation (a title on hover):
 *  "dealer" (the D on a badge), "led" (the tag by a trick's first card, while it shows),
 *  "level" (a bot's face and the dots of its level),
 *  "trump" (the pile and its words, "broken" included), "badge" (a seat's bid and tricks
 *  won), or null.  `ledShown`: the slot whose card carries the led tag, else null. */
export function markAt(L, x, y, ledShown = null) {
  const inBox = (b) => x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
  for (const s of L.seats.slice(1)) {
    if (Math.hypot(x - (s.x + s.bw / 2 - 2), y - (s.y - s.bh / 2 + 2)) <= 13) return "dealer";
  }
  if (ledShown !== null && L.ledTag[ledShown] && inBox(tagBox(L.ledTag[ledShown]))) return "led";
  // a bot's face and its level's dots (main.js says "badge" for a seat without a face)
  if (faceAt(L, x, y) >= 0) return "level";
  if (inBox({ x: L.trump.x, y: L.trump.y, w: L.trump.w * 1.3, h: L.trump.h + 36 })) return "trump";
  for (const s of L.seats) {
    const bw = s.human ? HUMAN_BADGE_MAX : s.bw;
    if (inBox({ x: s.x - bw / 2, y: s.y - s.bh / 2, w: bw + (s.human ? 26 : 0), h: s.bh })) return s.human && x > s.x + bw / 2 ? "dealer" : "badge";
  }
  return null;
}

/** The slot whose face (with its level's dots under it) lies at (x, y), else -1 (only
 *  bots' seats have a face). */
export function faceAt(L, x, y) {
  return L.seats.findIndex((s) => s.face && x >= s.face.x && x <= s.face.x + s.face.size && y >= s.face.y && y <= s.face.y + s.face.size + 9);
}

/** What a tip must not cover (see tipSpot). */
export function tipObstacles(L) {
  const raise = L.cardH * 0.12;
  const you = L.seats[0];
  return [
    ...L.trickPos.map((p) => ({ x: p.x, y: p.y, w: L.trickW, h: L.trickH })),
    ...L.ledTag.map((at) => tagBox(at)),
    ...L.seats.slice(1).map((s) => ({ x: s.x - s.bw / 2, y: s.y - s.bh / 2, w: s.bw, h: s.bh + (L.narrow ? L.backW * 1.4 + 6 : 0) })),
    { x: you.x - HUMAN_BADGE_MAX / 2, y: you.y - you.bh / 2, w: HUMAN_BADGE_MAX, h: you.bh },
    ...L.hand.map((c) => ({ x: c.x, y: c.y - raise, w: c.w, h: c.h + raise })),
    { x: L.trump.x, y: L.trump.y, w: L.trump.w * 1.3, h: L.trump.h + 30 }, // the pile and its words
    tagBox(L.label, L.labelMax, L.shape === "short" ? 24 : LABEL_ROOM),
  ];
}

/** The height (px) of a card's corner index: the renderer's cardCorner() (rank, then suit). */
export function indexHeight(cardW) {
  return Math.max(11, Math.round(cardW * 0.23)) * 1.95;
}

/** A tag's box at `at` (the renderer sizes it to its words; this is the most it takes). */
export function tagBox(at, w = TAG.w, h = TAG.h) {
  const x = at.align === "right" ? at.x - w : at.align === "left" ? at.x : at.x - w / 2;
  return { x, y: at.y - h / 2, w, h };
}

export const TAG = { w: 56, h: 20 };
/** A bid's bubble (its height; its width follows its words). */
const BUBBLE = { h: 26, wide: 32 };
/** The room kept for the winner's words at the trick's right on a phone on its side (the
 *  trick moves left to make it). */
const LABEL_MAX = 190;
/** The widest the winner's words are drawn (render.js fits them into the layout's
 *  `labelMax`, the room where they are: up to this).  "Bandersnatch wins the trick" takes
 *  ~215 px at 14 px: 190 cut it at every size. */
export const LABEL_WIDE = 340;
const HUMAN_BADGE_MAX = 300;
/** The height kept for the winner's words and why the trick is theirs (two lines). */
const LABEL_ROOM = 50;
/** An opponent's face under its badge on a phone upright (CSS px). */
const FACE_NARROW = 40;

/** The trick's cards gathered around (cx, cy), each toward its player: slot 0 (yours)
 *  below, the opponents (left to right as their badges sit) left, above and right; a row
 *  above yours for four opponents.  `lift`: how far (in card heights) yours sits below the
 *  middle and the top one above it; under 0.52 there is no room to stack them, and yours
 *  goes beside the top one instead. */
function trickCluster(k, cw, ch, cx, cy, lift) {
  const stacked = lift >= 0.52;
  const at = (ux, uy, i) => ({ x: cx + ux * cw - cw / 2, y: cy + uy * ch - ch / 2, rot: ((i * 37) % 11 - 5) * 0.008 });
  let you = [0, lift];
  let opp;
  if (k === 2) opp = stacked ? [[-0.56, -lift], [0.56, -lift]] : [[-1.06, -lift], [1.06, -lift]];
  else if (k === 3) {
    opp = stacked ? [[-1.06, 0], [0, -lift], [1.06, 0]] : [[-1.6, 0], [-0.53, -lift], [1.6, 0]];
    if (!stacked) you = [0.53, lift];
  } else {
    opp = (stacked ? [-1.62, -0.54, 0.54, 1.62] : [-2.16, -1.08, 1.08, 2.16]).map((ux) => [ux, -lift]);
  }
  return [at(you[0], you[1], 0), ...opp.map(([ux, uy], i) => at(ux, uy, i + 1))];
}

/** The box around the trick's cards. */
export function clusterBox(cards, cw, ch) {
  const x = Math.min(...cards.map((p) => p.x));
  const y = Math.min(...cards.map((p) => p.y));
  return { x, y, w: Math.max(...cards.map((p) => p.x)) + cw - x, h: Math.max(...cards.map((p) => p.y)) + ch - y };
}

const hits = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** The first of `candidates` whose tag stays on the screen and off every card's corners. */
function placeTag(candidates, cards, cw, ch, w, h) {
  const ih = indexHeight(cw);
  const corners = cards.flatMap((p) => [
    { x: p.x, y: p.y, w: cw * 0.36, h: ih }, { x: p.x + cw * 0.64, y: p.y + ch - ih, w: cw * 0.36, h: ih }]);
  const fits = (at) => {
    const box = tagBox(at);
    return box.x >= 0 && box.y >= 0 && box.x + box.w <= w && box.y + box.h <= h && !corners.some((c) => hits(box, c));
  };
  return candidates.find(fits) ?? candidates[candidates.length - 1];
}

function norm(x, y) {
  const l = Math.hypot(x, y) || 1;
  return { x: x / l, y: y / l };
}
