// The classic deck's court cards (Adrian Kennard's designs, CC0: see the About screen),
// fetched only when the player picks the classic deck, and kept in a cache of their own
// so they are there offline next time.  Until they have arrived, the simple faces show.

const CACHE = "jabberwocky-faces-1";
const images = new Map(); // "KS" or "KD-4" (four-colour) -> a decoded HTMLImageElement
const pending = new Map();

const keyOf = (card, fourColour) => (fourColour && (card[1] === "C" || card[1] === "D") ? `${card}-4` : card);

/** The classic face of a court card, if it has arrived (else null). */
export function classicFace(card, fourColour) {
  return images.get(keyOf(card, fourColour)) ?? null;
}

async function fetchFace(key) {
  const url = new URL(`../cards/classic/${key}.svg`, import.meta.url).href;
  let cache = null;
  try {
    cache = await caches.open(CACHE);
  } catch {
    cache = null; // no Cache Storage: the network (or the HTTP cache) only
  }
  let response = cache ? await cache.match(url) : undefined;
  if (!response) {
    response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    if (cache) await cache.put(url, response.clone()).catch(() => {});
  }
  const blob = await response.blob();
  const img = new Image();
  img.src = URL.createObjectURL(blob);
  await img.decode();
  images.set(key, img);
}

/** Fetch every court card the deck needs; `ready()` is called once they are all in. */
export function loadClassicFaces(fourColour, ready) {
  const keys = [];
  for (const suit of "CDHS") for (const rank of "JQK") keys.push(keyOf(rank + suit, fourColour));
  const wanted = keys.filter((k) => !images.has(k));
  if (!wanted.length) return;
  const all = wanted.map((k) => {
    if (!pending.has(k)) pending.set(k, fetchFace(k).catch(() => {}).finally(() => pending.delete(k)));
    return pending.get(k);
  });
  Promise.all(all).then(ready);
}
