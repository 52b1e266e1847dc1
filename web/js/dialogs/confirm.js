// Asking before something is lost: a small modal with a question and two buttons
// (data-action="confirm-yes" / "confirm-no"); resolves true only for yes.

import { $, openDialog } from "../dom/util.js";
import { t } from "../i18n.js";

let pending = null;

/** Ask `key` (a catalogue entry; `yes`/`no` the buttons' keys); resolves true or false. */
export function confirmAction({ key, params = {}, yes = "confirm.yes", no = "confirm.no" }) {
  const dlg = $("dlg-confirm");
  $("confirm-text").textContent = t(key, params);
  dlg.querySelector('[data-action="confirm-yes"]').textContent = t(yes);
  dlg.querySelector('[data-action="confirm-no"]').textContent = t(no);
  pending?.(false);
  return new Promise((resolve) => {
    pending = resolve;
    const done = (answer) => {
      if (pending !== resolve) return;
      pending = null;
      dlg.close();
      resolve(answer);
    };
    dlg.querySelector('[data-action="confirm-yes"]').onclick = () => done(true);
    dlg.querySelector('[data-action="confirm-no"]').onclick = () => done(false);
    dlg.onclose = () => done(false);
    openDialog(dlg);
    dlg.querySelector('[data-action="confirm-no"]').focus();
  });
}

/** Is there a game on the table that a new one would throw away (started, not over)? */
export function gameInProgress(view) {
  return Boolean(view) && view.phase !== "game-over" && view.step > 0;
}
