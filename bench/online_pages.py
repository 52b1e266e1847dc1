"""What the online benches share (bench/online_latency.py, bench/online_table5.py): a built
site served on loopback, the local WebTorrent tracker (e2e/online_tracker.mjs), browser
profiles whose tables meet there, opening and joining a table, playing it out, and the
figures read back from the pages.

Each page records when its table showed each step (a MutationObserver on
``document.body.dataset.step``, which the page sets as it shows a view: for a card, when
its flight starts) with its own clock, ``performance.timeOrigin + now()`` (one machine,
one clock): the benches need no hook of the build they measure, so a build of main is
measured the same way.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, Page  # noqa: E402
from tools import site as site_tools  # noqa: E402

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-features=WebRtcHideLocalIpsWithMdns"]
CLOCK = "() => performance.timeOrigin + performance.now()"
# When each click reached the page (the event's own time stamp, on the page's clock): a
# move's latency counts from there, not from the test driver's call, whose checks before
# it clicks (the element visible, stable over two frames, …) are no part of the game.
CLICK_OBSERVER = """
window.__clicks = [];
window.addEventListener("click",
  (e) => window.__clicks.push(performance.timeOrigin + e.timeStamp), true);
"""
# every change of the step the page shows, with its time: [[step, ms since the epoch], ...]
STEP_OBSERVER = """
window.__stepAt = [];
document.addEventListener("DOMContentLoaded", () => {
  const body = document.body;
  let last = body.dataset.step;
  new MutationObserver(() => {
    const step = body.dataset.step;
    if (step === last) return;
    last = step;
    window.__stepAt.push([Number(step), performance.timeOrigin + performance.now()]);
  }).observe(body, { attributes: true, attributeFilter: ["data-step"] });
});
"""


# every engine request of the page, with when it was asked and answered: [[type, t0, t1]]
RECORD_CALLS = """() => {
  const e = window.__jabberwocky.engine;
  const call = e.call.bind(e);
  window.__calls = [];
  e.call = async (type, payload) => {
    const t0 = performance.timeOrigin + performance.now();
    const answer = await call(type, payload);
    window.__calls.push([type, t0, performance.timeOrigin + performance.now()]);
    return answer;
  };
}"""
VIEW_REQUESTS = {"seat_view", "seat_views", "public_view"}


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


def spread(values: list[float], unit: str = "ms") -> str:
    if not values:
        return "(none)"
    return (f"p50 {pct(values, 0.5):6.1f} {unit}  p95 {pct(values, 0.95):6.1f} {unit}  "
            f"max {max(values):6.1f} {unit}  (n {len(values)})")


def built_site(site: Path) -> Path:
    """This checkout's site, built into ``site``."""
    site_tools.build(site, site_tools.micropip_wheel())
    return site


@contextmanager
def served(site: Path) -> Iterator[str]:
    """``site`` on a loopback port: its URL."""
    server = site_tools.make_server(site, 0, prefix="/jabberwocky/")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/jabberwocky/"
    finally:
        server.shutdown()


@contextmanager
def tracker(interval: str = "5000") -> Iterator[str]:
    """The local WebTorrent tracker (announce ``interval`` in ms, or ``default``): the page's
    signalling setting (JSON) pointing at it."""
    proc = subprocess.Popen(["node", str(ROOT / "e2e" / "online_tracker.mjs"), "0", interval],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdin is not None
    try:
        port = proc.stdout.readline().split()[1]
        yield json.dumps({"strategy": "torrent", "urls": [f"ws://127.0.0.1:{port}"],
                          "iceServers": []})
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()


def player(browser: Browser, signal: str, name: str) -> Page:
    """A browser profile (reduced motion, bots at the fastest speed) meeting at the tracker."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce")
    prefs = json.dumps({"prefs": {"speed": "instant", "tipsDone": True, "challengeName": name}})
    items = {"jabberwocky.onlineSignal": signal, "jabberwocky.prefs.v1": prefs,
             "jabberwocky.readableMs": "40", "jabberwocky.beatMs": "0"}
    context.add_init_script(
        "(i => { for (const [k, v] of Object.entries(i)) "
        "if (localStorage.getItem(k) === null) localStorage.setItem(k, v) })"
        f"({json.dumps(items)})")
    context.add_init_script(STEP_OBSERVER)
    context.add_init_script(CLICK_OBSERVER)
    return context.new_page()


def open_table(host: Page, url: str, players: int, schedule: str | None,
               friends: int) -> str:
    """The host opens an online table of ``players`` (the first ``friends`` seats after its
    own for friends, the others medium bots): the join link."""
    rules = "jabberwocky" + (f",schedule:{schedule}" if schedule else "")
    host.goto(url + f"#seed=bench&players={players}&bots=medium&rules={rules}")
    until(host, "() => ['bidding', 'playing'].includes(document.body.dataset.phase)", 180)
    host.click('[data-action="new-game"]')
    host.click('#dlg-new [data-action="online-new"]')
    host.wait_for_selector("#online-seats select")
    kinds = host.locator("#online-seats select")
    for i in range(kinds.count()):
        kinds.nth(i).select_option("friend" if i < friends else "medium")
    host.click('[data-action="online-open"]')
    return str(until(host, "() => document.getElementById('online-link').value"))


def join(guests: list[Page], link: str, host: Page, seated: int) -> None:
    """Each guest opens the link and takes a seat (or watches, when none is left)."""
    for guest in guests:
        guest.goto(link)
        until(guest, "() => document.body.dataset.engine === 'ready'", 180)
        guest.wait_for_selector('[data-action="online-join"]', state="visible", timeout=60000)
        guest.click('[data-action="online-join"]')
    until(host, "() => window.__jabberwocky.online.table.state().presence"
                f".filter(p => p === 'connected').length === {seated}", 120)


def act(page: Page, is_host: bool) -> Any:
    """This page's move when it is its turn (its first allowed bid or card), and the host
    deals the next round: the element to click, or None."""
    marks = page.evaluate("() => ({...document.body.dataset})")
    if marks.get("busy") != "false":
        return None
    selector = None
    if marks.get("yourTurn") == "true":
        selector = ("[data-bid]:not([disabled])" if marks["phase"] == "bidding"
                    else "#hand [data-card]:not([aria-disabled='true'])")
    elif is_host and marks.get("phase") == "round-over":
        selector = "#round-panel [data-action='next-round']"
    return page.query_selector(selector + ":visible") if selector else None


DRIVER_LAG: list[float] = []
"""For each of the host's timed clicks: from the driver's call to the click reaching the
page (ms), printed beside the figures, which count from the page's click."""


def play_out(host: Page, guests: list[Page], timeout: float) -> list[tuple[float, int]]:
    """Play the game to its end; every move of the host's is timed: [(click, step)], the
    click's time being when it reached the page (``CLICK_OBSERVER``)."""
    clicks: list[tuple[float, int]] = []
    pages = [host, *guests]
    deadline = time.monotonic() + timeout
    while host.evaluate("() => document.body.dataset.phase") != "game-over":
        if time.monotonic() > deadline:
            raise SystemExit("the game did not end in time")
        for page in pages:
            handle = act(page, page is host)
            if handle is None:
                continue
            if page is host and host.evaluate("() => document.body.dataset.yourTurn") == "true":
                step = int(host.evaluate("() => document.body.dataset.step"))
                at = float(host.evaluate(CLOCK))
                handle.click()
                until(host, f"() => Number(document.body.dataset.step) > {step}", 20)
                page_at = host.evaluate(f"() => window.__clicks.find((t) => t >= {at})")
                if page_at is None:
                    raise SystemExit("the page saw no click")
                DRIVER_LAG.append(float(page_at) - at)
                clicks.append((float(page_at), step))
            else:
                try:
                    handle.click(timeout=2000)
                except Exception:  # redrawn meanwhile: the next pass tries again
                    continue
        host.wait_for_timeout(20)
    return clicks


def shown_after(page: Page, clicks: list[tuple[float, int]]) -> list[float]:
    """For each click: how long until ``page`` showed a later step than the one clicked."""
    steps: list[list[float]] = page.evaluate("() => window.__stepAt")
    out = []
    for at, step in clicks:
        later = [t for s, t in steps if s > step and t >= at]
        if later:
            out.append(later[0] - at)
    return out


def received(guest: Page) -> dict[str, Any]:
    """What a guest's page received: texts, their times and (a build that patches views)
    the view built from each."""
    return dict(guest.evaluate(
        "() => { const g = window.__jabberwocky.online.table; "
        "return {texts: g.received, at: g.receivedAt, views: g.views || null}; }"))


def arrivals(data: dict[str, Any], clicks: list[tuple[float, int]]) -> list[float]:
    """The host's click to the arrival of its move's message at this guest."""
    out = []
    times = [c for c, _ in clicks]
    for text, at in zip(data["texts"], data["at"], strict=True):
        msg = json.loads(text)
        if msg["t"] == "move" and msg["action"]["seat"] == 0:
            before = [c for c in times if c <= at]
            if before:
                out.append(at - before[-1])
    return out


def move_bytes(data: dict[str, Any]) -> list[int]:
    return [len(t.encode()) for t in data["texts"] if json.loads(t)["t"] == "move"]


def host_phases(host: Page, clicks: list[tuple[float, int]]) -> list[tuple[float, float]]:
    """For each of the host's moves (recorded with RECORD_CALLS): (the click to its engine's
    answer, that answer to the guests' views answered: 0 when they came with it)."""
    calls: list[list[Any]] = sorted(host.evaluate("() => window.__calls"), key=lambda c: c[1])
    out = []
    for at, _ in clicks:
        moved = next((c for c in calls if c[0] in ("play", "bid") and c[1] >= at), None)
        if moved is None:
            continue
        if any(c[0] == "with_views" and moved[1] <= c[1] <= moved[2] for c in calls):
            out.append((moved[2] - at, 0.0))  # the views came with the move's answer
            continue
        views = []
        for c in calls:
            if c[1] < moved[2]:
                continue
            if c[0] not in VIEW_REQUESTS:
                break
            views.append(c[2])
        if views:
            out.append((moved[2] - at, max(views) - moved[2]))
    return out
