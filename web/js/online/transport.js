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
    onTrouble: () => {},
    rooms: [],
    states: [], // {at, state, code?}: how every connection went (tests read it)
    via: new Map(), // peer -> [the rooms it is connected through, first first]
  };
  /** The peer whose connection `pc` is (null: not known to any room yet). */
  const peerOf = (pc) => {
    for (const entry of link.rooms) {
      for (const [peer, connection] of Object.entries(entry.trystero.getPeers())) if (connection === pc) return peer;
    }
    return null;
  };
  const connections = new Set(); // the connections that have started, while they live
  const rtcPolyfill = guardedConnections({
    tokens: () => [token],
    onRefused: (verdict, pc) => link.onRefused(verdict.code, peerOf(pc), verdict.params || {}),
    onState: (state, pc, detail) => {
      if (state === "closed") connections.delete(pc);
      else connections.add(pc);
      if (link.states.length < 200) link.states.push({ at: performance.now(), state, ...detail });
      // a direct connection that could not be made; a TURN server that refused the login
      if (state === "failed") link.onTrouble("direct_failed");
      else if (state === "candidate-error" && /^turns?:/.test(detail.url) && detail.code === 401) link.onTrouble("turn_refused");
    },
  });
  /** Join the room on every network (again, after `refresh`). */
  const joinAll = () => {
    for (const network of settings.networks) {
      const config = {
        appId: APP_ID,
        password: room, // offers and answers travel encrypted with the room code
        relayConfig: { urls: network.urls },
        // the TURN servers go with the STUN servers: Trystero 0.25 makes a connection's
        // servers `defaults + turnConfig` and then lets rtcConfig's iceServers replace them
        // all, so a turnConfig beside them would be dropped (no relay ever: seen in
        // e2e/test_online_nat.py)
        rtcConfig: { iceServers: [...settings.iceServers, ...settings.turn] },
        rtcPolyfill,
      };
      let trystero;
      try {
        trystero = join[network.strategy](config, room);
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
  /** Whether a connection is being made now (its checks under way): a fresh announcement
   *  would throw it away. */
  link.attempting = () => {
    for (const pc of connections) {
      if (pc.connectionState === "closed" || pc.connectionState === "failed") connections.delete(pc);
      else if (pc.connectionState === "connecting") return true;
    }
    return false;
  };
  /** Send `text` to `peer` (or every peer). */
  link.send = (text, peer = null) => {
    const targets = peer ? [peer] : link.peers();
    for (const p of targets) {
      const entry = link.via.get(p)?.[0];
      entry?.action.send(text, { target: p }).catch(() => {});
    }
  };
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
