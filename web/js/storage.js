// localStorage with a fallback to memory (private mode, disabled storage, quota errors).

const memory = new Map();
let usable = null;

function probe() {
  if (usable !== null) return usable;
  try {
    const k = "__jabberwocky_probe__";
    window.localStorage.setItem(k, "1");
    window.localStorage.removeItem(k);
    usable = true;
  } catch {
    usable = false;
  }
  return usable;
}

export function getItem(key) {
  if (probe()) {
    try { return window.localStorage.getItem(key); } catch { /* fall through */ }
  }
  return memory.has(key) ? memory.get(key) : null;
}

export function setItem(key, value) {
  memory.set(key, value);
  if (!probe()) return false;
  try {
    window.localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function removeItem(key) {
  memory.delete(key);
  if (probe()) {
    try { window.localStorage.removeItem(key); } catch { /* ignore */ }
  }
}

/** Read JSON; returns {value} or {error} (never throws). */
export function getJSON(key) {
  const text = getItem(key);
  if (text === null) return { value: null };
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { error: `not JSON (${e.message})` };
  }
}

export function setJSON(key, value) {
  return setItem(key, JSON.stringify(value));
}

export const persistent = () => probe();
