// The wire between the players' browsers: Trystero rooms on each signalling network of
// the settings (config.js), one room code for all of them.  A peer found on two networks
// is one peer (Trystero's peer id is the page's, whatever the network): its messages go
// over the first connection made, and it leaves when its last connection is gone.
// Messages are JSON texts (protocol.js); nothing here reads them.  Every frame a peer sends
// passes the wire's guard (wire-guard.js) before the library reads it; a frame refused
// there is reported with its reason (`onRefused`), and a peer over its budget is let go.
//
// The libraries (vendor/online/online.js, bundled by tools/vendor.py; online-libraries.js) are imported only
// when a table is opened or joined: nothing connects to anything before that.

import { APP_ID, signalSettings } from "./config.js";
import { onlineLibraries } from "../online-libraries.js";
import { guardedConnections, roomToken } from "./wire-guard.js";

const CONNECTING_MS = 5000; // a connection being made longer than this is stuck (loopback: ~0.1 s)

/**
 * Join the room `room` on every network: {send(text, peer?), peers(), leave(), trust(peer),
 * onMessage(text, peer), onPeerJoin(peer), onPeerLeave(peer), onRefused(code, peer, params)}
 * (set the handlers).
 */
export async function openLink(room, settings = signalSettings()) {
  const lib = await onlineLibraries();
  const join = { torrent: lib.joinTorrent, nostr: lib.joinNostr };
  const token = await roomToken(APP_ID, room);
  const link = {
    onMessage: () => {},
    onPeerJoin: () => {},
    onPeerLeave: () => {},
    onRefused: () => {},
    joinErrors: [], // handshakes that failed: {at, error}
    rooms: [],
    via: new Map(), // peer -> [the rooms it is connected through, first first]
  };
  /** The peer whose connection `pc` is (null: not known to any room yet). */
  const peerOf = (pc) => {
    for (const entry of link.rooms) {
      for (const [peer, connection] of Object.entries(entry.trystero.getPeers())) if (connection === pc) return peer;
    }
    return null;
  };
  const live = new Set(); // every connection made and not yet closed
  const rtcPolyfill = guardedConnections({
    tokens: () => [token],
    live,
    onRefused: (verdict, pc) => link.onRefused(verdict.code, peerOf(pc), verdict.params || {}),
  });
  /** Join the room on every network (again, after `refresh`). */
  const joinAll = () => {
    for (const network of settings.networks) {
      const config = {
        appId: APP_ID,
        password: room, // offers and answers travel encrypted with the room code
        relayConfig: { urls: network.urls },
        rtcConfig: { iceServers: settings.iceServers },
        rtcPolyfill,
        ...(settings.turn.length ? { turnConfig: settings.turn } : {}),
      };
      let trystero;
      try {
        // a peer whose handshake failed (or timed out) is kept count of, for benches and tests
        trystero = join[network.strategy](config, room, {
          onJoinError: (e) => link.joinErrors.push({ at: Math.round(performance.now()), error: String(e?.error ?? e).slice(0, 160) }),
        });
      } catch (err) {
        console.warn(`the ${network.strategy} network could not be joined:`, err);
        continue;
      }
      const action = trystero.makeAction("m");
      const entry = { trystero, action, strategy: network.strategy };
      const joined = (peer) => {
        if (entry.gone) return; // a room left by `refresh`: its news is no longer ours
        const rooms = link.via.get(peer) || [];
        if (rooms.includes(entry)) return;
        rooms.push(entry);
        link.via.set(peer, rooms);
        if (rooms.length === 1) link.onPeerJoin(peer);
      };
      action.onMessage = (data, { peerId }) => {
        if (entry.gone) return;
        // a message may come before this side has reported the peer: it is a peer then
        if (!link.via.has(peerId)) joined(peerId);
        if (link.via.get(peerId)?.[0] === entry) link.onMessage(data, peerId);
      };
      trystero.onPeerJoin = joined;
      trystero.onPeerLeave = (peer) => {
        if (entry.gone) return;
        const rooms = (link.via.get(peer) || []).filter((r) => r !== entry);
        if (rooms.length) link.via.set(peer, rooms);
        else {
          link.via.delete(peer);
          link.onPeerLeave(peer);
        }
      };
      link.rooms.push(entry);
    }
  };
  joinAll();

  link.peers = () => [...link.via.keys()];
  /** Send `text` to `peer` (or every peer). */
  link.send = (text, peer = null) => {
    const targets = peer ? [peer] : link.peers();
    for (const p of targets) {
      const entry = link.via.get(p)?.[0];
      entry?.action.send(text, { target: p }).catch(() => {});
    }
  };
  /** True while a connection is being made (offer and answer exchanged, not yet open, for
   *  less than CONNECTING_MS): a `refresh` now would cut it off (on a busy machine that can
   *  take seconds).  One still not open after that is stuck, and no reason to wait. */
  link.connections = () => [...live]; // tests and benches: the connections not yet closed
  link.connecting = () => [...live].some((pc) => pc.remoteDescription
    && (pc.connectionState === "new" || pc.connectionState === "connecting")
    && performance.now() - pc.madeAt < CONNECTING_MS);
  /** `peer` is the host this page accepted: its connections get the host's limits. */
  link.trust = (peer) => {
    for (const entry of link.rooms) entry.trystero.getPeers()[peer]?.gate?.trust();
  };
  link.leave = async () => {
    await Promise.allSettled(link.rooms.map((r) => r.trystero.leave()));
    link.via.clear();
  };
  /** Leave the room and join it again on every network: a fresh announcement with fresh
   *  offers now, instead of waiting for the next periodic one (a tracker's interval can
   *  be minutes).  Peers connected until then are left (and told so: onPeerLeave). */
  link.refresh = async () => {
    const old = link.rooms;
    for (const entry of old) entry.gone = true;
    link.rooms = [];
    const gone = [...link.via.keys()];
    link.via.clear();
    await Promise.allSettled(old.map((r) => r.trystero.leave()));
    for (const peer of gone) link.onPeerLeave(peer);
    joinAll();
  };
  return link;
}
