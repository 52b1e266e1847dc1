"""The test steps after lint, types and the CPython engine tests (see build.py ``test``).

Each step is listed once its files exist, so the test command stays true while parts of
the project are still being built.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def steps(py: str) -> list[tuple[str, list[str]]]:
    """(name, command) pairs; a command ``["@build"]`` means: build the site."""
    out: list[tuple[str, list[str]]] = []
    node = shutil.which("node") or "node"
    eslint = ROOT / "node_modules/eslint/bin/eslint.js"
    if (ROOT / "eslint.config.mjs").exists():
        # node_modules comes from `npm ci` (package.json's devDependencies), run before this
        out.append(("eslint (front end, build and test scripts)",
                    [node, str(eslint), "web", "tools", "tests/pyodide"]))
    if (ROOT / "tests/web").is_dir():
        # the page's pure modules and its controller (against the engine in this Python)
        out.append(("front-end unit tests (node --test)",
                    [node, "--test", "--test-reporter=dot", "tests/web/"]))
    if (ROOT / "tests/pyodide/run.py").exists():
        out.append(("engine tests (Pyodide under Node.js)", [py, "tests/pyodide/run.py"]))
    if (ROOT / "tests/pyodide/snapshot.mjs").exists():
        out.append(("memory snapshot restore (Pyodide under Node.js)",
                    [node, "tests/pyodide/snapshot.mjs"]))
    if (ROOT / "tools/site.py").exists():
        out.append(("build the site", ["@build"]))
    if (ROOT / "e2e").is_dir():
        out.append(("end-to-end (Chromium)", [py, "-m", "pytest", "-q", "e2e"]))
    workflows = sorted(str(p.relative_to(ROOT)) for p in (ROOT / ".github/workflows").glob("*.yml"))
    if workflows:
        out.append(("workflow files (schema)", [py, "-m", "check_jsonschema", "--builtin-schema",
                                                "vendor.github-workflows", *workflows]))
    return out
