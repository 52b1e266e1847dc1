"""Shared set-up of the engine tests: import path, hypothesis profiles, markers.

The tests import the engine from ``src/`` (no install needed) and run unchanged in
CPython and in Pyodide.  Under Pyodide two kinds of test are left out, and only these:
tests marked ``needs_subprocess`` (deselected by ``tests/pyodide/run.mjs``) and test
modules of the build tools and the benches, which import ``tools`` or ``bench`` (not
mounted there; they test CPython-side build and bench code, not the engine).  Tests that
need an optional package say so when they skip for its absence: OpenSpiel's conformance
tests of ``jabberwocky.adapters.openspiel`` (never installed under Pyodide) and the tests of
installed bots' entry points (the browser's engine lists none).

Hypothesis runs a moderate number of examples under Pyodide (``sys.platform ==
"emscripten"``) or when ``JABBERWOCKY_HYPOTHESIS_PROFILE`` names a profile:
``default``, ``pyodide`` or ``thorough``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

SRC = Path(__file__).resolve().parent.parent / "src"
if SRC.is_dir() and str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

EMSCRIPTEN = sys.platform == "emscripten"

settings.register_profile(
    "default", max_examples=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "pyodide", max_examples=15, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("JABBERWOCKY_HYPOTHESIS_PROFILE", "pyodide" if EMSCRIPTEN else "default")
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "needs_subprocess: starts a Python subprocess (not possible under Pyodide)",
    )


_IMPORTS_HOST_CODE = re.compile(r"^\s*(from\s+(tools|bench)[\s.]|import\s+(tools|bench)\b)",
                            re.MULTILINE)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under Pyodide, skip the build tools' and benches' test modules (see the module
    docstring)."""
    name = collection_path.name
    if EMSCRIPTEN and name.startswith("test_") and name.endswith(".py"):
        return bool(_IMPORTS_HOST_CODE.search(collection_path.read_text(encoding="utf-8"))) or None
    return None
