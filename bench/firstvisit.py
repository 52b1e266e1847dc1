"""A first visit over a slow link: the game page against the stock bare Pyodide page.

    python bench/firstvisit.py [--reps 5] [--slow 4:80] [--site DIR]

Both pages are served by ``bench/throttle.py``: one shared pipe (10 Mbit/s, then the
``--slow`` setting), a delay before each response (40 ms), gzip for text and ``.wasm``
but not for ``.zip``/``.whl``, and GitHub Pages' caching headers (``max-age=600``, ETag,
Last-Modified; 304 on revalidation).  Each visit gets a fresh browser profile (its own
disk cache, no service worker yet); the two pages alternate, the order flipping every
repetition.  Measured, medians over ``--reps``:

- time from navigation to a dealt table (the game: the first deal's cards have landed,
  the User Timing mark ``jabberwocky:dealt`` of web/js/present.js) and to ``1+1`` (the
  bare page: the npm package's Pyodide as it ships, on the page's main thread, nothing
  else), and their ratio (target <= 0.60x at 10 Mbit/s); also the time to the first
  deal's table drawn, before its cards fly out (``jabberwocky:table``), and to your turn
  (``data-phase`` set: with this seed, two bots bid first, each after the game's pause);
- bytes sent by the server (headers and bodies) before the dealt table (target <= 4.5 MB).
  The page registers its service worker once the table is shown, as the deal begins: the
  precache's downloads from then on are off the table's path, so the game's figure counts
  the bytes sent before the registration or the dealt mark, whichever came first, and
  also prints the count up to the mark;
- at 10 Mbit/s, for the game only, the whole first visit until the site is ready offline
  (the service worker has precached the build and controls the page, and the link has
  been quiet for a second): every byte sent, against the unique bytes precached (each
  precached file once, as it is served: gzipped or not; target <= 1.05x), and any file
  sent whole more than once.

The machine's load moves the figures (two cores, shared): compare within one run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from startup import INIT_SCRIPT, _median, _wait_mark, bare_page, site_and_launch  # noqa: E402
from throttle import ThrottledServer  # noqa: E402
from tools import pwa  # noqa: E402

GAME, GAME_B, BARE = "/jabberwocky/", "/jabberwocky-b/", "/bare/"
FRAGMENT = "#seed=bench&players=4&bots=random"
TIMEOUT_S = 240.0
MB = 1e6


# When the page registers its service worker (once the first table is shown, web/js/main.js):
# from then on the precache downloads the rest of the site, off the first table's path.
REGISTER_SCRIPT = """
(() => {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const register = sw.register.bind(sw);
  sw.register = (...args) => {
    const marks = window.__bench && window.__bench.marks;
    if (marks && marks["sw:register"] === undefined) marks["sw:register"] = performance.now();
    return register(...args);
  };
})();
"""


def _controlled(page: Page) -> bool:
    return bool(page.evaluate("() => navigator.serviceWorker.controller !== null"))


class Visit:
    """One first visit: a fresh profile, one page."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.page = context.pages[0] if context.pages else context.new_page()
        self.page.add_init_script(INIT_SCRIPT)
        self.page.add_init_script(REGISTER_SCRIPT)
        self.origin = 0.0

    def open(self, url: str, marks: tuple[str, ...]) -> tuple[float, float]:
        """(ms from navigation to the first of ``marks``, that moment as time.time())."""
        self.page.goto(url, wait_until="commit")
        ms = _wait_mark(self.page, marks, TIMEOUT_S)
        self.origin = float(self.page.evaluate("() => performance.timeOrigin"))
        return ms, (self.origin + ms) / 1000

    def mark_epoch(self, name: str) -> float | None:
        """When mark ``name`` was noted (time.time()), if it was."""
        marks: dict[str, float] = self.page.evaluate("() => window.__bench.marks")
        return (self.origin + marks[name]) / 1000 if name in marks else None


def _until_offline(visit: Visit, server: ThrottledServer, quiet_s: float = 1.0) -> float:
    """Wait until the service worker controls the page and the link is quiet; seconds
    from now."""
    t0 = time.monotonic()
    while not _controlled(visit.page):
        if time.monotonic() - t0 > TIMEOUT_S:
            raise TimeoutError("the service worker did not take control")
        visit.page.wait_for_timeout(100)
    while time.time() - server.last_activity() < quiet_s:
        visit.page.wait_for_timeout(100)
    return time.monotonic() - t0


def _unique_precached(server: ThrottledServer, site: Path) -> tuple[int, int]:
    """(bytes, files): every precached file once, as the server sends its body."""
    game = next(s for s in server.sites if s.prefix == GAME)
    total = 0
    files = pwa.precache_files(site)
    for rel in files:
        entry = game.get(rel)
        assert entry is not None, rel
        total += len(entry.gz if entry.gz is not None else entry.raw)
    return total, len(files)


def _sent_by_file(server: ThrottledServer) -> dict[str, tuple[int, int, int]]:
    """path -> (200 responses, 304 responses, body bytes)."""
    out: dict[str, list[int]] = {}
    for req in server.requests:
        row = out.setdefault(req.path, [0, 0, 0])
        row[0 if req.status == 200 else 1] += 1
        row[2] += req.body
    return {k: (v[0], v[1], v[2]) for k, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="visits per page and link")
    parser.add_argument("--slow", default="4:80",
                        help="the slower link as MBIT:LATENCY_MS (default 4:80; 'none' skips)")
    parser.add_argument("--site", type=Path, default=None,
                        help="serve this built site as it is (default: build a private copy)")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds between visits")
    parser.add_argument("--ab", type=Path, default=None,
                        help="also time this second built site (game-b) in the same rotation: "
                             "an A/B of two builds on one machine state")
    args = parser.parse_args()
    links = [(10.0, 40.0)]
    if args.slow != "none":
        mbit, latency = (float(x) for x in args.slow.split(":"))
        links.append((mbit, latency))

    private, site, launch = site_and_launch(args.site)

    results: dict[tuple[float, float], dict[str, list[Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="jabberwocky-firstvisit-") as tmp, \
            sync_playwright() as p:
        sites = {GAME: site, BARE: bare_page(Path(tmp) / "bare")}
        if args.ab:
            sites[GAME_B] = args.ab
        server = ThrottledServer(sites, *links[0])
        server.prepare()
        server.start()
        kinds = ("game", "game-b", "bare") if args.ab else ("game", "bare")
        try:
            unique, nfiles = _unique_precached(server, site)
            n = 0
            for link in links:
                server.set_link(*link)
                res = results[link] = {"whole": [], "offline_s": [], "dups": [],
                                       "before_by_file": []}
                for kind in kinds:
                    res[kind], res[f"{kind}_bytes"], res[f"{kind}_path"] = [], [], []
                    res[f"{kind}_turn"], res[f"{kind}_table"] = [], []
                for rep in range(args.reps):
                    k = rep % len(kinds)
                    order = kinds[k:] + kinds[:k]
                    for kind in order:
                        n += 1
                        context = p.chromium.launch_persistent_context(
                            str(Path(tmp) / f"profile-{n}"), **launch)
                        try:
                            visit = Visit(context)
                            time.sleep(args.settle)
                            server.reset()
                            if kind.startswith("game"):
                                prefix = GAME if kind == "game" else GAME_B
                                ms, at = visit.open(server.origin + prefix + FRAGMENT,
                                                    ("dealt",))
                                res[f"{kind}_turn"].append(_wait_mark(
                                    visit.page, ("phase:bidding", "phase:playing"), TIMEOUT_S))
                                # drawn before the cards landed; none from a build
                                # older than the mark
                                res[f"{kind}_table"].append(visit.page.evaluate(
                                    "() => window.__bench.marks.table ?? null"))
                            else:
                                ms, at = visit.open(server.origin + BARE, ("phase:done",))
                            res[kind].append(ms)
                            res[f"{kind}_bytes"].append(server.bytes_until(at))
                            path_end = at
                            if kind.startswith("game"):
                                registered = visit.mark_epoch("sw:register")
                                path_end = min(at, registered) if registered else at
                                res[f"{kind}_path"].append(server.bytes_until(path_end))
                            if kind == "game" and link == links[0]:
                                before = Counter()
                                for sent in server.log:
                                    if sent.at <= path_end:
                                        before[server.requests[sent.request].path] += sent.size
                                res["before_by_file"].append(before)
                                res["offline_s"].append(_until_offline(visit, server))
                                res["whole"].append(server.total_bytes())
                                res["dups"].append({path: row for path, row in
                                                    _sent_by_file(server).items() if row[0] > 1})
                        finally:
                            context.close()
                    print(f"{link[0]:g} Mbit/s + {link[1]:g} ms, {rep + 1}/{args.reps}: game "
                          f"{res['game'][-1]:.0f} ms ({res['game_bytes'][-1] / MB:.2f} MB), "
                          f"bare {res['bare'][-1]:.0f} ms ({res['bare_bytes'][-1] / MB:.2f} MB)"
                          + (f", game-b {res['game-b'][-1]:.0f} ms "
                             f"({res['game-b_path'][-1] / MB:.2f} MB)" if args.ab else "")
                          + (f"; whole visit {res['whole'][-1] / MB:.2f} MB, offline "
                             f"{res['offline_s'][-1]:.1f} s after the table"
                             if res["whole"] else ""), flush=True)
        finally:
            server.stop()
            private.cleanup()

    print()
    print("game = time from navigation to a dealt table (the first deal's cards have landed: "
          "the User Timing mark jabberwocky:dealt); table drawn = to the first deal's table "
          "drawn, before its cards fly out (jabberwocky:table); your turn = to data-phase, "
          "set once the bots before you have bid (their pauses are the game's pace, not "
          "loading); bare = the npm package's Pyodide on the page's main thread, to 1+1; "
          "bytes = sent by the server before the dealt table (headers and bodies, as they "
          "went over the wire)")
    for link, res in results.items():
        game, bare = _median(res["game"]), _median(res["bare"])
        ratio = game / bare
        gb, bb = _median(res["game_path"]), _median(res["bare_bytes"])
        all_before = _median(res["game_bytes"])
        turn = _median(res["game_turn"])
        tables = [t for t in res["game_table"] if t is not None]
        table = _median(tables) if tables else float("nan")
        line = (f"{link[0]:g} Mbit/s + {link[1]:g} ms, median of {len(res['game'])}: game "
                f"{game:.0f} ms, bare {bare:.0f} ms: {ratio:.2f}x")
        if link == links[0]:
            line += f" (target <= 0.60x: {'OK' if ratio <= 0.60 else 'MISSED'})"
        line += (f"; table drawn {table:.0f} ms ({table / bare:.2f}x); your turn {turn:.0f} ms "
                 f"({turn / bare:.2f}x)")
        line += (f"; before the table {gb / MB:.2f} MB (target <= 4.5 MB: "
                 f"{'OK' if gb <= 4.5 * MB else 'MISSED'}; {all_before / MB:.2f} MB with the "
                 f"service worker's precache until the table is dealt), bare before 1+1 "
                 f"{bb / MB:.2f} MB")
        print(line)
        if "game-b" in res:
            gbm = _median(res["game-b"])
            print(f"  A/B: game (--site) {game:.0f} ms, game-b (--ab) {gbm:.0f} ms: "
                  f"{game / gbm:.2f}x; before the table {gb / MB:.2f} vs "
                  f"{_median(res['game-b_path']) / MB:.2f} MB")
        if res["whole"]:
            whole = _median(res["whole"])
            print(f"  whole first visit until ready offline: {whole / MB:.2f} MB sent, unique "
                  f"bytes precached {unique / MB:.2f} MB ({nfiles} files): "
                  f"{whole / unique:.3f}x (target <= 1.05x: "
                  f"{'OK' if whole <= 1.05 * unique else 'MISSED'}); ready offline "
                  f"{_median(res['offline_s']):.1f} s after the table")
            dups = {path for d in res["dups"] for path in d}
            print(f"  files sent whole more than once in a visit: "
                  f"{', '.join(sorted(dups)) if dups else 'none'}")
            first = res["before_by_file"][0]
            print("  sent before the table (first visit of the run; until the service worker "
                  "registered):")
            for path, size in first.most_common(12):
                print(f"    {size:>10,} B  {path}")
            rest = sum(first.values()) - sum(s for _, s in first.most_common(12))
            print(f"    {rest:>10,} B  {len(first) - min(len(first), 12)} other files")


if __name__ == "__main__":
    main()
