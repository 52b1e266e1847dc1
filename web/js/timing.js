// How long things take on screen: the pauses and card flights, scaled by the speed the
// player chose.  Reduced motion and "instant" mean no movement (factor 0), never less
// information: what a flight would have shown is shown in place.

export const SPEEDS = { slow: 1.7, normal: 1, fast: 0.45, instant: 0 };
export const SPEED_NAMES = Object.keys(SPEEDS);

// readable: how long (ms) a finished trick stays when nothing moves (reduced motion,
// "instant"): no movement must not mean no information.
export const TIMING = { botPause: 520, fly: 280, hold: 850, collect: 320, dealEach: 45, dealFly: 240, readable: 1500 };

const READABLE_KEY = "jabberwocky.readableMs"; // tests shorten the hold (docs/web-protocol.md)

/** How long a finished trick stays when nothing moves (ms). */
export function readableMs() {
  try {
    const ms = Number(globalThis.localStorage?.getItem(READABLE_KEY));
    return ms >= 0 && localStorage.getItem(READABLE_KEY) !== null ? ms : TIMING.readable;
  } catch {
    return TIMING.readable;
  }
}

/** The multiplier of every pause and flight: 0 when motion is reduced or speed is instant. */
export function speedFactor(speed, reducedMotion) {
  if (reducedMotion) return 0;
  return SPEEDS[speed] ?? SPEEDS.normal;
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
