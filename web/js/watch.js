// Watching a game record.  The record is replayed through the engine: the same seed, rules
// and bot levels, seat 0's recorded bids and cards fed in, the bots answering through
// bot_step (they are seeded, so they repeat their recorded moves).  The record is only
// read as data here.

import { app, store, S, $, sleep, call, announce } from "./app.js";
import { speedFactor, TIMING } from "./state.js";
import { humanBid, humanCard, nextRound, startGame } from "./flow.js";
import * as ui from "./ui/dialogs.js";

function humanMoves(record) {
  const moves = [];
  const n = record.players;
  for (const rnd of record.rounds || []) {
    const bid = Array.isArray(rnd.bids) ? rnd.bids[0] : null;
    if (bid === null || bid === undefined) break;
    moves.push({ kind: "bid", value: bid });
    for (const trick of rnd.tricks || []) {
      (trick.cards || []).forEach((card, i) => {
        if ((trick.leader + i) % n === 0) moves.push({ kind: "card", value: card });
      });
    }
  }
  return moves;
}

export async function watchRecord(text) {
  let record;
  try {
    record = JSON.parse(text);
  } catch (e) {
    ui.toast(`That file is not JSON: ${e.message}`);
    return;
  }
  const check = await call("import_record", { record: text });
  if (check.error) {
    ui.toast(`That file could not be loaded: ${check.error.message}`, 8000);
    return;
  }
  const view = check.result;
  const moves = humanMoves(record);
  const ok = await startGame({ seed: view.seed, players: view.players, bots: view.seats.slice(1), rules: view.rules }, true);
  if (!ok) return;
  app.watching = { moves, next: 0, token: app.gameToken };
  $("watch-bar").hidden = false;
  document.body.classList.add("watching");
  $("watch-text").textContent = `Watching seed "${view.seed}"`;
  announce(`Watching the recorded game with seed ${view.seed}. Choose Take over from here to play on.`);
  watchLoop(app.watching);
}

async function watchLoop(w) {
  while (app.watching === w && w.token === app.gameToken) {
    const view = S().view;
    if (!view || view.phase === "game-over") break;
    if (S().busy || app.driving) {
      await sleep(40);
      continue;
    }
    const f = speedFactor(S());
    const pause = f > 0 ? Math.max(250, TIMING.botPause * f) : 40;
    await sleep(pause);
    if (app.watching !== w) break;
    if (view.phase === "round-over") {
      await nextRound();
      continue;
    }
    if (!view.your_turn) continue;
    const move = w.moves[w.next];
    if (!move) {
      announce("The record ends here: the game is yours to continue.");
      break;
    }
    w.next += 1;
    const before = view.step;
    if (move.kind === "bid") await humanBid(move.value, true);
    else await humanCard(move.value, true);
    if (S().view && S().view.step === before) {
      ui.toast("The replay went differently from the record (its bots may be of a level this version lacks). The game is yours from here.", 8000);
      break;
    }
  }
  if (app.watching === w) stopWatching();
}

export function stopWatching() {
  app.watching = null;
  $("watch-bar").hidden = true;
  document.body.classList.remove("watching");
  store.set({});
}
