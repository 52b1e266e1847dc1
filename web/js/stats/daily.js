// The deal of the day's memory (docs/daily.md): each day's result and the cached pars, in
// localStorage "jabberwocky.daily.v1", and what the Statistics screen shows of them — days
// played, the streak of days played, days at or above par, the calendar of the last weeks.
// Pure functions over plain data (dates are "YYYY-MM-DD", UTC), unit-tested with node --test;
// the storage functions take the storage module (or a stand-in) as an argument.  The
// engine decides which games may be results (daily_result's `eligible`); nothing here
// judges a game.

export const DAILY_KEY = "jabberwocky.daily.v1";
export const RESULTS_FORMAT = "jabberwocky-daily-results/1";
export const CALENDAR_WEEKS = 5;
const MAX_RESULTS = 800; // more than two years of days (about 400 bytes each)
const MAX_PARS = 60;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86400000;

const whole = (n) => Number.isInteger(n) && n >= 0 && n <= 10000;
const isDate = (d) => typeof d === "string" && DATE_RE.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);

/** `date` moved by `days` (UTC calendar arithmetic). */
export function addDays(date, days) {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `a` to `b`. */
export function daysBetween(a, b) {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

/** Is `entry` a day's result as this page writes it (for the date it is filed under)? */
export function isResult(entry, date) {
  if (!entry || typeof entry !== "object" || entry.date !== date || !isDate(date)) return false;
  const { points, exact, bids, marks, rounds, challenge, par } = entry;
  if (!Number.isInteger(points) || !whole(exact) || !whole(bids) || exact > bids) return false;
  if (!Array.isArray(marks) || marks.length !== bids || !marks.every((m) => m === "made" || m === "missed")) return false;
  if (!Array.isArray(rounds) || rounds.length !== bids || !rounds.every((r) => Array.isArray(r) && r.length === 3 && r.every(Number.isInteger))) return false;
  if (challenge !== null && typeof challenge !== "string") return false;
  return par === null || par === undefined || (Number.isInteger(par.points) && whole(par.exact));
}

/** The stored results and pars: {results: {date: entry}, pars, unreadable: n (entries
 *  left where they are, not counted), raw (what is stored), foreign (a value there that is
 *  not ours: never overwritten)} — `storage` is storage.js (getJSON, setJSON). */
export function readDaily(storage) {
  const { value, error } = storage.getJSON(DAILY_KEY);
  const plain = (x) => Boolean(x) && typeof x === "object" && !Array.isArray(x);
  const ok = plain(value) && value.format === RESULTS_FORMAT && plain(value.results) && plain(value.pars ?? {});
  const raw = ok ? value : { format: RESULTS_FORMAT, results: {}, pars: {} };
  const results = {};
  const foreign = Boolean(error) || (Boolean(value) && !ok);
  let unreadable = foreign ? 1 : 0;
  for (const [date, entry] of Object.entries(raw.results)) {
    if (isResult(entry, date)) results[date] = entry;
    else unreadable += 1;
  }
  const pars = raw.pars ?? {};
  return { results, pars, unreadable, raw: { ...raw, pars }, foreign };
}

function write(storage, raw) {
  return storage.setJSON(DAILY_KEY, raw);
}

/** The cache key of a par: the date, the bots version and the daily version. */
export const parKey = (date, botsVersion, version) => `${date} ${botsVersion} ${version}`;

/** A day's result as stored, from the engine's daily_result answer. */
export function resultEntry(result, at) {
  return {
    date: result.date,
    points: result.points,
    exact: result.exact,
    bids: result.bids,
    marks: result.marks,
    rounds: result.rounds.map((r) => [r.bid, r.taken, r.points]),
    challenge: result.challenge ?? null,
    bots_version: result.bots_version ?? null,
    at,
    par: null,
  };
}

/** A kept result (an entry as stored) in the shape of the engine's daily_result answer,
 *  for the result dialog; `table`: the engine's `daily` answer for its date (its rules'
 *  hand sizes, the daily version, the bots version when the entry names none). */
export function keptResult(entry, table) {
  const sizes = table.rules?.schedule ?? [];
  const rounds = entry.rounds.map(([bid, taken, points], i) => ({
    round: i + 1, hand_size: sizes[i] ?? null, bid, taken, points, mark: entry.marks[i],
  }));
  return {
    date: entry.date, version: table.version, bots_version: entry.bots_version ?? table.bots_version,
    eligible: true, reason: null, challenge: entry.challenge ?? null,
    points: entry.points, exact: entry.exact, bids: entry.bids, rounds, marks: entry.marks,
  };
}

/** Keep `entry` as its date's result unless that day has one: true when kept.  What could
 *  not be read stays as it was (only this date's entry is written). */
export function keepResult(storage, entry) {
  const { results, raw: base, foreign } = readDaily(storage);
  if (results[entry.date] || foreign) return false;
  const all = { ...base.results, [entry.date]: entry };
  const dates = Object.keys(all).sort();
  for (const old of dates.slice(0, Math.max(0, dates.length - MAX_RESULTS))) delete all[old];
  write(storage, { ...base, results: all });
  return true;
}

/** Cache a par (the daily_par answer) and copy its figures into that day's result. */
export function keepPar(storage, par) {
  const { raw: base, foreign } = readDaily(storage);
  if (foreign) return;
  const pars = { ...base.pars, [parKey(par.date, par.bots_version, par.version)]: par };
  const keys = Object.keys(pars).sort((a, b) => (pars[a].date < pars[b].date ? -1 : 1));
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PARS))) delete pars[old];
  const results = { ...base.results };
  const mine = results[par.date];
  if (mine && !mine.par && (mine.bots_version ?? par.bots_version) === par.bots_version) {
    results[par.date] = { ...mine, par: { points: par.points, exact: par.exact } };
  }
  write(storage, { ...base, results, pars });
}

/** A cached par, or null. */
export function cachedPar(storage, date, botsVersion, version) {
  const par = readDaily(storage).pars[parKey(date, botsVersion, version)];
  return par && par.date === date && Array.isArray(par.rounds) ? par : null;
}

/**
 * The daily figures for `today`: {days (results in all), current (the streak of days
 * played ending today, or yesterday while today is still to play), longest, atPar (days
 * at or above their par), withPar (days whose par is known)}.
 */
export function dailyFigures(results, today) {
  const dates = Object.keys(results).filter((d) => d <= today).sort();
  let longest = 0;
  let run = 0;
  let previous = null;
  for (const d of dates) {
    run = previous !== null && daysBetween(previous, d) === 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
    previous = d;
  }
  let current = 0;
  let day = results[today] ? today : addDays(today, -1);
  while (results[day]) {
    current += 1;
    day = addDays(day, -1);
  }
  const withPar = dates.filter((d) => results[d].par);
  const atPar = withPar.filter((d) => results[d].points >= results[d].par.points).length;
  return { days: dates.length, current, longest, atPar, withPar: withPar.length };
}

/** How a calendar day is shown: "future", "none" (not played), "played" (par unknown),
 *  "at-par" (at or above par) or "below-par". */
export function dayState(results, date, today) {
  if (date > today) return "future";
  const r = results[date];
  if (!r) return "none";
  if (!r.par) return "played";
  return r.points >= r.par.points ? "at-par" : "below-par";
}

/** The calendar of the last `weeks` weeks up to `today`'s week (Monday first): a list of
 *  weeks, each seven {date, day (of the month), state, today}. */
export function calendar(results, today, weeks = CALENDAR_WEEKS) {
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const start = addDays(today, -weekday - 7 * (weeks - 1));
  const out = [];
  for (let w = 0; w < weeks; w++) {
    const week = [];
    for (let d = 0; d < 7; d++) {
      const date = addDays(start, 7 * w + d);
      week.push({ date, day: Number(date.slice(8)), state: dayState(results, date, today), today: date === today });
    }
    out.push(week);
  }
  return out;
}
