// Jabberwocky's service worker: precache every file of one build, serve cache-first.
//
// This file is a template: tools/pwa.py writes _site/sw.js with the build's content hash
// and the list of every file the game needs (relative to this file, so the site works
// under any sub-path such as /jabberwocky/ on GitHub Pages).
//
// - install: fetch every file of the build into "jabberwocky-site-<hash>" (bypassing the
//   HTTP cache). A new build installs in the background and waits.
// - activate: delete older "jabberwocky-site-*" caches only (other caches, such as the
//   runtime's memory snapshot, are not ours), then take control of open pages.
// - fetch: cache-first, ignoring the query string; only this build's cache is read, so
//   one page never mixes files of two versions. Navigations to the game (any query or
//   fragment) get the cached index.html.
// - message SKIP_WAITING: sent by web/js/update.js when the player chooses to reload.

const BUILD = "__JABBERWOCKY_BUILD__";
const PRECACHE = [/* __JABBERWOCKY_PRECACHE__ */];
const PREFIX = "jabberwocky-site-";
const CACHE = PREFIX + BUILD;
const SCOPE = new URL("./", self.location).href;
const INDEX = new URL("./index.html", self.location).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(PRECACHE.map((path) => new Request(new URL(path, SCOPE), { cache: "reload" })))),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key.startsWith(PREFIX) && key !== CACHE)
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
