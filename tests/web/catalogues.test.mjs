// The four catalogues (web/i18n/<lang>.json, English with the engine's words): every key
// in every language and no stale one, the same placeholders, the plural forms each
// language needs, the rules page's blocks well formed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { LANGUAGES } from "../../web/js/i18n.js";
import { ROOT } from "./engine-info.mjs";

const read = (p) => JSON.parse(readFileSync(path.join(ROOT, p), "utf8"));
const EN = { ...read("src/jabberwocky/locale/en.json"), ...read("web/i18n/en.json") };
const others = LANGUAGES.filter((l) => l !== "en");
const catalogue = (lang) => read(`web/i18n/${lang}.json`);

/** The placeholders of a template (all forms of a plural one). */
function placeholders(value) {
  const texts = typeof value === "string" ? [value]
    : Array.isArray(value) ? value.flat(3).filter((v) => typeof v === "string")
      : Object.entries(value).filter(([k]) => k !== "plural").map(([, v]) => v);
  const names = new Set();
  for (const text of texts) for (const m of String(text).matchAll(/\{([a-z][a-z0-9_]*)(?:\.[a-z0-9_]+)?\}/g)) names.add(m[1]);
  return [...names].sort();
}

test("there is a catalogue for every language the page offers, and no other", () => {
  const files = readdirSync(path.join(ROOT, "web/i18n")).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
  assert.deepEqual(files, [...LANGUAGES].sort());
});

test("English: a count before a noun that has a singular is a plural entry (no \"1 points\")", () => {
  const nouns = "points|rounds|results|seats|seat kinds|decisions|tricks|games";
  const bare = new RegExp(`\\{(?!max\\})[a-z_]+\\} (${nouns})\\b`); // a maximum is never 1
  // never 1: a chain past its maximum (5) holds 6 or more; a table has at least 2 bot seats
  const several = new Set(["challenge.chain_long", "cli.bot_count"]);
  const found = Object.entries(EN).filter(([k, v]) => typeof v === "string" && bare.test(v) && !several.has(k))
    .map(([k, v]) => `${k}: ${v}`);
  assert.deepEqual(found, []);
});

for (const lang of others) {
  test(`${lang}: every key, no stale key, the same placeholders`, () => {
    const cat = catalogue(lang);
    const missing = Object.keys(EN).filter((k) => !Object.hasOwn(cat, k));
    // a form of a key (suit.H.acc, card.gen …) is allowed: the templates may ask for it
    const stale = Object.keys(cat).filter((k) => !Object.hasOwn(EN, k) && !Object.hasOwn(EN, k.slice(0, k.lastIndexOf("."))) && !/^card\.[a-z]+$/.test(k));
    assert.deepEqual(missing, [], `${lang} lacks keys`);
    assert.deepEqual(stale, [], `${lang} has keys English does not`);
    const differ = Object.keys(EN).filter((k) => Object.hasOwn(cat, k) && k !== "help.body")
      .filter((k) => JSON.stringify(placeholders(EN[k])) !== JSON.stringify(placeholders(cat[k])))
      .map((k) => `${k}: ${placeholders(EN[k])} vs ${placeholders(cat[k])}`);
    assert.deepEqual(differ, []);
  });

  test(`${lang}: plural entries name the same parameter and give every form ${lang} uses`, () => {
    const cat = catalogue(lang);
    const cardinal = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    const ordinal = new Intl.PluralRules(lang, { type: "ordinal" }).resolvedOptions().pluralCategories;
    for (const [key, value] of Object.entries(cat)) {
      if (!value || typeof value !== "object" || Array.isArray(value)) continue;
      const forms = value.ordinal ? ordinal : cardinal;
      assert.ok(value.plural, `${lang} ${key}: a plural entry names its parameter`);
      const english = EN[key];
      if (english && typeof english === "object" && !Array.isArray(english)) assert.equal(value.plural, english.plural, `${lang} ${key}`);
      for (const form of forms) assert.equal(typeof value[form], "string", `${lang} ${key} lacks the "${form}" form`);
    }
  });

  test(`${lang}: the rules page is blocks of known kinds, with the drawn example once`, () => {
    const blocks = catalogue(lang)["help.body"];
    assert.ok(Array.isArray(blocks) && blocks.length > 5);
    for (const [kind, body] of blocks) {
      assert.ok(["h3", "p", "ol", "ul", "example"].includes(kind), kind);
      if (kind === "ol" || kind === "ul") assert.ok(Array.isArray(body) && body.every((x) => typeof x === "string"));
      else if (kind !== "example") assert.equal(typeof body, "string");
    }
    assert.equal(blocks.filter(([k]) => k === "example").length, 1);
  });
}

test("every engine rule option and preset the page names has words in every catalogue", async () => {
  const { engineInfo } = await import("./engine-info.mjs");
  const { rules, levels } = engineInfo();
  const keys = [
    ...Object.keys(rules.presets).map((p) => `preset.${p}`),
    ...rules.options.trump_lead.values.flatMap((v) => [`trump_lead.${v}`, `trump_lead.${v}.short`]),
    ...rules.options.scoring.values.flatMap((v) => [`scoring.${v}`, `scoring.${v}.short`]),
    ...levels.levels.map((l) => `level.${l}`),
  ];
  for (const lang of LANGUAGES) {
    const cat = lang === "en" ? EN : catalogue(lang);
    assert.deepEqual(keys.filter((k) => !Object.hasOwn(cat, k)), [], lang);
  }
});

test("the tricks a seat has taken go by one word in each language (badge, tables, messages)", () => {
  // the word before {taken} on a seat's badge is the word of every place that counts them
  // ("bid 2 · took 1", the round's "Took" column, "you bid 2 and took 1", …): issue 43
  const places = ["round.col_made", "round.you_missed", "announce.you_missed", "sheet.cell", "compare.deal_line", "compare.cell"];
  for (const lang of LANGUAGES) {
    const cat = lang === "en" ? EN : catalogue(lang);
    const word = /(\S+) \{taken\}/.exec(cat["badge.bid_won"])?.[1];
    assert.ok(word, `${lang}: badge.bid_won names no word for the tricks taken`);
    for (const key of ["badge.human", "badge.human_watched", ...places]) {
      const value = cat[key];
      const texts = typeof value === "string" ? [value] : Object.entries(value).filter(([k]) => k !== "plural").map(([, v]) => v);
      for (const text of texts) assert.ok(text.toLowerCase().includes(word.toLowerCase()), `${lang} ${key}: "${text}" does not say "${word}"`);
    }
  }
});

test("a deal code is called one where the player reads it: the share text, the review's title", () => {
  // the link keeps its #seed= (a stable format); the words around the code say "deal code"
  for (const lang of LANGUAGES) {
    const cat = lang === "en" ? EN : catalogue(lang);
    const name = cat["share.seed"].replace(/[:：]\s*$/, "").toLowerCase();
    for (const key of ["share.text", "review.title", "announce.new_game"]) {
      const texts = typeof cat[key] === "string" ? [cat[key]] : Object.entries(cat[key]).filter(([k]) => k !== "plural").map(([, v]) => v);
      for (const text of texts) assert.ok(text.toLowerCase().includes(name), `${lang} ${key}: "${text}" does not say "${name}"`);
    }
  }
});
