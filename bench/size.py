#!/usr/bin/env python3
"""What the service worker precaches, in bytes: Pyodide's files and ours.

    python3 bench/size.py            sizes (builds _site/ first if it is missing)
    python3 bench/size.py --trim     also: a standard library zip trimmed to what the
                                     engine imports, its size and start time (Node.js,
                                     and headless Chromium with --browser)

Pyodide's share is ``pyodide/`` plus the micropip wheel; ours is everything else (front
end, worker, engine wheel, icons, manifest, build.json).  Budgets, ours: what a first visit
fetches before the table (the start path: the page, its stylesheet and preloaded modules,
one catalogue — the largest, as the worst case —, the worker's modules, the engine wheel,
the manifest and favicon) <= 300 KB gzipped; everything we precache <= 800 KB (the
screens loaded on first use, the other catalogues, the icons).  The
site's standard library (two archives: the modules the game imports as bytecode, then
every other file for later imports) is compared with the npm package's zip.

The trim experiment (from before the site split its standard library; kept to compare a
trimmed source zip's start time) loads Pyodide under Node.js, installs the engine wheel, plays
through every request of the worker protocol (a game with each bot level, hints,
records good and bad, errors), lists every standard library file Python imported, and
writes a zip with only those.  It then starts Pyodide ``--runs`` times with each zip
(``loadPyodide({stdLibURL})``), replays the same script and compares the results.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_site"
PYODIDE = ROOT / "node_modules" / "pyodide"
TARGET_START_GZIP = 300 * 1024
TARGET_OURS = 800 * 1024
# (also as esbuild minifies them, several on a line: `import{a as b}from"./chunk-X.js";`)
IMPORT_RE = re.compile(r'(?:\bimport|\bexport)\b[^;"]*?\bfrom\s*"(\.{1,2}/[^"]+)"')
SIDE_EFFECT_RE = re.compile(r'\bimport\s*"(\.{1,2}/[^"]+)"')

PROBE_JS = r"""
import { loadPyodide } from %(pyodide)s;
import fs from "node:fs";
const [stdlib, lock, wheel, script] = process.argv.slice(-4);
const t0 = performance.now();
const options = stdlib === "-" ? {} : { stdLibURL: stdlib };
if (lock !== "-") options.lockFileURL = lock;
const py = await loadPyodide(options);
const loadMs = performance.now() - t0;
py.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel");
const t1 = performance.now();
const out = py.runPython(fs.readFileSync(script, "utf8"));
const runMs = performance.now() - t1;
console.log("@@" + JSON.stringify({ loadMs, runMs, out: JSON.parse(out) }));
"""

# Runs inside Pyodide: every request type of the worker protocol, the error paths too.
SCENARIO_PY = ROOT / "tools" / "exercise_engine.py"


def human(n: float) -> str:
    return f"{n / 1024:,.1f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:,.2f} MB"


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 6, mtime=0))


def ensure_site() -> None:
    if not (SITE / "sw.js").is_file():
        print("building _site/ first", flush=True)
        subprocess.run([sys.executable, str(ROOT / "build.py"), "build"], check=True, cwd=ROOT)


def precached(site: Path) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from tools import pwa

    return pwa.precache_files(site)


def is_pyodide(rel: str) -> bool:
    return rel.startswith("pyodide/") or rel.startswith("wheels/micropip-")


def report_sizes(site: Path) -> dict[str, int]:
    """Print the precache sizes; return the totals."""
    files = precached(site)
    rows = []
    for rel in files:
        data = (site / rel).read_bytes()
        rows.append((rel, len(data), gz(data)))
    pyo = [r for r in rows if is_pyodide(r[0])]
    ours = [r for r in rows if not is_pyodide(r[0])]
    print(f"service worker precache: {len(rows)} files, "
          f"{human(sum(r[1] for r in rows))} (gzip {human(sum(r[2] for r in rows))})")
    for title, group in (("Pyodide (runtime + micropip)", pyo), ("ours", ours)):
        print(f"  {title}: {len(group)} files, {human(sum(r[1] for r in group))} "
              f"(gzip {human(sum(r[2] for r in group))})")
        for rel, raw, packed in sorted(group, key=lambda r: -r[1]):
            print(f"    {raw:>10,} B  gzip {packed:>9,} B  {rel}")
    stdlib, stock = site / "pyodide" / "python_stdlib.zip", PYODIDE / "python_stdlib.zip"
    later = site / "pyodide" / "python_stdlib_later.zip"
    if stdlib.is_file() and stock.is_file():
        with zipfile.ZipFile(stdlib) as zf:
            compiled = sum(name.endswith(".pyc") for name in zf.namelist())
        print(f"standard library: the npm package's python_stdlib.zip is "
              f"{stock.stat().st_size:,} B; the site's first archive {stdlib.stat().st_size:,} B "
              f"({compiled} modules as bytecode: what start-up and the game import), "
              + (f"the second {later.stat().st_size:,} B (every other file, fetched on first "
                 f"import)" if later.is_file() else "no second archive")
              + " (tools/precompile_stdlib.mjs)")
    ours_total = sum(r[1] for r in ours)
    verdict = "within" if ours_total <= TARGET_OURS else "OVER"
    print(f"ours: {ours_total:,} B = {human(ours_total)}: {verdict} the "
          f"{human(TARGET_OURS)} budget")
    start = start_path(site)
    sizes = {rel: (raw, packed) for rel, raw, packed in rows}
    raw = sum(sizes[r][0] for r in start if r in sizes)
    packed = sum(sizes[r][1] for r in start if r in sizes)
    verdict = "within" if packed <= TARGET_START_GZIP else "OVER"
    print(f"ours on the start path: {len(start)} files, {raw:,} B, gzip {packed:,} B = "
          f"{human(packed)}: {verdict} the {human(TARGET_START_GZIP)} gzip budget")
    return {"pyodide": sum(r[1] for r in pyo), "ours": ours_total, "start_gzip": packed}


def module_graph(site: Path, entries: list[str]) -> set[str]:
    """The site paths of ``entries`` and every module they import statically."""
    seen: set[str] = set()
    todo = list(entries)
    while todo:
        rel = todo.pop()
        if rel in seen or not (site / rel).is_file():
            continue
        seen.add(rel)
        text = (site / rel).read_text("utf-8")
        base = (site / rel).parent
        for target in IMPORT_RE.findall(text) + SIDE_EFFECT_RE.findall(text):
            todo.append((base / target).resolve().relative_to(site.resolve()).as_posix())
    return seen


def start_path(site: Path) -> set[str]:
    """What a first visit fetches of ours before the table is dealt."""
    html = (site / "index.html").read_text("utf-8")
    linked = re.findall(r'<(?:link|script)\b[^>]*(?:href|src)="([^"#?]+)"', html)
    pages = [rel for rel in linked if (site / rel).is_file()
             and not rel.startswith(("icons/icon-", "icons/apple"))]
    # the worker also imports snapshot-file.js as it starts (a dynamic import, at once)
    modules = module_graph(site, [r for r in pages if r.endswith(".js")]
                           + ["worker.js", "snapshot-file.js"])
    catalogues = sorted((site / "i18n").glob("*.json"), key=lambda p: -p.stat().st_size)
    # (the engine comes in Pyodide's first standard-library archive, counted as Pyodide's)
    return {"index.html", *pages, *modules,
            *([catalogues[0].relative_to(site).as_posix()] if catalogues else [])}


def trimmed_zip(full: Path, modules: list[str], out: Path) -> None:
    """``out``: ``full`` with only ``modules`` and the packages that hold them."""
    keep = set(modules)
    for rel in modules:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            keep.add("/".join(parts[:i]) + "/__init__.py")
    with zipfile.ZipFile(full) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        names = set(src.namelist())
        missing = sorted(k for k in keep if k not in names and not k.endswith("__init__.py"))
        if missing:
            raise SystemExit(f"imported files not found in {full.name}: {missing[:5]}")
        for info in src.infolist():
            if info.filename in keep:
                dst.writestr(info, src.read(info.filename), compresslevel=9)


def probe(stdlib: str, wheel: Path, work: Path, lock: str = "-") -> dict[str, object]:
    js = work / "probe.mjs"
    js.write_text(PROBE_JS % {"pyodide": json.dumps((PYODIDE / "pyodide.mjs").as_uri())})
    proc = subprocess.run(["node", str(js), stdlib, lock, str(wheel), str(SCENARIO_PY)],
                          capture_output=True, text=True, timeout=600)
    for line in proc.stdout.splitlines():
        if line.startswith("@@"):
            result: dict[str, object] = json.loads(line[2:])
            return result
    raise SystemExit(f"the Pyodide probe failed ({stdlib}):\n{proc.stdout[-2000:]}"
                     f"\n{proc.stderr[-2000:]}")


BROWSER_PAGE = """<!doctype html><meta charset="utf-8"><title>stdlib probe</title>
<script type="module" src="probe.js"></script>"""

BROWSER_JS = """
import { loadPyodide } from "./pyodide.mjs";
const stdlib = new URLSearchParams(location.search).get("stdlib");
const t0 = performance.now();
const py = await loadPyodide({ stdLibURL: stdlib });
const loadMs = performance.now() - t0;
const wheel = new Uint8Array(await (await fetch("engine.whl")).arrayBuffer());
py.unpackArchive(wheel, "wheel");
const view = JSON.parse(py.runPython(
  "from jabberwocky import webapi; webapi.handle('new_game', "
  + "'{\\"seed\\": \\"probe\\", \\"players\\": 4, \\"bots\\": \\"random\\"}')"));
window.__probe = { loadMs, totalMs: performance.now() - t0, phase: view.result.phase };
"""


def browser_start_times(full: Path, trimmed: Path, wheel: Path, runs: int) -> None:
    """loadPyodide in headless Chromium (main thread, cold HTTP cache) with each zip."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("  browser: skipped (playwright is not installed)")
        return
    import threading

    sys.path.insert(0, str(ROOT))
    from tools import site as site_tools

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"):
            shutil.copy(PYODIDE / name, work / name)
        shutil.copy(full, work / "full.zip")
        shutil.copy(trimmed, work / "trimmed.zip")
        shutil.copy(wheel, work / "engine.whl")
        (work / "index.html").write_text(BROWSER_PAGE)
        (work / "probe.js").write_text(BROWSER_JS)
        server = site_tools.make_server(work, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        times: dict[str, list[tuple[float, float]]] = {"full": [], "trimmed": []}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=[
                    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run"])
                for _ in range(runs):
                    for name in times:
                        context = browser.new_context()
                        page = context.new_page()
                        page.goto(f"{url}?stdlib={name}.zip")
                        result = None
                        for _ in range(1200):
                            result = page.evaluate("() => window.__probe || null")
                            if result:
                                break
                            page.wait_for_timeout(50)
                        context.close()
                        if not result or result["phase"] != "bidding":
                            raise SystemExit(f"the browser probe failed with the {name} zip")
                        times[name].append((result["loadMs"], result["totalMs"]))
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    for name, values in times.items():
        load = statistics.median(v[0] for v in values)
        total = statistics.median(v[1] for v in values)
        print(f"  Pyodide start in headless Chromium, {name} stdlib: median loadPyodide "
              f"{load:.0f} ms, to the first dealt table {total:.0f} ms over {runs} runs "
              f"(load min {min(v[0] for v in values):.0f}, "
              f"max {max(v[0] for v in values):.0f})")


def report_trim(site: Path, runs: int, browser: bool = False) -> None:
    if shutil.which("node") is None:
        print("stdlib trim: skipped (node is not installed)")
        return
    info = json.loads((site / "build.json").read_text())
    wheel = site / info["wheel"]
    full = PYODIDE / "python_stdlib.zip"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        first = probe("-", wheel, work)
        out = first["out"]
        assert isinstance(out, dict)
        modules = list(out["modules"])
        trimmed = work / "python_stdlib.zip"
        trimmed_zip(full, modules, trimmed)
        full_size, trim_size = full.stat().st_size, trimmed.stat().st_size
        print(f"stdlib zip: full {full_size:,} B ({len(zipfile.ZipFile(full).namelist())} "
              f"entries, gzip {gz(full.read_bytes()):,} B); trimmed to what the engine "
              f"imports {trim_size:,} B ({len(modules)} modules, gzip "
              f"{gz(trimmed.read_bytes()):,} B): saves {full_size - trim_size:,} B "
              f"({100 * (full_size - trim_size) / full_size:.0f}%)")
        times: dict[str, list[float]] = {"full": [], "trimmed": []}
        results = {}
        for _ in range(runs):
            for name, stdlib in (("full", str(full)), ("trimmed", str(trimmed))):
                r = probe(stdlib, wheel, work)
                times[name].append(float(r["loadMs"]))  # type: ignore[arg-type]
                o = r["out"]
                assert isinstance(o, dict)
                results[name] = (o["scores"], o["again"], o["errors"])
        same = results["full"] == results["trimmed"]
        for name, values in times.items():
            print(f"  Pyodide start under Node.js, {name} stdlib: median "
                  f"{statistics.median(values):.0f} ms over {runs} runs "
                  f"(min {min(values):.0f}, max {max(values):.0f})")
        print(f"  the same games and answers with the trimmed zip: {'yes' if same else 'NO'}")
        if browser:
            browser_start_times(full, trimmed, wheel, runs)
        lock = PYODIDE / "pyodide-lock.json"
        data = json.loads(lock.read_text())
        small = work / "pyodide-lock.json"
        small.write_text(json.dumps({"info": data["info"], "packages": {}}))
        r = probe(str(trimmed), wheel, work, str(small))
        o = r["out"]
        assert isinstance(o, dict)
        works = (o["scores"], o["again"], o["errors"]) == results["full"]
        print(f"pyodide-lock.json: {lock.stat().st_size:,} B (gzip {gz(lock.read_bytes()):,} B);"
              f" an empty package list ({small.stat().st_size} B) with the trimmed stdlib: "
              f"{'the same games and answers' if works else 'DIFFERENT results'} "
              f"(start {float(r['loadMs']):.0f} ms; micropip is loaded by URL, not by name)")
        if os.environ.get("JABBERWOCKY_TRIM_OUT"):
            shutil.copy(trimmed, os.environ["JABBERWOCKY_TRIM_OUT"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=SITE)
    parser.add_argument("--trim", action="store_true", help="run the stdlib trim experiment")
    parser.add_argument("--browser", action="store_true",
                        help="with --trim: also time the start in headless Chromium")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.site == SITE:
        ensure_site()
    report_sizes(args.site)
    if args.trim:
        report_trim(args.site, args.runs, args.browser)


if __name__ == "__main__":
    main()
