// The New game dialog: table size, bot levels, rules (a preset, then fine-tuned) and an
// optional seed.  Every choice it offers comes from the engine (its levels and rules
// answers); every word from the catalogue.

import { el, $, openDialog } from "../dom/util.js";
import { t } from "../i18n.js";
import { presetSettings } from "../settings.js";

/** The words of a schedule name ("3-9-3"): "3 up to 9 and back to 3 cards". */
export function scheduleLabel(name) {
  const parts = name.split("-").map(Number);
  if (parts.length === 3) {
    const [first, turn, last] = parts;
    return t(turn > first ? "schedule.up_and_back" : "schedule.down_and_back", { first, turn, last });
  }
  return t("schedule.sizes", { sizes: parts });
}

/** A preset's label: its name and what sets it apart ("Oh Hell (7…1…7, 10 + bid, …)"). */
export function presetLabel(name, info) {
  const p = info.presets[name];
  const base = info.presets[info.default];
  const details = [];
  const sched = Object.keys(info.options.schedule.named).find((k) => JSON.stringify(info.options.schedule.named[k]) === JSON.stringify(p.schedule));
  if (name === info.default || JSON.stringify(p.schedule) !== JSON.stringify(base.schedule)) {
    details.push(t("preset.schedule", { first: p.schedule[0], turn: sched ? Number(sched.split("-")[1]) : p.schedule[0], last: p.schedule[p.schedule.length - 1] }));
  }
  if (name === info.default || p.scoring !== base.scoring) details.push(t(`scoring.${p.scoring}.short`));
  if (p.trump_lead !== base.trump_lead) details.push(t(`trump_lead.${p.trump_lead}.short`));
  if (p.hook !== base.hook) details.push(t(p.hook ? "hook.on.short" : "hook.off.short"));
  if (p.renege_penalty !== base.renege_penalty) details.push(t("renege.short", { points: p.renege_penalty }));
  return t("preset.label", { name: t(`preset.${name}`), details });
}

/** `list` with its first entries replaced by `first`. */
const mergeList = (list, first) => [...first, ...list.slice(first.length)];

function options(select, values, label) {
  select.replaceChildren(...values.map((v) => el("option", { value: String(v) }, label(v))));
}

/**
 * Open the dialog with `settings`; `setup` is {levels, rules}; onStart(settings, seed) is
 * called when the player deals.
 */
export function openNewGame(settings, setup, onStart) {
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

  const opts = info.options;
  options($("rules-preset"), Object.keys(info.presets), (name) => presetLabel(name, info));
  options($("rule-schedule"), Object.keys(opts.schedule.named), scheduleLabel);
  options($("rule-lead"), opts.trump_lead.values, (v) => t(`trump_lead.${v}`));
  options($("rule-scoring"), opts.scoring.values, (v) => t(`scoring.${v}`));
  $("rule-renege-label").textContent = t("newgame.renege", { points: info.renege_penalty });
  const applyPreset = (p) => {
    $("rule-schedule").value = p.schedule;
    $("rule-hook").checked = p.hook;
    $("rule-lead").value = p.trumpLead;
    $("rule-scoring").value = p.scoring;
    $("rule-renege").checked = Number(p.renege) > 0;
  };
  $("rules-preset").value = settings.rules;
  applyPreset(settings);
  $("rules-preset").onchange = () => applyPreset(presetSettings($("rules-preset").value, info));
  const seed = $("seed-input");
  seed.value = "";
  seed.maxLength = info.seed_max_length;
  dlg.querySelector('[data-action="start-game"]').onclick = () => {
    const seatBots = Array.from(seatBox.querySelectorAll("select")).map((s) => s.value);
    onStart({
      players: players(),
      bots: all.value,
      perSeat: $("per-seat").checked,
      seatBots: seatBots.length ? seatBots.concat(settings.seatBots.slice(seatBots.length)) : settings.seatBots,
      rules: $("rules-preset").value,
      schedule: $("rule-schedule").value,
      hook: $("rule-hook").checked,
      trumpLead: $("rule-lead").value,
      scoring: $("rule-scoring").value,
      renege: $("rule-renege").checked ? info.renege_penalty : 0,
      multi: $("multi").checked,
      seatKinds: mergeList(settings.seatKinds, Array.from(people.querySelectorAll("[data-seat-kind]")).map((x) => x.value)),
      names: mergeList(settings.names, Array.from(people.querySelectorAll("[data-seat-name]")).map((x) => x.value.trim())),
    }, seed.value.trim());
  };
  openDialog(dlg);
  seg.querySelector("input:checked")?.focus(); // the choice in force, not the first radio
}
