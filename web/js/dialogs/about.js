// About: what the player is running (version, build, bots version), the licences of what
// the site ships, where the source is, and what stays on this device (nothing leaves it).
// Read from the site itself: build.json and licenses/index.json (docs/site-metadata.md).

import { el, $, openDialog } from "../dom/util.js";
import { t } from "../i18n.js";

async function json(path) {
  const response = await fetch(new URL(`../../${path}`, import.meta.url));
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

function row(list, label, value) {
  list.append(el("dt", {}, label), el("dd", {}, value));
}

/** Open the About dialog; `engineBots` is the bots version the engine reports. */
export async function openAbout(engineBots) {
  const facts = $("about-facts");
  const licences = $("about-licences");
  facts.replaceChildren();
  licences.replaceChildren();
  openDialog($("dlg-about"));
  let build;
  try {
    build = await json("build.json");
  } catch {
    facts.append(el("p", { className: "note" }, t("about.unavailable")));
    return;
  }
  const list = el("dl", { className: "facts" });
  row(list, t("about.version"), build.version ?? "?");
  row(list, t("about.build"), build.build ?? "?");
  row(list, t("about.bots"), engineBots || build.bots || "?");
  row(list, t("about.runtime"), t("about.pyodide", { version: build.pyodide ?? "?" }));
  facts.append(list);
  if (build.source) {
    const link = el("a", { href: build.source, rel: "noopener", target: "_blank" }, build.source);
    const p = el("p", {}, t("about.source") + " ");
    p.append(link);
    facts.append(p);
  }
  try {
    const index = await json(build.licenses || "licenses/index.json");
    const ul = el("ul", { className: "licences" });
    for (const c of index.components || []) {
      const li = el("li");
      // what it does in the player's language where the index says (c.role), else its English
      const label = c.role && c.name ? t("about.component_role", { name: c.name, role: t(`about.role_${c.role}`) }) : c.component;
      const name = c.version ? `${label} ${c.version}` : label;
      const link = el("a", { href: new URL(`../../${c.file}`, import.meta.url).href, target: "_blank", rel: "noopener" }, c.license);
      li.append(document.createTextNode(`${name} — `), link);
      if (c.part_of) li.append(document.createTextNode(` (${t("about.part_of", { name: c.part_of })})`));
      ul.append(li);
    }
    licences.append(ul);
  } catch {
    licences.append(el("p", { className: "note" }, t("about.unavailable")));
  }
}
