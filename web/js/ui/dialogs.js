// Dialogs and panels: new game settings, score sheet, round summary, share, help, toast, tips.
// All user-controlled text goes in with textContent.

import { drawCard } from "../render.js";
import { presetSettings } from "../state.js";
import { seedInWords } from "../fragment.js";
import { cardShort, isRed } from "../cards.js";

const $ = (id) => document.getElementById(id);

function el(tag, props = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "className") node.className = v;
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

function openDialog(dialog) {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

// ---------------------------------------------------------------- toast

let toastTimer = 0;
let toastKind = "";
/** A message over the table for `ms` milliseconds.  kind "move": about a move you tried;
 *  cleared by your next action, a finished trick or a new round (clearMoveToast). */
export function toast(message, ms = 4200, kind = "") {
  const t = $("toast");
  t.textContent = message;
  t.hidden = false;
  toastKind = kind;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, ms);
}

export function hideToast() {
  clearTimeout(toastTimer);
  $("toast").hidden = true;
}

export function clearMoveToast() {
  if (toastKind === "move") hideToast();
}

// ---------------------------------------------------------------- score sheet

export function fillScoreSheet(table, view) {
  table.replaceChildren();
  const head = el("thead");
  const hr = el("tr");
  hr.append(el("th", { scope: "col", "aria-label": "Round" }, "#"), el("th", { scope: "col" }, "Trump"));
  view.names.forEach((n) => hr.append(el("th", { scope: "col" }, n)));
  head.append(hr);
  const body = el("tbody");
  for (const row of view.history) {
    const tr = el("tr");
    tr.append(roundCell(row.round, row.hand_size), trumpCell(row.trump_card));
    for (let s = 0; s < view.players; s++) {
      const exact = row.bids[s] === row.taken[s];
      const td = el("td", { className: exact ? "exact" : "" });
      td.append(el("span", { className: "bm" }, `${row.bids[s]} / ${row.taken[s]}`), el("span", { className: "tot" }, String(row.totals[s])));
      td.setAttribute("aria-label", `${view.names[s]}: bid ${row.bids[s]}, made ${row.taken[s]}, total ${row.totals[s]}`);
      tr.append(td);
    }
    body.append(tr);
  }
  if (view.phase === "bidding" || view.phase === "playing") {
    const tr = el("tr", { className: "current" });
    tr.append(roundCell(view.round, view.hand_size), trumpCell(view.trump_card));
    for (let s = 0; s < view.players; s++) {
      const b = view.bids[s] === null ? "–" : view.bids[s];
      tr.append(el("td", {}, `${b} / ${view.taken[s]}…`));
    }
    body.append(tr);
  }
  const foot = el("tfoot");
  const fr = el("tr");
  fr.append(el("th", { scope: "row", colspan: "2" }, "Total"));
  view.scores.forEach((p) => fr.append(el("td", {}, String(p))));
  foot.append(fr);
  table.append(head, body, foot);
}

function roundCell(round, cards) {
  const th = el("th", { scope: "row" }, String(round));
  th.append(el("span", { className: "bm" }, `${cards} cards`));
  return th;
}

function trumpCell(card) {
  const td = el("td", { className: isRed(card) ? "trump red" : "trump" }, cardShort(card));
  td.setAttribute("aria-label", `trump ${card}`);
  return td;
}

export function showScores(view) {
  if (!view) return;
  fillScoreSheet($("score-sheet"), view);
  openDialog($("dlg-scores"));
}

// ---------------------------------------------------------------- round summary

export function renderRoundPanel(view) {
  const panel = $("round-panel");
  const show = !!view && (view.phase === "round-over" || view.phase === "game-over");
  panel.hidden = !show;
  if (!show) return;
  const over = view.phase === "game-over";
  const res = view.round_result || (view.history.length ? view.history[view.history.length - 1] : null);
  $("round-title").textContent = over ? "Game over" : `Round ${view.round} of ${view.rounds} done`;
  const table = $("round-table");
  table.replaceChildren();
  const hr = el("tr");
  ["", "Bid", "Made", "Points", "Total"].forEach((h) => hr.append(el("th", { scope: "col" }, h)));
  const head = el("thead");
  head.append(hr);
  const body = el("tbody");
  for (let s = 0; s < view.players; s++) {
    const cls = [];
    if (res && res.bids[s] === res.taken[s]) cls.push("exact");
    if (over && (view.winners || []).includes(s)) cls.push("winner");
    const tr = el("tr", { className: cls.join(" ") });
    tr.append(el("th", { scope: "row" }, view.names[s]));
    if (res) {
      const pts = res.points[s];
      tr.append(el("td", {}, String(res.bids[s])), el("td", {}, String(res.taken[s])), el("td", {}, pts > 0 ? `+${pts}` : String(pts)));
    } else {
      tr.append(el("td"), el("td"), el("td"));
    }
    tr.append(el("td", { className: "tot" }, String(view.scores[s])));
    body.append(tr);
  }
  table.append(head, body);
  const winners = $("round-winners");
  if (over) {
    const names = (view.winners || []).map((s) => view.names[s]);
    const youWon = (view.winners || []).includes(0);
    let line;
    if (names.length === 1) line = youWon ? "You win!" : `${names[0]} wins.`;
    else line = `Shared win: ${names.join(" and ")}${youWon ? " — including you!" : "."}`;
    winners.textContent = line;
  } else {
    winners.textContent = res && res.bids[0] === res.taken[0] ? "You made your bid." : "";
  }
  panel.querySelector('[data-action="next-round"]').hidden = over;
  panel.querySelector('[data-action="play-again"]').hidden = !over;
  panel.querySelector('[data-action="replay"]').hidden = !over;
  panel.classList.toggle("final", over);
}

// ---------------------------------------------------------------- new game dialog

export function openNewGame(settings, levels, onStart) {
  const dlg = $("dlg-new");
  const form = dlg.querySelector("form");
  form.querySelectorAll('input[name="players"]').forEach((r) => { r.checked = Number(r.value) === settings.players; });
  const all = $("bots-all");
  all.replaceChildren(...levels.map((l) => el("option", { value: l }, cap(l))));
  all.value = levels.includes(settings.bots) ? settings.bots : levels[0];
  $("per-seat").checked = settings.perSeat;
  const seatBox = $("seat-levels");
  const drawSeats = () => {
    const n = Number(form.querySelector('input[name="players"]:checked').value);
    seatBox.replaceChildren();
    for (let s = 1; s < n; s++) {
      const sel = el("select", { "data-seat": String(s), "aria-label": `Level of bot ${s}` });
      sel.append(...levels.map((l) => el("option", { value: l }, cap(l))));
      sel.value = levels.includes(settings.seatBots[s - 1]) ? settings.seatBots[s - 1] : all.value;
      const label = el("label", { className: "row" }, `Bot ${s} `);
      label.append(sel);
      seatBox.append(label);
    }
    seatBox.hidden = !$("per-seat").checked;
  };
  form.querySelectorAll('input[name="players"]').forEach((r) => { r.onchange = drawSeats; });
  $("per-seat").onchange = drawSeats;
  drawSeats();
  const applyPreset = (p) => {
    $("rule-schedule").value = p.schedule;
    $("rule-hook").checked = p.hook;
    $("rule-lead").value = p.trumpLead;
    $("rule-scoring").value = p.scoring;
    $("rule-renege").checked = Number(p.renege) > 0;
  };
  $("rules-preset").value = settings.rules;
  applyPreset(settings);
  $("rules-preset").onchange = () => applyPreset(presetSettings($("rules-preset").value));
  $("seed-input").value = "";
  const start = dlg.querySelector('[data-action="start-game"]');
  start.onclick = () => {
    const players = Number(form.querySelector('input[name="players"]:checked').value);
    const seatBots = Array.from(seatBox.querySelectorAll("select")).map((s) => s.value);
    onStart({
      players,
      bots: all.value,
      perSeat: $("per-seat").checked,
      seatBots: seatBots.length ? seatBots.concat(settings.seatBots.slice(seatBots.length)) : settings.seatBots,
      rules: $("rules-preset").value,
      schedule: $("rule-schedule").value,
      hook: $("rule-hook").checked,
      trumpLead: $("rule-lead").value,
      scoring: $("rule-scoring").value,
      renege: $("rule-renege").checked ? 3 : 0,
    }, $("seed-input").value.trim());
  };
  openDialog(dlg);
}

function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

// ---------------------------------------------------------------- share

export function openShare(link, seed) {
  $("share-seed").textContent = seedInWords(seed);
  $("share-link").value = link;
  $("share-status").textContent = "";
  openDialog($("dlg-share"));
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const input = $("share-link");
    input.focus();
    input.select();
    return false;
  }
}

// ---------------------------------------------------------------- help

export function openHelp() {
  openDialog($("dlg-help"));
  drawHelpExample($("help-canvas"));
}

function drawHelpExample(canvas) {
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  const cssW = Math.min(560, canvas.parentElement.clientWidth || 560);
  const cssH = Math.round(cssW * 0.32);
  canvas.style.width = `${cssW}px`;
  canvas.style.height = `${cssH}px`;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = "#1d5c3d";
  ctx.fillRect(0, 0, cssW, cssH);
  const w = cssW * 0.13;
  const h = w * 1.4;
  const y = (cssH - h) / 2 - 6;
  const plays = [["KS", "West"], ["AS", "North"], ["2H", "East (trump!)"], ["7S", "South"]];
  drawCard(ctx, "9H", cssW * 0.03, y, w, h, {});
  ctx.fillStyle = "#f6e7b0";
  ctx.font = `600 ${Math.max(10, w * 0.17)}px sans-serif`;
  ctx.textAlign = "center";
  ctx.fillText("trump", cssW * 0.03 + w / 2, y + h + 16);
  plays.forEach(([card, who], i) => {
    const x = cssW * 0.25 + i * w * 1.35;
    drawCard(ctx, card, x, y, w, h, { glow: card === "2H" ? "#ffd65a" : null });
    ctx.fillStyle = "#fff";
    ctx.fillText(who, x + w / 2, y + h + 16);
  });
}

// ---------------------------------------------------------------- first-game tips

const TIPS = {
  bidding: "Your turn to bid: count the tricks you expect to win. Tap Hint for the odds of each number.",
  playing: "Cards you may play now stand raised. Tap a dimmed one to hear why it is not allowed.",
};

export function showTip(phase, seen, onDone) {
  const box = $("tips");
  if (seen.has(phase) || !TIPS[phase]) return;
  seen.add(phase);
  $("tips-text").textContent = TIPS[phase];
  box.hidden = false;
  box.querySelector("button").onclick = () => { box.hidden = true; onDone(); };
}

export function hideTips() {
  $("tips").hidden = true;
}
