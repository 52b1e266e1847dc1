// Jabberwocky's service worker: precache every file of one build, serve cache-first.
//
// This file is a template: tools/pwa.py writes _site/sw.js with the build's content hash
// and the list of every file the game needs (relative to this file, so the site works
// under any sub-path such as /jabberwocky/ on GitHub Pages).
//
// - install: put every file of the build into "jabberwocky-site-<hash>". Files whose
//   content hash is unchanged since an older build still in Cache Storage are copied
//   from that cache (an update does not download Pyodide's 13 MB again); so are the
//   WebAssembly module and the standard library a first visit's engine worker decoded
//   and left in "jabberwocky-early" (worker/brotli.js), once their hashes are checked; the others are
//   fetched, revalidated with the server. A new build installs in the background and waits.
// - activate: delete older "jabberwocky-site-*" caches and a "jabberwocky-early" left
//   behind (any other cache is not this worker's to delete), then take control of open
//   pages.
// - fetch: cache-first, ignoring the query string; only this build's cache is read, so
//   one page never mixes files of two versions. Navigations to the game (any query or
//   fragment) get the cached index.html. Where the browser has static routes (Chrome
//   123+), it answers the site's files from this build's cache itself (addRoutes below).
// - message SKIP_WAITING: sent by web/js/update.js when the player chooses to reload.

const BUILD = "__JABBERWOCKY_BUILD__";
const PRECACHE = [/* __JABBERWOCKY_PRECACHE__ */];
const HASHES = {/* __JABBERWOCKY_HASHES__ */};
const PREFIX = "jabberwocky-site-";
const CACHE = PREFIX + BUILD;
const SCOPE = new URL("./", self.location).href;
const INDEX = new URL("./index.html", self.location).href;
const HASHES_KEY = new URL("./__jabberwocky-precache-hashes__", self.location).href;
const EARLY = "jabberwocky-early"; // worker/brotli.js's EARLY_CACHE

// SHA-256 of a response's bytes, first 16 hex digits (tools/pwa.py's file_hashes).
async function hashOf(response) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
  return Array.from(digest.slice(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const EARLY_WAIT_MS = 15000;
const EARLY_DONE = "__jabberwocky-early-complete__"; // worker/brotli.js's EARLY_DONE

// The entries of EARLY, once they are all there: the engine worker makes the cache as it
// begins decoding, writes the decoded files once the engine has started, then EARLY_DONE
// (or deletes the cache); an install that comes first waits for that, up to EARLY_WAIT_MS.
async function earlyEntries() {
  const done = new URL(EARLY_DONE, SCOPE).href;
  for (let waited = 0; waited < EARLY_WAIT_MS; waited += 100) {
    if (!(await caches.has(EARLY))) return null;
    const early = await caches.open(EARLY);
    if (await early.match(done)) return early;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

// Copy what a first visit's engine worker left in EARLY (files of this build only, by
// hash); the cache is deleted either way.  Returns the paths copied.
async function reuseEarly(cache) {
  const reused = new Set();
  if (!(await caches.has(EARLY))) return reused;
  try {
    const early = await earlyEntries();
    if (!early) return reused;
    for (const path of PRECACHE) {
      const url = new URL(path, SCOPE).href;
      const response = HASHES[path] ? await early.match(url) : undefined;
      if (response && (await hashOf(response.clone())) === HASHES[path]) {
        await cache.put(url, response);
        reused.add(path);
      }
    }
  } finally {
    await caches.delete(EARLY);
  }
  return reused;
}

// Copy the files this build shares with older builds' caches; returns the paths copied.
async function reuseUnchanged(cache) {
  const reused = new Set();
  const keys = (await caches.keys()).filter((key) => key.startsWith(PREFIX) && key !== CACHE);
  for (const key of keys) {
    const old = await caches.open(key);
    const listed = await old.match(HASHES_KEY);
    if (!listed) continue;
    let oldHashes;
    try {
      oldHashes = await listed.json();
    } catch {
      continue;
    }
    for (const [path, hash] of Object.entries(HASHES)) {
      if (reused.has(path) || oldHashes[path] !== hash) continue;
      const url = new URL(path, SCOPE).href;
      const response = await old.match(url);
      if (response) {
        await cache.put(url, response);
        reused.add(path);
      }
    }
  }
  return reused;
}

async function install() {
  const cache = await caches.open(CACHE);
  try {
    const reused = await reuseUnchanged(cache);
    for (const path of await reuseEarly(cache)) reused.add(path);
    const missing = PRECACHE.filter((path) => !reused.has(path));
    // "no-cache": revalidate with the server, so the files are this build's, yet a file the
    // page has just downloaded is not downloaded again (the server answers 304).
    await cache.addAll(missing.map((path) => new Request(new URL(path, SCOPE), { cache: "no-cache" })));
    await cache.put(HASHES_KEY, new Response(JSON.stringify(HASHES),
      { headers: { "Content-Type": "application/json" } }));
  } catch (err) {
    await caches.delete(CACHE); // no half-filled cache left behind; the next visit retries
    throw err;
  }
}

// Static routes (Chrome 123+): the browser answers every file of the site straight from
// this build's cache, without starting this worker or passing the bytes through its
// thread (a repeat visit's engine worker then starts ~30 ms sooner).  Navigations still
// come to the fetch handler below (any query or fragment of the game's URL gets
// index.html); a file missing from the cache goes to the network, as it does there.
function addRoutes(event) {
  if (typeof event.addRoutes !== "function" || typeof URLPattern === "undefined") return Promise.resolve();
  const scope = new URL(SCOPE);
  const site = new URLPattern({
    protocol: scope.protocol.slice(0, -1), hostname: scope.hostname, port: scope.port, pathname: `${scope.pathname}*`,
  });
  return event.addRoutes([
    { condition: { requestMode: "navigate" }, source: "fetch-event" },
    { condition: { urlPattern: site }, source: { cacheName: CACHE } },
  ]).catch(() => {}); // not supported as asked: the fetch handler serves everything anyway
}

self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([addRoutes(event), install()]));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => (key.startsWith(PREFIX) && key !== CACHE) || key === EARLY)
          .map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "SKIP_WAITING") self.skipWaiting();
  if (data.type === "GET_BUILD" && event.ports && event.ports[0]) {
    event.ports[0].postMessage({ build: BUILD, cache: CACHE, files: PRECACHE.length });
  }
});

function isGamePage(url) {
  const u = new URL(url);
  u.search = "";
  u.hash = "";
  return u.href === SCOPE || u.href === INDEX;
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const key = request.mode === "navigate" && isGamePage(request.url) ? INDEX : request;
  const hit = await cache.match(key, { ignoreSearch: true });
  if (hit) return hit;
  return fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  event.respondWith(cacheFirst(request));
});
