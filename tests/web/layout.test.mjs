// The table's geometry on phones (both ways up) and desktops, 3 to 5 players, 1 to 9
// cards: everything inside the screen, no trick card over another or over a badge, a few
// cards side by side, tags off the cards' corners.

import { test } from "node:test";
import assert from "node:assert/strict";
import { computeLayout, shapeOf, tagBox, indexHeight, LABEL_WIDE, tipSpot, tipObstacles, claimSpot, markAt } from "../../web/js/layout.js";

const SCREENS = [[320, 568], [360, 740], [390, 844], [430, 932], [568, 320], [667, 375], [844, 390], [932, 430],
  [1024, 768], [1280, 800], [1920, 1080]];
const LABEL_MIN = 175; // px: the least room the winner's words get ("Bandersnatch wins" at 14 px bold needs ~150)
const CARDS = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC"];

function view(players, n) {
  return { players, hand: CARDS.slice(0, n) };
}

const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (r, w, h) => r.x >= 0 && r.y >= 0 && r.x + r.w <= w && r.y + r.h <= h;

function each(fn) {
  for (const [w, h] of SCREENS) for (const players of [3, 4, 5]) for (let n = 1; n <= 9; n++) fn(w, h, players, n, computeLayout(w, h, view(players, n)));
}

test("the shapes: phones upright are narrow, on their side short, the rest wide", () => {
  assert.equal(shapeOf(390, 844), "narrow");
  assert.equal(shapeOf(844, 390), "short");
  assert.equal(shapeOf(1280, 800), "wide");
});

test("the hand fits the screen, and up to three cards sit side by side", () => {
  each((w, h, players, n, L) => {
    for (const slot of L.hand) assert.ok(inside(slot, w, h), `${w}x${h} ${n} cards: a card outside`);
    if (n <= 3 && w >= 360) {
      for (let i = 1; i < n; i++) assert.ok(L.hand[i].x >= L.hand[i - 1].x + L.hand[i - 1].w, `${w}x${h}: ${n} cards overlap`);
    }
    for (const slot of L.hand) assert.ok(slot.hitW > 0 && slot.hitW <= slot.w);
  });
});

test("trick cards overlap neither each other nor a badge, and stay on the screen", () => {
  each((w, h, players, n, L) => {
    const cards = L.trickPos.map((p) => ({ x: p.x, y: p.y, w: L.trickW, h: L.trickH }));
    const badges = L.seats.slice(1).map((s) => ({ x: s.x - s.bw / 2, y: s.y - s.bh / 2, w: s.bw, h: s.bh }));
    for (const c of cards) assert.ok(inside(c, w, h), `${w}x${h} ${players}p: a trick card outside`);
    for (let i = 0; i < cards.length; i++) {
      for (let j = i + 1; j < cards.length; j++) assert.ok(!overlap(cards[i], cards[j]), `${w}x${h} ${players}p: trick cards ${i} and ${j} overlap`);
      for (const b of badges) assert.ok(!overlap(cards[i], b), `${w}x${h} ${players}p: trick card ${i} over a badge`);
    }
    for (let i = 0; i < badges.length; i++) {
      for (let j = i + 1; j < badges.length; j++) assert.ok(!overlap(badges[i], badges[j]), `${w}x${h} ${players}p: badges overlap`);
      assert.ok(badges[i].y >= L.top - 8, `${w}x${h}: a badge under the top bar`);
    }
  });
});

test("the winner's words stay on the screen", () => {
  each((w, h, players, n, L) => {
    assert.ok(inside(tagBox(L.label, L.labelMax, 24), w, h), `${w}x${h} ${players}p: the label is off the screen`);
    // render.js draws the sentence smaller (down to 11 px), then the short words ("Bandersnatch wins")
    assert.ok(L.labelMax >= Math.min(LABEL_MIN, w - 2 * L.margin), `${w}x${h} ${players}p: the label has ${L.labelMax} px`);
    assert.ok(L.labelMax <= LABEL_WIDE);
  });
});

test("the 'led' tag covers no trick card's corners", () => {
  each((w, h, players, n, L) => {
    L.trickPos.forEach((_, i) => {
      const rect = tagBox(L.ledTag[i]);
      assert.ok(inside(rect, w, h), `${w}x${h} ${players}p: tag ${i} outside`);
      L.trickPos.forEach((p, j) => {
        const corner = L.trickW * 0.36;
        const ih = indexHeight(L.trickW);
        const topLeft = { x: p.x, y: p.y, w: corner, h: ih };
        const bottomRight = { x: p.x + L.trickW - corner, y: p.y + L.trickH - ih, w: corner, h: ih };
        assert.ok(!overlap(rect, topLeft) && !overlap(rect, bottomRight), `${w}x${h} ${players}p: tag ${i} over card ${j}'s index`);
      });
    });
  });
});

test("a first-game tip on a phone covers no card, badge, pile or word of the table", () => {
  each((w, h, players, n, L) => {
    const spot = tipSpot(L);
    if (L.shape === "wide") return assert.equal(spot, null);
    if ((w === 390 && h === 844) || (w === 844 && h === 390)) {
      assert.ok(spot && spot.w >= 200 && spot.h >= 70, `${w}x${h} ${players}p ${n}: no room for a tip: ${JSON.stringify(spot)}`);
    }
    if (!spot) return;
    assert.ok(inside(spot, w, h), `${w}x${h}: the tip is off the screen`);
    for (const o of tipObstacles(L)) assert.ok(!overlap(spot, o), `${w}x${h} ${players}p ${n} cards: the tip covers ${JSON.stringify(o)}`);
  });
});

test("the claim button sits beside your hand, over none of its cards or your badge", () => {
  for (const [bw, bh] of [[130, 44], [190, 44]]) {
    each((w, h, players, n, L) => {
      const spot = claimSpot(L, bw, bh);
      const box = { x: spot.x, y: spot.y, w: bw, h: bh };
      assert.ok(inside(box, w, h), `${w}x${h} ${n} cards: the claim button is off the screen`);
      const raise = L.cardH * 0.16;
      for (const c of L.hand) assert.ok(!overlap(box, { x: c.x, y: c.y - raise, w: c.w, h: c.h + raise }), `${w}x${h} ${n}: over a card`);
      const you = L.seats[0];
      assert.ok(!overlap(box, { x: you.x - 150, y: you.y - you.bh / 2, w: 300, h: you.bh }), `${w}x${h} ${n}: over your badge`);
      // claims come late in a round: with up to three cards left it sits level with them
      // where the screen is wide enough, and never far from them
      if (n <= 3 && L.shape !== "narrow") assert.notEqual(spot.side, "above", `${w}x${h} ${n} cards: not beside the hand`);
      const gapY = Math.max(0, L.handY - (box.y + bh));
      assert.ok(gapY <= 90, `${w}x${h} ${n} cards: the claim button is ${gapY}px above the hand`);
    });
  }
});

test("each mark of the table can be pointed at for its explanation", () => {
  for (const [w, h] of [[390, 844], [844, 390], [1280, 800]]) {
    const L = computeLayout(w, h, view(4, 5));
    const s = L.seats[1];
    assert.equal(markAt(L, s.x + s.bw / 2 - 2, s.y - s.bh / 2 + 2), "dealer", `${w}x${h}`);
    assert.equal(markAt(L, s.x + s.bw / 4, s.y + 4), "badge", `${w}x${h}`);
    // a bot's face and its level's dots
    assert.equal(markAt(L, s.face.x + s.face.size / 2, s.face.y + s.face.size + 5), "level", `${w}x${h}`);
    assert.equal(markAt(L, L.trump.x + L.trump.w / 2, L.trump.y + L.trump.h / 2), "trump", `${w}x${h}`);
    const led = tagBox(L.ledTag[2]);
    assert.equal(markAt(L, led.x + led.w / 2, led.y + led.h / 2, 2), "led", `${w}x${h}`);
    assert.notEqual(markAt(L, led.x + led.w / 2, led.y + led.h / 2, null), "led", `${w}x${h}: no led tag shown`);
  }
});

test("on a phone the bots' faces are at least 40 px, inside the screen and clear of the trick", () => {
  each((w, h, players, n, L) => {
    for (const s of L.seats.slice(1)) {
      if (L.shape !== "wide") assert.ok(s.face.size >= (L.narrow ? 40 : 28), `${w}x${h}: a face of ${s.face.size} px`);
      const box = { x: s.face.x, y: s.face.y, w: s.face.size, h: s.face.size + 9 };
      assert.ok(inside(box, w, h), `${w}x${h} ${players}p: a face off the screen`);
      L.trickPos.forEach((p) => assert.ok(!overlap(box, { x: p.x, y: p.y, w: L.trickW, h: L.trickH }), `${w}x${h} ${players}p: a face under a trick card`));
    }
  });
});

test("the winner's words and why (two lines) cover no trick card", () => {
  each((w, h, players, n, L) => {
    const words = tagBox(L.label, L.labelMax, 50);
    L.trickPos.forEach((p, i) => {
      assert.ok(!overlap(words, { x: p.x, y: p.y, w: L.trickW, h: L.trickH }), `${w}x${h} ${players}p: the words cover trick card ${i}`);
    });
  });
});

test("a bid's bubble stays on the screen, off every badge", () => {
  each((w, h, players, n, L) => {
    L.bubbles.forEach((at, i) => {
      // "Ansage 12" and its padding (16 px, phones 13 px); where the room is less (`maxW`,
      // beside a face on a phone upright), the shorter words or a smaller font
      const bw = Math.min(L.shape === "wide" ? 90 : 66, at.maxW ?? Infinity);
      if (at.maxW !== undefined) assert.ok(at.maxW >= 24, `${w}x${h} ${players}p: ${at.maxW} px for bubble ${i}`);
      const box = { x: at.align === "right" ? at.x - bw : at.align === "left" ? at.x : at.x - bw / 2, y: at.y - at.h / 2, w: bw, h: at.h };
      assert.ok(inside(box, w, h), `${w}x${h} ${players}p: bubble ${i} off the screen`);
      for (const s of L.seats.slice(1)) assert.ok(!overlap(box, { x: s.x - s.bw / 2, y: s.y - s.bh / 2, w: s.bw, h: s.bh }), `${w}x${h} ${players}p: bubble ${i} over a badge`);
    });
  });
});
