// The connection check's verdicts (web/js/online/check.js), from gatherings as a browser
// reports them; the real thing runs in e2e/test_online_nat.py, behind NATs and a TURN server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { stunVerdict, turnVerdict, checkConnection } from "../../web/js/online/check.js";

const srflx = (port) => ({ type: "srflx", address: "203.0.113.7", port });

test("STUN: one public address for every server, two ports (symmetric), none", () => {
  assert.equal(stunVerdict({ candidates: [{ type: "host", address: "10.0.0.2", port: 5 }, srflx(4000), srflx(4000)] }), "ok");
  assert.equal(stunVerdict({ candidates: [srflx(4000), srflx(5123)] }), "symmetric");
  assert.equal(stunVerdict({ candidates: [{ type: "host", address: "10.0.0.2", port: 5 }] }), "none");
});

test("TURN: a relay, a 401, or no answer", () => {
  assert.equal(turnVerdict({ candidates: [{ type: "relay", address: "198.51.100.1", port: 49152 }], errors: [] }), "ok");
  assert.equal(turnVerdict({ candidates: [], errors: [{ url: "turn:x", code: 401 }] }), "refused");
  assert.equal(turnVerdict({ candidates: [], errors: [{ url: "turn:x", code: 701 }] }), "no_answer");
});

test("the check asks each network's servers, STUN and TURN (relay only), and nothing unset", async () => {
  const asked = [];
  const answers = async (url) => (asked.push(url), url.includes("up"));
  const gatherWith = async (servers, policy = "all") => {
    asked.push(`${policy}:${servers.map((s) => s.urls).join()}`);
    return policy === "relay" ? { candidates: [], errors: [{ code: 401 }] } : { candidates: [srflx(1), srflx(2)], errors: [] };
  };
  const settings = {
    networks: [{ strategy: "torrent", urls: ["ws://up.example", "ws://down.example"] }, { strategy: "nostr", urls: ["ws://down2.example"] }],
    iceServers: [{ urls: "stun:a" }, { urls: "stun:b" }],
    turn: [{ urls: "turn:t", username: "u", credential: "p" }],
  };
  const result = await checkConnection(settings, { answers, gatherWith });
  assert.deepEqual(result, {
    networks: [{ strategy: "torrent", answered: 1, total: 2 }, { strategy: "nostr", answered: 0, total: 1 }],
    stun: "symmetric", turn: "refused",
  });
  assert.deepEqual(asked.sort(), ["all:stun:a,stun:b", "relay:turn:t", "ws://down.example", "ws://down2.example", "ws://up.example"]);
  const none = await checkConnection({ networks: [], iceServers: [], turn: [] }, { answers, gatherWith });
  assert.deepEqual(none, { networks: [], stun: "unset", turn: "unset" });
});
