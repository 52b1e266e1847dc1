// The deal of the day on the page (issue 32, docs/daily.md): which day it is (UTC), starting
// and resuming the day's game, practice or not, and at its end the result beside the par
// (dialogs/daily.js) and the day's result kept (stats/daily.js).  The engine derives the
// seed from the date (the `daily` request), says whether a finished game may be the day's
// result and gives its marks as codes (`daily_result`) and computes the par (`daily_par`);
// nothing here knows a rule.
//
// State: controller.store's `daily` — null, or {date, seed, practice} while a deal of the
// day is on the table (set here only).  The top of the table says which day it is and
// whether the game is practice; body[data-daily] (the date) and body[data-daily-practice].
// Test hook: localStorage "jabberwocky.dailyToday" = "YYYY-MM-DD" is today (else the clock).

import { t, language, onLanguage } from "./i18n.js";
import * as storage from "./storage.js";
import { readDaily, resultEntry, keepResult, keepPar, cachedPar, keptResult } from "./stats/daily.js";

export const TODAY_KEY = "jabberwocky.dailyToday";
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Is `text` written YYYY-MM-DD (the engine checks that the day exists)? */
export const dateShape = (text) => typeof text === "string" && DATE_RE.test(text);

/** The date a deal of the day's seed names ("daily-2026-12-06-5aeb58f4", docs/daily.md),
 *  else null. */
export function dateOfDailySeed(seed) {
  const m = /^daily-(\d{4}-\d{2}-\d{2})-[0-9a-f]{8}$/.exec(typeof seed === "string" ? seed : "");
  return m ? m[1] : null;
}

/** Today in UTC, "YYYY-MM-DD", at `now` (ms); `override` (the test hook) wins if well formed. */
export function todayUtc(now = Date.now(), override = null) {
  if (dateShape(override)) return override;
  return new Date(now).toISOString().slice(0, 10);
}

/** The page's today: the test hook's date, else the device's clock read in UTC. */
export function today() {
  return todayUtc(Date.now(), storage.getItem(TODAY_KEY));
}

/** "2 December" (or with the year) in `lang`, the date read in UTC (English as the
 *  page's other words: British, day before month). */
export function dayName(date, lang, withYear = false) {
  const options = { day: "numeric", month: "long", timeZone: "UTC" };
  if (withYear) options.year = "numeric";
  return new Intl.DateTimeFormat(lang === "en" ? "en-GB" : lang, options).format(new Date(`${date}T00:00:00Z`));
}

/** A game of `date`'s deal is practice unless it is today's and today has no result yet. */
export function isPractice(date, todayDate, results) {
  return date !== todayDate || Boolean(results[date]);
}

/**
 * The text to share, spoiling nothing: the date, points and exact bids against the par,
 * one mark per round, the day's challenge link.  `tr` is i18n's t; result: {points, exact,
 * bids, marks}; par: {points, exact} or null; day: the date in words.
 */
export function shareText(tr, { day, result, par, link, practice = false }) {
  const lines = [tr(practice ? "daily.share_title_practice" : "daily.share_title", { date: day })];
  lines.push(tr("daily.share_score", { points: result.points, exact: result.exact, bids: result.bids }));
  if (par) lines.push(tr("daily.share_par", { points: par.points, exact: par.exact }));
  lines.push(result.marks.map((m) => tr(m === "made" ? "daily.mark_made" : "daily.mark_missed")).join(""));
  if (link) lines.push(link);
  return lines.join("\n");
}

/** The day's challenge link for this page. */
export function challengeLink(href, text) {
  return text ? `${href.split("#")[0]}#challenge=${encodeURIComponent(text)}` : "";
}

/**
 * The deal of the day's manager.  controller: the game controller; engine: engine.js's
 * (daily, dailyPar, dailyResult); confirmReplace(): resolves true when the game in
 * progress may be replaced.  Returns {start, resumed, active, saveOptions, showResult}.
 */
export function createDaily({ controller, engine, confirmReplace = async () => true }) {
  let pending = null; // the day being started, until its "game" event
  // Whether the end of the game on the table was handled: every game put on the table
  // (a "game" event) is a new one, though a second game of the same deal ends with the
  // same seed and step count (a resumed finished game emits no "round", so it is not shown).
  let endShown = false;
  const notice = (key, params = {}, ms = 8000) => controller.notice(key, params, ms);

  controller.addEventListener("game", ({ detail }) => {
    const mine = detail.how === "daily" && pending && detail.view.seed === pending.seed;
    controller.store.set({ daily: mine ? pending : null });
    pending = null;
    endShown = false;
  });
  controller.addEventListener("round", ({ detail }) => {
    const d = controller.state.daily;
    if (!d || detail.view.phase !== "game-over" || controller.state.mode !== "play") return;
    if (endShown) return;
    endShown = true;
    finish(d);
  });
  // the bar follows the table's deal of the day and its phase, not every change of the table
  controller.store.subscribe((state, keys) => {
    if (keys.has("daily") || keys.has("view")) render(state);
  });
  onLanguage(() => render(controller.state));

  /** Start `date`'s deal (today's by default); `ask`: confirm before replacing a game (the
   *  player chose it: a day whose result is kept already shows that result first, its
   *  dialog offering the practice game); `practice`: deal the practice game at once;
   *  `instead`: a link's day, whose refusal says that today's deal is dealt instead;
   *  `quiet`: that today's deal, which goes on without another word if on the table. */
  async function start(date = today(), { ask = true, practice = false, instead = false, quiet = false } = {}) {
    const on = controller.state.daily;
    const phase = controller.state.view?.phase;
    if (on && on.date === date && phase && phase !== "game-over") {
      // this very deal is on the table, unfinished: it goes on (starting it again would
      // be a take-back of every move)
      if (!quiet) notice("daily.already", { date: dayName(date, language()) }, 4200);
      return true;
    }
    const { result, error } = await engine.daily(date);
    if (error) {
      notice(instead ? "daily.dealt_today" : "daily.start_failed", { reason: error });
      return false;
    }
    const results = readDaily(storage).results;
    const kept = result.date === today() ? results[result.date] : undefined;
    if (kept && ask && !practice) {
      // today's result is kept: it comes first (the table stays as it is)
      await showKept(kept, result, { offerPractice: true });
      return true;
    }
    if (ask && !(await confirmReplace())) return false;
    pending = { date: result.date, seed: result.seed, practice: isPractice(result.date, today(), results) };
    const ok = await controller.newGame({ seed: result.seed, players: result.players, bots: result.bots, rules: result.rules }, "daily");
    // a link to a day already played: its practice game is dealt, the result shown over it
    if (ok && kept && !ask) await showKept(kept, result, { offerPractice: false });
    return ok;
  }

  /** The day's kept result (stored entry) beside its par, as at the end of its game;
   *  table: the engine's `daily` answer for its date (the hand sizes, the version). */
  function showKept(entry, table, { offerPractice }) {
    return openResult(keptResult(entry, table), false, { kept: true, offerPractice });
  }

  /** The result dialog for `result` beside its par (cached, else computed in the worker
   *  and kept); `extra`: openDailyResult's kept / offerPractice. */
  async function openResult(result, practice, extra = {}) {
    const { openDailyResult } = await import("./dialogs/daily.js");
    const par = cachedPar(storage, result.date, result.bots_version, result.version);
    openDailyResult(controller, { result, par, practice, link: challengeLink(location.href, result.challenge), ...extra });
    if (!par) await computePar(result.date);
  }

  async function computePar(date) {
    const { showPar } = await import("./dialogs/daily.js");
    const answer = await engine.dailyPar(date);
    if (answer.error) {
      showPar(null, answer.error);
      return;
    }
    keepPar(storage, answer.result);
    showPar(answer.result);
  }

  /** A resumed save: its daily options (if any) put the day back on the table. */
  function resumed(options) {
    const view = controller.state.view;
    if (!options?.daily || !view || !dateShape(options.daily) || !view.seed.startsWith(`daily-${options.daily}-`)) return;
    controller.store.set({ daily: { date: options.daily, seed: view.seed, practice: options.practice !== false } });
  }

  /** The save's options while a deal of the day is on the table, else null. */
  function saveOptions() {
    const d = controller.state.daily;
    return d ? { daily: d.date, practice: d.practice } : null;
  }

  /** The game is over: keep the day's result (the first finished game of the day), then
   *  show it beside the par (computed in the worker once, then cached). */
  async function finish(d) {
    const { result, error } = await engine.dailyResult();
    if (error) {
      notice("daily.result_failed", { reason: error });
      return;
    }
    // a result is kept only for the day's first eligible game; anything else is practice
    const practice = d.practice || !result.eligible || !keepResult(storage, resultEntry(result, Date.now()));
    await showResult(result, practice);
  }

  /** Open the result dialog for the table's finished daily game (again). */
  async function showResult(given = null, practiceGiven = null) {
    const d = controller.state.daily;
    let result = given;
    if (!result) {
      const answer = await engine.dailyResult();
      if (answer.error) {
        notice("daily.result_failed", { reason: answer.error });
        return;
      }
      result = answer.result;
    }
    await openResult(result, practiceGiven ?? (d ? d.practice : true));
  }

  const active = () => Boolean(controller.state.daily);

  /** The bar at the top of the table, the body's markers, the round panel's button. */
  function render(state) {
    const d = state.daily;
    const bar = document.getElementById("daily-bar");
    const body = document.body;
    if (!bar) return;
    if (!d) {
      bar.hidden = true;
      delete body.dataset.daily;
      delete body.dataset.dailyPractice;
    } else {
      bar.hidden = false;
      body.dataset.daily = d.date;
      body.dataset.dailyPractice = String(d.practice);
      const day = dayName(d.date, language());
      const isToday = d.date === today();
      const text = d.practice ? t(isToday ? "daily.bar_practice_today" : "daily.bar_practice", { date: day }) : t("daily.bar_today", { date: day });
      document.getElementById("daily-text").textContent = text;
      bar.title = t("daily.utc_note");
    }
    const button = document.querySelector('#round-panel [data-action="daily-result"]');
    if (button) button.hidden = !(d && state.view?.phase === "game-over");
  }

  /** The kept result's dialog: play the day's deal again as practice. */
  const practise = () => start(today(), { practice: true });

  return { start, resumed, active, saveOptions, showResult, practise };
}
