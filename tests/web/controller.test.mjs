// The game controller against the real engine (a CPython process): its transitions, the
// bots' turns on its queue, `busy` and acceptsInput, new games cutting in, refusals that
// leave the game as it was, watching a record.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { GameController, acceptsInput } from "../../web/js/controller.js";
import { Engine } from "../../web/js/engine.js";
import { startEngine } from "./engine-process.mjs";

const engine = startEngine();
after(() => engine.stop());

/** A presenter that only sets what the table shows (no drawing, no time). */
function fakePresenter(controller) {
  return {
    dealing: null,
    async card(seat, card, before, view) {
      controller.setView(view);
    },
    async collect() {},
    bid(seat, value, view) {
      controller.setView(view);
    },
    deal(view) {
      controller.setView(view);
    },
    cancel() {},
    redraw() {},
  };
}

function makeController() {
  const saved = [];
  const c = new GameController({ engine: new Engine(engine), speed: () => 0, save: async (view) => { saved.push(view && view.step); } });
  c.presenter = fakePresenter(c);
  return { c, saved };
}

/** Resolves with the first event of `type` whose detail passes `pred`. */
function next(c, type, pred = () => true) {
  return new Promise((resolve) => {
    const fn = (e) => {
      if (!pred(e.detail)) return;
      c.removeEventListener(type, fn);
      resolve(e.detail);
    };
    c.addEventListener(type, fn);
  });
}

/** Play the human's turns with the first legal move until the game is over. */
async function playToTheEnd(c) {
  const turns = [];
  for (;;) {
    const state = c.state;
    const view = state.view;
    if (view.phase === "game-over" && !state.busy) return turns;
    if (view.phase === "round-over" && !state.busy) {
      await c.nextRound();
      continue;
    }
    if (state.busy) {
      await next(c, "idle");
      continue;
    }
    turns.push({ busy: state.busy, yours: view.your_turn, phase: view.phase });
    if (view.phase === "bidding") assert.equal(await c.bid(view.legal_bids[0]), true);
    else assert.equal(await c.play(view.legal_cards[0]), true);
  }
}

test("a whole game: the bots play on the queue, the human's turns come as 'turn' events", async () => {
  const { c, saved } = makeController();
  const turnEvents = [];
  c.addEventListener("turn", (e) => turnEvents.push({ busy: c.state.busy, view: e.detail.view }));
  assert.equal(await c.newGame({ seed: "controller-1", players: 4, bots: "random", rules: "jabberwocky" }), true);
  const turns = await playToTheEnd(c);
  const view = c.state.view;
  assert.equal(view.phase, "game-over");
  assert.equal(view.history.length, 13);
  assert.ok(turns.length >= 13 * 4, `the human acted ${turns.length} times`);
  assert.ok(turns.every((t) => !t.busy && t.yours), "the human acted only when the controls accepted input");
  assert.ok(turnEvents.length > 0 && turnEvents.every((t) => !t.busy && t.view.your_turn));
  assert.equal(c.state.busy, false);
  assert.ok(saved.length > 100, "the game was stored after every transition");
});

test("while the bots move, the human's bid and card are refused and nothing is sent", async () => {
  const { c } = makeController();
  const notices = [];
  c.addEventListener("notice", (e) => notices.push(e.detail.key));
  // a seed where a bot acts first: the human's turn cannot have come yet
  let started = false;
  for (let i = 0; i < 20 && !started; i++) {
    const starting = c.newGame({ seed: `busy-${i}`, players: 4, bots: "random", rules: "jabberwocky" });
    await starting;
    if (c.state.busy) started = true;
  }
  assert.ok(started, "a seed where a bot bids first");
  const before = engine.log.length;
  assert.equal(c.state.busy, true);
  assert.equal(acceptsInput(c.state), false);
  assert.equal(await c.bid(0), false);
  assert.equal(engine.log.slice(before).includes("bid"), false);
  assert.ok(notices.includes("notice.not_your_turn_bid"));
  await next(c, "idle");
  assert.equal(acceptsInput(c.state), true);
});

test("an illegal card is refused with the engine's reason and the game stays as it was", async () => {
  const { c } = makeController();
  await c.newGame({ seed: "refuse-1", players: 3, bots: "random", rules: "jabberwocky" });
  for (let guard = 0; guard < 200; guard++) {
    const state = c.state;
    if (state.busy) {
      await next(c, "idle");
      continue;
    }
    const view = state.view;
    if (view.phase === "round-over") {
      await c.nextRound();
      continue;
    }
    if (view.phase === "bidding") {
      await c.bid(view.legal_bids[0]);
      continue;
    }
    const illegal = view.hand.find((card) => !view.legal_cards.includes(card));
    if (!illegal) {
      await c.play(view.legal_cards[0]);
      continue;
    }
    const refused = next(c, "refused");
    assert.equal(await c.play(illegal), false);
    const { card, reason } = await refused;
    assert.equal(card, illegal);
    assert.equal(reason.code, view.illegal_reason_codes[illegal].code);
    assert.equal(c.state.view, view, "the view did not change");
    return;
  }
  assert.fail("no position with an illegal card came up");
});

test("a new game cuts in: the old game's bot turns stop", async () => {
  const { c } = makeController();
  c.newGame({ seed: "old-game", players: 5, bots: "medium", rules: "jabberwocky" });
  await c.newGame({ seed: "new-game", players: 3, bots: "random", rules: "jabberwocky" });
  if (c.state.busy) await next(c, "idle");
  assert.equal(c.state.view.seed, "new-game");
  assert.equal(c.state.view.players, 3);
});

test("a refused import leaves the game on the table as it was", async () => {
  const { c } = makeController();
  await c.newGame({ seed: "keep-me", players: 4, bots: "random", rules: "jabberwocky" });
  const view = c.state.view;
  const notice = next(c, "notice");
  assert.equal(await c.resume('{"format": "jabberwocky-game/1", "players": 10000000000000000000000000000000}', "import"), false);
  assert.equal((await notice).key, "notice.file_refused");
  assert.equal(c.state.view, view);
  const state = await engine.request("state");
  assert.equal(state.seed, "keep-me");
});

test("watching a record replays the human's recorded moves to the same end", async () => {
  const { c } = makeController();
  await c.newGame({ seed: "watch-me", players: 4, bots: "easy", rules: "jabberwocky" });
  await playToTheEnd(c);
  const played = JSON.parse((await engine.request("export_record")).record);
  const ended = next(c, "watch", (d) => d.state !== "start");
  assert.equal(await c.watch(JSON.stringify(played)), true);
  const how = await ended;
  assert.equal(how.state, "end");
  assert.equal(c.state.mode, "play");
  const watched = JSON.parse((await engine.request("export_record")).record);
  assert.deepEqual(watched.rounds, played.rounds);
  assert.deepEqual(watched.scores, played.scores);
});

test("no control accepts input while the deal's cards are still flying in", async () => {
  const { c } = makeController();
  let land = null;
  const presenter = fakePresenter(c);
  presenter.deal = (view) => {
    c.setView(view);
    presenter.dealing = new Promise((resolve) => {
      land = resolve;
    }).then(() => {
      presenter.dealing = null;
    });
  };
  c.presenter = presenter;
  // seed e2e-landed, four players: seat 3 deals round 1, so the human bids first
  const started = c.newGame({ seed: "e2e-landed", players: 4, bots: "random", rules: "jabberwocky" });
  while (!land) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(c.state.view.your_turn, true, "the human bids first");
  assert.equal(acceptsInput(c.state), false, "the cards are still in the air");
  assert.equal(await c.bid(0), false, "a bid before they land is refused");
  const idle = next(c, "idle");
  land();
  assert.equal(await started, true);
  await idle;
  assert.equal(acceptsInput(c.state), true, "once they have landed, the human may bid");
  assert.equal(await c.bid(0), true);
});
