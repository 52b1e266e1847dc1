// The deal of the day's pure parts (web/js/daily.js, web/js/stats/daily.js, the #daily link
// form of web/js/fragment.js): the UTC date, the date in words, practice, the share text,
// the stored results (never overwriting what is not ours), the streak and the calendar —
// and, against the real engine, a whole daily game's result stored and shared.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, engineInfo } from "./engine-info.mjs";
import { startEngine } from "./engine-process.mjs";
import { format } from "../../web/js/i18n.js";
import { todayUtc, dayName, isPractice, shareText, challengeLink, dateShape, dateOfDailySeed } from "../../web/js/daily.js";
import {
  DAILY_KEY, RESULTS_FORMAT, addDays, daysBetween, isResult, readDaily, resultEntry, keepResult, keepPar,
  cachedPar, parKey, dailyFigures, dayState, calendar, keptResult,
} from "../../web/js/stats/daily.js";
import { parseFragment, serializeFragment } from "../../web/js/fragment.js";

const read = (p) => JSON.parse(readFileSync(path.join(ROOT, p), "utf8"));
const EN = { ...read("src/jabberwocky/locale/en.json"), ...read("web/i18n/en.json") };
const tr = (key, params = {}) => format(EN, key, params, new Intl.PluralRules("en"), new Intl.NumberFormat("en"), "en");

/** A stand-in for storage.js: getJSON / setJSON over a Map of texts. */
function memoryStorage(initial = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getJSON(key) {
      if (!items.has(key)) return { value: null };
      try {
        return { value: JSON.parse(items.get(key)) };
      } catch (e) {
        return { error: e.message };
      }
    },
    setJSON(key, value) {
      items.set(key, JSON.stringify(value));
      return true;
    },
  };
}

function entry(date, points = 5, par = null) {
  const marks = Array.from({ length: 13 }, (_, i) => (i < points ? "made" : "missed"));
  return { date, points, exact: points, bids: 13, marks, rounds: marks.map((m) => [1, m === "made" ? 1 : 0, m === "made" ? 1 : 0]), challenge: "jc1.x", bots_version: "jabberwocky-bots/3", at: 0, par };
}

// -- the day ------------------------------------------------------------------------------

test("today is the UTC date: the day changes at midnight UTC, whatever the device's zone", () => {
  assert.equal(todayUtc(Date.parse("2026-12-02T23:59:59.999Z")), "2026-12-02");
  assert.equal(todayUtc(Date.parse("2026-12-03T00:00:00Z")), "2026-12-03");
  assert.equal(todayUtc(Date.parse("2026-12-02T23:30:00-05:00")), "2026-12-03"); // New York's evening
  assert.equal(todayUtc(Date.parse("2026-12-03T08:30:00+09:00")), "2026-12-02"); // Seoul's morning
  assert.equal(todayUtc(0, "2027-01-05"), "2027-01-05"); // the test hook
  assert.equal(todayUtc(0, "5.1.2027"), "1970-01-01"); // a malformed hook is ignored
  assert.ok(dateShape("2026-12-02") && !dateShape("2026-12-2") && !dateShape(20261202));
});

test("the date in words, in each language's form, read in UTC", () => {
  assert.equal(dayName("2026-12-02", "en"), "2 December");
  assert.equal(dayName("2026-12-02", "en", true), "2 December 2026");
  assert.equal(dayName("2026-12-02", "de"), "2. Dezember");
  assert.equal(dayName("2026-12-02", "cs"), "2. prosince");
  assert.equal(dayName("2026-12-02", "ko"), "12월 2일");
  assert.equal(dayName("2027-01-01", "en"), "1 January"); // not the 31st in a zone west of UTC
});

test("a game of the day is practice when it is another day's, or today's is kept already", () => {
  assert.equal(isPractice("2026-12-02", "2026-12-02", {}), false);
  assert.equal(isPractice("2026-12-02", "2026-12-02", { "2026-12-02": entry("2026-12-02") }), true);
  assert.equal(isPractice("2026-12-01", "2026-12-02", {}), true);
});

// -- the share text ------------------------------------------------------------------------

test("the share text: date, points and exact bids against par, one mark per round, the link", () => {
  const result = { points: 6, exact: 6, bids: 4, marks: ["made", "missed", "missed", "made"] };
  const link = challengeLink("https://example.github.io/jabberwocky/#daily=2026-12-02", "jc1.ABC-_");
  assert.equal(link, "https://example.github.io/jabberwocky/#challenge=jc1.ABC-_");
  const text = shareText(tr, { day: "2 December 2026", result, par: { points: 9, exact: 9 }, link });
  assert.deepEqual(text.split("\n"), [
    "Jabberwocky, deal of the day: 2 December 2026",
    "Points: 6 · exact bids: 6/4",
    "Par: 9 · exact bids: 9",
    "✓✗✗✓",
    link,
  ]);
  const practice = shareText(tr, { day: "1 December 2026", result, par: null, link: "", practice: true });
  assert.deepEqual(practice.split("\n"), ["Jabberwocky, deal of the day: 1 December 2026 (practice)", "Points: 6 · exact bids: 6/4", "✓✗✗✓"]);
});

test("every language has a mark for made and for missed, and they differ", () => {
  for (const lang of ["en", "de", "cs", "ko"]) {
    const cat = read(`web/i18n/${lang}.json`);
    assert.ok(cat["daily.mark_made"] && cat["daily.mark_missed"] && cat["daily.mark_made"] !== cat["daily.mark_missed"], lang);
  }
});

// -- days and streaks ----------------------------------------------------------------------------

test("calendar arithmetic across months, years and leap days", () => {
  assert.equal(addDays("2026-12-31", 1), "2027-01-01");
  assert.equal(addDays("2028-03-01", -1), "2028-02-29");
  assert.equal(addDays("2026-03-01", -1), "2026-02-28");
  assert.equal(daysBetween("2026-11-29", "2026-12-02"), 3);
  assert.equal(daysBetween("2026-03-28", "2026-03-30"), 2); // not 47 hours in a zone with summer time
});

test("the streak: days played in a row up to today, or up to yesterday while today is to play", () => {
  const results = {};
  for (const d of ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-29", "2026-11-30"]) results[d] = entry(d);
  assert.deepEqual(dailyFigures(results, "2026-11-30"), { days: 5, current: 2, longest: 3, atPar: 0, withPar: 0 });
  assert.equal(dailyFigures(results, "2026-12-01").current, 2); // today not played yet
  assert.equal(dailyFigures(results, "2026-12-02").current, 0); // a day missed
  results["2026-12-02"] = entry("2026-12-02");
  assert.deepEqual(dailyFigures(results, "2026-12-02"), { days: 6, current: 1, longest: 3, atPar: 0, withPar: 0 });
  assert.equal(dailyFigures(results, "2026-11-21").days, 2, "a result filed after today (a wrong clock) is not counted");
  assert.equal(dailyFigures({}, "2026-12-02").current, 0);
});

test("days at or above par count only the days whose par is known", () => {
  const results = {
    "2026-12-01": entry("2026-12-01", 9, { points: 9, exact: 9 }),
    "2026-12-02": entry("2026-12-02", 4, { points: 9, exact: 9 }),
    "2026-12-03": entry("2026-12-03", 7, { points: 6, exact: 6 }),
    "2026-12-04": entry("2026-12-04", 7),
  };
  const f = dailyFigures(results, "2026-12-04");
  assert.equal(f.atPar, 2);
  assert.equal(f.withPar, 3);
  assert.deepEqual(["2026-12-01", "2026-12-02", "2026-12-04", "2026-12-05", "2026-12-06"].map((d) => dayState(results, d, "2026-12-05")),
    ["at-par", "below-par", "played", "none", "future"]);
});

test("the calendar: five weeks, Monday first, ending with today's week", () => {
  const results = { "2026-11-30": entry("2026-11-30"), "2026-12-02": entry("2026-12-02", 9, { points: 1, exact: 1 }) };
  const weeks = calendar(results, "2026-12-02"); // a Wednesday
  assert.equal(weeks.length, 5);
  assert.ok(weeks.every((w) => w.length === 7));
  assert.equal(weeks[0][0].date, "2026-11-02"); // a Monday
  assert.equal(weeks[4][6].date, "2026-12-06");
  const days = weeks.flat();
  assert.equal(days.filter((d) => d.today).length, 1);
  assert.equal(days.find((d) => d.today).date, "2026-12-02");
  assert.equal(days.find((d) => d.date === "2026-11-30").state, "played");
  assert.equal(days.find((d) => d.date === "2026-12-02").state, "at-par");
  assert.equal(days.find((d) => d.date === "2026-12-01").state, "none");
  assert.ok(days.filter((d) => d.date > "2026-12-02").every((d) => d.state === "future"));
  assert.equal(calendar({}, "2026-11-30")[4][0].date, "2026-11-30"); // today a Monday: its row starts with it
});

// -- the store ----------------------------------------------------------------------------------

test("a day's first result is kept, a later one is not; a par is cached and copied into it", () => {
  const storage = memoryStorage();
  assert.equal(keepResult(storage, entry("2026-12-02", 5)), true);
  assert.equal(keepResult(storage, entry("2026-12-02", 8)), false);
  assert.equal(readDaily(storage).results["2026-12-02"].points, 5);
  const par = { date: "2026-12-02", version: "jabberwocky-daily/1", bots_version: "jabberwocky-bots/3", level: "hard", points: 9, exact: 9, bids: 13, rounds: [] };
  keepPar(storage, par);
  assert.deepEqual(cachedPar(storage, "2026-12-02", "jabberwocky-bots/3", "jabberwocky-daily/1"), par);
  assert.equal(cachedPar(storage, "2026-12-02", "jabberwocky-bots/4", "jabberwocky-daily/1"), null);
  assert.deepEqual(readDaily(storage).results["2026-12-02"].par, { points: 9, exact: 9 });
  assert.equal(parKey("2026-12-02", "b/3", "d/1"), "2026-12-02 b/3 d/1");
  assert.equal(JSON.parse(storage.items.get(DAILY_KEY)).format, RESULTS_FORMAT);
});

test("what is not ours is never overwritten, and an unreadable entry is left as it was", () => {
  for (const text of ["{not json", JSON.stringify({ format: "someone-else/1", results: {} }), JSON.stringify([1, 2])]) {
    const storage = memoryStorage({ [DAILY_KEY]: text });
    assert.equal(keepResult(storage, entry("2026-12-02")), false);
    keepPar(storage, { date: "2026-12-02", version: "v", bots_version: "b", points: 1, exact: 1, rounds: [] });
    assert.equal(storage.items.get(DAILY_KEY), text);
    assert.equal(readDaily(storage).unreadable, 1);
  }
  const odd = { format: RESULTS_FORMAT, results: { "2026-12-01": { date: "2026-12-01", points: "lots" }, "2026-12-09": entry("2026-12-08") }, pars: {} };
  const storage = memoryStorage({ [DAILY_KEY]: JSON.stringify(odd) });
  assert.equal(readDaily(storage).unreadable, 2);
  assert.equal(keepResult(storage, entry("2026-12-02")), true);
  const kept = JSON.parse(storage.items.get(DAILY_KEY)).results;
  assert.deepEqual(kept["2026-12-01"], odd.results["2026-12-01"]); // still there, as it was
  assert.ok(isResult(kept["2026-12-02"], "2026-12-02"));
});

test("a result's checks: its date, whole figures, one mark per round", () => {
  assert.ok(isResult(entry("2026-12-02"), "2026-12-02"));
  assert.ok(!isResult(entry("2026-12-02"), "2026-12-03"));
  assert.ok(!isResult({ ...entry("2026-02-30"), date: "2026-02-30" }, "2026-02-30"));
  assert.ok(!isResult({ ...entry("2026-12-02"), marks: ["made"] }, "2026-12-02"));
  assert.ok(!isResult({ ...entry("2026-12-02"), exact: 14 }, "2026-12-02"));
  assert.ok(!isResult({ ...entry("2026-12-02"), par: { points: "x" } }, "2026-12-02"));
  assert.ok(!isResult(null, "2026-12-02"));
});

// -- the link --------------------------------------------------------------------------------------

test("#daily links: today's, a day's, a malformed day said and today's dealt", () => {
  const { levels, rules } = engineInfo();
  const parse = (hash) => parseFragment(hash, levels.levels, rules);
  assert.deepEqual(parse("#daily").options, { daily: "" });
  assert.deepEqual(parse("#daily=2026-12-02&lang=de").options, { daily: "2026-12-02", lang: "de" });
  const bad = parse("#daily=2.12.2026");
  assert.deepEqual(bad.options, { daily: "" });
  assert.deepEqual(bad.problems, [{ key: "link.daily_date", params: { value: "2.12.2026" } }]);
  assert.ok(tr("link.daily_date", bad.problems[0].params).includes("2.12.2026"));
  assert.equal(serializeFragment({ daily: "2026-12-02", practice: true }), "#daily=2026-12-02");
  assert.deepEqual(parse(serializeFragment({ daily: "2026-12-02" })).options, { daily: "2026-12-02" });
});

// -- against the engine --------------------------------------------------------------------------

const engine = startEngine();
after(() => engine.stop());

test("a whole daily game through the engine: its result is stored as is and shared with its marks", async () => {
  const table = await engine.request("daily", { date: "2026-12-02" });
  assert.equal(table.seed, "daily-2026-12-02-6c064693");
  let view = await engine.request("new_game", { seed: table.seed, players: table.players, bots: table.bots, rules: table.rules });
  while (view.phase !== "game-over") {
    if (view.phase === "round-over") view = await engine.request("next_round");
    else if (view.your_turn && view.phase === "bidding") view = await engine.request("bid", { bid: view.legal_bids.at(-1) });
    else if (view.your_turn) view = await engine.request("play", { card: view.legal_cards[0] });
    else view = (await engine.request("bot_step")).view;
  }
  // the review's title names the day, read from the seed (not the seed itself)
  assert.equal(dateOfDailySeed(table.seed), "2026-12-02");
  for (const other of ["daily-2026-12-02", "brave-otter-lamp-42", "daily-2026-12-02-6c064693x", null]) assert.equal(dateOfDailySeed(other), null);
  assert.equal(tr("review.title_daily", { date: dayName("2026-12-02", "en", true) }), "Review · deal of the day, 2 December 2026");
  const result = await engine.request("daily_result");
  assert.equal(result.eligible, true);
  const stored = resultEntry(result, 123);
  assert.ok(isResult(stored, "2026-12-02"), JSON.stringify(stored));
  const storage = memoryStorage();
  assert.equal(keepResult(storage, stored), true);
  // the kept entry shows again (choosing the day once more) as the engine's answer did
  assert.deepEqual(keptResult(stored, table), result);
  const marks = view.history.map((r) => (r.bids[0] === r.taken[0] ? "✓" : "✗")).join("");
  const text = shareText(tr, { day: dayName(result.date, "en", true), result, par: null, link: challengeLink("https://x/", result.challenge) });
  assert.equal(text.split("\n")[2], marks);
  assert.equal(result.points, view.scores[0]);
  await assert.rejects(engine.request("daily", { date: "2026-02-30" }), (e) => e.code === "daily.date_none");
});
