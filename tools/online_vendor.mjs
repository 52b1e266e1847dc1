// The entry of the online table's vendor bundle (tools/vendor.py bundles it with esbuild
// into the site's vendor/online/online.js): Trystero's WebTorrent and Nostr strategies
// (two independent signalling networks) and the QR code writer.  Loaded by the page only
// when a player opens or joins an online table (web/js/online/transport.js, lobby.js).
export { joinRoom as joinTorrent } from "@trystero-p2p/torrent";
export { joinRoom as joinNostr } from "@trystero-p2p/nostr";
export { renderSVG } from "uqr";
