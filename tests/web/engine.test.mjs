// The page's one protocol module (web/js/engine.js): typed methods over a transport, each
// answer unwrapped in one place into {result} or {error}, a transport's failure reported
// as an error (never a rejection), the test hook's `request` rejecting with an
// EngineError; the same methods over the real engine (a CPython process as the
// transport); and no other module of the page naming a request.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { Engine, EngineError } from "../../web/js/engine.js";
import { startEngine } from "./engine-process.mjs";
import { ROOT } from "./engine-info.mjs";

/** A transport that records what is sent and answers with `answer(kind, payload)`. */
function fakeTransport(answer) {
  const sent = [];
  return {
    sent,
    send(kind, payload) {
      sent.push([kind, payload]);
      return Promise.resolve(answer(kind, payload));
    },
  };
}

test("each typed method sends its request and payload", async () => {
  const transport = fakeTransport(() => ({ result: "ok" }));
  const engine = new Engine(transport);
  const source = { record: "{}" };
  const calls = [
    [() => engine.levels(), "levels", {}],
    [() => engine.rules(), "rules", {}],
    [() => engine.newGame({ seed: "s", players: 4, bots: "easy", rules: "jabberwocky" }), "new_game", { seed: "s", players: 4, bots: "easy", rules: "jabberwocky" }],
    [() => engine.newGame({ players: 3, seats: ["human", "human", "easy"], names: ["A", null, null], rules: "jabberwocky" }), "new_game", { players: 3, seats: ["human", "human", "easy"], names: ["A", null, null], rules: "jabberwocky" }],
    [() => engine.playChallenge("jc1.x", ""), "challenge_play", { text: "jc1.x", name: null }],
    [() => engine.playChallenge("jc1.x", "Alex"), "challenge_play", { text: "jc1.x", name: "Alex" }],
    [() => engine.importRecord("{}"), "import_record", { record: "{}" }],
    [() => engine.importRecord("{}", [1, 2]), "import_record", { record: "{}", remote: [1, 2] }],
    [() => engine.resumeSave("{}"), "import_record", { record: "{}", saved: true }],
    [() => engine.resumeSave("{}", [1]), "import_record", { record: "{}", remote: [1], saved: true }],
    [() => engine.seatView(2), "seat_view", { seat: 2 }],
    [() => engine.publicView(), "public_view", {}],
    [() => engine.seatViews([1, 2], true), "seat_views", { seats: [1, 2], public: true }],
    [() => engine.seatBid(1, 0), "seat_bid", { seat: 1, bid: 0 }],
    [() => engine.seatPlay(1, "QH"), "seat_play", { seat: 1, card: "QH" }],
    [() => engine.seatHint(2), "seat_hint", { seat: 2 }],
    [() => engine.seatStandIn(1, "medium"), "seat_stand_in", { seat: 1, level: "medium" }],
    [() => engine.seatStandIn(1, null), "seat_stand_in", { seat: 1, level: null }],
    [() => engine.seatAuto(2), "seat_auto", { seat: 2 }],
    [() => engine.exportRecord(), "export_record", {}],
    [() => engine.bid(2), "bid", { bid: 2 }],
    [() => engine.play("QS"), "play", { card: "QS" }],
    [() => engine.botStep(), "bot_step", {}],
    [() => engine.nextRound(), "next_round", {}],
    [() => engine.claim(), "claim", {}],
    [() => engine.reveal(), "reveal", {}],
    [() => engine.takeBack(), "take_back", {}],
    [() => engine.hint(), "hint", {}],
    [() => engine.challengeOpen("jc1.y"), "challenge_open", { text: "jc1.y" }],
    [() => engine.challengeEncode(null), "challenge_encode", { name: null }],
    [() => engine.challengeCompare(), "challenge_compare", {}],
    [() => engine.review(source), "review", source],
    [() => engine.reviewAnalyse(source, 7), "review_analyse", { record: "{}", step: 7 }],
    [() => engine.reviewSeen(source, 3), "review_seen", { record: "{}", step: 3 }],
    [() => engine.stats({ records: ["{}"] }), "stats", { records: ["{}"] }],
  ];
  for (const [callIt, kind, payload] of calls) {
    transport.sent.length = 0;
    assert.deepEqual(await callIt(), { result: "ok" }, kind);
    assert.deepEqual(transport.sent, [[kind, payload]], kind);
  }
  assert.equal(source.step, undefined, "the review's source is not changed");
});

test("an online host's moves answer its guests' views along (with_views), the rest as before", async () => {
  const views = { views: [{ viewer: 1 }], public: null };
  const transport = fakeTransport((kind, payload) => (kind === "with_views" ? (payload.request === "seat_bid" && payload.payload.bid === 9 ? { error: { kind: "IllegalMoveError", code: "x" } } : { result: { result: "moved", views } }) : { result: "ok" }));
  const engine = new Engine(transport);
  const took = [];
  let wanted = { seats: [1], public: false };
  engine.sendViewsAlong({ wanted: () => wanted, took: (v, kind) => took.push([v, kind]) });
  assert.deepEqual(await engine.play("QS"), { result: "moved" });
  assert.deepEqual(transport.sent.at(-1), ["with_views", { request: "play", payload: { card: "QS" }, seats: [1], public: false }]);
  assert.deepEqual(took, [[views, "play"]]);
  assert.deepEqual(await engine.hint(), { result: "ok" }, "a request that changes nothing goes alone");
  assert.equal((await engine.seatBid(1, 9)).error.kind, "IllegalMoveError", "a refused move: nothing taken");
  assert.equal(took.length, 1);
  wanted = null; // nobody to send views to
  assert.deepEqual(await engine.botStep(), { result: "ok" });
  assert.deepEqual(transport.sent.at(-1), ["bot_step", {}]);
  engine.sendViewsAlong(null);
  wanted = { seats: [1], public: true };
  assert.deepEqual(await engine.nextRound(), { result: "ok" });
  assert.deepEqual(transport.sent.at(-1), ["next_round", {}]);
});

test("an error answer is an outcome's error, with its kind, message and catalogue entry", async () => {
  const error = { kind: "IllegalMoveError", message: "you must follow hearts", code: "move.must_follow", params: { suit: "H" } };
  const engine = new Engine(fakeTransport(() => ({ error })));
  assert.deepEqual(await engine.play("2C"), { error });
  // the test hook's request: the same answer as a rejection with an EngineError
  await assert.rejects(engine.request("play", { card: "2C" }), (err) => {
    assert.ok(err instanceof EngineError);
    assert.equal(err.kind, "IllegalMoveError");
    assert.equal(err.code, "move.must_follow");
    assert.deepEqual(err.params, { suit: "H" });
    assert.equal(err.message, "you must follow hearts");
    return true;
  });
  assert.equal(await engine.request("bid", { bid: 1 }).catch((e) => e.kind), "IllegalMoveError");
});

test("a transport that fails or answers nonsense gives an error, never a rejection", async () => {
  const throwing = new Engine({ send: () => Promise.reject(new EngineError("InternalError", "the engine could not start", "loading.engine_failed", { detail: "x" })) });
  assert.deepEqual(await throwing.hint(), { error: { kind: "InternalError", message: "the engine could not start", code: "loading.engine_failed", params: { detail: "x" } } });
  const synchronous = new Engine({ send: () => { throw new Error("channel closed"); } });
  const { error } = await synchronous.bid(0);
  assert.equal(error.kind, "Error");
  assert.equal(error.message, "channel closed");
  assert.equal(error.code, "internal");
  for (const answer of [null, "text", {}, { id: 3 }]) {
    const odd = await new Engine(fakeTransport(() => answer)).nextRound();
    assert.equal(odd.error?.kind, "InternalError", JSON.stringify(answer));
  }
  // a partial error is completed (a page never reads undefined parameters)
  const partial = await new Engine(fakeTransport(() => ({ error: { message: "no" } }))).claim();
  assert.deepEqual(partial, { error: { kind: "Error", message: "no", code: "internal", params: {} } });
  // a result that is falsy is still a result
  assert.deepEqual(await new Engine(fakeTransport(() => ({ result: null }))).reveal(), { result: null });
});

test("a transport without start-up events still serves: ready at once, no log", async () => {
  const engine = new Engine(fakeTransport(() => ({ result: 1 })));
  assert.deepEqual(await engine.ready, {});
  assert.equal(engine.restoring, false);
  assert.deepEqual(engine.log, []);
  engine.addEventListener("progress", () => {}); // nothing to listen to: no error
});

test("the typed methods over the real engine (a CPython process as the transport)", async () => {
  const process = startEngine();
  after(() => process.stop());
  const engine = new Engine(process);
  const { result: view } = await engine.newGame({ seed: "engine-typed", players: 3, bots: "random", rules: "jabberwocky" });
  assert.equal(view.seed, "engine-typed");
  assert.equal(view.players, 3);
  assert.equal(typeof view.can_challenge, "boolean");
  assert.equal(view.can_challenge, false, "no round is over yet");
  const { error } = await engine.play("not-a-card");
  assert.ok(error, "a card that is not one is refused");
  assert.equal(typeof error.kind, "string");
  assert.equal(typeof error.code, "string");
  const { result: exported } = await engine.exportRecord();
  assert.equal(JSON.parse(exported.record).seed, "engine-typed");
});

/** The engine's request names (its dispatcher's table), asked of the engine itself. */
function requestNames() {
  const python = process.env.JABBERWOCKY_PYTHON || "python3";
  const script = "import json, sys; sys.path.insert(0, 'src'); from jabberwocky.webapi import WebApi; "
    + "print(json.dumps(json.loads(WebApi().handle('no-such-request', '{}'))['error']))";
  const error = JSON.parse(execFileSync(python, ["-c", script], { cwd: ROOT, encoding: "utf8" }));
  return error.params.choices;
}

/** Code only: comments may name a request (the one a module's data answers). */
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'\\])\/\/.*$/gm, "$1");

test("only engine.js names the engine's requests", () => {
  const names = requestNames();
  assert.ok(names.includes("new_game") && names.includes("review_analyse"), names.join(", "));
  // the names of one word ("bid", "review") are words of the page too: the names of two
  // or more, and any call by name, are the protocol's
  const compound = names.filter((n) => n.includes("_"));
  const found = [];
  const walk = (dir) => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "i18n") walk(rel);
      } else if (/\.js$/.test(e.name) && rel !== "web/js/engine.js") {
        const text = code(readFileSync(path.join(ROOT, rel), "utf8"));
        for (const n of compound) if (new RegExp(`["'\`]${n}["'\`]`).test(text)) found.push(`${rel}: "${n}"`);
        if (/\.(call|request|send)\(\s*["'`][a-z_]+["'`]/.test(text)) found.push(`${rel}: a request by name`);
      }
    }
  };
  walk("web/js");
  assert.deepEqual(found, []);
});
