// Autosave (the engine's game record after every action) and preferences, in localStorage.

import { store, S, call } from "./app.js";
import { presetSettings } from "./state.js";
import { PRESETS, rulesText, serializeFragment } from "./fragment.js";
import * as storage from "./storage.js";
import * as ui from "./ui/dialogs.js";

const SAVE_KEY = "jabberwocky.save.v1";
const PREFS_KEY = "jabberwocky.prefs.v1";
const SAVE_FORMAT = "jabberwocky-save/1";

export function fragmentOptions(view) {
  const bots = view.seats.slice(1);
  const same = bots.every((b) => b === bots[0]);
  const text = rulesText(view.rules);
  const rules = text === "jabberwocky" ? undefined : text;
  return { seed: view.seed, players: view.players, bots: same ? bots[0] : bots, rules };
}

export async function save() {
  const view = S().view;
  if (!view) return;
  const { result, error } = await call("export_record");
  if (error) return;
  storage.setJSON(SAVE_KEY, { format: SAVE_FORMAT, saved: Date.now(), options: fragmentOptions(view), record: result.record });
}

/** The saved record as it is stored (no checks, no messages) when a visit with this URL
 *  fragment resumes it (no fragment, or the saved game's own, as after a reload), else
 *  null.  The page sends it to the engine before the engine is ready, so the table can be
 *  shown the moment Python is. */
export function peekSavedRecord(hash) {
  const { value } = storage.getJSON(SAVE_KEY);
  if (!isSave(value)) return null; // loadSave() discards it, with a message
  if (hash.length > 1) {
    try {
      if (hash !== serializeFragment(value.options)) return null;
    } catch {
      return null; // options not as this page saves them: the full check decides later
    }
  }
  return value.record;
}

/** A stored value this page can resume from: this format, a record and its options. */
function isSave(value) {
  return Boolean(value) && value.format === SAVE_FORMAT && typeof value.record === "string" && Boolean(value.options);
}

export function loadSave() {
  const { value, error } = storage.getJSON(SAVE_KEY);
  if (error || (value && !isSave(value))) {
    storage.removeItem(SAVE_KEY);
    ui.toast("A saved game was damaged or came from elsewhere, so it was discarded.", 8000);
    return null;
  }
  return value;
}

export function savePrefs(patch) {
  const prefs = { ...S().prefs, ...patch };
  store.set({ prefs });
  storage.setJSON(PREFS_KEY, { prefs, settings: S().settings });
}

export function loadPrefs() {
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
