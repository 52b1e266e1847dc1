// The player's language: every word on the page comes from a catalogue, by key.
//
// A catalogue (i18n/<lang>.json) maps keys to templates.  Its English one also holds the
// engine's own keys (the build merges src/jabberwocky/locale/en.json into it), so the
// engine's refusals ({code, params}) are said with the same function as the page's words.
// The template syntax is the engine's (src/jabberwocky/core/messages.py): `{name}` takes a
// parameter; parameters named card, suit, rank, phase (or ending in _card, _suit, …) are
// looked up as words (`card.words`, `suit.H`, …; `{suit.acc}` tries `suit.H.acc` first);
// a template may be {plural: "<param>", one, few, many, other}, chosen with
// Intl.PluralRules (with "ordinal": true, its ordinal rules: 1st, 2nd, 3rd …); numbers go
// through Intl.NumberFormat, lists through Intl.ListFormat
// ("names" joined with "and", "choices" with "or", "sentences" with spaces, other lists
// with the catalogue's list.separator).

export const LANGUAGES = ["en", "de", "cs", "ko"];
export const DEFAULT_LANGUAGE = "en";

const PLACEHOLDER = /\{([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?\}/g;
const TYPED = ["card", "suit", "rank", "phase"];

let lang = DEFAULT_LANGUAGE;
let catalogue = {};
let plurals = new Intl.PluralRules(lang);
let numbers = new Intl.NumberFormat(lang);
const listeners = new Set();

/** The language shown now ("en", "de", "cs", "ko"). */
export const language = () => lang;

/** The first of `wanted` (e.g. navigator.languages) that we speak, else English. */
export function pickLanguage(wanted) {
  for (const tag of wanted || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/** Fetch a language's catalogue (a promise of the parsed object). */
export async function fetchCatalogue(code, base = import.meta.url) {
  const response = await fetch(new URL(`../i18n/${code}.json`, base));
  if (!response.ok) throw new Error(`the ${code} catalogue could not be loaded (HTTP ${response.status})`);
  return response.json();
}

/** Switch to `code` with its catalogue; listeners (views) redraw. */
export function useCatalogue(code, data) {
  lang = code;
  catalogue = data || {};
  plurals = new Intl.PluralRules(code);
  numbers = new Intl.NumberFormat(code);
  for (const fn of listeners) fn(code);
}

/** Call `fn(lang)` whenever the language changes; returns an unsubscribe function. */
export function onLanguage(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export const has = (key) => Object.hasOwn(catalogue, key);

/** A catalogue entry as it is (the structured ones: the rules page's blocks). */
export const entry = (key) => catalogue[key];

/** The words of `key` with `params`.  A missing key shows itself (tests catch it). */
export function t(key, params = {}) {
  return format(catalogue, key, params, plurals, numbers, lang);
}

/** An engine message ({code, params}) in the player's language. */
export const msg = (message) => (message && message.code ? t(message.code, message.params || {}) : "");

/** A share 0..1 as a percentage ("41 %" in German, "41%" in English). */
export function percent(p) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(p);
}

export const number = (n) => numbers.format(n);

/** Pure formatting, exported for the unit tests (node --test). */
export function format(cat, key, params, pluralRules, numberFormat, code = "en") {
  let template = cat[key];
  if (template && typeof template === "object" && !Array.isArray(template)) {
    const count = Number(params[template.plural] ?? 0);
    const rules = template.ordinal ? new Intl.PluralRules(code, { type: "ordinal" }) : pluralRules;
    template = template[rules.select(count)] ?? template.other;
  }
  if (typeof template !== "string") return key;
  return template.replace(PLACEHOLDER, (whole, name, form) => {
    if (!Object.hasOwn(params, name)) return whole;
    return renderParam(cat, name, form, params[name], pluralRules, numberFormat, code);
  });
}

/** Lists: `names` ("You and Bot 2") join with "and", `choices` with "or", others with the
 *  catalogue's list.separator. */
function listType(name) {
  if (name === "names" || name.endsWith("_names")) return "conjunction";
  if (name === "choices") return "disjunction";
  return "unit";
}

function kindOf(name) {
  return TYPED.find((k) => name === k || name.endsWith(`_${k}`)) || null;
}

function lookup(cat, key, form) {
  if (form && typeof cat[`${key}.${form}`] === "string") return cat[`${key}.${form}`];
  return typeof cat[key] === "string" ? cat[key] : null;
}

function renderParam(cat, name, form, value, pluralRules, numberFormat, code) {
  if (value && typeof value === "object" && !Array.isArray(value) && value.code) {
    return format(cat, value.code, value.params || {}, pluralRules, numberFormat, code);
  }
  if (Array.isArray(value)) {
    const parts = value.map((v) => renderParam(cat, name, form, v, pluralRules, numberFormat, code));
    if (name === "sentences") return parts.join(" ");
    const type = listType(name);
    // plain lists join with the catalogue's separator (Intl's "unit" lists run together in
    // some languages); "and" and "or" lists follow the language's own rules
    if (type === "unit" || typeof Intl.ListFormat !== "function") return parts.join(typeof cat["list.separator"] === "string" ? cat["list.separator"] : ", ");
    return new Intl.ListFormat(code, { type }).format(parts);
  }
  const kind = kindOf(name);
  if (kind === "card" && typeof value === "string" && value.length === 2) {
    const key = form ? `card.${form}` : "card.words";
    if (typeof cat[key] === "string") return format(cat, key, { rank: value[0], suit: value[1] }, pluralRules, numberFormat, code);
  }
  if (kind && kind !== "card" && typeof value === "string") {
    const word = lookup(cat, `${kind}.${value}`, form);
    if (word !== null) return word;
  }
  if (typeof value === "number") return numberFormat.format(value);
  return String(value);
}
