// Wiring: the engine's progress and readiness, the renderer, the DOM layer, input, storage
// and the URL fragment.  No game rule lives in the front end: legality, reasons, scores and
// winners come from the view JSON.

import { engine } from "./engine.js";
import { app, store, S, $, call } from "./app.js";
import { createRenderer, drawCard, warmFonts } from "./render.js";
import { createA11y } from "./a11y.js";
import { createInput } from "./input.js";
import { paint, placeToast } from "./paint.js";
import { humanBid, humanCard, openFromFragment } from "./flow.js";
import { onAction, closeMenu, importFile } from "./actions.js";
import { save, loadSave, loadPrefs, savePrefs, peekSavedRecord } from "./persist.js";

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

// Asked now: the worker answers it as soon as Python is up (requests wait for the engine).
const levelsAnswer = call("levels");
// A visit that resumes the saved game (no link, or the game's own link, as on a reload)
// queues its import right behind.
const earlyRecord = peekSavedRecord(location.hash);
if (earlyRecord) app.earlyImport = { record: earlyRecord, answer: call("import_record", { record: earlyRecord }) };

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

async function boot() {
  drawLoadingFan();
  warmFontsWhileDownloading();
  const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
  store.set({ ui: { reducedMotion: motion.matches } });
  motion.addEventListener?.("change", (e) => store.set({ ui: { reducedMotion: e.matches } }));
  loadPrefs();
  app.renderer = createRenderer($("canvas"), S);
  app.a11y = createA11y({
    onCard: humanCard,
    onBid: humanBid,
    onFocusCard: (card) => store.set({ ui: { focusCard: card && document.body.dataset.input === "keyboard" ? card : null } }),
    onHoverCard: (card) => store.set({ ui: { hoverCard: card } }),
  });
  createInput({ getView: () => S().view, emit: (action, arg) => (action === "bid" ? humanBid(arg) : onAction(action, arg)) });
  store.subscribe(paint);
  new MutationObserver(() => placeToast()).observe($("toast"), { attributes: true, attributeFilter: ["hidden"], childList: true });
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
  // The service worker registers once the first table is dealt (or the engine has failed):
  // its precache then revalidates what the engine already downloaded, and its work does
  // not compete with the first view.
  let tableShown;
  const firstTable = new Promise((resolve) => {
    tableShown = resolve;
  });
  import("./update.js").then((m) => m.initUpdates({ beforeReload: save, registerAfter: firstTable })).catch(() => {});
  try {
    await engine.ready;
  } catch {
    tableShown();
    return;
  }
  showProgress({ fraction: 1, text: "Shuffling…" });
  const lv = await levelsAnswer;
  if (lv.result) store.set({ levels: lv.result.levels, defaultLevel: lv.result.default });
  const settings = S().settings;
  if (!S().levels.includes(settings.bots)) store.set({ settings: { ...settings, bots: S().defaultLevel, seatBots: settings.seatBots.map(() => S().defaultLevel) } });
  $("loading").hidden = true;
  document.body.classList.add("ready");
  const saved = loadSave();
  try {
    await openFromFragment(location.hash, saved);
  } finally {
    tableShown();
  }
  window.addEventListener("hashchange", () => {
    if (location.hash === app.ownHash || !location.hash) return;
    openFromFragment(location.hash, loadSave());
  });
}

boot();
