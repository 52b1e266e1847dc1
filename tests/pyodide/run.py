"""Run the engine test suite inside Pyodide under Node.js (WebAssembly-only breakage).

Stdlib only.  Run from the repository root: ``python tests/pyodide/run.py [--stock-stdlib]
[pytest args]``.  It downloads the pure-Python wheels of pytest, hypothesis and their
dependencies for Pyodide's Python (3.14) into ``.cache/wheels`` (once; pinned versions
below), then runs ``node tests/pyodide/run.mjs``, which loads Pyodide from
``node_modules/pyodide``, installs those wheels without network, mounts ``src/`` and
``tests/`` and runs pytest.  By default Pyodide gets the site's standard library in its two
archives (``tools.site.stdlib_zips``: the game's modules first, the rest fetched on first
import) and micropip installs the wheels, so every module pytest, hypothesis and micropip
import outside the game's own comes through the site's finder; ``--stock-stdlib`` runs on
the npm package's standard library instead.  The exit status is pytest's.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WHEELS = ROOT / ".cache" / "wheels"
PYODIDE_PYTHON = "3.14"

# Pure-Python wheels the test suite needs under Pyodide's Python 3.14, pinned exactly.
# pytest 9 needs iniconfig, packaging, pluggy and pygments; hypothesis needs
# sortedcontainers (Python 3.14 needs no exceptiongroup or tomli back-ports).
PINNED = {
    "pytest": "9.0.3",
    "pluggy": "1.6.0",
    "iniconfig": "2.3.0",
    "packaging": "26.2",
    "pygments": "2.20.0",
    "hypothesis": "6.155.2",
    "sortedcontainers": "2.4.0",
}


def wheel_path(name: str, version: str) -> Path | None:
    """The cached wheel of ``name==version``, if present."""
    stem = name.replace("-", "_").lower()
    for path in WHEELS.glob("*.whl"):
        dist, ver = path.name.split("-")[:2]
        if dist.lower() == stem and ver == version:
            return path
    return None


def ensure_wheels() -> list[Path]:
    """Download each pinned wheel that is not cached yet; return all their paths."""
    WHEELS.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, version in PINNED.items():
        path = wheel_path(name, version)
        if path is None:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                 "--only-binary=:all:", "--python-version", PYODIDE_PYTHON,
                 "--dest", str(WHEELS), f"{name}=={version}"],
                check=True,
            )
            path = wheel_path(name, version)
            if path is None:
                sys.exit(f"pip did not produce a wheel for {name}=={version}")
        if not path.name.endswith("-none-any.whl"):
            sys.exit(f"{path.name} is not a pure-Python wheel: Pyodide cannot install it")
        paths.append(path)
    return paths


def main() -> int:
    node = shutil.which("node")
    if node is None:
        sys.exit("node (Node.js >= 18) is needed to run the tests under Pyodide")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        sys.exit("node_modules/pyodide is missing: run `npm ci` first")
    wheels = ensure_wheels()
    args = sys.argv[1:]
    split: list[str] = []
    if "--stock-stdlib" in args:
        args.remove("--stock-stdlib")
    else:
        sys.path.insert(0, str(ROOT))
        from tools import site as site_tools

        _, wheel = site_tools.engine_wheel(site_tools.project_version())
        first, later = site_tools.stdlib_zips(wheel)
        split = ["--stdlib", str(first), str(later), str(site_tools.micropip_wheel())]
    started = time.perf_counter()
    cmd = [node, str(ROOT / "tests" / "pyodide" / "run.mjs"), *split,
           *(str(w) for w in wheels), "--", *args]
    status = subprocess.run(cmd, cwd=ROOT).returncode
    print(f"pyodide test run: {time.perf_counter() - started:.1f} s, exit status {status}")
    return status


if __name__ == "__main__":
    sys.exit(main())
