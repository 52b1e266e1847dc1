"""Start-up time of the game page against a bare Pyodide page, in headless Chromium.

    python bench/startup.py [--reps 5] [--play 20]

Measures, in the same run and alternating the two pages, the time from navigation to:

- the game page: a dealt table (``document.body.dataset.phase`` becomes ``bidding``;
  while the table UI does not exist yet, the engine's ready + first ``new_game``);
- the bare page: Pyodide (the same files, served the same way) loaded on the page and
  ``1+1`` run; nothing else.

Cold = a fresh browser profile for each visit; warm = a repeat visit in a profile that
has seen the page once (for the game page: memory snapshot stored in Cache Storage).
Prints the medians and the ratios against the targets (cold <= 1.10x, warm <= 0.30x),
and the longest main-thread long task (PerformanceObserver "longtask") while loading
and while playing ``--play`` seconds of a game through the UI.
"""

from __future__ import annotations

import argparse
import importlib.util
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

SUBPATH = "/jabberwocky/"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
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
})();
"""


def _micropip_wheel() -> Path:
    spec = importlib.util.spec_from_file_location("jabberwocky_build_py", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    wheel: Path = module.ensure_micropip()
    return wheel


def _serve(directory: Path) -> tuple[str, Any]:
    server = site_tools.make_server(directory, 0, prefix=SUBPATH)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}{SUBPATH}", server


def _bare_site(site: Path, into: Path) -> Path:
    shutil.copytree(site / "pyodide", into / "pyodide")
    (into / "index.html").write_text(BARE_HTML)
    (into / "bare.js").write_text(BARE_JS)
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
        return _wait_mark(page, ("phase:bidding", "phase:playing")), "table dealt"
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


def _new_page(context: BrowserContext) -> Page:
    page = context.new_page()
    page.add_init_script(INIT_SCRIPT)
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="visits per page and mode")
    parser.add_argument("--play", type=float, default=20.0,
                        help="seconds of play for the long-task check (0: skip)")
    parser.add_argument("--no-build", action="store_true", help="use _site/ as it is")
    args = parser.parse_args()
    site = ROOT / "_site"
    if not args.no_build:
        site_tools.build(site, _micropip_wheel())
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    launch: dict[str, Any] = {"args": FLAGS, "headless": True}
    if chromium:
        launch["executable_path"] = chromium

    with tempfile.TemporaryDirectory(prefix="jabberwocky-bench-") as tmp, sync_playwright() as p:
        game_url, game_server = _serve(site)
        bare_url, bare_server = _serve(_bare_site(site, Path(tmp) / "bare"))
        browser = p.chromium.launch(**launch)
        cold: dict[str, list[float]] = {"game": [], "bare": []}
        how = ""
        load_long: list[float] = []
        for rep in range(args.reps):
            order = ["game", "bare"] if rep % 2 == 0 else ["bare", "game"]
            for kind in order:
                context = browser.new_context()
                page = _new_page(context)
                if kind == "game":
                    ms, how = _time_game(page, game_url)
                    load_long.append(_longest(page))
                else:
                    ms = _time_bare(page, bare_url)
                cold[kind].append(ms)
                context.close()
            print(f"cold {rep + 1}/{args.reps}: game {cold['game'][-1]:.0f} ms, "
                  f"bare {cold['bare'][-1]:.0f} ms", flush=True)
        browser.close()

        warm: dict[str, list[float]] = {"game": [], "bare": []}
        contexts = {kind: p.chromium.launch_persistent_context(
            str(Path(tmp) / f"profile-{kind}"), **launch) for kind in ("game", "bare")}
        snapshot_states: list[str] = []
        play_long = 0.0
        try:
            # first visits: fill the caches (and let the game page store its snapshot)
            page = _new_page(contexts["game"])
            _time_game(page, game_url)
            _wait_mark(page, ("snapshot:made", "snapshot:failed"))
            if args.play > 0:
                play_long = _play(page, args.play)
            page.close()
            page = _new_page(contexts["bare"])
            _time_bare(page, bare_url)
            page.close()
            for rep in range(args.reps):
                order = ["game", "bare"] if rep % 2 == 0 else ["bare", "game"]
                for kind in order:
                    page = _new_page(contexts[kind])
                    if kind == "game":
                        ms, how = _time_game(page, game_url)
                        snapshot_states.append(
                            str(page.evaluate("() => document.body.dataset.snapshot")))
                    else:
                        ms = _time_bare(page, bare_url)
                    warm[kind].append(ms)
                    page.close()
                print(f"warm {rep + 1}/{args.reps}: game {warm['game'][-1]:.0f} ms "
                      f"(snapshot {snapshot_states[-1]}), bare {warm['bare'][-1]:.0f} ms",
                      flush=True)
        finally:
            for context in contexts.values():
                context.close()
            game_server.shutdown()
            bare_server.shutdown()

    med = {f"{mode}-{kind}": statistics.median(values[kind])
           for mode, values in (("cold", cold), ("warm", warm)) for kind in ("game", "bare")}
    cold_ratio = med["cold-game"] / med["cold-bare"]
    warm_ratio = med["warm-game"] / med["warm-bare"]
    print()
    print(f"game page measured to: {how}")
    print(f"cold (fresh profile), median of {args.reps}: game {med['cold-game']:.0f} ms, "
          f"bare {med['cold-bare']:.0f} ms, ratio {cold_ratio:.2f}x (target <= 1.10x) "
          f"{'OK' if cold_ratio <= 1.10 else 'MISSED'}")
    print(f"warm (repeat visit), median of {args.reps}: game {med['warm-game']:.0f} ms, "
          f"bare {med['warm-bare']:.0f} ms, ratio {warm_ratio:.2f}x (target <= 0.30x) "
          f"{'OK' if warm_ratio <= 0.30 else 'MISSED'}; snapshot: "
          f"{', '.join(sorted(set(snapshot_states)))}")
    print(f"longest main-thread task while loading (cold): {max(load_long, default=0):.0f} ms; "
          f"during {args.play:.0f} s of play: {play_long:.0f} ms (target <= 50 ms)")


if __name__ == "__main__":
    main()
