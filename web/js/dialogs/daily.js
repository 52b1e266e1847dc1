// The deal of the day's screens (docs/daily.md): the result dialog — the player's game
// beside the par, round by round, and the text to share — and the daily part of the
// Statistics screen (days played, the streak, days at or above par, the calendar of the
// last weeks, each day's game opening in the review).  Loaded when first needed.
//
// Contract hooks (docs/web-protocol.md): #dlg-daily[data-state="computing"|"ready"|
// "failed"][data-date][data-practice][data-points][data-exact][data-par-points]
// [data-par-exact]; #daily-rounds tr[data-round][data-mark][data-par-mark];
// #daily-share-text[data-marks] (the share text, marks as codes); buttons data-action =
// daily-copy, daily-share (only where the Web Share API is), review (the table's game) or,
// for a kept result shown again, daily-review[data-date], daily-practice (that day's deal
// again as practice: shown when the player chose the day again);
// #stats-daily dd[data-stat][data-value]; #daily-calendar td[data-date][data-state].

import { el, $, openDialog, tableHead } from "../dom/util.js";
import { copyText } from "./share.js";
import { t, msg, number, language } from "../i18n.js";
import * as storage from "../storage.js";
import { dayName, shareText } from "../daily.js";
import { readDaily, dailyFigures, calendar } from "../stats/daily.js";

// The screen's state is the controller's (`controller.screen("daily")`), held here as `S`
// while the dialog is in use: {shown: {result, par, practice, link, failure, kept,
// offerPractice} | null} (kept: the day's stored result, not the table's game).
let S = null;
const initialState = () => ({ shown: null });
// the words of the codes (each key written out: the catalogue tests find them)
const MARK_WORDS = { made: "daily.made", missed: "daily.missed" };
const DAY_WORDS = { "at-par": "daily.day_at_par", "below-par": "daily.day_below_par", played: "daily.day_played", none: "daily.day_none", future: "daily.day_future" };
const LEGEND = { "at-par": "daily.legend_at_par", "below-par": "daily.legend_below_par", played: "daily.legend_played", none: "daily.legend_none" };

const mark = (code) => t(code === "made" ? "daily.mark_made" : "daily.mark_missed");

function setData(node, data) {
  for (const [k, v] of Object.entries(data)) {
    if (v === null || v === undefined) delete node.dataset[k];
    else node.dataset[k] = String(v);
  }
}

/** One round of one side: bid / taken, the mark, the points. */
function cell(round) {
  if (!round) return el("td", { className: "pending" }, "…");
  const td = el("td", {}, t("daily.bid_taken", { bid: round.bid, taken: round.taken }));
  td.append(el("span", { className: `mark ${round.mark}`, "aria-label": t(MARK_WORDS[round.mark]) }, ` ${mark(round.mark)}`));
  td.append(el("span", { className: "pts" }, round.points > 0 ? t("round.plus", { n: round.points }) : number(round.points)));
  return td;
}

function roundsTable(result, par) {
  const table = $("daily-rounds");
  table.replaceChildren();
  table.append(el("caption", { className: "visually-hidden" }, t("daily.rounds_caption")));
  table.append(tableHead([t("sheet.round"), t("daily.col_cards"), t("daily.col_you"), t("daily.col_par")]));
  const body = el("tbody");
  result.rounds.forEach((r, i) => {
    const p = par?.rounds?.[i] ?? null;
    const tr = el("tr", { dataset: { round: String(r.round), mark: r.mark } });
    if (p) tr.dataset.parMark = p.mark;
    tr.append(el("th", { scope: "row" }, number(r.round)), el("td", {}, number(r.hand_size)), cell(r), cell(p));
    body.append(tr);
  });
  const total = el("tr", { className: "total" });
  const sum = (side) => (side ? `${t("daily.exact_of", { exact: side.exact, bids: side.bids })} · ${number(side.points)}` : "…");
  total.append(el("th", { scope: "row", colspan: "2" }, t("daily.total")), el("td", {}, sum(result)), el("td", {}, sum(par)));
  body.append(total);
  table.append(body);
}

function figures(result, par) {
  const box = $("daily-figures");
  box.replaceChildren();
  const list = el("dl", { className: "daily-figures" });
  const add = (stat, value, label, text) => list.append(el("dt", {}, label), el("dd", { dataset: { stat, value: String(value) } }, text));
  add("points", result.points, t("daily.your_points"), number(result.points));
  // "Your exact bids: 3 of 13" (the label says "exact" already)
  add("exact", result.exact, t("daily.your_exact"), t("daily.count_of", { exact: result.exact, bids: result.bids }));
  if (par) {
    add("par_points", par.points, t("daily.par_points"), number(par.points));
    add("par_exact", par.exact, t("daily.par_exact"), t("daily.count_of", { exact: par.exact, bids: par.bids }));
  }
  box.append(list);
  if (par) box.append(el("p", { className: "daily-verdict" }, t(result.points > par.points ? "daily.above_par" : result.points === par.points ? "daily.at_par" : "daily.below_par", { n: Math.abs(result.points - par.points) })));
}

function fill() {
  const { result, par, practice, link, failure, kept, offerPractice } = S.shown;
  const dlg = $("dlg-daily");
  const day = dayName(result.date, language(), true);
  $("daily-title").textContent = t(practice ? "daily.title_practice" : "daily.title", { date: day });
  const notes = [practice ? t(result.eligible ? "daily.practice_note" : "daily.not_result", { reason: result.reason ? t(result.reason) : "" }) : t("daily.kept_note")];
  if (!par) notes.push(failure ? t("daily.par_failed", { reason: msg(failure) }) : t("daily.par_computing"));
  $("daily-status").textContent = notes.join(" ");
  figures(result, par);
  roundsTable(result, par);
  const text = shareText(t, { day, result, par, link, practice });
  const box = $("daily-share-text");
  box.value = text;
  box.dataset.marks = result.marks.join(",");
  $("daily-share-status").textContent = "";
  dlg.querySelector('[data-action="daily-share"]').hidden = typeof navigator.share !== "function";
  // the table's game, or (a kept result shown again) the day's game as it was kept
  dlg.querySelector('[data-action="review"]').hidden = Boolean(kept);
  const reviewKept = dlg.querySelector('[data-action="daily-review"]');
  reviewKept.hidden = !kept || !result.challenge;
  reviewKept.dataset.date = result.date;
  dlg.querySelector('[data-action="daily-practice"]').hidden = !offerPractice;
  setData(dlg, {
    state: par ? "ready" : failure ? "failed" : "computing", date: result.date, practice: String(practice), kept: String(Boolean(kept)),
    points: result.points, exact: result.exact, parPoints: par?.points ?? null, parExact: par?.exact ?? null,
  });
}

/** Show a finished daily game: result (daily_result's answer), par (or null: still being
 *  computed), practice, link (the day's challenge link); controller: its screens' state;
 *  kept: the result is the day's stored one, not the table's game; offerPractice: offer
 *  its deal again as practice. */
export function openDailyResult(controller, { result, par, practice, link, kept = false, offerPractice = false }) {
  S = controller.screen("daily", initialState);
  S.shown = { result, par, practice, link, failure: null, kept, offerPractice };
  fill();
  openDialog($("dlg-daily"));
}

/** The par has come (or could not be computed: `failure`, an engine error). */
export function showPar(par, failure = null) {
  if (!S?.shown) return;
  S.shown = { ...S.shown, par, failure };
  fill();
}

/** Copy the share text (selected for copying by hand where the clipboard is refused). */
export function copyShare() {
  return copyText($("daily-share-text"), $("daily-share-status"), "daily.copied", "daily.copy_yourself");
}

/** Share it through the system's sheet (the Web Share API), else copy it. */
export async function shareResult() {
  const text = $("daily-share-text").value;
  if (typeof navigator.share !== "function") return copyShare();
  try {
    await navigator.share({ title: t("daily.menu"), text });
  } catch (err) {
    if (err?.name !== "AbortError") await copyShare();
  }
  return undefined;
}

/** The review of a day's result (its challenge text holds the whole game). */
export function reviewDay(date, review) {
  const entry = readDaily(storage).results[date];
  if (entry?.challenge) return review({ challenge: entry.challenge, player: 1 });
  return undefined;
}

function weekdayNames(lang) {
  const f = new Intl.DateTimeFormat(lang, { weekday: "short", timeZone: "UTC" });
  return [0, 1, 2, 3, 4, 5, 6].map((i) => f.format(new Date(Date.UTC(2026, 10, 30 + i)))); // 30 Nov 2026 is a Monday
}

/** The Statistics screen's daily part for `today`. */
export function dailySection(today) {
  const { results, unreadable } = readDaily(storage);
  const lang = language();
  const box = el("section", { className: "stats-daily", id: "stats-daily" });
  box.append(el("h3", {}, t("daily.stats_title")));
  const f = dailyFigures(results, today);
  if (!f.days && !unreadable) {
    // nothing to show yet: one line, not an empty calendar above the other statistics
    box.append(el("p", { className: "note", dataset: { stat: "daily_days", value: "0" } }, t("daily.stats_none")));
    return box;
  }
  const list = el("dl", { className: "stats-figures" });
  const add = (stat, value, label, text) => list.append(el("dt", {}, label), el("dd", { dataset: { stat, value: String(value) } }, text));
  add("daily_days", f.days, t("daily.stats_days"), number(f.days));
  add("daily_streak", f.current, t("daily.stats_streak"), t("daily.stats_streak_value", { current: f.current, longest: f.longest }));
  add("daily_at_par", f.atPar, t("daily.stats_at_par"), t("daily.stats_at_par_value", { n: f.atPar, of: f.withPar }));
  box.append(list);
  const weeks = calendar(results, today);
  const table = el("table", { className: "daily-calendar", id: "daily-calendar" });
  table.append(el("caption", {}, t("daily.calendar_caption", { from: dayName(weeks[0][0].date, lang), to: dayName(today, lang) })));
  table.append(tableHead(weekdayNames(lang)));
  const body = el("tbody");
  for (const week of weeks) {
    const tr = el("tr");
    for (const day of week) {
      const td = el("td", { dataset: { date: day.date, state: day.state }, className: `day ${day.state}${day.today ? " today" : ""}` });
      const label = t(DAY_WORDS[day.state], { date: dayName(day.date, lang, true) });
      if (results[day.date]) {
        const b = el("button", { type: "button", "data-action": "daily-review", "data-date": day.date, "aria-label": label, title: label }, number(day.day));
        td.append(b);
      } else {
        td.append(el("span", { title: label, "aria-label": label }, number(day.day)));
      }
      if (day.today) td.setAttribute("aria-current", "date");
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(body);
  box.append(table);
  const legend = el("p", { className: "note daily-legend" });
  for (const [state, key] of Object.entries(LEGEND)) {
    const item = el("span", { className: "item" });
    item.append(el("span", { className: `swatch ${state}`, "aria-hidden": "true" }), el("span", {}, t(key)));
    legend.append(item, " ");
  }
  box.append(legend);
  const notes = [t("daily.stats_note")];
  if (unreadable) notes.push(t("daily.stats_unreadable", { n: unreadable }));
  box.append(el("p", { className: "note" }, notes.join(" ")));
  return box;
}
