// The page's own markup gets its words from the catalogue: a data-i18n attribute (a key) sets the text,
// data-i18n-title / -aria-label / -placeholder set those attributes.  Run at start-up and
// whenever the language changes; <html lang> follows the language.

import { t, language } from "../i18n.js";

const ATTRIBUTES = { i18nTitle: "title", i18nAriaLabel: "aria-label", i18nPlaceholder: "placeholder" };

export function fillStaticText(root = document) {
  document.documentElement.lang = language();
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const [data, attr] of Object.entries(ATTRIBUTES)) {
    const selector = `[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const node of root.querySelectorAll(selector)) node.setAttribute(attr, t(node.dataset[data]));
  }
  document.title = t("app.title");
  const description = document.querySelector('meta[name="description"]');
  if (description) description.content = t("app.description");
}
