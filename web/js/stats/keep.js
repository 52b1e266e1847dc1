// Putting games into the store: the game just finished, and the records of an imported
// file.  The engine replays every record (the `stats` request) and answers its id (a
// digest of the record as the engine writes it: duplicates are recognised however the
// file was spaced) and the facts the statistics are tallied from.  Which seat is "me": seat
// 0 in a game against bots (and in a stored game from before online tables); the player's
// own seat in an online game, which the page says (`me`, with `online`), since the record
// itself names no one as the keeper.

import { gameStore } from "./store.js";
import { batches, recordsOf } from "./jsonl.js";

/** Is the record's game one person's, at seat 0 (the others bots)? */
export function onePerson(text) {
  try {
    const seats = JSON.parse(text).seats;
    return !Array.isArray(seats) || (seats[0] === "human" && seats.filter((k) => k === "human").length === 1);
  } catch {
    return false;
  }
}

/** What the `stats` request is given for an item: the text, or {record, me, online}. */
const entryOf = (b) => (b.me || b.online ? { record: b.text, me: b.me || 0, online: Boolean(b.online) } : b.text);

/** `engine`: the page's (engine.js), its answers {result} or {error}. */
async function checkRecords(engine, items) {
  const accepted = [];
  const refused = [];
  for (const batch of batches(items)) {
    const { result, error } = await engine.stats({ records: batch.map(entryOf) });
    if (error) {
      batch.forEach((b) => refused.push({ line: b.line, error }));
      continue;
    }
    result.games.forEach((g, i) => {
      if (g) accepted.push({ id: g.id, facts: g.facts, record: batch[i].text });
    });
    for (const r of result.refused) refused.push({ line: batch[r.index].line, error: r.error });
  }
  return { accepted, refused };
}

/** Keep the game on the table (it has just ended); resolves to the store's problem, if any.
 *  The statistics are one person's: a pass-and-play game is not kept; an online game is
 *  (`online`), from the player's own seat `me` (the host's: 0). */
export async function keepFinishedGame(engine, { me = 0, online = false } = {}) {
  const exported = await engine.exportRecord();
  if (exported.error) return null;
  if (!online && !onePerson(exported.result.record)) return null;
  return keepGameRecord(engine, exported.result.record, { me, online });
}

/** Keep a finished game's record `text`, played from seat `me` (an online guest keeps the
 *  record the host sent); resolves to the store's problem, if any. */
export async function keepGameRecord(engine, text, { me = 0, online = false } = {}) {
  const { accepted } = await checkRecords(engine, [{ line: 1, text, me, online }]);
  const store = gameStore();
  const { problem } = await store.open();
  if (accepted.length) await store.add(accepted);
  return problem;
}

/**
 * Import the records of a file's text: {added, duplicates, dropped, refused: [{line,
 * error}], total}.  `progress(done, total)` is told after each batch.
 */
export async function importRecords(engine, text, progress = () => {}) {
  const items = recordsOf(text);
  const out = { added: 0, duplicates: 0, dropped: 0, refused: [], total: items.length };
  const store = gameStore();
  let done = 0;
  for (const batch of batches(items, { max: 200 })) {
    const { accepted, refused } = await checkRecords(engine, batch);
    const kept = await store.add(accepted);
    out.added += kept.added;
    out.duplicates += kept.duplicates;
    out.dropped += kept.dropped;
    out.refused.push(...refused);
    done += batch.length;
    progress(done, items.length);
  }
  return out;
}
