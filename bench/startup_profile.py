"""Where a visit's time goes before the table: one timeline per visit, in page time.

    python bench/startup_profile.py [--reps 3] [--site DIR] [--warm-only | --cold-only]

Opens the game page (reduced motion, loopback, as bench/startup.py does) on a cold visit
(a fresh profile) and then on repeat visits (the same profile: the service worker's
cache and the stored memory snapshot), and prints for each visit, in ms from navigation:

- the page: the document, the bundle (``js/main.js``), the catalogue, the stylesheet
  (resource timings: request start and response end);
- the engine worker's own boot steps (web/worker/progress.js ``timings``, moved onto the
  page's clock with the worker's ``timeOrigin`` from its "ready" message);
- the engine's answers the page waited for (web/js/engine.js ``log``: each request's
  type, when it was sent and how long it took);
- the table: ``jabberwocky:painted`` (a repeat visit's saved view drawn before the
  engine is up, when the build has one), ``jabberwocky:table`` / ``jabberwocky:dealt``
  (a new game's first deal) and ``data-phase`` set (the table accepts play);
- the longest main-thread task before the table.

No figure here is a target: it is the breakdown behind bench/startup.py's lines.  The
machine's load moves every figure; read the order and the gaps.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from startup import CONTEXT, _new_page, _serve, _time_game, site_and_launch  # noqa: E402

COLLECT = """() => {
  const out = { marks: window.__bench.marks, longTasks: window.__bench.longTasks };
  const res = {};
  for (const e of performance.getEntriesByType("resource")) {
    const name = new URL(e.name).pathname.replace(/^.*?\\/jabberwocky\\//, "");
    if (!(name in res)) {
      res[name] = [Math.round(e.requestStart || e.startTime), Math.round(e.responseEnd)];
    }
  }
  const nav = performance.getEntriesByType("navigation")[0];
  out.nav = nav ? { responseEnd: Math.round(nav.responseEnd),
    domInteractive: Math.round(nav.domInteractive),
    domContentLoaded: Math.round(nav.domContentLoadedEventEnd) } : {};
  out.resources = res;
  const j = window.__jabberwocky;
  const ready = j && j.events.find((e) => e.type === "ready");
  out.ready = ready || null;
  out.log = j ? j.log.slice(0, 8) : [];
  out.timeOrigin = performance.timeOrigin;
  const marks = {};
  for (const e of performance.getEntriesByType("mark")) {
    if (e.name.startsWith("jabberwocky:")) marks[e.name] = Math.round(e.startTime);
  }
  out.userMarks = marks;
  return out;
}"""

RESOURCES = ("index.html", "js/early.js", "js/main.js", "css/style.css", "worker.js",
             "pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "build.json")


def timeline(data: dict[str, Any]) -> list[tuple[float, str]]:
    """(ms from navigation, what) for one visit, in order."""
    rows: list[tuple[float, str]] = []
    for name, (start, end) in data["resources"].items():
        if name in RESOURCES or name.startswith("i18n/") or name.endswith(".whl") \
                or name.endswith(".woff2") or "stdlib" in name or name.endswith(".wasm"):
            rows.append((end, f"loaded {name} (asked at {start})"))
    for key, value in data["nav"].items():
        rows.append((value, f"document {key}"))
    ready = data.get("ready")
    if ready:
        rows.append((ready["at"], f"engine ready (snapshot {ready.get('snapshot')})"))
        origin = ready.get("timeOrigin")
        if origin:
            shift = origin - data["timeOrigin"]
            rows.append((shift, "worker started"))
            for step, ms in (ready.get("timings") or {}).items():
                rows.append((shift + ms, f"worker: {step}"))
    for entry in data["log"]:
        rows.append((entry["sent"] + entry["ms"], f"answer {entry['type']} "
                     f"(sent at {entry['sent']}, {entry['ms']} ms)"))
    for name, at in data["userMarks"].items():
        rows.append((at, name))
    for key, at in data["marks"].items():
        if key.startswith("phase:") and key != "phase:loading":
            rows.append((at, f"data-{key}"))
    return sorted(rows)


def visit(page: Page, url: str) -> dict[str, Any]:
    ms, how = _time_game(page, url)
    page.wait_for_timeout(300)
    data: dict[str, Any] = page.evaluate(COLLECT)
    data["measured"] = ms
    data["how"] = how
    return data


def show(label: str, data: dict[str, Any]) -> None:
    table_at = data["measured"]
    longest = max((d for start, d in data["longTasks"] if start < table_at), default=0.0)
    print(f"\n== {label}: table at {table_at:.0f} ms ({data['how']}); longest main-thread "
          f"task before it {longest:.0f} ms")
    for at, what in timeline(data):
        print(f"  {at:7.0f}  {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--site", type=Path, default=None)
    parser.add_argument("--cold-only", action="store_true")
    parser.add_argument("--warm-only", action="store_true")
    args = parser.parse_args()
    private, site, launch = site_and_launch(args.site)
    summary: dict[str, list[float]] = {"cold": [], "warm": []}
    with tempfile.TemporaryDirectory(prefix="jabberwocky-prof-") as tmp, sync_playwright() as p:
        url, server = _serve(site)
        try:
            for rep in range(args.reps):
                context = p.chromium.launch_persistent_context(
                    str(Path(tmp) / f"profile-{rep}"), **launch, **CONTEXT)
                page = _new_page(context)
                data = visit(page, url)
                if not args.warm_only:
                    show(f"cold visit {rep + 1}", data)
                    summary["cold"].append(data["measured"])
                page.evaluate("() => new Promise((resolve) => { const t = setInterval(() => {"
                              " if (document.body.dataset.snapshot !== 'ready' &&"
                              " document.body.dataset.snapshot !== 'none') { clearInterval(t);"
                              " resolve(); } }, 50); })")
                page.close()
                if not args.cold_only:
                    page = _new_page(context)
                    data = visit(page, url)
                    show(f"repeat visit {rep + 1}", data)
                    summary["warm"].append(data["measured"])
                    page.close()
                context.close()
        finally:
            server.shutdown()
            private.cleanup()
    for mode, values in summary.items():
        if values:
            print(f"{mode}: median {statistics.median(values):.0f} ms over {len(values)}")


if __name__ == "__main__":
    main()
