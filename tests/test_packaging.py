"""The package: one version, the metadata, the lock, and what the sdist and wheel hold."""

from __future__ import annotations

import email.parser
import json
import re
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import site as site_tools  # noqa: E402

import jabberwocky  # noqa: E402

with (ROOT / "pyproject.toml").open("rb") as _fh:
    PYPROJECT = tomllib.load(_fh)
PROJECT = PYPROJECT["project"]
IMPORTS_TOOLS = re.compile(r"^\s*(from\s+tools[\s.]|import\s+tools\b)", re.MULTILINE)


def test_the_version_is_written_once() -> None:
    assert "version" not in PROJECT and PROJECT["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "jabberwocky.__version__"}
    assert site_tools.project_version() == jabberwocky.__version__
    package = json.loads((ROOT / "package.json").read_text())
    assert package["version"] == jabberwocky.__version__, "package.json follows __init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", jabberwocky.__version__)
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{jabberwocky.__version__}]" in changelog


def test_metadata() -> None:
    assert PROJECT["name"] == "jabberwocky-cards"  # `jabberwocky` on PyPI is another project
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    classifiers = set(PROJECT["classifiers"])
    for minor in range(11, 15):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert "Operating System :: OS Independent" in classifiers
    assert PROJECT["requires-python"] == ">=3.11"
    assert PROJECT["keywords"]
    urls = PROJECT["urls"]
    assert set(urls) >= {"Homepage", "Source", "Issues", "Changelog"}
    readme = (ROOT / "README.md").read_text()
    for name in ("Homepage", "Source"):  # the README uses the same placeholders
        assert urls[name] in readme, name


def _requirement_names(specs: list[str]) -> dict[str, str]:
    out = {}
    for spec in specs:
        name, floor = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", spec.split(";")[0].strip()
                                   ).groups()  # type: ignore[union-attr]
        out[re.sub(r"[-_.]+", "-", name).lower()] = floor
    return out


def _lock() -> dict[str, tuple[str, int]]:
    """name -> (pinned version, number of hashes) from requirements/dev.txt."""
    text = (ROOT / "requirements" / "dev.txt").read_text()
    out = {}
    for block in re.split(r"\n(?=\S)", text):
        found = re.match(r"([A-Za-z0-9_.-]+)==([^\s;\\]+)", block)
        if found:
            name = re.sub(r"[-_.]+", "-", found.group(1)).lower()
            out[name] = (found.group(2), block.count("--hash=sha256:"))
    return out


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:4])


def test_the_lock_pins_every_tool_with_hashes() -> None:
    lock = _lock()
    assert len(lock) > 20
    assert all(count >= 1 for _, count in lock.values()), "every pin has its hashes"
    wanted = _requirement_names(PROJECT["optional-dependencies"]["dev"]
                                + PROJECT["optional-dependencies"]["e2e"])
    for name, floor in wanted.items():
        assert name in lock, f"{name} is not in requirements/dev.txt: python3 build.py lock"
        assert _version_tuple(lock[name][0]) >= _version_tuple(floor), name
    assert "open-spiel" not in lock, "the bench extra stays optional and unlocked"
    header = (ROOT / "requirements" / "dev.txt").read_text().splitlines()[1]
    build_py = (ROOT / "build.py").read_text()
    for arg in ("--universal", "--generate-hashes", "--extra", "e2e"):
        assert arg in header and f'"{arg}"' in build_py, arg


def test_micropip_and_pyodide_are_pinned() -> None:
    package = json.loads((ROOT / "package.json").read_text())
    assert re.fullmatch(r"\d+\.\d+\.\d+", package["dependencies"]["pyodide"]), "exactly"
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/pyodide"]["version"] == \
        package["dependencies"]["pyodide"]
    found = re.search(r'MICROPIP = \("([^"]+)", "([0-9a-f]{64})"\)',
                      (ROOT / "build.py").read_text())
    assert found, "build.py pins micropip's version and SHA-256"


def _build(kind: str, out: Path) -> Path:
    """``pyproject-build --KIND --no-isolation`` (setuptools comes from the lock).

    Not ``python -m build`` from the root: that runs our build.py."""
    subprocess.run([str(Path(sys.executable).parent / "pyproject-build"), f"--{kind}",
                    "--no-isolation", "--outdir", str(out), str(ROOT)], check=True,
                   capture_output=True, timeout=300, cwd=out)
    (made,) = out.glob("*.tar.gz" if kind == "sdist" else "*.whl")
    return made


@pytest.mark.needs_subprocess
def test_the_sdist_holds_the_engine_and_its_tests(tmp_path: Path) -> None:
    sdist = _build("sdist", tmp_path)
    assert sdist.name == f"jabberwocky_cards-{jabberwocky.__version__}.tar.gz"
    with tarfile.open(sdist) as tar:
        prefix = sdist.name.removesuffix(".tar.gz") + "/"
        names = {m.name.removeprefix(prefix) for m in tar.getmembers() if m.isfile()}
    for needed in ("LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml",
                   "src/jabberwocky/__init__.py", "src/jabberwocky/py.typed",
                   "src/jabberwocky/locale/en.json", "tests/conftest.py", "tests/positions.py"):
        assert needed in names, needed
    golden = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests/golden").rglob("*")
              if p.is_file()}
    assert golden and golden <= names
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        # in: every engine test; out: the build's tests (they need tools/, not shipped)
        shipped = f"tests/{path.name}" in names
        assert shipped != bool(IMPORTS_TOOLS.search(path.read_text())), path.name
    assert not any(n.startswith(("tools/", "web/", "e2e/", "tests/pyodide/")) for n in names)


@pytest.mark.needs_subprocess
def test_the_wheel_and_its_metadata(tmp_path: Path) -> None:
    wheel = _build("wheel", tmp_path)
    assert wheel.name == f"jabberwocky_cards-{jabberwocky.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        dist = f"jabberwocky_cards-{jabberwocky.__version__}.dist-info"
        meta = email.parser.Parser().parsestr(zf.read(f"{dist}/METADATA").decode())
        entry_points = zf.read(f"{dist}/entry_points.txt").decode()
    assert {"jabberwocky/__init__.py", "jabberwocky/py.typed", "jabberwocky/locale/en.json",
            "jabberwocky/bots/models/learned-1.json", f"{dist}/licenses/LICENSE"} <= names
    assert not any(n.startswith("tests/") for n in names)
    assert meta["Name"] == "jabberwocky-cards"
    assert meta["Version"] == jabberwocky.__version__
    assert meta["License-Expression"] == "MIT"
    assert meta["Requires-Python"] == ">=3.11"
    assert "Programming Language :: Python :: 3.14" in (meta.get_all("Classifier") or [])
    assert f"Source, {PROJECT['urls']['Source']}" in (meta.get_all("Project-URL") or [])
    assert "jabberwocky = jabberwocky.drivers.cli:main" in entry_points
