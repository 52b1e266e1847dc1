"""Move latency and bytes at an online table, on loopback, in headless Chromium.

    python bench/online_latency.py [--baseline SITE] [--runs 2] [--schedule 7-7-7]

A host and two friends (three browser profiles, the peers meeting at a local WebTorrent
tracker, no ICE servers) and one bot play a whole game; the host always plays its first
allowed bid or card.  For each of the host's moves it measures, with the pages' own clocks
(``performance.timeOrigin + now()``, one machine; bench/online_pages.py), from the moment
the host's click reached its page (the click event's time stamp; the test driver's own
checks before it clicks are printed apart, not counted):

- own table: the host's click to its own table showing the move (its engine answered and
  the page drew it: what any game against bots costs);
- arrival: the host's click to the move's message arriving at each friend's page;
- friend's table: the host's click to each friend's table showing the move (the card's
  flight starts, or the bid shows; the flight itself is not counted);
- bytes: the size of every ``move`` message a friend received (JSON, UTF-8);
- where the time goes on the host: its click to its engine's answer to the move, and from
  that answer to the answer of the view requests for the guests (every engine request of
  the host's page is timed).

``--baseline SITE``: a site already built from another checkout (e.g. main's: ``git
worktree add /tmp/base main && cd /tmp/base && python3 build.py build`` gives
``/tmp/base/_site``) is measured in the same run, in turn with this checkout's (A, B, A,
B, … ``--runs`` times each), so that the load of the machine weighs on both alike.
Prints p50 / p95 / max against the issue's targets (p95 <= 100 ms, <= 2 KB a move) and
the machine's load average.  Figures from this machine are in docs/online.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path

from online_pages import (
    DRIVER_LAG,
    FLAGS,
    RECORD_CALLS,
    arrivals,
    built_site,
    host_phases,
    join,
    move_bytes,
    open_table,
    pct,
    play_out,
    player,
    received,
    served,
    shown_after,
    spread,
    tracker,
)
from playwright.sync_api import sync_playwright


def one_game(site: Path, schedule: str) -> dict[str, list[float]]:
    """One game at a table of a host, two friends and a bot on ``site``: the figures."""
    with served(site) as url, tracker() as signal, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        host = player(browser, signal, "Host")
        link = open_table(host, url, players=4, schedule=schedule, friends=2)
        guests = [player(browser, signal, "A"), player(browser, signal, "B")]
        join(guests, link, host, seated=2)
        host.evaluate(RECORD_CALLS)
        host.click('[data-action="online-start"]')
        clicks = play_out(host, guests, timeout=600)
        phases = host_phases(host, clicks)
        figures: dict[str, list[float]] = {
            "own": shown_after(host, clicks), "arrival": [], "shown": [], "bytes": [],
            "engine": [a for a, _ in phases], "views": [b for _, b in phases]}
        for guest in guests:
            data = received(guest)
            figures["arrival"] += arrivals(data, clicks)
            figures["shown"] += shown_after(guest, clicks)
            figures["bytes"] += [float(b) for b in move_bytes(data)]
        browser.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("/tmp/online-bench-site"),
                        help="where this checkout's site is built")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="a site built from another checkout, measured in turn with this one")
    parser.add_argument("--runs", type=int, default=1, help="games on each site")
    parser.add_argument("--schedule", default="7-7-7")
    args = parser.parse_args()
    sites = {"this": built_site(args.site)}
    if args.baseline:
        sites["baseline"] = args.baseline
    results: dict[str, dict[str, list[float]]] = {
        name: {"own": [], "arrival": [], "shown": [], "bytes": [], "engine": [], "views": []}
        for name in sites}
    loads = []
    for run in range(args.runs):
        for name, site in sites.items():
            loads.append(os.getloadavg()[0])
            figures = one_game(site, args.schedule)
            for key, values in figures.items():
                results[name][key] += values
            print(f"run {run + 1}, {name}: own p50 {pct(figures['own'], 0.5):.0f} ms, "
                  f"friend's table p50 {pct(figures['shown'], 0.5):.0f} ms", flush=True)
    print(f"\nschedule {args.schedule}, {args.runs} game(s) a site; load average (1 min) "
          f"at each game's start: {', '.join(f'{x:.1f}' for x in loads)} on {os.cpu_count()} "
          f"CPUs")
    print("every figure counts from the host's click reaching its page; the test driver's "
          f"own wait before it clicks (not counted): {spread(DRIVER_LAG)}")
    for name, figures in results.items():
        sizes = figures["bytes"]
        print(f"\n{name} ({sites[name]}):")
        print(f"  click to the host's own table:      {spread(figures['own'])}")
        print(f"  click to the engine's answer:       {spread(figures['engine'])}")
        print(f"  that answer to the guests' views:   {spread(figures['views'])}")
        print(f"  click to the message at a friend:   {spread(figures['arrival'])}")
        print(f"  click to the friend's table:        {spread(figures['shown'])}"
              "  (target p95 <= 100 ms)")
        print(f"  bytes a move: median {statistics.median(sizes):.0f}  p95 "
              f"{pct(sizes, 0.95):.0f}  max {max(sizes):.0f}  (n {len(sizes)}, target <= 2048)")


if __name__ == "__main__":
    main()
