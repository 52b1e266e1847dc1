// The online table's connection settings: which signalling networks to use (each default
// list can be switched off, one way to meet kept), relays or trackers of the player's own,
// a TURN server, and "back to the defaults".  Opened from the online setup and join screens
// (`data-action="online-settings"`).  What it stores is config.js's setting, in its format
// (localStorage `jabberwocky.onlineSignal`); config.js checks it.  A relay the page's
// Content-Security-Policy does not list cannot be reached whatever is stored: the screen
// says which hosts it may reach and refuses any other.  Every word from the catalogues;
// the hooks are in docs/web-protocol.md ("Online tables").

import { $, el, openDialog } from "../dom/util.js";
import { t } from "../i18n.js";
import { NETWORKS, settingsForm, checkSettings, storeSettings, connectSources, pageCsp, reachableHosts, addressesOf, settingsOf } from "./config.js";

const host = (url) => url.replace(/^wss?:\/\//, "");

/** The form's fields, by the `field` names checkSettings reports. */
const FIELDS = {
  "own-torrent": () => $("online-own-torrent"),
  "own-nostr": () => $("online-own-nostr"),
  "turn-url": () => $("online-turn-url"),
  "turn-login": () => $("online-turn-user"),
  networks: () => $("dlg-online-settings").querySelector("[data-online-network]"),
};

function fill(form) {
  const dlg = $("dlg-online-settings");
  for (const box of dlg.querySelectorAll("[data-online-network]")) box.checked = form.use[box.dataset.onlineNetwork];
  for (const { strategy, urls } of NETWORKS) $(`online-network-${strategy}`).textContent = urls.map(host).join(", ");
  $("online-own-torrent").value = form.own.torrent.join("\n");
  $("online-own-nostr").value = form.own.nostr.join("\n");
  $("online-turn-url").value = form.turn.urls;
  $("online-turn-user").value = form.turn.username;
  $("online-turn-pass").value = form.turn.credential;
}

function read(kept) {
  const dlg = $("dlg-online-settings");
  const use = {};
  for (const box of dlg.querySelectorAll("[data-online-network]")) use[box.dataset.onlineNetwork] = box.checked;
  return {
    use,
    own: { torrent: addressesOf($("online-own-torrent").value), nostr: addressesOf($("online-own-nostr").value) },
    turn: { urls: $("online-turn-url").value.trim(), username: $("online-turn-user").value, credential: $("online-turn-pass").value },
    iceServers: kept.iceServers,
  };
}

/** Say what is wrong (each field marked `aria-invalid`), or clear it: the errors' count. */
function showErrors(errors) {
  const list = $("online-settings-errors");
  for (const get of Object.values(FIELDS)) get()?.removeAttribute("aria-invalid");
  list.replaceChildren(...errors.map((e) => el("li", { "data-error": e.code, "data-field": e.field }, t(e.code, e.params))));
  list.hidden = !errors.length;
  for (const e of errors) FIELDS[e.field]?.()?.setAttribute("aria-invalid", "true");
  $("dlg-online-settings").dataset.errors = String(errors.length);
  return errors.length;
}

function said(key) {
  $("online-settings-status").textContent = key ? t(key) : "";
}

/** The words of the connection check's results (check.js), by verdict. */
const NETWORK_NAMES = { torrent: "online.settings.torrent", nostr: "online.settings.nostr" };
const STUN_WORDS = { ok: "online.check.stun_ok", symmetric: "online.check.stun_symmetric", none: "online.check.stun_none", unset: "online.check.stun_unset" };
const TURN_WORDS = { ok: "online.check.turn_ok", refused: "online.check.turn_refused", no_answer: "online.check.turn_no_answer", unset: "online.check.turn_unset" };

/** Show the check running (`result` null) or its results, one line each, with hooks. */
function showCheck(result) {
  const list = $("online-check-results");
  $("dlg-online-settings").dataset.check = result ? "done" : "running";
  list.hidden = false;
  if (!result) {
    list.replaceChildren(el("li", {}, t("online.check.running")));
    return;
  }
  const items = result.networks.map((n) => el("li", { "data-check-network": n.strategy, "data-result": n.answered ? "ok" : "none" },
    t(n.answered ? "online.check.network_ok" : "online.check.network_none", { network: t(NETWORK_NAMES[n.strategy]), n: n.answered, total: n.total })));
  items.push(el("li", { "data-check-stun": result.stun }, t(STUN_WORDS[result.stun])));
  items.push(el("li", { "data-check-turn": result.turn }, t(TURN_WORDS[result.turn])));
  list.replaceChildren(...items);
}

/** Check the settings as the form has them (saved or not): each network's servers, STUN,
 *  TURN.  Only when asked; the form's errors first. */
async function runCheck(kept, sources) {
  const checked = checkSettings(read(kept), sources);
  if (!checked.ok) {
    showErrors(checked.errors);
    return;
  }
  showErrors([]);
  const settings = settingsOf(checked.data ?? null);
  showCheck(null);
  const { checkConnection } = await import("./check.js");
  showCheck(await checkConnection(settings));
}

/** Open the screen with what is stored now (an address stored that the page cannot reach is
 *  flagged at once). */
export function openSignalSettings({ storage = globalThis.localStorage, csp = pageCsp() } = {}) {
  const dlg = $("dlg-online-settings");
  const sources = connectSources(csp);
  const hosts = reachableHosts(sources);
  $("online-settings-reach").textContent = t("online.settings.reach", { hosts: hosts.join(", ") });
  const kept = settingsForm(storage);
  fill(kept);
  said("");
  showErrors([]);
  const stored = checkSettings(kept, sources);
  if (!stored.ok) showErrors(stored.errors);
  dlg.querySelector('[data-action="online-settings-save"]').onclick = () => {
    said("");
    const checked = checkSettings(read(kept), sources);
    if (!checked.ok) {
      showErrors(checked.errors);
      (FIELDS[checked.errors[0].field]?.() || dlg).focus?.();
      return;
    }
    showErrors([]);
    try {
      storeSettings(checked.data, storage);
    } catch {
      said("online.settings.not_stored"); // no storage (a private window's, full): nothing lost on screen
      return;
    }
    dlg.dataset.saved = checked.data ? "custom" : "defaults";
    said("online.settings.saved");
  };
  dlg.querySelector('[data-action="online-settings-defaults"]').onclick = () => {
    try {
      storeSettings(null, storage);
    } catch { /* nothing stored to remove */ }
    const defaults = settingsForm(null);
    kept.iceServers = undefined;
    fill(defaults);
    showErrors([]);
    dlg.dataset.saved = "defaults";
    said("online.settings.defaults_back");
  };
  dlg.querySelector('[data-action="online-check"]').onclick = () => runCheck(kept, sources);
  $("online-check-results").hidden = true;
  delete dlg.dataset.check;
  delete dlg.dataset.saved;
  openDialog(dlg);
}
