// The table's pauses (issue 30): a finished trick shows longer the more cards it holds,
// comfortably at normal speed, and reduced motion keeps the beat before a bot's move
// (no flying, but the turns stay readable one by one); only "instant" drops the pauses.

import { test } from "node:test";
import assert from "node:assert/strict";
import { SPEEDS, TIMING, botPauseMs, holdMs, readableMs, speedFactor } from "../../web/js/timing.js";

test("a finished trick stays longer the more cards it holds, at every speed", () => {
  for (const speed of ["slow", "normal", "fast"]) {
    const f = SPEEDS[speed];
    for (let cards = 3; cards < 5; cards++) assert.ok(holdMs(cards + 1, f) >= holdMs(cards, f), speed);
  }
  assert.ok(holdMs(5, 1) > holdMs(3, 1));
  assert.ok(holdMs(4, 1) >= 1500, `a 4-card trick shows ${holdMs(4, 1)} ms at normal speed`);
  assert.ok(holdMs(5, 1) >= 1700, `a 5-card trick shows ${holdMs(5, 1)} ms at normal speed`);
  assert.ok(holdMs(5, SPEEDS.slow) > holdMs(5, 1) && holdMs(5, SPEEDS.fast) < holdMs(5, 1));
  assert.ok(holdMs(3, SPEEDS.fast) >= 600, "never a blink");
});

test("without motion a trick is still held a readable while, longer for more cards", () => {
  assert.ok(readableMs(3) >= TIMING.readable);
  assert.ok(readableMs(5) > readableMs(3));
});

test("reduced motion removes the flying, not the beat before a bot's move", () => {
  assert.equal(speedFactor("normal", true), 0, "nothing flies");
  for (const speed of ["slow", "normal", "fast"]) {
    assert.ok(botPauseMs(speed, true) >= botPauseMs(speed, false), speed);
    assert.ok(botPauseMs(speed, true) >= 200, speed);
  }
  assert.equal(botPauseMs("instant", true), 0);
  assert.equal(botPauseMs("instant", false), 0);
  assert.ok(botPauseMs("slow", true) > botPauseMs("fast", true), "the speed setting still counts");
});
