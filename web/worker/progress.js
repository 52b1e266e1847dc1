// The engine worker's progress: bytes downloaded and the boot steps, reported to the page
// as {type: "progress", payload: {fraction, key, params}} (key: a catalogue entry), and the
// time of each step (sent with "ready").
//
// Shares of the bar: downloads (bytes counted) up to 0.6, the WebAssembly module compiled
// 0.75, Python started 0.9, the engine imported 0.97, ready 1.

export const started = performance.now();
export const timings = {}; // boot step -> ms since the worker started
export const DOWNLOAD_SHARE = 0.6;

const tracked = new Map(); // key -> {loaded, total, exact}
let lastFraction = 0;
let lastPost = { at: -Infinity, fraction: -1, key: "" };
let buildInfo = null; // build.json once it has arrived: its sizes stand in for content-lengths

export function mark(step) {
  timings[step] = Math.round(performance.now() - started);
}

export const fraction = () => lastFraction;

/** Report `fraction` (0..1) with the catalogue entry `key`. */
export function progress(f, key, params = {}) {
  lastFraction = Math.max(lastFraction, Math.min(1, f));
  // Downloads report every chunk; the page (and the CPU Python is starting on) needs a
  // new bar only when it moved a percent or 50 ms passed, or the words changed.
  const now = performance.now();
  if (key === lastPost.key && lastFraction < 1 && lastFraction - lastPost.fraction < 0.01 && now - lastPost.at < 50) return;
  lastPost = { at: now, fraction: lastFraction, key };
  self.postMessage({ type: "progress", payload: { fraction: lastFraction, key, params } });
}

function infoSize(key, compressed = false) {
  if (!buildInfo) return 0;
  const path = `pyodide/${key}${compressed ? ".br" : ""}`;
  return (buildInfo.sizes ?? {})[path] ?? 0;
}

export const isTracked = (key) => tracked.has(key);

export function expectBytes(key) {
  if (!tracked.has(key)) tracked.set(key, { loaded: 0, total: Math.max(1, infoSize(key)), exact: false });
}

/**
 * Count `key`'s download as the brotli file it travels as (a first visit's, see
 * worker/brotli.js: `pyodide/<key>.br`, its size from build.json), not as the bytes it
 * decodes to, so the bar's megabytes are those on the wire.  Returns the counter of
 * those bytes; the decoded response is not counted again (site-cache.js).
 */
export function expectCompressed(key) {
  expectBytes(key);
  const entry = tracked.get(key);
  entry.compressed = true;
  entry.total = Math.max(1, infoSize(key, true), entry.loaded);
  return (n) => countBytes(key, n);
}

/** build.json's sizes stand in until a response's content-length says better. */
export function knowSizes(info) {
  buildInfo = info;
  for (const [key, entry] of tracked) {
    const size = infoSize(key, entry.compressed);
    if (!entry.exact && size > 0) entry.total = Math.max(size, entry.loaded);
  }
}

export function exactBytes(key, length) {
  const entry = tracked.get(key);
  if (entry && length > 0) {
    entry.total = length;
    entry.exact = true;
  }
}

export function countBytes(key, n) {
  const entry = tracked.get(key);
  if (!entry) return;
  entry.loaded += n;
  if (!buildInfo) return; // a first visit's early bytes: the bar waits for the sizes
  let loaded = 0;
  let total = 0;
  for (const e of tracked.values()) {
    loaded += Math.min(e.loaded, e.total);
    total += e.total;
  }
  // The last chunks can arrive after the module is compiled: the bar has moved on to
  // "loading.starting_python" ("Setting up the table…") by then, and its words stay.
  if (lastFraction > DOWNLOAD_SHARE) return;
  // Every byte in: the words move on at once ("3.4 of 3.4 MB" stayed while the module
  // finished compiling, beside a bar not yet full)
  if (total && loaded >= total) return progress(DOWNLOAD_SHARE, "loading.starting_python");
  const mb = (b) => Math.round(b / 104857.6) / 10;
  progress(DOWNLOAD_SHARE * (total ? loaded / total : 0), "loading.downloading", { loaded: mb(loaded), total: mb(total) });
}

/** A response's body length in bytes as read, or 0 when unknown: a gzipped response's
 *  content-length counts its compressed bytes, not the ones the reader gets. */
export function bodyLength(response) {
  if (response.headers.get("content-encoding")) return 0;
  return Number(response.headers.get("content-length")) || 0;
}

/** Reads a clone of a response to count its bytes; the original goes on untouched, so
 *  streaming compilation and the browser's compiled-code cache still work. */
export async function drain(key, response) {
  try {
    exactBytes(key, bodyLength(response));
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      countBytes(key, value.byteLength);
    }
  } catch {
    // progress only: the real reader reports any failure
  }
}
