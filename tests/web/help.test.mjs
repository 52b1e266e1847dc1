// The help says the rules of the game on the table (issue 30, item 11): the steps' hook,
// follow-suit and trump-lead sentences and the scoring follow the rules in play, in every
// language, with no placeholder left over.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { useCatalogue, t } from "../../web/js/i18n.js";
import { helpBlocks } from "../../web/js/dialogs/help.js";
import { ROOT, engineInfo } from "./engine-info.mjs";

const catalogue = (lang) => JSON.parse(readFileSync(path.join(ROOT, `web/i18n/${lang}.json`), "utf8"));
const text = (blocks) => blocks.map(([, body]) => (Array.isArray(body) ? body.join("\n") : body ?? "")).join("\n");

const info = engineInfo().rules;
const DEFAULT = info.presets[info.default];
const OTHER = { ...DEFAULT, hook: false, trump_lead: "any-time", scoring: "exact-10-plus-bid", renege_penalty: 3 };

for (const lang of ["en", "de", "cs", "ko"]) {
  test(`${lang}: the help's steps follow the rules in play`, () => {
    useCatalogue(lang, catalogue(lang));
    const plain = text(helpBlocks({ rules: DEFAULT, players: 4 }, info));
    const other = text(helpBlocks({ rules: OTHER, players: 4 }, info));
    for (const page of [plain, other]) assert.ok(!/\{(deal|in_play|hook|follow|lead|score)\}/.test(page), page);
    const pairs = [
      ["help.rule.hook.on", "help.rule.hook.off"],
      ["help.rule.lead.after-broken", "help.rule.lead.any-time"],
      ["help.rule.score.exact-1", "help.rule.score.exact-10-plus-bid"],
    ];
    for (const [mine, theirs] of pairs) {
      assert.ok(plain.includes(t(mine)) && !plain.includes(t(theirs)), `${lang} default: ${mine}`);
      assert.ok(other.includes(t(theirs)) && !other.includes(t(mine)), `${lang} other rules: ${theirs}`);
    }
    assert.ok(plain.includes(t("help.rule.follow.must")));
    const honour = t("help.rule.follow.honour", { points: 3 });
    assert.ok(other.includes(honour) && honour.includes("3") && !other.includes(t("help.rule.follow.must")), lang);
  });
}

for (const lang of ["en", "de", "cs", "ko"]) {
  test(`${lang}: the help's summary of the game on the table says whether reneging is allowed`, () => {
    // "reneging allowed, −0 each" was said of the default rules, where suit must be followed
    useCatalogue(lang, catalogue(lang));
    const plain = text(helpBlocks({ rules: DEFAULT, players: 4 }, info));
    const other = text(helpBlocks({ rules: OTHER, players: 4 }, info));
    assert.ok(plain.includes(t("renege.0.short")) && !plain.includes(t("renege.3.short", { points: 3 })), `${lang}: ${plain}`);
    assert.ok(other.includes(t("renege.3.short", { points: 3 })) && !other.includes(t("renege.0.short")), `${lang}: ${other}`);
    assert.ok(!/−0\b/.test(plain), `${lang}: a penalty of 0 named`);
  });
}
