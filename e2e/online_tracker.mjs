// A local WebTorrent tracker (bittorrent-tracker's WebSocket server) for the online e2e
// tests: the page's signalling setting points at it instead of the public trackers.
// Usage: node online_tracker.mjs PORT [INTERVAL_MS | default] [HOST (127.0.0.1)].  Prints "ready <port>" once
// listening; stops with its parent (stdin closed) or a signal.
import Server from "bittorrent-tracker/server";

// a short interval: a peer announces again (and retries a connection that failed) every 10 s,
// the shortest Trystero takes (the default, 2 minutes, would stall a test for that long).
// A third argument sets another interval in ms, or "default" for the tracker's own (10
// minutes: Trystero then announces every 2 minutes), as public trackers have it
// (bench/online_rejoin.py measures both).
const interval = process.argv[3] === "default" ? {} : { interval: Number(process.argv[3] || 5000) };
const server = new Server({ udp: false, http: false, ws: true, stats: false, ...interval });
server.on("error", (err) => {
  console.error(`tracker error: ${err.message}`);
  process.exit(1);
});
server.on("warning", () => {});
server.listen(Number(process.argv[2] || 0), process.argv[4] || "127.0.0.1", () => {
  console.log(`ready ${server.ws.address().port}`);
});
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
