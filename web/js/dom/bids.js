// The bid panel: one button per bid (disabled when not allowed, with the engine's reason),
// and the hint's odds of each trick count when the player asked for them.

import { el, $ } from "./util.js";
import { t, msg, percent, number } from "../i18n.js";
import { acceptsInput } from "../controller.js";

export function createBidsView({ onBid }) {
  const panel = $("bid-panel");
  const buttons = $("bid-buttons");
  const reasonBox = $("bid-reason");
  const hintBox = $("bid-hint");
  let key = "";

  function render(state) {
    const view = state.view;
    const show = Boolean(view) && view.phase === "bidding" && acceptsInput(state);
    panel.hidden = !show;
    if (!view) return;
    const k = `${view.round}:${view.hand_size}`;
    if (k !== key) {
      key = k;
      buttons.replaceChildren();
      for (let n = 0; n <= view.hand_size; n++) {
        const b = el("button", { type: "button", className: "bid", dataset: { bid: String(n) } }, number(n));
        b.addEventListener("click", () => onBid(n));
        buttons.append(b);
      }
    }
    const legal = new Set(view.legal_bids || []);
    const reasons = view.bid_reason_codes || {};
    const hint = state.table.hint;
    const shown = [];
    buttons.querySelectorAll("[data-bid]").forEach((b) => {
      const n = Number(b.dataset.bid);
      const reason = reasons[String(n)];
      b.disabled = !(show && legal.has(n));
      b.classList.toggle("forbidden", Boolean(reason));
      b.classList.toggle("suggested", Boolean(hint) && hint.kind === "bid" && hint.suggestion === n);
      b.setAttribute("aria-label", reason ? t("bids.not_allowed", { n, reason }) : t("bids.bid", { n }));
      if (reason) shown.push(msg(reason));
    });
    reasonBox.textContent = shown.length ? t("bids.reasons", { reasons: shown }) : "";
    renderHint(hint);
  }

  function renderHint(hint) {
    if (!hint || hint.kind !== "bid") {
      hintBox.hidden = true;
      return;
    }
    hintBox.hidden = false;
    hintBox.replaceChildren();
    if (!hint.probabilities || !hint.probabilities.length) {
      hintBox.append(el("p", {}, t("hint.bid_plain", { bid: hint.suggestion, level: t(`level.${hint.level}`) })));
      return;
    }
    hintBox.append(el("p", {}, t("hint.bid_odds_title", { bid: hint.suggestion })));
    const list = el("ol", { className: "odds", start: "0" });
    hint.probabilities.forEach((p, n) => {
      const li = el("li", { className: n === hint.suggestion ? "suggested" : "", "aria-label": t("hint.odds_item", { n, chance: percent(p) }) });
      const bar = el("span", { className: "bar" });
      const fill = el("span", { className: "fill" });
      fill.style.width = `${Math.round(p * 100)}%`;
      bar.append(fill);
      li.append(el("span", {}, number(n)), bar, el("span", {}, percent(p)));
      list.append(li);
    });
    hintBox.append(list);
  }

  return { render };
}
