"""The examples in the engine's docstrings run and give what they show.

Run here, from the test suite, rather than by ``--doctest-modules``: the test command
names ``tests/`` explicitly, and this way they run under Pyodide too.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import jabberwocky


def engine_modules() -> list[str]:
    """Every module of the engine but ``__main__`` (importing it would run the CLI)."""
    names = ["jabberwocky"]
    for info in pkgutil.walk_packages(jabberwocky.__path__, "jabberwocky."):
        if info.name.rpartition(".")[2] != "__main__":
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", engine_modules())
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), verbose=False, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"


def test_there_are_examples_to_run() -> None:
    finder = doctest.DocTestFinder()
    examples = sum(len(t.examples) for name in engine_modules()
                   for t in finder.find(importlib.import_module(name)))
    assert examples >= 10
