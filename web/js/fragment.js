// URL fragment <-> game options:
//   #seed=<text>&players=<n>&bots=<level>[,<level>…][&rules=<rules>][&bv=<bots version>][&lang=<language>]
// bots: seat 1's kind and on; `human` for a seat a person plays (pass-and-play: the seats
// travel with the link, the names do not).
// Never throws: hostile input gives a safe default and a list of problems, each a
// catalogue entry {key, params} for the page to say in the player's language.
//
// rules: a preset name ("oh-hell"), or a preset followed by the options that differ from it:
//   rules=honour,hook:off,lead:any-time,scoring:exact-10-plus-bid,renege:0,schedule:2-4-6-4-2
// The presets, the options (each one's link key and the link's text for its values) and
// the allowed values come from the engine (`info`, its `rules` answer): this module only
// reads and writes the link's shape, and the engine (Ruleset.from_dict) decides whether
// the values make a ruleset; a refusal is shown before a default game.
// bv: the number of the bots version the link was made with ("jabberwocky-bots/<n>").
// lang: the language to show the page in on this visit (en, de, cs, ko).
//   #challenge=<text>[&lang=<language>]
// a challenge between friends (docs/challenge-links.md): the engine reads and verifies
// the text (this module only bounds its length).
//   #daily[=<YYYY-MM-DD>][&lang=<language>]
// the deal of the day (docs/daily.md): today's (UTC) without a date, else that day's (as
// practice unless it is today); this module checks the date's shape, the engine the day.
// Pure functions (unit-tested with node --test).

import { LANGUAGES } from "./i18n.js";

const KNOWN = new Set(["seed", "players", "bots", "rules", "bv", "lang", "challenge", "daily"]);
const LEVEL_RE = /^[a-z][a-z0-9-]{0,19}$/;
const MAX_FRAGMENT = 20000;
const LINKS = new WeakMap(); // info.options -> ruleLinks(info): made once per rules answer
const SCHEDULE_TEXT = /^\d{1,2}(-\d{1,2}){0,29}$/;
const WORD_TEXT = /^[a-z0-9-]{1,30}$/;
const NUMBER_TEXT = /^\d{1,2}$/;

/** The link's rule options from the engine's specifications: link key -> {field, read
 *  (text -> value, or undefined when the text cannot be one), show (value -> text)}.  A
 *  value the engine has not listed is still read when it has the shape of the option's
 *  values (a word, a number), so that the engine says why it is refused; a yes/no option
 *  takes only its two words. */
export function ruleLinks(info) {
  const known = LINKS.get(info.options);
  if (known) return known;
  const out = {};
  for (const option of Object.values(info.options)) {
    if (option.control === "schedule") {
      out[option.link] = { field: option.field, read: (v) => (SCHEDULE_TEXT.test(v) ? v.split("-").map(Number) : undefined), show: (v) => v.join("-") };
      continue;
    }
    const values = option.values;
    const texts = option.link_values ?? values.map(String);
    const kind = typeof values[0];
    const read = (v) => {
      const i = texts.indexOf(v);
      if (i >= 0) return values[i];
      if (kind === "string" && WORD_TEXT.test(v)) return v;
      if (kind === "number" && NUMBER_TEXT.test(v)) return Number(v);
      return undefined;
    };
    const show = (v) => {
      const i = values.indexOf(v);
      return i >= 0 ? texts[i] : String(v);
    };
    out[option.link] = { field: option.field, read, show };
  }
  LINKS.set(info.options, out);
  return out;
}

const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const problem = (key, params = {}) => ({ key, params });

/** Parse a rules= value: {text (canonical), rules (a preset name or a ruleset dict)} or
 *  {problem}.  Options with no preset before them ("schedule:2-3-2") change the default
 *  preset, as the New game dialog starts from it. */
export function parseRules(value, info) {
  let [base, ...parts] = String(value).split(",").map((x) => x.trim());
  const presets = info.presets;
  if (!Object.hasOwn(presets, base) && base.includes(":")) {
    parts = [base, ...parts];
    base = info.default;
  }
  if (!Object.hasOwn(presets, base)) {
    return { problem: problem("link.rules_base", { value: clip(value), choices: Object.keys(presets), preset: info.default }) };
  }
  const links = ruleLinks(info);
  const dict = { ...presets[base], name: base };
  for (const part of parts) {
    const colon = part.indexOf(":");
    const key = colon < 0 ? part : part.slice(0, colon);
    const spec = Object.hasOwn(links, key) ? links[key] : null;
    const v = spec ? spec.read(part.slice(colon + 1)) : undefined;
    if (!spec || colon < 0 || v === undefined) {
      return { problem: problem("link.rules_option", { value: clip(part), choices: Object.keys(links), preset: info.default }) };
    }
    dict[spec.field] = v;
  }
  const text = rulesText(dict, info);
  // exactly a preset (perhaps another one: "jabberwocky,renege:3" is the honour rule): its
  // name, as rulesPayload of the canonical text gives it
  return { text, rules: text.includes(",") ? dict : text };
}

/** The rules= text for a ruleset dict: its preset name when it is exactly a preset,
 *  else its named preset (or the default) and the options that differ from it. */
export function rulesText(rules, info) {
  const presets = info.presets;
  if (!rules || typeof rules !== "object") return Object.hasOwn(presets, rules) ? rules : info.default;
  const links = ruleLinks(info);
  const fields = Object.values(links).map(({ field }) => field);
  const exact = (name) => fields.every((f) => sameValue(rules[f], presets[name][f]));
  if (Object.hasOwn(presets, rules.name) && exact(rules.name)) return rules.name;
  const match = Object.keys(presets).find(exact);
  if (match) return match;
  const base = Object.hasOwn(presets, rules.name) ? rules.name : info.default;
  const parts = [base];
  for (const [key, { field, show }] of Object.entries(links)) {
    if (rules[field] !== undefined && !sameValue(rules[field], presets[base][field])) parts.push(`${key}:${show(rules[field])}`);
  }
  return parts.join(",");
}

/** What new_game takes for a rules= text (already checked by parseRules). */
export function rulesPayload(text, info) {
  const parsed = parseRules(text, info);
  return parsed.problem ? info.default : parsed.rules;
}

function decode(text) {
  return decodeURIComponent(text.replace(/\+/g, " "));
}

/** Parse a fragment (with or without '#'). Returns {options, problems, empty}.
 *  options: {seed?, players?, bots? (a level or a list), rules? (the canonical rules=
 *  text; rulesPayload turns it into what new_game takes), bv? (a number), challenge?
 *  (a challenge's text, unverified), daily? ("" for today's deal, else a date's shape)}.
 *  `levels`: the engine's bot levels; `info`: its rules answer. */
export function parseFragment(hash, levels, info) {
  const problems = [];
  const options = {};
  let text = String(hash || "");
  if (text.startsWith("#")) text = text.slice(1);
  if (!text) return { options, problems, empty: true };
  if (text.length > MAX_FRAGMENT) {
    problems.push(problem("link.too_long"));
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
      problems.push(problem("link.bad_encoding", { value: clip(part) }));
      continue;
    }
    if (!KNOWN.has(key)) {
      problems.push(problem("link.unknown_option", { value: clip(key) }));
      continue;
    }
    applyOption(options, key, value, problems, levels, info);
  }
  return { options, problems, empty: false };
}

export function clip(text) {
  const s = String(text);
  return s.length > 30 ? s.slice(0, 30) + "…" : s;
}

function applyOption(options, key, value, problems, levels, info) {
  if (key === "seed") {
    const seed = value.trim();
    if (!seed) return;
    if (seed.length > info.seed_max_length) {
      problems.push(problem("link.seed_too_long", { length: seed.length, max: info.seed_max_length }));
      return;
    }
    options.seed = seed; // the engine decides what a seed may hold (and says why not)
  } else if (key === "players") {
    const n = /^\d{1,2}$/.test(value) ? Number(value) : NaN;
    if (n >= info.players.min && n <= info.players.max) options.players = n;
    else problems.push(problem("link.players", { value: clip(value), min: info.players.min, max: info.players.max, default: info.players.default }));
  } else if (key === "bots") {
    const list = value.split(",").map((s) => s.trim().toLowerCase());
    // "human": that seat is a person too (pass-and-play); at least one seat is a bot
    const ok = list.every((l) => LEVEL_RE.test(l) && (levels.includes(l) || l === "human"));
    if (ok && list.length >= 1 && list.length <= info.players.max - 1) options.bots = list.length === 1 ? list[0] : list;
    else problems.push(problem("link.bots", { value: clip(value), choices: levels }));
  } else if (key === "rules") {
    const parsed = parseRules(value, info);
    if (parsed.problem) problems.push(parsed.problem);
    else options.rules = parsed.text;
  } else if (key === "lang") {
    if (LANGUAGES.includes(value)) options.lang = value;
    else problems.push(problem("link.lang", { value: clip(value), choices: LANGUAGES }));
  } else if (key === "challenge") {
    const text = value.trim();
    if (text.length > info.challenge_max_length) problems.push(problem("link.challenge_too_long", { length: text.length, max: info.challenge_max_length }));
    else if (text) options.challenge = text; // the engine verifies it (and says why not)
    else problems.push(problem("link.challenge_empty"));
  } else if (key === "daily") {
    // "" is today's deal; a date is written YYYY-MM-DD (the engine says whether it exists)
    const date = value.trim();
    if (date === "" || /^\d{4}-\d{2}-\d{2}$/.test(date)) options.daily = date;
    else {
      options.daily = "";
      problems.push(problem("link.daily_date", { value: clip(value) }));
    }
  } else if (key === "bv") {
    if (/^\d{1,6}$/.test(value)) options.bv = Number(value);
    else problems.push(problem("link.unknown_option", { value: clip(`bv=${value}`) }));
  }
}

/** Check a parsed bots option against the player count (after players is known). */
export function checkBots(options, players, problems) {
  if (options.bots === undefined) return undefined;
  if (Array.isArray(options.bots) && options.bots.length !== players - 1) {
    problems.push(problem("link.bot_count", { count: options.bots.length, seats: players - 1, level: options.bots[0] }));
    return options.bots[0];
  }
  return options.bots;
}

/** The number of a bots version ("jabberwocky-bots/3" -> 3), or null. */
export function botsVersionNumber(version) {
  const m = /^jabberwocky-bots\/(\d{1,6})$/.exec(String(version ?? ""));
  return m ? Number(m[1]) : null;
}

/** The fragment for a game: seed, players, bots, rules when not the default, bv; for a
 *  challenge game, the challenge alone (its table is in it); for a deal of the day, its
 *  date alone. */
export function serializeFragment({ seed, players, bots, rules, bv, challenge, daily }, defaultRules = undefined) {
  if (challenge) return `#challenge=${encodeURIComponent(challenge)}`;
  if (daily) return `#daily=${encodeURIComponent(daily)}`;
  const parts = [`seed=${encodeURIComponent(seed)}`, `players=${players}`];
  const b = Array.isArray(bots) ? bots.join(",") : bots;
  if (b) parts.push(`bots=${b.split(",").map(encodeURIComponent).join(",")}`);
  if (rules && rules !== defaultRules) parts.push(`rules=${rules.split(",").map((r) => r.split(":").map(encodeURIComponent).join(":")).join(",")}`);
  if (bv !== undefined && bv !== null) parts.push(`bv=${bv}`);
  return "#" + parts.join("&");
}
