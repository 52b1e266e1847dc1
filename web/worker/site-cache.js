// The service worker's cache of this build (jabberwocky-site-<build>, see sw.js): the
// engine worker reads Pyodide's files from it directly.  The same bytes the service
// worker would answer with, but sooner: on a repeat visit the WebAssembly module arrives
// and compiles in ~85 ms instead of ~125-150 ms, through the service worker's fetch
// handler as through its static routes (A/B, 16 visits each, static routes on: table
// dealt at 506 vs 551 ms).  Every fetch of the worker goes through fetchTracked, which
// also counts the big downloads' bytes for the progress bar.

import { drain, isTracked } from "./progress.js";

const SITE_CACHE_PREFIX = "jabberwocky-site-"; // sw.js's PREFIX
const TRACK = ["pyodide.asm.wasm", "python_stdlib.zip"];
export const realFetch = self.fetch.bind(self);

let siteCache = null;
let siteCacheOpened = null; // while restoring: settles once the cache is known

const siteCacheName = (build) => `${SITE_CACHE_PREFIX}${build}`;

// The site cache, found at once when it is the only one (a new build's cache sits next
// to the old one only while it installs): a restore of the same build reads Pyodide's
// files from it without waiting for build.json to name it (useSiteCacheOf).
const loneSiteCache = findLoneSiteCache();

async function findLoneSiteCache() {
  try {
    const names = (await caches.keys()).filter((name) => name.startsWith(SITE_CACHE_PREFIX));
    return names.length === 1 ? { name: names[0], cache: await caches.open(names[0]) } : null;
  } catch {
    return null; // no Cache Storage here
  }
}

/** A repeat visit's copy of `url` in the lone site cache, asked for as the worker starts
 *  (before a snapshot is read or build.json has named the cache), or null.  The lone
 *  cache may be another build's (a page loaded past its service worker while a new build
 *  is up): only Pyodide's module is taken this way (wasm.js prefetchModule), and one
 *  that does not fit fails to link and is fetched again as usual. */
export async function cachedEarly(url) {
  const lone = await loneSiteCache;
  if (!lone) return null;
  try {
    return (await lone.cache.match(url, { ignoreSearch: true })) ?? null;
  } catch {
    return null;
  }
}

/** The cache build.json names (the lone one, already open, when it is that one); any
 *  other is forgotten, so a normal start never reads another build's files. */
export async function openSiteCache(info) {
  const name = siteCacheName(info.build);
  const lone = await loneSiteCache;
  try {
    siteCache = lone?.name === name ? lone.cache
      : typeof caches !== "undefined" && (await caches.has(name)) ? await caches.open(name) : null;
    // a first visit's decoded module that the service worker did not take (it installed
    // before the module was decoded): the site cache has its own copy
    if (siteCache) caches.delete("jabberwocky-early").catch(() => {});
  } catch {
    siteCache = null; // storage unavailable: requests go through the service worker or the network
  }
}

/** While restoring a snapshot of `build`: its site cache, at once if it is the lone one;
 *  requests wait for it. */
export function useSiteCacheOf(build, infoPromise) {
  siteCacheOpened = (async () => {
    const lone = await loneSiteCache;
    if (lone?.name === siteCacheName(build)) siteCache = lone.cache;
    else await infoPromise.catch(() => {}); // it opens the cache build.json names
  })();
}

/** The absolute URL a fetch of `input` (a string, a URL or a Request) asks for. */
export function urlOf(input) {
  return new URL(typeof input === "string" ? input : (input.url ?? String(input)), self.location.href).href;
}

let earlyFetches = new Map(); // worker.js's first-visit downloads: URL -> Promise<Response | null>

/** The response worker.js began early for `url`, once (a body is read once), or null
 *  (none, or it failed: the caller fetches as usual). */
async function takeEarly(url) {
  const key = url.split(/[?#]/)[0];
  const response = earlyFetches.get(key);
  if (!response) return null;
  earlyFetches.delete(key);
  try {
    const got = await response;
    return got && got.ok ? got : null;
  } catch {
    return null;
  }
}

export async function fetchCached(input, init) {
  const early = await takeEarly(urlOf(input));
  if (early) return early;
  if (siteCacheOpened) await siteCacheOpened;
  if (siteCache) {
    try {
      const cached = await siteCache.match(urlOf(input), { ignoreSearch: true });
      if (cached) return cached;
    } catch {
      // fall through to a normal request
    }
  }
  return realFetch(input, init);
}

async function fetchTracked(input, init) {
  const response = await fetchCached(input, init);
  const url = urlOf(input);
  for (const name of TRACK) {
    // a first visit's decoded file counts its compressed bytes itself (worker/brotli.js)
    if (url.endsWith(name) && response.ok && response.body && isTracked(name) && !response.jabberwockyCounted) {
      drain(name, response.clone());
    }
  }
  return response;
}

/** Route the worker's fetches (Pyodide's among them) through the site cache; `early`
 *  (worker.js's first-visit downloads: a Map of URL -> Promise<Response | null>) first. */
export function installFetch(early) {
  if (early) earlyFetches = early;
  self.fetch = fetchTracked;
}
