// The online table's settings (web/js/online/config.js): the page's Content-Security-Policy
// lets it reach exactly the signalling hosts in use (and a relay on this device), the
// stored setting that tests and outside checks use, and no online code on the start path.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./engine-info.mjs";
import { NETWORKS, SIGNAL_KEY, signalSettings, connectSources, reachable, reachableHosts, settingsForm, checkSettings, storeSettings, addressesOf } from "../../web/js/online/config.js";

const html = readFileSync(path.join(ROOT, "web/index.html"), "utf8");
const LOOPBACK = ["ws://127.0.0.1:*", "ws://localhost:*"];

const store = (value) => ({ getItem: (k) => (k === SIGNAL_KEY ? value : null) });

test("connect-src lists exactly the default relays and trackers, and loopback", () => {
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)[1];
  const connect = csp.split(";").map((d) => d.trim().split(/\s+/)).find((d) => d[0] === "connect-src").slice(1);
  const hosts = NETWORKS.flatMap((n) => n.urls);
  assert.deepEqual(connect, ["'self'", ...hosts, ...LOOPBACK]);
  assert.deepEqual(NETWORKS.map((n) => n.strategy), ["torrent", "nostr"], "two independent networks");
  assert.ok(hosts.every((u) => u.startsWith("wss://")));
});

test("the stored setting points the page at a local tracker with no ICE servers", () => {
  const local = signalSettings(store(JSON.stringify({ strategy: "torrent", urls: ["ws://127.0.0.1:8123"], iceServers: [] })));
  assert.deepEqual(local.networks, [{ strategy: "torrent", urls: ["ws://127.0.0.1:8123"] }]);
  assert.deepEqual(local.iceServers, []);
  assert.equal(local.custom, true);
  const turn = signalSettings(store(JSON.stringify({ turn: [{ urls: "turn:turn.example.org:3478", username: "u", credential: "c" }] })));
  assert.deepEqual(turn.networks, NETWORKS, "no networks given: the defaults");
  assert.equal(turn.turn.length, 1);
});

test("a setting that is not usable leaves the defaults", () => {
  for (const bad of ["not json", "[]", "42", JSON.stringify({ strategy: "mqtt", urls: ["wss://x.example"] }),
    JSON.stringify({ strategy: "torrent", urls: ["javascript:alert(1)", "https://x.example"] })]) {
    const s = signalSettings(store(bad));
    assert.deepEqual(s.networks, NETWORKS, bad);
    assert.equal(s.custom, false, bad);
  }
  assert.deepEqual(signalSettings(null).networks, NETWORKS);
});

test("the start-up path loads no online code: main.js imports it only dynamically", () => {
  const IMPORT = /^\s*import\s+(?:[^"'`]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']/gm;
  for (const file of ["js/main.js", "js/actions.js", "js/controller.js", "js/dialogs/new-game.js"]) {
    const text = readFileSync(path.join(ROOT, "web", file), "utf8");
    const statics = [...text.matchAll(IMPORT)].map((m) => m[1]);
    assert.ok(!statics.some((p) => p.includes("online/")), `${file} imports online code at start`);
  }
  assert.ok(!/modulepreload" href="js\/online\//.test(html));
});

// -- the settings screen's model --------------------------------------------------------

const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)[1];
const sources = connectSources(csp);

/** A storage that keeps what is written (localStorage's methods the screen uses). */
function memory(initial = null) {
  const items = new Map(initial === null ? [] : [[SIGNAL_KEY, initial]]);
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)), removeItem: (k) => items.delete(k), items };
}

test("what the page may reach is read from its own CSP: the default hosts and loopback only", () => {
  for (const url of NETWORKS.flatMap((n) => n.urls)) assert.ok(reachable(url, sources), url);
  assert.ok(reachable("ws://127.0.0.1:8123", sources));
  assert.ok(reachable("ws://localhost:9000/announce", sources));
  assert.ok(reachable("wss://localhost:9000", sources), "a ws: source allows wss: too");
  assert.ok(!reachable("wss://relay.example.org", sources), "a host the CSP does not list");
  assert.ok(!reachable("ws://nos.lol", sources), "a wss: host is not reachable over ws:");
  assert.ok(!reachable("wss://nos.lol:4443", sources), "a host source without a port means the scheme's port");
  assert.ok(!reachable("wss://evil.nos.lol", sources));
  assert.ok(!reachable("not a url", sources));
  assert.deepEqual(reachableHosts(sources), NETWORKS.flatMap((n) => n.urls).map((u) => u.slice(6)));
});

test("the form reads the stored setting, and the defaults when there is none", () => {
  const none = settingsForm(memory());
  assert.deepEqual(none.use, { torrent: true, nostr: true });
  assert.deepEqual(none.own, { torrent: [], nostr: [] });
  assert.equal(none.turn.urls, "");
  // the tests' own setting: a local tracker in place of both networks, no ICE servers
  const local = settingsForm(memory(JSON.stringify({ strategy: "torrent", urls: ["ws://127.0.0.1:8123"], iceServers: [] })));
  assert.deepEqual(local.use, { torrent: false, nostr: false });
  assert.deepEqual(local.own, { torrent: ["ws://127.0.0.1:8123"], nostr: [] });
  assert.deepEqual(local.iceServers, []);
  assert.ok(checkSettings(local, sources).ok, "the tests' setting is one the screen accepts as it is");
});

test("a checked form is stored in config.js's format, and read back the same", () => {
  const form = settingsForm(memory());
  form.use.nostr = false;
  form.own.nostr = addressesOf("ws://localhost:7000,\n  ws://127.0.0.1:7001 ");
  form.turn = { urls: "turns:turn.example.org:5349", username: "ann", credential: "secret" };
  const checked = checkSettings(form, sources);
  assert.ok(checked.ok, JSON.stringify(checked.errors));
  const storage = memory();
  storeSettings(checked.data, storage);
  const stored = JSON.parse(storage.items.get(SIGNAL_KEY));
  assert.deepEqual(stored, {
    networks: [NETWORKS[0], { strategy: "nostr", urls: ["ws://localhost:7000", "ws://127.0.0.1:7001"] }],
    turn: [{ urls: "turns:turn.example.org:5349", username: "ann", credential: "secret" }],
  });
  // what the transport will use
  const used = signalSettings(storage);
  assert.deepEqual(used.networks, stored.networks);
  assert.equal(used.custom, true);
  assert.deepEqual(used.turn, stored.turn);
  assert.deepEqual(settingsForm(storage), { ...form, iceServers: undefined });
  // the defaults again: nothing stored
  const back = checkSettings(settingsForm(memory()), sources);
  assert.deepEqual(back, { ok: true, data: null });
  storeSettings(back.data, storage);
  assert.equal(storage.items.has(SIGNAL_KEY), false);
});

test("bad input is refused with a reason for each field, and nothing is stored", () => {
  const codes = (form) => checkSettings(form, sources).errors?.map((e) => `${e.field} ${e.code}`) ?? [];
  const form = () => settingsForm(memory());
  const off = form();
  off.use = { torrent: false, nostr: false };
  assert.deepEqual(codes(off), ["networks online.settings.error.none"]);
  const far = form();
  far.own.torrent = ["wss://tracker.example.org"];
  const blocked = checkSettings(far, sources).errors;
  assert.deepEqual(blocked.map((e) => e.code), ["online.settings.error.blocked"]);
  assert.equal(blocked[0].params.host, "tracker.example.org");
  const junk = form();
  junk.own.nostr = ["https://relay.example.org", "javascript:alert(1)"];
  assert.deepEqual(codes(junk), ["own-nostr online.settings.error.bad_url", "own-nostr online.settings.error.bad_url"]);
  const many = form();
  many.own.nostr = Array.from({ length: 13 }, (_, i) => `ws://localhost:${7000 + i}`);
  assert.deepEqual(codes(many), ["own-nostr online.settings.error.too_many"]);
  const turn = form();
  turn.turn = { urls: "turn:turn.example.org:3478", username: "", credential: "" };
  assert.deepEqual(codes(turn), ["turn-login online.settings.error.turn_login"]);
  turn.turn = { urls: "http://turn.example.org", username: "u", credential: "p" };
  assert.deepEqual(codes(turn), ["turn-url online.settings.error.turn_url"]);
  turn.turn = { urls: "", username: "u", credential: "" };
  assert.deepEqual(codes(turn), ["turn-url online.settings.error.turn_no_url"]);
  turn.turn = { urls: "turn:t.example.org", username: "u".repeat(300), credential: "p" };
  assert.deepEqual(codes(turn), ["turn-login online.settings.error.too_long"]);
});
