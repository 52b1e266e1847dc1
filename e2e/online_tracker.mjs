// A local WebTorrent tracker (bittorrent-tracker's WebSocket server) for the online e2e
// tests: the page's signalling setting points at it instead of the public trackers.
// Prints "ready <port>" once listening; stops with its parent (stdin closed) or a signal.
import Server from "bittorrent-tracker/server";

// a short interval: a peer announces again (and retries a connection that failed) every 10 s,
// the shortest Trystero takes (the default, 2 minutes, would stall a test for that long)
const server = new Server({ udp: false, http: false, ws: true, stats: false, interval: 5000 });
server.on("error", (err) => {
  console.error(`tracker error: ${err.message}`);
  process.exit(1);
});
server.on("warning", () => {});
server.listen(Number(process.argv[2] || 0), "127.0.0.1", () => {
  console.log(`ready ${server.ws.address().port}`);
});
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
