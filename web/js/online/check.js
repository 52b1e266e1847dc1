// "Check my connection" (Connection settings): what a player can learn from this device
// alone before a table.  Run only when asked; it contacts only the servers of the settings
// being checked, and the screen says which before it does.
//   - each signalling network: which of its servers answer (a WebSocket opened, then closed);
//   - STUN: whether this device's public address is found (a `srflx` candidate), and whether
//     two STUN servers see it from different ports: a NAT that gives every destination a
//     new port (symmetric), between which and another no direct connection can be made;
//   - TURN: whether the server set gives a relayed address with these credentials (a
//     gathering with `iceTransportPolicy: "relay"`: a `relay` candidate), or refuses them
//     (401), or does not answer.
// Results are catalogue keys (`online.check.*`); the screen shows them (settings-screen.js).

const SOCKET_MS = 5000;
const GATHER_MS = 8000;

/** Whether a WebSocket to `url` opens within `ms`. */
export function socketAnswers(url, ms = SOCKET_MS, Socket = globalThis.WebSocket) {
  return new Promise((resolve) => {
    let socket;
    const done = (ok) => {
      clearTimeout(timer);
      try {
        socket?.close();
      } catch { /* closed already */ }
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    try {
      socket = new Socket(url);
    } catch {
      done(false);
      return;
    }
    socket.onopen = () => done(true);
    socket.onerror = () => done(false);
  });
}

/** An ICE gathering with `iceServers`: {candidates: [{type, address, port}], errors: [{url, code}]}. */
export async function gather(iceServers, policy = "all", ms = GATHER_MS, Connection = globalThis.RTCPeerConnection) {
  const pc = new Connection({ iceServers, iceTransportPolicy: policy });
  const out = { candidates: [], errors: [] };
  pc.addEventListener("icecandidate", (e) => {
    if (e.candidate) out.candidates.push({ type: e.candidate.type, address: e.candidate.address, port: e.candidate.port });
  });
  pc.addEventListener("icecandidateerror", (e) => out.errors.push({ url: String(e.url || ""), code: Number(e.errorCode) || 0 }));
  pc.createDataChannel("check");
  try {
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      const complete = () => {
        if (pc.iceGatheringState !== "complete") return;
        clearTimeout(timer);
        // an ICE server's complaint can come just after the gathering ends
        setTimeout(resolve, 500);
      };
      pc.addEventListener("icegatheringstatechange", complete);
      complete();
    });
  } finally {
    pc.close();
  }
  return out;
}

/** STUN's verdict from a gathering: "ok", "symmetric" (two servers saw two ports) or "none". */
export function stunVerdict({ candidates }) {
  const seen = candidates.filter((c) => c.type === "srflx");
  if (!seen.length) return "none";
  return new Set(seen.map((c) => `${c.address}:${c.port}`)).size > 1 ? "symmetric" : "ok";
}

/** TURN's verdict from a relay-only gathering: "ok", "refused" (401) or "no_answer". */
export function turnVerdict({ candidates, errors }) {
  if (candidates.some((c) => c.type === "relay")) return "ok";
  return errors.some((e) => e.code === 401) ? "refused" : "no_answer";
}

/**
 * Check `settings` (config.js signalSettings' form): {networks: [{strategy, answered,
 * total}], stun: "ok"|"symmetric"|"none"|"unset", turn: "ok"|"refused"|"no_answer"|"unset"}.
 */
export async function checkConnection(settings, { answers = socketAnswers, gatherWith = gather } = {}) {
  const networks = Promise.all(settings.networks.map(async ({ strategy, urls }) => {
    const results = await Promise.all(urls.map((url) => answers(url)));
    return { strategy, answered: results.filter(Boolean).length, total: urls.length };
  }));
  const stun = settings.iceServers.length ? gatherWith(settings.iceServers).then(stunVerdict) : Promise.resolve("unset");
  const turn = settings.turn.length ? gatherWith(settings.turn, "relay").then(turnVerdict) : Promise.resolve("unset");
  return { networks: await networks, stun: await stun, turn: await turn };
}
