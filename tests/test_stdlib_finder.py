"""tools/stdlib_finder.py: modules of a second archive load once it is fetched, on first use.

CPython stands in for Pyodide here: a "first" archive on sys.path holds a package, a
"later" archive (not on sys.path) holds its other submodules and a package of its own,
and the finder's fetch callback copies the later archive into place when asked.
"""

from __future__ import annotations

import importlib
import shutil
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import stdlib_finder  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform == "emscripten",
                                reason="builds archives on the host file system")

FIRST = {
    "jwsplit/__init__.py": "VALUE = 'first'\n",
    "jwsplit/early.py": "WHERE = 'first'\n",
}
LATER = {
    "jwsplit/late.py": "from . import early\nWHERE = 'later'\nSEEN = early.WHERE\n",
    "jwlater/__init__.py": "",
    "jwlater/sub/__init__.py": "",
    "jwlater/sub/leaf.py": "import json\nDATA = json.loads('[1, 2]')\n",
    "jwlater/notes.txt": "not a module\n",
}


def _zip(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return path


@pytest.fixture
def split(tmp_path: Path) -> Iterator[tuple[stdlib_finder.LaterStdlibFinder, list[str], Path]]:
    first = _zip(tmp_path / "first.zip", FIRST)
    stored = _zip(tmp_path / "stored-later.zip", LATER)
    target = tmp_path / "lib" / "later.zip"
    target.parent.mkdir()
    fetched: list[str] = []

    def fetch(path: str) -> None:
        fetched.append(path)
        shutil.copy(stored, path)

    names = stdlib_finder.module_names(LATER)
    saved_meta, saved_path = list(sys.meta_path), list(sys.path)
    sys.path.insert(0, str(first))
    finder = stdlib_finder.install(str(target), names, fetch)
    try:
        yield finder, fetched, target
    finally:
        sys.meta_path[:] = saved_meta
        sys.path[:] = saved_path
        for name in [n for n in sys.modules if n.split(".")[0] in ("jwsplit", "jwlater")]:
            del sys.modules[name]
        sys.path_importer_cache.clear()


def test_module_names_cover_packages_and_modules_only() -> None:
    assert stdlib_finder.module_names(LATER) == [
        "jwlater", "jwlater.sub", "jwlater.sub.leaf", "jwsplit.late"]
    assert stdlib_finder.module_names(["a/__init__.pyc", "a/b-c.py", "a/x.txt"]) == [
        "a", "a.b-c"]


def test_installed_before_the_path_finder_once(split: tuple) -> None:
    finder, _, target = split
    from importlib.machinery import PathFinder

    kinds = list(sys.meta_path)
    assert kinds.index(finder) == kinds.index(PathFinder) - 1
    again = stdlib_finder.install(str(target), [], lambda p: None)
    assert sum(isinstance(f, stdlib_finder.LaterStdlibFinder) for f in sys.meta_path) == 1
    assert again in sys.meta_path and finder not in sys.meta_path


def test_first_archive_needs_no_fetch(split: tuple) -> None:
    _, fetched, _ = split
    early = importlib.import_module("jwsplit.early")
    assert early.WHERE == "first" and fetched == []
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("jwsplit.nowhere")  # in neither archive: no fetch
    assert fetched == []


def test_later_modules_fetch_the_archive_once(split: tuple) -> None:
    _, fetched, target = split
    late = importlib.import_module("jwsplit.late")  # a package of the first archive
    assert (late.WHERE, late.SEEN) == ("later", "first")
    assert late.__file__ == str(target / "jwsplit" / "late.py")
    leaf = importlib.import_module("jwlater.sub.leaf")  # a package only in the later one
    assert leaf.DATA == [1, 2]
    assert fetched == [str(target)]


def test_archive_fetched_again_when_it_is_gone(split: tuple) -> None:
    """A restored memory snapshot has the finder but not the file."""
    _, fetched, target = split
    importlib.import_module("jwsplit.late")
    target.unlink()
    del sys.modules["jwsplit.late"]
    importlib.import_module("jwsplit.late")
    assert fetched == [str(target), str(target)]


def test_a_failed_fetch_names_the_module(split: tuple) -> None:
    finder, _, _ = split

    def offline(path: str) -> None:
        raise OSError("network is down")

    finder.fetch = offline
    with pytest.raises(stdlib_finder.StdlibNotFetched, match=r"'jwlater'.*network is down"):
        importlib.import_module("jwlater")
    assert issubclass(stdlib_finder.StdlibNotFetched, ImportError)


def test_a_fetch_that_writes_nothing_is_an_import_error(split: tuple) -> None:
    finder, _, _ = split
    finder.fetch = lambda path: None
    with pytest.raises(stdlib_finder.StdlibNotFetched, match="wrote no"):
        importlib.import_module("jwlater")


def test_outside_pyodide_the_host_fetch_explains_itself(tmp_path: Path) -> None:
    with pytest.raises(stdlib_finder.StdlibNotFetched, match="worker"):
        stdlib_finder.fetch_from_host(str(tmp_path / "x.zip"))
