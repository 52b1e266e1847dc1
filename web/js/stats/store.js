// The finished games, kept on this device only (IndexedDB: localStorage is too small for
// a few thousand records).  Nothing here sends anything anywhere.
//
// Database "jabberwocky-games", version 1: object stores "games" (key "id": the engine's
// digest of the record; {id, order, added, record, facts}), "aside" (entries that could not
// be read, kept as they were) and "meta" ({name: "format", value: "jabberwocky-store/1"}).
// A database of that name that is not ours (other stores, another version, another format)
// is left untouched — set aside — and the next free name is used ("jabberwocky-games-2" …).
// Without IndexedDB (blocked, private windows of some browsers) the games are kept in
// memory for the visit, and the caller is told.

export const DB_NAME = "jabberwocky-games";
export const STORE_FORMAT = "jabberwocky-store/1";
export const MAX_GAMES = 3000;
const NAMES = [DB_NAME, `${DB_NAME}-2`, `${DB_NAME}-3`, `${DB_NAME}-4`, `${DB_NAME}-5`];
const STORES = ["games", "aside", "meta"];

/** The cap: MAX_GAMES, or a smaller one a test set (localStorage jabberwocky.statsCap). */
export function capacity() {
  try {
    const n = Number(globalThis.localStorage?.getItem("jabberwocky.statsCap"));
    if (Number.isInteger(n) && n > 0 && n < MAX_GAMES) return n;
  } catch { /* storage blocked: the default */ }
  return MAX_GAMES;
}

/** Is `entry` a stored game as this page writes it? */
export function isEntry(entry) {
  return Boolean(entry) && typeof entry === "object" && typeof entry.id === "string" && /^[0-9a-f]{64}$/.test(entry.id)
    && typeof entry.record === "string" && Boolean(entry.facts) && typeof entry.facts === "object" && !Array.isArray(entry.facts)
    && Number.isFinite(entry.order) && Number.isFinite(entry.added);
}

const request = (r) => new Promise((resolve, reject) => {
  r.onsuccess = () => resolve(r.result);
  r.onerror = () => reject(r.error);
});

const finished = (tx) => new Promise((resolve, reject) => {
  tx.oncomplete = () => resolve();
  tx.onerror = () => reject(tx.error);
  tx.onabort = () => reject(tx.error || new Error("transaction aborted"));
});

/** Open `name` as our database: {db, created} or {foreign: true} or {failed: error}. */
function openNamed(idb, name) {
  return new Promise((resolve) => {
    let opening;
    let created = false;
    try {
      opening = idb.open(name, 1);
    } catch (err) {
      resolve({ failed: err });
      return;
    }
    opening.onupgradeneeded = (e) => {
      if (e.oldVersion !== 0) return; // cannot happen at version 1; never touch what is there
      const db = opening.result;
      db.createObjectStore("games", { keyPath: "id" }).createIndex("order", "order");
      db.createObjectStore("aside", { autoIncrement: true });
      db.createObjectStore("meta", { keyPath: "name" }).put({ name: "format", value: STORE_FORMAT });
      created = true;
    };
    opening.onsuccess = async () => {
      const db = opening.result;
      if (!STORES.every((s) => db.objectStoreNames.contains(s))) {
        db.close();
        resolve({ foreign: true });
        return;
      }
      try {
        const meta = await request(db.transaction("meta").objectStore("meta").get("format"));
        if (meta?.value !== STORE_FORMAT) throw new Error("another format");
      } catch {
        db.close();
        resolve({ foreign: true });
        return;
      }
      resolve({ db, created });
    };
    opening.onerror = (e) => {
      e.preventDefault?.();
      const err = opening.error;
      resolve(err?.name === "VersionError" ? { foreign: true } : { failed: err });
    };
    opening.onblocked = () => resolve({ failed: new Error("blocked") });
  });
}

/** The games kept in memory when IndexedDB cannot be used. */
class MemoryGames {
  constructor() {
    this.games = new Map();
    this.aside = [];
  }
  async all() { return [...this.games].map(([key, value]) => ({ key, value })); }
  async oldest(n) { return [...this.games.values()].sort((a, b) => a.order - b.order).slice(0, Math.max(0, n)).map((e) => e.id); }
  async has(id) { return this.games.has(id); }
  async get(id) { return this.games.get(id) ?? null; }
  async count() { return this.games.size; }
  async put(entries) { for (const e of entries) this.games.set(e.id, e); }
  async remove(ids) { for (const id of ids) this.games.delete(id); }
  async setAside(items) {
    for (const { key, value, reason } of items) {
      this.games.delete(key);
      this.aside.push({ reason, value, at: Date.now() });
    }
  }
  async clear() { this.games.clear(); }
  async asideCount() { return this.aside.length; }
}

/** The games in an IndexedDB database of ours. */
class IdbGames {
  constructor(db) {
    this.db = db;
  }
  async all() {
    const store = this.db.transaction("games").objectStore("games");
    const keys = await request(store.getAllKeys());
    const values = await request(store.getAll());
    return values.map((value, i) => ({ key: keys[i], value }));
  }
  async has(id) { return (await request(this.db.transaction("games").objectStore("games").count(id))) > 0; }
  async get(id) { return (await request(this.db.transaction("games").objectStore("games").get(id))) ?? null; }
  async count() { return request(this.db.transaction("games").objectStore("games").count()); }
  async put(entries) {
    const tx = this.db.transaction("games", "readwrite");
    const store = tx.objectStore("games");
    for (const e of entries) store.put(e);
    await finished(tx);
  }
  async remove(ids) {
    const tx = this.db.transaction("games", "readwrite");
    for (const id of ids) tx.objectStore("games").delete(id);
    await finished(tx);
  }
  async setAside(items) {
    const tx = this.db.transaction(["games", "aside"], "readwrite");
    for (const { key, value, reason } of items) {
      tx.objectStore("aside").add({ reason, value, at: Date.now() });
      tx.objectStore("games").delete(key);
    }
    await finished(tx);
  }
  async clear() {
    const tx = this.db.transaction("games", "readwrite");
    tx.objectStore("games").clear();
    await finished(tx);
  }
  async asideCount() { return request(this.db.transaction("aside").objectStore("aside").count()); }
  /** The oldest `n` ids (by order). */
  async oldest(n) {
    const ids = [];
    if (n <= 0) return ids;
    const cursor = this.db.transaction("games").objectStore("games").index("order").openKeyCursor();
    await new Promise((resolve, reject) => {
      cursor.onsuccess = () => {
        const c = cursor.result;
        if (!c || ids.length >= n) {
          resolve();
          return;
        }
        ids.push(c.primaryKey);
        c.continue();
      };
      cursor.onerror = () => reject(cursor.error);
    });
    return ids;
  }
}

/**
 * The store of finished games.  Every method resolves (never rejects on a storage
 * problem: it reports it in `problem`), so a broken store never breaks the game.
 *   open()      -> {problem: null | "set_aside" | "unavailable"}
 *   list()      -> {entries (oldest first), setAside: n}   unreadable entries are set aside
 *   add(games)  -> {added, duplicates, dropped}            games: [{id, record, facts}]
 *   update(entry), setAside(ids, reason), clear(), count()
 */
export function createGameStore({ idb = globalThis.indexedDB, now = () => Date.now() } = {}) {
  let backend = null;
  let problem = null;
  let nextOrder = 0;
  let opening = null;

  async function open() {
    if (!opening) {
      opening = (async () => {
        if (!idb) {
          backend = new MemoryGames();
          problem = "unavailable";
          return;
        }
        let foreign = false;
        for (const name of NAMES) {
          const got = await openNamed(idb, name);
          if (got.db) {
            backend = new IdbGames(got.db);
            if (foreign && got.created) problem = "set_aside"; // said once: when we moved on
            got.db.onversionchange = () => got.db.close(); // never block another tab's upgrade
            return;
          }
          if (got.failed) break;
          foreign = true;
        }
        backend = new MemoryGames();
        problem = "unavailable";
      })();
    }
    await opening;
    return { problem };
  }

  /** Every readable entry, oldest first; the others are set aside (as they were). */
  async function list() {
    await open();
    let raw;
    try {
      raw = await backend.all();
    } catch {
      return { entries: [], setAside: 0 };
    }
    const good = [];
    const bad = [];
    for (const r of raw) (isEntry(r.value) && r.value.id === r.key ? good : bad).push(r);
    if (bad.length) {
      try {
        await backend.setAside(bad.map((r) => ({ key: r.key, value: r.value, reason: "unreadable" })));
      } catch { /* kept where it is */ }
    }
    good.sort((a, b) => a.value.order - b.value.order || (a.key < b.key ? -1 : 1));
    const entries = good.map((r) => r.value);
    nextOrder = Math.max(nextOrder, ...entries.map((e) => e.order + 1), 0);
    return { entries, setAside: bad.length };
  }

  async function add(games) {
    await open();
    const out = { added: 0, duplicates: 0, dropped: 0 };
    try {
      if (nextOrder === 0) await list();
      const fresh = [];
      const seen = new Set();
      for (const g of games) {
        if (seen.has(g.id) || (await backend.has(g.id))) {
          out.duplicates += 1;
          continue;
        }
        seen.add(g.id);
        fresh.push({ id: g.id, order: nextOrder++, added: g.added ?? now(), record: g.record, facts: g.facts });
      }
      await backend.put(fresh);
      out.added = fresh.length;
      const extra = (await backend.count()) - capacity();
      if (extra > 0) {
        const ids = await backend.oldest(extra);
        await backend.remove(ids);
        out.dropped = ids.length;
      }
    } catch {
      out.failed = true;
    }
    return out;
  }

  async function update(entry) {
    await open();
    try {
      await backend.put([entry]);
      return true;
    } catch {
      return false;
    }
  }

  async function setAside(ids, reason) {
    await open();
    try {
      const items = [];
      for (const id of ids) {
        const value = await backend.get(id);
        if (value) items.push({ key: id, value, reason });
      }
      await backend.setAside(items);
    } catch { /* kept where it is */ }
  }

  async function clear() {
    await open();
    try {
      await backend.clear();
      return true;
    } catch {
      return false;
    }
  }

  async function count() {
    await open();
    try {
      return await backend.count();
    } catch {
      return 0;
    }
  }

  return { open, list, add, update, setAside, clear, count, get problem() { return problem; } };
}

let shared = null;

/** The page's one store (opened on first use). */
export function gameStore() {
  shared ??= createGameStore();
  return shared;
}
