// The guard in front of the wire: every frame a peer's data channel delivers passes a check
// of ours before Trystero reads or buffers it.  Trystero puts a message together from
// chunks with no limit of its own, parses a chunk tagged JSON with no guard (a frame that is
// not JSON throws on the page), and keeps data of an unknown action or of another room's
// token for ever; a peer with the link could grow the host's memory without bound.  Here each
// connection has a gate (`WireGate`): a frame's envelope, kind, room and size are read from
// its header (Trystero 0.25's frame: 1 byte version, 2 bytes token length, the room token,
// then 32 bytes action type, 2 nonce, 1 tag, 1 progress, the payload), the bytes of the
// messages being put together are counted, and the peer has a budget of bytes and frames.
// A frame refused never reaches Trystero; a peer over its budget is let go (its connection
// closed).  Every refusal is reported with a reason code (`online.refused.wire_*`), which the
// host counts and logs as it does the protocol's own refusals.
//
// What a peer can make a page hold: the messages it has under way, at most
// `unfinished` bytes (96 KiB from a guest, 1 MiB from the host a guest trusts), plus the
// frame being read.  Nothing else it sends is kept.
//
// `guardedConnections(onFrameRefused)` gives Trystero an RTCPeerConnection class
// (its `rtcPolyfill` option) whose data channels are gated; `dataChannels` lists them
// (the hostile-peer tests write raw frames onto them).  A channel's error that only says
// it was closed (the other page reloaded or left) is no error: it is not passed on (the
// channel's close follows and tells Trystero), so it is not reported as one.

const ROOM_FRAME = 1;
const PRESENCE_FRAME = 2;
const TYPE_BYTES = 32;
const HEADER = 36; // type, nonce (2), tag, progress
const TAG_LAST = 1;
const TAG_META = 2;
const TAG_BINARY = 4;
const TAG_JSON = 8;

/** The kinds of frame a page of ours sends: our one action and Trystero's own. */
export const KINDS = new Set(["m", "@_ping", "@_pong", "@_signal", "@_stream", "@_track", "@_leave", "@_hsdata", "@_hsready"]);

/** The limits by whom the frames come from: a guest (any peer, at first) or the host a
 *  guest has accepted (its messages may be as long as the protocol lets a host's be). */
export const LIMITS = {
  frame: 16 * 1024 + 256, // Trystero's chunks are 16 KiB with the header; the room's token
  guest: { message: 8 * 1024, internal: 64 * 1024, unfinished: 96 * 1024, bytes: 2 * 1024 * 1024, bytesPerS: 256 * 1024, frames: 1500, framesPerS: 300 },
  host: { message: 768 * 1024, internal: 64 * 1024, unfinished: 1024 * 1024, bytes: 8 * 1024 * 1024, bytesPerS: 2 * 1024 * 1024, frames: 3000, framesPerS: 600 },
};

const decoder = new TextDecoder("utf-8", { fatal: false });
const text = (bytes) => decoder.decode(bytes);

/** The room token Trystero derives for `room` of `appId` (its `deriveRoomNamespace`). */
export async function roomToken(appId, room) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`Trystero:${appId}:${room}`));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A token bucket: `size` at most, `perS` back each second. */
class Bucket {
  constructor(size, perS, now) {
    this.size = size;
    this.perS = perS;
    this.left = size;
    this.at = now;
  }

  take(n, now) {
    this.left = Math.min(this.size, this.left + ((now - this.at) / 1000) * this.perS);
    this.at = now;
    if (this.left < n) return false;
    this.left -= n;
    return true;
  }
}

/** One connection's gate.  `check(data)` answers {ok: true} or {ok: false, code, drop}. */
export class WireGate {
  constructor({ tokens, now = () => performance.now() }) {
    this.tokens = tokens; // the room tokens of this page's rooms (one per network)
    this.now = now;
    this.trusted = false;
    this.limits = LIMITS.guest;
    const t = now();
    this.bytes = new Bucket(this.limits.bytes, this.limits.bytesPerS, t);
    this.frames = new Bucket(this.limits.frames, this.limits.framesPerS, t);
    this.underway = new Map(); // "type nonce" -> {bytes, json: [chunks] | null}
    this.unfinished = 0;
    this.dropped = false;
  }

  /** The host's connection, once a guest has accepted it: the host's limits. */
  trust() {
    if (this.trusted) return;
    this.trusted = true;
    this.limits = LIMITS.host;
    this.bytes.size = this.limits.bytes;
    this.bytes.perS = this.limits.bytesPerS;
    this.frames.size = this.limits.frames;
    this.frames.perS = this.limits.framesPerS;
  }

  check(data) {
    // a peer let go: what it still sends before its connection is closed is dropped
    // unreported (it was counted once, when it went over its budget)
    if (this.dropped) return { ok: false, code: "online.refused.wire_budget", drop: false, quiet: true };
    const size = data instanceof ArrayBuffer ? data.byteLength : typeof data === "string" ? data.length : 0;
    const now = this.now();
    if (!this.frames.take(1, now) || !this.bytes.take(size, now)) {
      this.dropped = true;
      return { ok: false, code: "online.refused.wire_budget", drop: true };
    }
    if (!(data instanceof ArrayBuffer)) return refused("online.refused.wire_envelope");
    if (size > LIMITS.frame) return refused("online.refused.wire_frame", { max: LIMITS.frame });
    const bytes = new Uint8Array(data);
    if (bytes.length < 3 || (bytes[0] !== ROOM_FRAME && bytes[0] !== PRESENCE_FRAME)) return refused("online.refused.wire_envelope");
    const presence = bytes[0] === PRESENCE_FRAME;
    const start = presence ? 4 : 3;
    const tokenSize = presence ? (bytes[2] << 8) | bytes[3] : (bytes[1] << 8) | bytes[2];
    if (tokenSize <= 0 || bytes.length < start + tokenSize) return refused("online.refused.wire_envelope");
    if (!this.tokens.includes(text(bytes.subarray(start, start + tokenSize)))) return refused("online.refused.wire_room");
    if (presence) return bytes.length === start + tokenSize ? { ok: true } : refused("online.refused.wire_envelope");
    return this.action(bytes.subarray(start + tokenSize));
  }

  /** An action's chunk (the room's header read): its kind, its tag and what it adds. */
  action(frame) {
    if (frame.length < HEADER) return refused("online.refused.wire_envelope");
    const type = text(frame.subarray(0, TYPE_BYTES)).replaceAll("\0", "");
    if (!KINDS.has(type)) return refused("online.refused.wire_kind");
    const nonce = (frame[TYPE_BYTES] << 8) | frame[TYPE_BYTES + 1];
    const tag = frame[TYPE_BYTES + 2];
    const payload = frame.subarray(HEADER);
    const json = Boolean(tag & TAG_JSON) || Boolean(tag & TAG_META);
    // our own messages are text, never JSON, binary or with metadata
    if (type === "m" && (tag & (TAG_META | TAG_BINARY | TAG_JSON))) return refused("online.refused.wire_envelope");
    if (tag & TAG_META) {
      // metadata is one chunk of JSON that Trystero parses at once
      if (!isJson(payload)) return refused("online.refused.wire_json");
      return this.add(`${type} ${nonce}`, payload, false, null, type);
    }
    return this.add(`${type} ${nonce}`, payload, Boolean(tag & TAG_LAST), json ? payload : null, type);
  }

  /** Count `payload` into the message `key` under way; on its last chunk, a JSON message
   *  must parse (else its last chunk is refused, and what came of it stays counted: the
   *  library keeps it). */
  add(key, payload, last, jsonChunk, type) {
    const entry = this.underway.get(key) ?? { bytes: 0, json: jsonChunk ? [] : null, refused: null };
    // a message refused once is refused to its end (its last chunk too: the library would
    // put together what it was let through), then forgotten; what of it the library
    // holds stays counted
    if (entry.refused) {
      if (last) this.underway.delete(key);
      return entry.refused;
    }
    const refuse = (verdict) => {
      if (!last) {
        entry.refused = verdict;
        this.underway.set(key, entry);
      }
      return verdict;
    };
    const cap = type === "m" ? this.limits.message : this.limits.internal;
    if (entry.bytes + payload.length > cap) return refuse(refused("online.refused.wire_message", { max: cap }));
    if (!last && this.unfinished + payload.length > this.limits.unfinished) return refuse(refused("online.refused.wire_unfinished"));
    if (last && entry.json) {
      const whole = new Uint8Array(entry.bytes + payload.length);
      let at = 0;
      for (const c of [...entry.json, payload]) {
        whole.set(c, at);
        at += c.length;
      }
      if (!isJson(whole)) {
        this.underway.delete(key);
        return refused("online.refused.wire_json");
      }
    }
    if (last) {
      this.unfinished -= entry.bytes;
      this.underway.delete(key);
      return { ok: true };
    }
    entry.bytes += payload.length;
    if (entry.json) entry.json.push(payload.slice());
    this.unfinished += payload.length;
    this.underway.set(key, entry);
    return { ok: true };
  }
}

function refused(code, params = {}) {
  return { ok: false, code, params, drop: false };
}

function isJson(bytes) {
  try {
    JSON.parse(text(bytes));
    return true;
  } catch {
    return false;
  }
}

/** A channel's error event that only says the channel was closed (the other side
 *  reloaded, left or closed it): an expected end, not an error. */
export function isExpectedClose(event) {
  const error = event?.error;
  const words = `${error?.message ?? ""} ${error?.errorDetail ?? ""}`;
  return /User-Initiated Abort|reason=Close called/i.test(words);
}

const ONMESSAGE = () => Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onmessage");
const ONERROR = () => Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onerror");

/** Put `gate` in front of `channel`'s messages (and keep expected closes from its errors). */
function gateChannel(channel, gate, report) {
  const message = ONMESSAGE();
  const error = ONERROR();
  let onMessage = null;
  let onError = null;
  Object.defineProperty(channel, "onmessage", {
    configurable: true,
    get: () => onMessage,
    set(fn) {
      onMessage = fn;
      message.set.call(channel, fn ? (event) => {
        const verdict = gate.check(event.data);
        if (verdict.ok) fn.call(channel, event);
        else report(verdict);
      } : null);
    },
  });
  Object.defineProperty(channel, "onerror", {
    configurable: true,
    get: () => onError,
    set(fn) {
      onError = fn;
      error.set.call(channel, fn ? (event) => {
        if (!isExpectedClose(event)) fn.call(channel, event);
      } : null);
    },
  });
}

/**
 * An RTCPeerConnection class for Trystero (`rtcPolyfill`) whose data channels are gated.
 * `tokens()`: this page's room tokens; `onRefused(verdict, connection)`: a frame refused
 * (with `verdict.drop`, the connection is closed here first); `onState(state, connection,
 * detail)`: the connection's state changed, or an ICE server complained
 * ("candidate-error", detail {url, code}).
 */
export function guardedConnections({ tokens, onRefused, onState = () => {}, Native = globalThis.RTCPeerConnection }) {
  return class GuardedPeerConnection extends Native {
    constructor(...args) {
      super(...args);
      // how the connection goes: "connecting", "connected", "failed"…, and a TURN or STUN
      // server's complaint ("candidate-error" with its address and code: 401 is a TURN
      // server refusing the user name or password)
      this.addEventListener?.("connectionstatechange", () => onState(this.connectionState, this, {}));
      this.addEventListener?.("icecandidateerror", (e) => onState("candidate-error", this, { url: String(e.url || ""), code: Number(e.errorCode) || 0 }));
      this.gate = new WireGate({ tokens: tokens() });
      this.dataChannels = [];
      const report = (verdict) => {
        if (verdict.drop) this.letGo();
        if (!verdict.quiet) onRefused(verdict, this);
      };
      this.watch = (channel) => {
        this.dataChannels.push(channel);
        gateChannel(channel, this.gate, report);
        return channel;
      };
      // the answering side's channel arrives by event: gated before Trystero sees it
      const proto = Object.getOwnPropertyDescriptor(Native.prototype, "ondatachannel");
      let handler = null;
      Object.defineProperty(this, "ondatachannel", {
        configurable: true,
        get: () => handler,
        set: (fn) => {
          handler = fn;
          proto.set.call(this, fn ? (event) => {
            this.watch(event.channel);
            fn.call(this, event);
          } : null);
        },
      });
    }

    createDataChannel(...args) {
      return this.watch(super.createDataChannel(...args));
    }

    /** Close this connection: its channels first (Trystero hears the close), then it. */
    letGo() {
      for (const channel of this.dataChannels) {
        try {
          channel.close();
        } catch { /* closed already */ }
      }
      setTimeout(() => {
        try {
          this.close();
        } catch { /* closed already */ }
      }, 200);
    }
  };
}
