// A whole game at a table of people elsewhere, played by the real engine (a CPython
// process, engine-process.mjs): every seat's view and the public view after every deal and
// move, for the view patches' tests (online-viewdiff.test.mjs) and their measurement.

import { startEngine } from "./engine-process.mjs";

/**
 * Play a game of `players` (the host at seat 0, friends elsewhere at the others; each
 * makes its first legal bid or card) and call `each({kind, action, views, publicView})`
 * after the deal of each round (kind "deal") and after every move ("move"): `views[s]` is
 * seat s's view as the host's engine builds it for that guest.
 */
export async function playGame({ players = 5, rules = "jabberwocky", seed = "views", each }) {
  const engine = startEngine();
  try {
    const seats = ["human", ...Array(players - 1).fill("remote")];
    let view = await engine.request("new_game", { seed, players, seats, rules });
    const snapshot = async (kind, action) => {
      const views = [];
      for (let s = 0; s < players; s++) views.push(await engine.request("seat_view", { seat: s }));
      await each({ kind, action, views, publicView: await engine.request("public_view") });
      return views;
    };
    let views = await snapshot("deal", null);
    for (;;) {
      if (view.phase === "game-over") break;
      if (view.phase === "round-over") {
        view = await engine.request("next_round");
        views = await snapshot("deal", null);
        continue;
      }
      const seat = view.to_act;
      const mine = views[seat];
      const kind = view.phase === "bidding" ? "bid" : "card";
      const value = kind === "bid" ? mine.legal_bids[0] : mine.legal_cards[0];
      if (seat === 0) await engine.request(kind === "bid" ? "bid" : "play", kind === "bid" ? { bid: value } : { card: value });
      else await engine.request(kind === "bid" ? "seat_bid" : "seat_play", kind === "bid" ? { seat, bid: value } : { seat, card: value });
      view = await engine.request("state");
      views = await snapshot("move", { seat, kind, value });
    }
    return view;
  } finally {
    engine.stop();
  }
}
