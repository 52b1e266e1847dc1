// Keyboard, mouse and touch -> meaningful actions ("bid 2", "hint", "next round", …).
// The hand and bid controls are real buttons (dom/hand.js, dom/bids.js); this adds the
// shortcut keys, arrow keys along the hand, and sends every [data-action] click.

/** getState(): the controller's state; onBid(n); dispatch(action, element); onInput(mode):
 *  the player used the keyboard or a pointer (the controller keeps it). */
export function createInput({ getState, onBid, dispatch, onInput }) {
  const handButtons = () => Array.from(document.querySelectorAll("#hand [data-card]"));

  function moveFocus(delta) {
    const buttons = handButtons();
    if (!buttons.length) return;
    const i = buttons.indexOf(document.activeElement);
    let j;
    if (i < 0) {
      const legal = new Set(getState().view?.legal_cards || []);
      j = Math.max(0, buttons.findIndex((b) => legal.has(b.dataset.card)));
    } else {
      j = (i + delta + buttons.length) % buttons.length;
    }
    buttons[j].focus();
  }

  /** Arrow keys along the bid buttons from `from` (one of them): the next one that can be
   *  chosen, round the end (a bid the rules forbid is disabled and skipped). */
  function moveAlongBids(from, delta) {
    const buttons = Array.from(document.querySelectorAll("#bid-buttons [data-bid]")).filter((b) => !b.disabled);
    if (!buttons.length) return;
    const i = buttons.indexOf(from);
    const j = i < 0 ? 0 : (i + delta + buttons.length) % buttons.length;
    buttons[j].focus();
  }

  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.closest("dialog[open]") || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    const view = getState().view;
    const key = event.key;
    const inHand = Boolean(target.closest && target.closest("#hand"));
    const bidButton = target.closest ? target.closest("#bid-buttons [data-bid]") : null;
    if (/^[0-9]$/.test(key) && view && view.phase === "bidding" && view.your_turn) {
      event.preventDefault();
      onBid(Number(key));
    } else if (bidButton && /^Arrow(Left|Right|Up|Down)$/.test(key)) {
      // on a bid button the arrows go along the bids (not into the hand)
      event.preventDefault();
      moveAlongBids(bidButton, key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1);
    } else if (key === "ArrowLeft" || key === "ArrowRight") {
      if (!inHand || view?.phase === "playing") {
        event.preventDefault();
        moveFocus(key === "ArrowLeft" ? -1 : 1);
      }
    } else if ((key === "ArrowUp" || key === "ArrowDown") && inHand) {
      event.preventDefault();
      moveFocus(key === "ArrowUp" ? -1 : 1);
    } else if (key === "u" || key === "U") {
      dispatch("take-back");
    } else if (key === "h" || key === "H") {
      dispatch("hint");
    } else if (key === "t" || key === "T" || key === "l" || key === "L") {
      dispatch("tricks");
    } else if (key === "s" || key === "S") {
      dispatch("scores");
    } else if (key === "n" || key === "N") {
      dispatch("new-game");
    } else if (key === "?") {
      dispatch("help");
    } else if (key === "Enter" && view && view.phase === "round-over" && !target.closest?.("button")) {
      dispatch("next-round");
    } else if (key === "Escape") {
      dispatch("escape");
    }
  }

  // How the player is playing: focus is guided (and drawn) for keyboard users only.
  document.addEventListener("keydown", (e) => {
    if (!e.altKey && !e.ctrlKey && !e.metaKey) onInput("keyboard");
  }, true);
  document.addEventListener("pointerdown", () => onInput("pointer"), true);
  document.addEventListener("keydown", onKey);
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-action]");
    if (!button || button.disabled) return;
    dispatch(button.dataset.action, button);
  });
}
