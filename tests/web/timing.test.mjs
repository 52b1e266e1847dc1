// The table's pauses (issue 30): reduced motion keeps the beat before a bot's move (no
// flying, but the turns stay readable one by one); only "instant" drops the pauses.

import { test } from "node:test";
import assert from "node:assert/strict";
import { botPauseMs, speedFactor } from "../../web/js/timing.js";

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
