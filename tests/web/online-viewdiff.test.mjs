// Views as patches (web/js/online/viewdiff.js): over a real game's views (the engine in a
// CPython process), every guest builds from the patches exactly the view the host's engine
// built, each message within the 2 KB a move; a patch that is garbled, hostile or for
// another view is refused and leaves the view held as it was.

import { test } from "node:test";
import assert from "node:assert/strict";
import { diff, applyPatch, same, canonical, viewHash, ViewSender, ViewKeeper } from "../../web/js/online/viewdiff.js";
import { PROTOCOL, encode, readHostMessage } from "../../web/js/online/protocol.js";
import { playGame } from "./online-game-views.mjs";

const MAX_MOVE_BYTES = 2048;

test("diff and apply: small cases, and nothing shared with the view held", () => {
  const a = { x: 1, list: [1, 2], deep: { y: [{ z: 1 }] }, gone: true };
  const b = { x: 2, list: [1, 2, 3], deep: { y: [{ z: 2 }] }, added: "new" };
  const patch = diff(a, b);
  assert.deepEqual(applyPatch(a, patch), b);
  assert.deepEqual(a, { x: 1, list: [1, 2], deep: { y: [{ z: 1 }] }, gone: true }, "the old view is unchanged");
  assert.equal(diff(a, structuredClone(a)), undefined);
  assert.deepEqual(applyPatch([1, 2, 3, 4], diff([1, 2, 3, 4], [1, 9])), [1, 9], "an array cut short");
  assert.deepEqual(applyPatch({ a: null }, diff({ a: null }, { a: [1] })), { a: [1] });
  const out = applyPatch({ k: [1] }, [0, { k: [1] }]);
  out.k.push(2);
  assert.deepEqual(applyPatch({ k: [1] }, [1, { k: [2, [5]] }]), { k: [1, 5] });
  assert.equal(canonical({ b: 1, a: [{ d: 1, c: 2 }] }), canonical({ a: [{ c: 2, d: 1 }], b: 1 }));
  assert.equal(viewHash({ b: 1, a: 2 }), viewHash({ a: 2, b: 1 }), "key order does not matter");
  assert.notEqual(viewHash({ a: 1 }), viewHash({ a: 2 }));
});

test("a hostile or garbled patch is refused, and the view held stays as it was", () => {
  const held = { hand: ["AS", "KD"], bids: [null, 1], step: 3 };
  const before = structuredClone(held);
  const bad = [
    null, 5, "x", [], [9, 1], [0], [0, 1, 2], [1, "x"], [1, {}, "gone"], [1, {}, ["nope"]],
    [1, JSON.parse('{"__proto__": [0, {"polluted": true}]}')],
    [1, { constructor: [0, 1] }], [1, { fresh: [1, {}] }], [1, { hand: [2, "AH"] }], [1, { step: [2, [1]] }],
    [1, { hand: [3, -1, {}] }], [1, { hand: [3, 1.5, {}] }], [1, { hand: [3, 1e9, {}] }], [1, { hand: [3, 3, {}] }],
    [1, { hand: [3, 2, { 5: [0, "AH"] }] }], [1, { hand: [3, 2, { "01": [0, "AH"] }] }], [1, { hand: [3, 3, { 2: [1, {}] }] }],
    [1, { bids: [3, 2, { 0: [1, {}] }] }],
  ];
  let deep = [0, 1];
  for (let i = 0; i < 40; i++) deep = [1, { step: deep }];
  bad.push(deep);
  for (const patch of bad) {
    assert.throws(() => applyPatch(held, patch), /not a view patch/, JSON.stringify(patch));
    assert.deepEqual(held, before);
  }
  assert.equal({}.polluted, undefined, "no prototype was touched");
  // the keeper: a patch for a view it does not hold, or whose result is not the host's
  const keeper = new ViewKeeper();
  assert.equal(keeper.take({ n: 1, patch: [1, {}], h: viewHash({}) }), null, "a patch before any view");
  assert.deepEqual(keeper.take({ n: 1, view: held }), held);
  const next = { ...held, step: 4 };
  const patch = diff(held, next);
  assert.equal(keeper.take({ n: 3, patch, h: viewHash(next) }), null, "a gap: view 2 never came");
  assert.equal(keeper.take({ n: 2, patch, h: viewHash({ ...held, step: 5 }) }), null, "another view than the host's");
  assert.equal(keeper.take({ n: 2, patch: [1, { step: [2, [1]] }], h: viewHash(next) }), null, "does not apply");
  assert.equal(keeper.take({ n: 2, patch }), null, "no hash");
  assert.equal(keeper.take({ n: 2, view: "text" }), null);
  assert.equal(keeper.take({ n: 0, view: held }), null);
  assert.deepEqual(keeper.view, held, "the view held is the last good one");
  assert.deepEqual(keeper.take({ n: 2, patch, h: viewHash(next) }), next);
  const mine = keeper.take({ n: 3, patch: diff(next, held), h: viewHash(held) });
  mine.hand.push("2C"); // the page's copy is its own
  assert.deepEqual(keeper.view, held);
  assert.deepEqual(keeper.take({ n: 9, view: next }), next, "a whole view (a sync) starts again from it");
});

test("a whole game of five: every guest and a watcher build exactly the host's views, each message <= 2 KB", async () => {
  const players = 5;
  // seats 1-4 are guests elsewhere, and one friend watches
  const senders = Array.from({ length: players + 1 }, () => new ViewSender());
  const keepers = Array.from({ length: players + 1 }, () => new ViewKeeper());
  const sizes = [];
  const rounds = new Set();
  let seq = 0;
  let patches = 0;
  const final = await playGame({
    players,
    rules: { schedule: [3, 9, 3] }, // the smallest and the largest hands of five
    seed: "viewdiff-5",
    each: ({ kind, action, views, publicView }) => {
      for (let s = 1; s <= players; s++) {
        const view = s < players ? views[s] : publicView;
        const text = encode(kind, { ...(action ? { action } : { how: "round" }), ...senders[s].fields(view) }, ++seq);
        if (kind === "move") sizes.push(Buffer.byteLength(text));
        const read = readHostMessage(text);
        assert.ok(read.ok);
        if ("patch" in read.msg) patches++;
        const built = keepers[s].take(read.msg);
        assert.ok(built, `seat ${s} could not build view ${read.msg.n}`);
        assert.ok(same(built, view), `seat ${s}: the view built is the host's (step ${view.step})`);
        rounds.add(view.round);
      }
    },
  });
  assert.equal(final.phase, "game-over");
  assert.deepEqual([...rounds].sort(), [1, 2, 3]);
  assert.ok(patches > sizes.length * 0.9, "moves travel as patches");
  assert.ok(Math.max(...sizes) <= MAX_MOVE_BYTES, `a move's message is ${Math.max(...sizes)} bytes`);
  assert.equal(JSON.parse(encode("move", {}, 1)).v, PROTOCOL);
});

test("a sync sends the whole view, and the next patch applies to it", () => {
  const sender = new ViewSender();
  const history = Array.from({ length: 20 }, (_, i) => ({ round: i, bids: [1, 2, 3] }));
  const a = { step: 1, hand: ["AS"], history };
  const b = { step: 2, hand: [], history };
  assert.deepEqual(sender.fields(a), { n: 1, view: a });
  assert.ok("patch" in sender.fields(b));
  assert.deepEqual(sender.fields(b, true), { n: 3, view: b });
  const keeper = new ViewKeeper();
  keeper.take({ n: 3, view: b });
  const c = { step: 3, hand: [], history };
  assert.deepEqual(keeper.take(sender.fields(c)), c);
});
