"""Joins and reload-rejoins at an online table: how long until a friend is at the table.

    python bench/online_rejoin.py [--joins 30] [--rejoins 30] [--interval 5000|default]
                                  [--load 2] [--give-up 60] [--site _site]

A host (headless Chromium, this checkout's built ``_site/``) opens a table of three: a
friend's seat and a ``medium`` bot; a friend takes the seat and the game starts (and then
waits on a person's turn).  The peers meet at the local WebTorrent tracker
(e2e/online_tracker.mjs) announcing every ``--interval`` ms (the e2e tests' 5 s), or at the
tracker's own default (10 minutes, as a public tracker may have it: Trystero then announces
every 2 minutes), so a join that waited for a periodic announcement would show it.

- **join**: a new browser profile opens the join link, waits for its page to be ready (the
  engine), taps "Take a seat" (every seat is taken: it will watch) and is timed from the
  tap to the host's welcome on its page; then it closes.
- **rejoin**: the seated friend reloads its page and is timed from the reload to being at
  the table again (its page back at its seat, and the host's page showing it connected):
  the whole of what a player waits, page load and engine start included; the part before
  its page was ready is printed apart.

A trial that has not come back after ``--give-up`` seconds counts as lost (the target: none).
``--load N`` keeps N busy processes running meanwhile (the test suite's load on this 2-core
machine, or more).  Prints p50 / p95 / max and the load average; figures in docs/online.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from online_pages import FLAGS, join, open_table, pct, player, served, spread, tracker
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
STATUS = "() => document.getElementById('dlg-online')?.dataset.status || ''"
AT_TABLE = "() => window.__jabberwocky.online?.table?.state().status === 'playing'"
LOOKING = ("() => { const s = window.__jabberwocky.online?.table?.state(); "
           "return s ? `${s.status}, tries ${s.retries || 0}` : 'no table' }")


def wait(page: Page, expr: str, give_up: float) -> float | None:
    """Seconds until ``expr`` holds on ``page``, or None after ``give_up``."""
    started = time.monotonic()
    while time.monotonic() - started < give_up:
        try:
            if page.evaluate(expr):
                return time.monotonic() - started
        except Exception:  # the page is navigating
            pass
        time.sleep(0.05)
    return None


def one_join(browser: Browser, signal: str, link: str, give_up: float) -> float | None:
    page = player(browser, signal, "Watcher")
    try:
        page.goto(link)
        if wait(page, "() => document.body.dataset.engine === 'ready'", give_up) is None:
            return None
        page.wait_for_selector('[data-action="online-join"]', state="visible", timeout=30000)
        page.click('[data-action="online-join"]')
        took = wait(page, f"() => ['full', 'watching'].includes(({STATUS})())", give_up)
        if took is None:
            print(f"  lost: no welcome ({page.evaluate(LOOKING)})", flush=True)
        return took
    finally:
        page.context.close()


def one_rejoin(friend: Page, host: Page, give_up: float) -> tuple[float, float] | None:
    started = time.monotonic()
    friend.reload(wait_until="commit")
    ready = wait(friend, "() => document.body.dataset.engine === 'ready'", give_up)
    if ready is None:
        print("  lost: the page did not start", flush=True)
        return None
    back = wait(friend, AT_TABLE, give_up - ready)
    if back is None:
        print(f"  lost: not back at the table ({friend.evaluate(LOOKING)})", flush=True)
        return None
    seen = wait(host, "() => window.__jabberwocky.online.table.state().presence[1] === "
                      "'connected'", give_up)
    if seen is None:
        print("  lost: the host never showed the friend connected", flush=True)
        return None
    return time.monotonic() - started, ready


def secs(values: list[float]) -> str:
    """p50 / p95 / max of ``values`` in seconds (online_pages.spread)."""
    return spread(values, "s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--joins", type=int, default=30)
    parser.add_argument("--rejoins", type=int, default=30)
    parser.add_argument("--interval", default="5000")
    parser.add_argument("--load", type=int, default=2)
    parser.add_argument("--give-up", type=float, default=60.0)
    parser.add_argument("--site", type=Path, default=ROOT / "_site",
                        help="a built site (default: this checkout's _site/)")
    args = parser.parse_args()
    site = args.site
    if not (site / "index.html").exists():
        sys.exit("build the site first: python3 build.py build")
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(args.load)]
    joins: list[float] = []
    rejoins: list[float] = []
    boots: list[float] = []
    lost = {"join": 0, "rejoin": 0}
    loads: list[float] = []
    try:
        with served(site) as url, tracker(args.interval) as signal, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            host = player(browser, signal, "Host")
            link = open_table(host, url, players=3, schedule=None, friends=1)
            friend = player(browser, signal, "Friend")
            join([friend], link, host, seated=1)
            host.click('[data-action="online-start"]')
            if wait(friend, AT_TABLE, 60) is None:
                sys.exit("the game did not start")
            for i in range(max(args.joins, args.rejoins)):
                loads.append(os.getloadavg()[0])
                if i < args.joins:
                    took = one_join(browser, signal, link, args.give_up)
                    if took is None:
                        lost["join"] += 1
                    else:
                        joins.append(took)
                if i < args.rejoins:
                    back = one_rejoin(friend, host, args.give_up)
                    if back is None:
                        lost["rejoin"] += 1
                        wait(friend, AT_TABLE, 120)  # let it come back before the next
                    else:
                        rejoins.append(back[0])
                        boots.append(back[1])
                print(f"trial {i + 1}: joins {secs(joins)}; rejoins {secs(rejoins)}",
                      flush=True)
            browser.close()
    finally:
        for proc in burners:
            proc.kill()
    print(f"\ntracker interval {args.interval}; {args.load} busy processes; load average "
          f"{min(loads):.1f}-{max(loads):.1f} (1 min) over the trials")
    print(f"join (tap to the host's welcome):        {secs(joins)}; lost {lost['join']}")
    print(f"rejoin (reload to back at the table):     {secs(rejoins)}; lost {lost['rejoin']}")
    print(f"  of which the page's own start (engine): {secs(boots)}")
    ok = (lost["join"] == lost["rejoin"] == 0 and joins and rejoins
          and pct(joins, 0.95) <= 10 and pct(rejoins, 0.95) <= 10
          and max(joins) <= 30 and max(rejoins) <= 30)
    print("target (p95 <= 10 s, max <= 30 s, none lost): " + ("met" if ok else "NOT met"))


if __name__ == "__main__":
    main()
