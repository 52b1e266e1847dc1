// The online table's settings (web/js/online/config.js): the page's Content-Security-Policy
// lets it reach exactly the signalling hosts in use (and a relay on this device), the
// stored setting that tests and outside checks use, and no online code on the start path.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./engine-info.mjs";
import { NETWORKS, SIGNAL_KEY, signalSettings } from "../../web/js/online/config.js";

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
