"""The standard library in two archives: what the game imports comes first, the rest later.

The site's ``pyodide/python_stdlib.zip`` holds only the modules that Pyodide's start-up
and the game import (as bytecode; tools/precompile_stdlib.mjs); every other file of
Pyodide's standard library is in ``pyodide/python_stdlib_later.zip``, which no first
table waits for.  This module, shipped in the first archive as ``_jabberwocky_stdlib``
with ``NAMES`` filled in by the build, puts a finder in ``sys.meta_path`` (before the path
finder, so the standard library still comes before site-packages, as in CPython) that
answers for exactly the modules of the second archive: the first time one is imported,
the archive is fetched (``fetch(path)`` writes it to ``path``; in the browser a
synchronous request made by the worker, see web/worker/stdlib.js) and the module is
loaded from it, so any later import (micropip installing a package, a traceback, a new
engine import) still works.  The archive's presence is checked on each such import, not
remembered: a memory snapshot keeps this module's state but not the file, which a
restored worker fetches again when it is first needed.

Runs in Pyodide; tests/test_stdlib_finder.py tests it in CPython with small archives.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType

NAMES: frozenset[str] = frozenset()
"""Every module and package of the second archive (filled in by the build)."""
ARCHIVE = "/lib/python_stdlib_later.zip"
HOOK = "jabberwockyFetchStdlib"
"""The JavaScript function (a global of the worker) that writes the archive to a path."""


class StdlibNotFetched(ImportError):
    """The second archive could not be fetched (offline before it was ever stored)."""


def fetch_from_host(path: str) -> None:
    """Ask the page's worker to write the second archive to ``path`` (Pyodide only)."""
    try:
        import js  # type: ignore[import-not-found]  # Pyodide: the worker's globals
    except ImportError as exc:
        raise StdlibNotFetched("the rest of the standard library is fetched by the "
                               "game's worker; this Python has no worker") from exc
    hook = getattr(js, HOOK, None)
    if hook is None:
        raise StdlibNotFetched(f"the worker defines no {HOOK}(): it cannot fetch the "
                               "rest of the standard library")
    hook(path)


class LaterStdlibFinder:
    """Finds the modules of the second archive, fetching it the first time."""

    def __init__(self, archive: str, names: Iterable[str],
                 fetch: Callable[[str], None]) -> None:
        self.archive = archive
        self.names = frozenset(names)
        self.fetch = fetch

    def find_spec(self, fullname: str, path: object = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in self.names:
            return None
        self._ensure(fullname)
        parent = fullname.rpartition(".")[0]
        where = "/".join([self.archive, *parent.split(".")]) if parent else self.archive
        return PathFinder.find_spec(fullname, [where], target)

    def _ensure(self, fullname: str) -> None:
        if os.path.exists(self.archive):
            return
        try:
            self.fetch(self.archive)
        except StdlibNotFetched:
            raise
        except Exception as exc:  # the worker's request failed: say which module it was for
            raise StdlibNotFetched(f"the standard library module {fullname!r} is in the part "
                                   f"of Python fetched on first use, and fetching it failed "
                                   f"({exc}); reload the page when online") from exc
        if not os.path.exists(self.archive):
            raise StdlibNotFetched(f"fetching the rest of the standard library for "
                                   f"{fullname!r} wrote no {self.archive}")

    def invalidate_caches(self) -> None:
        """Nothing cached here (the path finder keeps the archive's importers)."""


def install(archive: str = ARCHIVE, names: Iterable[str] | None = None,
            fetch: Callable[[str], None] = fetch_from_host) -> LaterStdlibFinder:
    """Put the finder into ``sys.meta_path`` just before the path finder (once: a finder
    installed earlier is replaced)."""
    finder = LaterStdlibFinder(archive, NAMES if names is None else names, fetch)
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, LaterStdlibFinder)
                        and type(f).__name__ != "LaterStdlibFinder"]
    at = next((i for i, f in enumerate(sys.meta_path) if f is PathFinder),
              len(sys.meta_path))
    sys.meta_path.insert(at, finder)
    return finder


def module_names(entries: Iterable[str]) -> list[str]:
    """The dotted module names (packages included) of an archive's entry names."""
    out = set()
    for entry in entries:
        if not entry.endswith((".py", ".pyc")):
            continue
        parts = entry.rsplit(".", 1)[0].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts and all(parts) and not any("." in p for p in parts):
            out.add(".".join(parts))  # not always identifiers: importlib imports any name
    return sorted(out)
