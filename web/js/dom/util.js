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

/** Save `text` as a file called `name` (a link clicked for the browser's download). */
export function download(text, type, name) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

/** A table's head: one row of column headers (`cells`: each a text, or a ready <th>). */
export function tableHead(cells) {
  const tr = el("tr");
  for (const cell of cells) tr.append(typeof cell === "string" ? el("th", { scope: "col" }, cell) : cell);
  const head = el("thead");
  head.append(tr);
  return head;
}
