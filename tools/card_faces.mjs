// The classic deck's court cards: Adrian Kennard's SVG playing-card designs (CC0), as the
// npm package @letele/playing-cards ships them (React components), turned back into plain
// SVG files for the site: cards/classic/<rank><suit>.svg for J, Q, K of every suit, and a
// four-colour variant (clubs green, diamonds blue) of the clubs and diamonds.
//
//   node tools/card_faces.mjs OUT_DIR
//
// The components are evaluated with a tiny createElement that writes SVG text; no React.
// Same package, same bytes.

import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";

const out = process.argv[2];
if (!out) {
  console.error("usage: node tools/card_faces.mjs OUT_DIR");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const source = readFileSync(require.resolve("@letele/playing-cards/dist/index.esm.js"), "utf8");

// React prop names -> SVG attribute names (camelCase SVG attributes stay as they are)
const CAMEL = new Set(["viewBox", "preserveAspectRatio", "patternUnits", "gradientUnits", "gradientTransform",
  "patternTransform", "clipPathUnits", "spreadMethod", "patternContentUnits"]);
const attribute = (k) => (k === "className" ? "class" : k === "xlinkHref" ? "xlink:href" : CAMEL.has(k) ? k : k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
const escape = (v) => String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function h(tag, props, ...children) {
  if (typeof tag === "function") return tag(props || {});
  const attrs = Object.entries(props || {})
    .filter(([k, v]) => v !== null && v !== undefined && k !== "title" && k !== "titleId" && !k.startsWith("aria"))
    .map(([k, v]) => ` ${attribute(k)}="${escape(v)}"`).join("");
  const inner = children.flat(9).filter((c) => c !== null && c !== undefined && c !== false).join("");
  return `<${tag}${attrs}>${inner}</${tag}>`;
}

let code = source.replace(/^import .*$/gm, "");
const exported = /export \{([^}]*)\};?\s*$/m.exec(code);
if (!exported) throw new Error("@letele/playing-cards: no export list found (a new version? check tools/card_faces.mjs)");
code = code.replace(exported[0], "");
const names = exported[1].split(",").map((s) => s.trim()).filter(Boolean).map((s) => s.split(/\s+as\s+/));
const body = `const React = { createElement: h }; const _extends = Object.assign;\n${code}\n`
  + `return { ${names.map(([local, name]) => `${JSON.stringify(name ?? local)}: ${local}`).join(", ")} };`;
const deck = new Function("h", body)(h); // build-time only, on a pinned package

const FOUR = { C: "#0f7a35", D: "#1d4fc4" };
mkdirSync(out, { recursive: true });
let count = 0;
for (const suit of "CDHS") {
  for (const rank of "JQK") {
    const component = deck[`${suit}${rank.toLowerCase()}`];
    if (!component) throw new Error(`@letele/playing-cards has no ${suit}${rank}`);
    const svg = component({}).replace("<svg", '<svg xmlns:xlink="http://www.w3.org/1999/xlink"');
    writeFileSync(`${out}/${rank}${suit}.svg`, svg);
    count += 1;
    if (FOUR[suit]) {
      // the suit symbol the art uses (symbol "…__a") in the four-colour deck's colour
      const id = `${suit}-${rank}_svg__a`;
      const recolored = svg.replace(new RegExp(`(<symbol id="${id}"[^>]*>)<path([^>]*)>`), (_, open, attrs) => {
        const rest = attrs.replace(/ fill="[^"]*"/, ""); // one fill attribute, ours
        return `${open}<path${rest} fill="${FOUR[suit]}">`;
      });
      if (recolored === svg) throw new Error(`${suit}${rank}: its suit symbol was not found`);
      // and the corner letter (symbol "…__h", drawn with a stroke)
      const indexId = `${suit}-${rank}_svg__h`;
      const lettered = recolored.replace(new RegExp(`(<symbol id="${indexId}"[^>]*><path[^>]*) stroke="[^"]*"`), `$1 stroke="${FOUR[suit]}"`);
      if (lettered === recolored) throw new Error(`${suit}${rank}: its corner letter was not found`);
      if ((lettered.match(/<path[^>]* fill="[^"]*"[^>]* fill=/g) || []).length) throw new Error(`${suit}${rank}: a doubled fill`);
      writeFileSync(`${out}/${rank}${suit}-4.svg`, lettered);
      count += 1;
    }
  }
}
console.log(`wrote ${count} court card faces to ${out}`);
