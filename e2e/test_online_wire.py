"""The guard in front of the wire (web/js/online/wire-guard.js), against raw frames written
onto a real data channel, below the page's own send function and below Trystero's.

A host, a friend and a bot sit at a table of two short rounds; a third page joins to watch
and turns hostile: from its side of the connection to the host it writes frames by hand —
with no envelope, for another room, of an unknown kind, tagged JSON but not JSON, a
thousand frames in a second, and 10 MB of chunks of messages that never end.  Each is
refused (or the peer let go) with its reason in the host's refusal log and count; no page
has an error; the host's heap, measured after a garbage collection before and after, grows
by less than the bound the guard states (a guest can make the host hold at most 96 KiB of
unfinished messages) plus 1 MiB for whatever else the page did meanwhile; the friend
reloads its page and is back with no error on any page; and the host and the friend play the
game to its end.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from conftest import SiteServer, wait_for_dataset, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from test_online import act, js, player, presence, refusal_codes, tracker, wait_until

__all__ = ["tracker"]  # the fixture, shared with test_online.py

HEAP_BOUND = 96 * 1024 + 1024 * 1024

# The frames, written in the hostile page (Trystero 0.25's framing: wire-guard.js).
RAW = """async ([kind, count]) => {
  const t = window.__jabberwocky.online.table;
  const pc = t.link.rooms[0].trystero.getPeers()[t.hostPeer()];
  const channel = pc.dataChannels.find((c) => c.readyState === "open");
  const enc = new TextEncoder();
  const digest = await crypto.subtle.digest("SHA-256",
    enc.encode(`Trystero:jabberwocky-online-1:${t.room}`));
  const ours = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const frame = ({ type = "m", nonce = 1, tag = 1, payload = "", token = ours }) => {
    const body = typeof payload === "string" ? enc.encode(payload) : payload;
    const tk = enc.encode(token);
    const out = new Uint8Array(3 + tk.length + 36 + body.length);
    out.set([1, tk.length >> 8, tk.length & 255]);
    out.set(tk, 3);
    out.set(enc.encode(type), 3 + tk.length);
    out.set([nonce >> 8, nonce & 255, tag, 255], 3 + tk.length + 32);
    out.set(body, 3 + tk.length + 36);
    return out;
  };
  const drain = async () => {
    while (channel.readyState === "open" && channel.bufferedAmount > 1024 * 1024) {
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  if (kind === "envelope") {
    channel.send("no envelope at all");
    channel.send(new Uint8Array([1]));
    channel.send(new Uint8Array([7, 0, 2, 65, 66]));
  } else if (kind === "room") {
    channel.send(frame({ token: "f".repeat(64), payload: "{}" }));
  } else if (kind === "type") {
    channel.send(frame({ type: "no-such-action", payload: "{}" }));
  } else if (kind === "json") {
    channel.send(frame({ type: "@_signal", tag: 1 | 8, payload: "{this is not json" }));
  } else if (kind === "flood") {
    const started = performance.now();
    for (let i = 0; i < count; i++) channel.send(frame({ nonce: 1000 + i, payload: "x" }));
    return performance.now() - started;
  } else if (kind === "unfinished") {
    const chunk = new Uint8Array(4 * 1024).fill(120); // each under a guest's message cap
    let sent = 0;
    for (let i = 0; sent < count && channel.readyState === "open"; i++) {
      channel.send(frame({ nonce: 20000 + i, tag: 0, payload: chunk }));
      sent += chunk.length;
      if (i % 32 === 0) await drain();
    }
    return sent;
  }
  return 0;
}"""


def heap(cdp: object) -> int:
    cdp.send("HeapProfiler.collectGarbage")  # type: ignore[attr-defined]
    used: int = cdp.send("Runtime.getHeapUsage")["usedSize"]  # type: ignore[attr-defined]
    return used


def test_raw_frames_below_the_protocol_are_refused_and_bounded(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        tracker: str) -> None:
    host = player(new_context, site_server, tracker, "en-GB", "Hana")
    host.goto(site_server.url + "#seed=wire-e2e&players=3&bots=medium"
              "&rules=jabberwocky,schedule:1-2")
    wait_for_phase(host, ("bidding", "playing"), 120)
    host.click('[data-action="new-game"]')
    host.click('#dlg-new [data-action="online-new"]')
    host.locator("#online-seats select").first.wait_for(state="visible", timeout=10000)
    seats = host.locator("#online-seats select")
    seats.nth(0).select_option("friend")
    seats.nth(1).select_option("medium")
    host.fill("#online-name", "Hana")
    host.click('[data-action="online-open"]')
    link = wait_until("the join link", lambda: js(
        host, "() => document.getElementById('online-link').value"), 20, host)

    friend = player(new_context, site_server, tracker, "en-GB", "Dora")
    friend.goto(link)
    wait_for_dataset(friend, "engine", "ready", 120)
    friend.click('[data-action="online-join"]')
    wait_until("the friend connected", lambda: "connected" in presence(host)[1:], 40, host)
    hostile = player(new_context, site_server, tracker, "en-GB", "Mallory")
    hostile.goto(link)
    wait_for_dataset(hostile, "engine", "ready", 120)
    hostile.click('[data-action="online-join"]')
    wait_for_dataset(hostile, "online", "full", 40)
    host.click('[data-action="online-start"]')
    wait_for_dataset(hostile, "online", "watching", 20)
    wait_for_phase(friend, ("bidding", "playing"), 20)

    cdp = host.context.new_cdp_session(host)
    before = heap(cdp)
    step = (js(host, "() => window.__jabberwocky.table().view") or {})["step"]

    expected = {
        "envelope": "online.refused.wire_envelope",
        "room": "online.refused.wire_room",
        "type": "online.refused.wire_kind",
        "json": "online.refused.wire_json",
    }
    for kind, code in expected.items():
        js(hostile, RAW, [kind, 0])
        wait_until(f"{kind}: {code} in the host's log", lambda c=code: c in refusal_codes(host),
                   10, host)
    # a thousand frames in a second: a burst within the budget, each a message that is no
    # message (the protocol refuses them, the rate limit cuts the answers)
    flood_ms = js(hostile, RAW, ["flood", 1000])
    wait_until("the flood refused", lambda: js(
        host, "() => window.__jabberwocky.online.table.state().refused") >= 1000, 20, host)
    # 10 MB of chunks of messages that never end: at most 96 KiB is let through, and the
    # peer goes over its budget and is let go
    sent = js(hostile, RAW, ["unfinished", 10 * 1024 * 1024])
    wait_until("the hostile peer let go", lambda: "online.refused.wire_budget" in refusal_codes(
        host), 30, host)
    assert "online.refused.wire_unfinished" in refusal_codes(host)
    after = heap(cdp)
    growth = after - before
    print(f"\nflood of 1,000 frames written in {flood_ms:.0f} ms; {sent / 2**20:.1f} MB of "
          f"unfinished chunks written before the host let the peer go; host heap "
          f"{before / 2**20:.1f} -> {after / 2**20:.1f} MiB ({growth / 1024:+.0f} KiB)")
    assert growth < HEAP_BOUND, f"the host's heap grew by {growth} bytes"
    view = js(host, "() => window.__jabberwocky.table().view")
    assert view["step"] == step, "a hostile frame changed the table"
    assert presence(host)[1] == "connected", "the friend is still at the table"

    # the friend reloads: back at the table by itself, and no page reports the old
    # connection's end as an error (this test allows no console error on any page)
    reloaded_at = time.monotonic()
    friend.reload()
    wait_for_dataset(friend, "online", "playing", 60)
    wait_until("the friend back", lambda: presence(host)[1] == "connected", 30, host)
    print(f"the friend's reload: back at the table in {time.monotonic() - reloaded_at:.1f} s")

    # the host and the friend play on to the end
    deadline = time.monotonic() + 90
    pages: list[tuple[Page, bool]] = [(host, False), (friend, True)]
    while js(host, "() => document.body.dataset.phase") != "game-over":
        assert time.monotonic() < deadline, "the game did not end"
        if not any(act(page, guest) for page, guest in pages):
            host.wait_for_timeout(40)
    wait_for_phase(friend, "game-over", 20)
