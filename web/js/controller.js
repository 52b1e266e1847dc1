// The game controller: the one owner of the front end's state and every transition —
// starting (one path: a new game, a challenge, a saved or imported record, a record
// watched), the human's bids and cards, the next round, hints and the bots' turns, and the
// page's own state (the menu, how the player is playing, the screens').  Views subscribe
// to its store (`controller.store`) and render from it; they send it intents (its
// methods); the accessible layer and the message box listen to its events; the presenter
// reports what the table shows through events ("show", "table").  It holds no rule:
// legality, reasons, scores, winners and who may challenge come from the engine's view.
//
// No polling: transitions run one after another on a queue.  A bot's turn is a transition
// too: each transition that leaves a bot (or a recorded move being watched) to act queues
// the next one before it ends, so `busy` stays true until the human's controls accept
// input again.  A new game aborts what is under way (pauses end, flights land at once).
//
// Events (CustomEvent detail):
//   game    {how: "new"|"save"|"import"|"watch"|"challenge"|"online", view}  a game is on the table
//   deal    {view}                                      a round was dealt
//   move    {seat, kind: "bid"|"card", value, view}
//   trick   {trick, view}                               a trick was completed
//   round   {view}                                      a round (or the game) is over
//   turn    {view}                                      the human's controls accept input
//   idle    {view}                                      nothing is under way (after "turn")
//   refused {card?, bid?, reason: {code, params}}       a move the human tried was refused
//   hint    {hint}
//   claimed {view}                                      a claim was accepted (round played out)
//   revealed {view}                                     pass-and-play: the hand-off is over
//   taken-back {view}                                   the human's last move was taken back
//   notice  {key, params, ms, kind}                     a message for the message box
//   watch   {state: "start"|"end"|"diverged"|"stopped", seed}
//
// An online table (web/js/online/) changes two things only.  The host's controller takes
// a friend's move with `remoteMove` (a transition like a bot's: the engine checks it for
// that seat) and lets bots stand in for friends (`view.stand_ins`).  A guest's controller
// is given the host as its engine (`useEngine(engine, "guest")`: the same typed methods,
// answered over the wire) and the host's news with `remoteNews` (moves of the others, a
// deal, the table as it is): it runs no bot, saves nothing, and plays its own bids and
// cards through the same intents as any game.

import { createStore } from "./store.js";
import { TIMING, pause, readableMs } from "./timing.js";

/** What the player reads when the table's rules allow no take-back (the view's
 *  `take_back_rule`, the engine's reason code). */
const TAKE_BACK_NOTICES = {
  "move.takeback_challenge": "notice.no_takeback_challenge",
  "move.takeback_daily": "notice.no_takeback_daily",
  "move.takeback_online": "notice.no_takeback_online",
};

/** A challenge can be made of the game on the table: the engine says the game allows one
 *  (`can_challenge`), and the table is the player's own (not a record being watched). */
export function canChallenge(state) {
  return (Boolean(state.view?.can_challenge) && state.mode === "play") || onlineSeat(state) !== null;
}

/** At an online game's end, the seat of the person on this page (the host's is 0, a
 *  guest's their own; one who watches has none): a challenge is made from it
 *  (jabberwocky-challenge/2, the engine checks the seat); null otherwise. */
export function onlineSeat(state) {
  const online = state.online;
  if (!online || state.view?.phase !== "game-over") return null;
  if (online.role === "host") return 0;
  return online.status === "over" && Number.isInteger(online.seat) ? online.seat : null;
}

/** True while the human (seat 0) may act and the controls accept input. */
export function acceptsInput(state) {
  const v = state.view;
  return Boolean(v && !state.busy && state.mode === "play" && v.your_turn && (v.phase === "bidding" || v.phase === "playing"));
}

const EMPTY_TRICK = { leader: 0, cards: [] };

/** The trick to draw for a view: the current one, else the one just completed. */
export function shownTrickFor(view) {
  if (view.trick && view.trick.cards.length) return view.trick;
  return view.last_trick || EMPTY_TRICK;
}

export class GameController extends EventTarget {
  /**
   * engine: the page's engine (engine.js: typed methods, each resolving to {result} or
   * {error}); speed(): the current pause factor; botPause(): the ms before a bot's move
   * (by default the bots' pause at that factor; the page keeps it under reduced motion);
   * save(view): stores the game after each transition (may be async).
   */
  constructor({ engine, speed = () => 1, botPause = null, save = async () => {} }) {
    super();
    this.engine = engine;
    this.speed = speed;
    this.botPause = botPause ?? (() => TIMING.botPause * this.speed());
    this.save = save;
    this._presenter = null;
    // What the views render from.
    this.store = createStore({
      view: null,
      busy: false,
      mode: "play", // "watch": a record is being replayed; "closed": an online table closed before its end
      watch: null, // {seed, moves, next}
      challenge: null, // a challenge game: the engine's challenge_compare answer (its text too)
      daily: null, // a deal of the day on the table: {date, seed, practice} (set by daily.js only)
      table: { shownTrick: null, dealtCounts: null, flash: null, hint: null, focusCard: null, hoverCard: null },
      preview: false, // the table drawn is the autosave's view: the engine is not up yet
      menu: false, // the menu is open
      input: null, // how the player is playing: "keyboard" | "pointer" (null: not known yet)
      online: null, // an online table (online/lobby.js): {role, room, presence, names, status?}
    });
    // What no view renders: the engine's offer once known ({levels, defaultLevel,
    // botsVersion, rules}), the address this page last wrote, and each screen's own state
    // (`screen(name, initial)`: kept here for the visit, handed to the screen).
    this.setup = null;
    this.link = { own: "" };
    this.screens = new Map();
    this.online = null; // null, "host" or "guest" (see useEngine)
    this._tail = Promise.resolve();
    this._game = 0; // bumped by every new game: older transitions stop
    this._abort = new AbortController();
  }

  get state() {
    return this.store.get();
  }

  /** The presenter (present.js) draws the table's moves; what it shows comes back as its
   *  events: "show" {view, table} and "table" {table}. */
  get presenter() {
    return this._presenter;
  }

  set presenter(presenter) {
    this._presenter = presenter;
    presenter?.addEventListener?.("show", (e) => {
      if (this._presenter === presenter) this.setView(e.detail.view, e.detail.table);
    });
    presenter?.addEventListener?.("table", (e) => {
      if (this._presenter === presenter) this.setTable(e.detail.table);
    });
  }

  // -- the page's own state (intents from the views) ------------------------------------

  /** The player used the keyboard or a pointer (focus is guided for keyboard users). */
  setInput(mode) {
    if (this.state.input !== mode) this.store.set({ input: mode });
  }

  openMenu(open = true) {
    if (this.state.menu !== open) this.store.set({ menu: open });
  }

  toggleMenu() {
    this.openMenu(!this.state.menu);
  }

  /** The state of the screen `name` (the review, the statistics, the update prompt): made
   *  by `initial()` the first time it is asked for, the same object after that. */
  screen(name, initial) {
    if (!this.screens.has(name)) this.screens.set(name, initial());
    return this.screens.get(name);
  }

  /** The engine's offer: bot levels and rules (known once the engine has started). */
  setSetup(setup) {
    this.setup = setup;
  }

  // -- events and state -----------------------------------------------------------------

  emit(type, detail = {}) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  notice(key, params = {}, ms = 4200, kind = "") {
    this.emit("notice", { key, params, ms, kind });
  }

  /** Show `view` (and table state `table`): every new view drops the last hint. */
  setView(view, table = {}) {
    this.store.set({ view });
    this.store.merge("table", { hint: null, ...table });
  }

  setTable(partial) {
    this.store.merge("table", partial);
  }

  // -- the queue --------------------------------------------------------------------------

  /** Run `job(token)` after every transition before it; `busy` until the queue is idle. */
  _enqueue(job) {
    const token = this._game;
    this._pending = (this._pending || 0) + 1;
    if (!this.state.busy) this.store.set({ busy: true });
    const run = this._tail.then(() => (token === this._game ? job(token) : undefined));
    this._tail = run.catch((err) => console.error("a transition failed:", err)).finally(() => {
      this._pending -= 1;
      if (this._pending === 0) this._idle();
    });
    return run;
  }

  _idle() {
    this.store.set({ busy: false });
    const view = this.state.view;
    if (acceptsInput({ ...this.state, busy: false })) this.emit("turn", { view });
    this.emit("idle", { view });
  }

  _stale(token) {
    return token !== this._game;
  }

  /** Stop everything under way for the current game (a new one is about to start). */
  _newGame() {
    this._game += 1;
    this._abort.abort();
    this._abort = new AbortController();
    this.presenter?.cancel();
    return this._game;
  }

  /** After a transition: store the game, then queue what must happen next by itself. */
  async _after(token) {
    if (this._stale(token)) return;
    if (this.online === "guest") return; // the host runs the bots and keeps the game
    await this._compareChallenge(token);
    if (this._stale(token)) return;
    await this.save(this.state.view);
    if (this._stale(token)) return;
    const { view, mode } = this.state;
    if (!view) return;
    const acting = view.phase === "bidding" || view.phase === "playing";
    const seatKind = view.seats?.[view.to_act] ?? "bot";
    const standIn = Boolean(view.stand_ins?.[view.to_act]); // a bot plays for a friend away
    const botToAct = acting && view.to_act !== null && view.to_act !== undefined && (seatKind !== "human" || standIn);
    if (botToAct) {
      this._enqueue((t) => this._botStep(t));
    } else if (mode === "watch") {
      if (acting && view.your_turn) this._enqueue((t) => this._watchStep(t));
      else if (view.phase === "round-over") this._enqueue((t) => this._watchNextRound(t));
      else this._endWatch("end");
    }
  }

  /** A challenge game: how the others did, asked again when a round has ended (and once
   *  for a game just put on the table); null for any other game. */
  async _compareChallenge(token) {
    const view = this.state.view;
    if (!view?.challenge) {
      if (this.state.challenge) this.store.set({ challenge: null });
      return;
    }
    const rounds = view.history.length;
    const known = this.state.challenge;
    if (known && known.rounds === rounds) return;
    const { result, error } = await this.engine.challengeCompare();
    if (this._stale(token) || error) return;
    this.store.set({ challenge: { ...result, rounds } });
  }

  // -- the human's moves -----------------------------------------------------------------

  /** The human bids `n` (refused with a reason when the controls do not accept it). */
  bid(n, recorded = false) {
    const view = this.state.view;
    if (!view || view.phase !== "bidding") return Promise.resolve(false);
    if (!recorded && !this._mayAct()) return Promise.resolve(false);
    if (n > view.hand_size) return Promise.resolve(false);
    const seat = view.to_act;
    return this._enqueue(async (token) => {
      const { result, error } = await this.engine.bid(n);
      if (this._stale(token)) return false;
      if (error) {
        this.emit("refused", { bid: n, reason: error });
        return false;
      }
      this.presenter.bid(seat, n, result);
      this.emit("move", { seat, kind: "bid", value: n, view: result });
      await this._after(token);
      return true;
    });
  }

  /** The human plays `card`; `fromRect` is where its flight starts (its place in the hand). */
  play(card, fromRect = null, recorded = false) {
    const view = this.state.view;
    if (!view) return Promise.resolve(false);
    const playable = view.phase === "playing" && (view.legal_cards || []).includes(card);
    if (!recorded && (!playable || !acceptsInput(this.state))) {
      this._refuseCard(card);
      return Promise.resolve(false);
    }
    const seat = view.to_act;
    return this._enqueue(async (token) => {
      const before = this.state.view;
      const { result, error } = await this.engine.play(card);
      if (this._stale(token)) return false;
      if (error) {
        this.emit("refused", { card, reason: error });
        return false;
      }
      await this._showCard(seat, card, before, result, fromRect, token);
      await this._after(token);
      return true;
    });
  }

  _mayAct() {
    if (this.state.mode === "closed") {
      this.notice("notice.table_closed", {}, 6000, "move");
      return false;
    }
    if (this.state.mode === "watch") {
      this.notice("notice.watching", {}, 4200, "move");
      return false;
    }
    if (!acceptsInput(this.state)) {
      this.notice("notice.not_your_turn_bid", {}, 4200, "move");
      return false;
    }
    return true;
  }

  _refuseCard(card) {
    const view = this.state.view;
    if (this.state.mode === "closed" || this.state.mode === "watch") {
      this._mayAct(); // says why
      return;
    }
    let reason = (view.illegal_reason_codes || {})[card];
    if (view.phase === "bidding") reason = { code: "reason.bid_first", params: {} };
    else if (!reason) reason = { code: "move.wait_turn", params: {} }; // playable, but not yet
    this.emit("refused", { card, reason });
    this.setTable({ flash: { card, until: performance.now() + 900 } });
    setTimeout(() => this.presenter?.redraw(), 950);
  }

  async _showCard(seat, card, before, view, fromRect, token) {
    const completed = view.trick.cards.length === 0 && view.last_trick && view.last_trick.cards.includes(card);
    this.emit("move", { seat, kind: "card", value: card, view });
    await this.presenter.card(seat, card, before, view, fromRect, this._abort.signal);
    if (this._stale(token) || !completed) return;
    this.emit("trick", { trick: view.last_trick, view });
    await this.presenter.collect(view, this._abort.signal);
    if (view.phase === "round-over" || view.phase === "game-over") this.emit("round", { view });
  }

  /** The human claims every remaining trick (the engine decides, and plays the round out). */
  claim() {
    if (!acceptsInput(this.state) || !this.state.view.can_claim) return Promise.resolve(false);
    // the cards that take the rest: the hand held when claiming (one card a trick left)
    const cards = [...this.state.view.hand];
    return this._enqueue(async (token) => {
      const { result, error } = await this.engine.claim();
      if (this._stale(token)) return false;
      if (error) {
        this.emit("refused", { reason: error });
        return false;
      }
      // Before the round panel, the claim shows: those cards face up in the middle of the
      // table and the words "You claimed the last 3 tricks" (a notice, and the table's tag),
      // a readable while.
      const claimed = { cards, tricks: cards.length };
      this.setView(result, { shownTrick: null, claimed });
      this.emit("claimed", { view: result, ...claimed });
      this.notice("notice.claimed", { n: claimed.tricks }, 6000);
      await pause(readableMs(cards.length) + TIMING.holdPerCard * cards.length, this._abort.signal);
      if (this._stale(token)) return false;
      this.setTable({ claimed: null, shownTrick: shownTrickFor(result) });
      if (result.phase === "round-over" || result.phase === "game-over") this.emit("round", { view: result });
      await this._after(token);
      return true;
    });
  }

  /** Wait until the deal's cards have landed: the transition that dealt stays `busy`
   *  until then, so no control accepts input (and `data-your-turn` stays "false") while
   *  the human's cards are still flying in — a quick tap must not bid blind.  A new game
   *  ends the wait (its cancel lands every flight at once). */
  async _landed(token) {
    const landing = this.presenter?.dealing;
    if (landing && !this._stale(token)) await landing;
  }

  /** Pass-and-play: the human to act has the device; show their hand. */
  reveal() {
    if (!this.state.view?.handoff) return Promise.resolve(false);
    return this._enqueue(async (token) => {
      const { result, error } = await this.engine.reveal();
      if (this._stale(token)) return false;
      if (error) {
        this.notice("notice.engine_error", { reason: error });
        return false;
      }
      this.setView(result, { shownTrick: shownTrickFor(result) });
      this.emit("revealed", { view: result });
      return true;
    });
  }

  /** Take back the human's latest bid or card (and the bots' moves after it). */
  takeBack() {
    const view = this.state.view;
    if (!view || !view.can_take_back || this.state.mode !== "play" || (this.state.busy && !this._botsOnly())) {
      this.notice(TAKE_BACK_NOTICES[view?.take_back_rule] || "notice.no_takeback", {}, 4200, "move");
      return Promise.resolve(false);
    }
    const token = this._newGame(); // the bots' turns under way stop
    return this._enqueue(async () => {
      const { result, error } = await this.engine.takeBack();
      if (this._stale(token)) return false;
      if (error) {
        this.emit("refused", { reason: error });
        await this._after(token);
        return false;
      }
      this.setView(result, { shownTrick: shownTrickFor(result), dealtCounts: null });
      this.emit("taken-back", { view: result });
      await this._after(token);
      return true;
    });
  }

  /** Only the bots' turns are under way (nothing the human started). */
  _botsOnly() {
    const v = this.state.view;
    return Boolean(v) && !v.your_turn;
  }

  nextRound(recorded = false) {
    const view = this.state.view;
    if (!view || view.phase !== "round-over") return Promise.resolve(false);
    if (!recorded && this.state.mode === "watch") return Promise.resolve(false);
    if (this.state.mode === "closed") return Promise.resolve(this._mayAct());
    if (this.online === "guest") {
      this.notice("online.host_deals", {}, 4200, "move"); // the host deals every round
      return Promise.resolve(false);
    }
    return this._enqueue(async (token) => {
      const { result, error } = await this.engine.nextRound();
      if (this._stale(token)) return false;
      if (error) {
        this.notice("notice.engine_error", { reason: error });
        return false;
      }
      this.presenter.deal(result);
      this.emit("deal", { view: result });
      await this._landed(token);
      await this._after(token);
      return true;
    });
  }

  /** What the strongest bot at the table would do in the human's place. */
  async hint() {
    if (!acceptsInput(this.state)) {
      this.notice("notice.hint_not_now", {}, 4200, "move");
      return null;
    }
    const token = this._game;
    const step = this.state.view.step;
    this.notice("notice.thinking", {}, 1500, "move");
    const { result, error } = await this.engine.hint();
    if (this._stale(token) || this.state.view.step !== step) return null;
    if (error) {
      this.notice("notice.no_hint", { reason: error }, 4200, "move");
      return null;
    }
    this.setTable({ hint: result });
    this.emit("hint", { hint: result });
    return result;
  }

  // -- online tables (web/js/online/) ----------------------------------------------------

  /** Play with `engine` from now on: the page's own (`online` null), or, for a guest, the
   *  host's over the wire ("guest"); "host" marks a table with friends elsewhere. */
  useEngine(engine, online = null) {
    this._newGame();
    this.engine = engine;
    this.online = online;
  }

  /** An online table closed before its game ended (the host left): its last view stays on
   *  show, and nothing on it is played any more — this page's own engine holds another
   *  game, which a bid, a card or "Next round" would silently act on.  Every control says
   *  so instead (`data-mode` "closed"); the next game started leaves it. */
  closeTable() {
    this._newGame();
    this.store.set({ mode: "closed" });
  }

  /**
   * The host: a friend at `seat` bids or plays (`kind` "bid"|"card", `value`).  The engine
   * refuses a move that is not that seat's to make; an accepted one is shown like a bot's
   * and the table goes on.  Resolves to {result: the seat's view} or {error}.
   */
  remoteMove(seat, kind, value) {
    return this._enqueue(async (token) => {
      const before = this.state.view;
      const answer = kind === "bid" ? await this.engine.seatBid(seat, value) : await this.engine.seatPlay(seat, value);
      if (this._stale(token) || answer.error) return answer;
      const { result: view, error } = await this.engine.state();
      if (this._stale(token) || error) return answer;
      await this._showMove({ seat, kind, value }, before, view, token);
      return answer;
    });
  }

  /** The host: the turn clock of the friend at `seat` ran out at `step`: the engine's
   *  `medium` bot makes that one move (shown like a bot's; nothing if the table moved on). */
  autoMove(seat, step) {
    return this._enqueue(async (token) => {
      const view = this.state.view;
      if (!view || view.step !== step || view.to_act !== seat) return false;
      const before = view;
      const { result, error } = await this.engine.seatAuto(seat);
      if (this._stale(token) || error || !result.action) return false;
      const { kind, value } = result.action;
      this.emit("online-clock", { seat, kind, value });
      await this._showMove(result.action, before, result.view, token);
      return true;
    });
  }

  /** The host: a bot of `level` plays the friend's `seat` while they are away (null: they
   *  have it back).  The table goes on at once when it is that seat's turn. */
  standIn(seat, level) {
    return this._seatChange(() => this.engine.seatStandIn(seat, level));
  }

  /** The host: one who watched takes the friend's `seat` a bot stands in for, as `name`
   *  (the stand-in steps aside; the seat is theirs from here on). */
  takeSeat(seat, name) {
    return this._seatChange(() => this.engine.seatTake(seat, name));
  }

  _seatChange(ask) {
    return this._enqueue(async (token) => {
      const answer = await ask();
      if (this._stale(token) || answer.error) return answer;
      const { result: view, error } = await this.engine.state();
      if (this._stale(token) || error) return answer;
      this.setView(view);
      await this._after(token);
      return answer;
    });
  }

  /**
   * A guest: news from the host — {t: "move", action: {seat, kind, value}, view} (another
   * seat's move), {t: "deal", view, how} (a game or a round dealt) or {t: "sync", view}
   * (the table as it is: on joining, after a reconnection).  Shown in order, on the queue.
   */
  remoteNews(news) {
    if (news.t === "deal" && news.how === "game") this._newGame();
    return this._enqueue(async (token) => {
      const view = news.view;
      if (news.t === "move") {
        // shown as any move made elsewhere (_after does nothing more for a guest)
        await this._showMove(news.action, this.state.view, view, token);
      } else if (news.t === "deal") {
        this.presenter.deal(view);
        if (news.how === "game") this.emit("game", { how: "online", view });
        this.emit("deal", { view });
        await this._landed(token);
      } else {
        this.presenter?.cancel();
        this.setView(view, { shownTrick: shownTrickFor(view), dealtCounts: null });
        this.emit("game", { how: "online", view });
        if (view.phase === "round-over" || view.phase === "game-over") this.emit("round", { view });
      }
    });
  }

  // -- the bots ------------------------------------------------------------------------------

  async _botStep(token) {
    const signal = this._abort.signal;
    await this._landed(token); // the cards land first
    await pause(this.botPause(), signal);
    if (this._stale(token)) return;
    const before = this.state.view;
    const { result, error } = await this.engine.botStep();
    if (this._stale(token)) return;
    if (error) {
      this.notice("notice.bot_error", { reason: error });
      return;
    }
    if (!result.action) {
      this.setView(result.view);
      return;
    }
    await this._showMove(result.action, before, result.view, token);
  }

  /** A move made by someone other than the person here (a bot, a stand-in, a friend
   *  elsewhere, the turn clock) shown as a bot's is, then the table goes on. */
  async _showMove({ seat, kind, value }, before, view, token) {
    if (kind === "bid") {
      this.presenter.bid(seat, value, view);
      this.emit("move", { seat, kind, value, view });
    } else {
      await this._showCard(seat, value, before, view, null, token);
    }
    await this._after(token);
  }

  // -- starting games: one path ---------------------------------------------------------

  /**
   * Put a game on the table, the one way every game starts.  `how` says which, and is
   * reported in the "game" event: "new" and "watch" ({table}: {seed?, players, bots,
   * rules} or, in pass-and-play, {…, seats, names}), "challenge" ({text, name}: the deals
   * of a verified challenge), "save" and "import" ({record}: a record's text, and
   * `answer`, the engine's answer to its import when already asked for).  A new deal is
   * dealt out; a record resumed is shown where it stands.  A refusal leaves the game on
   * the table as it was and says why.
   */
  start(how, options = {}) {
    const token = this._newGame();
    if (this.state.mode === "watch" && how !== "watch") this._endWatch("stopped");
    this.store.set(this.state.mode === "closed" ? { challenge: null, mode: "play" } : { challenge: null });
    const resumed = how === "save" || how === "import";
    return this._enqueue(async () => {
      const { result, error } = await this._startRequest(how, options);
      if (this._stale(token)) return false;
      const previewed = this.state.preview;
      if (previewed) this.store.set({ preview: false });
      if (error) {
        if (previewed) this.setView(null); // the engine refused the saved game: its old view goes
        this.lastRefusal = error; // what a link's opening says when it deals another game instead
        this.notice(how === "save" ? "notice.save_discarded" : how === "import" ? "notice.file_refused" : "notice.start_failed", { reason: error }, 8000);
        await this._after(token); // the engine still holds the game before
        return false;
      }
      if (resumed) {
        this.setView(result, { shownTrick: shownTrickFor(result), dealtCounts: null });
        this.emit("game", { how, view: result });
      } else {
        this.presenter.deal(result);
        this.emit("game", { how, view: result });
        this.emit("deal", { view: result });
        await this._landed(token);
      }
      await this._after(token);
      return true;
    });
  }

  _startRequest(how, { table, text, name, record, answer }) {
    if (how === "challenge") return this.engine.playChallenge(text, name);
    if (how === "save") return answer ?? this.engine.resumeSave(record);
    if (how === "import") return answer ?? this.engine.importRecord(record);
    return this.engine.newGame(table);
  }

  /** A new game (see start): {seed?, players, bots, rules} or {…, seats, names}. */
  newGame(table, how = "new") {
    return this.start(how, { table });
  }

  /** Play the deals of a challenge (its verified text), as `name` (or no name). */
  playChallenge(text, name = "") {
    return this.start("challenge", { text, name });
  }

  /** A repeat visit, before the engine is up: the table as the engine last showed it (the
   *  autosave's view, web/js/save.js), drawn with every control refusing input (`busy`)
   *  until a start puts the engine's own view in its place (its queue ends `busy`). */
  preview(view) {
    this.store.set({ busy: true, preview: true });
    this.setView(view, { shownTrick: shownTrickFor(view), dealtCounts: null });
  }

  /** Put a record on the table: `how` "save" (the autosave) or "import" (a file). */
  resume(record, how, answer = null) {
    return this.start(how, { record, answer });
  }

  // -- watching a record ---------------------------------------------------------------------
  // The record is replayed through the engine: the same seed, rules and bot levels, seat
  // 0's recorded bids and cards fed in, the bots answering through bot_step (they are
  // seeded, so they repeat their recorded moves).  The record is only read as data here.

  /** Is `text` a record the table could take (import, or watching)?  Asked of the engine
   *  without touching the game on the table, so that a bad file is refused at once (its
   *  reason said) and only a good one leads to "Load this record? It replaces the game in
   *  progress." */
  async checkRecord(text) {
    try {
      JSON.parse(text);
    } catch {
      this.notice("notice.file_not_json", {}, 8000);
      return false;
    }
    const { error } = await this.engine.checkRecord(text);
    if (error) {
      this.notice("notice.file_refused", { reason: error }, 8000);
      return false;
    }
    return true;
  }

  async watch(text) {
    try {
      JSON.parse(text);
    } catch {
      this.notice("notice.file_not_json", {}, 8000);
      return false;
    }
    const check = await this.engine.importRecord(text);
    if (check.error) {
      this.notice("notice.file_refused", { reason: check.error }, 8000);
      return false;
    }
    const view = check.result;
    // seat 0's bids and cards, in the order the engine's timeline of the record says
    const timeline = await this.engine.review({ record: text });
    if (timeline.error) {
      this.notice("notice.file_refused", { reason: timeline.error }, 8000);
      return false;
    }
    const moves = timeline.result.steps.filter((step) => step.seat === 0).map(({ kind, value }) => ({ kind, value }));
    this.store.set({ mode: "watch", watch: { seed: view.seed, moves, next: 0 } });
    this.emit("watch", { state: "start", seed: view.seed });
    const ok = await this.start("watch", { table: { seed: view.seed, players: view.players, bots: view.seats.slice(1), rules: view.rules } });
    if (!ok) this._endWatch("stopped");
    return ok;
  }

  async _watchStep(token) {
    await pause(Math.max(250, TIMING.botPause * this.speed()) || 40, this._abort.signal);
    if (this._stale(token) || this.state.mode !== "watch") return;
    const w = this.state.watch;
    const move = w.moves[w.next];
    if (!move) {
      this._endWatch("end");
      return;
    }
    this.store.set({ watch: { ...w, next: w.next + 1 } });
    const { result, error } = move.kind === "bid"
      ? await this.engine.bid(move.value)
      : await this.engine.play(move.value);
    if (this._stale(token)) return;
    if (error) {
      this._endWatch("diverged");
      return;
    }
    if (move.kind === "bid") {
      this.presenter.bid(0, move.value, result);
      this.emit("move", { seat: 0, kind: "bid", value: move.value, view: result });
    } else {
      await this._showCard(0, move.value, this.state.view, result, null, token);
    }
    await this._after(token);
  }

  async _watchNextRound(token) {
    await pause(Math.max(250, TIMING.botPause * this.speed()) || 40, this._abort.signal);
    if (this._stale(token) || this.state.mode !== "watch") return;
    const { result, error } = await this.engine.nextRound();
    if (this._stale(token) || error) return;
    this.presenter.deal(result);
    this.emit("deal", { view: result });
    await this._landed(token);
    await this._after(token);
  }

  /** Stop replaying: the game on the table is the player's from here. */
  stopWatching() {
    if (this.state.mode !== "watch") return;
    this._endWatch("stopped");
  }

  _endWatch(state) {
    if (this.state.mode !== "watch") return;
    const seed = this.state.watch?.seed;
    this.store.set({ mode: "play", watch: null });
    this.emit("watch", { state, seed });
  }
}
