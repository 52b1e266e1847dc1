"""Start-up time of the game page against a bare Pyodide page, in headless Chromium.

    python bench/startup.py [--reps 5] [--play 20] [--site DIR] [--ab OTHER_SITE]

Measures, in the same run and alternating the two pages, the time from navigation to:

- the game page: a dealt table: on a cold visit (a new game) the first deal's cards have
  landed (the User Timing mark ``jabberwocky:dealt``, web/js/present.js); on a warm one
  (the game resumed, no deal) ``document.body.dataset.phase`` is set.  ``data-phase``
  itself waits on a new game until the bots before you have bid, at the game's pace;
  ``bench/firstvisit.py`` prints that moment as "your turn";
- the bare page: Pyodide as the npm package ships it (the same version, served the same
  way) loaded on the page and ``1+1`` run; nothing else.  Two more bare pages for
  comparison: ``bare-worker`` (the same in a module worker, as the game runs it) and
  ``bare-pyc`` (on the main thread, but with the game's own ``pyodide/`` files, whose
  standard library is precompiled): the game against ``bare-pyc`` is the cost of
  everything but that precompiling.

With ``--ab``, a second built site is timed as the page ``game-b`` in the same rotation:
an A/B of two builds on the same machine state.

Each visit is followed by ``--settle`` seconds of quiet (default 1): a page leaves work
behind when it closes (the browser's compile and cache tasks), which would otherwise slow
down whichever page comes next.

Cold = a fresh browser profile for each visit; warm = a repeat visit in a profile that
has seen the page once (for the game page: the memory snapshot stored as a file in the
origin-private file system).
Prints the medians and the ratios against the targets (cold <= 1.10x, warm <= 0.30x),
and the longest main-thread long task (PerformanceObserver "longtask") while loading
and while playing ``--play`` seconds of a game through the UI.

Issue 30's targets, on the site's own runtime (``bare-pyc``): a cold first visit <= 1.2x
of it, a repeat visit <= 0.5x of its repeat visit; printed as their own lines.  A repeat
visit is measured twice: "table playable" (``data-phase`` set, as above: the engine has
taken the game back) and, on its own line, "table painted" (the User Timing mark
``jabberwocky:painted``: the saved table drawn from the engine's last view before the
engine is up, every control refusing input; web/js/main.js paintSavedView).  Every page
is opened with reduced motion (``--motion`` to keep the motion), as issue 30 measured: the
dealt mark then comes as the table is drawn, not after the cards' flight.  Then, when
Lighthouse is installed (``bench/lighthouse.py`` says how), its mobile audit of a first
visit, median of ``--lighthouse`` runs (0: skip), for each game build.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import site as site_tools  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import lighthouse  # noqa: E402

SUBPATH = "/jabberwocky/"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def site_and_launch(given: Path | None) -> tuple[tempfile.TemporaryDirectory[str], Path,
                                                 dict[str, Any]]:
    """The site to time (``given``, else this checkout's, built into a private folder that
    lives as long as the folder returned first) and Chromium's launch options."""
    private = tempfile.TemporaryDirectory(prefix="jabberwocky-site-")
    site = given or Path(private.name) / "site"
    if given is None:
        site_tools.build(site, site_tools.micropip_wheel())
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    launch: dict[str, Any] = {"args": FLAGS, "headless": True}
    if chromium:
        launch["executable_path"] = chromium
    return private, site, launch
TIMEOUT_S = 180.0

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' \
'wasm-unsafe-eval'; connect-src 'self'">
<title>bare Pyodide</title><script type="module" src="bare.js"></script></head>
<body data-phase="loading"></body></html>
"""
BARE_JS = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const py = await loadPyodide();
document.body.dataset.result = String(py.runPython("1+1"));
document.body.dataset.phase = "done";
"""
# The same in a module worker (the game runs Pyodide in one): a fairer second baseline.
BARE_WORKER_HTML = BARE_HTML.replace("bare.js", "bare-page.js")
BARE_PAGE_JS = """const url = new URL("./bare-worker.js", import.meta.url);
const w = new Worker(url, { type: "module" });
w.onmessage = (e) => {
  document.body.dataset.result = String(e.data);
  document.body.dataset.phase = "done";
};
"""
BARE_WORKER_JS = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const py = await loadPyodide();
self.postMessage(py.runPython("1+1"));
"""

# Runs before any page script: notes when data-phase first takes a value and every long task.
INIT_SCRIPT = """
(() => {
  const marks = {};
  const longTasks = [];
  window.__bench = { marks, longTasks };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) {}
  const note = () => {
    const b = document.body;
    if (!b) return;
    for (const key of ["phase", "engine", "snapshot"]) {
      const v = b.dataset[key];
      if (v && marks[key + ":" + v] === undefined) marks[key + ":" + v] = performance.now();
    }
  };
  new MutationObserver(note).observe(document, {
    subtree: true, attributes: true, childList: true,
    attributeFilter: ["data-phase", "data-engine", "data-snapshot"],
  });
  // the first deal's table is drawn, then its cards have landed (web/js/present.js)
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.name === "jabberwocky:dealt" && marks.dealt === undefined) marks.dealt = e.startTime;
        if (e.name === "jabberwocky:table" && marks.table === undefined) marks.table = e.startTime;
        // a repeat visit: the saved table drawn before the engine is up (web/js/main.js)
        if (e.name === "jabberwocky:painted" && marks.painted === undefined) {
          marks.painted = e.startTime;
        }
      }
    }).observe({ type: "mark", buffered: true });
  } catch (e) {}
})();
"""


def _serve(directory: Path, compress: bool = True) -> tuple[str, Any]:
    server = site_tools.make_server(directory, 0, prefix=SUBPATH, compress=compress)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}{SUBPATH}", server


def bare_page(into: Path) -> Path:
    """The bare page alone (``index.html``: the npm package's Pyodide and ``1+1``)."""
    (into / "pyodide").mkdir(parents=True)
    for name in site_tools.PYODIDE_FILES:
        shutil.copy2(site_tools.PYODIDE_DIR / name, into / "pyodide" / name)
    (into / "index.html").write_text(BARE_HTML)
    (into / "bare.js").write_text(BARE_JS)
    return into


def _bare_site(site: Path, into: Path) -> Path:
    bare_page(into)
    shutil.copytree(site / "pyodide", into / "site-pyodide")
    (into / "pyc.html").write_text(BARE_HTML.replace("bare.js", "bare-pyc.js"))
    (into / "bare-pyc.js").write_text(BARE_JS.replace("./pyodide/", "./site-pyodide/"))
    (into / "worker.html").write_text(BARE_WORKER_HTML)
    (into / "bare-page.js").write_text(BARE_PAGE_JS)
    (into / "bare-worker.js").write_text(BARE_WORKER_JS)
    return into


def _wait_mark(page: Page, names: tuple[str, ...], timeout: float = TIMEOUT_S) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        marks: dict[str, float] = page.evaluate("() => window.__bench.marks")
        for name in names:
            if name in marks:
                return marks[name]
        if "engine:failed" in marks:
            raise RuntimeError("the engine failed to start")
        page.wait_for_timeout(20)
    raise TimeoutError(f"none of {names} within {timeout} s")


def _has_table(page: Page) -> bool:
    return bool(page.evaluate("() => !!document.querySelector('canvas, [data-card], #table')"))


def _time_game(page: Page, url: str) -> tuple[float, str]:
    """ms from navigation to a dealt table; and how the table was detected."""
    page.goto(url + "#seed=bench&players=4&bots=random")
    page.wait_for_load_state("domcontentloaded")
    if _has_table(page):
        # a new game: its first deal has landed; a resumed one (a repeat visit): its phase
        return _wait_mark(page, ("dealt", "phase:bidding", "phase:playing")), "table dealt"
    _wait_mark(page, ("engine:ready",))
    page.evaluate("() => window.__jabberwocky.request('new_game', "
                  "{seed: 'bench', players: 4, bots: 'random'})")
    return float(page.evaluate("() => performance.now()")), "engine ready + first view"


def _time_bare(page: Page, url: str) -> float:
    page.goto(url)
    return _wait_mark(page, ("phase:done",))


def _longest(page: Page, after: float = 0.0) -> float:
    tasks: list[list[float]] = page.evaluate("() => window.__bench.longTasks")
    return max((d for start, d in tasks if start >= after), default=0.0)


def _play(page: Page, seconds: float) -> float:
    """Play through the UI for ``seconds``; the longest main-thread task meanwhile (ms)."""
    start = float(page.evaluate("() => performance.now()"))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        state = page.evaluate("""() => {
            const b = document.body.dataset;
            const bid = document.querySelector('[data-bid]:not([disabled])');
            const card = document.querySelector('[data-card]:not([aria-disabled="true"])');
            const next = document.querySelector('[data-action="next-round"]');
            const mine = b.yourTurn === 'true';
            if (mine && b.phase === 'bidding' && bid) { bid.click(); return 'bid'; }
            if (mine && b.phase === 'playing' && card) { card.click(); return 'card'; }
            if (b.phase === 'round-over' && next && !next.disabled) {
                next.click();
                return 'next';
            }
            return b.phase;
        }""")
        if state == "game-over":
            break
        page.wait_for_timeout(100)
    return _longest(page, start)


CONTEXT: dict[str, Any] = {"reduced_motion": "reduce"}
"""What every browser context is opened with (--motion: no reduced motion)."""


def _new_page(context: BrowserContext) -> Page:
    page = context.new_page()
    page.add_init_script(INIT_SCRIPT)
    return page


KINDS: tuple[str, ...] = ("game", "bare", "bare-worker", "bare-pyc")


def _order(rep: int) -> list[str]:
    """Rotate the order of the pages from one repetition to the next."""
    k = rep % len(KINDS)
    return list(KINDS[k:] + KINDS[:k])


class Pages:
    """Opens and times the pages (``game-b``: a second build of the game, with --ab)."""

    def __init__(self, game_url: str, bare_url: str, game_b_url: str | None = None) -> None:
        self.urls = {"game": game_url, "bare": bare_url, "bare-worker": bare_url + "worker.html",
                     "bare-pyc": bare_url + "pyc.html"}
        if game_b_url:
            self.urls["game-b"] = game_b_url
        self.how = ""
        self.painted: float | None = None  # the last game visit's "jabberwocky:painted"

    def time(self, page: Page, kind: str) -> float:
        if kind.startswith("game"):
            ms, self.how = _time_game(page, self.urls[kind])
            marks: dict[str, float] = page.evaluate("() => window.__bench.marks")
            self.painted = marks.get("painted")
            return ms
        return _time_bare(page, self.urls[kind])


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="visits per page and mode")
    parser.add_argument("--play", type=float, default=20.0,
                        help="seconds of play for the long-task check (0: skip)")
    parser.add_argument("--settle", type=float, default=1.0,
                        help="seconds of quiet after each visit, so that one page's background "
                             "work (compiling, caching) does not slow the next page down")
    parser.add_argument("--site", type=Path, default=None,
                        help="serve this built site as it is (default: build a private copy, "
                             "so a rebuild of _site/ during the run cannot mix builds)")
    parser.add_argument("--ab", type=Path, default=None,
                        help="also time this second built site (game-b), alternating with "
                             "the others: an A/B of two builds on the same machine state")
    parser.add_argument("--ab-plain", action="store_true",
                        help="serve the --ab site with no compression (as main's dev server did)")
    parser.add_argument("--motion", action="store_true",
                        help="open the pages without reduced motion (the deal's cards fly)")
    parser.add_argument("--lighthouse", type=int, default=3,
                        help="Lighthouse runs per game build when installed (0: skip)")
    args = parser.parse_args()
    global KINDS
    if args.motion:
        CONTEXT.clear()
    if args.ab:
        KINDS = ("game", "game-b", "bare", "bare-worker", "bare-pyc")
    private, site, launch = site_and_launch(args.site)

    cold: dict[str, list[float]] = {k: [] for k in KINDS}
    warm: dict[str, list[float]] = {k: [] for k in KINDS}
    painted: dict[str, list[float]] = {k: [] for k in KINDS if k.startswith("game")}
    load_long: list[float] = []
    snapshot_states: list[str] = []
    play_long = 0.0
    audits: dict[str, list[dict[str, Any]]] | None = None
    with tempfile.TemporaryDirectory(prefix="jabberwocky-bench-") as tmp, sync_playwright() as p:
        game_url, game_server = _serve(site)
        # the bare pages as before (no compression): the one baseline across builds
        bare_url, bare_server = _serve(_bare_site(site, Path(tmp) / "bare"), compress=False)
        b_url, b_server = _serve(args.ab, not args.ab_plain) if args.ab else (None, None)
        pages = Pages(game_url, bare_url, b_url)
        try:
            browser = p.chromium.launch(**launch)
            for rep in range(args.reps):
                for kind in _order(rep):
                    context = browser.new_context(**CONTEXT)  # a fresh profile: empty caches
                    page = _new_page(context)
                    cold[kind].append(pages.time(page, kind))
                    if kind == "game":
                        load_long.append(_longest(page))
                    context.close()
                    time.sleep(args.settle)
                print(f"cold {rep + 1}/{args.reps}: " + ", ".join(
                    f"{k} {cold[k][-1]:.0f} ms" for k in KINDS), flush=True)
            browser.close()

            contexts = {kind: p.chromium.launch_persistent_context(
                str(Path(tmp) / f"profile-{kind}"), **launch, **CONTEXT) for kind in KINDS}
            try:
                for kind in KINDS:  # first visits fill the caches and store the snapshot
                    page = _new_page(contexts[kind])
                    pages.time(page, kind)
                    if kind.startswith("game"):
                        _wait_mark(page, ("snapshot:made", "snapshot:failed"))
                        if args.play > 0 and kind == "game":
                            play_long = _play(page, args.play)
                    page.close()
                    time.sleep(args.settle)
                for rep in range(args.reps):
                    for kind in _order(rep):
                        page = _new_page(contexts[kind])
                        warm[kind].append(pages.time(page, kind))
                        if kind in painted and pages.painted is not None:
                            painted[kind].append(pages.painted)
                        if kind == "game":
                            snapshot_states.append(
                                str(page.evaluate("() => document.body.dataset.snapshot")))
                        page.close()
                        time.sleep(args.settle)
                    print(f"warm {rep + 1}/{args.reps}: " + ", ".join(
                        f"{k} {warm[k][-1]:.0f} ms" for k in KINDS)
                        + f" (snapshot {snapshot_states[-1]})", flush=True)
            finally:
                for context in contexts.values():
                    context.close()
        finally:
            game_server.shutdown()
            bare_server.shutdown()
            if b_server is not None:
                b_server.shutdown()
            if args.lighthouse > 0:
                audits = lighthouse.run({"game": site, **({"game-b": args.ab} if args.ab else {})},
                                        args.lighthouse,
                                        frozenset({"game-b"} if args.ab_plain else ()))
            private.cleanup()

    print()
    print(f"game page measured to: {pages.how}; bare = the npm package's Pyodide on the page's "
          "main thread + 1+1; bare-worker = the same in a module worker; bare-pyc = bare with "
          "the game's precompiled standard library")
    for mode, values, target in (("cold (fresh profile)", cold, 1.10),
                                 ("warm (repeat visit)", warm, 0.30)):
        med = {k: _median(values[k]) for k in KINDS}
        ratio = med["game"] / med["bare"]
        ratio_w = med["game"] / med["bare-worker"]
        ratio_p = med["game"] / med["bare-pyc"]
        print(f"{mode}, median of {args.reps}: game {med['game']:.0f} ms, bare "
              f"{med['bare']:.0f} ms, bare-worker {med['bare-worker']:.0f} ms, bare-pyc "
              f"{med['bare-pyc']:.0f} ms; ratio {ratio:.2f}x (target <= {target:.2f}x: "
              f"{'OK' if ratio <= target else 'MISSED'}), vs bare-worker {ratio_w:.2f}x, "
              f"vs bare-pyc {ratio_p:.2f}x")
        if "game-b" in med:
            print(f"  A/B: game (--site) {med['game']:.0f} ms, game-b (--ab) "
                  f"{med['game-b']:.0f} ms: {med['game'] / med['game-b']:.2f}x")
    for kind in [k for k in KINDS if k.startswith("game")]:
        c, w = _median(cold[kind]), _median(warm[kind])
        bc, bw = _median(cold["bare-pyc"]), _median(warm["bare-pyc"])
        print(f"issue 30, {kind} against the site's own runtime (bare-pyc): cold {c:.0f} vs "
              f"{bc:.0f} ms: {c / bc:.2f}x (target <= 1.20x: {'OK' if c <= 1.2 * bc else 'MISSED'})"
              f"; repeat visit {w:.0f} vs {bw:.0f} ms: {w / bw:.2f}x (target <= 0.50x: "
              f"{'OK' if w <= 0.5 * bw else 'MISSED'})")
    for kind, times in painted.items():
        bw = _median(warm["bare-pyc"])
        if not times:
            print(f"issue 30, {kind}, repeat visit: no table painted before the engine was up")
            continue
        shown, w = _median(times), _median(warm[kind])
        print(f"issue 30, {kind}, repeat visit, table painted (the saved view, every control "
              f"refusing input until the engine is up; {len(times)} of {args.reps} visits): "
              f"{shown:.0f} vs {bw:.0f} ms: {shown / bw:.2f}x (target <= 0.50x: "
              f"{'OK' if shown <= 0.5 * bw else 'MISSED'}); table playable (data-phase, as above): "
              f"{w:.0f} ms, {w / bw:.2f}x")
    print(f"snapshot on warm visits: {', '.join(sorted(set(snapshot_states))) or '-'}")
    print(f"longest main-thread task while loading (cold): {max(load_long, default=0):.0f} ms; "
          f"during {args.play:.0f} s of play: {play_long:.0f} ms (target <= 50 ms)")
    if audits:
        print(f"Lighthouse, mobile, simulated throttling, a first visit, median of "
              f"{args.lighthouse}:")
        for name, runs in audits.items():
            print(f"  {name}: {lighthouse.summary(runs)}")


if __name__ == "__main__":
    main()
