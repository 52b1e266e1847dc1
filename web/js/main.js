// Wiring: engine <-> state <-> canvas, DOM layer, input, dialogs, storage, URL fragment.
// No game rule lives here: legality, reasons, scores and winners come from the view JSON.

import { engine } from "./engine.js";
import { createStore, speedFactor, rulesFromSettings, RULE_PRESETS, TIMING, presetSettings } from "./state.js";
import { createRenderer, drawCard } from "./render.js";
import { createA11y, turnText } from "./a11y.js";
import { createInput } from "./input.js";
import { parseFragment, serializeFragment, checkBots, PRESETS } from "./fragment.js";
import * as storage from "./storage.js";
import { cardWords } from "./cards.js";
import * as ui from "./ui/dialogs.js";

const SAVE_KEY = "jabberwocky.save.v1";
const PREFS_KEY = "jabberwocky.prefs.v1";
const SAVE_FORMAT = "jabberwocky-save/1";

const store = createStore();
const S = () => store.get();
const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let renderer;
let a11y;
let gameToken = 0;
let driving = false;
let ownHash = "";
const tipsSeen = new Set();

// ---------------------------------------------------------------- rendering glue

function paint(state) {
  const view = state.view;
  const settled = !state.busy;
  renderer.request();
  const layout = renderer.relayout();
  const above = Math.round(layout.h - layout.seats[0].y + (layout.narrow ? 20 : 26));
  $("bid-panel").style.bottom = `${above}px`;
  const bidShown = !$("bid-panel").hidden;
  $("toast").style.bottom = `${above + (bidShown ? $("bid-panel").offsetHeight + 10 : 0)}px`;
  a11y.renderHand(view && settled ? view : view && { ...view, your_turn: false }, layout);
  a11y.renderBids(view && settled ? view : view && { ...view, your_turn: false }, state.ui.hint);
  a11y.renderStatus(view && settled ? view : view && { ...view, your_turn: false }, state.busy || driving);
  renderHint(state);
  if (view) a11y.renderSeats(view);
  if (settled) {
    document.body.dataset.phase = view ? view.phase : state.phase;
    ui.renderRoundPanel(view);
    guideFocus(view);
    if (!view || !view.your_turn) ui.hideTips();
    else if (!state.prefs.tipsDone) {
      ui.showTip(view.phase, tipsSeen, () => savePrefs({ tipsDone: tipsSeen.size >= 2 }));
    }
  }
}

/** Keep keyboard focus useful: when focus is lost (its control vanished), put it on
 *  the control the player needs next. */
function guideFocus(view) {
  if (!view) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || active.closest("[hidden]") || active.disabled;
  if (!lost || document.querySelector("dialog[open]")) return;
  let target = null;
  if (view.phase === "round-over") target = document.querySelector('[data-action="next-round"]');
  else if (view.phase === "game-over") target = document.querySelector('[data-action="play-again"]');
  else if (view.your_turn && view.phase === "bidding") target = document.querySelector("[data-bid]:not([disabled])");
  else if (view.your_turn && view.phase === "playing") target = document.querySelector('#hand [data-card][aria-disabled="false"]');
  if (target && active !== target) target.focus({ preventScroll: true });
}

function renderHint(state) {
  const box = $("bid-hint");
  const hint = state.ui.hint;
  if (!hint || hint.kind !== "bid") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.replaceChildren();
  const title = document.createElement("p");
  title.textContent = `Chance of taking exactly… (suggested bid: ${hint.suggestion})`;
  box.append(title);
  if (!hint.probabilities || !hint.probabilities.length) {
    title.textContent = `Suggested bid: ${hint.suggestion} (what the ${hint.level} bot would bid).`;
    return;
  }
  const list = document.createElement("ol");
  list.className = "odds";
  list.start = 0;
  hint.probabilities.forEach((p, n) => {
    const li = document.createElement("li");
    if (n === hint.suggestion) li.className = "suggested";
    const label = document.createElement("span");
    label.textContent = String(n);
    const bar = document.createElement("span");
    bar.className = "bar";
    const fill = document.createElement("span");
    fill.className = "fill";
    fill.style.width = `${Math.round(p * 100)}%`;
    bar.append(fill);
    const pct = document.createElement("span");
    pct.textContent = `${Math.round(p * 100)}%`;
    li.setAttribute("aria-label", `${n} tricks: ${Math.round(p * 100)} percent`);
    li.append(label, bar, pct);
    list.append(li);
  });
  box.append(list);
}

// ---------------------------------------------------------------- engine calls

async function call(type, payload = {}) {
  try {
    return { result: await engine.request(type, payload) };
  } catch (err) {
    return { error: { kind: err.kind || "Error", message: err.message || String(err) } };
  }
}

function setView(view, extraUi = {}) {
  store.set({ view, ui: { hint: null, ...extraUi } });
}

function shownTrickFor(view) {
  if (view.trick && view.trick.cards.length) return view.trick;
  return view.last_trick || { leader: 0, cards: [] };
}

// ---------------------------------------------------------------- presenting actions

function seatOrigin(layout, seat) {
  const s = layout.seats[seat];
  const w = layout.trickW;
  const h = layout.trickH;
  return { x: s.x - w / 2, y: s.y - h / 2, w: w * 0.7, h: h * 0.7, rot: 0 };
}

async function presentCard(seat, card, newView, fromRect) {
  const f = speedFactor(S());
  const old = S().view;
  const completed = newView.trick.cards.length === 0 && newView.last_trick && newView.last_trick.cards.includes(card);
  if (f > 0) {
    const before = old && old.trick && old.trick.cards.length && !old.trick.cards.includes(card) ? old.trick : { leader: seat, cards: [] };
    setView(newView, { shownTrick: before });
    const layout = renderer.relayout();
    const p = layout.trickPos[seat];
    const from = fromRect || seatOrigin(layout, seat);
    await renderer.fly(card, from, { x: p.x, y: p.y, w: layout.trickW, h: layout.trickH, rot: p.rot }, TIMING.fly * f);
  }
  announce(`${newView.names[seat]} ${seat === 0 ? "play" : "plays"} the ${cardWords(card)}.`);
  if (!completed) {
    store.set({ view: newView, ui: { hint: null, shownTrick: newView.trick } });
    return;
  }
  const last = newView.last_trick;
  store.set({ view: newView, ui: { hint: null, shownTrick: last } });
  announce(`${newView.names[last.winner]} ${last.winner === 0 ? "win" : "wins"} the trick.`);
  if (f > 0) {
    await sleep(TIMING.hold * f);
    const layout = renderer.relayout();
    const to = seatOrigin(layout, last.winner);
    store.set({ ui: { shownTrick: { leader: last.leader, cards: [] } } });
    await Promise.all(last.cards.map((c, i) => {
      const s = (last.leader + i) % newView.players;
      const p = layout.trickPos[s];
      return renderer.fly(c, { x: p.x, y: p.y, w: layout.trickW, h: layout.trickH, rot: p.rot }, { ...to, w: to.w * 0.6, h: to.h * 0.6 }, TIMING.collect * f, true);
    }));
    store.set({ ui: { shownTrick: newView.trick.cards.length ? newView.trick : { leader: 0, cards: [] } } });
  }
  if (newView.phase === "round-over" || newView.phase === "game-over") announceRound(newView);
}

function presentBid(seat, bid, newView) {
  setView(newView, { shownTrick: shownTrickFor(newView) });
  announce(`${newView.names[seat]} ${seat === 0 ? "bid" : "bids"} ${bid}.`);
  if (newView.phase === "playing") announce(`Bidding is over. ${turnText(newView)}.`);
}

function announceRound(view) {
  const r = view.round_result;
  if (!r) return;
  const mine = r.bids[0] === r.taken[0] ? `You made your bid of ${r.bids[0]}` : `You bid ${r.bids[0]} and took ${r.taken[0]}`;
  announce(`Round ${view.round} over. ${mine}. Scores: ${view.names.map((n, s) => `${n} ${view.scores[s]}`).join(", ")}.`);
  if (view.phase === "game-over") {
    const w = (view.winners || []).map((s) => view.names[s]).join(" and ");
    announce(`Game over. Winner${view.winners.length > 1 ? "s" : ""}: ${w}.`);
  }
}

async function presentDeal(view) {
  const f = speedFactor(S());
  setView(view, { shownTrick: { leader: 0, cards: [] } });
  announce(`Round ${view.round} of ${view.rounds}: ${view.hand_size} cards each. Trump is ${cardWords(view.trump_card)}. ${view.names[view.dealer]} dealt.`);
  if (f <= 0) return;
  const counts = new Array(view.players).fill(0);
  store.set({ ui: { dealtCounts: counts } });
  const layout = renderer.relayout();
  const t = layout.trump;
  const from = { x: t.x, y: t.y, w: t.w, h: t.h, rot: 0 };
  const flights = [];
  let k = 0;
  for (let i = 0; i < view.hand_size; i++) {
    for (let j = 1; j <= view.players; j++) {
      const seat = (view.dealer + j) % view.players;
      const dest = seat === 0 && layout.hand[i]
        ? { x: layout.hand[i].x, y: layout.hand[i].y, w: layout.cardW, h: layout.cardH, rot: 0 }
        : { ...seatOrigin(layout, seat), w: layout.backW, h: layout.backW * 1.4 };
      flights.push(renderer.fly(null, from, dest, TIMING.dealFly * f, false, k * TIMING.dealEach * f).then(() => {
        counts[seat] += 1;
        renderer.request();
      }));
      k += 1;
    }
  }
  await Promise.all(flights);
  store.set({ ui: { dealtCounts: null } });
}

// ---------------------------------------------------------------- the flow

async function runBusy(fn) {
  if (S().busy) return false;
  store.set({ busy: true });
  try {
    await fn();
  } finally {
    store.set({ busy: false });
  }
  return true;
}

async function afterAction(token) {
  await save();
  if (token === gameToken) driveBots(token);
}

async function driveBots(token) {
  if (driving) return;
  driving = true;
  store.set({ busy: true });
  try {
    for (;;) {
      const view = S().view;
      if (token !== gameToken || !view || view.your_turn || view.to_act === null || view.to_act === undefined) break;
      if (view.phase !== "bidding" && view.phase !== "playing") break;
      const pause = TIMING.botPause * speedFactor(S());
      if (pause > 0) await sleep(pause);
      const { result, error } = await call("bot_step");
      if (token !== gameToken) break;
      if (error) {
        ui.toast(`The bot could not move: ${error.message}`);
        break;
      }
      if (!result.action) {
        setView(result.view);
        break;
      }
      const a = result.action;
      if (a.kind === "bid") presentBid(a.seat, a.value, result.view);
      else await presentCard(a.seat, a.value, result.view, null);
      await save();
    }
  } finally {
    driving = false;
    store.set({ busy: false });
  }
  const view = S().view;
  if (view && view.your_turn && token === gameToken) announce(`Your turn to ${view.phase === "bidding" ? "bid" : "play"}.`);
}

function watchGuard(auto) {
  if (!watching || auto) return false;
  ui.toast("You are watching a replay: choose \u201cTake over from here\u201d to play.");
  return true;
}

async function humanBid(n, auto = false) {
  if (watchGuard(auto)) return;
  const view = S().view;
  if (!view || view.phase !== "bidding") return;
  if (!view.your_turn || S().busy) {
    ui.toast("It is not your turn to bid yet.");
    return;
  }
  if (n > view.hand_size) return;
  const token = gameToken;
  await runBusy(async () => {
    const { result, error } = await call("bid", { bid: n });
    if (error) {
      ui.toast(error.message);
      announce(error.message);
      return;
    }
    presentBid(0, n, result);
  });
  await afterAction(token);
}

async function humanCard(card, auto = false) {
  if (watchGuard(auto)) return;
  const view = S().view;
  if (!view) return;
  const legal = view.phase === "playing" && view.your_turn && !S().busy && (view.legal_cards || []).includes(card);
  if (!legal) {
    let reason = (view.illegal_reasons || {})[card];
    if (!reason) reason = view.phase === "bidding" ? "bid first: cards are played after everyone has bid" : "it is not your turn";
    const msg = `You can't play the ${cardWords(card)}: ${reason}.`;
    ui.toast(msg);
    announce(msg);
    store.set({ ui: { flash: { card, until: performance.now() + 900 } } });
    setTimeout(() => renderer.request(), 950);
    return;
  }
  const token = gameToken;
  const layout = renderer.relayout();
  const slot = layout.hand.find((s) => s.card === card);
  const fromRect = slot ? { x: slot.x, y: slot.y - layout.cardH * 0.1, w: slot.w, h: slot.h, rot: 0 } : null;
  await runBusy(async () => {
    const { result, error } = await call("play", { card });
    if (error) {
      ui.toast(error.message);
      announce(error.message);
      return;
    }
    await presentCard(0, card, result, fromRect);
  });
  await afterAction(token);
}

async function nextRound() {
  const view = S().view;
  if (!view || view.phase !== "round-over") return;
  const token = gameToken;
  await runBusy(async () => {
    const { result, error } = await call("next_round");
    if (error) {
      ui.toast(error.message);
      return;
    }
    await presentDeal(result);
  });
  await afterAction(token);
}

// ---------------------------------------------------------------- starting games

function botsPayload(settings) {
  if (!settings.perSeat) return settings.bots;
  return settings.seatBots.slice(0, settings.players - 1);
}

function fragmentOptions(view) {
  const bots = view.seats.slice(1);
  const same = bots.every((b) => b === bots[0]);
  const rules = view.rules && PRESETS.includes(view.rules.name) ? view.rules.name : undefined;
  return { seed: view.seed, players: view.players, bots: same ? bots[0] : bots, rules };
}

function updateFragment(view) {
  if (!view) return;
  ownHash = serializeFragment(fragmentOptions(view));
  if (location.hash !== ownHash) history.replaceState(null, "", ownHash);
}

/** Stop the bot loop of the current game and wait until nothing is in flight. */
async function takeOver() {
  if (watching) stopWatching();
  const token = ++gameToken;
  while (S().busy || driving) await sleep(15);
  return token;
}

async function startGame({ seed, players, bots, rules }, quiet = false) {
  const token = await takeOver();
  let ok = false;
  await runBusy(async () => {
    const payload = { players, bots, rules };
    if (seed) payload.seed = seed;
    const { result, error } = await call("new_game", payload);
    if (error) {
      ui.toast(`Could not start that game: ${error.message}`);
      return;
    }
    ok = true;
    updateFragment(result);
    if (!quiet) announce(`New game with ${result.players} players. Seed ${result.seed}.`);
    await presentDeal(result);
  });
  if (ok) await afterAction(token);
  else driveBots(token); // the engine still holds the previous game
  return ok;
}

async function resumeRecord(record, how) {
  const token = await takeOver();
  let ok = false;
  await runBusy(async () => {
    const { result, error } = await call("import_record", { record });
    if (error) {
      ui.toast(how === "save"
        ? `Your saved game could not be restored and was discarded (${error.message}).`
        : `That file could not be loaded: ${error.message}`, 8000);
      return;
    }
    ok = true;
    updateFragment(result);
    setView(result, { shownTrick: shownTrickFor(result) });
    announce(how === "save" ? "Welcome back: your game is restored." : `Loaded the game with seed ${result.seed}.`);
  });
  if (ok) await afterAction(token);
  else driveBots(token);
  return ok;
}

function settingsGame(settings, seed) {
  return { seed, players: settings.players, bots: botsPayload(settings), rules: rulesFromSettings(settings, RULE_PRESETS) };
}

// ---------------------------------------------------------------- saving

async function save() {
  const view = S().view;
  if (!view) return;
  const { result, error } = await call("export_record");
  if (error) return;
  storage.setJSON(SAVE_KEY, { format: SAVE_FORMAT, saved: Date.now(), options: fragmentOptions(view), record: result.record });
}

function loadSave() {
  const { value, error } = storage.getJSON(SAVE_KEY);
  if (error || (value && (value.format !== SAVE_FORMAT || typeof value.record !== "string" || !value.options))) {
    storage.removeItem(SAVE_KEY);
    ui.toast("A saved game was damaged or came from elsewhere, so it was discarded.", 8000);
    return null;
  }
  return value;
}

function savePrefs(patch) {
  const prefs = { ...S().prefs, ...patch };
  store.set({ prefs });
  storage.setJSON(PREFS_KEY, { prefs, settings: S().settings });
}

function loadPrefs() {
  const { value } = storage.getJSON(PREFS_KEY);
  if (!value || typeof value !== "object") return;
  const prefs = { ...S().prefs };
  if (value.prefs && ["slow", "normal", "fast", "instant"].includes(value.prefs.speed)) prefs.speed = value.prefs.speed;
  if (value.prefs && value.prefs.tipsDone === true) prefs.tipsDone = true;
  const settings = { ...S().settings };
  const s = value.settings || {};
  if ([3, 4, 5].includes(s.players)) settings.players = s.players;
  if (typeof s.bots === "string") settings.bots = s.bots;
  if (typeof s.perSeat === "boolean") settings.perSeat = s.perSeat;
  if (Array.isArray(s.seatBots) && s.seatBots.length === 4 && s.seatBots.every((b) => typeof b === "string")) settings.seatBots = s.seatBots;
  if (PRESETS.includes(s.rules)) Object.assign(settings, presetSettings(s.rules));
  for (const k of ["hook"]) if (typeof s[k] === "boolean") settings[k] = s[k];
  if (["after-broken", "any-time"].includes(s.trumpLead)) settings.trumpLead = s.trumpLead;
  if (["exact-1", "exact-10-plus-bid"].includes(s.scoring)) settings.scoring = s.scoring;
  if ([0, 3].includes(s.renege)) settings.renege = s.renege;
  if (["3-9-3", "7-1-7"].includes(s.schedule)) settings.schedule = s.schedule;
  store.set({ prefs, settings });
}

// ---------------------------------------------------------------- opening the page

function sameGame(options, saved) {
  if (!saved || !options.seed) return false;
  const o = saved.options;
  if (o.seed !== options.seed) return false;
  if (options.players !== undefined && options.players !== o.players) return false;
  if (options.bots !== undefined && JSON.stringify(options.bots) !== JSON.stringify(o.bots)) return false;
  if (options.rules !== undefined && options.rules !== (o.rules || "jabberwocky")) return false;
  return true;
}

async function openFromFragment(hash, saved) {
  const { levels } = S();
  const parsed = parseFragment(hash, levels);
  const { options, problems } = parsed;
  const settings = S().settings;
  if (!parsed.empty && sameGame(options, saved)) {
    if (problems.length) ui.toast(problems.join(" "), 9000);
    if (await resumeRecord(saved.record, "save")) return;
  } else if (parsed.empty && saved) {
    if (await resumeRecord(saved.record, "save")) return;
  }
  const players = options.players || settings.players;
  const bots = checkBots(options, levels, players, problems) ?? botsPayload({ ...settings, players });
  // A shared link names its rules unless they are the default; your own settings apply
  // only to links without a seed.
  const rules = options.rules || (options.seed ? "jabberwocky" : rulesFromSettings(settings, RULE_PRESETS));
  if (problems.length) ui.toast(problems.join(" "), 9000);
  const ok = await startGame({ seed: options.seed, players, bots, rules });
  if (!ok) await startGame({ players: 4, bots: S().defaultLevel, rules: "jabberwocky" });
}

function announce(message) {
  a11y.announce(message);
}

function onAction(action, button) {
  const view = S().view;
  const menu = $("menu");
  if (action !== "menu" && !menu.hidden && !(button && menu.contains(button) && button.tagName === "SELECT")) closeMenu();
  switch (action) {
    case "bid": humanBid(button); break;
    case "next-round": nextRound(); break;
    case "hint": askHint(); break;
    case "scores": ui.showScores(view); break;
    case "new-game":
      ui.openNewGame(S().settings, S().levels, (settings, seed) => {
        store.set({ settings: { ...S().settings, ...settings } });
        savePrefs({});
        startGame(settingsGame(S().settings, seed));
      });
      break;
    case "play-again": if (view) startGame({ players: view.players, bots: fragmentOptions(view).bots, rules: view.rules }); break;
    case "replay": if (view) startGame({ seed: view.seed, players: view.players, bots: fragmentOptions(view).bots, rules: view.rules }); break;
    case "share": share(); break;
    case "copy-link": ui.copyText($("share-link").value).then((ok) => { $("share-status").textContent = ok ? "Link copied." : "Select the link and copy it."; }); break;
    case "export-record": exportRecord(); break;
    case "import-record": importMode = "continue"; $("import-file").click(); break;
    case "watch-record": importMode = "watch"; $("import-file").click(); break;
    case "stop-watch": stopWatching(); break;
    case "help": ui.openHelp(); break;
    case "menu": toggleMenu(); break;
    case "dismiss-tips": break;
    case "escape": closeMenu(); ui.hideTips(); break;
    default: break;
  }
}

function toggleMenu() {
  const menu = $("menu");
  menu.hidden = !menu.hidden;
  document.querySelector('[data-action="menu"]').setAttribute("aria-expanded", String(!menu.hidden));
  if (!menu.hidden) menu.querySelector("button").focus();
}

function closeMenu() {
  $("menu").hidden = true;
  document.querySelector('[data-action="menu"]').setAttribute("aria-expanded", "false");
}

async function askHint() {
  const view = S().view;
  if (!view || !view.your_turn || S().busy) {
    ui.toast("Hints are for your turn.");
    return;
  }
  ui.toast("Thinking…", 1500);
  const { result, error } = await call("hint");
  if (error) {
    ui.toast(`No hint: ${error.message}`);
    return;
  }
  store.set({ ui: { hint: result } });
  if (result.kind === "card") {
    const msg = `Suggested card: the ${cardWords(result.suggestion)}.`;
    ui.toast(msg);
    announce(msg);
    const b = document.querySelector(`#hand [data-card="${result.suggestion}"]`);
    if (b) b.focus();
  } else {
    announce(`Suggested bid: ${result.suggestion}. ` + result.probabilities.map((p, n) => `${n}: ${Math.round(p * 100)}%`).join(", "));
  }
}

async function share() {
  const view = S().view;
  if (!view) return;
  const link = location.href.split("#")[0] + serializeFragment(fragmentOptions(view));
  const custom = !(view.rules && PRESETS.includes(view.rules.name));
  if (navigator.share && window.matchMedia("(pointer: coarse)").matches) {
    try {
      await navigator.share({ title: "Jabberwocky", text: `Play my Jabberwocky deal: ${view.seed}`, url: link });
      return;
    } catch { /* fall back to the dialog */ }
  }
  ui.openShare(link, view.seed);
  if (custom) $("share-status").textContent = "Note: your fine-tuned rules are not part of the link; it opens with the standard rules.";
}

async function exportRecord() {
  if (!S().view) return;
  const { result, error } = await call("export_record");
  if (error) {
    ui.toast(`Could not export: ${error.message}`);
    return;
  }
  const blob = new Blob([result.record], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = result.filename || "jabberwocky-game.json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
  ui.toast(`Saved ${a.download}.`);
}

async function importFile(file) {
  if (!file) return;
  if (file.size > 1_000_000) {
    ui.toast("That file is too large to be a game record (over 1 MB).");
    return;
  }
  const text = await file.text();
  if (importMode === "watch") await watchRecord(text);
  else await resumeRecord(text, "import");
}

// ---------------------------------------------------------------- watching a record
// The record is replayed through the engine: the same seed, rules and bot levels, seat 0's
// recorded bids and cards fed in, the bots answering through bot_step (they are seeded, so
// they repeat their recorded moves).  The record is only read as data here.

let importMode = "continue";
let watching = null;

function humanMoves(record) {
  const moves = [];
  const n = record.players;
  for (const rnd of record.rounds || []) {
    const bid = Array.isArray(rnd.bids) ? rnd.bids[0] : null;
    if (bid === null || bid === undefined) break;
    moves.push({ kind: "bid", value: bid });
    for (const trick of rnd.tricks || []) {
      (trick.cards || []).forEach((card, i) => {
        if ((trick.leader + i) % n === 0) moves.push({ kind: "card", value: card });
      });
    }
  }
  return moves;
}

async function watchRecord(text) {
  let record;
  try {
    record = JSON.parse(text);
  } catch (e) {
    ui.toast(`That file is not JSON: ${e.message}`);
    return;
  }
  const check = await call("import_record", { record: text });
  if (check.error) {
    ui.toast(`That file could not be loaded: ${check.error.message}`, 8000);
    return;
  }
  const view = check.result;
  const moves = humanMoves(record);
  const ok = await startGame({ seed: view.seed, players: view.players, bots: view.seats.slice(1), rules: view.rules }, true);
  if (!ok) return;
  watching = { moves, next: 0, token: gameToken };
  $("watch-bar").hidden = false;
  document.body.classList.add("watching");
  $("watch-text").textContent = `Watching seed "${view.seed}"`;
  announce(`Watching the recorded game with seed ${view.seed}. Choose Take over from here to play on.`);
  watchLoop(watching);
}

async function watchLoop(w) {
  while (watching === w && w.token === gameToken) {
    const view = S().view;
    if (!view || view.phase === "game-over") break;
    if (S().busy || driving) {
      await sleep(40);
      continue;
    }
    const f = speedFactor(S());
    const pause = f > 0 ? Math.max(250, TIMING.botPause * f) : 40;
    await sleep(pause);
    if (watching !== w) break;
    if (view.phase === "round-over") {
      await nextRound();
      continue;
    }
    if (!view.your_turn) continue;
    const move = w.moves[w.next];
    if (!move) {
      announce("The record ends here: the game is yours to continue.");
      break;
    }
    w.next += 1;
    const before = view.step;
    if (move.kind === "bid") await humanBid(move.value, true);
    else await humanCard(move.value, true);
    if (S().view && S().view.step === before) {
      ui.toast("The replay went differently from the record (its bots may be of a level this version lacks). The game is yours from here.", 8000);
      break;
    }
  }
  if (watching === w) stopWatching();
}

function stopWatching() {
  watching = null;
  $("watch-bar").hidden = true;
  document.body.classList.remove("watching");
  store.set({});
}

// ---------------------------------------------------------------- boot

function showProgress({ fraction, text }) {
  const bar = $("loading-progress");
  bar.value = Math.max(0, Math.min(1, Number(fraction) || 0));
  if (text) $("loading-text").textContent = text;
}

function drawLoadingFan() {
  const canvas = $("loading-fan");
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  canvas.width = 240 * dpr;
  canvas.height = 120 * dpr;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ["AS", "AH", "AC", "AD"].forEach((card, i) => {
    drawCard(ctx, card, 50 + i * 26, 14 + Math.abs(i - 1.5) * 6, 62, 87, { rot: (i - 1.5) * 0.2 });
  });
}

async function boot() {
  drawLoadingFan();
  const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
  store.set({ ui: { reducedMotion: motion.matches } });
  motion.addEventListener?.("change", (e) => store.set({ ui: { reducedMotion: e.matches } }));
  loadPrefs();
  renderer = createRenderer($("canvas"), S);
  a11y = createA11y({
    onCard: humanCard,
    onBid: humanBid,
    onFocusCard: (card) => store.set({ ui: { focusCard: card } }),
    onHoverCard: (card) => store.set({ ui: { hoverCard: card } }),
  });
  createInput({ getView: () => S().view, emit: (action, arg) => (action === "bid" ? humanBid(arg) : onAction(action, arg)) });
  store.subscribe(paint);
  window.addEventListener("resize", () => paint(S()));
  document.addEventListener("pointerdown", (e) => {
    const menu = $("menu");
    if (!menu.hidden && !menu.contains(e.target) && !e.target.closest('[data-action="menu"]')) closeMenu();
  });
  const speed = $("speed");
  speed.value = S().prefs.speed;
  speed.addEventListener("change", () => savePrefs({ speed: speed.value }));
  $("import-file").addEventListener("change", (e) => {
    importFile(e.target.files[0]);
    e.target.value = "";
  });
  showProgress(engine.progress);
  engine.addEventListener("progress", (e) => showProgress(e.detail));
  engine.addEventListener("failed", (e) => {
    const box = $("loading-error");
    box.hidden = false;
    box.textContent = `The game engine could not start: ${e.detail.message}. Reload the page to try again.`;
  });
  import("./update.js").then((m) => m.initUpdates({ beforeReload: save })).catch(() => {});
  try {
    await engine.ready;
  } catch {
    return;
  }
  showProgress({ fraction: 1, text: "Shuffling…" });
  const lv = await call("levels");
  if (lv.result) store.set({ levels: lv.result.levels, defaultLevel: lv.result.default });
  const settings = S().settings;
  if (!S().levels.includes(settings.bots)) store.set({ settings: { ...settings, bots: S().defaultLevel, seatBots: settings.seatBots.map(() => S().defaultLevel) } });
  $("loading").hidden = true;
  document.body.classList.add("ready");
  const saved = loadSave();
  await openFromFragment(location.hash, saved);
  window.addEventListener("hashchange", () => {
    if (location.hash === ownHash || !location.hash) return;
    openFromFragment(location.hash, loadSave());
  });
}

boot();
