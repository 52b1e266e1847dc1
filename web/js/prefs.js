// The player's preferences (speed, tips) and New game settings: an observable store,
// stored in localStorage on every change.  Settings are checked against what the engine
// offers once it has said (normalize()); until then they are kept as stored.

import { createStore } from "./store.js";
import { readPrefs, writePrefs } from "./save.js";
import { SPEED_NAMES } from "./timing.js";
import { LANGUAGES } from "./i18n.js";
import { normalizeSettings } from "./settings.js";

export function createPrefs() {
  const stored = readPrefs() || {};
  const p = stored.prefs || {};
  const store = createStore({
    prefs: {
      speed: SPEED_NAMES.includes(p.speed) ? p.speed : "normal",
      tipsDone: p.tipsDone === true,
      lang: LANGUAGES.includes(p.lang) ? p.lang : null, // null: the browser's languages decide
      theme: ["system", "dark", "light"].includes(p.theme) ? p.theme : "system",
      fourColour: p.fourColour === true,
      deck: p.deck === "classic" ? "classic" : "simple",
      sound: p.sound === true, // off until the player turns it on
      reducedMotion: false, // the system's setting, not stored
    },
    settings: null, // normalized once the engine's levels and rules are known
    rawSettings: stored.settings ?? null,
  });

  function persist() {
    const { prefs, settings, rawSettings } = store.get();
    const { reducedMotion, ...kept } = prefs; // eslint-disable-line no-unused-vars
    writePrefs(kept, settings ?? rawSettings);
  }

  return {
    store,
    get prefs() {
      return store.get().prefs;
    },
    get settings() {
      return store.get().settings;
    },
    /** Change preferences (stored, unless only the system's reduced motion changed). */
    setPrefs(patch) {
      store.merge("prefs", patch);
      if (Object.keys(patch).some((k) => k !== "reducedMotion")) persist();
    },
    setSettings(settings) {
      store.set({ settings });
      persist();
    },
    /** Check the stored settings against the engine's offer. */
    normalize(info, levels, defaultLevel) {
      store.set({ settings: normalizeSettings(store.get().settings ?? store.get().rawSettings, info, levels, defaultLevel) });
    },
  };
}
