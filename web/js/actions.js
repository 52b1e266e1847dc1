// Toolbar, menu, panel and dialog actions ([data-action] buttons and shortcut keys).

import { store, S, $, call, announce } from "./app.js";
import { humanBid, nextRound, startGame, resumeRecord, settingsGame } from "./flow.js";
import { fragmentOptions, savePrefs } from "./persist.js";
import { watchRecord, stopWatching } from "./watch.js";
import { serializeFragment } from "./fragment.js";
import { cardWords } from "./cards.js";
import * as ui from "./ui/dialogs.js";

let importMode = "continue";

export function onAction(action, button) {
  const view = S().view;
  const menu = $("menu");
  if (action !== "menu" && !menu.hidden && !(button && menu.contains(button) && button.tagName === "SELECT")) closeMenu();
  switch (action) {
    case "bid": humanBid(button); break;
    case "next-round": nextRound(); break;
    case "hint": askHint(); break;
    case "scores": ui.showScores(view); break;
    case "new-game":
      ui.openNewGame(S().settings, S().levels, (settings, seed) => {
        store.set({ settings: { ...S().settings, ...settings } });
        savePrefs({});
        startGame(settingsGame(S().settings, seed));
      });
      break;
    case "play-again": if (view) startGame({ players: view.players, bots: fragmentOptions(view).bots, rules: view.rules }); break;
    case "replay": if (view) startGame({ seed: view.seed, players: view.players, bots: fragmentOptions(view).bots, rules: view.rules }); break;
    case "share": share(); break;
    case "copy-link": ui.copyText($("share-link").value).then((ok) => { $("share-status").textContent = ok ? "Link copied." : "Select the link and copy it."; }); break;
    case "export-record": exportRecord(); break;
    case "import-record": importMode = "continue"; $("import-file").click(); break;
    case "watch-record": importMode = "watch"; $("import-file").click(); break;
    case "stop-watch": stopWatching(); break;
    case "help": ui.openHelp(); break;
    case "menu": toggleMenu(); break;
    case "dismiss-tips": break;
    case "escape": closeMenu(); ui.hideTips(); break;
    default: break;
  }
}

function toggleMenu() {
  const menu = $("menu");
  menu.hidden = !menu.hidden;
  document.querySelector('[data-action="menu"]').setAttribute("aria-expanded", String(!menu.hidden));
  if (!menu.hidden) menu.querySelector("button").focus();
}

export function closeMenu() {
  $("menu").hidden = true;
  document.querySelector('[data-action="menu"]').setAttribute("aria-expanded", "false");
}

async function askHint() {
  const view = S().view;
  if (!view || !view.your_turn || S().busy) {
    ui.toast("Hints are for your turn.", 4200, "move");
    return;
  }
  ui.toast("Thinking…", 1500, "move");
  const { result, error } = await call("hint");
  if (error) {
    ui.toast(`No hint: ${error.message}`, 4200, "move");
    return;
  }
  store.set({ ui: { hint: result } });
  if (result.kind === "card") {
    const msg = `Suggested card: the ${cardWords(result.suggestion)}.`;
    ui.toast(msg, 4200, "move");
    announce(msg);
    const b = document.querySelector(`#hand [data-card="${result.suggestion}"]`);
    if (b) b.focus();
  } else {
    announce(`Suggested bid: ${result.suggestion}. ` + result.probabilities.map((p, n) => `${n}: ${Math.round(p * 100)}%`).join(", "));
  }
}

async function share() {
  const view = S().view;
  if (!view) return;
  const link = location.href.split("#")[0] + serializeFragment(fragmentOptions(view));
  if (navigator.share && window.matchMedia("(pointer: coarse)").matches) {
    try {
      await navigator.share({ title: "Jabberwocky", text: `Play my Jabberwocky deal: ${view.seed}`, url: link });
      return;
    } catch { /* fall back to the dialog */ }
  }
  ui.openShare(link, view.seed);
}

async function exportRecord() {
  if (!S().view) return;
  const { result, error } = await call("export_record");
  if (error) {
    ui.toast(`Could not export: ${error.message}`);
    return;
  }
  const blob = new Blob([result.record], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = result.filename || "jabberwocky-game.json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
  ui.toast(`Saved ${a.download}.`);
}

export async function importFile(file) {
  if (!file) return;
  if (file.size > 1_000_000) {
    ui.toast("That file is too large to be a game record (over 1 MB).");
    return;
  }
  const text = await file.text();
  if (importMode === "watch") await watchRecord(text);
  else await resumeRecord(text, "import");
}
