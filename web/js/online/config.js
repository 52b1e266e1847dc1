// Where the players' browsers meet to set up their direct connections: the signalling
// networks (two independent ones, each a list of public servers) and the ICE servers.
// index.html's Content-Security-Policy lists exactly these hosts in connect-src (and
// loopback addresses, for a relay on this device); tests/web/online-config.test.mjs
// checks the two agree.
//
// Settings (docs/web-protocol.md, "Online tables"): the localStorage key
// `jabberwocky.onlineSignal` holds JSON that replaces the defaults for this browser:
//   {"strategy": "torrent"|"nostr", "urls": ["ws://127.0.0.1:8123"], "iceServers": []}
// or {"networks": [{strategy, urls}, …], "iceServers": [...], "turn": [{urls, username,
// credential}]}.  Tests and outside checks point the page at a local tracker with it; a
// player adds a TURN server for networks where a direct connection fails.

export const APP_ID = "jabberwocky-online-1";
export const SIGNAL_KEY = "jabberwocky.onlineSignal";

/** The default networks: WebTorrent trackers, and Nostr relays as the second one. */
export const NETWORKS = [
  { strategy: "torrent", urls: ["wss://tracker.webtorrent.dev", "wss://tracker.openwebtorrent.com", "wss://tracker.btorrent.xyz"] },
  { strategy: "nostr", urls: ["wss://nos.lol", "wss://relay.mostr.pub", "wss://purplerelay.com", "wss://relay.sigit.io"] },
];

/** The default STUN servers (they tell a browser its public address; no game data). */
export const ICE_SERVERS = [{ urls: "stun:stun.l.google.com:19302" }, { urls: "stun:stun.cloudflare.com:3478" }];

const STRATEGIES = ["torrent", "nostr"];
const URL_RE = /^wss?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~/-]*)?$/;

const urlsOf = (list) => (Array.isArray(list) ? list.filter((u) => typeof u === "string" && URL_RE.test(u)).slice(0, 12) : []);

function networksOf(data) {
  const given = Array.isArray(data.networks) ? data.networks : [{ strategy: data.strategy, urls: data.urls }];
  return given.filter((n) => n && STRATEGIES.includes(n.strategy))
    .map((n) => ({ strategy: n.strategy, urls: urlsOf(n.urls) }))
    .filter((n) => n.urls.length);
}

/** The settings in force: {networks, iceServers, turn, custom}; a stored setting that is
 *  not usable is ignored as a whole (the defaults hold). */
export function signalSettings(storage = globalThis.localStorage) {
  let data = null;
  try {
    data = JSON.parse(storage?.getItem(SIGNAL_KEY) || "null");
  } catch {
    data = null;
  }
  return settingsOf(data);
}

/** What a setting means (`data`: as stored, parsed; null: none): the settings
 *  signalSettings answers for it (the connection check reads the form's this way). */
export function settingsOf(data) {
  const defaults = { networks: NETWORKS, iceServers: ICE_SERVERS, turn: [], custom: false };
  if (!data || typeof data !== "object") return defaults;
  const networks = networksOf(data);
  const ice = Array.isArray(data.iceServers) ? data.iceServers.filter((s) => s && (typeof s.urls === "string" || Array.isArray(s.urls))) : ICE_SERVERS;
  const turn = Array.isArray(data.turn) ? data.turn.filter((s) => s && (typeof s.urls === "string" || Array.isArray(s.urls))) : [];
  return { networks: networks.length ? networks : NETWORKS, iceServers: ice, turn, custom: networks.length > 0 };
}

// -- the settings screen's model (online/settings-screen.js): what the stored setting
// means as a form, what the form means as a stored setting, and what this page may reach.

/** At most this many addresses a list, and this long a TURN user name or password. */
export const MAX_URLS = 12;
const MAX_LOGIN = 256;
const TURN_RE = /^turns?:[A-Za-z0-9.-]+(:\d{1,5})?(\?transport=(udp|tcp))?$/;
const LOOPBACK_HOSTS = ["127.0.0.1", "localhost"];

/** The connect-src sources of the Content-Security-Policy `csp` (a meta tag's content). */
export function connectSources(csp) {
  const directive = String(csp || "").split(";").map((d) => d.trim().split(/\s+/)).find((d) => d[0] === "connect-src");
  return directive ? directive.slice(1) : [];
}

/** The Content-Security-Policy this page runs under (its meta tag), or "". */
export function pageCsp(doc = globalThis.document) {
  return doc?.querySelector?.('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") || "";
}

/** Whether a page under connect-src `sources` may open a WebSocket to `url` (the CSP's
 *  host-source matching, for the forms the site's policy uses: a scheme and host with no
 *  port, which means the scheme's own port, or `:*`; a ws: source also allows wss:). */
export function reachable(url, sources) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const port = u.port || (u.protocol === "wss:" ? "443" : "80");
  return sources.some((source) => {
    const m = /^(wss?):\/\/([^/:]+)(?::(\d+|\*))?\/?$/.exec(source);
    if (!m) return false;
    const [, scheme, host, sourcePort] = m;
    const schemeOk = u.protocol === `${scheme}:` || (scheme === "ws" && u.protocol === "wss:");
    const portOk = sourcePort === "*" || port === (sourcePort || (scheme === "wss" ? "443" : "80"))
      || (!sourcePort && scheme === "ws" && u.protocol === "wss:" && port === "443");
    return schemeOk && host.toLowerCase() === u.hostname.toLowerCase() && portOk;
  });
}

/** The hosts a relay may be on, as the settings screen names them: the CSP's wss/ws hosts. */
export function reachableHosts(sources) {
  return sources.filter((s) => /^wss?:\/\//.test(s)).map((s) => s.replace(/^wss?:\/\//, "").replace(/:\*$/, ""))
    .filter((h, i, all) => all.indexOf(h) === i && !LOOPBACK_HOSTS.includes(h));
}

function storedData(storage) {
  try {
    const data = JSON.parse(storage?.getItem(SIGNAL_KEY) || "null");
    return data && typeof data === "object" && !Array.isArray(data) ? data : null;
  } catch {
    return null;
  }
}

/**
 * The stored setting as the screen shows it: {use: {torrent, nostr} (the default list of
 * that network in use), own: {torrent: [urls], nostr: [urls]} (addresses beyond the
 * defaults), turn: {urls, username, credential}, iceServers (kept as stored; undefined:
 * the default STUN servers)}.
 */
export function settingsForm(storage = globalThis.localStorage) {
  const data = storedData(storage);
  const form = { use: { torrent: true, nostr: true }, own: { torrent: [], nostr: [] }, turn: { urls: "", username: "", credential: "" }, iceServers: undefined };
  if (!data) return form;
  const networks = networksOf(data);
  if (networks.length) {
    for (const { strategy, urls: defaults } of NETWORKS) {
      const stored = networks.filter((n) => n.strategy === strategy).flatMap((n) => n.urls);
      form.use[strategy] = defaults.some((u) => stored.includes(u));
      form.own[strategy] = stored.filter((u) => !defaults.includes(u));
    }
  }
  const turn = Array.isArray(data.turn) ? data.turn.find((s) => s && typeof s.urls === "string") : null;
  if (turn) form.turn = { urls: turn.urls, username: String(turn.username ?? ""), credential: String(turn.credential ?? "") };
  if (Array.isArray(data.iceServers)) form.iceServers = data.iceServers;
  return form;
}

/** Split a text box's addresses (one a line, or separated by spaces or commas). */
export function addressesOf(text) {
  return String(text || "").split(/[\s,]+/).map((u) => u.trim()).filter(Boolean);
}

/**
 * Check the screen's `form` against what the page may reach (`sources`, connect-src):
 * {ok: true, data: the setting to store (null: the defaults, nothing to store)} or
 * {ok: false, errors: [{field, code, params}]} (codes: catalogue keys
 * `online.settings.error.*`).
 */
export function checkSettings(form, sources) {
  const errors = [];
  const networks = [];
  for (const { strategy, urls: defaults } of NETWORKS) {
    const own = form.own[strategy] || [];
    const field = `own-${strategy}`;
    if (own.length > MAX_URLS) errors.push({ field, code: "online.settings.error.too_many", params: { n: MAX_URLS } });
    for (const url of own) {
      if (!URL_RE.test(url)) errors.push({ field, code: "online.settings.error.bad_url", params: { url: url.slice(0, 80) } });
      else if (!reachable(url, sources)) errors.push({ field, code: "online.settings.error.blocked", params: { url, host: new URL(url).host } });
    }
    const urls = [...(form.use[strategy] ? defaults : []), ...own.filter((u) => !defaults.includes(u))];
    if (urls.length) networks.push({ strategy, urls: urls.slice(0, MAX_URLS) });
  }
  if (!networks.length) errors.push({ field: "networks", code: "online.settings.error.none", params: {} });
  const turn = { urls: String(form.turn.urls || "").trim(), username: String(form.turn.username || ""), credential: String(form.turn.credential || "") };
  if (turn.urls && !TURN_RE.test(turn.urls)) errors.push({ field: "turn-url", code: "online.settings.error.turn_url", params: { url: turn.urls.slice(0, 80) } });
  else if (turn.urls && (!turn.username || !turn.credential)) errors.push({ field: "turn-login", code: "online.settings.error.turn_login", params: {} });
  else if (!turn.urls && (turn.username || turn.credential)) errors.push({ field: "turn-url", code: "online.settings.error.turn_no_url", params: {} });
  if (turn.username.length > MAX_LOGIN || turn.credential.length > MAX_LOGIN) errors.push({ field: "turn-login", code: "online.settings.error.too_long", params: { n: MAX_LOGIN } });
  if (errors.length) return { ok: false, errors };
  const data = {};
  const same = networks.length === NETWORKS.length && networks.every((n, i) => n.strategy === NETWORKS[i].strategy && n.urls.join() === NETWORKS[i].urls.join());
  if (!same) data.networks = networks;
  if (form.iceServers !== undefined) data.iceServers = form.iceServers;
  if (turn.urls) data.turn = [turn];
  return { ok: true, data: Object.keys(data).length ? data : null };
}

/** Store the checked setting (`data` null: back to the defaults, the key removed). */
export function storeSettings(data, storage = globalThis.localStorage) {
  if (data) storage.setItem(SIGNAL_KEY, JSON.stringify(data));
  else storage.removeItem(SIGNAL_KEY);
}
