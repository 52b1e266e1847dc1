// The Statistics screen: every finished game kept on this device (stats/store.js), tallied
// by the engine (the `stats` request: the same code as `simulate`'s summary), with charts
// where a picture says it faster (the exact-bid rate by hand size, the trend over the last
// games), each with a table for screen readers; the list of past games (play the same
// deals again, or review one); export, import and clear.  Loaded when first opened.
//
// Contract hooks: #dlg-stats[data-state="loading"|"ready"][data-games][data-stored];
// figures dd[data-stat][data-value] (the summary's raw numbers); the list's items
// li[data-game-id]; buttons data-action = stats-play | review-game (with data-game-id),
// stats-export, stats-import, stats-clear, stats-compare, stats-more; #stats-status
// (role=status) with data-added, data-duplicates, data-dropped, data-refused after an import;
// an online game's item has data-online="true" (its figures are the keeper's own seat's).

import { el, $, openDialog, download, tableHead } from "../dom/util.js";
import { t, msg, percent, number, language } from "../i18n.js";
import { confirmAction, gameInProgress } from "./confirm.js";
import { gameStore, capacity } from "../stats/store.js";
import { importRecords } from "../stats/keep.js";
import { toJsonLines, exportName } from "../stats/jsonl.js";
import { barChart, lineChart, chartBlock } from "../stats/charts.js";
import { dailySection } from "./daily.js"; // the deal of the day's results (issue 32)
import { today } from "../daily.js";

const MAX_FILE_BYTES = 64 * 1024 * 1024;
const PAGE = 20; // past games shown at first, and per "show more"
const COMPARE_BATCH = 5;

// The context of the screen in use: {controller, setup, state}, where `state` is the
// screen's state, the controller's (`controller.screen("stats", initialState)`).
let ctx = null;

/** {entries: the stored games, oldest first; tallied: the entries the summary counts
 *  (index i of the summary is tallied[i]); shown: how many past games are listed; wired:
 *  the file input's listener}. */
export const initialState = () => ({ entries: [], tallied: [], shown: 0, wired: false });

const engine = () => ctx.controller.engine;
const dialog = () => $("dlg-stats");

function decimals(n, digits = 2) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: digits }).format(n);
}

function status(text, data = {}) {
  const line = $("stats-status");
  line.textContent = text;
  for (const k of ["added", "duplicates", "dropped", "refused"]) delete line.dataset[k];
  Object.assign(line.dataset, data);
}

function rated({ exact, bids, rate }) {
  return bids ? t("stats.of", { rate: percent(rate), exact, bids }) : "–";
}

function figure(list, stat, value, label, text) {
  const dd = el("dd", { dataset: { stat, value: String(value) } }, text);
  list.append(el("dt", {}, label), dd);
}

function table(caption, heads, rows) {
  const tbl = el("table", { className: "stats-table" });
  tbl.append(el("caption", {}, caption));
  const head = tableHead(heads);
  const body = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((cell, i) => tr.append(i === 0 ? el("th", { scope: "row" }, cell) : el("td", {}, cell)));
    body.append(tr);
  }
  tbl.append(head, body);
  return tbl;
}

function levelName(level) {
  if (level === "people") return t("stats.level_people"); // an online game
  return level === "mixed" ? t("stats.level_mixed") : t(`level.${level}`);
}

function positionName(key, players) {
  return Number(key) === players ? t("stats.position_dealer") : t("stats.position", { n: Number(key) });
}

function figures(s) {
  const list = el("dl", { className: "stats-figures" });
  figure(list, "games", s.games, t("stats.games"), number(s.games));
  figure(list, "win_share", s.win_share, t("stats.wins"), t("stats.wins_value", { wins: decimals(s.wins, 1), share: percent(s.win_share) }));
  figure(list, "points_per_game", s.points_per_game, t("stats.points_per_game"), decimals(s.points_per_game));
  figure(list, "exact_bid_rate", s.exact_bid_rate, t("stats.exact_rate"), rated({ exact: s.exact, bids: s.bids, rate: s.exact_bid_rate }));
  figure(list, "recent_rate", s.recent.rate, t("stats.recent", { n: s.recent.games }), rated(s.recent));
  figure(list, "zero_bids", s.zero_bids.rate, t("stats.zero_bids"), rated(s.zero_bids));
  figure(list, "other_bids", s.other_bids.rate, t("stats.other_bids"), rated(s.other_bids));
  figure(list, "hook_dealer", s.hook_dealer.rate, t("stats.hook_dealer"), rated(s.hook_dealer));
  figure(list, "win_streak", s.streaks.wins.longest, t("stats.streak_wins"), t("stats.streak_value", { longest: s.streaks.wins.longest, current: s.streaks.wins.current }));
  figure(list, "exact_streak", s.streaks.exact_bids.longest, t("stats.streak_exact"), t("stats.streak_value", { longest: s.streaks.exact_bids.longest, current: s.streaks.exact_bids.current }));
  const best = s.best_game;
  if (best) {
    figure(list, "best_game", best.points, t("stats.best_game"), t("stats.best_value", { points: best.points, place: t("standings.nth", { n: best.place }), seed: best.seed }));
  }
  return list;
}

function bySizeChart(s) {
  const keys = Object.keys(s.by_hand_size).sort((a, b) => a - b);
  const rows = keys.map((k) => [number(Number(k)), rated(s.by_hand_size[k])]);
  const chart = barChart({
    values: keys.map((k) => s.by_hand_size[k].rate),
    labels: keys.map((k) => number(Number(k))),
    title: t("stats.by_size_title"),
    yLabel: (v) => percent(v),
    valueLabel: (v) => percent(v),
  });
  const tbl = table(t("stats.by_size_title"), [t("stats.col_hand_size"), t("stats.col_exact")], rows);
  tbl.querySelectorAll("tbody tr").forEach((tr, i) => { tr.dataset.handSize = keys[i]; tr.dataset.value = String(s.by_hand_size[keys[i]].rate); });
  return chartBlock({ chart, caption: t("stats.by_size_caption"), table: tbl, showTableLabel: t("stats.as_table"), name: "by-hand-size" });
}

function trendChart(s) {
  const games = s.recent.per_game;
  // each game's rate, and the running rate over the games shown so far (steadier)
  let e = 0;
  let b = 0;
  const running = games.map((g) => {
    e += g.exact;
    b += g.bids;
    return b ? e / b : 0;
  });
  const labels = games.map((g) => number(g.index + 1));
  const chart = lineChart({
    series: [{ values: games.map((g) => g.rate) }, { values: running }],
    labels,
    title: t("stats.trend_title", { n: games.length }),
    yLabel: (v) => percent(v),
    yMin: 0,
    yMax: 1,
  });
  const rows = games.map((g, i) => [number(g.index + 1), rated(g), percent(running[i])]);
  const tbl = table(t("stats.trend_title", { n: games.length }), [t("stats.col_game"), t("stats.col_exact"), t("stats.col_running")], rows);
  return chartBlock({
    chart,
    caption: t("stats.trend_caption"),
    table: tbl,
    legendNames: [t("stats.trend_each"), t("stats.trend_running")],
    showTableLabel: t("stats.as_table"),
    name: "trend",
  });
}

function comparison(s) {
  const box = el("section", { className: "stats-compare" });
  box.append(el("h3", {}, t("stats.compare_title")));
  const c = s.compared;
  if (c) {
    const p = el("p", { dataset: { compared: String(c.games), yours: String(c.exact_bid_rate), bot: String(c.bot_exact_bid_rate) } },
      t("stats.compared", { yours: percent(c.exact_bid_rate), bot: percent(c.bot_exact_bid_rate), games: c.games, your_points: decimals(c.points_per_game), bot_points: decimals(c.bot_points_per_game) }));
    box.append(p);
  } else {
    box.append(el("p", { className: "note" }, t("stats.compare_none")));
  }
  // an online game cannot be played again with a bot in your seat: the others were people
  const left = ctx.state.tallied.filter((e) => !e.facts.compared && !e.facts.online).length;
  if (left && ctx.setup?.levels?.includes("hard")) {
    box.append(el("button", { type: "button", "data-action": "stats-compare" }, t("stats.compare", { n: Math.min(COMPARE_BATCH, left) })));
  }
  return box;
}

function more(s, players) {
  const details = el("details", { className: "stats-more" });
  details.append(el("summary", {}, t("stats.more")));
  const bids = Object.keys(s.by_bid).sort((a, b) => a - b);
  details.append(table(t("stats.by_bid_title"), [t("stats.col_bid"), t("stats.col_exact")], bids.map((k) => [number(Number(k)), rated(s.by_bid[k])])));
  const positions = Object.keys(s.by_position).sort((a, b) => a - b);
  details.append(table(t("stats.by_position_title"), [t("stats.col_position"), t("stats.col_exact")],
    positions.map((k) => [positionName(k, players), rated(s.by_position[k])])));
  const wins = (v) => t("stats.wins_of", { wins: decimals(v.wins, 1), games: v.games, share: percent(v.share) });
  details.append(table(t("stats.by_level_title"), [t("stats.col_level"), t("stats.col_wins")],
    Object.keys(s.wins_by_level).map((k) => [levelName(k), wins(s.wins_by_level[k])])));
  details.append(table(t("stats.by_players_title"), [t("stats.col_players"), t("stats.col_wins")],
    Object.keys(s.wins_by_players).map((k) => [number(Number(k)), wins(s.wins_by_players[k])])));
  return details;
}

function botsOf(seats) {
  const bots = seats.slice(1);
  const levels = [...new Set(bots)];
  return levels.length === 1 ? levelName(levels[0]) : bots.map(levelName);
}

function pastGames() {
  const box = el("section", { className: "stats-games" });
  box.append(el("h3", {}, t("stats.list_title")));
  const list = el("ol", { className: "stats-list", reversed: "" });
  const date = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  const newest = ctx.state.entries.slice().reverse();
  for (const entry of newest.slice(0, ctx.state.shown)) {
    const f = entry.facts;
    const me = f.me ?? 0; // the keeper's seat: 0 unless an online guest's
    const place = 1 + f.scores.filter((p) => p > f.scores[me]).length;
    const won = f.winners.includes(me);
    const li = el("li", { dataset: { gameId: entry.id, ...(f.online ? { online: "true" } : {}) }, className: won ? "won" : "" });
    const what = el("div", { className: "what" });
    what.append(
      el("span", { className: "when" }, date.format(new Date(entry.added))),
      el("span", { className: "score" }, t("stats.list_score", { points: f.scores[me], place: t("standings.nth", { n: place }) })),
      el("span", { className: "table" }, f.online ? t("stats.list_online", { players: f.players, seed: f.seed })
        : t("stats.list_table", { players: f.players, bots: botsOf(f.seats), seed: f.seed })),
    );
    const actions = el("div", { className: "actions" });
    actions.append(
      el("button", { type: "button", "data-action": "stats-play", "data-game-id": entry.id }, t("stats.play")),
      el("button", { type: "button", "data-action": "review-game", "data-game-id": entry.id }, t("stats.review")),
    );
    li.append(what, actions);
    list.append(li);
  }
  box.append(list);
  if (newest.length > ctx.state.shown) box.append(el("button", { type: "button", "data-action": "stats-more" }, t("stats.show_more", { n: newest.length - ctx.state.shown })));
  return box;
}

/** Tally the store and show it. */
async function refresh(message = null) {
  const dlg = dialog();
  dlg.dataset.state = "loading";
  if (!message) status(t("stats.loading"));
  const store = gameStore();
  const { problem } = await store.open();
  const notes = [];
  if (problem === "set_aside") notes.push(t("stats.store_set_aside"));
  if (problem === "unavailable") notes.push(t("stats.store_unavailable"));
  const listed = await store.list();
  ctx.state.entries = listed.entries;
  let aside = listed.setAside;
  let summary = null;
  ctx.state.tallied = [];
  if (ctx.state.entries.length) {
    // each game from its keeper's own seat (facts.me: 0 unless an online guest's)
    const { result, error } = await engine().stats({ facts: ctx.state.entries.map((e) => e.facts) });
    if (error) {
      notes.push(t("stats.failed", { reason: msg(error) }));
    } else {
      summary = result.summary;
      const bad = new Set(result.refused.map((r) => r.index));
      if (bad.size) {
        await store.setAside([...bad].map((i) => ctx.state.entries[i].id), "refused");
        aside += bad.size;
        ctx.state.entries = ctx.state.entries.filter((_, i) => !bad.has(i));
      }
      ctx.state.tallied = ctx.state.entries;
    }
  }
  if (aside) notes.push(t("stats.entries_set_aside", { n: aside }));
  const body = $("stats-body");
  body.replaceChildren();
  if (!summary || !summary.games) {
    body.append(el("p", { className: "stats-empty" }, t("stats.empty")));
  } else {
    const players = Math.max(...ctx.state.tallied.map((e) => e.facts.players));
    // a heading of their own: after the deal of the day's section they read as its figures
    body.append(el("h3", {}, t("stats.all_games")), figures(summary), el("p", { className: "note" }, t("stats.wins_note")), bySizeChart(summary), trendChart(summary), comparison(summary), more(summary, players), pastGames());
  }
  body.prepend(dailySection(today())); // the deal of the day: streak, par, calendar
  body.append(el("p", { className: "note" }, t("stats.privacy", { max: capacity() })));
  dlg.dataset.games = String(summary?.games ?? 0);
  dlg.dataset.stored = String(ctx.state.entries.length);
  if (message) status([message.text, ...notes].join(" "), message.data);
  else status(notes.join(" "));
  dlg.dataset.state = "ready";
}

async function exportAll() {
  const { entries: all } = await gameStore().list();
  if (!all.length) {
    status(t("stats.nothing_to_export"));
    return;
  }
  const name = exportName();
  download(toJsonLines(all.map((e) => e.record)), "application/x-ndjson", name);
  status(t("stats.exported", { file: name, n: all.length }));
}

async function importFile(file) {
  if (!file) return;
  if (file.size > MAX_FILE_BYTES) {
    status(t("stats.import_too_large", { max: MAX_FILE_BYTES }));
    return;
  }
  dialog().dataset.state = "loading";
  status(t("stats.importing", { done: 0, total: "…" }));
  const text = await file.text();
  const out = await importRecords(engine(), text, (done, total) => status(t("stats.importing", { done, total })));
  const parts = [t("stats.imported_added", { n: out.added })];
  if (out.duplicates) parts.push(t("stats.imported_duplicates", { n: out.duplicates }));
  if (out.dropped) parts.push(t("stats.imported_dropped", { n: out.dropped, max: capacity() }));
  if (out.refused.length) {
    const first = out.refused[0];
    parts.push(t("stats.imported_refused", { n: out.refused.length, line: first.line, reason: msg(first.error) }));
  }
  await refresh({ text: parts.join(" "), data: { added: String(out.added), duplicates: String(out.duplicates), dropped: String(out.dropped), refused: String(out.refused.length) } });
}

async function clearAll() {
  const n = await gameStore().count();
  if (!n) return;
  if (!(await confirmAction({ key: "stats.clear_confirm", params: { n }, yes: "stats.clear_yes" }))) return;
  await gameStore().clear();
  await refresh({ text: t("stats.cleared") });
}

async function compareSome() {
  const todo = ctx.state.tallied.filter((e) => !e.facts.compared && !e.facts.online).slice(-COMPARE_BATCH);
  const store = gameStore();
  for (const [i, entry] of todo.entries()) {
    status(t("stats.comparing", { done: i + 1, total: todo.length }));
    dialog().dataset.state = "loading";
    const { result, error } = await engine().stats({ records: [entry.record], compare: true, seat: 0 });
    const game = result?.games?.[0];
    if (error || !game) {
      status(t("stats.failed", { reason: msg(error || result.refused[0].error) }));
      dialog().dataset.state = "ready";
      return;
    }
    await store.update({ ...entry, facts: game.facts });
  }
  await refresh();
}

function entryOf(element) {
  const id = element?.dataset?.gameId;
  return ctx.state.entries.find((e) => e.id === id) || null;
}

async function playDeals(entry) {
  let record;
  try {
    record = JSON.parse(entry.record);
  } catch {
    return;
  }
  const levels = ctx.setup?.levels || [];
  const fallback = ctx.setup?.defaultLevel;
  const bots = (record.seats || []).slice(1).map((k) => (levels.includes(k) ? k : fallback));
  const view = ctx.controller.state.view;
  if (gameInProgress(view) && !(await confirmAction({ key: "confirm.new_game", yes: "confirm.new_game_yes" }))) return;
  dialog().close();
  const seats = record.seats || [];
  const me = entry.facts.me ?? 0;
  if (entry.facts.online) {
    // an online game's deals, alone: your own seat, bots of the default level for the others
    ctx.controller.newGame({ seed: record.seed, players: record.players, seats: seats.map((k, s) => (s === me ? "human" : levels.includes(k) ? k : fallback)), rules: record.rules });
    return;
  }
  if (seats.filter((k) => k === "human").length > 1) {
    ctx.controller.newGame({ seed: record.seed, players: record.players, seats: seats.map((k) => (k === "human" || levels.includes(k) ? k : fallback)), rules: record.rules });
    return;
  }
  ctx.controller.newGame({ seed: record.seed, players: record.players, bots: bots.length ? bots : fallback, rules: record.rules });
}

/** The review of a past game (the review screen opens over this one). */
async function review(entry) {
  const m = await import("../review/screen.js");
  await m.openReview({ record: entry.record }, { controller: ctx.controller });
}

/** Open the Statistics screen.  `context`: {controller, setup}. */
export async function openStats(context) {
  ctx = { ...context, state: context.controller.screen("stats", initialState) };
  ctx.state.shown = PAGE;
  if (!ctx.state.wired) {
    ctx.state.wired = true;
    $("stats-import-file").addEventListener("change", (e) => {
      const file = e.target.files[0];
      e.target.value = "";
      importFile(file);
    });
  }
  $("stats-body").replaceChildren();
  openDialog(dialog());
  await refresh();
}

/** What the screen's buttons do (actions.js hands them over). */
export async function statsAction(action, element, context) {
  ctx = { ...context, state: context.controller.screen("stats", initialState) };
  if (action === "stats-export") return exportAll();
  if (action === "stats-import") return $("stats-import-file").click();
  if (action === "stats-clear") return clearAll();
  if (action === "stats-compare") return compareSome();
  if (action === "stats-more") {
    ctx.state.shown += PAGE;
    const old = $("stats-body").querySelector(".stats-games");
    old?.replaceWith(pastGames());
    return undefined;
  }
  const entry = entryOf(element);
  if (!entry) return undefined;
  if (action === "stats-play") return playDeals(entry);
  if (action === "review-game") return review(entry);
  return undefined;
}
