// Which bids the table shows in a bubble at the bidder's seat: each bid from the moment it
// is made until the round's first card lands on the table (then the badges say them), and
// again when the round is over, marked made or missed.
// Read from the engine's view and what the table shows; decides no rule.

/** [{seat, bid}] of the bids on show: during the bidding, and in the first trick of the
 *  round until its first card is shown (`shown`: the trick the table shows). */
export function bidBubbles(view, shown) {
  if (!view || !Array.isArray(view.bids)) return [];
  const bidding = view.phase === "bidding";
  const beforeFirstCard = view.phase === "playing" && (view.tricks?.length ?? 0) === 0 && !(shown?.cards?.length);
  if (!bidding && !beforeFirstCard) return [];
  const out = [];
  view.bids.forEach((bid, seat) => {
    if (bid !== null && bid !== undefined) out.push({ seat, bid });
  });
  return out;
}

/** [{seat, bid, taken, made}] once the round is over (its result in the view): each
 *  seat's bid, made when it took exactly that many tricks (what the round panel marks). */
export function bidResults(view) {
  const over = view && (view.phase === "round-over" || view.phase === "game-over") && view.round_result;
  if (!over) return [];
  const { bids, taken } = view.round_result;
  return bids.map((bid, seat) => ({ seat, bid, taken: taken[seat], made: bid === taken[seat] }));
}
