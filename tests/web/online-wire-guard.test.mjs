// The wire's guard (web/js/online/wire-guard.js): frames as Trystero 0.25 writes them, and
// the hostile ones it must refuse before the library reads them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { WireGate, LIMITS, roomToken, isExpectedClose } from "../../web/js/online/wire-guard.js";

const TOKEN = "a".repeat(64);
const enc = new TextEncoder();

/** One Trystero chunk of action `type` in the room of `token`, as the library frames it. */
function frame({ type = "m", nonce = 1, last = true, json = false, meta = false, binary = false, payload = "{}", token = TOKEN } = {}) {
  const body = typeof payload === "string" ? enc.encode(payload) : payload;
  const t = enc.encode(token);
  const out = new Uint8Array(3 + t.length + 36 + body.length);
  out.set([1, t.length >> 8, t.length & 255]);
  out.set(t, 3);
  const a = 3 + t.length;
  out.set(enc.encode(type), a);
  out.set([nonce >> 8, nonce & 255, Number(last) | (Number(meta) << 1) | (Number(binary) << 2) | (Number(json) << 3), 255], a + 32);
  out.set(body, a + 36);
  return out.buffer;
}

function gate(clock = { t: 0 }) {
  return new WireGate({ tokens: [TOKEN], now: () => clock.t });
}

test("a message of ours, whole or in chunks, passes", () => {
  const g = gate();
  assert.deepEqual(g.check(frame({ payload: '{"v":2,"t":"hello"}' })), { ok: true });
  assert.equal(g.check(frame({ nonce: 2, last: false, payload: "x".repeat(3000) })).ok, true);
  assert.equal(g.check(frame({ nonce: 2, last: true, payload: "y".repeat(3000) })).ok, true);
  assert.equal(g.unfinished, 0, "a finished message is no longer counted");
  // Trystero's own JSON actions, checked whole
  assert.equal(g.check(frame({ type: "@_ping", json: true, payload: '""' })).ok, true);
  // a presence frame for this room
  const t = enc.encode(TOKEN);
  const presence = new Uint8Array(4 + t.length);
  presence.set([2, 1, 0, t.length]);
  presence.set(t, 4);
  assert.equal(g.check(presence.buffer).ok, true);
});

test("no envelope, another room, an unknown kind: refused with their codes", () => {
  const g = gate();
  assert.equal(g.check("text").code, "online.refused.wire_envelope");
  assert.equal(g.check(new Uint8Array([1]).buffer).code, "online.refused.wire_envelope");
  assert.equal(g.check(new Uint8Array([9, 0, 1, 65]).buffer).code, "online.refused.wire_envelope");
  assert.equal(g.check(frame({ token: "b".repeat(64) })).code, "online.refused.wire_room");
  assert.equal(g.check(frame({ type: "zz" })).code, "online.refused.wire_kind");
  // our text action never comes as JSON, binary or with metadata
  assert.equal(g.check(frame({ json: true })).code, "online.refused.wire_envelope");
  assert.equal(g.check(frame({ binary: true })).code, "online.refused.wire_envelope");
});

test("a JSON action whose text is not JSON is refused before the library parses it", () => {
  const g = gate();
  assert.equal(g.check(frame({ type: "@_signal", json: true, payload: "{not json" })).code, "online.refused.wire_json");
  assert.equal(g.check(frame({ type: "@_signal", json: true, nonce: 3, last: false, payload: '{"a":' })).ok, true);
  assert.equal(g.check(frame({ type: "@_signal", json: true, nonce: 3, payload: "1}" })).ok, true);
  assert.equal(g.check(frame({ type: "@_hsdata", meta: true, last: false, payload: "{oops" })).code, "online.refused.wire_json");
});

test("a guest's message may not grow past its cap, nor its unfinished ones past theirs", () => {
  const g = gate();
  const chunk = "x".repeat(4000);
  assert.equal(g.check(frame({ nonce: 7, last: false, payload: chunk })).ok, true);
  assert.equal(g.check(frame({ nonce: 7, last: false, payload: chunk })).ok, true);
  const over = g.check(frame({ nonce: 7, last: false, payload: chunk }));
  assert.equal(over.code, "online.refused.wire_message");
  assert.equal(over.params.max, LIMITS.guest.message);
  // refused to its end: its last chunk would make the library put together a piece of it
  assert.equal(g.check(frame({ nonce: 7, last: true, payload: "x" })).code, "online.refused.wire_message");
  assert.equal(g.check(frame({ nonce: 7, last: true, payload: "{}" })).ok, true, "the nonce is free again");
  // many messages left unfinished: the total is bounded
  let refusedAt = null;
  for (let n = 100; n < 200 && refusedAt === null; n += 1) {
    const v = g.check(frame({ nonce: n, last: false, payload: chunk }));
    if (!v.ok) refusedAt = v.code;
  }
  assert.equal(refusedAt, "online.refused.wire_unfinished");
  assert.ok(g.unfinished <= LIMITS.guest.unfinished);
});

test("10 MB of unfinished chunks: at most the cap is let through, then the peer is let go", () => {
  const clock = { t: 0 };
  const g = gate(clock);
  let passed = 0;
  let drop = null;
  const chunk = "z".repeat(16 * 1024 - 200);
  for (let i = 0; i < 640 && drop === null; i += 1) {
    clock.t += 1;
    const v = g.check(frame({ nonce: i & 0xffff, last: false, payload: chunk }));
    if (v.ok) passed += chunk.length;
    if (v.drop) drop = v.code;
  }
  assert.ok(passed <= LIMITS.guest.unfinished, `passed ${passed}`);
  assert.equal(drop, "online.refused.wire_budget");
  const after = g.check(frame());
  assert.equal(after.ok, false, "nothing more from a peer let go");
  assert.equal(after.quiet, true, "and not reported again (it was, once)");
});

test("a frame larger than a chunk is refused; the host's messages may be long once trusted", () => {
  const g = gate();
  assert.equal(g.check(frame({ payload: "x".repeat(LIMITS.frame) })).code, "online.refused.wire_frame");
  const h = gate();
  h.trust();
  for (let i = 0; i < 20; i += 1) assert.equal(h.check(frame({ nonce: 5, last: false, payload: "v".repeat(16000) })).ok, true);
  assert.equal(h.check(frame({ nonce: 5, payload: "v" })).ok, true);
});

test("1,000 frames a second for long is over the budget; a burst of them is not", () => {
  const clock = { t: 0 };
  const g = gate(clock);
  let first = null;
  for (let i = 0; i < 5000 && first === null; i += 1) {
    clock.t = i; // one frame a millisecond
    if (!g.check(frame({ nonce: i & 0xffff, payload: "{}" })).ok) first = i;
  }
  assert.ok(first > 1000, `a burst of 1,000 passes (cut at ${first})`);
  assert.ok(first < 5000, "a flood is cut");
});

test("the room token is the one the pinned Trystero derives", async () => {
  // the library's own file (its package exports only its entry; a path reaches the rest)
  const { deriveRoomNamespace } = await import("../../node_modules/@trystero-p2p/core/dist/crypto.mjs");
  for (const room of ["abc-def-ghi", "room"]) {
    assert.equal(await roomToken("jabberwocky-online-1", room), await deriveRoomNamespace("jabberwocky-online-1", room));
  }
});

test("a channel closed by the other side is no error", () => {
  assert.equal(isExpectedClose({ error: { message: "User-Initiated Abort, reason=Close called", errorDetail: "sctp-failure" } }), true);
  assert.equal(isExpectedClose({ error: { message: "DTLS handshake failed", errorDetail: "dtls-failure" } }), false);
  assert.equal(isExpectedClose({}), false);
});
