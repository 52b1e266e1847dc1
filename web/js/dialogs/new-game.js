// The New game dialog: table size, bot levels, rules (a preset, then fine-tuned) and an
// optional seed.  Every choice it offers comes from the engine (its levels and rules
// answers); every word from the catalogue.  The fine-tuning controls are made from the
// rule options' specifications (`rules.options`: each one's control, values and words),
// one control per option, with the id `rule-<its link key>`: a new option appears here
// without a change of this file.

import { el, $, openDialog } from "../dom/util.js";
import { t } from "../i18n.js";
import { presetSettings, ruleOptions, optionValue, CUSTOM } from "../settings.js";

/** The options the default preset's label names even though it is their default (how
 *  long a game is and how it scores); any other option is named where a preset differs. */
const HEADLINE = ["schedule", "scoring"];

/** A catalogue key of the option's words with `{value}` replaced by the value's link text. */
function wordsKey(option, template, value) {
  const i = (option.values || []).indexOf(value);
  const text = i >= 0 && option.link_values ? option.link_values[i] : String(value);
  return template.replace("{value}", text);
}

/** The params of a words entry: "{value}" stands for the option's value. */
function wordsParams(params, value) {
  return Object.fromEntries(Object.entries(params || {}).map(([k, v]) => [k, v === "{value}" ? value : v]));
}

/** The words of a schedule name ("3-9-3"): "3 up to 9 and back to 3 cards". */
export function scheduleLabel(name) {
  const parts = name.split("-").map(Number);
  if (parts.length === 3) {
    const [first, turn, last] = parts;
    return t(turn > first ? "schedule.up_and_back" : "schedule.down_and_back", { first, turn, last });
  }
  return t("schedule.sizes", { sizes: parts });
}

/** What sets a preset apart, in a few words ("7…1…7, 10 + bid, trump led any time"): the
 *  line under the preset's choice (a phone's select is too narrow to say it beside the
 *  name). */
export function presetDetails(name, info) {
  const p = info.presets[name];
  const base = info.presets[info.default];
  const options = ruleOptions(info);
  const ordered = [...options.filter((o) => HEADLINE.includes(o.field)), ...options.filter((o) => !HEADLINE.includes(o.field))];
  const details = [];
  for (const option of ordered) {
    const value = p[option.field];
    const differs = JSON.stringify(value) !== JSON.stringify(base[option.field]);
    if (!differs && !(name === info.default && HEADLINE.includes(option.field))) continue;
    details.push(optionShort(option, value));
  }
  return t("preset.details", { details });
}

/** An option's value in a few words ("hook rule", "10 + bid"); a schedule's as 3…9…3. */
function optionShort(option, value) {
  if (option.control === "schedule") {
    const sched = Object.keys(option.named).find((k) => JSON.stringify(option.named[k]) === JSON.stringify(value));
    if (!sched && value.length !== 3) return t("schedule.sizes", { sizes: value });
    return t(option.words.short, { first: value[0], turn: sched ? Number(sched.split("-")[1]) : value[1], last: value[value.length - 1] });
  }
  return t(wordsKey(option, option.words.short, value), wordsParams(option.words.short_params, value));
}

/** Every rule of `rules` (a view's ruleset) in a few words each: what the help says of the
 *  game on the table. */
export function rulesDetails(rules, info) {
  return ruleOptions(info).filter((o) => o.control !== "schedule").map((o) => optionShort(o, rules[o.field]));
}

/** The fine-tuning controls, one per rule option, after the <details>' summary. */
function ruleControls(info) {
  const box = $("rule-options");
  const summary = box.querySelector("summary");
  const controls = ruleOptions(info).map((option) => {
    const id = `rule-${option.link}`;
    const words = t(option.words.label, option.words.label_params || {});
    if (option.control === "checkbox") {
      const label = el("label", { className: "row check" });
      label.append(el("input", { type: "checkbox", id }), " ", el("span", { id: `${id}-label` }, words));
      return label;
    }
    const select = el("select", { id });
    if (option.control === "schedule") options(select, Object.keys(option.named), scheduleLabel);
    else {
      select.replaceChildren(...option.values.map((v) => el("option", { value: String(v) }, t(wordsKey(option, option.words.value, v)))));
    }
    const label = el("label", { className: "row" });
    label.append(el("span", {}, words), " ", select);
    return label;
  });
  box.replaceChildren(summary, ...controls);
}

/** Show the settings' rule options in the controls.  A schedule that is none of the named
 *  ones (a custom rules link's "2-3-2") gets its own choice, so the Rounds field shows it. */
function showRules(settings, info) {
  for (const option of ruleOptions(info)) {
    const control = $(`rule-${option.link}`);
    const value = settings[option.setting];
    if (option.control === "checkbox") control.checked = (optionValue(option, value) ?? value) === option.checked;
    else {
      control.querySelector("option[data-custom]")?.remove();
      if (option.control === "schedule" && !Object.hasOwn(option.named, value)) {
        control.append(el("option", { value: String(value), "data-custom": "true" }, scheduleLabel(String(value))));
      }
      control.value = String(value);
    }
  }
}

/** Does the choice of rules `settings` hold match their preset's?  (Else they are custom.) */
function matchesPreset(settings, info) {
  const preset = presetSettings(settings.rules, info);
  return Object.hasOwn(info.presets, settings.rules) && ruleOptions(info).every((o) => String(preset[o.setting]) === String(settings[o.setting]));
}

/** The rule options' settings the controls show. */
function readRules(info) {
  const out = {};
  for (const option of ruleOptions(info)) {
    const control = $(`rule-${option.link}`);
    if (option.control === "checkbox") out[option.setting] = control.checked ? option.checked : option.values.find((v) => v !== option.checked);
    else if (option.control === "schedule") out[option.setting] = control.value;
    else out[option.setting] = optionValue(option, control.value) ?? control.value;
  }
  return out;
}

/** `list` with its first entries replaced by `first`. */
const mergeList = (list, first) => [...first, ...list.slice(first.length)];

function options(select, values, label) {
  select.replaceChildren(...values.map((v) => el("option", { value: String(v) }, label(v))));
}

/**
 * Open the dialog with `settings`; `setup` is {levels, rules}; onStart(settings, seed) is
 * called when the player deals, onOnline(settings) when they choose to play with friends
 * online instead.
 */
export function openNewGame(settings, setup, onStart, onOnline = () => {}) {
  const info = setup.rules;
  const levels = setup.levels;
  const dlg = $("dlg-new");
  const seg = $("players-seg");
  seg.replaceChildren();
  for (let n = info.players.min; n <= info.players.max; n++) {
    const input = el("input", { type: "radio", name: "players", value: String(n) });
    input.checked = n === settings.players;
    const label = el("label");
    label.append(input, document.createTextNode(` ${n}`));
    seg.append(label);
  }
  const all = $("bots-all");
  options(all, levels, (l) => t(`level.${l}`));
  all.value = levels.includes(settings.bots) ? settings.bots : levels[0];
  $("per-seat").checked = settings.perSeat;
  const seatBox = $("seat-levels");
  const players = () => Number(seg.querySelector("input:checked")?.value ?? settings.players);
  const drawSeats = () => {
    seatBox.replaceChildren();
    for (let s = 1; s < players(); s++) {
      const sel = el("select", { "data-seat": String(s), "aria-label": t("newgame.seat_level", { n: s }) });
      options(sel, levels, (l) => t(`level.${l}`));
      sel.value = levels.includes(settings.seatBots[s - 1]) ? settings.seatBots[s - 1] : all.value;
      const label = el("label", { className: "row" }, t("newgame.seat", { n: s }) + " ");
      label.append(sel);
      seatBox.append(label);
    }
    seatBox.hidden = !$("per-seat").checked;
  };
  // pass-and-play: each seat a person (with a name) or a bot
  const people = $("seat-people");
  $("multi").checked = Boolean(settings.multi);
  const drawPeople = () => {
    const rows = Array.from(people.querySelectorAll("[data-seat-kind]")).map((sel) => sel.value);
    const names = Array.from(people.querySelectorAll("[data-seat-name]")).map((input) => input.value);
    people.replaceChildren();
    for (let s = 0; s < players(); s++) {
      const row = el("div", { className: "row person" });
      const kind = el("select", { "data-seat-kind": String(s), "aria-label": t("newgame.seat_kind", { n: s + 1 }) });
      options(kind, ["human", ...levels], (k) => (k === "human" ? t("newgame.person") : t(`level.${k}`)));
      kind.value = rows[s] ?? settings.seatKinds[s] ?? "human";
      const name = el("input", { type: "text", "data-seat-name": String(s), maxlength: String(info.name_max_length ?? 24),
        autocomplete: "off", "aria-label": t("newgame.seat_name", { n: s + 1 }), placeholder: t("seat.player", { n: s + 1 }) });
      name.value = names[s] ?? settings.names[s] ?? "";
      name.hidden = kind.value !== "human";
      kind.onchange = () => { name.hidden = kind.value !== "human"; };
      row.append(el("span", {}, t("newgame.seat_n", { n: s + 1 })), kind, name);
      people.append(row);
    }
    const multi = $("multi").checked;
    people.hidden = !multi;
    $("bots-all").closest("label").hidden = multi;
    $("per-seat").closest("label").hidden = multi;
    seatBox.hidden = multi || !$("per-seat").checked;
  };
  seg.querySelectorAll("input").forEach((r) => { r.onchange = () => { drawSeats(); drawPeople(); }; });
  $("per-seat").onchange = drawSeats;
  $("multi").onchange = drawPeople;
  drawSeats();
  people.replaceChildren();
  drawPeople();

  // the presets, and "Custom rules" when the rules in force are none of them (a custom
  // rules link: its options show in the fine-tuning, not a preset's)
  const custom = !matchesPreset(settings, info);
  const presetNames = [...Object.keys(info.presets), ...(custom ? [CUSTOM] : [])];
  options($("rules-preset"), presetNames, (name) => (name === CUSTOM ? t("preset.custom") : t(`preset.${name}`)));
  ruleControls(info);
  $("rules-preset").value = custom ? CUSTOM : settings.rules;
  const explain = () => {
    const name = $("rules-preset").value;
    const line = $("rules-preset-details");
    line.hidden = name === CUSTOM; // a link's own rules: the fine-tuning below shows them
    line.textContent = name === CUSTOM ? "" : presetDetails(name, info);
  };
  explain();
  showRules(settings, info);
  $("rule-options").open = custom;
  $("rules-preset").onchange = () => {
    explain();
    showRules($("rules-preset").value === CUSTOM ? settings : presetSettings($("rules-preset").value, info), info);
  };
  const seed = $("seed-input");
  seed.value = "";
  seed.maxLength = info.seed_max_length;
  const read = () => {
    const seatBots = Array.from(seatBox.querySelectorAll("select")).map((s) => s.value);
    return {
      players: players(),
      bots: all.value,
      perSeat: $("per-seat").checked,
      seatBots: seatBots.length ? seatBots.concat(settings.seatBots.slice(seatBots.length)) : settings.seatBots,
      rules: $("rules-preset").value,
      ...readRules(info),
      multi: $("multi").checked,
      seatKinds: mergeList(settings.seatKinds, Array.from(people.querySelectorAll("[data-seat-kind]")).map((x) => x.value)),
      names: mergeList(settings.names, Array.from(people.querySelectorAll("[data-seat-name]")).map((x) => x.value.trim())),
    };
  };
  dlg.querySelector('[data-action="start-game"]').onclick = () => onStart(read(), seed.value.trim());
  // an online table: the same choices, then who of the seats is a friend (online/lobby.js)
  dlg.querySelector('[data-action="online-new"]').onclick = () => {
    dlg.close();
    onOnline(read());
  };
  openDialog(dlg);
  seg.querySelector("input:checked")?.focus(); // the choice in force, not the first radio
}
