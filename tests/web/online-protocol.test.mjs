// The live table's messages (web/js/online/protocol.js): what a guest may send, the
// limits on it, and the seats' tokens.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  PROTOCOL, MAX_GUEST_CHARS, ROOM_LENGTH, readGuestMessage, readHostMessage, encode,
  RateLimit, Sequence, SeatBook, newRoomCode, isRoomCode, newToken,
} from "../../web/js/online/protocol.js";

const TOKEN = "AAAAAAAAAAAAAAAAAAAAAA";
const msg = (fields) => JSON.stringify({ v: PROTOCOL, s: 1, ...fields });
const code = (text) => readGuestMessage(text).reason?.code;

test("a guest's well-formed messages are read as data", () => {
  assert.deepEqual(readGuestMessage(encode("bid", { n: 2 }, 5)), { ok: true, msg: { v: PROTOCOL, t: "bid", s: 5, n: 2 } });
  assert.equal(readGuestMessage(msg({ t: "play", card: "TD", seat: 1 })).ok, true);
  assert.equal(readGuestMessage(msg({ t: "hello", token: TOKEN, name: "Ada", build: "abc123", watch: false })).ok, true);
  assert.equal(readGuestMessage(msg({ t: "hint" })).ok, true);
  assert.equal(readGuestMessage(msg({ t: "react", r: "nice" })).ok, true);
});

test("garbage, other versions, unknown kinds and fields are refused with a code", () => {
  assert.equal(code(42), "online.refused.not_text");
  assert.equal(code("{not json"), "online.refused.not_json");
  assert.equal(code("[1,2]"), "online.refused.shape");
  assert.equal(code("null"), "online.refused.shape");
  assert.equal(code(JSON.stringify({ v: 1, t: "bid", s: 1, n: 1 })), "online.refused.version", "version 1 (whole views) is another build's");
  assert.equal(code(JSON.stringify({ v: PROTOCOL + 1, t: "bid", s: 1, n: 1 })), "online.refused.version");
  assert.equal(code(msg({ t: "take_back" })), "online.refused.kind");
  assert.equal(code(msg({ t: "__proto__" })), "online.refused.kind");
  assert.equal(code(msg({ t: "constructor" })), "online.refused.kind");
  assert.equal(code(JSON.stringify({ v: PROTOCOL, t: "bid", n: 1 })), "online.refused.sequence");
  assert.equal(code(msg({ t: "bid", s: 0, n: 1 })), "online.refused.sequence");
  assert.equal(code(msg({ t: "bid", s: 1.5, n: 1 })), "online.refused.sequence");
  assert.equal(code(msg({ t: "bid", n: 1, extra: true })), "online.refused.field");
  assert.equal(code(msg({ t: "bid", n: -1 })), "online.refused.field");
  assert.equal(code(msg({ t: "bid", n: "1" })), "online.refused.field");
  assert.equal(code(msg({ t: "bid" })), "online.refused.field");
  assert.equal(code(msg({ t: "play", card: "1S" })), "online.refused.field");
  assert.equal(code(msg({ t: "play", card: "AS", seat: "0" })), "online.refused.field");
  assert.equal(code(msg({ t: "hello", token: "short", build: "x" })), "online.refused.field");
  assert.equal(code(msg({ t: "hello", token: TOKEN, build: "x", name: "n".repeat(25) })), "online.refused.field");
  assert.equal(code(msg({ t: "react", r: "free text" })), "online.refused.field");
  const reason = readGuestMessage(msg({ t: "bid", n: 1, ["x".repeat(40)]: 1 })).reason;
  assert.equal(reason.params.field.length, 16, "a field's name is cut short in the reason");
});

test("a message over the size limit is refused before it is parsed", () => {
  const big = msg({ t: "hint", pad: "x".repeat(MAX_GUEST_CHARS) });
  assert.deepEqual(readGuestMessage(big).reason, { code: "online.refused.too_large", params: { max: MAX_GUEST_CHARS } });
  assert.equal(code("{".repeat(1_000_000)), "online.refused.too_large");
});

test("the host's messages: size, JSON and version are checked", () => {
  assert.equal(readHostMessage(encode("view", { view: {} }, 1)).ok, true);
  assert.equal(readHostMessage(JSON.stringify({ v: 9, t: "view" })).reason.code, "online.refused.version");
  assert.equal(readHostMessage("x").reason.code, "online.refused.not_json");
});

test("the rate limit passes a burst, then the refill rate", () => {
  const limit = new RateLimit(20, 8, 0);
  let passed = 0;
  for (let i = 0; i < 1000; i++) if (limit.take(i)) passed += 1; // 1,000 messages in one second
  assert.ok(passed >= 20 && passed <= 28, `passed ${passed}`);
  assert.equal(limit.take(1000), false);
  assert.equal(limit.take(1200), true, "a token comes back after 1/8 s");
});

test("a sequence number that does not grow is a replay", () => {
  const seq = new Sequence();
  assert.equal(seq.accept(1), true);
  assert.equal(seq.accept(1), false);
  assert.equal(seq.accept(3), true);
  assert.equal(seq.accept(2), false);
  assert.equal(seq.accept(4), true);
});

test("room codes and tokens: long, random, of their alphabet", () => {
  const room = newRoomCode();
  assert.equal(room.length, ROOM_LENGTH);
  assert.ok(isRoomCode(room));
  assert.notEqual(newRoomCode(), room);
  assert.equal(isRoomCode("short"), false);
  assert.equal(isRoomCode(room.toUpperCase()), false);
  const token = newToken();
  assert.match(token, /^[A-Za-z0-9_-]{22}$/);
  assert.notEqual(newToken(), token);
  assert.equal(newRoomCode((a) => a.fill(0)), "a".repeat(ROOM_LENGTH), "the code comes from the random bytes");
});

test("a seat is held by its token: nobody else takes it, its holder gets it back", () => {
  const book = new SeatBook([1, 2]);
  const a = newToken();
  const b = newToken();
  const c = newToken();
  assert.equal(book.claim(a), 1);
  assert.equal(book.claim(b), 2);
  assert.equal(book.claim(c), null, "a full table: the third friend watches");
  assert.equal(book.claim(a), 1, "a reload: the same seat");
  assert.equal(book.claim("not a token"), null);
  assert.deepEqual(book.free(), []);
  const again = SeatBook.fromJSON(JSON.parse(JSON.stringify(book)));
  assert.equal(again.claim(b), 2, "the host's reload keeps the seats' tokens");
  assert.equal(again.claim(c), null);
  again.release(2);
  assert.equal(again.claim(c), 2, "a seat released for good goes to the next friend");
  assert.equal(SeatBook.fromJSON({ open: [1, "x"], holders: [[1, "bad"], [7, a]] }).seatOf(a), 7);
});
