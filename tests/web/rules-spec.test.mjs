// The page's settings and links driven by the engine's rule options (its `rules` answer,
// `options`: each option's field, link key, settings key, control, values and words):
// today's options behave as they always have, and an option the engine adds is carried by
// settings.js and fragment.js without a change of theirs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { engineInfo } from "./engine-info.mjs";
import { presetSettings, defaultSettings, normalizeSettings, rulesFromSettings, settingsOfView, optionValue } from "../../web/js/settings.js";
import { parseRules, rulesText, rulesPayload } from "../../web/js/fragment.js";

const { rules: INFO, levels: LEVELS } = engineInfo();
const levels = LEVELS.levels;

test("every option names its field, link key, setting, control and words", () => {
  for (const [key, option] of Object.entries(INFO.options)) {
    assert.equal(option.field, key);
    for (const k of ["link", "setting", "control"]) assert.equal(typeof option[k], "string", `${key}.${k}`);
    assert.ok(["schedule", "checkbox", "select"].includes(option.control), key);
    assert.equal(typeof option.words.label, "string", key);
    if (option.control !== "schedule") {
      assert.equal(option.link_values.length, option.values.length, key);
      assert.ok(option.values.includes(option.default), key);
    }
    if (option.control === "checkbox") {
      assert.equal(option.values.length, 2, key);
      assert.ok(option.values.includes(option.checked), key);
    }
  }
});

test("a preset's settings: one key per option, the schedule by its name", () => {
  for (const [name, preset] of Object.entries(INFO.presets)) {
    const s = presetSettings(name, INFO);
    assert.equal(s.rules, name);
    assert.deepEqual(INFO.options.schedule.named[s.schedule], preset.schedule);
    assert.equal(s.hook, preset.hook);
    assert.equal(s.trumpLead, preset.trump_lead);
    assert.equal(s.scoring, preset.scoring);
    assert.equal(s.renege, preset.renege_penalty);
    // exactly a preset: new_game is sent its name
    assert.equal(rulesFromSettings(s, INFO), name);
  }
  assert.equal(presetSettings("no-such-preset", INFO).rules, INFO.default);
});

test("stored settings: unknown values give way to the defaults, known ones stay", () => {
  const base = defaultSettings(INFO, levels, LEVELS.default);
  const odd = normalizeSettings({ hook: "yes", trumpLead: "sideways", scoring: 7, renege: 5, schedule: "1-99" }, INFO, levels, LEVELS.default);
  for (const k of ["hook", "trumpLead", "scoring", "renege", "schedule"]) assert.deepEqual(odd[k], base[k], k);
  const lead = INFO.options.trump_lead.values.find((v) => v !== base.trumpLead);
  const named = Object.keys(INFO.options.schedule.named).find((n) => n !== base.schedule);
  const kept = normalizeSettings({ hook: !base.hook, trumpLead: lead, renege: INFO.renege_penalty, schedule: named }, INFO, levels, LEVELS.default);
  assert.equal(kept.hook, !base.hook);
  assert.equal(kept.trumpLead, lead);
  assert.equal(kept.renege, INFO.renege_penalty);
  assert.equal(kept.schedule, named);
  // fine-tuned: a custom ruleset with every field
  const custom = rulesFromSettings(kept, INFO);
  assert.equal(custom.name, "custom");
  assert.deepEqual(custom.schedule, INFO.options.schedule.named[named]);
  assert.equal(custom.hook, !base.hook);
  assert.equal(custom.trump_lead, lead);
  assert.equal(custom.renege_penalty, INFO.renege_penalty);
  assert.equal(rulesFromSettings({ ...kept, renege: String(INFO.renege_penalty) }, INFO).renege_penalty, INFO.renege_penalty, "a penalty as text is read as its number");
});

test("a game's settings follow its view's rules", () => {
  const rules = { ...INFO.presets[INFO.default], hook: false };
  const view = { players: 4, seats: ["human", "easy", "easy", "easy"], rules, player_names: [null, null, null, null] };
  const s = settingsOfView(view, INFO, defaultSettings(INFO, levels, LEVELS.default));
  assert.equal(s.hook, false);
  assert.equal(s.trumpLead, rules.trump_lead);
  assert.deepEqual(rulesFromSettings(s, INFO), { name: "custom", ...Object.fromEntries(Object.keys(INFO.options).map((k) => [k, rules[k]])) });
});

test("rules= links: canonical text, values the engine decides, unknown options refused", () => {
  const honour = Object.keys(INFO.presets).find((n) => INFO.presets[n].renege_penalty > 0);
  const parsed = parseRules(`${honour},hook:off,schedule:2-3-2`, INFO);
  assert.equal(parsed.text, `${honour},schedule:2-3-2,hook:off`);
  assert.equal(parsed.rules.hook, false);
  assert.deepEqual(parsed.rules.schedule, [2, 3, 2]);
  assert.equal(rulesText(parsed.rules, INFO), parsed.text);
  // a word the engine does not know is passed on (the engine says why not) ...
  assert.equal(parseRules(`${INFO.default},lead:sideways`, INFO).rules.trump_lead, "sideways");
  assert.equal(parseRules(`${INFO.default},renege:5`, INFO).rules.renege_penalty, 5);
  // ... a yes/no takes only its two words, and an unknown option is a problem
  assert.equal(parseRules(`${INFO.default},hook:yes`, INFO).problem.key, "link.rules_option");
  const unknown = parseRules(`${INFO.default},colour:blue`, INFO).problem;
  assert.equal(unknown.key, "link.rules_option");
  assert.deepEqual(unknown.params.choices, Object.values(INFO.options).map((o) => o.link));
  assert.equal(parseRules("no-such-preset", INFO).problem.key, "link.rules_base");
  // options with no preset change the default one
  const bare = parseRules("schedule:2-3-2,hook:off", INFO);
  assert.equal(bare.problem, undefined);
  assert.deepEqual(bare.rules.schedule, [2, 3, 2]);
  assert.equal(bare.rules.hook, false);
  assert.equal(bare.text, `${INFO.default},${bare.text.split(",").slice(1).join(",")}`);
  assert.equal(parseRules("schedule:2-3-2,colour:blue", INFO).problem.key, "link.rules_option");
  assert.equal(rulesPayload(INFO.default, INFO), INFO.default);
  const renege = INFO.options.renege_penalty;
  const other = renege.values.find((v) => v !== INFO.presets[INFO.default].renege_penalty);
  const exact = Object.keys(INFO.presets).find((n) => INFO.presets[n].renege_penalty === other
    && Object.keys(INFO.options).every((k) => k === "renege_penalty" || JSON.stringify(INFO.presets[n][k]) === JSON.stringify(INFO.presets[INFO.default][k])));
  const read = parseRules(`${INFO.default},renege:${renege.link_values[renege.values.indexOf(other)]}`, INFO);
  // the default with the other penalty is exactly a preset (the honour rule): that preset
  assert.equal(read.text, exact);
  assert.equal(read.rules, exact);
});

/** The engine's answer with one more option, as the engine would declare it. */
function withNewOption() {
  const info = structuredClone(INFO);
  info.options.misere = {
    kind: "choice", default: "never", values: ["never", "dealer-only"], field: "misere", link: "misere",
    setting: "misere", control: "select", link_values: ["never", "dealer"],
    words: { label: "newgame.misere", value: "misere.{value}", short: "misere.{value}.short" },
  };
  info.options.bonus = {
    kind: "choice", default: 0, values: [0, 5], field: "bonus", link: "bonus", setting: "slamBonus",
    control: "checkbox", link_values: ["0", "5"], checked: 5, words: { label: "newgame.bonus" },
  };
  for (const preset of Object.values(info.presets)) Object.assign(preset, { misere: "never", bonus: 0 });
  return info;
}

test("an option the engine adds is carried by the settings and the links unchanged", () => {
  const info = withNewOption();
  const s = presetSettings(info.default, info);
  assert.equal(s.misere, "never");
  assert.equal(s.slamBonus, 0);
  const normal = normalizeSettings({ ...s, misere: "dealer-only", slamBonus: 5 }, info, levels, LEVELS.default);
  assert.equal(normal.misere, "dealer-only");
  assert.equal(normal.slamBonus, 5);
  assert.equal(normalizeSettings({ ...s, misere: "sometimes", slamBonus: 4 }, info, levels, LEVELS.default).misere, "never");
  const rules = rulesFromSettings(normal, info);
  assert.equal(rules.misere, "dealer-only");
  assert.equal(rules.bonus, 5);
  assert.equal(rulesFromSettings(s, info), info.default, "the preset itself");
  // the link writes each option by its link key and link text, and reads it back
  const text = rulesText(rules, info);
  assert.equal(text, `${info.default},misere:dealer,bonus:5`);
  const read = parseRules(text, info).rules;
  for (const field of Object.keys(info.options)) assert.deepEqual(read[field], rules[field], field);
  assert.equal(optionValue(info.options.bonus, "5"), 5);
  // and a view of a game with it gives its settings back
  const view = { players: 3, seats: ["human", "easy", "easy"], rules: { ...rules, name: "custom" }, player_names: [null, null, null] };
  const back = settingsOfView(view, info, defaultSettings(info, levels, LEVELS.default));
  assert.equal(back.misere, "dealer-only");
  assert.equal(back.slamBonus, 5);
});

test("a custom rules link's game: New game starts from its rules, the schedule by its sizes", () => {
  const base = defaultSettings(INFO, levels, LEVELS.default);
  const rules = { ...INFO.presets[INFO.default], name: "custom", schedule: [2, 3, 2] };
  const view = { players: 4, seats: ["human", "easy", "easy", "easy"], rules };
  const s = settingsOfView(view, INFO, base);
  assert.equal(s.rules, "custom"); // no preset: the dialog says custom, not Jabberwocky 3…9…3
  assert.equal(s.schedule, "2-3-2");
  assert.deepEqual(rulesFromSettings(s, INFO).schedule, [2, 3, 2]); // dealt again as it was
  assert.equal(normalizeSettings(s, INFO, levels, LEVELS.default).schedule, "2-3-2"); // kept when stored
  assert.equal(normalizeSettings({ schedule: "0-3" }, INFO, levels, LEVELS.default).schedule, base.schedule);
});
