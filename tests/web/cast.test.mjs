// The cast (web/js/cast.js): a creature of the poem for every bot seat, each with a name in
// every language and a portrait of its own; every level the engine offers shows as pips.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CAST, PORTRAITS, creatureOf, pipsOf, MAX_PIPS } from "../../web/js/cast.js";
import { ROOT, engineInfo } from "./engine-info.mjs";

const catalogue = (lang) => JSON.parse(readFileSync(path.join(ROOT, `web/i18n/${lang}.json`), "utf8"));

test("the four bot seats of a five-player table are four different creatures", () => {
  const seats = [1, 2, 3, 4].map(creatureOf);
  assert.equal(new Set(seats).size, 4);
  for (const c of seats) assert.ok(CAST.includes(c));
});

test("every creature has a name in every language, and not the same one twice", () => {
  for (const lang of ["en", "de", "cs", "ko"]) {
    const cat = catalogue(lang);
    const names = CAST.map((c) => cat[`cast.${c}`]);
    for (const [i, n] of names.entries()) assert.ok(typeof n === "string" && n.length > 1 && n.length <= 14, `${lang}: cast.${CAST[i]}`);
    assert.equal(new Set(names).size, names.length, `${lang}: two creatures share a name`);
    assert.ok(!names.some((n) => /bot/i.test(n)), `${lang}: a creature is still called a bot`);
  }
});

test("every creature has its own portrait: an SVG of our drawing, nothing fetched", () => {
  const seen = new Set();
  for (const c of CAST) {
    const svg = PORTRAITS[c];
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32">.*<\/svg>$/s, c);
    assert.doesNotMatch(svg, /href|url\(|<script|<image/i, `${c}: the portrait refers to nothing outside`);
    assert.ok(!seen.has(svg), `${c}: the same portrait twice`);
    seen.add(svg);
  }
});

test("every level the engine offers shows its pips, one to five, harder more", () => {
  const { levels } = engineInfo().levels;
  for (const level of levels) assert.ok(pipsOf(level) >= 1 && pipsOf(level) <= MAX_PIPS, level);
  assert.ok(pipsOf("random") < pipsOf("easy") && pipsOf("easy") < pipsOf("medium") && pipsOf("medium") < pipsOf("hard"));
  assert.equal(pipsOf("some-named-bot"), 0);
});
