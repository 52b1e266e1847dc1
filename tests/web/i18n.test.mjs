// The page's words: the formatting rules (the engine's template syntax) and the English
// catalogue (web/i18n/en.json plus the engine's src/jabberwocky/locale/en.json).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { format } from "../../web/js/i18n.js";
import { ROOT, engineInfo } from "./engine-info.mjs";

const read = (p) => JSON.parse(readFileSync(path.join(ROOT, p), "utf8"));
const page = read("web/i18n/en.json");
const engine = read("src/jabberwocky/locale/en.json");
const en = { ...engine, ...page };
const say = (key, params = {}, cat = en, lang = "en") => format(cat, key, params, new Intl.PluralRules(lang), new Intl.NumberFormat(lang), lang);

test("parameters, typed words, nested messages, plurals and lists", () => {
  assert.equal(say("move.must_follow", { suit: "H" }), "you must follow hearts");
  assert.equal(say("move.not_held", { card: "TD" }), "you do not hold the ten of diamonds");
  assert.equal(say("record.in_trick", { round: 3, trick: 2, detail: { code: "move.must_follow", params: { suit: "S" } } }),
    "round 3, trick 2: you must follow spades");
  assert.equal(say("move.hook", { bid: 1, tricks: 1 }), "the dealer may not bid 1: the bids would total the 1 trick");
  assert.equal(say("move.hook", { bid: 2, tricks: 6 }), "the dealer may not bid 2: the bids would total the 6 tricks");
  assert.equal(say("round.shared", { names: ["Bot 1", "Bot 2"] }), "Shared win: Bot 1 and Bot 2.");
  // a shared win of yours reads as a sentence, not "Shared win: You and Bot 1 — including you!"
  assert.equal(say("round.shared_with_you", { other_names: ["Bot 1"] }), "You share the win with Bot 1.");
  assert.equal(say("round.shared_with_you", { other_names: ["Bot 1", "Bot 3"] }), "You share the win with Bot 1 and Bot 3.");
  assert.equal(say("round.you_missed", { bid: 2, taken: 0 }), "You missed your bid: you bid 2 and took 0.");
  assert.equal(say("review.bid_differs", { bid: 1, suggestion: 2, chosen_chance: "10%", suggested_chance: "32%" }),
    "Bid 1, with a 10% chance of taking exactly 1; the hard bot would have bid 2, with a 32% chance of taking exactly 2.");
  assert.equal(say("seats.points", { n: 1 }), "1 point");
  assert.equal(say("seats.points", { n: 1000 }), "1,000 points");
  assert.equal(say("no.such.key"), "no.such.key"); // a gap shows itself
  assert.equal(say("move.must_follow", {}), "you must follow {suit}"); // a missing parameter too
});

test("Czech plural categories are chosen by Intl.PluralRules", () => {
  const cat = { n: { plural: "n", one: "{n} karta", few: "{n} karty", many: "{n} karty", other: "{n} karet" } };
  assert.equal(say("n", { n: 1 }, cat, "cs"), "1 karta");
  assert.equal(say("n", { n: 3 }, cat, "cs"), "3 karty");
  assert.equal(say("n", { n: 5 }, cat, "cs"), "5 karet");
});

test("the page's and the engine's English catalogues share no key", () => {
  assert.deepEqual(Object.keys(page).filter((k) => Object.hasOwn(engine, k)), []);
});

const FAMILIES = new Set(Object.keys(page).map((k) => k.split(".")[0]));

/** Every literal catalogue key the page's code asks for. */
function keysUsed() {
  const keys = new Set();
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (/\.(js|html)$/.test(e.name)) files.push(rel);
    }
  };
  walk("web");
  for (const rel of files) {
    const text = readFileSync(path.join(ROOT, rel), "utf8");
    const patterns = [/\bt\(\s*"([a-z0-9_.-]+)"/g, /(?:notice|problem)\(\s*"([a-z0-9_.-]+)"/g,
      /\b(?:key|code): "([a-z0-9_.-]+)"/g, /progress\([^,]+, "([a-z0-9_.-]+)"/g, /data-i18n[a-z-]*="([a-z0-9_.-]+)"/g];
    for (const re of patterns) for (const m of text.matchAll(re)) keys.add(m[1]);
    // Any other string literal of a catalogue family ("round.col_bid" in a list, the two
    // sides of a ternary) counts as a key too.
    for (const m of text.matchAll(/"([a-z_]+)\.([a-z0-9_.-]+)"/g)) if (FAMILIES.has(m[1])) keys.add(`${m[1]}.${m[2]}`);
  }
  // The rule options' words: the page asks for the keys their specifications name (the
  // engine's rules answer), "{value}" standing for each value's link text.
  for (const option of Object.values(engineInfo().rules.options)) {
    const texts = option.link_values ?? (option.values || []).map(String);
    for (const template of [option.words.label, option.words.value, option.words.short]) {
      if (!template) continue;
      if (template.includes("{value}")) texts.forEach((text) => keys.add(template.replace("{value}", text)));
      else keys.add(template);
    }
  }
  return keys;
}

test("every key the page uses is in the English catalogue", () => {
  const missing = [...keysUsed()].filter((k) => !Object.hasOwn(en, k));
  assert.deepEqual(missing, []);
});

test("every key of the page's catalogue is used (dynamic families aside)", () => {
  const used = keysUsed();
  // keys built from engine data or markup; about.role_* from licenses/index.json's roles
  // (tests/test_site_build.py checks that each role has its entry in every language)
  const families = /^(level|preset|scoring|trump_lead|tips|speed|help|rank|legend|cast)\.|^about\.role_/;
  const stale = Object.keys(page).filter((k) => !used.has(k) && !families.test(k));
  assert.deepEqual(stale, []);
});
