// How long the person to act at an online table has been thinking (web/js/online/thinking.js):
// when a turn starts on each page, the host's word for a page that comes in mid-turn, the
// turn clock's time left, and where the figure goes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { TurnTimer, thinkingNow, thinkingSeat, clockRuns, clockText, thinkingSpot } from "../../web/js/online/thinking.js";

const view = (fields = {}) => ({
  phase: "playing", to_act: 1, step: 7, players: 3, viewer: 0, seats: ["human", "human", "medium"],
  remote: [1], stand_ins: {}, ...fields,
});

test("the figure is minutes and seconds", () => {
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(7.9), "0:07");
  assert.equal(clockText(65), "1:05");
  assert.equal(clockText(3700), "61:40");
  assert.equal(clockText(-3), "0:00");
});

test("only a person's turn is timed: not a bot's, nor one a bot stands in for, nor between rounds", () => {
  assert.equal(thinkingSeat(view()), 1);
  assert.equal(thinkingSeat(view({ to_act: 2 })), null, "a bot");
  assert.equal(thinkingSeat(view({ stand_ins: { 1: "medium" } })), null, "a bot stands in");
  assert.equal(thinkingSeat(view({ phase: "round-over" })), null);
  assert.equal(thinkingSeat(null), null);
});

test("a turn starts when the page's table has settled on it, and restarts with each move", () => {
  const timer = new TurnTimer();
  timer.see(view(), 1000, false); // the move is still being shown
  assert.equal(timer.elapsed(7, 1500), null);
  timer.see(view(), 2000, true);
  assert.equal(timer.elapsed(7, 14500), 12500);
  timer.see(view(), 9000, true); // the same turn, seen again: it runs on
  assert.equal(thinkingNow(view(), 0, 14500, timer).seconds, 12);
  timer.see(view({ step: 8, to_act: 0 }), 15000, true); // the next move: a new turn
  assert.equal(timer.elapsed(8, 15999), 999);
  assert.equal(timer.elapsed(7, 15999), null);
  timer.see(view({ phase: "round-over", to_act: null }), 16000, true);
  assert.equal(timer.elapsed(8, 16000), null);
});

test("a page that comes in mid-turn takes the host's figure (its clock need not agree)", () => {
  const timer = new TurnTimer();
  timer.see(view({ step: 3 }), 100, true); // what the page showed before the sync
  assert.ok(timer.heard(7, 41000, 500));
  timer.see(view(), 800, true); // the sync's view, shown a moment later
  assert.equal(thinkingNow(view(), 0, 1500, timer).seconds, 42);
  assert.equal(timer.heard(7, -5, 0), false);
  assert.equal(timer.heard(7, "12", 0), false);
  assert.equal(timer.heard(null, 12, 0), false);
  assert.equal(timer.heard(7, 1e12, 0), false);
});

test("with the turn clock on, a friend's seat shows the time left; the host's own is not timed", () => {
  const timer = new TurnTimer();
  timer.see(view(), 0, true);
  assert.deepEqual(thinkingNow(view(), 30, 12400, timer), { seat: 1, seconds: 12, left: 18 });
  assert.deepEqual(thinkingNow(view(), 30, 45000, timer), { seat: 1, seconds: 45, left: 0 });
  assert.equal(clockRuns(view(), 1, 0), false, "no clock");
  assert.equal(clockRuns(view({ to_act: 0 }), 0, 30), false, "the host at its own device");
  const host = view({ to_act: 0, step: 9 });
  timer.see(host, 0, true);
  assert.deepEqual(thinkingNow(host, 30, 5000, timer), { seat: 0, seconds: 5, left: null });
});

test("the figure goes under an opponent's badge, and left of the bottom badge", () => {
  const L = { seats: [{ x: 640, y: 600, bh: 30, w: 260 }, { x: 160, y: 300, bw: 142, bh: 58 }] };
  assert.deepEqual(thinkingSpot(L, 1), { x: 160 + 71 - 6, y: 326, side: "below" });
  assert.deepEqual(thinkingSpot(L, 0, 60), { x: 640 - 130 - 6, y: 600, side: "left" });
  // a phone upright: no room left of a wide badge, so under its left end
  const phone = { seats: [{ x: 195, y: 700, bh: 26, w: 236 }] };
  assert.deepEqual(thinkingSpot(phone, 0, 70), { x: 195 - 118 + 8, y: 700 + 13 + 3, side: "right" });
  assert.equal(thinkingSpot(L, 3), null);
});
