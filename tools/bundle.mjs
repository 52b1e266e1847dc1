// Bundle and minify the front end with esbuild (the pinned npm package).
//
//   node tools/bundle.mjs OUT_DIR
//
// Reads web/ and writes, under OUT_DIR, the files the site serves in place of the source
// modules, each with its source map (the sources inside it, under their web/ paths), and
// OUT_DIR/meta.json (what tools/bundle.py needs):
//
// - js/main.js: the page (main.js and every module it imports statically, the engine's
//   protocol module among them), split (`splitting`) so that each module the page imports
//   later (`import("./dialogs/stats.js")`, …) stays a file of its own at its own path and
//   code shared with those is in js/chunk-HASH.js; ES modules, as the sources are.
// - worker.js: the engine worker and every module of its own in one file (no splitting:
//   its dynamic imports of its own modules become lazy parts of the file, so they cost no
//   request); Pyodide's files stay outside (their paths rewritten for the file's place),
//   the brotli decoder's JavaScript is taken in from node_modules (its .wasm stays a file).
//   The page's own imports of site files (vendor/…) stay imports of those files too.
//   A module that moved to another folder by being bundled gets its own import.meta.url
//   back (the URL it had as a file), so the URLs it makes relative to it do not change.
// - js/early.js and css/style.css: minified, nothing else.
//
// meta.json: {"outputs": {site path: {"imports": [site paths imported statically]}},
// "inputs": [web/ paths taken in]}.  Same inputs, same bytes.

import { build } from "esbuild";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WEB = path.join(ROOT, "web");
const DECODER = "vendor/brotli-dec-wasm/brotli_dec_wasm.js"; // tools/site.py's DECODER_SITE
const DECODER_NPM = path.join(ROOT, "node_modules", "brotli-dec-wasm", "pkg", "brotli_dec_wasm.js");
const SITE_FILES = /^(pyodide|vendor)\//; // copied into the site by tools/site.py, not bundled

const out = process.argv[2];
if (!out) {
  console.error("usage: node tools/bundle.mjs OUT_DIR");
  process.exit(2);
}

const rel = (file) => path.relative(WEB, file).split(path.sep).join("/");

/** The modules the page imports later: every `import("./…")` of web/js, their own too. */
function dynamicTargets() {
  const found = new Set();
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || SITE_FILES.test(rel(file))) return; // a site file: not bundled
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^\s*import\s+(?:[^"'`]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']/gm)) {
      visit(path.resolve(path.dirname(file), m[1]));
    }
    for (const m of text.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      if (SITE_FILES.test(rel(target))) continue;
      found.add(target);
      visit(target);
    }
  };
  visit(path.join(WEB, "js", "main.js"));
  return [...found].sort();
}

/** Files of the site (Pyodide's, the decoder's .wasm) stay outside the bundle, named
 *  relative to the bundle's own place; the decoder's JavaScript comes from npm. */
function siteFiles(outFile) {
  return {
    name: "site-files",
    setup(b) {
      b.onResolve({ filter: /^\.{1,2}\// }, (args) => {
        if (!args.importer) return undefined;
        const target = rel(path.resolve(args.resolveDir, args.path));
        if (target === DECODER) return { path: DECODER_NPM };
        if (!SITE_FILES.test(target)) return undefined;
        let spec = path.posix.relative(path.posix.dirname(outFile), target);
        if (!spec.startsWith(".")) spec = `./${spec}`;
        return { path: spec, external: true };
      });
    },
  };
}

/** The page's imports of site files (vendor/…, pyodide/…: copied into the site by
 *  tools/site.py, not in web/) stay imports of those files.  Their paths are kept as
 *  written, which holds for a module in js/ (each of its code's outputs is in js/). */
function pageSiteFiles() {
  return {
    name: "page-site-files",
    setup(b) {
      b.onResolve({ filter: /^\.{1,2}\// }, (args) => {
        if (!args.importer) return undefined;
        const target = rel(path.resolve(args.resolveDir, args.path));
        if (!SITE_FILES.test(target)) return undefined;
        if (path.posix.dirname(rel(args.importer)) !== "js") {
          return { errors: [{ text: `${rel(args.importer)} imports the site file ${target}: import it from a module in js/ (the bundle keeps the path as written)` }] };
        }
        return { path: args.path, external: true };
      });
    },
  };
}

/** import.meta.url as each module had it as a file, in a bundle written elsewhere. */
function ownMetaUrl(outFile) {
  return {
    name: "own-import-meta-url",
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const text = readFileSync(args.path, "utf8");
        const from = rel(args.path);
        if (from.startsWith("..") || path.posix.dirname(from) === path.posix.dirname(outFile) || !text.includes("import.meta.url")) return undefined;
        const own = path.posix.relative(path.posix.dirname(outFile), from);
        return { contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: "js" };
      });
    },
  };
}

const common = {
  absWorkingDir: ROOT,
  bundle: true,
  format: "esm",
  minify: true,
  sourcemap: "linked",
  sourcesContent: true,
  legalComments: "none",
  charset: "utf8",
  target: "es2022",
  // written nowhere but OUT_DIR (write: false); the outputs are named as if in web/, so
  // that each source map names its sources by their paths in web/ (js/render.js, …),
  // which is where the site would have them
  outbase: WEB,
  outdir: WEB,
  allowOverwrite: true,
  write: false,
  metafile: true,
  logLevel: "warning",
};

const page = await build({
  ...common,
  entryPoints: [path.join(WEB, "js", "main.js"), ...dynamicTargets()],
  splitting: true,
  entryNames: "[dir]/[name]",
  chunkNames: "js/chunk-[hash]",
  plugins: [pageSiteFiles()],
});
const worker = await build({
  ...common,
  entryPoints: [path.join(WEB, "worker.js")],
  splitting: false,
  plugins: [siteFiles("worker.js"), ownMetaUrl("worker.js")],
});
const plain = await build({
  ...common,
  bundle: false,
  format: undefined,
  entryPoints: [path.join(WEB, "js", "early.js"), path.join(WEB, "css", "style.css")],
});

const meta = { outputs: {}, inputs: [] };
const inputs = new Set();
for (const result of [page, worker, plain]) {
  for (const file of result.outputFiles) {
    const site = rel(file.path);
    mkdirSync(path.dirname(path.join(out, site)), { recursive: true });
    writeFileSync(path.join(out, site), file.contents);
  }
  for (const [file, info] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith(".map")) continue;
    const site = rel(path.join(ROOT, file));
    meta.outputs[site] = {
      imports: info.imports.filter((i) => i.kind === "import-statement" && !i.external).map((i) => rel(path.join(ROOT, i.path))),
    };
  }
  for (const file of Object.keys(result.metafile.inputs)) {
    const r = rel(path.join(ROOT, file));
    if (!r.startsWith("..")) inputs.add(r);
  }
}
// A module bundled into a file in another folder would make its URLs from that file's
// place: the page's are checked here (the worker's are given their own, ownMetaUrl).
for (const [file, info] of Object.entries(page.metafile.outputs)) {
  for (const input of Object.keys(info.inputs)) {
    const from = rel(path.join(ROOT, input));
    const to = rel(path.join(ROOT, file));
    if (from.startsWith("..") || path.posix.dirname(from) === path.posix.dirname(to)) continue;
    if (readFileSync(path.join(ROOT, input), "utf8").includes("import.meta.url")) {
      console.error(`${from} uses import.meta.url but was bundled into ${to}, another folder: make it an entry point or keep it in js/`);
      process.exit(1);
    }
  }
}
meta.inputs = [...inputs].sort();
writeFileSync(path.join(out, "meta.json"), JSON.stringify(meta, null, 1) + "\n");
