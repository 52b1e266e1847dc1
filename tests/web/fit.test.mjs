// Text on the table's canvas fits its box: a smaller font first, down to a floor, and only
// then cut with "…" (the seat badges' counts must not lose their numbers to an ellipsis).

import { test } from "node:test";
import assert from "node:assert/strict";
import { fitSized } from "../../web/js/render.js";

/** A canvas context whose text is half as wide as its font size per character. */
function fakeContext() {
  return {
    font: "",
    measureText(s) {
      const px = Number(/(\d+)px/.exec(this.font)[1]);
      return { width: [...s].length * px * 0.5 };
    },
  };
}

test("text that fits keeps its size and is not cut", () => {
  const ctx = fakeContext();
  assert.deepEqual(fitSized(ctx, "bid 1 · took 0", 100, 12, 500, 10), { str: "bid 1 · took 0", size: 12, cut: false });
});

test("a smaller font is tried before anything is cut", () => {
  const ctx = fakeContext();
  // 13 characters: 78 px at 12 px, 71.5 at 11, 65 at 10
  assert.deepEqual(fitSized(ctx, "bid 1 · took 0", 70, 12, 500, 10), { str: "bid 1 · took 0", size: 10, cut: false });
  assert.ok(ctx.font.startsWith("500 10px "), ctx.font); // left set for the caller's drawing
});

test("below the floor the text is cut with an ellipsis, and says so", () => {
  const ctx = fakeContext();
  const out = fitSized(ctx, "bid 1 · took 0", 50, 12, 500, 10);
  assert.equal(out.size, 10);
  assert.equal(out.cut, true);
  assert.ok(out.str.endsWith("…") && ctx.measureText(out.str).width <= 50, out.str);
});

test("without a floor (the default) the size stays and only cutting fits it", () => {
  const ctx = fakeContext();
  const out = fitSized(ctx, "bid 1 · took 0", 70, 12);
  assert.equal(out.size, 12);
  assert.equal(out.cut, true);
});
