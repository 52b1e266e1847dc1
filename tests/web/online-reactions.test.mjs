// Reactions at an online table (web/js/online/reactions.js, and the host's relay of them):
// who may react, one tap at a time, where each shows, that every reaction has its words in
// every language, and that the host passes a reaction to every screen (its own included).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { mayReact, ReactionGate, bubbleSpot, COOLDOWN_MS, REACTION_WORDS } from "../../web/js/online/reactions.js";
import { REACTIONS, PROTOCOL, newToken } from "../../web/js/online/protocol.js";
import { openTable } from "../../web/js/online/host.js";
import { GameController } from "../../web/js/controller.js";
import { computeLayout } from "../../web/js/layout.js";
import { LANGUAGES } from "../../web/js/i18n.js";
import { ROOT } from "./engine-info.mjs";

test("the host reacts once the game is on; a guest only with a seat, during play", () => {
  assert.equal(mayReact(null), false);
  assert.equal(mayReact({ role: "host", started: false }), false);
  assert.equal(mayReact({ role: "host", started: true }), true);
  for (const status of ["looking", "waiting", "full", "watching", "reconnecting", "ended", "over"]) {
    assert.equal(mayReact({ role: "guest", status }), false, status);
  }
  assert.equal(mayReact({ role: "guest", status: "playing" }), true);
});

test("one tap at a time: the buttons wait a moment after each", () => {
  const gate = new ReactionGate();
  assert.equal(gate.take(1000), true);
  assert.equal(gate.take(1000 + COOLDOWN_MS - 1), false);
  assert.equal(gate.take(1000 + COOLDOWN_MS), true);
});

test("a reaction shows above its sender's badge, wherever that seat sits on this screen", () => {
  const view = { players: 4, viewer: 2, hand: [] }; // a watcher's view holds no hand
  const layout = computeLayout(390, 844, view);
  // seat 2 is this screen's own (the bottom), seat 3 the next one round
  const own = bubbleSpot(layout, view, 2, "nice");
  const you = layout.seats[0];
  assert.deepEqual(own, { x: Math.round(you.x), y: Math.round(you.y), place: "over" }, "over your badge: the bid panel is above it");
  const next = layout.seats[1];
  assert.deepEqual(bubbleSpot(layout, view, 3, "gg"), { x: Math.round(next.x), y: Math.round(Math.max(4, next.y - next.bh / 2 - 6)), place: "above" });
  assert.equal(bubbleSpot(layout, view, 3, "boo"), null, "not a reaction");
  assert.equal(bubbleSpot(layout, view, 4, "gg"), null, "not a seat here");
  assert.equal(bubbleSpot(layout, null, 1, "gg"), null);
});

test("every reaction has its words in all four languages", () => {
  assert.deepEqual(Object.keys(REACTION_WORDS), REACTIONS);
  for (const lang of LANGUAGES) {
    const words = JSON.parse(readFileSync(path.join(ROOT, `web/i18n/${lang}.json`), "utf8"));
    for (const r of REACTIONS) assert.ok(words[REACTION_WORDS[r]]?.trim(), `${lang}: ${REACTION_WORDS[r]}`);
    assert.match(words["online.reaction_said"], /\{name\}.*\{reaction\}|\{reaction\}.*\{name\}/s, lang);
  }
});

function fakeLink() {
  const sent = new Map();
  return {
    sent,
    onMessage: () => {}, onPeerJoin: () => {}, onPeerLeave: () => {},
    send(text, peer) {
      if (!sent.has(peer)) sent.set(peer, []);
      sent.get(peer).push(JSON.parse(text));
    },
    leave: async () => {},
  };
}

test("the host passes a reaction to every screen, its own too; a watcher's and a bad one go nowhere", async () => {
  const link = fakeLink();
  const engine = { ready: Promise.resolve({ build: "b1" }), publicView: async () => ({ result: {} }), seatView: async () => ({ result: {} }) };
  const controller = new GameController({ engine });
  const shown = [];
  controller.addEventListener("online-react", ({ detail }) => shown.push(detail));
  const host = await openTable({ plan: { players: 3, seats: ["host", "friend", "medium"], rules: "jabberwocky", hostName: "Hana" }, controller, engine, build: "b1", linkOpener: async () => link });
  let seq = 0;
  const say = (peer, fields) => link.onMessage(JSON.stringify({ v: PROTOCOL, s: ++seq, ...fields }), peer);
  for (const peer of ["pa", "pw"]) link.onPeerJoin(peer);
  say("pa", { t: "hello", token: newToken(), name: "Ada", build: "b1" });
  say("pw", { t: "hello", token: newToken(), name: "Wil", build: "b1" }); // the table is full: watches
  const reacts = (peer) => link.sent.get(peer).filter((m) => m.t === "react").map((m) => [m.seat, m.r]);
  say("pa", { t: "react", r: "wow" });
  say("pa", { t: "react", r: "boo" }); // not a reaction: refused by the schema
  say("pw", { t: "react", r: "nice" }); // a watcher has no seat to react from
  assert.equal(host.react("gg"), true);
  assert.equal(host.react("boo"), false);
  for (const peer of ["pa", "pw"]) assert.deepEqual(reacts(peer), [[1, "wow"], [0, "gg"]], peer);
  assert.deepEqual(shown, [{ seat: 1, r: "wow" }, { seat: 0, r: "gg" }]);
  assert.ok(host.log.some((e) => e.code === "online.refused.field"));
  assert.ok(host.log.some((e) => e.code === "online.refused.no_seat"));
  await host.close();
});
