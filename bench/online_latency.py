"""Move latency and bytes at an online table, on loopback, in headless Chromium.

    python bench/online_latency.py [--site DIR] [--schedule 7-7-7]

A host and two friends (three browser profiles, the peers meeting at a local WebTorrent
tracker, no ICE servers) and one bot play a whole game; the host always plays its first
allowed bid or card.  For each of the host's moves it measures, with the pages' own clocks
(``performance.timeOrigin + now()``, one machine):

- baseline: the host's click to its own table showing the move (the local engine answered
  and the controller took the view: what any game against bots costs);
- online: the host's click to the move's message arriving at each friend's page (the
  friend's controller shows it at once; the animation is not counted);
- bytes: the size of every ``move`` message a friend received (JSON, UTF-8).

Prints p50 / p95 / max of both and the bytes per move against the issue's targets
(p95 <= 100 ms, <= 2 KB a move).  Figures from this machine are in docs/online.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from tools import site as site_tools  # noqa: E402

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-features=WebRtcHideLocalIpsWithMdns"]
CLOCK = "() => performance.timeOrigin + performance.now()"


def until(page: Page, expr: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = page.evaluate(expr)
        if value:
            return value
        page.wait_for_timeout(30)
    raise SystemExit(f"timed out: {expr}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("/tmp/online-bench-site"))
    parser.add_argument("--schedule", default="7-7-7")
    args = parser.parse_args()
    site_tools.build(args.site, site_tools.micropip_wheel())
    server = site_tools.make_server(args.site, 0, prefix="/jabberwocky/")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/jabberwocky/"
    tracker = subprocess.Popen(["node", str(ROOT / "e2e" / "online_tracker.mjs"), "0"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert tracker.stdout is not None and tracker.stdin is not None
    port = tracker.stdout.readline().split()[1]
    signal = json.dumps({"strategy": "torrent", "urls": [f"ws://127.0.0.1:{port}"],
                         "iceServers": []})
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)

            def player(name: str) -> Page:
                context = browser.new_context(viewport={"width": 1280, "height": 800},
                                              reduced_motion="reduce")
                prefs = json.dumps({"prefs": {"speed": "instant", "tipsDone": True,
                                              "challengeName": name}})
                items = {"jabberwocky.onlineSignal": signal, "jabberwocky.prefs.v1": prefs,
                         "jabberwocky.readableMs": "40", "jabberwocky.beatMs": "0"}
                context.add_init_script(
                    "(i => { for (const [k, v] of Object.entries(i)) "
                    "if (localStorage.getItem(k) === null) localStorage.setItem(k, v) })"
                    f"({json.dumps(items)})")
                return context.new_page()

            host = player("Host")
            host.goto(url + f"#seed=bench&players=4&bots=medium&rules=jabberwocky,"
                            f"schedule:{args.schedule}")
            until(host, "() => ['bidding', 'playing'].includes(document.body.dataset.phase)", 120)
            host.click('[data-action="new-game"]')
            host.click('#dlg-new [data-action="online-new"]')
            host.wait_for_selector("#online-seats select")
            host.click('[data-action="online-open"]')
            link = until(host, "() => document.getElementById('online-link').value")
            guests = [player("A"), player("B")]
            for guest in guests:
                guest.goto(link)
                until(guest, "() => document.body.dataset.engine === 'ready'", 120)
                guest.wait_for_selector('[data-action="online-join"]', state="visible")
                guest.click('[data-action="online-join"]')
            until(host, "() => window.__jabberwocky.online.table.state().presence"
                        ".filter(p => p === 'connected').length === 2", 60)
            host.click('[data-action="online-start"]')
            local: list[float] = []
            clicks: list[tuple[float, str]] = []  # (when, step) of the host's moves
            pages = [host, *guests]
            while host.evaluate("() => document.body.dataset.phase") != "game-over":
                for page in pages:
                    marks = page.evaluate("() => ({...document.body.dataset})")
                    if marks.get("busy") != "false":
                        continue
                    selector = None
                    if marks.get("yourTurn") == "true":
                        selector = ("[data-bid]:not([disabled])" if marks["phase"] == "bidding"
                                    else "#hand [data-card]:not([aria-disabled='true'])")
                    elif page is host and marks.get("phase") == "round-over":
                        selector = "#round-panel [data-action='next-round']"
                    handle = page.query_selector(selector + ":visible") if selector else None
                    if handle is None:
                        continue
                    if page is host and marks.get("yourTurn") == "true":
                        step = marks["step"]
                        at = float(host.evaluate(CLOCK))
                        handle.click()
                        shown = until(host, f"() => document.body.dataset.step !== '{step}'"
                                            f" && ({CLOCK})()", 10)
                        local.append(float(shown) - at)
                        clicks.append((at, step))
                    else:
                        handle.click()
                host.wait_for_timeout(20)
            online: list[float] = []
            sizes: list[int] = []
            for guest in guests:
                texts = guest.evaluate("() => window.__jabberwocky.online.table.received")
                times = guest.evaluate("() => window.__jabberwocky.online.table.receivedAt")
                for text, at in zip(texts, times, strict=True):
                    msg = json.loads(text)
                    if msg["t"] != "move":
                        continue
                    sizes.append(len(text.encode()))
                    if msg["action"]["seat"] == 0:
                        before = [c for c, _ in clicks if c <= at]
                        if before:
                            online.append(at - before[-1])
            browser.close()
    finally:
        tracker.stdin.close()
        tracker.wait(timeout=5)
        server.shutdown()
    print(f"host moves: {len(local)}; messages to friends: {len(online)} timed, "
          f"{len(sizes)} moves in all (schedule {args.schedule})")
    print(f"baseline, click to the host's own table:   p50 {pct(local, 0.5):6.1f} ms  "
          f"p95 {pct(local, 0.95):6.1f} ms  max {max(local):6.1f} ms")
    print(f"online, click to the message at a friend:  p50 {pct(online, 0.5):6.1f} ms  "
          f"p95 {pct(online, 0.95):6.1f} ms  max {max(online):6.1f} ms  (target p95 <= 100)")
    print(f"bytes a move: median {statistics.median(sizes):.0f}  p95 {pct(sizes, 0.95):.0f}  "
          f"max {max(sizes)}  (target <= 2048)")


if __name__ == "__main__":
    main()
