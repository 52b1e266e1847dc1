// Keyboard, mouse and touch -> meaningful events ("bid 2", "play QH", "hint", ...).
// The hand and bid controls are real buttons (a11y.js); this adds the shortcuts.

export function createInput({ getView, emit }) {
  function handButtons() {
    return Array.from(document.querySelectorAll("#hand [data-card]"));
  }

  function moveFocus(delta) {
    const buttons = handButtons();
    if (!buttons.length) return;
    const i = buttons.indexOf(document.activeElement);
    let j;
    if (i < 0) {
      const view = getView();
      const legal = new Set((view && view.legal_cards) || []);
      j = Math.max(0, buttons.findIndex((b) => legal.has(b.dataset.card)));
    } else {
      j = (i + delta + buttons.length) % buttons.length;
    }
    buttons[j].focus();
  }

  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.closest("dialog[open]") || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    const view = getView();
    const key = event.key;
    if (/^[0-9]$/.test(key) && view && view.phase === "bidding" && view.your_turn) {
      event.preventDefault();
      emit("bid", Number(key));
    } else if (key === "ArrowLeft" || key === "ArrowRight") {
      if (!target.closest || !target.closest("#hand") || view?.phase === "playing") {
        event.preventDefault();
        moveFocus(key === "ArrowLeft" ? -1 : 1);
      }
    } else if (key === "ArrowUp" || key === "ArrowDown") {
      if (target.closest && target.closest("#hand")) {
        event.preventDefault();
        moveFocus(key === "ArrowUp" ? -1 : 1);
      }
    } else if (key === "h" || key === "H") {
      emit("hint");
    } else if (key === "s" || key === "S") {
      emit("scores");
    } else if (key === "n" || key === "N") {
      emit("new-game");
    } else if (key === "?") {
      emit("help");
    } else if (key === "Enter" && view && view.phase === "round-over" && !target.closest?.("button")) {
      emit("next-round");
    } else if (key === "Escape") {
      emit("escape");
    }
  }

  // Remember how the player is playing: focus is guided (and drawn) for keyboard users only.
  document.addEventListener("keydown", (e) => {
    if (!e.altKey && !e.ctrlKey && !e.metaKey) document.body.dataset.input = "keyboard";
  }, true);
  document.addEventListener("pointerdown", () => { document.body.dataset.input = "pointer"; }, true);
  document.addEventListener("keydown", onKey);
  // Every [data-action] button anywhere sends its action.
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-action]");
    if (!button || button.disabled) return;
    emit(button.dataset.action, button);
  });
}
