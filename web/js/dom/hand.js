// The hand as real buttons over the drawn cards: focusable, labelled, one Tab stop (the
// card last focused, else the first playable one); arrow keys move along it (input.js).

import { el } from "./util.js";
import { cardWords } from "../cards.js";
import { t, msg } from "../i18n.js";
import { acceptsInput } from "../controller.js";

export function createHandView({ root, onCard, onFocusCard, onHoverCard }) {
  let handKey = "";
  let roving = null; // the card that holds the hand's Tab stop

  function rebuild(view) {
    const focused = document.activeElement?.dataset?.card ?? null;
    root.replaceChildren();
    if (!view) return;
    for (const card of view.hand) {
      const b = el("button", { type: "button", className: "card-hit", dataset: { card } });
      b.addEventListener("click", () => onCard(card, b));
      b.addEventListener("focus", () => {
        rove(b);
        onFocusCard(card);
      });
      b.addEventListener("blur", () => onFocusCard(null));
      b.addEventListener("pointerenter", () => onHoverCard(card));
      b.addEventListener("pointerleave", () => onHoverCard(null));
      root.append(b);
    }
    if (focused) {
      const again = root.querySelector(`[data-card="${focused}"]`) || root.querySelector("[data-card]");
      if (again) again.focus({ preventScroll: true });
    }
  }

  function rove(button) {
    roving = button.dataset.card;
    for (const b of root.querySelectorAll("[data-card]")) b.tabIndex = b === button ? 0 : -1;
  }

  function label(view, card, ok) {
    let text = cardWords(card);
    const reasons = view.illegal_reason_codes || {};
    if (ok && (view.renege_cards || []).includes(card)) {
      text = t("hand.card_renege", { card, points: view.rules.renege_penalty });
    } else if (!ok && view.phase === "playing" && reasons[card] && view.your_turn) {
      text = t("hand.card_not_playable", { card, reason: reasons[card] });
    }
    return text;
  }

  /** Draw the buttons for `state` at the card places of `layout`. */
  function render(state, layout) {
    const view = state.view;
    const key = view ? view.hand.join(",") : "";
    if (key !== handKey) {
      handKey = key;
      rebuild(view);
    }
    if (!view) return;
    const playing = view.phase === "playing" && acceptsInput(state);
    const legal = new Set(view.legal_cards || []);
    const reasons = view.illegal_reason_codes || {};
    root.querySelectorAll("[data-card]").forEach((b, i) => {
      const card = b.dataset.card;
      const ok = playing && legal.has(card);
      b.setAttribute("aria-disabled", ok ? "false" : "true");
      b.setAttribute("aria-label", label(view, card, ok));
      b.title = !ok && view.phase === "playing" && reasons[card] ? msg(reasons[card]) : cardWords(card);
      const slot = layout.hand[i];
      if (slot) {
        const lift = ok ? layout.cardH * 0.1 : 0;
        b.style.left = `${slot.x}px`;
        b.style.top = `${slot.y - lift}px`;
        b.style.width = `${slot.hitW}px`;
        b.style.height = `${slot.h + lift}px`;
      }
    });
    const cards = Array.from(root.querySelectorAll("[data-card]"));
    const current = cards.find((b) => b.dataset.card === roving)
      || cards.find((b) => b.getAttribute("aria-disabled") === "false")
      || cards[0];
    if (current) rove(current);
  }

  return { render };
}
