// The accessible DOM over the canvas: hand buttons placed on the drawn cards, bid buttons,
// seat descriptions, the status line and the live region.  User text only via textContent.

import { cardWords, SUIT_SYMBOLS } from "./cards.js";

const $ = (id) => document.getElementById(id);

function el(tag, props = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "className") node.className = v;
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

export function phaseText(view) {
  if (!view) return "Loading…";
  const head = `Round ${view.round}/${view.rounds} · ${view.hand_size} card${view.hand_size === 1 ? "" : "s"} · trump ${SUIT_SYMBOLS[view.trump_suit] || ""}`;
  return `${head} · ${turnText(view)}`;
}

export function turnText(view) {
  if (view.phase === "game-over") return "game over";
  if (view.phase === "round-over") return "round over";
  if (view.your_turn && document.body.classList.contains("watching")) return "replay: your recorded move";
  if (view.your_turn) return view.phase === "bidding" ? "your turn to bid" : "your turn to play";
  if (view.to_act === null || view.to_act === undefined) return "";
  return `${view.names[view.to_act]} to ${view.phase === "bidding" ? "bid" : "play"}`;
}

export function createA11y({ onCard, onBid, onFocusCard, onHoverCard }) {
  const hand = $("hand");
  const bidPanel = $("bid-panel");
  const bidButtons = $("bid-buttons");
  const bidReason = $("bid-reason");
  const live = $("live");
  let handKey = "";
  let bidKey = "";
  let lastLive = 0;
  let roving = null; // the hand's one Tab stop (a card name)

  function renderHand(view, layout) {
    const key = view ? view.hand.join(",") : "";
    if (key !== handKey) {
      handKey = key;
      const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
      hand.replaceChildren();
      if (!view) return;
      for (const card of view.hand) {
        const b = el("button", { type: "button", className: "card-hit", dataset: { card } });
        b.addEventListener("click", () => onCard(card));
        b.addEventListener("focus", () => {
          rove(b);
          onFocusCard(card);
        });
        b.addEventListener("blur", () => onFocusCard(null));
        b.addEventListener("pointerenter", () => onHoverCard(card));
        b.addEventListener("pointerleave", () => onHoverCard(null));
        hand.append(b);
      }
      if (focused) {
        const again = hand.querySelector(`[data-card="${focused}"]`);
        const next = again || hand.querySelector("[data-card]");
        if (next) next.focus({ preventScroll: true });
      }
    }
    if (!view) return;
    const legal = new Set(view.legal_cards || []);
    const reasons = view.illegal_reasons || {};
    const reneges = new Set(view.renege_cards || []);
    const playing = view.phase === "playing" && view.your_turn;
    hand.querySelectorAll("[data-card]").forEach((b, i) => {
      const card = b.dataset.card;
      const ok = playing && legal.has(card);
      b.setAttribute("aria-disabled", ok ? "false" : "true");
      let label = cardWords(card);
      if (!ok && reasons[card]) label += ` — not playable: ${reasons[card]}`;
      else if (!ok && !playing) label += "";
      if (ok && reneges.has(card)) label += " — playable, but a renege (costs 3 points)";
      b.setAttribute("aria-label", label);
      b.title = ok ? cardWords(card) : reasons[card] || cardWords(card);
      const slot = layout.hand[i];
      if (slot) {
        const lift = ok ? layout.cardH * 0.1 : 0;
        b.style.left = `${slot.x}px`;
        b.style.top = `${slot.y - lift}px`;
        b.style.width = `${slot.hitW}px`;
        b.style.height = `${slot.h + lift}px`;
      }
    });
    // One Tab stop for the whole hand (arrow keys move along it): the card last focused,
    // else the first playable one, else the first card.
    const cards = Array.from(hand.querySelectorAll("[data-card]"));
    const current = cards.find((b) => b.dataset.card === roving)
      || cards.find((b) => b.getAttribute("aria-disabled") === "false")
      || cards[0];
    if (current) rove(current);
  }

  function rove(button) {
    roving = button.dataset.card;
    hand.querySelectorAll("[data-card]").forEach((b) => {
      b.tabIndex = b === button ? 0 : -1;
    });
  }

  function renderBids(view, hint) {
    const show = !!view && view.phase === "bidding" && view.your_turn;
    bidPanel.hidden = !show;
    if (!view) return;
    const key = `${view.round}:${view.hand_size}`;
    if (key !== bidKey) {
      bidKey = key;
      bidButtons.replaceChildren();
      for (let n = 0; n <= view.hand_size; n++) {
        const b = el("button", { type: "button", className: "bid", dataset: { bid: String(n) } }, String(n));
        b.addEventListener("click", () => onBid(n));
        bidButtons.append(b);
      }
    }
    const legal = new Set(view.legal_bids || []);
    const reasons = view.bid_reasons || {};
    const shownReasons = [];
    bidButtons.querySelectorAll("[data-bid]").forEach((b) => {
      const n = Number(b.dataset.bid);
      const ok = show && legal.has(n);
      b.disabled = !ok;
      b.classList.toggle("forbidden", !!reasons[String(n)]);
      b.classList.toggle("suggested", !!hint && hint.kind === "bid" && hint.suggestion === n);
      b.setAttribute("aria-label", reasons[String(n)] ? `${n} — not allowed: ${reasons[String(n)]}` : `Bid ${n}`);
      if (reasons[String(n)]) shownReasons.push(reasons[String(n)]);
    });
    bidReason.textContent = shownReasons.length ? capital(shownReasons.join("; ")) + "." : "";
  }

  function renderSeats(view) {
    const seats = $("seats");
    seats.replaceChildren();
    if (!view) return;
    const list = el("ul");
    for (let s = 0; s < view.players; s++) {
      const bid = view.bids[s] === null ? "no bid yet" : `bid ${view.bids[s]}`;
      const parts = [view.names[s], bid, `took ${view.taken[s]}`, `${view.scores[s]} points`, `${view.hand_counts[s]} cards`];
      if (view.dealer === s) parts.push("dealer");
      if (view.to_act === s) parts.push("to act");
      list.append(el("li", {}, parts.join(", ")));
    }
    seats.append(list);
    const trick = view.trick && view.trick.cards.length
      ? "Trick so far: " + view.trick.cards.map((c, i) => `${view.names[(view.trick.leader + i) % view.players]} ${cardWords(c)}`).join(", ")
      : "No cards on the table.";
    $("trick-desc").textContent = `Trump card: ${cardWords(view.trump_card)}. ${trick}`;
  }

  function renderStatus(view, busy) {
    $("status").textContent = phaseText(view);
    document.body.dataset.yourTurn = view && view.your_turn ? "true" : "false";
    document.body.dataset.busy = busy ? "true" : "false";
    if (view) {
      document.body.dataset.step = String(view.step);
      document.body.dataset.round = String(view.round);
    }
  }

  /** Speak a line in the live region (appended, old lines trimmed). */
  function announce(message) {
    const now = Date.now();
    if (now - lastLive > 4000) live.replaceChildren();
    lastLive = now;
    live.append(el("p", {}, message));
    while (live.childElementCount > 6) live.firstChild.remove();
  }

  return { renderHand, renderBids, renderSeats, renderStatus, announce };
}

function capital(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
