// First-game tips: one for your first bid and one for your first card, until dismissed.

import { $ } from "./util.js";
import { t } from "../i18n.js";

export function createTips({ done, onDone }) {
  const box = $("tips");
  const seen = new Set();
  const coarse = () => window.matchMedia?.("(pointer: coarse)").matches;

  function show(phase) {
    if (done() || seen.has(phase) || (phase !== "bidding" && phase !== "playing")) return;
    seen.add(phase);
    const device = coarse() ? "touch" : "pointer";
    $("tips-text").textContent = t(`tips.${phase}.${device}`);
    box.hidden = false;
    box.querySelector("button").onclick = () => {
      box.hidden = true;
      onDone(seen.size >= 2);
    };
  }

  const hide = () => {
    box.hidden = true;
  };

  return { show, hide };
}
