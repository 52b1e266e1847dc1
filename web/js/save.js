// The game in progress, kept in localStorage after every transition (the engine's record),
// and the preferences.  A save is only trusted after the engine has replayed its record.

import * as storage from "./storage.js";
import { serializeFragment, rulesText, botsVersionNumber } from "./fragment.js";

export const SAVE_KEY = "jabberwocky.save.v1";
export const PREFS_KEY = "jabberwocky.prefs.v1";
const SAVE_FORMAT = "jabberwocky-save/1";

/** A stored value this page can resume from: this format, a record and its options. */
export function isSave(value) {
  return Boolean(value) && value.format === SAVE_FORMAT && typeof value.record === "string" && Boolean(value.options);
}

/** The link options of a game (its view): seed, players, bots, rules when not the
 *  default preset, and the bots version when the view names one. */
export function fragmentOptions(view, info) {
  const bots = view.seats.slice(1);
  const same = bots.every((b) => b === bots[0]);
  const text = rulesText(view.rules, info);
  const bv = botsVersionNumber(view.bots_version);
  const options = { seed: view.seed, players: view.players, bots: same ? bots[0] : bots, rules: text === info.default ? undefined : text };
  if (bv !== null) options.bv = bv;
  return options;
}

/** Store the game: the record (from the engine) and the options of its link. */
export function writeSave(record, options) {
  storage.setJSON(SAVE_KEY, { format: SAVE_FORMAT, saved: Date.now(), options, record });
}

/** The saved record as it is stored (no checks, no messages) when a visit with this URL
 *  fragment resumes it (no fragment, or the saved game's own, as after a reload), else
 *  null.  The page sends it to the engine before the engine is ready, so the table can be
 *  shown the moment Python is. */
export function peekSavedRecord(hash) {
  const { value } = storage.getJSON(SAVE_KEY);
  if (!isSave(value)) return null; // readSave() discards it, with a message
  if (hash.length > 1) {
    try {
      if (hash !== serializeFragment(value.options)) return null;
    } catch {
      return null; // options not as this page saves them: the full check decides later
    }
  }
  return value.record;
}

/** The save, or null; {damaged: true} when one was there but unusable (it is removed). */
export function readSave() {
  const { value, error } = storage.getJSON(SAVE_KEY);
  if (error || (value && !isSave(value))) {
    storage.removeItem(SAVE_KEY);
    return { damaged: true };
  }
  return value;
}

/** The stored preferences and settings ({prefs, settings}), unchecked (may be null). */
export function readPrefs() {
  const { value } = storage.getJSON(PREFS_KEY);
  return value && typeof value === "object" ? value : null;
}

export function writePrefs(prefs, settings) {
  storage.setJSON(PREFS_KEY, { prefs, settings });
}
