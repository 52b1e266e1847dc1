// How long things take on screen: the pauses and card flights, scaled by the speed the
// player chose.  Reduced motion and "instant" mean no movement (factor 0), never less
// information: what a flight would have shown is shown in place.  Reduced motion keeps
// the pauses (the rhythm of turns: who played what, in order); only "instant" drops them.

export const SPEEDS = { slow: 1.7, normal: 1, fast: 0.45, instant: 0 };
export const SPEED_NAMES = Object.keys(SPEEDS);

// hold + holdPerCard × cards: how long a finished trick stays before it is collected (at
// normal speed; a trick of five needs longer than one of three).  readable: at least this
// long (ms) when nothing moves (reduced motion, "instant"): no movement must not mean no
// information.
export const TIMING = { botPause: 520, fly: 280, hold: 700, holdPerCard: 220, collect: 320, dealEach: 45, dealFly: 240, readable: 1500 };

// Tests shorten these (docs/web-protocol.md): the hold of a finished trick and the beat
// before a bot's move, both when nothing moves.
const READABLE_KEY = "jabberwocky.readableMs";
const BEAT_KEY = "jabberwocky.beatMs";

/** A number of ms kept under `key` in localStorage (a test's), else `fallback`. */
function storedMs(key, fallback) {
  try {
    const kept = globalThis.localStorage?.getItem(key);
    const ms = Number(kept);
    return kept !== null && kept !== undefined && ms >= 0 ? ms : fallback;
  } catch {
    return fallback;
  }
}

/** How long (ms) a finished trick of `cards` cards stays, at pause factor `f` > 0. */
export function holdMs(cards, f) {
  return Math.max((TIMING.hold + TIMING.holdPerCard * cards) * f, 600);
}

/** How long a finished trick (of `cards` cards) stays when nothing moves (ms). */
export function readableMs(cards = 0) {
  return storedMs(READABLE_KEY, Math.max(TIMING.readable, holdMs(cards, 1)));
}

/** The multiplier of every pause and flight: 0 when motion is reduced or speed is instant. */
export function speedFactor(speed, reducedMotion) {
  if (reducedMotion) return 0;
  return SPEEDS[speed] ?? SPEEDS.normal;
}

/** How long (ms) the table waits before a bot's move.  Reduced motion keeps that beat
 *  (and adds the flight's time it no longer shows), so the bots' cards still arrive one
 *  by one at the rhythm they have with motion; only the "instant" speed removes it. */
export function botPauseMs(speed, reducedMotion) {
  const f = SPEEDS[speed] ?? SPEEDS.normal;
  if (!reducedMotion || !(f > 0)) return TIMING.botPause * f;
  return storedMs(BEAT_KEY, (TIMING.botPause + TIMING.fly) * f);
}

/** A pause that ends early when `signal` aborts (a new game, a take-over). */
export function pause(ms, signal) {
  if (!(ms > 0) || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
