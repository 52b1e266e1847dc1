// The game over chart (issue 30): when two players' totals are equal their lines are drawn
// side by side, never one hidden under the other.

import { test } from "node:test";
import assert from "node:assert/strict";
import { separateTies } from "../../web/js/stats/charts.js";

const line = (...ys) => ys.map((y, i) => (y === null ? null : { x: i * 10, y }));

test("equal points are pulled apart, centred on the true height", () => {
  const [a, b, c] = separateTies([line(50, 40, 30), line(50, 40, 20), line(60, 40, 10)], 3);
  assert.deepEqual(a.map((p) => p.y), [48.5, 37, 30]);
  assert.deepEqual(b.map((p) => p.y), [51.5, 40, 20]);
  assert.deepEqual(c.map((p) => p.y), [60, 43, 10]);
  assert.deepEqual(a.map((p) => p.x), [0, 10, 20], "only the height moves");
});

test("two series equal all the way are two distinct lines", () => {
  const [a, b] = separateTies([line(90, 70, 70, 50), line(90, 70, 70, 50)]);
  a.forEach((p, i) => assert.ok(Math.abs(p.y - b[i].y) >= 2, `point ${i} overlaps`));
});

test("gaps stay gaps, lines without ties and the input are left as they are", () => {
  const input = [line(10, null, 30), line(20, 25, null)];
  const copy = JSON.parse(JSON.stringify(input));
  const out = separateTies(input);
  assert.deepEqual(out, copy);
  assert.deepEqual(input, copy);
  const tied = [line(10, 10), line(10, 10)];
  separateTies(tied);
  assert.equal(tied[0][0].y, 10, "the input is not changed");
});
