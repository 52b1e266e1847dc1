// Shared by the table's modules: the store, the engine call, live announcements and
// the few references set once at boot (renderer, DOM layer) or per game (token, loops).

import { engine } from "./engine.js";
import { createStore } from "./state.js";

export const store = createStore();
export const S = () => store.get();
export const $ = (id) => document.getElementById(id);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Mutable references: renderer and a11y (set at boot), the current game's token (bumped
 *  to stop its loops), whether the bot loop runs, our own last fragment, a replay, and
 *  the deal animation in progress (a promise, or null), the saved game's import sent at
 *  start-up ({record, answer}, used once). */
export const app = { renderer: null, a11y: null, gameToken: 0, driving: false, ownHash: "", watching: null, dealing: null, earlyImport: null };

export async function call(type, payload = {}) {
  try {
    return { result: await engine.request(type, payload) };
  } catch (err) {
    return { error: { kind: err.kind || "Error", message: err.message || String(err) } };
  }
}

export function setView(view, extraUi = {}) {
  store.set({ view, ui: { hint: null, ...extraUi } });
}

export function shownTrickFor(view) {
  if (view.trick && view.trick.cards.length) return view.trick;
  return view.last_trick || { leader: 0, cards: [] };
}

export function announce(message) {
  app.a11y.announce(message);
}
