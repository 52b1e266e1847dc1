// URL fragment <-> game options.  #seed=<text>&players=<3..5>&bots=<level>[&rules=<rules>]
// Never throws: hostile input gives a safe default and a list of plain-language problems.
//
// rules: a preset name ("oh-hell"), or a preset followed by the options that differ from it:
//   rules=honour,hook:off,lead:any-time,scoring:exact-10-plus-bid,renege:0,schedule:2-4-6-4-2
// The front end only checks the shape; the engine (Ruleset.from_dict) decides whether the
// values make a ruleset, and a refusal is shown as a message before a default game starts.

import { RULE_PRESETS } from "./state.js";

export const MAX_SEED_LENGTH = 120;
export const DEFAULT_PLAYERS = 4;
const KNOWN = new Set(["seed", "players", "bots", "rules"]);
const LEVEL_RE = /^[a-z][a-z0-9-]{0,19}$/;
export const PRESETS = ["jabberwocky", "oh-hell", "honour"];
const PRESET_RULES = RULE_PRESETS;
// link key -> [ruleset field, value from text, value to text]
const RULE_KEYS = {
  schedule: ["schedule", (v) => (/^\d{1,2}(-\d{1,2}){0,29}$/.test(v) ? v.split("-").map(Number) : undefined), (v) => v.join("-")],
  hook: ["hook", (v) => ({ on: true, off: false })[v], (v) => (v ? "on" : "off")],
  lead: ["trump_lead", (v) => (/^[a-z0-9-]{1,30}$/.test(v) ? v : undefined), String],
  scoring: ["scoring", (v) => (/^[a-z0-9-]{1,30}$/.test(v) ? v : undefined), String],
  renege: ["renege_penalty", (v) => (/^\d{1,2}$/.test(v) ? Number(v) : undefined), String],
};
const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Parse a rules= value: {text (canonical), rules (a preset name or a ruleset dict)} or
 *  {problem}. */
export function parseRules(value) {
  const [base, ...parts] = String(value).split(",").map((x) => x.trim());
  if (!Object.hasOwn(PRESET_RULES, base)) {
    return { problem: `"rules=${clip(value)}" does not start with a ruleset (choose ${PRESETS.join(", ")}); using jabberwocky.` };
  }
  const dict = { name: base, ...PRESET_RULES[base] };
  for (const part of parts) {
    const colon = part.indexOf(":");
    const key = colon < 0 ? part : part.slice(0, colon);
    const spec = Object.hasOwn(RULE_KEYS, key) ? RULE_KEYS[key] : null;
    const v = spec ? spec[1](part.slice(colon + 1)) : undefined;
    if (!spec || colon < 0 || v === undefined) {
      return { problem: `The rule option "${clip(part)}" in the link is not understood (options: ${Object.keys(RULE_KEYS).join(", ")}); using jabberwocky.` };
    }
    dict[spec[0]] = v;
  }
  const text = rulesText(dict);
  return { text, rules: text.includes(",") ? dict : base };
}

/** The rules= text for a ruleset dict: its preset name when it is exactly a preset,
 *  else its named preset (or jabberwocky) and the options that differ from it. */
export function rulesText(rules) {
  if (!rules || typeof rules !== "object") return PRESETS.includes(rules) ? rules : "jabberwocky";
  const fields = Object.keys(PRESET_RULES.jabberwocky);
  const exact = (name) => fields.every((f) => sameValue(rules[f], PRESET_RULES[name][f]));
  if (PRESETS.includes(rules.name) && exact(rules.name)) return rules.name;
  const match = PRESETS.find(exact);
  if (match) return match;
  const base = PRESETS.includes(rules.name) ? rules.name : "jabberwocky";
  const parts = [base];
  for (const [key, [field, , show]] of Object.entries(RULE_KEYS)) {
    if (rules[field] !== undefined && !sameValue(rules[field], PRESET_RULES[base][field])) parts.push(`${key}:${show(rules[field])}`);
  }
  return parts.join(",");
}

/** What new_game takes for a rules= text (already checked by parseRules). */
export function rulesPayload(text) {
  const parsed = parseRules(text);
  return parsed.problem ? "jabberwocky" : parsed.rules;
}

function decode(text) {
  return decodeURIComponent(text.replace(/\+/g, " "));
}

/** Parse a fragment (with or without '#'). Returns {options, problems, empty}.
 *  options: {seed?: string, players?: number, bots?: string|string[], rules?: string (the
 *  canonical rules= text; rulesPayload turns it into what new_game takes)}
 *  `levels` (optional) is the list of bot levels the engine offers. */
export function parseFragment(hash, levels = null) {
  const problems = [];
  const options = {};
  let text = String(hash || "");
  if (text.startsWith("#")) text = text.slice(1);
  if (!text) return { options, problems, empty: true };
  if (text.length > 20000) {
    problems.push("The link is far too long to be a game link; starting a normal game instead.");
    return { options: {}, problems, empty: false };
  }
  for (const part of text.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? "" : part.slice(eq + 1);
    let key;
    let value;
    try {
      key = decode(rawKey);
      value = decode(rawValue);
    } catch {
      problems.push(`Part of the link is damaged (bad %-encoding in "${clip(part)}"); it was ignored.`);
      continue;
    }
    if (!KNOWN.has(key)) {
      problems.push(`The link option "${clip(key)}" is unknown and was ignored.`);
      continue;
    }
    applyOption(options, key, value, problems, levels);
  }
  return { options, problems, empty: false };
}

function clip(text) {
  const s = String(text);
  return s.length > 30 ? s.slice(0, 30) + "…" : s;
}

function applyOption(options, key, value, problems, levels) {
  if (key === "seed") {
    const seed = value.trim();
    if (!seed) return;
    if (seed.length > MAX_SEED_LENGTH) {
      problems.push(`The seed in the link is ${seed.length} characters long (at most ${MAX_SEED_LENGTH}); a new seed was chosen.`);
      return;
    }
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    if (/[\u0000-\u001f\u007f]/.test(seed)) {
      problems.push("The seed in the link contains control characters; a new seed was chosen.");
      return;
    }
    options.seed = seed;
  } else if (key === "players") {
    const n = /^\d{1,2}$/.test(value) ? Number(value) : NaN;
    if (n >= 3 && n <= 5) options.players = n;
    else problems.push(`"players=${clip(value)}" is not possible: a game has 3 to 5 players. Using ${DEFAULT_PLAYERS}.`);
  } else if (key === "bots") {
    const list = value.split(",").map((s) => s.trim().toLowerCase());
    const ok = list.every((l) => LEVEL_RE.test(l) && (!levels || levels.includes(l)));
    if (ok && list.length >= 1 && list.length <= 4) options.bots = list.length === 1 ? list[0] : list;
    else problems.push(`"bots=${clip(value)}" is not a bot level${levels ? ` (choose ${levels.join(", ")})` : ""}; using the default.`);
  } else if (key === "rules") {
    const parsed = parseRules(value);
    if (parsed.problem) problems.push(parsed.problem);
    else options.rules = parsed.text;
  }
}

/** Check a parsed bots option against the engine's levels and player count. */
export function checkBots(options, levels, players, problems) {
  if (options.bots === undefined) return undefined;
  const list = Array.isArray(options.bots) ? options.bots : [options.bots];
  if (!list.every((l) => levels.includes(l))) {
    problems.push(`The bot level in the link is unknown (choose ${levels.join(", ")}); using the default.`);
    return undefined;
  }
  if (Array.isArray(options.bots) && options.bots.length !== players - 1) {
    problems.push(`The link lists ${options.bots.length} bot levels for ${players - 1} bots; using "${list[0]}" for all.`);
    return list[0];
  }
  return options.bots;
}

/** The fragment for a game: seed, players, bots, and rules when not the default. */
export function serializeFragment({ seed, players, bots, rules }) {
  const parts = [`seed=${encodeURIComponent(seed)}`, `players=${players}`];
  const b = Array.isArray(bots) ? bots.join(",") : bots;
  if (b) parts.push(`bots=${b.split(",").map(encodeURIComponent).join(",")}`);
  if (rules && rules !== "jabberwocky") parts.push(`rules=${rules.split(",").map((r) => r.split(":").map(encodeURIComponent).join(":")).join(",")}`);
  return "#" + parts.join("&");
}

/** The readable form of a seed: its words separated by spaces ("brave otter lamp 42"). */
export function seedInWords(seed) {
  return String(seed).split(/[-_\s]+/).filter(Boolean).join(" ");
}
