// How to play: the rules in the player's language, with a trick drawn as an example.
// The catalogue holds the page as blocks: ["h3", text], ["p", text], ["ol"|"ul", [texts]],
// ["example"] (the drawn trick and its caption); **bold** and *emphasis* inside texts.

import { el, $, openDialog } from "../dom/util.js";
import { t, entry, has } from "../i18n.js";
import { drawCard } from "../render.js";
import { scheduleLabel, rulesDetails } from "./new-game.js";
import { scheduleName } from "../settings.js";

/** Text with **bold** and *emphasis* as DOM nodes (never HTML). */
export function richText(parent, text) {
  const parts = String(text).split(/(\*\*[^*]+\*\*|\*[^*]+\*)/);
  for (const part of parts) {
    if (/^\*\*[^*]+\*\*$/.test(part)) parent.append(el("strong", {}, part.slice(2, -2)));
    else if (/^\*[^*]+\*$/.test(part)) parent.append(el("em", {}, part.slice(1, -1)));
    else if (part) parent.append(document.createTextNode(part));
  }
  return parent;
}

/** The blocks of a catalogue entry as DOM nodes, into `root`. */
export function renderBlocks(root, blocks, renderExample = null) {
  root.replaceChildren();
  for (const block of Array.isArray(blocks) ? blocks : []) {
    const [kind, body] = block;
    if (kind === "ol" || kind === "ul") {
      const list = el(kind);
      for (const item of body || []) list.append(richText(el("li"), item));
      root.append(list);
    } else if (kind === "example") {
      if (renderExample) root.append(...renderExample());
    } else if (kind === "h3" || kind === "p") {
      root.append(richText(el(kind), body));
    }
  }
}

function example() {
  const canvas = el("canvas", { id: "help-canvas", width: "560", height: "170", "aria-describedby": "help-example" });
  const caption = el("p", { id: "help-example" });
  richText(caption, t("help.example_caption"));
  requestAnimationFrame(() => drawExample(canvas));
  return [canvas, caption];
}

/** The help's blocks with the rules in play filled in: "{deal}" (how many cards each
 *  round, how many rounds) and "{in_play}" (the game on the table, every rule in a few
 *  words).  Without a game the default rules. */
export function helpBlocks(view, info) {
  const rules = view?.rules ?? info?.presets?.[info.default];
  const schedule = rules?.schedule ?? [];
  const standard = !info || sameList(schedule, info.presets[info.default].schedule);
  const deal = standard ? t("help.deal_default") : t("help.deal", { schedule: scheduleLabel(scheduleName(schedule, info)), rounds: schedule.length });
  const inPlay = info && rules ? t("help.in_play", { players: view?.players ?? info.players.default, rounds: schedule.length, details: rulesDetails(rules, info) }) : "";
  const words = { deal, in_play: inPlay, ...ruleWords(rules) };
  const fill = (text) => (typeof text === "string" ? text.replace(/\{(deal|in_play|hook|follow|lead|score)\}/g, (_, name) => words[name]) : text);
  return (entry("help.body") || []).filter(([kind, body]) => !(kind === "p" && body === "{in_play}" && !inPlay))
    .map(([kind, body, ...rest]) => [kind, Array.isArray(body) ? body.map(fill) : fill(body), ...rest]);
}

/** The steps' sentences that change with the rules in play ("{hook}", "{follow}",
 *  "{lead}", "{score}"): the help says the rule of the game on the table, not the
 *  default's.  A value with no words of its own (none today) reads as the default. */
function ruleWords(rules) {
  const pick = (key, fallback, params = {}) => t(has(key) ? key : fallback, params);
  return {
    hook: t(rules?.hook === false ? "help.rule.hook.off" : "help.rule.hook.on"),
    follow: rules?.renege_penalty ? t("help.rule.follow.honour", { points: rules.renege_penalty }) : t("help.rule.follow.must"),
    lead: pick(`help.rule.lead.${rules?.trump_lead}`, "help.rule.lead.after-broken"),
    score: pick(`help.rule.score.${rules?.scoring}`, "help.rule.score.exact-1"),
  };
}

export function openHelp(view = null, info = null) {
  renderBlocks($("help-body"), helpBlocks(view, info), example);
  openDialog($("dlg-help"));
}

function sameList(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
}

function drawExample(canvas) {
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  const cssW = Math.min(560, canvas.parentElement?.clientWidth || 560);
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
  const plays = [["KS", "help.west"], ["AS", "help.north"], ["2H", "help.east_trump"], ["7S", "help.south"]];
  drawCard(ctx, "9H", cssW * 0.03, y, w, h, {});
  ctx.fillStyle = "#f6e7b0";
  ctx.font = `600 ${Math.max(10, w * 0.17)}px sans-serif`;
  ctx.textAlign = "center";
  ctx.fillText(t("table.trump"), cssW * 0.03 + w / 2, y + h + 16);
  plays.forEach(([card, who], i) => {
    const x = cssW * 0.25 + i * w * 1.35;
    drawCard(ctx, card, x, y, w, h, { glow: card === "2H" ? "#ffd65a" : null });
    ctx.fillStyle = "#fff";
    ctx.fillText(t(who), x + w / 2, y + h + 16);
  });
}
