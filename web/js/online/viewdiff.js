// What changed in a seat's view since the last one a guest was sent (docs/online.md, "The
// protocol"): a move changes a few fields of a view of ~2-4 KB (a bid, a card moved from a
// hand to the trick, the step, whose turn), so the host sends the change and the guest
// builds the new view from the one it holds.  Pure functions, no page, unit-tested with
// node --test over the real engine's views.
//
// A patch is JSON, a tagged array per node:
//   [0, value]                    the node is `value` (a whole new value)
//   [1, {key: patch, ...}, [keys]] an object: these keys patched or added, those removed
//   [2, [items]]                  an array: these items appended (the rest as it was)
//   [3, length, {index: patch}]   an array cut (or kept) to `length`, these items patched
// `diff` picks, node by node, whichever of a whole value and a patch is shorter as JSON.
//
// The guest trusts its host but not the wire: `applyPatch` refuses (throws) anything that
// is not a patch of this form against the view it holds (a tag it does not know, an index
// out of range, a key such as "__proto__", a patch deeper than a view), and the result
// must hash (`viewHash`, over the view's canonical JSON) to the host's: else the guest asks
// for the whole view again (`sync`).

const REPLACE = 0;
const OBJECT = 1;
const APPEND = 2;
const ARRAY = 3;
/** A view is a few levels deep (history -> round -> bids); a patch deeper is refused. */
const MAX_DEPTH = 16;
const BAD_KEYS = new Set(["__proto__", "constructor", "prototype"]);

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const size = (x) => JSON.stringify(x).length;

/** True when `a` and `b` are the same JSON value. */
export function same(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const k of keys) if (!Object.hasOwn(b, k) || !same(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** A patch that turns `prev` into `next` (both JSON values), or undefined when they are
 *  the same. */
export function diff(prev, next) {
  if (same(prev, next)) return undefined;
  const whole = [REPLACE, next];
  let patch = null;
  if (isObject(prev) && isObject(next)) {
    const changed = {};
    for (const k of Object.keys(next)) {
      const p = Object.hasOwn(prev, k) ? diff(prev[k], next[k]) : [REPLACE, next[k]];
      if (p !== undefined) changed[k] = p;
    }
    const gone = Object.keys(prev).filter((k) => !Object.hasOwn(next, k));
    patch = gone.length ? [OBJECT, changed, gone] : [OBJECT, changed];
  } else if (Array.isArray(prev) && Array.isArray(next)) {
    const common = Math.min(prev.length, next.length);
    let prefix = 0;
    while (prefix < common && same(prev[prefix], next[prefix])) prefix++;
    if (prefix === prev.length) {
      patch = [APPEND, next.slice(prefix)];
    } else {
      const changed = {};
      for (let i = 0; i < next.length; i++) {
        const p = i < prev.length ? diff(prev[i], next[i]) : [REPLACE, next[i]];
        if (p !== undefined) changed[i] = p;
      }
      patch = [ARRAY, next.length, changed];
    }
  }
  return patch && size(patch) < size(whole) ? patch : whole;
}

function refuse(what) {
  throw new Error(`not a view patch: ${what}`);
}

function checkKey(key) {
  if (BAD_KEYS.has(key)) refuse(`key ${key}`);
}

/** A copy of the JSON value `x` (a guest never shares its own copy of a view). */
export const copy = (x) => (x === null || typeof x !== "object" ? x : JSON.parse(JSON.stringify(x)));

/**
 * `prev` with `patch` applied: a new value (`prev` is not changed; unchanged parts are
 * shared with it).  Throws on anything that is not a patch of `prev`.
 */
export function applyPatch(prev, patch, depth = 0) {
  if (depth > MAX_DEPTH) refuse("too deep");
  if (!Array.isArray(patch)) refuse("node");
  const [tag] = patch;
  if (tag === REPLACE) {
    if (patch.length !== 2) refuse("replace");
    return copy(patch[1]);
  }
  if (tag === OBJECT) {
    const [, changed, gone = []] = patch;
    if (!isObject(prev) || !isObject(changed) || !Array.isArray(gone) || patch.length > 3) refuse("object");
    const out = { ...prev };
    for (const key of gone) {
      if (typeof key !== "string" || !Object.hasOwn(out, key)) refuse("removed key");
      delete out[key];
    }
    for (const [key, p] of Object.entries(changed)) {
      checkKey(key);
      // a key not there before can only be given whole
      if (!Object.hasOwn(out, key) && !(Array.isArray(p) && p[0] === REPLACE)) refuse("new key");
      Object.defineProperty(out, key, { value: applyPatch(out[key], p, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (tag === APPEND) {
    const [, items] = patch;
    if (!Array.isArray(prev) || !Array.isArray(items) || patch.length !== 2) refuse("append");
    return [...prev, ...copy(items)];
  }
  if (tag === ARRAY) {
    const [, length, changed] = patch;
    if (!Array.isArray(prev) || !Number.isInteger(length) || length < 0 || !isObject(changed) || patch.length !== 3) refuse("array");
    // an array grows by at most its patched items (a view's arrays are a few dozen long)
    if (length > prev.length + Object.keys(changed).length) refuse("length");
    const out = prev.slice(0, length);
    for (const [key, p] of Object.entries(changed)) {
      const i = Number(key);
      if (!/^(0|[1-9][0-9]*)$/.test(key) || i >= length) refuse("index");
      if (i >= prev.length && !(Array.isArray(p) && p[0] === REPLACE)) refuse("new item");
      out[i] = applyPatch(i < prev.length ? prev[i] : undefined, p, depth + 1);
    }
    for (let i = 0; i < length; i++) if (!(i in out)) refuse("hole");
    return out;
  }
  return refuse("tag");
}

/** The view's JSON with every object's keys in order: the same text for the same value
 *  whatever order its keys were built in. */
export function canonical(x) {
  if (Array.isArray(x)) return `[${x.map(canonical).join(",")}]`;
  if (isObject(x)) return `{${Object.keys(x).sort().map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`).join(",")}}`;
  return JSON.stringify(x) ?? "null";
}

/** A 52-bit hash of the value's canonical JSON (two FNV-1a 32-bit hashes, other seeds), as
 *  13 hex digits: a check that the guest built exactly the host's view, not a secret. */
export function viewHash(x) {
  const text = canonical(x);
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x0100019d);
  }
  return ((a >>> 0).toString(16).padStart(8, "0") + ((b >>> 0) & 0xfffff).toString(16).padStart(5, "0"));
}

/**
 * The host's side, one per guest: the view fields of the next message to it ({n, view}
 * whole, or {n, patch, h} against view n - 1), numbered 1, 2, … in the order they are
 * sent.  `whole`: the whole view whatever it changed (a sync).  The views given must not be
 * changed afterwards (the engine's answers are fresh objects).
 */
export class ViewSender {
  constructor() {
    this.n = 0;
    this.view = null;
  }

  fields(view, whole = false) {
    const prev = this.view;
    this.n += 1;
    this.view = view;
    if (!whole && prev !== null) {
      const patch = diff(prev, view) ?? [OBJECT, {}];
      if (size(patch) < size(view)) return { n: this.n, patch, h: viewHash(view) };
    }
    return { n: this.n, view };
  }
}

/**
 * The guest's side: the view it holds and its number.  `take(msg)` answers the view a
 * host's message carries (a copy, the guest's to keep), or null when it cannot be built:
 * a patch for another view than the one held (a message lost or out of order), a patch
 * that does not apply, or one whose result is not the host's (its hash): the guest asks
 * for the whole view (`sync`) and holds the view it had until it comes.
 */
export class ViewKeeper {
  constructor() {
    this.n = 0;
    this.view = null;
  }

  take(msg) {
    if (!Number.isSafeInteger(msg.n) || msg.n < 1) return null;
    if (Object.hasOwn(msg, "view")) {
      if (!isObject(msg.view) || Object.hasOwn(msg, "patch")) return null;
      this.view = copy(msg.view);
      this.n = msg.n;
      return copy(this.view);
    }
    if (!Object.hasOwn(msg, "patch") || this.view === null || msg.n !== this.n + 1 || typeof msg.h !== "string") return null;
    let next;
    try {
      next = applyPatch(this.view, msg.patch);
    } catch {
      return null;
    }
    if (!isObject(next) || viewHash(next) !== msg.h) return null;
    this.view = next;
    this.n = msg.n;
    return copy(next);
  }
}
