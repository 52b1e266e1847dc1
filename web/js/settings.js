// The New game settings and the rules they ask for, checked against what the engine
// offers (its `rules` and `levels` answers): the page holds no copy of any rule, and no
// list of the rule options either — each option's specification (`info.options`: its
// Ruleset field, its settings key, its values) drives them, so a new option needs no
// change here.  Pure functions (unit-tested with node --test).
//
// settings: {players, bots, perSeat, seatBots: [4 levels], multi, seatKinds, names, rules:
// preset name, and one key per rule option (its `setting`): the schedule's name
// ("3-9-3") for the schedule, the option's value for the others (today hook, trumpLead,
// scoring, renege)}

/** The rule options' specifications, in the order the engine declares them. */
export const ruleOptions = (info) => Object.values(info.options);

/** A ruleset value as the settings hold it (the schedule by its name). */
function settingOf(option, value, info) {
  return option.control === "schedule" ? scheduleName(value, info) : value;
}

/** The New game dialog's preset for rules that are none of the engine's presets (a custom
 *  rules link's): its options stay as they are. */
export const CUSTOM = "custom";

/** The settings a preset stands for. */
export function presetSettings(name, info) {
  const key = Object.hasOwn(info.presets, name) ? name : info.default;
  const p = info.presets[key];
  const out = { rules: key };
  for (const option of ruleOptions(info)) out[option.setting] = settingOf(option, p[option.field], info);
  return out;
}

/** One of `option`'s values equal to `raw` (or to its text: a stored "3" is 3), else
 *  undefined. */
export function optionValue(option, raw) {
  const values = option.values || [];
  if (values.includes(raw)) return raw;
  return values.find((v) => typeof raw === "string" && typeof v !== "string" && String(v) === raw);
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

/** The hand sizes of a schedule the settings hold by its sizes joined ("2-3-2", from a
 *  custom rules link), or null for anything else: sizes the engine's rules allow (from
 *  min_hand to max_hand cards, at most max_rounds rounds). */
export function scheduleSizes(name, info) {
  if (typeof name !== "string" || !/^\d{1,2}(-\d{1,2}){0,39}$/.test(name)) return null;
  const spec = ruleOptions(info).find((o) => o.control === "schedule");
  const sizes = name.split("-").map(Number);
  const ok = sizes.length <= (spec.max_rounds ?? 30) && sizes.every((n) => n >= (spec.min_hand ?? 1) && n <= (spec.max_hand ?? 10));
  return ok ? sizes : null;
}

/** The name of `schedule` among the engine's named schedules, else its sizes joined. */
export function scheduleName(schedule, info) {
  const named = ruleOptions(info).find((o) => o.control === "schedule").named;
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
  for (const option of ruleOptions(info)) {
    const given = raw[option.setting];
    if (option.control === "schedule") {
      if (typeof given === "string" && (Object.hasOwn(option.named, given) || scheduleSizes(given, info))) out[option.setting] = given;
    } else if (option.values.includes(given)) {
      out[option.setting] = given;
    }
  }
  return out;
}

/** What new_game takes for the settings' rules: the preset's name when they are exactly a
 *  preset, else a ruleset dict named "custom". */
export function rulesFromSettings(s, info) {
  const dict = {};
  for (const option of ruleOptions(info)) {
    const given = s[option.setting];
    dict[option.field] = option.control === "schedule"
      ? (Object.hasOwn(option.named, given) ? option.named[given] : scheduleSizes(given, info) ?? info.presets[info.default][option.field])
      : (optionValue(option, given) ?? given);
  }
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
    rules: preset ?? CUSTOM,
    ...Object.fromEntries(ruleOptions(info).map((option) => [option.setting, settingOf(option, r[option.field], info)])),
  };
}

function sameList(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameValue(a, b) {
  return Array.isArray(a) ? sameList(a, b) : a === b;
}
