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
  const defaults = { networks: NETWORKS, iceServers: ICE_SERVERS, turn: [], custom: false };
  if (!data || typeof data !== "object") return defaults;
  const networks = networksOf(data);
  const ice = Array.isArray(data.iceServers) ? data.iceServers.filter((s) => s && (typeof s.urls === "string" || Array.isArray(s.urls))) : ICE_SERVERS;
  const turn = Array.isArray(data.turn) ? data.turn.filter((s) => s && (typeof s.urls === "string" || Array.isArray(s.urls))) : [];
  return { networks: networks.length ? networks : NETWORKS, iceServers: ice, turn, custom: networks.length > 0 };
}
