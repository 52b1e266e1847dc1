// The game flow: human actions, the bot loop, starting, resuming and opening games.
// Legality, reasons and results all come from the engine's view.

import { app, store, S, sleep, call, setView, shownTrickFor, announce } from "./app.js";
import { speedFactor, rulesFromSettings, RULE_PRESETS, TIMING } from "./state.js";
import { parseFragment, serializeFragment, checkBots, rulesPayload } from "./fragment.js";
import { presentCard, presentBid, presentDeal } from "./present.js";
import { save, fragmentOptions } from "./persist.js";
import { stopWatching } from "./watch.js";
import { cardWords } from "./cards.js";
import * as ui from "./ui/dialogs.js";

export async function runBusy(fn) {
  if (S().busy) return false;
  store.set({ busy: true });
  try {
    await fn();
  } finally {
    store.set({ busy: false });
  }
  return true;
}

export async function afterAction(token) {
  await save();
  if (token === app.gameToken) driveBots(token);
}

export async function driveBots(token) {
  if (app.driving) return;
  app.driving = true;
  store.set({ busy: true });
  try {
    for (;;) {
      const view = S().view;
      if (token !== app.gameToken || !view || view.your_turn || view.to_act === null || view.to_act === undefined) break;
      if (view.phase !== "bidding" && view.phase !== "playing") break;
      if (app.dealing) {
        await app.dealing; // the cards land before the first bot acts
        continue;
      }
      const pause = TIMING.botPause * speedFactor(S());
      if (pause > 0) await sleep(pause);
      const { result, error } = await call("bot_step");
      if (token !== app.gameToken) break;
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
    app.driving = false;
    store.set({ busy: false });
  }
  const view = S().view;
  if (view && view.your_turn && token === app.gameToken) announce(`Your turn to ${view.phase === "bidding" ? "bid" : "play"}.`);
}

function watchGuard(auto) {
  if (!app.watching || auto) return false;
  ui.toast("You are watching a replay: choose \u201cTake over from here\u201d to play.");
  return true;
}

export async function humanBid(n, auto = false) {
  if (watchGuard(auto)) return;
  const view = S().view;
  if (!view || view.phase !== "bidding") return;
  if (!view.your_turn || S().busy) {
    ui.toast("It is not your turn to bid yet.", 4200, "move");
    return;
  }
  if (n > view.hand_size) return;
  ui.clearMoveToast();
  const token = app.gameToken;
  await runBusy(async () => {
    const { result, error } = await call("bid", { bid: n });
    if (error) {
      ui.toast(error.message, 4200, "move");
      announce(error.message);
      return;
    }
    presentBid(0, n, result);
  });
  await afterAction(token);
}

export async function humanCard(card, auto = false) {
  if (watchGuard(auto)) return;
  const view = S().view;
  if (!view) return;
  const legal = view.phase === "playing" && view.your_turn && !S().busy && (view.legal_cards || []).includes(card);
  if (!legal) {
    let reason = (view.illegal_reasons || {})[card];
    if (!reason) reason = view.phase === "bidding" ? "bid first: cards are played after everyone has bid" : "it is not your turn";
    const msg = `You can't play the ${cardWords(card)}: ${reason}.`;
    ui.toast(msg, 4200, "move");
    announce(msg);
    store.set({ ui: { flash: { card, until: performance.now() + 900 } } });
    setTimeout(() => app.renderer.request(), 950);
    return;
  }
  ui.clearMoveToast(); // an old message must not linger over a new move
  const token = app.gameToken;
  const layout = app.renderer.relayout();
  const slot = layout.hand.find((s) => s.card === card);
  const fromRect = slot ? { x: slot.x, y: slot.y - layout.cardH * 0.1, w: slot.w, h: slot.h, rot: 0 } : null;
  await runBusy(async () => {
    const { result, error } = await call("play", { card });
    if (error) {
      ui.toast(error.message, 4200, "move");
      announce(error.message);
      return;
    }
    await presentCard(0, card, result, fromRect);
  });
  await afterAction(token);
}

export async function nextRound() {
  const view = S().view;
  if (!view || view.phase !== "round-over") return;
  const token = app.gameToken;
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

export function botsPayload(settings) {
  if (!settings.perSeat) return settings.bots;
  return settings.seatBots.slice(0, settings.players - 1);
}

export function updateFragment(view) {
  if (!view) return;
  app.ownHash = serializeFragment(fragmentOptions(view));
  if (location.hash !== app.ownHash) history.replaceState(null, "", app.ownHash);
}

/** Stop the bot loop of the current game and wait until nothing is in flight. */
export async function takeOver() {
  if (app.watching) stopWatching();
  const token = ++app.gameToken;
  while (S().busy || app.driving) await sleep(15);
  return token;
}

export async function startGame({ seed, players, bots, rules }, quiet = false) {
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

export async function resumeRecord(record, how) {
  const token = await takeOver();
  let ok = false;
  await runBusy(async () => {
    const early = app.earlyImport;
    app.earlyImport = null;
    const { result, error } = early && early.record === record && how === "save"
      ? await early.answer
      : await call("import_record", { record });
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

export function settingsGame(settings, seed) {
  return { seed, players: settings.players, bots: botsPayload(settings), rules: rulesFromSettings(settings, RULE_PRESETS) };
}

function sameGame(options, saved) {
  if (!saved || !options.seed) return false;
  const o = saved.options;
  if (o.seed !== options.seed) return false;
  if (options.players !== undefined && options.players !== o.players) return false;
  if (options.bots !== undefined && JSON.stringify(options.bots) !== JSON.stringify(o.bots)) return false;
  if (options.rules !== undefined && options.rules !== (o.rules || "jabberwocky")) return false;
  return true;
}

export async function openFromFragment(hash, saved) {
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
  app.earlyImport = null; // not resumed after all: the new game below replaces it
  const players = options.players || settings.players;
  const bots = checkBots(options, levels, players, problems) ?? botsPayload({ ...settings, players });
  // A shared link names its rules unless they are the default; your own settings apply
  // only to links without a seed.
  const rules = options.rules ? rulesPayload(options.rules) : (options.seed ? "jabberwocky" : rulesFromSettings(settings, RULE_PRESETS));
  if (problems.length) ui.toast(problems.join(" "), 9000);
  const ok = await startGame({ seed: options.seed, players, bots, rules });
  if (!ok) await startGame({ players: 4, bots: S().defaultLevel, rules: "jabberwocky" });
}
