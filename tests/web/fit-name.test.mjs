// A seat's name on its badge: bold while it fits, then the regular weight, and only then
// cut ("Banderschnatz" at five seats on a 360 px phone was cut to "Banderschna…").

import { test } from "node:test";
import assert from "node:assert/strict";
import { fitName } from "../../web/js/render.js";

/** A canvas context whose bold text is 0.6 of its font size per character, regular 0.5. */
function fakeContext() {
  return {
    font: "",
    measureText(s) {
      const [, weight, px] = /^(\d+) (\d+)px/.exec(this.font);
      return { width: [...s].length * Number(px) * (Number(weight) >= 600 ? 0.6 : 0.5) };
    },
  };
}

test("a name that fits in bold stays bold", () => {
  assert.deepEqual(fitName(fakeContext(), "Tove", 100, 13), { str: "Tove", size: 13, cut: false, weight: 700 });
});

test("a name too wide in bold at 9 px is set in the regular weight before it is cut", () => {
  // 13 characters: 70.2 px bold at 9 px; regular, 65 px at 10 px
  assert.deepEqual(fitName(fakeContext(), "Banderschnatz", 65, 13), { str: "Banderschnatz", size: 10, cut: false, weight: 500 });
});

test("a name too wide in both weights is cut, in the regular weight", () => {
  const name = fitName(fakeContext(), "Banderschnatz", 40, 13);
  assert.equal(name.cut, true);
  assert.equal(name.weight, 500);
  assert.ok(name.str.endsWith("…"));
});
