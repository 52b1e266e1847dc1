"""build.py test: every step runs or fails loudly; --only must match a step."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import test_steps  # noqa: E402

pytestmark = pytest.mark.needs_subprocess


def test_every_step_of_the_repository_has_its_files() -> None:
    steps = test_steps.steps(sys.executable)
    assert test_steps.missing(steps) == []
    assert test_steps.check(steps, None) == steps
    names = [step.name for step in steps]
    assert len(set(names)) == len(names), "step names must be distinct for --only"
    for word in ("ruff", "mypy", "Pyodide", "e2e", "zizmor", "schema"):
        assert any(word in name for name in names), word


def test_a_missing_file_is_an_error_naming_the_step(tmp_path: Path) -> None:
    steps = [test_steps.Step("alpha", ["true"], ("a.txt",)),
             test_steps.Step("beta", ["true"], ("b/c.txt",))]
    (tmp_path / "a.txt").write_text("")
    problems = test_steps.missing(steps, tmp_path)
    assert problems == ["test step 'beta' needs b/c.txt, which is missing"]
    with pytest.raises(test_steps.StepError, match=r"'beta' needs b/c\.txt"):
        test_steps.check(steps, "alpha", tmp_path)  # even when only alpha would run
    (tmp_path / "b").mkdir()
    (tmp_path / "b/c.txt").write_text("")
    assert test_steps.check(steps, "alpha", tmp_path) == steps[:1]


def test_only_without_a_match_is_an_error_listing_the_steps() -> None:
    steps = [test_steps.Step("ruff", ["true"]), test_steps.Step("mypy --strict", ["true"])]
    assert test_steps.select(steps, "my") == steps[1:]
    assert test_steps.select(steps, None) == steps
    with pytest.raises(test_steps.StepError) as caught:
        test_steps.select(steps, "e2e")
    assert "--only 'e2e' matches no test step" in str(caught.value)
    assert "  ruff\n  mypy --strict" in str(caught.value)


def _build_py(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(root / "build.py"), *args], cwd=root,
                          capture_output=True, text=True, timeout=60)


def test_build_py_only_without_a_match_exits_non_zero() -> None:
    """Checked before any set-up, so this takes a moment, not a venv install."""
    done = _build_py(ROOT, "test", "--only", "no-such-step")
    assert done.returncode != 0
    assert "matches no test step" in done.stderr
    assert "end-to-end tests (e2e/, Chromium)" in done.stderr
    assert "passed" not in done.stderr + done.stdout


def test_build_py_with_a_step_file_missing_exits_non_zero(tmp_path: Path) -> None:
    """A copy of the repository without tests/pyodide/snapshot.mjs fails at once."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "_site", ".cache", "*_cache", ".hypothesis",
        "__pycache__", "snapshot.mjs"))
    done = _build_py(root, "test", "--only", "ruff")
    assert done.returncode != 0
    assert ("test step 'memory snapshot restore (Pyodide under Node.js)' needs "
            "tests/pyodide/snapshot.mjs, which is missing") in done.stderr
    assert not (root / ".venv").exists(), "it stops before setting anything up"
    assert "passed" not in done.stderr + done.stdout


def _load_build_py() -> Any:
    spec = importlib.util.spec_from_file_location("jabberwocky_build_py_test", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_micropip_is_checked_against_its_pinned_sha256(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_py = _load_build_py()
    version, _ = build_py.MICROPIP
    monkeypatch.setattr(build_py, "WHEELS", tmp_path)
    monkeypatch.setattr(build_py, "micropip_version", lambda: version)
    tampered = tmp_path / f"micropip-{version}-py3-none-any.whl"
    tampered.write_bytes(b"not the wheel PyPI serves")
    with pytest.raises(SystemExit, match=r"not the [0-9a-f]{64} pinned in build\.py"):
        build_py.ensure_micropip()
    assert not tampered.exists(), "a file that fails the check is removed"
    monkeypatch.setattr(build_py, "micropip_version", lambda: "99.0")
    with pytest.raises(SystemExit, match=r"names micropip 99\.0, build\.py pins"):
        build_py.ensure_micropip()
