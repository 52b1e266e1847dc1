// Putting games into the store: the game just finished, and the records of an imported
// file.  The engine replays every record (the `stats` request) and answers its id (a
// digest of the record as the engine writes it: duplicates are recognised however the
// file was spaced) and the facts the statistics are tallied from.

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

/** `engine`: the page's (engine.js), its answers {result} or {error}. */
async function checkRecords(engine, items) {
  const accepted = [];
  const refused = [];
  for (const batch of batches(items)) {
    const { result, error } = await engine.stats({ records: batch.map((b) => b.text) });
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
 *  The statistics are one person's (seat 0, "you"): a pass-and-play game is not kept. */
export async function keepFinishedGame(engine) {
  const exported = await engine.exportRecord();
  if (exported.error) return null;
  if (!onePerson(exported.result.record)) return null;
  const { accepted } = await checkRecords(engine, [{ line: 1, text: exported.result.record }]);
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
