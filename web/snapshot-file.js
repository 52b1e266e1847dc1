// The engine worker's stored memory snapshot: one file in the origin-private file system,
// read and written through a synchronous access handle (dedicated workers only).
//
// Why a file and not Cache Storage: read that way, the ~15 MB arrive in about 20 ms; the
// same bytes as a Cache Storage response took 60-250 ms on a repeat visit, and the
// restore waited for them.
//
// Layout (little-endian):
//   "JBWSNAP1" | u32 n | n bytes of JSON meta | body
//   meta = {pyodide, build, length, runs, bodyLength, digest}
//   body = `runs` pairs of u32 (first page, page count), then the bytes of those pages
// Only the 4 KB pages of the memory image that are not all zero are kept (about half of
// them), so the file and the SHA-256 check are half the size of the image.  A torn write
// (a tab closed while the file was written) fails the length or the digest check.

export const FILE_NAME = "jabberwocky-snapshot.bin"; // worker.js opens it early by this name
const MAGIC = "JBWSNAP1";
const HEAD = 12; // magic + the meta's length
const PAGE = 4096;

/** Another tab has the file open at this moment: leave it alone, start normally. */
export class SnapshotBusy extends Error {}

export function canStoreSnapshots() {
  return typeof navigator.storage?.getDirectory === "function" &&
    typeof FileSystemFileHandle !== "undefined" &&
    typeof FileSystemFileHandle.prototype.createSyncAccessHandle === "function";
}

/** The file's sync access handle (a promise); `create`: make the file if there is none. */
async function openHandle(create) {
  const root = await navigator.storage.getDirectory();
  const file = await root.getFileHandle(FILE_NAME, { create });
  return file.createSyncAccessHandle();
}

async function opened(opening) {
  try {
    return await opening;
  } catch (err) {
    if (err?.name === "NoModificationAllowedError") throw new SnapshotBusy("another tab is using the stored snapshot");
    throw err;
  }
}

/**
 * The stored {meta, body}, or null when there is none; throws when it is not readable as
 * one.  `opening`: the file's sync access handle being opened already (a promise: worker.js
 * starts that before this module has arrived), or nothing to open it now.
 */
export async function readSnapshotFile(opening = openHandle(false)) {
  let file;
  try {
    file = await opened(opening);
  } catch (err) {
    if (err?.name === "NotFoundError") return null;
    throw err;
  }
  try {
    const size = file.getSize();
    const head = new Uint8Array(HEAD);
    if (size < HEAD || file.read(head, { at: 0 }) !== HEAD || String.fromCharCode(...head.subarray(0, 8)) !== MAGIC) {
      throw new Error("the stored snapshot is not in this game's format");
    }
    const metaLength = new DataView(head.buffer).getUint32(8, true);
    if (HEAD + metaLength > size) throw new Error("the stored snapshot is cut short");
    const metaBytes = new Uint8Array(metaLength);
    file.read(metaBytes, { at: HEAD });
    let meta;
    try {
      meta = JSON.parse(new TextDecoder().decode(metaBytes));
    } catch {
      throw new Error("the stored snapshot's description is damaged");
    }
    if (meta === null || typeof meta !== "object") throw new Error("the stored snapshot's description is damaged");
    const body = new Uint8Array(size - HEAD - metaLength);
    file.read(body, { at: HEAD + metaLength });
    return { meta, body };
  } finally {
    file.close();
  }
}

/** Stores `snapshot` ({meta, body}, from encodeSnapshot); an error leaves no file behind. */
export async function writeSnapshotFile({ meta, body }) {
  const metaBytes = new TextEncoder().encode(JSON.stringify(meta));
  const head = new Uint8Array(HEAD);
  for (let i = 0; i < MAGIC.length; i++) head[i] = MAGIC.charCodeAt(i);
  new DataView(head.buffer).setUint32(8, metaBytes.length, true);
  const file = await opened(openHandle(true));
  try {
    file.truncate(0);
    let written = file.write(head, { at: 0 });
    written += file.write(metaBytes, { at: HEAD });
    written += file.write(body, { at: HEAD + metaBytes.length });
    if (written !== HEAD + metaBytes.length + body.length) throw new Error("the snapshot could not be written whole (is the disk full?)");
    file.flush();
  } catch (err) {
    file.truncate(0); // the next visit finds nothing rather than half a snapshot
    throw err;
  } finally {
    file.close();
  }
}

export async function dropSnapshotFile() {
  try {
    await (await navigator.storage.getDirectory()).removeEntry(FILE_NAME);
  } catch {
    // none stored, or storage unavailable: nothing more to do
  }
}

async function digestOf(bytes) {
  // SHA-256 (first 16 bytes, hex): catches any changed byte before Pyodide trusts it.
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** {meta, body} for the memory image `bytes` (`about`: {pyodide, build}). */
export async function encodeSnapshot(bytes, about) {
  const length = bytes.byteLength;
  const copy = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new Uint32Array(copy.buffer, copy.byteOffset, length >> 2);
  const used = (page) => {
    const end = Math.min(length, (page + 1) * PAGE);
    for (let i = (page * PAGE) >> 2; i < end >> 2; i++) if (words[i] !== 0) return true;
    for (let i = end & ~3; i < end; i++) if (copy[i] !== 0) return true; // a last, partial word
    return false;
  };
  const pages = Math.ceil(length / PAGE);
  const runs = []; // [first page, page count] of each stretch of used pages
  for (let page = 0; page < pages; page++) { // each page looked at once
    if (!used(page)) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === page) last[1]++;
    else runs.push([page, 1]);
  }
  const parts = runs.map(([first, count]) => bytes.subarray(first * PAGE, Math.min(length, (first + count) * PAGE)));
  const body = new Uint8Array(runs.length * 8 + parts.reduce((sum, part) => sum + part.length, 0));
  const table = new DataView(body.buffer);
  let at = runs.length * 8;
  runs.forEach((run, r) => {
    table.setUint32(r * 8, run[0], true);
    table.setUint32(r * 8 + 4, run[1], true);
    body.set(parts[r], at);
    at += parts[r].length;
  });
  const meta = {
    pyodide: about.pyodide, build: about.build, length, runs: runs.length,
    bodyLength: body.byteLength, digest: await digestOf(body),
  };
  return { meta, body };
}

/**
 * A stored {meta, body} whose digest and page table check out, as {length, place(target,
 * skip, touchedBelow)}: place puts image bytes [skip, skip + target.length) into target,
 * writing the image's zero stretches only below touchedBelow (above it, the target must
 * be zero already, as fresh WebAssembly memory is).  Nothing is assembled first.
 */
export async function openSnapshot({ meta, body }) {
  if (body.byteLength !== meta.bodyLength) {
    throw new Error(`the stored snapshot has ${body.byteLength} bytes, expected ${meta.bodyLength}`);
  }
  if (await digestOf(body) !== meta.digest) {
    throw new Error("the stored snapshot does not match its digest");
  }
  const { length, runs: count } = meta;
  if (!Number.isInteger(length) || length < 1024 || !Number.isInteger(count) || count < 0 || count * 8 > body.byteLength) {
    throw new Error("the stored snapshot is too short to be one");
  }
  const table = new DataView(body.buffer, body.byteOffset, count * 8);
  const runs = []; // [first byte, end byte, where its bytes start in body], in order
  let at = count * 8;
  let end = 0;
  for (let r = 0; r < count; r++) {
    const from = table.getUint32(r * 8, true) * PAGE;
    const to = Math.min(length, from + table.getUint32(r * 8 + 4, true) * PAGE);
    if (to <= from || from < end || at + (to - from) > body.byteLength) throw new Error("the stored snapshot's page table is damaged");
    runs.push([from, to, at]);
    at += to - from;
    end = to;
  }
  if (at !== body.byteLength) throw new Error("the stored snapshot's page table is damaged");

  function place(target, skip = 0, touchedBelow = target.length) {
    const stop = skip + target.length;
    const zero = (a, b) => { // image bytes [a, b) are zero
      const lo = Math.max(a, skip) - skip;
      const hi = Math.min(b, stop) - skip;
      if (Math.min(hi, touchedBelow) > lo) target.fill(0, lo, Math.min(hi, touchedBelow));
    };
    let done = 0; // image bytes before this are placed
    for (const [from, to, bytesAt] of runs) {
      if (from >= stop) break;
      zero(done, from);
      const a = Math.max(from, skip);
      const b = Math.min(to, stop);
      if (b > a) target.set(body.subarray(bytesAt + (a - from), bytesAt + (b - from)), a - skip);
      done = to;
    }
    zero(done, Math.max(done, Math.min(length, stop)));
    return target;
  }
  return { length, place };
}

/**
 * loadPyodide's options to restore `image` (a promise of openSnapshot's answer) of
 * `length` bytes; `create`: pyodide.asm.mjs's default export.
 *
 * Pyodide's own restore wants the whole 31 MB image (half zeros) and copies all of it.
 * Our createPyodideModule starts Pyodide while the image is still being checked, then
 * replaces its restoreSnapshot: Pyodide reads its header (the image's first bytes) as
 * before, and the pages that hold data go straight into its memory; zero stretches are
 * written only below the module's break (static data, stack, heap so far), as fresh
 * memory above it has never been written (tests/pyodide/snapshot.mjs checks that).
 */
export function restoreOptions(create, image, length) {
  return {
    _loadSnapshot: new Uint8Array(0), // Pyodide asks for a restore; the bytes come from `image`
    createPyodideModule: async (settings) => {
      if (!Number.isInteger(length) || length < 1024 || length > 2 ** 31) {
        throw new Error("the stored snapshot's size is damaged");
      }
      settings.INITIAL_MEMORY = length; // as Pyodide sizes its memory for a whole image
      const made = create(settings);
      made.catch(() => {}); // awaited below; a damaged image may reject first
      const [module, opened] = await Promise.all([made, image]);
      const restore = module.API?.restoreSnapshot;
      if (typeof restore !== "function") throw new Error("this Pyodide cannot restore a memory snapshot");
      module.API.restoreSnapshot = () => {
        // Pyodide's header: magic, its size (the second u32), build id, hiwire keys
        const size = new DataView(opened.place(new Uint8Array(8)).buffer).getUint32(4, true);
        if (size < 48 || size % 16 !== 0 || size >= opened.length) throw new Error("the stored snapshot's header is damaged");
        const config = restore(opened.place(new Uint8Array(size))); // the header alone: copies nothing
        const memory = module.HEAPU8;
        if (opened.length - size > memory.length) throw new Error("the stored snapshot is larger than Python's memory");
        const brk = typeof module._sbrk === "function" ? module._sbrk(0) : memory.length;
        opened.place(memory.subarray(0, opened.length - size), size, brk);
        return config;
      };
      return module;
    },
  };
}
