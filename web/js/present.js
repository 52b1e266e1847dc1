// Showing what happened: card flights, the trick held and collected, the deal, announcements.

import { app, store, S, sleep, setView, shownTrickFor, announce } from "./app.js";
import { speedFactor, TIMING } from "./state.js";
import { cardWords } from "./cards.js";
import { turnText } from "./a11y.js";
import * as ui from "./ui/dialogs.js";

function seatOrigin(layout, seat) {
  const s = layout.seats[seat];
  const w = layout.trickW;
  const h = layout.trickH;
  return { x: s.x - w / 2, y: s.y - h / 2, w: w * 0.7, h: h * 0.7, rot: 0 };
}

export async function presentCard(seat, card, newView, fromRect) {
  const f = speedFactor(S());
  const old = S().view;
  const completed = newView.trick.cards.length === 0 && newView.last_trick && newView.last_trick.cards.includes(card);
  if (f > 0) {
    const before = old && old.trick && old.trick.cards.length && !old.trick.cards.includes(card) ? old.trick : { leader: seat, cards: [] };
    setView(newView, { shownTrick: before });
    const layout = app.renderer.relayout();
    const p = layout.trickPos[seat];
    const from = fromRect || seatOrigin(layout, seat);
    await app.renderer.fly(card, from, { x: p.x, y: p.y, w: layout.trickW, h: layout.trickH, rot: p.rot }, TIMING.fly * f);
  }
  announce(`${newView.names[seat]} ${seat === 0 ? "play" : "plays"} the ${cardWords(card)}.`);
  if (!completed) {
    store.set({ view: newView, ui: { hint: null, shownTrick: newView.trick } });
    return;
  }
  const last = newView.last_trick;
  ui.clearMoveToast();
  store.set({ view: newView, ui: { hint: null, shownTrick: last } });
  announce(`${newView.names[last.winner]} ${last.winner === 0 ? "win" : "wins"} the trick.`);
  if (f > 0) {
    await sleep(TIMING.hold * f);
    const layout = app.renderer.relayout();
    const to = seatOrigin(layout, last.winner);
    store.set({ ui: { shownTrick: { leader: last.leader, cards: [] } } });
    await Promise.all(last.cards.map((c, i) => {
      const s = (last.leader + i) % newView.players;
      const p = layout.trickPos[s];
      return app.renderer.fly(c, { x: p.x, y: p.y, w: layout.trickW, h: layout.trickH, rot: p.rot }, { ...to, w: to.w * 0.6, h: to.h * 0.6 }, TIMING.collect * f, true);
    }));
    store.set({ ui: { shownTrick: newView.trick.cards.length ? newView.trick : { leader: 0, cards: [] } } });
  }
  if (newView.phase === "round-over" || newView.phase === "game-over") announceRound(newView);
}

export function presentBid(seat, bid, newView) {
  setView(newView, { shownTrick: shownTrickFor(newView) });
  announce(`${newView.names[seat]} ${seat === 0 ? "bid" : "bids"} ${bid}.`);
  if (newView.phase === "playing") announce(`Bidding is over. ${turnText(newView)}.`);
}

function announceRound(view) {
  const r = view.round_result;
  if (!r) return;
  const mine = r.bids[0] === r.taken[0] ? `You made your bid of ${r.bids[0]}` : `You bid ${r.bids[0]} and took ${r.taken[0]}`;
  announce(`Round ${view.round} over. ${mine}. Scores: ${view.names.map((n, s) => `${n} ${view.scores[s]}`).join(", ")}.`);
  if (view.phase === "game-over") {
    const w = (view.winners || []).map((s) => view.names[s]).join(" and ");
    announce(`Game over. Winner${view.winners.length > 1 ? "s" : ""}: ${w}.`);
  }
}

/** Show a new round: the table is drawn (and usable) at once; the deal animation runs
 *  afterwards and its promise is kept in app.dealing (the bot loop waits for it). */
export async function presentDeal(view) {
  const f = speedFactor(S());
  ui.clearMoveToast(); // a message about an earlier move does not belong to a new round
  setView(view, { shownTrick: { leader: 0, cards: [] }, dealtCounts: null });
  announce(`Round ${view.round} of ${view.rounds}: ${view.hand_size} cards each. Trump is ${cardWords(view.trump_card)}. ${view.names[view.dealer]} dealt.`);
  if (f <= 0) {
    app.dealing = null;
    return;
  }
  const counts = new Array(view.players).fill(0);
  store.set({ ui: { dealtCounts: counts } });
  const layout = app.renderer.relayout();
  const t = layout.trump;
  const from = { x: t.x, y: t.y, w: t.w, h: t.h, rot: 0 };
  const flights = [];
  let k = 0;
  for (let i = 0; i < view.hand_size; i++) {
    for (let j = 1; j <= view.players; j++) {
      const seat = (view.dealer + j) % view.players;
      const dest = seat === 0 && layout.hand[i]
        ? { x: layout.hand[i].x, y: layout.hand[i].y, w: layout.cardW, h: layout.cardH, rot: 0 }
        : { ...seatOrigin(layout, seat), w: layout.backW, h: layout.backW * 1.4 };
      flights.push(app.renderer.fly(null, from, dest, TIMING.dealFly * f, false, k * TIMING.dealEach * f).then(() => {
        counts[seat] += 1;
        app.renderer.request();
      }));
      k += 1;
    }
  }
  const done = Promise.all(flights).then(() => {
    if (S().ui.dealtCounts === counts) store.set({ ui: { dealtCounts: null } });
    if (app.dealing === done) app.dealing = null;
  });
  app.dealing = done;
}
