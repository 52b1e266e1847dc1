// The New game settings and the rules they ask for, checked against what the engine
// offers (its `rules` and `levels` answers): the page holds no copy of any rule.  Pure
// functions (unit-tested with node --test).
//
// settings: {players, bots, perSeat, seatBots: [4 levels], rules: preset name, schedule:
// schedule name ("3-9-3"), hook, trumpLead, scoring, renege: penalty}

/** The settings a preset stands for. */
export function presetSettings(name, info) {
  const key = Object.hasOwn(info.presets, name) ? name : info.default;
  const p = info.presets[key];
  return {
    rules: key,
    schedule: scheduleName(p.schedule, info),
    hook: p.hook,
    trumpLead: p.trump_lead,
    scoring: p.scoring,
    renege: p.renege_penalty,
  };
}

/** Default settings: the engine's default table and preset, its default bot level. */
export function defaultSettings(info, levels, defaultLevel) {
  const level = levels.includes(defaultLevel) ? defaultLevel : levels[levels.length - 1];
  return {
    players: info.players.default,
    bots: level,
    perSeat: false,
    seatBots: new Array(info.players.max - 1).fill(level),
    multi: false, // pass-and-play: several people at this device
    seatKinds: ["human", "human", ...new Array(info.players.max - 2).fill(level)],
    names: new Array(info.players.max).fill(""),
    ...presetSettings(info.default, info),
  };
}

/** The name of `schedule` among the engine's named schedules, else its sizes joined. */
export function scheduleName(schedule, info) {
  const named = info.options.schedule.named;
  const found = Object.keys(named).find((k) => sameList(named[k], schedule));
  return found ?? schedule.join("-");
}

/** `raw` (stored or typed settings, untrusted) made valid: unknown or out-of-range values
 *  give way to the defaults. */
export function normalizeSettings(raw, info, levels, defaultLevel) {
  const base = defaultSettings(info, levels, defaultLevel);
  if (!raw || typeof raw !== "object") return base;
  const out = { ...base };
  const { min, max } = info.players;
  if (Number.isInteger(raw.players) && raw.players >= min && raw.players <= max) out.players = raw.players;
  if (levels.includes(raw.bots)) out.bots = raw.bots;
  if (typeof raw.perSeat === "boolean") out.perSeat = raw.perSeat;
  if (Array.isArray(raw.seatBots)) {
    out.seatBots = out.seatBots.map((b, i) => (levels.includes(raw.seatBots[i]) ? raw.seatBots[i] : out.bots));
  }
  if (typeof raw.multi === "boolean") out.multi = raw.multi;
  if (Array.isArray(raw.seatKinds)) {
    out.seatKinds = out.seatKinds.map((k, i) => (raw.seatKinds[i] === "human" || levels.includes(raw.seatKinds[i]) ? raw.seatKinds[i] : k));
  }
  if (Array.isArray(raw.names)) {
    out.names = out.names.map((n, i) => (typeof raw.names[i] === "string" ? raw.names[i].slice(0, info.name_max_length ?? 24) : n));
  }
  if (Object.hasOwn(info.presets, raw.rules)) Object.assign(out, presetSettings(raw.rules, info));
  const opts = info.options;
  if (Object.hasOwn(opts.schedule.named, raw.schedule)) out.schedule = raw.schedule;
  if (typeof raw.hook === "boolean") out.hook = raw.hook;
  if (opts.trump_lead.values.includes(raw.trumpLead)) out.trumpLead = raw.trumpLead;
  if (opts.scoring.values.includes(raw.scoring)) out.scoring = raw.scoring;
  if (opts.renege_penalty.values.includes(raw.renege)) out.renege = raw.renege;
  return out;
}

/** What new_game takes for the settings' rules: the preset's name when they are exactly a
 *  preset, else a ruleset dict named "custom". */
export function rulesFromSettings(s, info) {
  const named = info.options.schedule.named;
  const dict = {
    schedule: named[s.schedule] ?? info.presets[info.default].schedule,
    hook: s.hook,
    trump_lead: s.trumpLead,
    scoring: s.scoring,
    renege_penalty: Number(s.renege),
  };
  const base = info.presets[s.rules] ?? info.presets[info.default];
  const same = Object.keys(dict).every((k) => sameValue(base[k], dict[k]));
  if (same && Object.hasOwn(info.presets, s.rules)) return s.rules;
  return { name: "custom", ...dict };
}

/** The bots part of new_game: one level for all, or one per bot seat. */
export function botsFromSettings(s) {
  return s.perSeat ? s.seatBots.slice(0, s.players - 1) : s.bots;
}

/** Pass-and-play's part of new_game ({seats, names}), or null for one human against bots. */
export function seatsFromSettings(s) {
  if (!s.multi) return null;
  const seats = s.seatKinds.slice(0, s.players);
  if (!seats.includes("human")) seats[0] = "human";
  const names = seats.map((kind, i) => (kind === "human" && s.names[i]?.trim() ? s.names[i].trim() : null));
  return { seats, names };
}

/** The settings of a game in progress (its view), so New game can start from them. */
export function settingsOfView(view, info, base) {
  const bots = view.seats.slice(1);
  const same = bots.every((b) => b === bots[0]);
  const r = view.rules;
  const preset = Object.keys(info.presets).find((name) => Object.keys(info.presets[name]).every((k) => k === "name" || k === "version" || sameValue(info.presets[name][k], r[k])));
  const humans = view.seats.filter((k) => k === "human").length;
  const multi = humans > 1 ? {
    multi: true,
    seatKinds: [...view.seats, ...base.seatKinds.slice(view.seats.length)],
    names: [...(view.player_names || []).map((n) => n || ""), ...base.names.slice(view.players)],
  } : { multi: false };
  return {
    ...base,
    ...multi,
    players: view.players,
    bots: same ? bots[0] : base.bots,
    perSeat: !same,
    seatBots: same ? base.seatBots : [...bots, ...base.seatBots.slice(bots.length)],
    rules: preset ?? (Object.hasOwn(info.presets, r.name) ? r.name : info.default),
    schedule: scheduleName(r.schedule, info),
    hook: r.hook,
    trumpLead: r.trump_lead,
    scoring: r.scoring,
    renege: r.renege_penalty,
  };
}

function sameList(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameValue(a, b) {
  return Array.isArray(a) ? sameList(a, b) : a === b;
}
