// App state: one object, changed only through set(); listeners run once per change batch.

export const SPEEDS = {
  slow: { label: "Slow", factor: 1.7 },
  normal: { label: "Normal", factor: 1 },
  fast: { label: "Fast", factor: 0.45 },
  instant: { label: "Instant (no animation)", factor: 0 },
};

export const TIMING = { botPause: 520, fly: 280, hold: 850, collect: 320, dealEach: 45, dealFly: 240 };

export const DEFAULT_SETTINGS = {
  players: 4,
  bots: "medium",
  perSeat: false,
  seatBots: ["medium", "medium", "medium", "medium"],
  rules: "jabberwocky",
  hook: true,
  trumpLead: "after-broken",
  scoring: "exact-1",
  renege: 0,
  schedule: "3-9-3",
};

export function createStore() {
  const state = {
    phase: "loading",
    loading: { fraction: 0, text: "Starting…" },
    view: null,
    levels: ["random"],
    defaultLevel: "random",
    prefs: { speed: "normal", tipsSeen: false },
    settings: { ...DEFAULT_SETTINGS },
    ui: {
      shownTrick: null,
      dealtCounts: null,
      focusCard: null,
      hoverCard: null,
      flash: null,
      hint: null,
      reducedMotion: false,
    },
    busy: false,
  };
  const listeners = new Set();
  let queued = false;

  function notify() {
    queued = false;
    for (const fn of listeners) fn(state);
  }

  return {
    get: () => state,
    /** Shallow-merge `patch` into state (and `patch.ui` into state.ui). */
    set(patch) {
      for (const [k, v] of Object.entries(patch)) {
        if (k === "ui") Object.assign(state.ui, v);
        else state[k] = v;
      }
      if (!queued) {
        queued = true;
        queueMicrotask(notify);
      }
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/** Multiplier for animation/pauses: 0 when motion is reduced or speed is instant. */
export function speedFactor(state) {
  if (state.ui.reducedMotion) return 0;
  return (SPEEDS[state.prefs.speed] || SPEEDS.normal).factor;
}

/** The rules payload for new_game from the settings (preset name when unchanged). */
export function rulesFromSettings(s, presets) {
  const base = presets[s.rules] || presets.jabberwocky;
  const schedule = s.schedule === "7-1-7" ? [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7] : [3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3];
  const dict = {
    name: s.rules,
    schedule,
    hook: s.hook,
    trump_lead: s.trumpLead,
    scoring: s.scoring,
    renege_penalty: Number(s.renege),
  };
  const same = JSON.stringify(base.schedule) === JSON.stringify(dict.schedule) && base.hook === dict.hook &&
    base.trump_lead === dict.trump_lead && base.scoring === dict.scoring && base.renege_penalty === dict.renege_penalty;
  if (same) return s.rules;
  return { ...dict, name: "custom" };
}

export const RULE_PRESETS = {
  jabberwocky: { schedule: [3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3], hook: true, trump_lead: "after-broken", scoring: "exact-1", renege_penalty: 0 },
  "oh-hell": { schedule: [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7], hook: true, trump_lead: "any-time", scoring: "exact-10-plus-bid", renege_penalty: 0 },
  honour: { schedule: [3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3], hook: true, trump_lead: "after-broken", scoring: "exact-1", renege_penalty: 3 },
};

/** Settings toggles for a preset name. */
export function presetSettings(name) {
  const p = RULE_PRESETS[name] || RULE_PRESETS.jabberwocky;
  return {
    rules: RULE_PRESETS[name] ? name : "jabberwocky",
    hook: p.hook,
    trumpLead: p.trump_lead,
    scoring: p.scoring,
    renege: p.renege_penalty,
    schedule: p.schedule[0] === 7 ? "7-1-7" : "3-9-3",
  };
}
