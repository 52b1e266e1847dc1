// The statistics' pure modules: chart geometry, files of games, the store's rules (on its
// in-memory backend: node has no IndexedDB; e2e/test_stats.py drives the real one).

import { test } from "node:test";
import assert from "node:assert/strict";
import { ticks, scale, plotArea, linePoints, barRects } from "../../web/js/stats/charts.js";
import { recordsOf, batches, toJsonLines, exportName } from "../../web/js/stats/jsonl.js";
import { createGameStore, isEntry, MAX_GAMES } from "../../web/js/stats/store.js";

test("ticks are round steps covering the range", () => {
  assert.deepEqual(ticks(0, 1), [0, 0.5, 1]);
  assert.deepEqual(ticks(0, 10), [0, 5, 10]);
  assert.deepEqual(ticks(0, 2, 4, true), [0, 1, 2]); // whole numbers only for points
  assert.deepEqual(ticks(0, 13), [0, 5, 10, 15]);
  assert.deepEqual(ticks(-3, 6), [-5, 0, 5, 10]);
  assert.deepEqual(ticks(5, 5), [5]);
  for (const [lo, hi] of [[0, 1], [0, 37], [-12, 4], [0, 0.3]]) {
    const t = ticks(lo, hi);
    assert.ok(t[0] <= lo && t[t.length - 1] >= hi - 1e-9, `${lo}..${hi}: ${t}`);
    assert.ok(t.length <= 7);
  }
});

test("points and bars land inside the plot area", () => {
  const area = plotArea(420, 170);
  const pts = linePoints([0, 5, null, 10], area, 0, 10);
  assert.equal(pts[0].x, area.x0);
  assert.equal(pts[3].x, area.x1);
  assert.equal(pts[0].y, area.y0);
  assert.equal(pts[3].y, area.y1);
  assert.equal(pts[2], null);
  const bars = barRects([0, 0.5, 1], area, 1);
  assert.equal(bars[0].h, 0);
  assert.equal(bars[2].y, area.y1);
  for (const b of bars) assert.ok(b.x >= area.x0 && b.x + b.w <= area.x1);
  assert.equal(scale(0, 0, 0, 10)(0), 0); // an empty domain does not divide by zero
});

test("files of games: JSON lines or one record", () => {
  assert.deepEqual(recordsOf('{"a":1}\r\n\n  {"b":2}\n'), [{ line: 1, text: '{"a":1}' }, { line: 3, text: '{"b":2}' }]);
  const pretty = '\uFEFF{\n  "format": "jabberwocky-game/1",\n  "seed": "x"\n}\n';
  assert.deepEqual(recordsOf(pretty).length, 1);
  assert.equal(JSON.parse(recordsOf(pretty)[0].text).seed, "x");
  assert.deepEqual(recordsOf("\n\n"), []);
  assert.equal(toJsonLines(['{"a":\n1}', "{}"]), '{"a": 1}\n{}\n');
  assert.equal(toJsonLines([]), "");
  assert.equal(exportName(new Date(2026, 0, 5)), "jabberwocky-games-2026-01-05.jsonl");
});

test("batches respect the count and the size", () => {
  const items = Array.from({ length: 7 }, (_, i) => ({ text: "x".repeat(i === 3 ? 50 : 10) }));
  assert.deepEqual(batches(items, { max: 3 }).map((b) => b.length), [3, 3, 1]);
  assert.deepEqual(batches(items, { chars: 40 }).map((b) => b.length), [3, 1, 3]);
  assert.deepEqual(batches([]), []);
});

const hex = (n) => n.toString(16).padStart(64, "0");
const game = (n) => ({ id: hex(n), record: `{"seed":"g${n}"}`, facts: { seed: `g${n}` } });

test("the store: duplicates recognised, the oldest dropped at the cap, bad entries set aside", async () => {
  const store = createGameStore({ idb: null, now: () => 1000 });
  assert.deepEqual(await store.open(), { problem: "unavailable" });
  assert.deepEqual(await store.add([game(1), game(2), game(1)]), { added: 2, duplicates: 1, dropped: 0 });
  assert.deepEqual(await store.add([game(2), game(3)]), { added: 1, duplicates: 1, dropped: 0 });
  const { entries } = await store.list();
  assert.deepEqual(entries.map((e) => e.facts.seed), ["g1", "g2", "g3"]);
  assert.ok(entries.every(isEntry));
  const many = Array.from({ length: MAX_GAMES }, (_, i) => game(100 + i));
  const out = await store.add(many);
  assert.equal(out.added, MAX_GAMES);
  assert.equal(out.dropped, 3);
  const after = (await store.list()).entries;
  assert.equal(after.length, MAX_GAMES);
  assert.equal(after[0].facts.seed, "g100"); // g1..g3 were the oldest
  await store.setAside([hex(100)], "refused");
  assert.equal(await store.count(), MAX_GAMES - 1);
  assert.equal(await store.clear(), true);
  assert.equal(await store.count(), 0);
});

test("what counts as a stored game", () => {
  const ok = { id: hex(1), order: 0, added: 1, record: "{}", facts: {} };
  assert.ok(isEntry(ok));
  for (const bad of [null, "x", { ...ok, id: "nope" }, { ...ok, record: 1 }, { ...ok, facts: [] }, { ...ok, order: NaN }]) {
    assert.ok(!isEntry(bad), JSON.stringify(bad));
  }
});
