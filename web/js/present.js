// Showing what happened on the table: a card's flight into the trick, the finished trick
// held and collected, bids, the deal.  The controller awaits these as part of its
// transitions; they only draw (through the renderer) and report what the table shows as
// events the controller listens to: "show" {view, table} (a view to show, with the
// table's state) and "table" {table} (the table's state alone).  They read the
// controller's state (`state()`), never write it.

import { TIMING, holdMs, pause, readableMs } from "./timing.js";
import { shownTrickFor } from "./controller.js";
import { slotOf, viewerOf } from "./names.js";

const EMPTY = { leader: 0, cards: [] };

/** renderer: render.js; state(): the controller's state (read only); speed(): factor. */
export function createPresenter({ renderer, state, speed }) {
  const events = new EventTarget();
  let dealing = null; // the deal animation's promise while it runs
  const show = (view, table) => events.dispatchEvent(new CustomEvent("show", { detail: { view, table } }));
  const setTable = (table) => events.dispatchEvent(new CustomEvent("table", { detail: { table } }));

  function seatOrigin(layout, view, seat) {
    const s = layout.seats[slotOf(view, seat)];
    const w = layout.trickW;
    const h = layout.trickH;
    return { x: s.x - w / 2, y: s.y - h / 2, w: w * 0.7, h: h * 0.7, rot: 0 };
  }

  /** `seat` played `card`: it flies into the trick (before: the view before the card). */
  async function card(seat, c, before, view, fromRect, signal) {
    const f = speed();
    const completed = view.trick.cards.length === 0 && view.last_trick && view.last_trick.cards.includes(c);
    if (f > 0 && !signal?.aborted) {
      const shown = before && before.trick && before.trick.cards.length && !before.trick.cards.includes(c) ? before.trick : { leader: seat, cards: [] };
      show(view, { shownTrick: shown });
      const layout = renderer.relayout();
      const p = layout.trickPos[slotOf(view, seat)];
      const from = fromRect || seatOrigin(layout, view, seat);
      await renderer.fly(c, from, { x: p.x, y: p.y, w: layout.trickW, h: layout.trickH, rot: p.rot }, TIMING.fly * f);
    }
    show(view, { shownTrick: completed ? view.last_trick : view.trick });
  }

  /** The finished trick stays a moment (its winner said in words; longer the more cards
   *  it holds), then its cards go to the winner.  Without motion it stays, still, a
   *  readable while: the next card played replaces it (or the player moves on first). */
  async function collect(view, signal) {
    const f = speed();
    const last = view.last_trick;
    if (!last) return;
    await pause(f > 0 ? holdMs(last.cards.length, f) : readableMs(last.cards.length), signal);
    if (signal?.aborted || !(f > 0)) return;
    const layout = renderer.relayout();
    const to = seatOrigin(layout, view, last.winner);
    setTable({ shownTrick: { leader: last.leader, cards: [] } });
    await Promise.all(last.cards.map((c, i) => {
      const s = (last.leader + i) % view.players;
      const p = layout.trickPos[slotOf(view, s)];
      return renderer.fly(c, { x: p.x, y: p.y, w: layout.trickW, h: layout.trickH, rot: p.rot }, { ...to, w: to.w * 0.6, h: to.h * 0.6 }, TIMING.collect * f, true);
    }));
    if (state().view === view) setTable({ shownTrick: view.trick.cards.length ? view.trick : EMPTY });
  }

  function bid(seat, value, view) {
    show(view, { shownTrick: shownTrickFor(view) });
  }

  /** User Timing marks for the benches (bench/firstvisit.py, bench/startup.py), once per
   *  page: "jabberwocky:table" when the first deal's table is drawn (its cards then fly
   *  out), "jabberwocky:dealt" when they have landed. */
  const marked = new Set();
  function markOnce(name) {
    if (marked.has(name)) return;
    marked.add(name);
    try {
      performance.mark(name);
    } catch {
      // no User Timing: nothing to mark
    }
  }
  const markDealt = () => markOnce("jabberwocky:dealt");

  /** A new round: the table is drawn at once; the cards then fly out of the stock, and
   *  the controller waits for them to land (`dealing`) before anyone may act. */
  function deal(view) {
    const f = speed();
    show(view, { shownTrick: EMPTY, dealtCounts: null });
    markOnce("jabberwocky:table");
    if (!(f > 0)) {
      dealing = null;
      markDealt();
      return;
    }
    const counts = new Array(view.players).fill(0);
    setTable({ dealtCounts: counts });
    const layout = renderer.relayout();
    const t = layout.trump;
    const from = { x: t.x, y: t.y, w: t.w, h: t.h, rot: 0 };
    const flights = [];
    let k = 0;
    for (let i = 0; i < view.hand_size; i++) {
      for (let j = 1; j <= view.players; j++) {
        const seat = (view.dealer + j) % view.players;
        const dest = seat === viewerOf(view) && layout.hand[i]
          ? { x: layout.hand[i].x, y: layout.hand[i].y, w: layout.cardW, h: layout.cardH, rot: 0 }
          : { ...seatOrigin(layout, view, seat), w: layout.backW, h: layout.backW * 1.4 };
        flights.push(renderer.fly(null, from, dest, TIMING.dealFly * f, false, k * TIMING.dealEach * f).then(() => {
          counts[seat] += 1;
          renderer.request();
        }));
        k += 1;
      }
    }
    const done = Promise.all(flights).then(() => {
      if (state().table.dealtCounts === counts) setTable({ dealtCounts: null });
      if (dealing === done) dealing = null;
      markDealt();
    });
    dealing = done;
  }

  /** Land every flight at once and forget the deal (a new game is starting). */
  function cancel() {
    renderer.finishFlights();
    dealing = null;
    setTable({ dealtCounts: null });
  }

  return {
    card, collect, bid, deal, cancel,
    addEventListener: (...args) => events.addEventListener(...args),
    removeEventListener: (...args) => events.removeEventListener(...args),
    redraw: () => renderer.request(),
    get dealing() {
      return dealing;
    },
  };
}
