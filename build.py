#!/usr/bin/env python3
"""Build, serve and test Jabberwocky.  Standard library only, so it runs on a fresh machine.

    python3 build.py serve     set up what is missing, build _site/, serve it on :8000
    python3 build.py build     set up what is missing and build _site/
    python3 build.py test      set up everything (venv, npm, Chromium) and run every test
    python3 build.py bench     run the benchmarks in bench/ and print their figures

Set-up is idempotent: the npm packages come from package-lock.json (``npm ci``), the
micropip wheel from PyPI (the version Pyodide's lockfile names), the Python tools into
``.venv`` (from ``pyproject.toml``'s extras).  Nothing is fetched from anywhere else.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SITE = ROOT / "_site"
CACHE = ROOT / ".cache"
WHEELS = CACHE / "wheels"
VENV = ROOT / ".venv"
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def log(message: str) -> None:
    """One line of progress on stderr."""
    print(f"[build] {message}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kwargs: object) -> None:
    """Run ``cmd``; exit with its status if it fails."""
    log("$ " + " ".join(str(c) for c in cmd))
    result = subprocess.run(cmd, cwd=ROOT, **kwargs)  # type: ignore[call-overload]
    if result.returncode:
        sys.exit(result.returncode)


# -- set-up ---------------------------------------------------------------------------


def venv_python() -> Path:
    """The interpreter of the project's virtual environment."""
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def ensure_venv(extras: str = "dev,e2e,bench") -> None:
    """Create ``.venv`` and install the project with ``extras``; re-run inside it.

    The install is skipped when ``pyproject.toml`` has not changed since the last one.
    The ``bench`` extra (OpenSpiel) is optional: a failure to install it is reported
    and the engine benchmark then runs without its comparison.
    """
    if in_venv():
        return
    if not venv_python().exists():
        run([sys.executable, "-m", "venv", str(VENV)])
    stamp = VENV / ".jabberwocky-installed"
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    if not stamp.exists() or stamp.read_text() != want:
        py = str(venv_python())
        run([py, "-m", "pip", "install", "-q", "--upgrade", "pip"])
        core = ",".join(e for e in extras.split(",") if e != "bench")
        run([py, "-m", "pip", "install", "-q", "-e", f".[{core}]"])
        if "bench" in extras:
            opt = subprocess.run([py, "-m", "pip", "install", "-q", "-e", ".[bench]"], cwd=ROOT)
            if opt.returncode:
                log("note: the optional bench extra (open_spiel) did not install")
        stamp.write_text(want)
    log("re-running inside .venv")
    os.execv(str(venv_python()), [str(venv_python()), str(ROOT / "build.py"), *sys.argv[1:]])


def ensure_npm() -> None:
    """``npm ci`` when node_modules is missing or older than package-lock.json."""
    marker = ROOT / "node_modules" / ".package-lock.json"
    lock = ROOT / "package-lock.json"
    if marker.exists() and marker.stat().st_mtime >= lock.stat().st_mtime:
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("npm is needed (Node.js 18 or newer): install Node.js, then run this again")
    run([npm, "ci", "--no-audit", "--no-fund"])


def micropip_version() -> str:
    """The micropip version that the pinned Pyodide's lockfile names."""
    lock = json.loads((ROOT / "node_modules/pyodide/pyodide-lock.json").read_text())
    return str(lock["packages"]["micropip"]["version"])


def ensure_wheel(name: str, version: str) -> Path:
    """A pure-Python wheel for Pyodide's Python, downloaded from PyPI into .cache/wheels."""
    WHEELS.mkdir(parents=True, exist_ok=True)
    found = sorted(WHEELS.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    if found:
        return found[0]
    run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
         "--python-version", "3.14", "--dest", str(WHEELS), f"{name}=={version}"])
    found = sorted(WHEELS.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    if not found:
        sys.exit(f"pip did not produce a wheel for {name}=={version}")
    return found[0]


def ensure_micropip() -> Path:
    return ensure_wheel("micropip", micropip_version())


def find_chromium() -> str | None:
    """Debian's Chromium if present (Playwright's own download does not work here)."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def ensure_chromium() -> None:
    """Install Debian's Chromium as root when missing; else fall back to Playwright's."""
    if find_chromium():
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        run(["apt-get", "update", "-qq"])
        run(["apt-get", "install", "-y", "-qq", "chromium"],
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
        return
    run([sys.executable, "-m", "playwright", "install", "chromium"])


# -- commands -------------------------------------------------------------------------


def build() -> None:
    """Build the static site into _site/."""
    ensure_npm()
    micropip = ensure_micropip()
    sys.path.insert(0, str(ROOT))
    from tools import site

    started = time.perf_counter()
    site.build(SITE, micropip_wheel=micropip)
    log(f"built {SITE.relative_to(ROOT)}/ in {time.perf_counter() - started:.1f} s")


def serve(port: int) -> None:
    """Build, then serve _site/ at http://localhost:PORT/ until interrupted."""
    build()
    sys.path.insert(0, str(ROOT))
    from tools import site

    site.serve(SITE, port)


def test(args: argparse.Namespace) -> None:
    """Every check, in order; stops at the first failing step."""
    ensure_venv()
    ensure_npm()
    ensure_chromium()
    py = sys.executable
    steps: list[tuple[str, list[str]]] = [
        ("ruff", [py, "-m", "ruff", "check", "src", "tests", "bench", "tools", "e2e", "build.py"]),
        ("mypy --strict", [py, "-m", "mypy"]),
        ("engine tests (CPython)", [py, "-m", "pytest", "-q", "tests"]),
    ]
    extra = ROOT / "tools" / "test_steps.py"
    if extra.exists():
        sys.path.insert(0, str(ROOT))
        from tools import test_steps

        steps += test_steps.steps(py)
    for name, cmd in steps:
        if args.only and args.only not in name:
            continue
        log(f"== {name}")
        if cmd and cmd[0] == "@build":
            build()
            continue
        run(cmd, env={**os.environ, "JABBERWOCKY_PYTHON": py})
    log("all test steps passed")


def bench() -> None:
    ensure_venv()
    ensure_npm()
    for script in sorted((ROOT / "bench").glob("*.py")):
        if script.name.startswith("_"):
            continue
        log(f"== {script.name}")
        run([sys.executable, str(script)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build", "serve", "test", "bench"], nargs="?",
                        default="build")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--only", help="test: run only the steps whose name contains this")
    args = parser.parse_args()
    if args.command == "build":
        build()
    elif args.command == "serve":
        serve(args.port)
    elif args.command == "test":
        test(args)
    else:
        bench()


if __name__ == "__main__":
    main()
