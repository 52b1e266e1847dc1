"""The engine's layers, checked from its imports: no import runs upward, none crosses to a
sibling of the same layer, none reaches the package's face, and there is no circle.

The contract (docs/architecture.md draws it): the folders of ``src/jabberwocky`` stand in
the tiers of :data:`LAYERS`, lowest first.  A module may import the standard library, its
own folder and the folders of lower tiers; not a folder of a higher tier, not another
folder of its own tier (``drivers``, ``webapi`` and ``adapters`` are three tops that know
nothing of each other).  The face, the package's ``__init__`` and the documented names
beside it (``jabberwocky.cards``, ``jabberwocky.simulate``, ... : re-exports), stands above
everything and is imported by nothing inside, but for the one constant
``jabberwocky.__version__``.  Every import counts: at the top, inside a function,
under ``TYPE_CHECKING``; a deferred import does not hide a circle.

The walk reads the source (:mod:`ast`), imports nothing, and also runs on a made-up package
below, to show that it fails where it must.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "jabberwocky"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),
    ("bots",),
    ("formats",),
    ("analysis",),
    ("drivers", "webapi", "adapters"),
)
"""The folders, tier by tier from the bottom: a tier may import the tiers below it."""
ALLOWED_FROM_FACE = frozenset({"__version__"})
"""What a layer may take from the package's face (a constant, set before anything loads)."""

Edge = tuple[str, str, str]
"""(importing module, imported module, the name taken or ``""``)."""


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` (``pkg``, ``pkg.sub``, ``pkg.sub.mod``)."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, known: Iterable[str]) -> list[Edge]:
    """The imports of module ``name`` (its file ``path``) that land in ``known`` modules."""
    known = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    edges: list[Edge] = []

    def land(target: str, names: Sequence[str]) -> None:
        for alias in names or [""]:
            sub = f"{target}.{alias}" if alias else target
            if alias and sub in known:
                edges.append((name, sub, ""))
            elif target in known:
                edges.append((name, target, alias))

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    edges.append((name, alias.name, ""))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            land(target, [a.name for a in node.names if a.name != "*"])
    return edges


def graph(root: Path, package: str) -> list[Edge]:
    """Every import edge between the modules of ``package``."""
    modules = module_names(root, package)
    return [e for name, path in modules.items() for e in imports_of(name, path, modules)]


def folder_of(module: str, package: str) -> str | None:
    """The layer folder of ``module`` (its first part below the package), or ``None`` for
    the face (the package itself and the modules directly in it that are no folder)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != package:
        return None
    return parts[1]


def problems(edges: Iterable[Edge], package: str,
             layers: Sequence[Sequence[str]] = LAYERS) -> list[str]:
    """What breaks the contract: imports upward, across a tier, into the face; circles."""
    tier = {folder: i for i, folders in enumerate(layers) for folder in folders}
    out = []
    edges = list(edges)
    for source, target, taken in edges:
        src, dst = folder_of(source, package), folder_of(target, package)
        if src not in tier:
            continue  # the face may import anything
        if dst not in tier:
            if target == package and taken in ALLOWED_FROM_FACE:
                continue
            out.append(f"{source} imports the package's face: {target} {taken}".rstrip())
        elif tier[dst] > tier[src]:
            out.append(f"{source} imports upward: {target} ({dst} is above {src})")
        elif tier[dst] == tier[src] and dst != src:
            out.append(f"{source} imports its sibling {target} ({src} and {dst} share a tier)")
    # The face's version is set before any layer loads: reading it closes no circle.
    out.extend(f"circle: {' -> '.join(c)}" for c in circles(
        e for e in edges if not (e[1] == package and e[2] in ALLOWED_FROM_FACE)))
    return out


def circles(edges: Iterable[Edge]) -> list[list[str]]:
    """The import circles, one per strongly connected group of modules (Tarjan)."""
    succ: dict[str, set[str]] = {}
    for source, target, _ in edges:
        if source != target:
            succ.setdefault(source, set()).add(target)
            succ.setdefault(target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return out


# -- the engine ---------------------------------------------------------------------------


def test_the_engine_keeps_its_layers() -> None:
    edges = graph(SRC, PACKAGE)
    assert len(edges) > 100, "the walk found the engine's imports"
    assert problems(edges, PACKAGE) == []


def test_every_folder_is_a_layer_and_says_what_it_may_import() -> None:
    folders = {p.name for p in (SRC / PACKAGE).iterdir()
               if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == {f for tier in LAYERS for f in tier}
    for folder in folders:
        doc = ast.get_docstring(ast.parse((SRC / PACKAGE / folder / "__init__.py").read_text()))
        assert doc and "May import" in doc, folder


def test_the_face_is_imported_by_nothing_inside() -> None:
    face = {m for m in module_names(SRC, PACKAGE) if folder_of(m, PACKAGE) is None
            or (SRC / PACKAGE / f"{m.split('.')[1]}.py").exists()}
    inside = [(s, t, n) for s, t, n in graph(SRC, PACKAGE)
              if s not in face and t in face and n not in ALLOWED_FROM_FACE]
    assert inside == []


# -- the check itself fails where it must -------------------------------------------------


def _edges(imports: Mapping[str, Sequence[str]]) -> list[Edge]:
    return [(s, t, "") for s, targets in imports.items() for t in targets]


def test_an_upward_import_is_caught() -> None:
    edges = _edges({"pkg.core.game": ["pkg.core.cards", "pkg.drivers.cli"]})
    assert problems(edges, "pkg") == [
        "pkg.core.game imports upward: pkg.drivers.cli (drivers is above core)"]


def test_a_sibling_a_face_and_a_circle_are_caught() -> None:
    edges = _edges({
        "pkg.webapi.session": ["pkg.drivers.cli", "pkg"],
        "pkg.core.a": ["pkg.core.b"],
        "pkg.core.b": ["pkg.core.c"],
        "pkg.core.c": ["pkg.core.a"],
    })
    assert problems(edges, "pkg") == [
        "pkg.webapi.session imports its sibling pkg.drivers.cli (webapi and drivers share "
        "a tier)",
        "pkg.webapi.session imports the package's face: pkg",
        "circle: pkg.core.a -> pkg.core.b -> pkg.core.c",
    ]
    assert problems([("pkg.drivers.cli", "pkg", "__version__")], "pkg") == []


def test_a_planted_upward_import_in_a_package_on_disk_is_caught(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "from .core.game import Game\n__version__ = '1'\n",
        "pkg/core/__init__.py": '"""May import: nothing."""\n',
        "pkg/core/cards.py": "X = 1\n",
        "pkg/core/game.py": ("from .cards import X\n\n"
                             "def later():\n    from ..bots import hard  # deferred\n"),
        "pkg/bots/__init__.py": "from ..core import cards\n",
        "pkg/bots/hard.py": "from .. import __version__\nfrom ..core.game import later\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    edges = graph(tmp_path, "pkg")
    assert ("pkg.core.game", "pkg.bots.hard", "") in edges
    assert ("pkg.bots", "pkg.core.cards", "") in edges
    assert problems(edges, "pkg") == [
        "pkg.core.game imports upward: pkg.bots.hard (bots is above core)",
        "circle: pkg.bots.hard -> pkg.core.game",
    ]
