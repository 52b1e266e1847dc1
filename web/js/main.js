// Wiring only: the engine, the language, the controller and the views that follow it,
// input, storage, the URL fragment and updates.  No state lives here: the controller owns
// it (the game, the mode, the menu, the input mode, the engine's offer, the screens'); the
// player's preferences and New game settings are prefs.js's (stored on the device).  No
// game rule lives in the front end: legality, reasons, scores and winners come from the
// engine's view.

import { engine } from "./engine.js";
import * as i18n from "./i18n.js";
import { GameController, acceptsInput, canChallenge } from "./controller.js";
import { createPresenter } from "./present.js";
import { createRenderer, warmFonts, redrawCards } from "./render.js";
import { tipSpot, claimSpot, markAt, faceAt, clusterBox } from "./layout.js";
import { loadClassicFaces } from "./faces.js";
import { createPrefs } from "./prefs.js";
import { botPauseMs, speedFactor } from "./timing.js";
import { serializeFragment } from "./fragment.js";
import { peekSavedRecord, peekSavedView, readSave, writeSave, fragmentOptions } from "./save.js";
import { openFromLink } from "./opening.js";
import { createActions, sayOffline } from "./actions.js";
import { createInput } from "./input.js";
import { $ } from "./dom/util.js";
import { fillStaticText } from "./dom/static-text.js";
import { drawLoadingFan, showProgress, showFailure, hideLoading } from "./dom/loading.js";
import { createHandView } from "./dom/hand.js";
import { createBidsView } from "./dom/bids.js";
import { renderStatus } from "./dom/status.js";
import { renderSeats } from "./dom/seats.js";
import { renderRoundPanel } from "./dom/round-panel.js";
import { createToast, aboveYourBadge } from "./dom/toast.js";
import { createTips } from "./dom/tips.js";
import { guideFocus } from "./dom/focus.js";
import { createAnnouncer } from "./dom/announcer.js";
import { createSound } from "./sound.js";
import { seatName, slotOf, seatAt, botLevel } from "./names.js";
import { createDaily } from "./daily.js"; // the deal of the day (issue 32)
import { confirmAction, gameInProgress } from "./dialogs/confirm.js";

// Asked at once: the worker answers as soon as Python is up.
// (A failed start is shown by the loading screen.)
const setupAnswer = Promise.all([engine.levels(), engine.rules()]);
// A visit that resumes the saved game (no link, or the game's own link, as on a reload)
// queues its import right behind.
const earlyRecord = peekSavedRecord(location.hash);
const early = earlyRecord ? { record: earlyRecord, answer: engine.resumeSave(earlyRecord) } : null;
// ... and the engine's last view of it is drawn at once, before the engine is up (not for
// an online host's table, which reopens its lobby).
let savedView = early && !keptOnlineHost() ? peekSavedView(location.hash) : null;
const prefs = createPrefs();
// The language: a link's lang= for this visit, else the one the player chose, else the
// browser's first one we speak.  Its catalogue is fetched at once.
const linkLang = /[#&]lang=([a-z]{2})(?:&|$)/.exec(location.hash)?.[1];
const lang = i18n.LANGUAGES.includes(linkLang) ? linkLang : prefs.prefs.lang ?? i18n.pickLanguage(navigator.languages);
const catalogue = i18n.fetchCatalogue(lang).then((data) => ({ code: lang, data }))
  .catch(() => i18n.fetchCatalogue(i18n.DEFAULT_LANGUAGE).then((data) => ({ code: i18n.DEFAULT_LANGUAGE, data })))
  .catch(() => ({ code: i18n.DEFAULT_LANGUAGE, data: {} }));
const controller = new GameController({
  engine,
  speed: () => speedFactor(prefs.prefs.speed, prefs.prefs.reducedMotion),
  botPause: () => botPauseMs(prefs.prefs.speed, prefs.prefs.reducedMotion),
  save: saveGame,
});
// the deal of the day: its game, its result beside the par (daily.js)
const daily = createDaily({
  controller,
  engine,
  confirmReplace: async () => !gameInProgress(controller.state.view) || confirmAction({ key: "confirm.new_game", yes: "confirm.new_game_yes" }),
});
async function saveGame(view) {
  const setup = controller.setup;
  if (!view || !setup) return;
  // The saved game just taken back shows the very view saved with it: its record is the
  // saved one, kept without asking the engine for it again (that round trip held the
  // table's first input back by 20-250 ms on a repeat visit).
  const resumed = savedView && JSON.stringify(view) === JSON.stringify(savedView) ? early.record : null;
  savedView = null;
  // the address as it was when this save began: a link opened while the record is on its
  // way (a #join= link, say) is the player's, and is not written over with the game's own
  const addressBefore = location.hash;
  let record = resumed;
  if (!record) {
    const { result, error } = await engine.exportRecord();
    if (error) return;
    record = result.record;
  }
  // a challenge game keeps its challenge's link (a reload resumes it)
  const challenge = view.challenge ? controller.state.challenge?.text : null;
  const options = challenge ? { challenge } : daily.saveOptions() ?? fragmentOptions(view, setup.rules);
  writeSave(record, options, view);
  const own = keepLinkLanguage(serializeFragment(options));
  controller.link.own = own;
  if (location.hash !== own && location.hash === addressBefore) history.replaceState(null, "", own);
}

/** A link's lang= stays in the address while the page shows that language, so a reload
 *  keeps it; once the player picks another language in the menu, it is dropped. */
function keepLinkLanguage(hash) {
  return linkLang && i18n.language() === linkLang ? `${hash}&lang=${linkLang}` : hash;
}

function dropLinkLanguage() {
  const hash = location.hash.replace(/&lang=[a-z]{2}(?=&|$)/, "").replace(/^#lang=[a-z]{2}(&|$)/, "#");
  if (hash === location.hash) return;
  if (controller.link.own === location.hash) controller.link.own = hash;
  history.replaceState(null, "", hash || location.pathname + location.search);
}

/**
 * On a normal start (Python downloading or compiling for a second or more), the table's
 * fonts are warmed up meanwhile, so its first frame finds them ready.  A snapshot restore
 * is over before they would matter, and would only share its CPU with them.
 */
function warmFontsWhileDownloading() {
  const idle = window.requestIdleCallback ? (fn) => requestIdleCallback(fn) : (fn) => setTimeout(fn, 0);
  const onProgress = (e) => {
    if (!engine.restoring && !(e.detail.fraction > 0)) return; // not known yet
    engine.removeEventListener("progress", onProgress);
    if (!engine.restoring) warmFonts(idle);
  };
  engine.addEventListener("progress", onProgress);
}

/** Show the page in `code` (the game goes on); remembered as the player's choice. */
async function switchLanguage(code) {
  if (!i18n.LANGUAGES.includes(code) || code === i18n.language()) return;
  let data;
  try {
    data = await i18n.fetchCatalogue(code);
  } catch {
    controller.notice("notice.language_failed", {}, 6000);
    $("language").value = i18n.language();
    return;
  }
  i18n.useCatalogue(code, data);
  prefs.setPrefs({ lang: code });
}

function languageMenu() {
  const select = $("language");
  select.replaceChildren(...i18n.LANGUAGES.map((code) => {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    // each language by its own name ("Deutsch", "čeština", "한국어"): no word of ours
    option.textContent = new Intl.DisplayNames([code], { type: "language" }).of(code);
    return option;
  }));
  select.value = i18n.language();
  select.addEventListener("change", () => switchLanguage(select.value));
  i18n.onLanguage((code) => {
    select.value = code;
    document.body.dataset.lang = code;
    if (code !== linkLang) dropLinkLanguage();
  });
  document.body.dataset.lang = i18n.language();
}

/** The look: theme (the system's, or dark or light), the four-colour deck, sound. */
function wireLook() {
  const light = window.matchMedia("(prefers-color-scheme: light)");
  const apply = () => {
    const { theme, fourColour, sound, deck } = prefs.prefs;
    document.body.dataset.deck = deck;
    $("deck").value = deck;
    if (deck === "classic") loadClassicFaces(fourColour, () => {
      redrawCards();
      controller.presenter?.redraw();
    });
    const resolved = theme === "system" ? (light.matches ? "light" : "dark") : theme;
    document.documentElement.dataset.theme = resolved;
    document.body.dataset.theme = resolved;
    document.body.dataset.fourColour = String(fourColour);
    document.body.dataset.sound = String(sound);
    document.querySelector('meta[name="theme-color"]')?.setAttribute("content", resolved === "light" ? "#cfe9d9" : "#12402b");
    $("theme").value = theme;
    $("four-colour").checked = fourColour;
    $("sound").checked = sound;
  };
  light.addEventListener?.("change", apply);
  prefs.store.subscribe(apply);
  $("theme").addEventListener("change", (e) => prefs.setPrefs({ theme: e.target.value }));
  $("four-colour").addEventListener("change", (e) => prefs.setPrefs({ fourColour: e.target.checked }));
  $("deck").addEventListener("change", (e) => prefs.setPrefs({ deck: e.target.value }));
  $("sound").addEventListener("change", (e) => prefs.setPrefs({ sound: e.target.checked }));
  apply();
  createSound({ controller, enabled: () => prefs.prefs.sound });
}

/** The menu renders the controller's `menu` (open or not); a press outside closes it. */
function createMenu() {
  const menu = $("menu");
  const toggleButton = document.querySelector('[data-action="menu"]');
  controller.store.subscribe((state, keys) => {
    if (!keys.has("menu")) return;
    menu.hidden = !state.menu;
    toggleButton.setAttribute("aria-expanded", String(state.menu));
    if (state.menu) menu.querySelector("button").focus();
  });
  document.addEventListener("pointerdown", (e) => {
    if (controller.state.menu && !menu.contains(e.target) && !e.target.closest('[data-action="menu"]')) controller.openMenu(false);
  });
  return { close: () => controller.openMenu(false), toggle: () => controller.toggleMenu() };
}

function wireTable() {
  const frame = () => ({ view: controller.state.view, table: controller.state.table, presence: controller.state.online?.presence, watching: controller.state.online?.status === "watching", reducedMotion: prefs.prefs.reducedMotion, theme: document.documentElement.dataset.theme, fourColour: prefs.prefs.fourColour, deck: prefs.prefs.deck });
  const renderer = createRenderer($("canvas"), frame);
  controller.presenter = createPresenter({ renderer, state: () => controller.state, speed: () => speedFactor(prefs.prefs.speed, prefs.prefs.reducedMotion) });
  const toast = createToast({ layout: () => renderer.layout() });
  createAnnouncer({ controller, toast });
  // an online table's reactions, by the sender's badge (loaded with the online table)
  controller.addEventListener("online-react", ({ detail }) => {
    import("./online/reactions.js").then((m) => m.showReaction($("tips").parentElement, renderer.relayout(), controller.state.view, detail.seat, detail.r));
  });
  // a reaction stands by a badge where the table was laid out: a new layout drops it
  window.addEventListener("resize", () => document.querySelectorAll(".reaction-bubble").forEach((b) => b.remove()));
  const tips = createTips({ done: () => prefs.prefs.tipsDone, onDone: (all) => prefs.setPrefs({ tipsDone: all }) });
  // A saved or imported game made with other bots plays on, but its bots may choose
  // differently from the record: say so.
  controller.addEventListener("game", ({ detail }) => {
    const theirs = detail.view.bots_version;
    const ours = controller.setup?.botsVersion;
    if (ours && theirs && theirs !== ours && detail.how !== "new") {
      controller.notice("notice.bots_changed", { theirs, ours }, 9000);
    }
  });
  const hand = createHandView({
    root: $("hand"),
    onCard: (card) => {
      toast.clearMove(); // an old message must not linger over a new move
      const layout = renderer.relayout();
      const slot = layout.hand.find((s) => s.card === card);
      const from = slot ? { x: slot.x, y: slot.y - layout.cardH * 0.1, w: slot.w, h: slot.h, rot: 0 } : null;
      controller.play(card, from);
    },
    onFocusCard: (card) => controller.setTable({ focusCard: card && controller.state.input === "keyboard" ? card : null }),
    onHoverCard: (card) => controller.setTable({ hoverCard: card }),
  });
  const bid = (n) => {
    toast.clearMove();
    controller.bid(n);
  };
  const bids = createBidsView({ onBid: bid });

  function render() {
    const state = controller.state;
    renderer.request();
    const layout = renderer.relayout();
    $("bid-panel").style.bottom = layout.short ? "" : `${aboveYourBadge(layout)}px`;
    placeTips(layout);
    // the deal of the day's bar: on a phone in the gap above the middle of the table
    $("daily-bar").style.top = layout.narrow ? `${Math.round(layout.middle.top - 25)}px` : "";
    hand.render(state, layout);
    bids.render(state);
    renderStatus(state);
    renderSeats(state);
    renderRoundPanel(state);
    // an online table: how long the person to act has been thinking, by their badge
    if (state.online || !$("online-thinking").hidden) import("./online/lobby.js").then((m) => m.renderOnlineTable(controller.state, () => renderer.layout()));
    if (state.input) document.body.dataset.input = state.input;
    $("watch-bar").hidden = state.mode !== "watch";
    // a friend watching an online table is sent the public view (a hand-off's: no hand),
    // which is theirs to watch, not a device to pass on
    const watchingOnline = state.online?.role === "guest" && state.online.status === "watching";
    const handoff = Boolean(state.view?.handoff) && !state.busy && !watchingOnline;
    $("handoff").hidden = !handoff;
    document.body.dataset.handoff = String(handoff);
    if (handoff) {
      const name = seatName(state.view, state.view.to_act ?? state.view.viewer);
      $("handoff-text").textContent = i18n.t("handoff.pass", { name });
      $("handoff-button").textContent = i18n.t("handoff.ready", { name });
    }
    document.querySelector('#menu [data-action="take-back"]').disabled = !(state.view?.can_take_back && state.mode === "play");
    document.querySelector('#menu [data-action="challenge-friend"]').disabled = !canChallenge(state);
    document.querySelector('#menu [data-action="review"]').disabled = !(state.view?.phase === "game-over" && !state.busy);
    const claimable = acceptsInput(state) && Boolean(state.view?.can_claim);
    $("claim-button").hidden = !claimable;
    // its words for a screen reader: only while a claim can be made (not while bidding)
    $("claim-why").hidden = !claimable;
    if (claimable) {
      // beside your hand, level with its cards (layout.js claimSpot)
      const button = $("claim-button");
      const spot = claimSpot(layout, button.offsetWidth, button.offsetHeight);
      button.style.left = `${spot.x}px`;
      button.style.top = `${spot.y}px`;
      button.dataset.side = spot.side;
    }
    document.body.classList.toggle("watching", state.mode === "watch");
    if (state.watch) $("watch-text").textContent = i18n.t("watch.text", { seed: state.watch.seed });
    toast.place(layout);
    // a tip speaks of your move: it goes as soon as the move is made (the bots' turns that
    // follow keep the page busy, and the bid tip stayed over the table through them)
    const yourMove = Boolean(state.view?.your_turn) && state.mode === "play";
    if (!yourMove) tips.hide();
    if (!state.busy) {
      guideFocus(state);
      if (yourMove) tips.show(state.view.phase);
    }
  }
  controller.store.subscribe(render);
  // an online table's presence is drawn on the badges (online/lobby.js sets `online`)
  // Read-only for tests: what the canvas draws from (the view and the table's state).
  if (window.__jabberwocky) window.__jabberwocky.table = () => JSON.parse(JSON.stringify({ view: controller.state.view, table: controller.state.table }));
  // Read-only for tests: where the canvas draws everything (layout.js computeLayout).
  if (window.__jabberwocky) window.__jabberwocky.layout = () => JSON.parse(JSON.stringify(renderer.layout()));
  prefs.store.subscribe(() => renderer.request());
  i18n.onLanguage(() => {
    fillStaticText();
    render();
  });
  window.addEventListener("resize", render);
  new MutationObserver(() => toast.place()).observe($("toast"), { attributes: true, attributeFilter: ["hidden"], childList: true });
  return { tips, renderer };
}

/** On a phone a tip takes the free box the layout finds for it (tipSpot: off every card,
 * badge and word of the table), scrolling if its words need more; with no such box it
 * waits hidden.  On a desktop it keeps its corner (CSS). */
function placeTips(layout) {
  const box = $("tips");
  const spot = tipSpot(layout);
  const phone = layout.narrow || layout.short;
  box.classList.toggle("placed", Boolean(spot));
  box.classList.toggle("no-room", phone && !spot);
  box.style.left = spot ? `${spot.x}px` : "";
  box.style.top = spot ? `${spot.y}px` : "";
  box.style.width = spot ? `${spot.w}px` : "";
  box.style.maxHeight = spot ? `${spot.h}px` : "";
  box.dataset.spot = spot ? "free" : phone ? "none" : "corner";
}

/** Pointing at a mark of the table explains it (the canvas's title: the D, "led", the
 *  trump pile, a seat's "bid 2 · won 1"); the help's "On the table" says the same for touch. */
function wireMarkTitles(renderer, controller) {
  const canvas = $("canvas");
  canvas.addEventListener("pointermove", (e) => {
    const view = controller.state.view;
    if (!view) return;
    const rect = canvas.getBoundingClientRect();
    const shown = controller.state.table.shownTrick;
    const led = shown?.cards?.length > 1 && shown.cards.length < view.players ? slotOf(view, shown.leader) : null;
    const L = renderer.layout();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    let mark = markAt(L, x, y, led);
    const face = mark === "level" ? faceAt(L, x, y) : -1;
    // a face and its dots: a bot's; a person's seat has none (there: its badge, if any)
    if (mark === "level" && (face < 0 || !botLevel(view, seatAt(view, face)))) mark = L.narrow ? null : "badge";
    let title = mark ? i18n.t(`legend.${mark}`) : "";
    if (mark === "badge" || mark === "level") {
      // a bot's badge (or face) names its creature and its level first
      const slot = mark === "level" ? face
        : L.seats.findIndex((s) => Math.abs(x - s.x) <= (s.human ? 150 : s.bw / 2) && Math.abs(y - s.y) <= s.bh / 2);
      const seat = slot >= 0 ? seatAt(view, slot) : null;
      const level = seat === null ? null : botLevel(view, seat);
      if (level) {
        const words = i18n.t(`level.${level}`);
        title = `${i18n.t("legend.seat", { name: seatName(view, seat), level: words === `level.${level}` ? level : words })}\n${title}`;
      }
    }
    if (canvas.title !== title) canvas.title = title;
    canvas.dataset.mark = mark ?? "";
  });
}

/** Tapping the middle of the table shows this round's tricks (the last one again). */
function wireTableTap(renderer, dispatch) {
  $("canvas").addEventListener("click", (e) => {
    const L = renderer.layout();
    const rect = $("canvas").getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    const b = clusterBox(L.trickPos, L.trickW, L.trickH);
    const pad = 16;
    if (x > b.x - pad && x < b.x + b.w + pad && y > b.y - pad && y < b.y + b.h + pad) {
      dispatch("tricks");
    }
  });
}

/** Every game finished at this table is kept for the statistics, on this device only
 *  (stats/keep.js, loaded when the first game ends). */
function keepFinishedGames() {
  let told = false;
  controller.addEventListener("round", ({ detail }) => {
    // an online guest keeps its game once the host has sent the whole record (online/guest.js)
    if (detail.view.phase !== "game-over" || controller.state.mode !== "play" || controller.online === "guest") return;
    // the host of an online table keeps it from its own seat, 0 (online/host.js)
    const kept = controller.online === "host" ? { me: 0, online: true } : {};
    import("./stats/keep.js")
      .then((m) => m.keepFinishedGame(engine, kept))
      .then((problem) => {
        if (!problem || told) return;
        told = true;
        controller.notice(problem === "set_aside" ? "stats.store_set_aside" : "stats.store_unavailable", {}, 9000);
      })
      .catch(() => {});
  });
}

async function boot() {
  const { code, data } = await catalogue;
  i18n.useCatalogue(code, data);
  fillStaticText();
  languageMenu();
  drawLoadingFan();
  warmFontsWhileDownloading();
  const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
  prefs.setPrefs({ reducedMotion: motion.matches });
  motion.addEventListener?.("change", (e) => prefs.setPrefs({ reducedMotion: e.matches }));
  const { tips, renderer } = wireTable();
  keepFinishedGames();
  const actions = createActions({ controller, prefs, menu: createMenu(), tips, daily });
  // no action while a saved table is shown before the engine is up (paintSavedView)
  const dispatch = (action, element) => (previewing ? undefined : actions.dispatch(action, element));
  wireTableTap(renderer, dispatch);
  wireMarkTitles(renderer, controller);
  createInput({ getState: () => controller.state, onBid: (n) => controller.bid(n), dispatch, onInput: (mode) => controller.setInput(mode) });
  const speed = $("speed");
  speed.value = prefs.prefs.speed;
  speed.addEventListener("change", () => prefs.setPrefs({ speed: speed.value }));
  wireLook();
  $("import-file").addEventListener("change", (e) => {
    actions.importFile(e.target.files[0]);
    e.target.value = "";
  });
  if (savedView) paintSavedView(savedView);
  showProgress(engine.progress);
  engine.addEventListener("progress", (e) => showProgress(e.detail));
  engine.addEventListener("failed", (e) => showFailure(e.detail));
  // The service worker registers once the first table is dealt (or the engine has failed):
  // its precache then revalidates what the engine already downloaded, and its work does
  // not compete with the first view.
  let tableShown;
  const firstTable = new Promise((resolve) => {
    tableShown = resolve;
  });
  import("./update.js")
    .then((m) => m.initUpdates({ state: controller.screen("update", m.initialState), beforeReload: () => saveGame(controller.state.view), registerAfter: firstTable }))
    .catch(() => {});
  let answers;
  try {
    await engine.ready;
    answers = await setupAnswer;
  } catch {
    answers = null;
  }
  if (!answers || answers.some((a) => a.error)) {
    endPreview(false);
    tableShown(); // the loading screen says why
    return;
  }
  const [{ result: levels }, { result: rules }] = answers;
  showProgress({ fraction: 1, key: "loading.shuffling" });
  const setup = { levels: levels.levels, defaultLevel: levels.default, botsVersion: levels.bots_version, rules };
  controller.setSetup(setup);
  prefs.normalize(rules, setup.levels, setup.defaultLevel);
  hideLoading();
  const saved = readSave();
  if (saved?.damaged) controller.notice("notice.save_damaged", {}, 8000);
  window.addEventListener("hashchange", (event) => {
    // the link the player opened (the address may have changed again since the event was
    // queued: it is the event's that is followed)
    const hash = new URL(event.newURL).hash;
    if (hash === controller.link.own || !hash || joinOnline(hash)) return;
    const again = readSave();
    openFromLink({ hash, saved: again?.damaged ? null : again, controller, setup, settings: prefs.settings, early: null, prefs, daily });
  });
  if (joinOnline(location.hash) || (await resumeOnlineHost(saved))) {
    tableShown();
    return;
  }
  try {
    await openFromLink({ hash: location.hash, saved: saved?.damaged ? null : saved, controller, setup, settings: prefs.settings, early, prefs, daily });
  } finally {
    endPreview(false); // only if no game came to the table (else ended already)
    tableShown();
  }
}

/** The host of an online table reloaded its page: the same table opens again with the
 *  autosave (online/lobby.js, loaded only when the device kept such a table). */
async function resumeOnlineHost(saved) {
  if (saved?.damaged || !keptOnlineHost()) return false;
  const m = await import("./online/lobby.js");
  const table = m.keptHostTable(saved);
  return Boolean(table) && m.resumeHost({ controller, kept: table, record: saved.record });
}

/** Did this device keep an online table it hosts?  (online/host.js's HOST_KEY) */
function keptOnlineHost() {
  try {
    return Boolean(localStorage.getItem("jabberwocky.onlineHost"));
  } catch {
    return false; // no storage: nothing kept
  }
}

/**
 * A repeat visit: the saved game's table as the engine last showed it (save.js
 * peekSavedView), drawn before the engine is up.  Nothing takes input meanwhile: the
 * controller is busy (no bid, card or claim is accepted, `data-your-turn` is false,
 * `data-phase` waits), the table and the top bar are inert, and the shortcut keys and
 * [data-action] clicks are held back (`previewing`).  The first game the engine puts on
 * the table (controller "game" event: the resumed save, or whatever the engine did
 * instead) ends it, and its view replaces the saved one: `data-preview` then says
 * whether they agreed.  A view that cannot be drawn is dropped at once.
 */
let previewing = false;

function paintSavedView(view) {
  try {
    controller.preview(view);
  } catch (err) {
    console.warn("the saved table could not be drawn:", err);
    controller.setView(null);
    return;
  }
  previewing = true;
  document.body.dataset.preview = "saved";
  for (const region of [$("table"), document.querySelector(".topbar")]) region.inert = true;
  hideLoading();
  // the renderer draws in the next frame; this callback runs after its draw
  requestAnimationFrame(() => {
    try {
      performance.mark("jabberwocky:painted"); // bench/startup.py: "table painted"
    } catch { /* no User Timing */ }
  });
  controller.addEventListener("game", ({ detail }) => endPreview(JSON.stringify(detail.view) === JSON.stringify(view)), { once: true });
  // the engine could not start: the loading screen says why
  engine.ready.catch(() => {
    endPreview(false);
    controller.setView(null);
    $("loading").hidden = false;
    document.body.classList.remove("ready");
  });
}

/** The engine's own table is in (`agreed`: the same view as the saved one). */
function endPreview(agreed) {
  if (!previewing) return;
  previewing = false;
  document.body.dataset.preview = agreed ? "agreed" : "replaced";
  for (const region of [$("table"), document.querySelector(".topbar")]) region.inert = false;
}

/** A join link (#join=<room code>) opens the online table's join screen (its code is
 *  loaded now, not before): true when `hash` is one. */
function joinOnline(hash) {
  const room = /^#join=([^&]*)/.exec(hash)?.[1];
  if (room === undefined) return false;
  import("./online/lobby.js").then((m) => m.openJoin({ controller, room, name: prefs.prefs.challengeName || "", onName: (name) => name && prefs.setPrefs({ challengeName: name }) }))
    .catch(() => sayOffline(controller)); // offline, the online code cannot be fetched
  return true;
}

boot();
