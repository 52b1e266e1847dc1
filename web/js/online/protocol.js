// The messages of a live table between browsers (docs/online.md): version 2.  Pure
// functions, no page and no network, unit-tested with node --test.
//
// Every message is one JSON text: {v: PROTOCOL, t: kind, s: sequence, ...fields}.  What a
// guest sends is untrusted: the host reads it with `readGuestMessage`, which checks the
// size before it parses, then the kind, every field's type and range, and no field it
// does not know; `RateLimit` (a token bucket) and `Sequence` (replays) stand beside it.
// A refusal is a code from the catalogues ("online.refused.*"), never a sentence.

export const PROTOCOL = 2; // 2: views travel as patches (viewdiff.js)

/** The most characters a guest's message may have (a hello with a name is ~200). */
export const MAX_GUEST_CHARS = 2048;
/** The most characters a host's message may have (a whole record is ~30 KB). */
export const MAX_HOST_CHARS = 512 * 1024;
/** A name's most characters (as the New game dialog's names). */
export const MAX_NAME = 24;
/** Characters of a room code: 20 from a 32-letter alphabet, 100 bits. */
export const ROOM_LENGTH = 20;
const ROOM_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"; // no l, o, 0, 1
const ROOM_RE = new RegExp(`^[${ROOM_ALPHABET}]{${ROOM_LENGTH}}$`);
/** A seat token: 16 random bytes as base64url (22 characters, 128 bits). */
const TOKEN_RE = /^[A-Za-z0-9_-]{22}$/;
const CARD_RE = /^[2-9TJQKA][CDHS]$/;
const BUILD_RE = /^[A-Za-z0-9._-]{1,64}$/;
/** The reactions a player may send (their words: the catalogues' "online.reaction.*"). */
export const REACTIONS = ["nice", "oops", "wow", "thinking", "gg"];

const isInt = (x, lo, hi) => Number.isInteger(x) && x >= lo && x <= hi;
const isText = (x, max) => typeof x === "string" && x.length <= max;

/** Each kind a guest may send: its fields (beyond v, t, s) and their checks; `seat`, where
 *  allowed, must be the sender's own (the host checks that, it is not the schema's). */
const GUEST_KINDS = {
  hello: { token: (x) => typeof x === "string" && TOKEN_RE.test(x), name: (x) => isText(x, MAX_NAME), build: (x) => typeof x === "string" && BUILD_RE.test(x), watch: (x) => typeof x === "boolean" },
  bid: { n: (x) => isInt(x, 0, 52), seat: (x) => isInt(x, 0, 9) },
  play: { card: (x) => typeof x === "string" && CARD_RE.test(x), seat: (x) => isInt(x, 0, 9) },
  hint: {},
  react: { r: (x) => REACTIONS.includes(x) },
  sync: {},
  bye: {},
  // one who watches takes a seat a bot stands in for (a friend who left): host.js checks it
  take: { seat: (x) => isInt(x, 0, 9) },
};
/** Fields a kind must have (the others are optional). */
const REQUIRED = { hello: ["token", "build"], bid: ["n"], play: ["card"], react: ["r"], take: ["seat"] };

export const refusal = (code, params = {}) => ({ code, params });

/**
 * A guest's message as data, or a refusal: {ok: true, msg} or {ok: false, reason}.
 * `text` must be a string of at most MAX_GUEST_CHARS characters, the JSON of an object
 * with v = PROTOCOL, a known t, a sequence number s, and only the fields of its kind.
 */
export function readGuestMessage(text) {
  if (typeof text !== "string") return { ok: false, reason: refusal("online.refused.not_text") };
  if (text.length > MAX_GUEST_CHARS) return { ok: false, reason: refusal("online.refused.too_large", { max: MAX_GUEST_CHARS }) };
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    return { ok: false, reason: refusal("online.refused.not_json") };
  }
  if (!msg || typeof msg !== "object" || Array.isArray(msg)) return { ok: false, reason: refusal("online.refused.shape") };
  if (msg.v !== PROTOCOL) return { ok: false, reason: refusal("online.refused.version", { theirs: String(msg.v).slice(0, 8), ours: PROTOCOL }) };
  const fields = Object.hasOwn(GUEST_KINDS, msg.t) ? GUEST_KINDS[msg.t] : null;
  if (!fields) return { ok: false, reason: refusal("online.refused.kind") };
  if (!isInt(msg.s, 1, Number.MAX_SAFE_INTEGER)) return { ok: false, reason: refusal("online.refused.sequence") };
  for (const [key, value] of Object.entries(msg)) {
    if (key === "v" || key === "t" || key === "s") continue;
    if (!Object.hasOwn(fields, key) || !fields[key](value)) return { ok: false, reason: refusal("online.refused.field", { field: key.slice(0, 16) }) };
  }
  for (const key of REQUIRED[msg.t] || []) {
    if (!(key in msg)) return { ok: false, reason: refusal("online.refused.field", { field: key }) };
  }
  return { ok: true, msg };
}

/** A message as text (the sender numbers it). */
export function encode(kind, fields, seq) {
  return JSON.stringify({ v: PROTOCOL, t: kind, s: seq, ...fields });
}

/** A host's message as data (the guest trusts its host, but not the wire: size, JSON,
 *  version); {ok, msg} or {ok: false, reason}. */
export function readHostMessage(text) {
  if (typeof text !== "string" || text.length > MAX_HOST_CHARS) return { ok: false, reason: refusal("online.refused.too_large", { max: MAX_HOST_CHARS }) };
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    return { ok: false, reason: refusal("online.refused.not_json") };
  }
  if (!msg || typeof msg !== "object" || typeof msg.t !== "string") return { ok: false, reason: refusal("online.refused.shape") };
  if (msg.v !== PROTOCOL) return { ok: false, reason: refusal("online.refused.version", { theirs: String(msg.v).slice(0, 8), ours: PROTOCOL }) };
  return { ok: true, msg };
}

/**
 * A token bucket: `capacity` messages at once, refilled at `perSecond`; `take(now)` is
 * true when a message may pass (and spends a token).  `now` in milliseconds.
 */
export class RateLimit {
  constructor(capacity = 20, perSecond = 8, now = 0) {
    this.capacity = capacity;
    this.perSecond = perSecond;
    this.tokens = capacity;
    this.at = now;
  }

  take(now) {
    const elapsed = Math.max(0, now - this.at) / 1000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** A sender's sequence numbers must grow: a message numbered like one before it is a
 *  replay (or a message repeated) and is refused. */
export class Sequence {
  constructor() {
    this.last = 0;
  }

  accept(seq) {
    if (!(seq > this.last)) return false;
    this.last = seq;
    return true;
  }
}

// -- room codes and seat tokens --------------------------------------------------------

/** `n` random bytes (crypto.getRandomValues, or the `random` given by tests). */
function bytes(n, random) {
  const out = new Uint8Array(n);
  (random || ((a) => globalThis.crypto.getRandomValues(a)))(out);
  return out;
}

/** A new room code: ROOM_LENGTH letters of ROOM_ALPHABET (100 random bits). */
export function newRoomCode(random) {
  return Array.from(bytes(ROOM_LENGTH, random), (b) => ROOM_ALPHABET[b & 31]).join("");
}

export const isRoomCode = (text) => typeof text === "string" && ROOM_RE.test(text);

/** A new seat token: 16 random bytes, base64url. */
export function newToken(random) {
  const b = bytes(16, random);
  let bin = "";
  for (const x of b) bin += String.fromCharCode(x);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The host's seats for friends: which token holds which seat.  `claim(token, want)`
 * gives the seat the token already holds, else the first free friend seat in `open`
 * (or null: the table is full, the guest watches).  Another token never gets a seat that
 * is held: a seat changes hands only through `release` (the host gave it to a bot for
 * good) — a bot standing in keeps the seat for its token.
 */
export class SeatBook {
  constructor(open = []) {
    this.open = [...open];
    this.holders = new Map(); // seat -> token
  }

  seatOf(token) {
    for (const [seat, held] of this.holders) if (held === token) return seat;
    return null;
  }

  claim(token) {
    if (typeof token !== "string" || !TOKEN_RE.test(token)) return null;
    const held = this.seatOf(token);
    if (held !== null) return held;
    const free = this.open.find((s) => !this.holders.has(s));
    if (free === undefined) return null;
    this.holders.set(free, token);
    return free;
  }

  release(seat) {
    this.holders.delete(seat);
  }

  /** Seats no token holds (the host's Start makes them bots). */
  free() {
    return this.open.filter((s) => !this.holders.has(s));
  }

  toJSON() {
    return { open: this.open, holders: [...this.holders] };
  }

  static fromJSON(data) {
    const book = new SeatBook(Array.isArray(data?.open) ? data.open.filter((s) => isInt(s, 0, 9)) : []);
    for (const entry of Array.isArray(data?.holders) ? data.holders : []) {
      if (Array.isArray(entry) && isInt(entry[0], 0, 9) && TOKEN_RE.test(entry[1])) book.holders.set(entry[0], entry[1]);
    }
    return book;
  }
}
