"""Lighthouse's audit of a first visit (mobile, simulated throttling), median of N runs.

    python bench/lighthouse.py [--runs 3] [--site DIR] [--ab OTHER_SITE]

Serves the built site (``tools/site.py``'s server, as ``build.py serve`` does: text
precompressed) under ``/jabberwocky/`` on loopback and runs Lighthouse on it ``--runs``
times (each a fresh profile: a first visit); with ``--ab``, a second build in the same
rotation (A B A B ...).  Prints, per site, the median performance score with LCP, TBT,
Speed Index and FCP, the largest contentful paint's element, and the accessibility,
best-practices and SEO scores (targets, issue 30: performance >= 90, the other three 100).

Lighthouse is not a dependency of the project (it is large, and only this benchmark uses
it).  Install it anywhere and say where: ``npm install --prefix /tmp/lh lighthouse``, then
``LIGHTHOUSE=/tmp/lh/node_modules/.bin/lighthouse`` (that path is also looked for by
default, then ``lighthouse`` on the PATH); Chromium from ``CHROME_PATH`` or
``/usr/bin/chromium``.  Without Lighthouse this prints how to get it and exits 0, so
``build.py bench`` goes on.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import site as site_tools  # noqa: E402

SUBPATH = "/jabberwocky/"
DEFAULT_LIGHTHOUSE = Path("/tmp/lh/node_modules/.bin/lighthouse")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {"LCP": "largest-contentful-paint", "TBT": "total-blocking-time",
           "SI": "speed-index", "FCP": "first-contentful-paint"}
HOW_TO_GET = ("Lighthouse is not installed: `npm install --prefix /tmp/lh lighthouse` (kept out "
              "of the project's package.json), then run this again (or set LIGHTHOUSE to its "
              "bin/lighthouse)")


def find_lighthouse() -> str | None:
    """The Lighthouse command: $LIGHTHOUSE, /tmp/lh's, or one on the PATH."""
    named = os.environ.get("LIGHTHOUSE")
    if named:
        return named if Path(named).exists() else None
    if DEFAULT_LIGHTHOUSE.exists():
        return str(DEFAULT_LIGHTHOUSE)
    return shutil.which("lighthouse")


def chrome_path() -> str:
    return os.environ.get("CHROME_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


def serve(site: Path, compress: bool = True) -> tuple[str, Any]:
    server = site_tools.make_server(site, 0, prefix=SUBPATH, compress=compress)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}{SUBPATH}", server


def audit(lighthouse: str, url: str, tmp: Path) -> dict[str, Any]:
    """One Lighthouse run (mobile, simulated throttling): scores, metrics, LCP element."""
    out = tmp / "report.json"
    profile = tempfile.mkdtemp(prefix="lh-profile-", dir=tmp)
    flags = f"--headless=new --no-sandbox --disable-gpu --user-data-dir={profile}"
    cmd = [lighthouse, url, "--output=json", f"--output-path={out}", "--quiet",
           f"--chrome-flags={flags}", "--only-categories=" + ",".join(CATEGORIES),
           "--max-wait-for-load=90000"]
    subprocess.run(cmd, check=True, env={**os.environ, "CHROME_PATH": chrome_path()},
                   capture_output=True, timeout=300)
    report = json.loads(out.read_text())
    shutil.rmtree(profile, ignore_errors=True)
    audits = report["audits"]
    element = ""
    items = (audits.get("largest-contentful-paint-element", {}).get("details") or {}).get("items")
    if items:
        first = items[0]
        nodes = first.get("items") or [first]
        node = nodes[0].get("node", {}) if nodes else {}
        element = node.get("selector") or node.get("snippet") or ""
    result: dict[str, Any] = {c: round(100 * (report["categories"][c]["score"] or 0))
                              for c in CATEGORIES}
    for short, name in METRICS.items():
        result[short] = float(audits[name]["numericValue"])
    result["element"] = element
    result["requests"] = len(((audits.get("network-requests") or {}).get("details") or {})
                             .get("items") or [])
    return result


def summary(runs: list[dict[str, Any]]) -> str:
    med = {k: statistics.median(r[k] for r in runs) for k in (*CATEGORIES, *METRICS)}
    perf = med["performance"]
    elements = sorted({r["element"] for r in runs if r["element"]})
    return (f"performance {perf:.0f} (target >= 90: {'OK' if perf >= 90 else 'MISSED'}); "
            f"LCP {med['LCP'] / 1000:.1f} s, TBT {med['TBT']:.0f} ms, Speed Index "
            f"{med['SI'] / 1000:.1f} s, FCP {med['FCP'] / 1000:.1f} s; accessibility "
            f"{med['accessibility']:.0f}, best practices {med['best-practices']:.0f}, SEO "
            f"{med['seo']:.0f} (targets 100); requests "
            f"{statistics.median(r['requests'] for r in runs):.0f}; LCP element "
            f"{', '.join(elements) or '-'}")


def run(sites: dict[str, Path], runs: int,
        plain: frozenset[str] = frozenset()) -> dict[str, list[dict[str, Any]]] | None:
    """Audit each site ``runs`` times, alternating; those named in ``plain`` served with
    no compression (as the dev server did before tools/precompress.py); None when
    Lighthouse is missing."""
    lighthouse = find_lighthouse()
    if lighthouse is None:
        print(HOW_TO_GET)
        return None
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in sites}
    servers = {name: serve(site, name not in plain) for name, site in sites.items()}
    try:
        with tempfile.TemporaryDirectory(prefix="jabberwocky-lh-") as tmp:
            for n in range(runs):
                for name, (url, _) in servers.items():
                    one = audit(lighthouse, url, Path(tmp))
                    results[name].append(one)
                    print(f"lighthouse {n + 1}/{runs} {name}: performance {one['performance']}, "
                          f"LCP {one['LCP'] / 1000:.1f} s, TBT {one['TBT']:.0f} ms, SI "
                          f"{one['SI'] / 1000:.1f} s", flush=True)
    finally:
        for _, server in servers.values():
            server.shutdown()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="audits per site (median)")
    parser.add_argument("--site", type=Path, default=None,
                        help="audit this built site (default: build a private copy)")
    parser.add_argument("--ab", type=Path, default=None,
                        help="also audit this second built site, alternating")
    parser.add_argument("--ab-plain", action="store_true",
                        help="serve the --ab site with no compression (as main's dev server)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jabberwocky-site-") as private:
        site = args.site or Path(private) / "site"
        if args.site is None:
            site_tools.build(site, site_tools.micropip_wheel())
        sites = {"game": site, **({"game-b": args.ab} if args.ab else {})}
        results = run(sites, args.runs, frozenset({"game-b"} if args.ab_plain else ()))
    if results is None:
        return
    print()
    print("Lighthouse, mobile, simulated throttling, a first visit, median of "
          f"{args.runs}:")
    for name, runs in results.items():
        print(f"  {name}: {summary(runs)}")


if __name__ == "__main__":
    main()
