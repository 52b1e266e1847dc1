"""A table of five online (a host and four friends) plays a whole game without a desync.

    python bench/online_table5.py [--schedule 3-4-5-6-7-8-9-8-7-6-5-4-3] [--no-watcher]

Five browser profiles (and a sixth who watches: every seat is taken) meet at a local
WebTorrent tracker on loopback and play the default thirteen rounds, each person its first
allowed bid or card, reduced motion, bots' speed the fastest.  Checked, and the run fails
otherwise:

- no desync: every view each friend's page built (from the whole views and patches it
  received) is, in order, exactly the view the host's engine answered for that seat
  (``seat_views`` / ``seat_view``, recorded on the host's page) — every deal and every
  move; the one who watches likewise with the public view; at the end every table shows
  the host's scores;
- no card of another hand: every message each friend received names only cards of its own
  hand, on the table or played, or the turned trump (the one who watches: no hand at all);
- every move's message is at most 2 KB.

Prints the bytes a move (median, p95, max, and per round's hand size), the host's click to
a friend's table (p50 / p95), and how long it all took.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from online_pages import (
    FLAGS,
    arrivals,
    built_site,
    join,
    open_table,
    pct,
    play_out,
    player,
    received,
    served,
    shown_after,
    spread,
    tracker,
    until,
)
from playwright.sync_api import Page, sync_playwright

CARD = re.compile(r'"([2-9TJQKA][CDHS])"')
MAX_MOVE_BYTES = 2048
# the host's engine's answers that hold views, recorded as the host's page gets them (in
# order): [[type, answer's result]]
RECORD_ANSWERS = """() => {
  const e = window.__jabberwocky.engine;
  const call = e.call.bind(e);
  window.__answers = [];
  const kept = new Set(["with_views", "seat_views", "seat_view", "public_view"]);
  e.call = async (type, payload) => {
    const answer = await call(type, payload);
    if (kept.has(type) && answer.result) window.__answers.push([type, answer.result]);
    return answer;
  };
}"""


def engine_views(answers: list[Any], seat: int | None) -> list[dict[str, Any]]:
    """Every view the host's engine answered for ``seat`` (None: the public view), in order."""
    out = []
    for kind, result in answers:
        if kind == "with_views":
            result = result["views"]
            if result is None:
                continue
            kind = "seat_views"
        if kind == "seat_views":
            if seat is None and result["public"] is not None:
                out.append(result["public"])
            out += [v for v in result["views"] if seat is not None and v["viewer"] == seat]
        elif (kind == "seat_view" and seat is not None and result["viewer"] == seat) or (
                kind == "public_view" and seat is None):
            out.append(result)
    return out


def unmatched(built: list[Any], answered: list[Any]) -> int | None:
    """None when every view built is, in order, one the engine answered (a view the engine
    answered but the host did not send, as when a guest joined meanwhile, may be left out);
    else the number of the first view built that is not."""
    i = 0
    for n, view in enumerate(built):
        while i < len(answered) and answered[i] != view:
            i += 1
        if i == len(answered):
            return n + 1
        i += 1
    return None


def leaks(texts: list[str], views: list[Any], seat: int | None,
          record: dict[str, Any]) -> list[str]:
    """Cards of another hand named in a message before they were played (see
    e2e/test_online.py's no_other_hand: the same check)."""
    hands = [[set(h) for h in r["hands"]] + [set()] for r in record["rounds"]]
    mine = -1 if seat is None else seat
    found = []
    for text, view in zip(texts, views, strict=True):
        if not view:
            continue
        r = view["round"] - 1
        if not set(view["hand"]) <= hands[r][mine]:
            found.append(f"a hand not the seat's in a {json.loads(text)['t']} message")
        if view["phase"] in ("round-over", "game-over"):
            continue
        played = set(view["trick"]["cards"]) | {c for t in view["tricks"] for c in t["cards"]}
        played |= set((view.get("last_trick") or {}).get("cards") or [])
        turned = {view["trump_card"]} | {row["trump_card"] for row in view["history"]}
        leaked = set(CARD.findall(text)) - played - turned - hands[r][mine]
        if leaked:
            found.append(f"{sorted(leaked)} in a {json.loads(text)['t']} message")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("/tmp/online-bench-site"))
    parser.add_argument("--schedule", default=None, help="default: the rules' (13 rounds)")
    parser.add_argument("--no-watcher", action="store_true")
    args = parser.parse_args()
    started = time.monotonic()
    site = built_site(args.site)
    load_before = os.getloadavg()[0]
    failures: list[str] = []
    with served(site) as url, tracker() as signal, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        host = player(browser, signal, "Host")
        link = open_table(host, url, players=5, schedule=args.schedule, friends=4)
        guests = [player(browser, signal, name) for name in ("A", "B", "C", "D")]
        join(guests, link, host, seated=4)
        watcher: Page | None = None
        if not args.no_watcher:
            watcher = player(browser, signal, "W")
            join([watcher], link, host, seated=4)
            until(watcher, "() => window.__jabberwocky.online.table.state().status === 'full'", 180)
        host.evaluate(RECORD_ANSWERS)
        host.click('[data-action="online-start"]')
        setup_s = time.monotonic() - started
        clicks = play_out(host, guests, timeout=3600)
        play_s = time.monotonic() - started - setup_s
        final = host.evaluate("() => window.__jabberwocky.table().view")
        record = json.loads(host.evaluate(
            "() => window.__jabberwocky.request('export_record', {})")["record"])
        answers = host.evaluate("() => window.__answers")
        rounds = len(record["rounds"])
        sizes: list[int] = []
        by_hand: dict[int, list[int]] = defaultdict(list)
        shown: list[float] = []
        arrived: list[float] = []
        views_checked = 0
        people: list[tuple[Page, int | None]] = [
            (g, int(g.evaluate("() => window.__jabberwocky.online.table.state().seat")))
            for g in guests]
        if watcher is not None:
            people.append((watcher, None))
        for page, seat in people:
            who = f"seat {seat}" if seat is not None else "the watcher"
            until(page, "() => document.body.dataset.phase === 'game-over'", 60)
            data = received(page)
            built = [v for v in data["views"] if v is not None]
            if any(v is None for t, v in zip(data["texts"], data["views"], strict=True)
                   if '"n":' in t):
                failures.append(f"{who}: a view could not be built (a sync was asked)")
            wrong = unmatched(built, engine_views(answers, seat))
            if wrong is not None:
                failures.append(f"{who}: desync: its view {wrong} of {len(built)} is not one "
                                "the host's engine built for it")
            if built[-1] != host.evaluate(
                    "(s) => s === null ? window.__jabberwocky.request('public_view', {}) : "
                    "window.__jabberwocky.request('seat_view', {seat: s})", seat):
                failures.append(f"{who}: its last view is not the host's engine's view now")
            steps = [v["step"] for v in built]
            if steps != sorted(steps) or len(set(steps)) < len(steps) - rounds:
                failures.append(f"{who}: its views went back, or repeated a step")
            views_checked += len(built)
            shown_view = page.evaluate("() => window.__jabberwocky.table().view")
            if shown_view["scores"] != final["scores"]:
                failures.append(f"{who}: the table's scores are not the host's")
            failures += [f"{who}: {x}" for x in leaks(data["texts"], data["views"], seat, record)]
            if seat is not None and not any(v["hand"] for v in built):
                failures.append(f"{who}: never had a hand")
            if seat is None and any(v["hand"] for v in built):
                failures.append("the watcher was sent a hand")
            for text, view in zip(data["texts"], data["views"], strict=True):
                if '"t":"move"' in text:
                    n = len(text.encode())
                    sizes.append(n)
                    if view:
                        by_hand[view["hand_size"]].append(n)
            if seat is not None:
                arrived += arrivals(data, clicks)
                shown += shown_after(page, clicks)
        browser.close()
    total_s = time.monotonic() - started
    over = [n for n in sizes if n > MAX_MOVE_BYTES]
    if over:
        failures.append(f"{len(over)} move messages over {MAX_MOVE_BYTES} bytes (max {max(over)})")
    print(f"a table of five, {rounds} rounds, {len(people)} pages besides the host's; "
          f"{views_checked} views checked against the host's engine; load average "
          f"{load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
          f"({os.cpu_count()} CPUs)")
    print(f"took {total_s:.0f} s: {setup_s:.0f} s to build, open and join, {play_s:.0f} s "
          f"of play")
    print(f"bytes a move: median {statistics.median(sizes):.0f}  p95 {pct(sizes, 0.95):.0f}  "
          f"max {max(sizes)}  (n {len(sizes)}, target <= {MAX_MOVE_BYTES})")
    for hand in sorted(by_hand):
        b = by_hand[hand]
        print(f"  rounds of {hand} cards: median {statistics.median(b):.0f}  p95 "
              f"{pct(b, 0.95):.0f}  max {max(b)}  (n {len(b)})")
    print(f"click to the message at a friend:  {spread(arrived)}")
    print(f"click to the friend's table:       {spread(shown)}")
    print("result: " + ("no desync, no card of another hand, every move within 2 KB"
                        if not failures else "FAILED"))
    for failure in failures:
        print(f"  {failure}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
