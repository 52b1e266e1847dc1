"""Build the static site into ``_site/`` and serve it.

``build(site, micropip_wheel)`` assembles, deterministically (same inputs, same bytes):

- ``pyodide/``: the five runtime files of the pinned npm ``pyodide`` package, except
  that its standard library comes in two archives (made by ``tools/precompile_stdlib.mjs``
  under Node.js, cached in ``.cache/stdlib/``): ``python_stdlib.zip`` holds only the
  modules that start-up and the game import, as bytecode (Python loads them instead of
  compiling them from source, which was most of Pyodide's own start-up time), and the
  engine itself (its files and every module's bytecode: the engine worker imports it
  from there, with no wheel to unpack), its entries stored (``stored_zip``), and
  ``python_stdlib_later.zip`` everything
  else, fetched the first time a module in it is imported (``tools/stdlib_finder.py``);
  the two scripts start with a compile hint (``COMPILE_HINT``); the lock file lists
  no packages (``lock_without_packages``); and ``pyodide.asm.wasm.br`` and
  ``python_stdlib.zip.br`` are the module and the first archive brotli-compressed
  (``WASM_BR``, ``STDLIB_BR``), which a first visit downloads instead (2.74 MB and
  0.61 MB, against 3.55 MB gzipped and 0.88 MB deflated);
- ``vendor/brotli-dec-wasm/``: the brotli decoder that a first visit's engine worker
  decodes that with (from the pinned npm package);
- ``vendor/online/``: the online table's libraries (Trystero's two signalling strategies,
  the QR writer) bundled by ``tools/vendor.py``, loaded only when a player opens or joins
  an online table;
- ``wheels/``: the engine wheel, built here with :mod:`zipfile` (fixed timestamps,
  sorted entries, a proper ``dist-info``), and the micropip wheel: neither is loaded by
  the page (the engine comes in the first standard-library archive) nor precached; they
  are there for whoever installs the engine elsewhere (``micropip.install`` in Pyodide,
  ``pip`` in CPython);
- the front end from ``web/`` (build-only files left out), its scripts and stylesheet
  bundled and minified (``tools/bundle.py``: ``js/main.js``, its chunks and the modules
  it loads later, ``worker.js``, each with a source map) in place of the source modules,
  and ``index.html`` rewritten to load them;
- ``licenses/``: the licence of every component and ``licenses/index.json`` listing
  them (``tools/notices.py``);
- ``screenshots/``: the committed ``docs/screenshots/*.png`` (the manifest's
  screenshots for the richer install dialog);
- ``build.json``: ``{"build": content hash, "version": the package version, "bots":
  the bots version, "source": the repository URL, "licenses": "licenses/index.json",
  "pyodide": version, "wheel": path, "files": [...], "sizes": {...}, "sha256": {...}}``
  (what an About screen shows; ``sha256``: of the files a first visit decodes from
  brotli and checks);

then hands the site to ``tools.pwa.finalize_site`` when that module exists (it fills the
service worker's precache list, icons and manifest).  Unchanged files are not rewritten,
so a rebuild takes well under a second.

``serve(site, port)`` serves the site on localhost with the MIME types browsers need
(``.wasm`` as ``application/wasm`` for streaming compilation, ``.mjs`` as JavaScript),
and its text compressed as GitHub Pages sends it (brotli or gzip, made at the end of the
build by ``tools/precompress.py`` and kept in ``.cache/precompressed/``).
"""

from __future__ import annotations

import ast
import base64
import email.utils
import hashlib
import importlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Callable
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from tools import bundle as bundle_tools
from tools import notices, precompress, vendor

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
ENGINE_SRC = ROOT / "src" / "jabberwocky"
PRECOMPILE = ROOT / "tools" / "precompile_stdlib.mjs"
EXERCISE = ROOT / "tools" / "exercise_engine.py"
CACHE = ROOT / ".cache"
STDLIB_CACHE = CACHE / "stdlib"
FINDER = ROOT / "tools" / "stdlib_finder.py"
STDLIB_LATER = "python_stdlib_later.zip"
"""The second standard-library archive (site path pyodide/...), fetched on first use."""
WEB = ROOT / "web"
SCREENSHOTS = ROOT / "docs" / "screenshots"
"""PNGs made by ``python3 build.py screenshots`` (e2e/test_screenshots.py), committed."""
COMPILE_HINT = b"//# allFunctionsCalledOnLoad\n"
"""Prepended to Pyodide's two scripts: Chrome's explicit compile hint (Chrome 136+; other
browsers read a comment).  Chrome then compiles every function when the script loads and
keeps all of them in its code cache, instead of compiling on first call, on every visit,
the hundreds that start-up calls later (on a repeat visit that took ~40 ms off the
engine worker, whose thread is what a restore waits on)."""
HINTED_FILES = ("pyodide.mjs", "pyodide.asm.mjs")
WASM_BR = "pyodide.asm.wasm.br"
"""Pyodide's WebAssembly module, brotli-compressed (site path pyodide/...): a first visit
downloads it instead of the module (2.74 MB against 3.55 MB as GitHub Pages gzips the
module), decoded in the engine worker (web/worker/brotli.js); not precached."""
STDLIB_BR = "python_stdlib.zip.br"
"""The first standard-library archive brotli-compressed (site path pyodide/...), which a
first visit downloads instead: 0.61 MB against 0.88 MB.  The archive's entries are stored,
not deflated (``stored_zip``): brotli over the whole archive finds what deflate per entry
cannot, and GitHub Pages sends a ``.zip`` as it is.  Not precached."""
BROTLI = ROOT / "tools" / "brotli_compress.mjs"
BROTLI_CACHE = CACHE / "brotli"
DECODER_DIR = ROOT / "node_modules" / "brotli-dec-wasm" / "pkg"
DECODER_FILES = ("brotli_dec_wasm.js", "brotli_dec_wasm_bg.wasm")
DECODER_SITE = "vendor/brotli-dec-wasm"
"""Where the brotli decoder (the npm package brotli-dec-wasm: Rust's brotli-decompressor
as WebAssembly, 99 KB gzipped) sits in the site; not precached."""
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
BUILD_ONLY_SUFFIXES = (".md", ".py", ".pyc", ".map", ".ts")
"""Files in web/ with these endings are build inputs or notes, not part of the site."""

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".html": "text/html",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".ico": "image/x-icon",
    ".txt": "text/plain",
}

PLACEHOLDER_INDEX = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' \
'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; \
worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'">
<title>Jabberwocky</title>
<script type="module" src="js/engine.js"></script>
</head>
<body data-phase="loading">
<p>Jabberwocky: the table is not built yet (web/index.html is missing).</p>
</body>
</html>
"""
"""Written only while web/index.html does not exist, so the runtime can be tested alone."""


# -- small file helpers -------------------------------------------------------------


def _write_if_changed(path: Path, data: bytes) -> None:
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _copy_if_changed(src: Path, dst: Path) -> None:
    if dst.is_file():
        a, b = src.stat(), dst.stat()
        if a.st_size == b.st_size and a.st_mtime_ns == b.st_mtime_ns:
            return
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(partial(fh.read, 1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# -- the engine wheel ---------------------------------------------------------------


def _module_string(path: Path, name: str) -> str:
    """The string assigned to ``name`` at the top level of ``path``, read without
    importing it (the build never runs engine code in its own process)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == name
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            return node.value.value
    raise ValueError(f"{path} assigns no string to {name}")


def project_version() -> str:
    """The package version: ``jabberwocky.__version__``, the one place it is written
    (pyproject.toml reads it too, as its dynamic version)."""
    return _module_string(ENGINE_SRC / "__init__.py", "__version__")


def bots_version() -> str:
    """``jabberwocky.bots.BOTS_VERSION``: what records and links say the bots were."""
    return _module_string(ENGINE_SRC / "core" / "levels.py", "BOTS_VERSION")


def project_urls() -> dict[str, str]:
    """pyproject.toml's ``[project.urls]`` (Homepage: the live site; Source: the code)."""
    with (ROOT / "pyproject.toml").open("rb") as fh:
        urls: dict[str, str] = tomllib.load(fh)["project"]["urls"]
    return urls


def python_version() -> str:
    """The version of the Python inside the pinned Pyodide (its lockfile says)."""
    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())
    return str(lock["info"]["python"])


def _engine_files() -> list[tuple[str, bytes]]:
    """(archive name, bytes) of every engine module, py.typed, the English catalogue
    (``locale/``) and the bots' weights (``bots/models/``), sorted."""
    out = []
    for path in sorted(ENGINE_SRC.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        if (path.suffix == ".py" or path.name == "py.typed" or path.parent.name == "locale"
                or (path.parent.name == "models" and path.suffix == ".json")):
            name = "jabberwocky/" + path.relative_to(ENGINE_SRC).as_posix()
            out.append((name, path.read_bytes()))
    return out


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def engine_wheel(version: str) -> tuple[str, bytes]:
    """The file name and bytes of the engine wheel (pure Python, deterministic)."""
    with (ROOT / "pyproject.toml").open("rb") as fh:
        project: dict[str, Any] = tomllib.load(fh)["project"]
    dist_info = f"jabberwocky-{version}.dist-info"
    metadata = (
        "Metadata-Version: 2.1\n"
        "Name: jabberwocky\n"
        f"Version: {version}\n"
        f"Summary: {project.get('description', '')}\n"
        f"Requires-Python: {project.get('requires-python', '>=3.11')}\n"
        "License: MIT\n"
    ).encode()
    wheel_meta = (
        b"Wheel-Version: 1.0\n"
        b"Generator: jabberwocky tools/site.py\n"
        b"Root-Is-Purelib: true\n"
        b"Tag: py3-none-any\n"
    )
    entries = [*_engine_files(), (f"{dist_info}/METADATA", metadata),
               (f"{dist_info}/WHEEL", wheel_meta)]
    record_lines = [f"{name},{_record_hash(data)},{len(data)}" for name, data in entries]
    record_lines.append(f"{dist_info}/RECORD,,")
    entries.append((f"{dist_info}/RECORD", ("\n".join(record_lines) + "\n").encode()))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, data, compresslevel=9)
    return f"jabberwocky-{version}-py3-none-any.whl", buf.getvalue()


# -- the precompiled standard library ------------------------------------------------


def _node(what: str) -> str:
    """The path of Node.js, which the build runs to ``what``; stops the build without it."""
    node = shutil.which("node")
    if node is None:
        sys.exit(f"Node.js is needed to {what}: install Node.js 22 or 24, then run this again")
    return node


def _stdlib_key(wheel: bytes) -> str:
    return hashlib.sha256(PRECOMPILE.read_bytes() + EXERCISE.read_bytes() + FINDER.read_bytes()
                          + wheel).hexdigest()[:16]


def stdlib_zips(wheel: bytes) -> tuple[Path, Path]:
    """Pyodide's standard library split in two (see tools/precompile_stdlib.mjs): the
    modules the game (the engine of ``wheel``) imports, as bytecode, with the engine
    itself, and everything else; made once per Pyodide version (in the file names),
    scripts and wheel, and kept in ``.cache/stdlib/``.  The split only decides what comes
    first: a module of the second archive still loads, once that archive is fetched."""
    key = _stdlib_key(wheel)
    first = STDLIB_CACHE / f"python_stdlib-{pyodide_version()}-{key}.zip"
    later = STDLIB_CACHE / f"python_stdlib_later-{pyodide_version()}-{key}.zip"
    if first.is_file() and later.is_file():
        return first, later
    node = _node("precompile Pyodide's standard library")
    STDLIB_CACHE.mkdir(parents=True, exist_ok=True)
    for old in [*STDLIB_CACHE.glob("python_stdlib*.zip"), *STDLIB_CACHE.glob("engine_pyc*.zip")]:
        old.unlink()  # made for another wheel or Pyodide (engine_pyc: an earlier build's)
    wheel_path = first.with_suffix(f".{os.getpid()}.whl")
    made = (first.with_suffix(f".{os.getpid()}.tmp"), later.with_suffix(f".{os.getpid()}.tmp"))
    wheel_path.write_bytes(wheel)
    try:
        done = subprocess.run([node, str(PRECOMPILE), str(wheel_path), *map(str, made)],
                              cwd=ROOT, check=False)
    finally:
        wheel_path.unlink()
    if done.returncode != 0 or not all(path.is_file() for path in made):
        sys.exit(f"precompiling Pyodide's standard library failed (exit {done.returncode}); "
                 f"see the messages above")
    made[1].replace(later)
    made[0].replace(first)
    return first, later


def stored_zip(data: bytes) -> bytes:
    """The zip archive ``data`` with every entry stored (not deflated): the same names,
    times, attributes and order.  Stored entries under brotli make the first visit's
    standard library 0.61 MB instead of 0.88 MB deflated (see ``STDLIB_BR``), and Python
    reads a stored entry without inflating it."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as stored:
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            entry.compress_type = zipfile.ZIP_STORED
            entry.external_attr = info.external_attr
            entry.create_system = info.create_system
            stored.writestr(entry, source.read(info))
    return out.getvalue()


def brotli_of(path: Path) -> Path:
    """``path`` brotli-compressed (tools/brotli_compress.mjs: ~20 s for Pyodide's module, ~5 s
    for the first standard-library archive),
    kept in ``.cache/brotli/`` under the hash of the bytes and the script."""
    key = hashlib.sha256(path.read_bytes() + BROTLI.read_bytes()).hexdigest()[:16]
    out = BROTLI_CACHE / f"{path.name}-{key}.br"
    if out.is_file():
        return out
    node = _node(f"brotli-compress {path.name}")
    BROTLI_CACHE.mkdir(parents=True, exist_ok=True)
    for old in BROTLI_CACHE.glob(f"{path.name}-*.br"):
        old.unlink()  # made from other bytes
    made = out.with_suffix(f".{os.getpid()}.tmp")
    done = subprocess.run([node, str(BROTLI), str(path), str(made)], cwd=ROOT, check=False)
    if done.returncode != 0 or not made.is_file():
        sys.exit(f"compressing {path.name} failed (exit {done.returncode}); see the messages above")
    made.replace(out)
    return out


def lock_without_packages() -> bytes:
    """Pyodide's lock file with an empty package list (its ``info`` unchanged).

    loadPyodide fetches the lock before Python starts (119 KB, 27 KB gzipped, on every
    first visit's critical path), but the site ships none of the packages it lists: a
    package named there could only be fetched from the site and fail.  With an empty
    list, micropip treats every package as one outside the distribution and looks it up
    on its index (PyPI by default); micropip itself is loaded by URL, not by name.
    """
    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text(encoding="utf-8"))
    return (json.dumps({"info": lock["info"], "packages": {}}, separators=(",", ":"))
            + "\n").encode()


# -- the build ----------------------------------------------------------------------


def pyodide_version() -> str:
    """The version of the pinned npm pyodide package."""
    return str(json.loads((PYODIDE_DIR / "package.json").read_text())["version"])


def _web_files() -> list[Path]:
    if not WEB.is_dir():
        return []
    out = []
    for path in sorted(WEB.rglob("*")):
        rel = path.relative_to(WEB)
        if not path.is_file() or any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            continue
        if path.suffix in BUILD_ONLY_SUFFIXES:
            continue
        out.append(path)
    return out


def _compact_json(path: Path) -> bytes:
    """A catalogue without its indentation (the page reads it; people read the source)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def english_catalogue() -> bytes:
    """The page's English catalogue: ``web/i18n/en.json`` and the engine's own English
    words (``src/jabberwocky/locale/en.json``, also what the CLI prints), one file.

    The two must not share a key: each word has one source.
    """
    page = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    engine = json.loads((ENGINE_SRC / "locale" / "en.json").read_text(encoding="utf-8"))
    both = sorted(set(page) & set(engine))
    if both:
        sys.exit(f"web/i18n/en.json repeats the engine's keys {both[:5]}: keep each in one place")
    merged = {**engine, **page}
    return (json.dumps(merged, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _remove_stale(site: Path, keep: set[str]) -> None:
    for path in sorted(site.rglob("*"), reverse=True):
        rel = path.relative_to(site).as_posix()
        if path.is_file() and rel not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def micropip_wheel() -> Path:
    """The micropip wheel that build.py downloads (fetched now if missing), for callers
    that build a site outside build.py (e2e fixtures, benchmarks)."""
    spec = importlib.util.spec_from_file_location("jabberwocky_build_py", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    wheel: Path = module.ensure_micropip()
    return wheel


def build(site: Path, micropip_wheel: Path) -> None:
    """Assemble the static site into ``site`` (see the module docstring)."""
    for name in PYODIDE_FILES:
        if not (PYODIDE_DIR / name).is_file():
            sys.exit(f"{PYODIDE_DIR / name} is missing: run `npm ci` (python3 build.py does)")
    if not micropip_wheel.is_file():
        sys.exit(f"the micropip wheel {micropip_wheel} is missing: run python3 build.py build")
    site.mkdir(parents=True, exist_ok=True)
    written: set[str] = set()

    version, source_url = project_version(), project_urls()["Source"]
    wheel_name, wheel_bytes = engine_wheel(version)
    stdlib, stdlib_later = stdlib_zips(wheel_bytes)  # the first archive holds the engine
    for name in PYODIDE_FILES:
        if name in HINTED_FILES:
            _write_if_changed(site / "pyodide" / name,
                              COMPILE_HINT + (PYODIDE_DIR / name).read_bytes())
        elif name == "pyodide-lock.json":
            _write_if_changed(site / "pyodide" / name, lock_without_packages())
        else:
            if name == "python_stdlib.zip":
                _write_if_changed(site / "pyodide" / name, stored_zip(stdlib.read_bytes()))
            else:
                _copy_if_changed(PYODIDE_DIR / name, site / "pyodide" / name)
        written.add(f"pyodide/{name}")
    _copy_if_changed(stdlib_later, site / "pyodide" / STDLIB_LATER)
    written.add(f"pyodide/{STDLIB_LATER}")
    for plain, compressed in (("pyodide.asm.wasm", WASM_BR), ("python_stdlib.zip", STDLIB_BR)):
        _copy_if_changed(brotli_of(site / "pyodide" / plain), site / "pyodide" / compressed)
        written.add(f"pyodide/{compressed}")
    for name in DECODER_FILES:
        if not (DECODER_DIR / name).is_file():
            sys.exit(f"{DECODER_DIR / name} is missing: run `npm ci` (python3 build.py does)")
        _copy_if_changed(DECODER_DIR / name, site / DECODER_SITE / name)
        written.add(f"{DECODER_SITE}/{name}")
    for path in vendor.online_bundle()[: len(vendor.SHIPPED)]:
        _copy_if_changed(path, site / vendor.SITE_DIR / path.name)
        written.add(f"{vendor.SITE_DIR}/{path.name}")
    _write_if_changed(site / "wheels" / wheel_name, wheel_bytes)
    written.add(f"wheels/{wheel_name}")
    _copy_if_changed(micropip_wheel, site / "wheels" / micropip_wheel.name)
    written.add(f"wheels/{micropip_wheel.name}")
    made = bundle_tools.bundle() if (WEB / bundle_tools.ENTRY).is_file() else None
    for path in _web_files():
        rel = path.relative_to(WEB).as_posix()
        if made is not None and rel in made.inputs:
            continue  # bundled: the bundle's files are written below
        if rel == "index.html" and made is not None:
            _write_if_changed(site / rel, bundle_tools.rewrite_index(
                path.read_text(encoding="utf-8"), made).encode("utf-8"))
        elif rel == "i18n/en.json":
            _write_if_changed(site / rel, english_catalogue())
        elif rel.startswith("i18n/") and rel.endswith(".json"):
            _write_if_changed(site / rel, _compact_json(path))
        else:
            _copy_if_changed(path, site / rel)
        written.add(rel)
    for rel in made.files() if made is not None else ():
        _copy_if_changed(made.folder / rel, site / rel)
        written.add(rel)
    if "index.html" not in written:
        _write_if_changed(site / "index.html", PLACEHOLDER_INDEX.encode())
        written.add("index.html")
    for rel, data in _notice_files(micropip_wheel, version, source_url).items():
        _write_if_changed(site / rel, data)
        written.add(rel)
    for path in sorted(SCREENSHOTS.glob("*.png")):
        _copy_if_changed(path, site / "screenshots" / path.name)
        written.add(f"screenshots/{path.name}")
    for path in card_faces():
        _copy_if_changed(path, site / "cards" / "classic" / path.name)
        written.add(f"cards/classic/{path.name}")

    files = sorted(written)
    digests = {rel: _sha256(site / rel) for rel in files}
    content = hashlib.sha256()
    for rel in files:
        content.update(f"{rel}\0{digests[rel]}\n".encode())
    info = {
        "build": content.hexdigest()[:16],
        "version": version,
        "bots": bots_version(),
        "source": source_url,
        "licenses": notices.INDEX,
        "pyodide": pyodide_version(),
        "wheel": f"wheels/{wheel_name}",
        "files": sorted([*files, "build.json"]),
        "sizes": {rel: (site / rel).stat().st_size
                  for rel in files if rel.startswith(("pyodide/", "wheels/jabberwocky"))},
        # what a first visit's engine worker checks the decoded standard library against
        # (web/worker/brotli.js: brotli has no checksum)
        "sha256": {rel: digests[rel] for rel in ("pyodide/python_stdlib.zip",)},
    }
    _write_if_changed(site / "build.json", (json.dumps(info, indent=1) + "\n").encode())
    written.add("build.json")
    _remove_stale(site, written)
    _finalize(site)
    precompress.precompress(site)  # for the dev server: outside the site (.cache/)


CARD_FACES = ROOT / "tools" / "card_faces.mjs"
CARDS_PACKAGE = ROOT / "node_modules" / "@letele" / "playing-cards" / "package.json"


def card_faces() -> list[Path]:
    """The classic deck's court cards as SVG files (tools/card_faces.mjs), made once per
    package version and script, kept in ``.cache/cards/``."""
    version = json.loads(CARDS_PACKAGE.read_text())["version"]
    key = hashlib.sha256(CARD_FACES.read_bytes() + version.encode()).hexdigest()[:16]
    folder = CACHE / "cards" / key
    if not (folder / "KS.svg").is_file():
        node = _node("make the classic deck's card faces")
        made = folder.with_name(f"{key}.{os.getpid()}.tmp")
        done = subprocess.run([node, str(CARD_FACES), str(made)], cwd=ROOT, check=False)
        if done.returncode != 0:
            sys.exit("making the classic deck's card faces failed: see the messages above")
        if folder.exists():
            shutil.rmtree(made)
        else:
            made.replace(folder)
    return sorted(folder.glob("*.svg"))


def _notice_files(micropip_wheel: Path, version: str, source_url: str) -> dict[str, bytes]:
    """``licenses/`` (see tools/notices.py) for the package ``version`` (its repository
    at ``source_url``); a missing licence stops the build."""
    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text())
    try:
        entries = notices.components(
            micropip_wheel, jabberwocky=version, pyodide=pyodide_version(),
            python=python_version(), micropip=str(lock["packages"]["micropip"]["version"]),
            source_url=source_url)
    except (notices.NoticeError, zipfile.BadZipFile) as exc:
        sys.exit(f"the site's licence notices: {exc}")
    return notices.files(entries)


def _finalize(site: Path) -> None:
    """Let tools/pwa.py (service worker, icons, manifest) finish the site, when present."""
    if not (ROOT / "tools" / "pwa.py").exists():
        return
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    pwa = importlib.import_module("tools.pwa")
    finalize: Callable[[Path], None] = pwa.finalize_site
    finalize(site)


# -- serving ------------------------------------------------------------------------


def make_handler(site: Path, prefix: str = "/",
                 compress: bool = True) -> type[SimpleHTTPRequestHandler]:
    """A request handler serving ``site`` under the URL path ``prefix`` (e.g. "/app/"),
    its text precompressed unless ``compress`` is false."""
    root = str(site)
    compressed = precompress.Lookup()

    class Handler(SimpleHTTPRequestHandler):
        extensions_map: ClassVar[dict[str, str]] = {
            **SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=root, **kwargs)

        def translate_path(self, path: str) -> str:
            clean = path.split("?", 1)[0].split("#", 1)[0]
            return super().translate_path("/" + clean[len(prefix):])

        def _outside(self) -> bool:
            """Answer 404 (or redirect to the prefix) for paths outside ``prefix``."""
            path = self.path.split("?", 1)[0]
            if prefix == "/" or path.startswith(prefix):
                return False
            if path == prefix.rstrip("/"):
                self.send_response(301)
                self.send_header("Location", prefix)
                self.end_headers()
            else:
                self.send_error(404, "Not under " + prefix)
            return True

        def _compressed(self, body: bool) -> bool:
            """Send the file precompressed (tools/precompress.py) when it was made and the
            browser accepts it, as GitHub Pages sends text; False: send it as it is."""
            if not compress or self.headers.get("Range"):
                return False
            local = Path(self.translate_path(self.path))
            if local.is_dir() and self.path.split("?", 1)[0].endswith("/"):
                local = local / "index.html"
            if not local.is_file():
                return False
            try:
                rel = local.resolve().relative_to(Path(root).resolve()).as_posix()
            except ValueError:
                return False
            found = compressed.find(local, rel, self.headers.get("Accept-Encoding", ""))
            if found is None:
                return False
            made, encoding = found
            mtime = int(local.stat().st_mtime)
            since = self.headers.get("If-Modified-Since")
            if since and not self.headers.get("If-None-Match"):
                try:
                    if int(email.utils.parsedate_to_datetime(since).timestamp()) >= mtime:
                        self.send_response(304)
                        self.send_header("Vary", "Accept-Encoding")
                        self.end_headers()
                        return True
                except (TypeError, ValueError, IndexError, OverflowError):
                    pass
            data = made.read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(local)))
            self.send_header("Content-Encoding", encoding)
            self.send_header("Vary", "Accept-Encoding")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Last-Modified", self.date_time_string(mtime))
            self.end_headers()
            if body:
                self.wfile.write(data)
            return True

        def do_GET(self) -> None:
            if not self._outside() and not self._compressed(body=True):
                super().do_GET()

        def do_HEAD(self) -> None:
            if not self._outside() and not self._compressed(body=False):
                super().do_HEAD()

        def end_headers(self) -> None:
            self.send_header("Cache-Control", "no-cache")
            super().end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            if os.environ.get("JABBERWOCKY_SERVER_LOG"):
                super().log_message(format, *args)

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return  # the browser closed a tab mid-download: nothing is wrong here
        super().handle_error(request, client_address)


def make_server(site: Path, port: int, host: str = "127.0.0.1", prefix: str = "/",
                compress: bool = True) -> ThreadingHTTPServer:
    """A server (not yet running) for ``site`` under ``prefix`` (``compress``: see
    make_handler)."""
    return _Server((host, port), make_handler(site, prefix, compress))


def serve(site: Path, port: int) -> None:
    """Serve ``site`` at http://localhost:PORT/ until interrupted."""
    server = make_server(site, port, host="localhost")
    print(f"Serving Jabberwocky at http://localhost:{server.server_address[1]}/ "
          "(Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped", flush=True)
    finally:
        server.server_close()
