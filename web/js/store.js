// A small observable store: one state object, changed only through set() and merge();
// subscribers run once per batch of changes (a microtask later) with the state and the
// set of keys that changed.

export function createStore(initial) {
  const state = { ...initial };
  const listeners = new Set();
  let changed = null;

  function notify() {
    const keys = changed;
    changed = null;
    for (const fn of listeners) fn(state, keys);
  }

  function touch(keys) {
    if (!changed) {
      changed = new Set();
      queueMicrotask(notify);
    }
    for (const k of keys) changed.add(k);
  }

  return {
    get: () => state,
    /** Replace the values of the keys in `patch`. */
    set(patch) {
      Object.assign(state, patch);
      touch(Object.keys(patch));
    },
    /** Merge `partial` into the object held at `key`. */
    merge(key, partial) {
      state[key] = { ...state[key], ...partial };
      touch([key]);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
