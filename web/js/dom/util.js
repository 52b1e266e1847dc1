// Small DOM helpers shared by the views.  User text only ever goes in through textContent.

export const $ = (id) => document.getElementById(id);

/** An element with attributes (`className`, `dataset` {…}, anything else as attributes). */
export function el(tag, props = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "className") node.className = v;
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Open a modal dialog (once). */
export function openDialog(dialog) {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}
