"""Every step of ``python3 build.py test``, in order, and the checks that keep them honest.

Each :class:`Step` names the files it runs on (``needs``).  A step is never dropped
because a file is missing: :func:`missing` reports it, and build.py stops before running
anything, so a renamed or deleted test file fails the test command instead of quietly
shrinking it.  :func:`select` is ``--only``: a word that matches no step is an error that
lists the steps, never an empty run that says "all test steps passed".
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = "@build"
"""A step whose command is ``[BUILD]`` builds the site (in build.py's own process)."""

SCREENSHOTS_ENV = "JABBERWOCKY_SCREENSHOTS"
"""Set to ``write`` to have e2e/test_screenshots.py make the committed screenshots anew."""


class StepError(Exception):
    """The test command cannot run as asked (a step's file is missing, --only matches
    nothing); the message says what to do."""


@dataclass(frozen=True)
class Step:
    """One step: a name (what --only matches), a command and the paths it needs."""

    name: str
    cmd: list[str]
    needs: tuple[str, ...] = ()


def _tool(py: str, name: str) -> str:
    """A console script installed next to the interpreter ``py`` (the venv's bin/)."""
    here = Path(py).parent / name
    return str(here) if here.exists() else (shutil.which(name) or str(here))


def workflow_files() -> list[str]:
    """The GitHub workflow files, relative to the root (sorted)."""
    return sorted(p.relative_to(ROOT).as_posix()
                  for p in (ROOT / ".github/workflows").glob("*.yml"))


def steps(py: str) -> list[Step]:
    """Every step, in the order they run; ``py`` is the project's Python (in .venv)."""
    node = shutil.which("node") or "node"
    eslint = "node_modules/eslint/bin/eslint.js"
    workflows = workflow_files()
    return [
        Step("ruff", [py, "-m", "ruff", "check", "src", "tests", "bench", "tools", "e2e",
                      "build.py"], ("src", "tests", "bench", "tools", "e2e", "build.py")),
        Step("mypy --strict", [py, "-m", "mypy"], ("src/jabberwocky",)),
        Step("engine tests (CPython)", [py, "-m", "pytest", "-q", "tests"],
             ("tests/conftest.py",)),
        # node_modules comes from `npm ci` (package.json's devDependencies), run before this
        Step("eslint (front end, build and test scripts)",
             [node, eslint, "web", "tools", "tests/pyodide"],
             ("eslint.config.mjs", "web", "tests/pyodide")),
        # the page's pure modules and its controller (against the engine in this Python)
        Step("front-end unit tests (node --test)",
             [node, "--test", "--test-reporter=dot", "tests/web/"],
             ("tests/web/engine-process.mjs",)),
        Step("engine tests (Pyodide under Node.js)", [py, "tests/pyodide/run.py"],
             ("tests/pyodide/run.py", "tests/pyodide/run.mjs")),
        Step("memory snapshot restore (Pyodide under Node.js)",
             [node, "tests/pyodide/snapshot.mjs"], ("tests/pyodide/snapshot.mjs",)),
        Step("build the site", [BUILD], ("tools/site.py", "tools/pwa.py")),
        Step("end-to-end tests (e2e/, Chromium)", [py, "-m", "pytest", "-q", "e2e"],
             ("e2e/conftest.py",)),
        Step("workflow files (schema)",
             [py, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
              *workflows], (".github/workflows/ci.yml",)),
        Step("dependabot config (schema)",
             [py, "-m", "check_jsonschema", "--builtin-schema", "vendor.dependabot",
              ".github/dependabot.yml"], (".github/dependabot.yml",)),
        # every finding of the strictest persona fails the step, offline (no GitHub API)
        Step("workflow audit (zizmor)",
             [_tool(py, "zizmor"), "--offline", "--persona", "pedantic", ".github"],
             (".github/workflows/ci.yml", ".github/dependabot.yml")),
    ]


def missing(chosen: Sequence[Step], root: Path = ROOT) -> list[str]:
    """One line per step file that does not exist (empty when all are there)."""
    return [f"test step {step.name!r} needs {need}, which is missing"
            for step in chosen for need in step.needs if not (root / need).exists()]


def select(all_steps: Sequence[Step], only: str | None) -> list[Step]:
    """The steps whose name contains ``only`` (all of them for None).

    Raises :class:`StepError` naming every step when nothing matches.
    """
    if only is None:
        return list(all_steps)
    chosen = [step for step in all_steps if only in step.name]
    if not chosen:
        names = "\n".join(f"  {step.name}" for step in all_steps)
        raise StepError(f"--only {only!r} matches no test step; the steps are:\n{names}")
    return chosen


def check(all_steps: Sequence[Step], only: str | None, root: Path = ROOT) -> list[Step]:
    """:func:`select`, then :func:`missing` over every step (not only the chosen ones:
    a missing file is a broken test command whichever steps run)."""
    chosen = select(all_steps, only)
    problems = missing(all_steps, root)
    if problems:
        raise StepError("\n".join(problems) + "\n(restore the file, or change the step in "
                        "tools/test_steps.py)")
    return chosen
