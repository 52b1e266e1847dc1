// The front end's shape: no import cycles; every module the page needs at start is
// preloaded by index.html; no rule data in web/ that the engine holds (presets, options,
// schedules, the seed limit, the honour rule's penalty come from its `rules` answer).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { ROOT, engineInfo } from "./engine-info.mjs";

const WEB = path.join(ROOT, "web");
const IMPORT = /^\s*import\s+(?:[^"'`]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']/gm;

// worker.js imports its modules dynamically (after starting a first visit's downloads):
// those count as its imports here.
const DYNAMIC = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;
// Copied into the site by the build, not in web/: vendor/ (the brotli decoder).
const BUILT = /^vendor\//;

/** Static imports of every module: file -> [files] (paths relative to web/). */
function graph() {
  const edges = new Map();
  const visit = (rel) => {
    if (edges.has(rel)) return;
    const text = readFileSync(path.join(WEB, rel), "utf8");
    const found = [...text.matchAll(IMPORT), ...(rel === "worker.js" ? text.matchAll(DYNAMIC) : [])];
    const deps = found.map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1])))
      .filter((dep) => !BUILT.test(dep));
    edges.set(rel, deps);
    deps.forEach(visit);
  };
  for (const root of ["js/main.js", "js/engine.js", "worker.js"]) visit(root);
  return edges;
}

test("the page's and the worker's modules import no cycle", () => {
  const edges = graph();
  const state = new Map();
  const stack = [];
  const walk = (node) => {
    state.set(node, "open");
    stack.push(node);
    for (const dep of edges.get(node) || []) {
      if (state.get(dep) === "open") assert.fail(`import cycle: ${[...stack.slice(stack.indexOf(dep)), dep].join(" -> ")}`);
      if (!state.has(dep)) walk(dep);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of edges.keys()) if (!state.has(node)) walk(node);
});

test("index.html preloads every module main.js needs, and nothing else", () => {
  const html = readFileSync(path.join(WEB, "index.html"), "utf8");
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]));
  const needed = new Set();
  const edges = graph();
  const add = (rel) => {
    if (needed.has(rel)) return;
    needed.add(rel);
    (edges.get(rel) || []).forEach(add);
  };
  add("js/main.js");
  assert.deepEqual([...needed].filter((m) => !preloaded.has(m)).sort(), [], "modules main.js imports but index.html does not preload");
  assert.deepEqual([...preloaded].filter((m) => !needed.has(m)).sort(), [], "preloaded modules main.js does not import");
});

function sources() {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(path.join(WEB, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) {
        if (rel !== "i18n") walk(rel); // catalogues name the engine's ids as keys, by design
      } else if (/\.(js|html)$/.test(e.name)) out.push(rel);
    }
  };
  walk(".");
  // Code only: comments may name a preset or a schedule as an example.
  const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'\\])\/\/.*$/gm, "$1").replace(/<!--[\s\S]*?-->/g, "");
  return out.map((rel) => [rel, code(readFileSync(path.join(WEB, rel), "utf8"))]);
}

test("no rule data of the engine's is written in web/ (it comes from the rules answer)", () => {
  const { rules } = engineInfo();
  const literals = new Set();
  for (const name of Object.keys(rules.presets)) if (name !== rules.default) literals.add(name); // the default is also the game's name
  for (const spec of Object.values(rules.options)) for (const v of spec.values || []) if (typeof v === "string") literals.add(v);
  for (const name of Object.keys(rules.options.schedule.named)) literals.add(name);
  const found = [];
  for (const [rel, text] of sources()) {
    for (const word of literals) {
      if (new RegExp(`["'\`]${word.replace(/[-]/g, "\\-")}["'\`]`).test(text)) found.push(`${rel}: "${word}"`);
    }
    for (const p of Object.values(rules.presets)) {
      const list = p.schedule.join(",\\s*");
      if (new RegExp(`\\[\\s*${list}\\s*\\]`).test(text)) found.push(`${rel}: the schedule [${p.schedule}]`);
    }
    const limit = rules.seed_max_length;
    if (new RegExp(`MAX_SEED|seed[^\\n]{0,40}\\b${limit}\\b|\\b${limit}\\b[^\\n]{0,40}seed`, "i").test(text)) found.push(`${rel}: the seed limit`);
    if (/(?<![.\w])renege(_penalty)?\s*[:=]\s*[1-9]/.test(text)) found.push(`${rel}: a renege penalty`);
  }
  assert.deepEqual(found, []);
});
