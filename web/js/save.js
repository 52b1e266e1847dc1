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

/** Store the game: the record (from the engine), the options of its link and, when
 *  given, the engine's last view of it (a repeat visit draws it before the engine is up:
 *  peekSavedView). */
export function writeSave(record, options, view = undefined) {
  storage.setJSON(SAVE_KEY, { format: SAVE_FORMAT, saved: Date.now(), options, record, ...(view ? { view } : {}) });
}

/** Does the visit's URL fragment open the saved game?  No fragment (or a language only),
 *  or one whose every parameter is the saved game's own (as a reload's, or the saved
 *  game's link without its bots version): what web/js/opening.js's sameGame accepts. */
function opensSavedGame(hash, options) {
  const asked = hash.replace(/^#/, "").split("&").filter((part) => part && !/^lang=[a-z]{2}$/.test(part));
  if (!asked.length) return true;
  let own;
  try {
    own = new Set(serializeFragment(options).slice(1).split("&"));
  } catch {
    return false; // options not as this page saves them: the full check decides later
  }
  return asked.some((part) => /^(seed|challenge|daily)=./.test(part)) && asked.every((part) => own.has(part));
}

/** The saved record as it is stored (no checks, no messages) when a visit with this URL
 *  fragment resumes it (no fragment, or the saved game's own, as after a reload), else
 *  null.  The page sends it to the engine before the engine is ready, so the table can be
 *  shown the moment Python is. */
export function peekSavedRecord(hash) {
  const { value } = storage.getJSON(SAVE_KEY);
  if (!isSave(value)) return null; // readSave() discards it, with a message
  return opensSavedGame(hash, value.options) ? value.record : null;
}

const PHASES = ["bidding", "playing", "round-over", "game-over"];

/** The engine's last view of the saved game, when this visit resumes it and the view
 *  looks like one the table can draw; else null (a damaged view is ignored: the record
 *  alone is resumed, as before views were saved).  Never a view the engine would not
 *  show on its own: not a pass-and-play table (the engine hides hands between players),
 *  not a view of another game than the record's options name. */
export function peekSavedView(hash) {
  const { value } = storage.getJSON(SAVE_KEY);
  if (!isSave(value) || !opensSavedGame(hash, value.options)) return null;
  const view = value.view;
  if (!view || typeof view !== "object" || Array.isArray(view)) return null;
  const players = view.players;
  const fits = PHASES.includes(view.phase) && Number.isInteger(players) && players >= 2 && players <= 8
    && Array.isArray(view.seats) && view.seats.length === players && view.seats[0] === "human"
    && !view.seats.slice(1).includes("human") && !view.handoff
    && !(Array.isArray(view.remote) && view.remote.some(Boolean))
    && Array.isArray(view.hand) && view.hand.every((card) => typeof card === "string")
    && Number.isInteger(view.step) && Number.isInteger(view.round) && Number.isInteger(view.rounds)
    && Array.isArray(view.scores) && view.scores.length === players
    && (value.options.seed === undefined || view.seed === value.options.seed);
  return fits ? view : null;
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
