#!/usr/bin/env python3
"""Build, serve and test Jabberwocky.  Standard library only, so it runs on a fresh machine.

    python3 build.py serve     set up what is missing, build _site/, serve it on :8000
    python3 build.py build     set up what is missing and build _site/
    python3 build.py test      set up everything (venv, npm, Chromium) and run every test
    python3 build.py bench     run the benchmarks in bench/ and print their figures
    python3 build.py screenshots   make the committed screenshots anew (docs/screenshots/)
    python3 build.py lock      refresh requirements/dev.txt (the hashed lock) to the newest

Set-up is idempotent: the npm packages come from package-lock.json (``npm ci``), the
micropip wheel from PyPI (the version Pyodide's lockfile names, checked against the
SHA-256 pinned here), the Python tools into ``.venv`` from requirements/dev.txt (exact
versions, every file's hash required), then the project itself (``--no-deps -e .``).
Nothing is fetched from anywhere else.
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
from types import ModuleType

ROOT = Path(__file__).resolve().parent
SITE = ROOT / "_site"
CACHE = ROOT / ".cache"
WHEELS = CACHE / "wheels"
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements" / "dev.txt"
LOCK_COMMAND = ["pip", "compile", "pyproject.toml", "--extra", "dev", "--extra", "e2e",
                "--universal", "--python-version", "3.11", "--generate-hashes",
                "-o", "requirements/dev.txt"]
"""How requirements/dev.txt is made (``uv`` + these; ``build.py lock`` adds --upgrade)."""
MICROPIP = ("0.11.1", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3")
"""The micropip wheel the site ships: the version the pinned Pyodide's lockfile names and
the SHA-256 of PyPI's file (its own index lists the same), checked after each download
and on each use of the cached copy.  Pyodide's lockfile has another hash for its own
build of the wheel, so that one cannot be used."""
NODE_MAINTAINED = 22
"""The oldest Node.js line still maintained (20 reached its end of life in April 2026)."""
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


def bench_requirements() -> list[str]:
    """pyproject.toml's optional ``bench`` extra (OpenSpiel), which is not locked."""
    import tomllib

    with (ROOT / "pyproject.toml").open("rb") as fh:
        return list(tomllib.load(fh)["project"]["optional-dependencies"]["bench"])


def ensure_venv(with_bench: bool = True) -> None:
    """Create ``.venv``, install the locked tools and the project; re-run inside it.

    The tools come from requirements/dev.txt with ``--require-hashes``: the exact
    versions, each file checked against its hash.  The project is then installed with
    ``--no-deps --no-build-isolation -e .`` (setuptools is in the lock, so nothing is
    fetched unlocked).  The install is skipped while pyproject.toml and the lock are
    unchanged since the last one.  The ``bench`` extra (OpenSpiel) is optional and not
    locked: a failure to install it is reported, and the engine benchmark then runs
    without its comparison.
    """
    if in_venv():
        return
    if not LOCK.is_file():
        sys.exit(f"{LOCK.relative_to(ROOT)} is missing: it pins the Python tools; restore "
                 "it from git (or make it anew with python3 build.py lock)")
    if not venv_python().exists():
        run([sys.executable, "-m", "venv", str(VENV)])
    stamp = VENV / ".jabberwocky-installed"
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + LOCK.read_bytes()
                          + (b"bench" if with_bench else b"")).hexdigest()
    if not stamp.exists() or stamp.read_text() != want:
        py = str(venv_python())
        run([py, "-m", "pip", "install", "-q", "--require-hashes", "-r", str(LOCK)])
        run([py, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "-e", "."])
        if with_bench:
            opt = subprocess.run([py, "-m", "pip", "install", "-q", *bench_requirements()],
                                 cwd=ROOT)
            if opt.returncode:
                log("note: the optional bench extra (open_spiel) did not install")
        stamp.write_text(want)
    log("re-running inside .venv")
    os.execv(str(venv_python()), [str(venv_python()), str(ROOT / "build.py"), *sys.argv[1:]])


def check_node() -> None:
    """A word (not an error) when Node.js is older than the maintained lines."""
    node = shutil.which("node")
    if node is None:
        return
    done = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
    try:
        major = int(done.stdout.strip().lstrip("v").split(".")[0])
    except ValueError:
        return
    if major < NODE_MAINTAINED:
        log(f"note: Node.js {done.stdout.strip()} is past its end of life; the project is "
            f"tested with Node.js {NODE_MAINTAINED} and 24")


def ensure_npm() -> None:
    """``npm ci`` when node_modules is missing or older than package-lock.json."""
    marker = ROOT / "node_modules" / ".package-lock.json"
    lock = ROOT / "package-lock.json"
    if marker.exists() and marker.stat().st_mtime >= lock.stat().st_mtime:
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit(f"npm is needed (Node.js {NODE_MAINTAINED} or 24, with npm): install "
                 "Node.js, then run this again")
    check_node()
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
    """The micropip wheel, its version and SHA-256 checked against ``MICROPIP``."""
    version, sha256 = MICROPIP
    named = micropip_version()
    if named != version:
        sys.exit(f"the pinned Pyodide names micropip {named}, build.py pins {version}: set "
                 f"MICROPIP in build.py to {named} and the SHA-256 of its wheel on PyPI")
    wheel = ensure_wheel("micropip", version)
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != sha256:
        wheel.unlink()
        sys.exit(f"{wheel.name} has SHA-256 {digest}, not the {sha256} pinned in build.py: "
                 "the file was removed; run this again to download it anew, and if it "
                 "differs again, do not use it")
    return wheel


def find_chromium() -> str | None:
    """Debian's Chromium if present (Playwright's own download does not work here)."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def apt_install(*packages: str) -> bool:
    """Install Debian ``packages`` with apt as root; False where that cannot be done here."""
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get")):
        return False
    run(["apt-get", "update", "-qq"])
    run(["apt-get", "install", "-y", "-qq", *packages],
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    return True


def ensure_chromium() -> None:
    """Install Debian's Chromium as root when missing; else fall back to Playwright's."""
    if find_chromium() or apt_install("chromium"):
        return
    run([sys.executable, "-m", "playwright", "install", "chromium"])


def ensure_netlab() -> None:
    """coturn and iptables for e2e/test_online_nat.py (NATs and a TURN relay in network
    namespaces): installed with apt as root on Debian when missing; elsewhere that test is
    skipped, and this says why."""
    missing = [pkg for tool, pkg in (("turnserver", "coturn"), ("iptables", "iptables"))
               if not shutil.which(tool) and not Path(f"/usr/sbin/{tool}").exists()]
    if not missing or apt_install(*missing):
        return
    log(f"{' and '.join(missing)} missing (not root on Debian): e2e/test_online_nat.py, the "
        "online tests behind NATs and a TURN relay, will be skipped; they need root, "
        "ip netns, iptables and coturn")


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


def load_test_steps() -> ModuleType:
    """tools/test_steps.py (the list of steps); its absence is an error, not fewer steps."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tools import test_steps as module

    return module


def test(args: argparse.Namespace) -> None:
    """Every check, in order; stops at the first failing step.

    The steps come from tools/test_steps.py.  Before any set-up, ``--only`` must match a
    step and every step's files must exist; otherwise the command fails naming them.
    """
    steps_module = load_test_steps()
    all_steps = steps_module.steps(sys.executable)
    try:
        chosen = steps_module.check(all_steps, args.only)
    except steps_module.StepError as exc:
        sys.exit(f"[build] {exc}")
    ensure_venv()
    ensure_npm()
    ensure_chromium()
    ensure_netlab()
    for step in chosen:
        log(f"== {step.name}")
        if step.cmd == [steps_module.BUILD]:
            build()
            continue
        run(step.cmd, env={**os.environ, "JABBERWOCKY_PYTHON": sys.executable})
    count = f"{len(chosen)} test step{'' if len(chosen) == 1 else 's'}"
    log(f"all {count} passed" if args.only is None else
        f"{count} matching {args.only!r} passed (of {len(all_steps)})")


def screenshots() -> None:
    """Make docs/screenshots/*.png anew (e2e/test_screenshots.py in Chromium)."""
    ensure_venv(with_bench=False)
    ensure_npm()
    ensure_chromium()
    run([sys.executable, "-m", "pytest", "-q", "e2e/test_screenshots.py"],
        env={**os.environ, load_test_steps().SCREENSHOTS_ENV: "write"})
    log("wrote docs/screenshots/: look at them, then commit them")


def lock() -> None:
    """requirements/dev.txt anew with the newest versions pyproject.toml allows."""
    ensure_venv(with_bench=False)
    uv = Path(sys.executable).parent / "uv"
    run([str(uv if uv.exists() else "uv"), *LOCK_COMMAND, "--upgrade", "--quiet"])
    log("requirements/dev.txt refreshed: run python3 build.py test, then commit it")


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
    parser.add_argument("command", nargs="?", default="build",
                        choices=["build", "serve", "test", "bench", "screenshots", "lock"])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--only", help="test: run only the steps whose name contains this")
    args = parser.parse_args()
    if args.command == "build":
        build()
    elif args.command == "serve":
        serve(args.port)
    elif args.command == "test":
        test(args)
    elif args.command == "screenshots":
        screenshots()
    elif args.command == "lock":
        lock()
    else:
        bench()


if __name__ == "__main__":
    main()
