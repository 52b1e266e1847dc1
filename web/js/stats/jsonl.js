// Files of games: JSON lines (one jabberwocky-game/1 record a line), the export and import
// format of the statistics; a single record (an exported game, pretty-printed or not) is
// read too.  Pure functions: the engine checks every record.

/** The records in `text`: [{line, text}] (line numbers from 1; blank lines skipped). */
export function recordsOf(text) {
  const body = String(text).replace(/^\uFEFF/, "");
  const trimmed = body.trim();
  if (trimmed.startsWith("{") && !/\}\s*\r?\n\s*\{/.test(trimmed)) {
    return [{ line: 1, text: trimmed }]; // one record, perhaps over many lines
  }
  const out = [];
  body.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "").trim();
    if (line) out.push({ line: i + 1, text: line });
  });
  return out;
}

/** `items` in batches of at most `max` items and about `chars` characters each. */
export function batches(items, { max = 100, chars = 2_000_000, size = (item) => item.text.length } = {}) {
  const out = [];
  let batch = [];
  let total = 0;
  for (const item of items) {
    const n = size(item);
    if (batch.length && (batch.length >= max || total + n > chars)) {
      out.push(batch);
      batch = [];
      total = 0;
    }
    batch.push(item);
    total += n;
  }
  if (batch.length) out.push(batch);
  return out;
}

/** The export: every record on its own line (records never hold a raw newline). */
export function toJsonLines(records) {
  return records.map((r) => r.replace(/\r?\n/g, " ")).join("\n") + (records.length ? "\n" : "");
}

/** The file name of an export made on `date`: jabberwocky-games-2026-12-01.jsonl. */
export function exportName(date = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `jabberwocky-games-${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}.jsonl`;
}
