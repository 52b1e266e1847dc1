// Service worker registration and the "a new version is ready" prompt.
//
// The page never reloads by itself: a new build installs in the background and waits;
// the player is told and chooses when to reload (the saved game in localStorage is
// picked up by the new version). Only after the player's click is the waiting worker
// told to take over (SKIP_WAITING), and the page reloads once it has.
//
// Test hooks: document.body.dataset.update is "none", "installing", "ready" (toast shown)
// or "reloading"; the toast is `.update-toast` with a button `[data-action="reload-update"]`.

import { engine } from "./engine.js";
import { t } from "./i18n.js";

const SW_URL = new URL("../sw.js", import.meta.url);

// What this module shows and whether a reload was asked for belong to the controller
// (`controller.screen("update", initialState)`); initUpdates is handed it.
let S = null;

/** {toast: the prompt once made, action: what its Reload button does, reloadRequested}. */
export const initialState = () => ({ toast: null, action: () => {}, reloadRequested: false });

// Set once the service worker is registered: looks for a new build now and offers it with
// the words given (offerUpdate).
let offerHook = null;

/**
 * Look for a new build now and offer it in the update prompt with `message` (an online
 * guest whose page is another build than the host's: online/lobby.js).  Resolves to true
 * when one is offered (now, or as soon as it has installed), false when there is none, null
 * when this page has no service worker to update through (a reload then loads the newest).
 * `returnTo`: the address the page reloads into (the join link: saving the game before the
 * reload writes the game's own address).
 */
export function offerUpdate(message, returnTo = null) {
  return offerHook ? offerHook(message, returnTo) : Promise.resolve(null);
}

function setState(state) {
  if (document.body) document.body.dataset.update = state;
}

function button(text, action) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.dataset.action = action;
  return b;
}

// The toast: built with textContent only; styled by the class `.update-toast` (C2's CSS),
// with a few defaults when no stylesheet gives it `position: fixed`.
function showToast(message, onReload) {
  S.action = onReload;
  if (S.toast) {
    S.toast.querySelector(".update-toast-text").textContent = message;
    S.toast.hidden = false;
    return S.toast;
  }
  S.toast = document.createElement("div");
  S.toast.className = "update-toast";
  S.toast.setAttribute("role", "status");
  S.toast.setAttribute("aria-live", "polite");
  const text = document.createElement("span");
  text.className = "update-toast-text";
  text.textContent = message;
  const reload = button(t("update.reload"), "reload-update");
  const later = button(t("update.later"), "dismiss-update");
  reload.addEventListener("click", () => S.action());
  later.addEventListener("click", () => {
    S.toast.hidden = true;
  });
  S.toast.append(text, " ", reload, " ", later);
  document.body.append(S.toast);
  // Defaults through the CSSOM (allowed by the CSP) only when no stylesheet placed it.
  if (getComputedStyle(S.toast).position !== "fixed") {
    Object.assign(S.toast.style, {
      position: "fixed", left: "50%", bottom: "1rem", transform: "translateX(-50%)",
      zIndex: "1000", padding: "0.6rem 0.9rem", borderRadius: "0.5rem",
      background: "#102a1c", color: "#fff", boxShadow: "0 2px 10px rgba(0,0,0,.4)",
      maxWidth: "calc(100vw - 2rem)",
    });
  }
  return S.toast;
}

/**
 * Register ./sw.js (relative to the site root, so it works under any sub-path) and
 * prompt when a new version is ready.
 *
 * options.onUpdateReady(apply): called when a new version is waiting; `apply()` reloads
 *   into it. When given, no toast is shown by this module (the caller shows its own).
 * options.beforeReload(): called right before the reload the player asked for (e.g. to
 *   flush the saved game); may return a Promise.
 * options.message: the toast text (default: the catalogue's update.ready).
 * options.state: where this module keeps what it shows (the controller's).
 * options.registerAfter: a Promise to wait for before registering (default: the engine
 *   is ready). On a first visit the engine's own downloads then fill the HTTP cache and
 *   the service worker's precache revalidates them (304) instead of downloading Pyodide
 *   a second time.
 * Returns a Promise of {registration, checkForUpdate(), applyUpdate()}.
 */
export async function initUpdates(options = {}) {
  S = options.state ?? initialState();
  const message = options.message || t("update.ready");
  const none = { registration: null, checkForUpdate: async () => false, applyUpdate() {} };
  if (!("serviceWorker" in navigator) || !window.isSecureContext) {
    setState("unsupported");
    return none;
  }
  const sw = navigator.serviceWorker;
  try {
    await (options.registerAfter ?? engine.ready);
  } catch {
    // The engine failed to start: register anyway (offline play may still come later).
  }
  let registration;
  try {
    registration = await sw.register(SW_URL.href, { scope: "./", type: "classic" });
  } catch (err) {
    // Offline play is lost, the game is not: say so in the console and carry on.
    console.warn("service worker registration failed:", err && err.message);
    setState("unsupported");
    return none;
  }
  let hadController = Boolean(sw.controller);
  let offered = null; // the words an offer asked for (offerUpdate)
  setState(hadController ? "none" : "installing");

  async function applyUpdate() {
    const waiting = registration.waiting;
    if (!waiting) return;
    S.reloadRequested = true;
    setState("reloading");
    try {
      if (options.beforeReload) await options.beforeReload();
    } catch (err) {
      console.warn("saving before the update failed:", err && err.message);
    }
    waiting.postMessage({ type: "SKIP_WAITING" });
  }

  function announce() {
    // Only a waiting worker while another one controls this page is an *update*.
    if (!registration.waiting || !sw.controller) return;
    setState("ready");
    if (options.onUpdateReady) options.onUpdateReady(applyUpdate);
    else showToast(offered || message, applyUpdate);
  }

  function track(worker) {
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed") announce();
      if (worker.state === "activated" && document.body.dataset.update === "installing") {
        setState("none");
      }
    });
  }

  registration.addEventListener("updatefound", () => track(registration.installing));
  track(registration.installing);
  announce();

  sw.addEventListener("controllerchange", () => {
    if (S.reloadRequested) {
      if (S.returnTo) history.replaceState(history.state, "", S.returnTo);
      window.location.reload();
      return;
    }
    // The first install taking control (clients.claim) is not an update.
    if (!hadController) {
      hadController = true;
      setState("none");
      return;
    }
    // Another tab applied the update: this page still runs the old version. Never
    // reload by itself; ask the player instead.
    setState("ready");
    showToast(message, () => {
      S.reloadRequested = true;
      setState("reloading");
      Promise.resolve(options.beforeReload && options.beforeReload())
        .then(() => window.location.reload());
    });
  });

  async function checkForUpdate() {
    try {
      await registration.update();
    } catch {
      return false; // offline: nothing to do
    }
    return Boolean(registration.waiting || registration.installing);
  }

  offerHook = async (words, returnTo) => {
    offered = words;
    S.returnTo = returnTo;
    if (!registration.waiting && !(await checkForUpdate())) return false;
    announce(); // a worker still installing announces itself once installed
    return true;
  };

  // Look for a new build when the player comes back to the tab, and hourly.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") checkForUpdate();
  });
  setInterval(checkForUpdate, 60 * 60 * 1000);

  return { registration, checkForUpdate, applyUpdate };
}
