"""tools/site.py: a deterministic site build, a valid engine wheel, the dev server."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import threading
import tomllib
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import notices, pwa  # noqa: E402
from tools import site as site_tools  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (ROOT / "node_modules/pyodide/pyodide.mjs").exists() or sys.platform == "emscripten",
    reason="needs node_modules/pyodide (npm ci) and a real file system")


def _digests(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def micropip() -> Path:
    """The real micropip wheel (downloaded and hash-checked by build.py when missing):
    the site takes the licences of micropip and of what it vendors from it."""
    return site_tools.micropip_wheel()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, micropip: Path) -> Path:
    site = tmp_path_factory.mktemp("site")
    site_tools.build(site, micropip)
    return site


def test_same_inputs_give_the_same_bytes(built: Path, micropip: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    site_tools.build(again, micropip)
    assert _digests(again) == _digests(built)
    site_tools.build(again, micropip)  # a rebuild in place changes nothing either
    assert _digests(again) == _digests(built)


def test_layout_and_build_json(built: Path, micropip: Path) -> None:
    info = json.loads((built / "build.json").read_text())
    assert info["pyodide"] == site_tools.pyodide_version()
    assert info["wheel"] == f"wheels/jabberwocky-{site_tools.project_version()}-py3-none-any.whl"
    assert len(info["build"]) >= 12
    for name in site_tools.PYODIDE_FILES:
        stock = (site_tools.PYODIDE_DIR / name).read_bytes()
        if name in site_tools.HINTED_FILES:  # the compile hint, then the file unchanged
            hinted = b"//# allFunctionsCalledOnLoad\n" + stock
            assert (built / "pyodide" / name).read_bytes() == hinted
        elif name == "pyodide-lock.json":  # no packages: the site ships none of them
            lock = json.loads((built / "pyodide" / name).read_text())
            assert lock == {"info": json.loads(stock)["info"], "packages": {}}
        elif name != "python_stdlib.zip":  # split and precompiled: see the next test
            assert (built / "pyodide" / name).read_bytes() == stock
    assert (built / "wheels" / micropip.name).read_bytes() == micropip.read_bytes()
    files = set(info["files"])
    on_disk = {p for p in _digests(built) if p != "sw.js"}
    assert {"index.html", "worker.js", "js/main.js", "js/early.js", "css/style.css"} <= files
    # the wheels are on the site, to be installed elsewhere, but not precached: the page
    # imports the engine from the first standard-library archive
    assert (built / info["wheel"]).is_file() and info["wheel"] not in files
    assert files <= set(_digests(built))
    assert on_disk - files == {p for p in on_disk if not pwa.is_precached(p)}, \
        "every file is listed but the service worker, the screenshots and licence texts"
    assert not any(p.endswith((".md", ".py", ".ts")) for p in _digests(built))
    maps = {p for p in _digests(built) if p.endswith(".map")}
    assert maps == {f"{p}.map" for p in _digests(built) if f"{p}.map" in maps}, \
        "a source map only beside the file it maps"
    assert info["sizes"][info["wheel"]] == (built / info["wheel"]).stat().st_size


FROZEN = {"_collections_abc.py", "_sitebuiltins.py", "abc.py", "codecs.py", "genericpath.py",
          "importlib/_bootstrap.py", "importlib/_bootstrap_external.py",
          "importlib/machinery.py", "importlib/util.py", "io.py", "ntpath.py", "os.py",
          "posixpath.py", "site.py", "stat.py", "zipimport.py", "runpy.py", "__hello__.py"}
"""Modules CPython 3.14 freezes into the interpreter (Python/frozen.c): never read from an
archive."""


def test_stdlib_split_in_two_archives(built: Path) -> None:
    """The first archive holds unchecked-hash .pyc for what the game imports (Python's
    start-up among it), the finder and the engine; the second every other file of the
    standard library, byte for byte as Pyodide has it, frozen modules among them (Python
    never reads those)."""
    with zipfile.ZipFile(site_tools.PYODIDE_DIR / "python_stdlib.zip") as stock, \
            zipfile.ZipFile(built / "pyodide" / "python_stdlib.zip") as first, \
            zipfile.ZipFile(built / "pyodide" / site_tools.STDLIB_LATER) as later:
        original = {i.filename: stock.read(i) for i in stock.infolist() if not i.is_dir()}
        # the engine is in the first archive too (test_the_first_archive_holds_the_engine)
        compiled = {i.filename: first.read(i) for i in first.infolist()
                    if not i.is_dir() and not i.filename.startswith("jabberwocky/")}
        rest = {i.filename: later.read(i) for i in later.infolist() if not i.is_dir()}
    assert "_jabberwocky_stdlib.pyc" in compiled, "the finder of the second archive"
    sources = {name[:-1] for name in compiled if name != "_jabberwocky_stdlib.pyc"}
    assert all(name.endswith(".pyc") for name in compiled)
    assert {"typing.py", "dataclasses.py", "enum.py", "json/__init__.py", "hashlib.py",
            "asyncio/__init__.py", "traceback.py", "encodings/__init__.py"} <= sources
    assert 100 <= len(sources) <= len(original) // 3
    assert "email/__init__.py" in rest, "a module the game does not import comes later"
    for name, data in compiled.items():
        # magic number (ends in \r\n), flags 0b01: hash-based and never checked
        assert data[2:4] == b"\r\n" and int.from_bytes(data[4:8], "little") == 1, name
    assert len({data[:4] for data in compiled.values()}) == 1, "all compiled by the one Python"
    assert not sources & set(rest), "each module in one archive only"
    for name, data in rest.items():
        assert data == original[name], name
    assert set(original) == sources | set(rest), "every file is in one of the two"
    assert {"os.py", "io.py", "codecs.py", "site.py"} <= set(rest) and not FROZEN & sources, \
        "frozen modules, never read from an archive, are not in the first one"
    info = json.loads((built / "build.json").read_text())
    assert info["sizes"][f"pyodide/{site_tools.STDLIB_LATER}"] == len(
        (built / "pyodide" / site_tools.STDLIB_LATER).read_bytes())
    assert f"pyodide/{site_tools.STDLIB_LATER}" in info["files"], "precached for offline use"


def test_first_visit_module_is_the_module_brotli_compressed(built: Path) -> None:
    """pyodide.asm.wasm.br decodes (with Node's zlib, an independent decoder) to the site's
    module byte for byte; it and its decoder are served but not precached."""
    node = shutil.which("node")
    assert node, "Node.js runs the build: it is here"
    module = built / "pyodide" / "pyodide.asm.wasm"
    compressed = built / "pyodide" / site_tools.WASM_BR
    decoded = subprocess.run(
        [node, "-e", "process.stdout.write(require('zlib').brotliDecompressSync("
                     "require('fs').readFileSync(process.argv[1])))", str(compressed)],
        check=True, capture_output=True).stdout
    assert decoded == module.read_bytes()
    assert len(compressed.read_bytes()) < 0.8 * len(gzip.compress(module.read_bytes(), 6))
    for name in site_tools.DECODER_FILES:
        shipped = built / site_tools.DECODER_SITE / name
        assert shipped.read_bytes() == (site_tools.DECODER_DIR / name).read_bytes()
        assert not pwa.is_precached(f"{site_tools.DECODER_SITE}/{name}")
    assert not pwa.is_precached(f"pyodide/{site_tools.WASM_BR}")
    assert not pwa.is_precached("worker/brotli.js")
    assert pwa.is_precached("pyodide/pyodide.asm.wasm"), "the decoded module is what is precached"


def test_first_visit_stdlib_is_the_archive_stored_and_brotli_compressed(built: Path) -> None:
    """python_stdlib.zip holds the precompiled archive's entries, each stored (brotli over
    the whole archive compresses them better than deflate per entry); the .br decodes
    (Node's zlib) to it byte for byte, is under 75% of the deflated archive, is not
    precached, and build.json gives the archive's SHA-256 for the worker's check."""
    node = shutil.which("node")
    assert node, "Node.js runs the build: it is here"
    archive = built / "pyodide" / "python_stdlib.zip"
    compressed = built / "pyodide" / site_tools.STDLIB_BR
    first, _ = site_tools.stdlib_zips(site_tools.engine_wheel(site_tools.project_version())[1])
    with zipfile.ZipFile(archive) as stored, zipfile.ZipFile(first) as deflated:
        assert [i.filename for i in stored.infolist()] == [i.filename for i in deflated.infolist()]
        assert all(i.compress_type == zipfile.ZIP_STORED for i in stored.infolist())
        for info in deflated.infolist():
            assert stored.read(info.filename) == deflated.read(info), info.filename
    decoded = subprocess.run(
        [node, "-e", "process.stdout.write(require('zlib').brotliDecompressSync("
                     "require('fs').readFileSync(process.argv[1])))", str(compressed)],
        check=True, capture_output=True).stdout
    assert decoded == archive.read_bytes()
    assert len(compressed.read_bytes()) < 0.75 * first.stat().st_size
    assert not pwa.is_precached(f"pyodide/{site_tools.STDLIB_BR}")
    assert pwa.is_precached("pyodide/python_stdlib.zip"), "the decoded archive is what is precached"
    info = json.loads((built / "build.json").read_text())
    assert info["sha256"] == {"pyodide/python_stdlib.zip": hashlib.sha256(decoded).hexdigest()}


def test_the_first_archive_holds_the_engine(built: Path) -> None:
    """The engine worker imports the engine from the first standard-library archive: the
    wheel's package files, and the bytecode of each module the page imports beside its
    source (the legacy layout zipimport reads), as Pyodide's Python wrote it for the
    standard library (the same magic), hash-based and unchecked."""
    info = json.loads((built / "build.json").read_text())
    with zipfile.ZipFile(built / info["wheel"]) as wheel:
        packaged = {n: wheel.read(n) for n in wheel.namelist() if n.startswith("jabberwocky/")}
    with zipfile.ZipFile(built / "pyodide" / "python_stdlib.zip") as stdlib:
        names = stdlib.namelist()
        engine = {n for n in names if n.startswith("jabberwocky/") and not n.endswith("/")}
        magic = stdlib.read("typing.pyc")[:4]
        for name, data in packaged.items():
            assert stdlib.read(name) == data, name  # the same files as the wheel's
        compiled = {n: stdlib.read(n) for n in engine if n.endswith(".pyc")}
        assert engine == set(packaged) | set(compiled)
        assert all(i.compress_type == zipfile.ZIP_STORED for i in stdlib.infolist())
    sources = {n for n in packaged if n.endswith(".py")}
    assert 40 <= len(compiled) < len(sources)
    for name, data in compiled.items():
        assert name[:-1] in sources, name  # beside its source: jabberwocky/…/x.pyc
        assert data[:4] == magic and int.from_bytes(data[4:8], "little") == 1, name
    assert {"jabberwocky/webapi/api.pyc", "jabberwocky/core/game.pyc",
            "jabberwocky/bots/hard.pyc", "jabberwocky/analysis/review.pyc"} <= set(compiled)
    assert "jabberwocky/drivers/cli.pyc" not in compiled  # the page never imports it
    assert "jabberwocky/bots/models/learned-1.json" in engine  # the learned bots' weights
    assert "jabberwocky/locale/en.json" in engine  # the engine's English messages


def test_engine_wheel_is_a_valid_pure_python_wheel(built: Path) -> None:
    info = json.loads((built / "build.json").read_text())
    with zipfile.ZipFile(built / info["wheel"]) as zf:
        names = zf.namelist()
        dist = f"jabberwocky-{site_tools.project_version()}.dist-info"
        package = [n for n in names if n.startswith("jabberwocky/")]
        assert package == sorted(package)  # sorted, then the dist-info, RECORD last
        assert names == [*package, f"{dist}/METADATA", f"{dist}/WHEEL", f"{dist}/RECORD"]
        assert f"{dist}/METADATA" in names and f"{dist}/WHEEL" in names
        assert "Tag: py3-none-any" in zf.read(f"{dist}/WHEEL").decode()
        assert "Root-Is-Purelib: true" in zf.read(f"{dist}/WHEEL").decode()
        metadata = zf.read(f"{dist}/METADATA").decode()
        assert "Name: jabberwocky" in metadata
        assert f"Version: {site_tools.project_version()}" in metadata
        for zi in zf.infolist():
            assert zi.date_time == (1980, 1, 1, 0, 0, 0)
        packaged = {n for n in names if n.startswith("jabberwocky/") and "/__pycache__/" not in n}
        source = {"jabberwocky/" + p.relative_to(site_tools.ENGINE_SRC).as_posix()
                  for p in site_tools.ENGINE_SRC.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts
                  and (p.suffix == ".py" or p.name == "py.typed" or p.parent.name == "locale"
                       or (p.parent.name == "models" and p.suffix == ".json"))}
        assert packaged == source
        assert "jabberwocky/bots/models/learned-1.json" in packaged  # the learned bot's weights
        assert not [n for n in names if "/__pycache__/" in n]  # sources only
        record = zf.read(f"{dist}/RECORD").decode().splitlines()
        listed = {}
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            listed[name] = (digest, size)
        assert set(listed) == set(names)
        for name in names:
            if name.endswith("RECORD"):
                assert listed[name] == ("", "")
                continue
            data = zf.read(name)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert listed[name] == (f"sha256={want}", str(len(data)))


@pytest.fixture
def server(built: Path) -> Iterator[str]:
    srv = site_tools.make_server(built, 0, prefix="/sub/")
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url) as r:
            return r.status, r.headers["Content-Type"]
    except urllib.error.HTTPError as exc:
        return exc.code, ""


def test_server_mime_types_and_sub_path(server: str) -> None:
    assert _get(server + "/sub/pyodide/pyodide.asm.wasm") == (200, "application/wasm")
    assert _get(server + "/sub/pyodide/pyodide.mjs") == (200, "text/javascript")
    assert _get(server + "/sub/worker.js") == (200, "text/javascript")
    assert _get(server + "/sub/build.json") == (200, "application/json")
    assert _get(server + "/sub/")[0] == 200
    assert _get(server + "/sub")[0] == 200  # redirected to /sub/
    assert _get(server + "/worker.js")[0] == 404
    assert _get(server + "/sub/../build.py")[0] == 404


def test_build_json_says_what_an_about_screen_shows(built: Path) -> None:
    info = json.loads((built / "build.json").read_text())
    init = (site_tools.ENGINE_SRC / "__init__.py").read_text()
    assert f'__version__ = "{info["version"]}"' in init
    bots = (site_tools.ENGINE_SRC / "core" / "levels.py").read_text()
    assert f'BOTS_VERSION = "{info["bots"]}"' in bots
    assert info["bots"].startswith("jabberwocky-bots/")
    with (ROOT / "pyproject.toml").open("rb") as fh:
        assert info["source"] == tomllib.load(fh)["project"]["urls"]["Source"]
    assert info["source"].startswith("https://")
    assert info["licenses"] == "licenses/index.json"
    assert "licenses/index.json" in info["files"], "the list is there offline too"


def test_the_online_bundle_is_in_the_site_and_not_precached(built: Path) -> None:
    """tools/vendor.py's bundle (Trystero's two strategies, the QR writer; its source map
    kept in the cache): in the site, but not in build.json's precached files nor the
    service worker's list: only a player who plays online fetches it."""
    info = json.loads((built / "build.json").read_text())
    assert "vendor/online/online.js" not in info["files"]
    bundle = (built / "vendor/online/online.js").read_text(encoding="utf-8")
    assert "sourceMappingURL" not in bundle  # the map stays in .cache/vendor/
    for name in ("joinTorrent", "joinNostr", "renderSVG"):
        assert name in bundle, name
    assert "vendor/online/online.js" not in (built / "sw.js").read_text(encoding="utf-8")


def test_licences_of_everything_the_site_ships(built: Path, micropip: Path) -> None:
    index = json.loads((built / "licenses/index.json").read_text())
    assert index["format"] == "jabberwocky-licenses/1"
    rows = {row["component"].split(" ")[0]: row for row in index["components"]}
    assert set(rows) == {"Jabberwocky", "Pyodide", "CPython", "micropip", "packaging",
                         "mousebender", "Classic", "brotli-dec-wasm", "Trystero", "uqr"}
    assert rows["Classic"]["license"] == "CC0-1.0"  # the classic deck's court cards
    catalogues = {lang: json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
                  for lang in ("en", "de", "cs", "ko")}
    for row in index["components"]:
        assert set(row) == {"component", "version", "license", "file", "url", "part_of", "name",
                            "role"}
        # what it does, in the player's language: a catalogue entry in every language
        if row["role"] is not None:
            assert row["name"], row
            for lang, catalogue in catalogues.items():
                assert f"about.role_{row['role']}" in catalogue, (lang, row["role"])
        text = (built / row["file"]).read_text(encoding="utf-8")
        assert len(text) > 500, row["file"]
        assert row["url"].startswith("https://")
        assert row["part_of"] in (None, *(r["component"] for r in index["components"]))
    lock = json.loads((site_tools.PYODIDE_DIR / "pyodide-lock.json").read_text())
    assert rows["Jabberwocky"]["version"] == site_tools.project_version()
    assert rows["Jabberwocky"]["license"] == "MIT"
    assert (built / rows["Jabberwocky"]["file"]).read_bytes() == (ROOT / "LICENSE").read_bytes()
    assert rows["Pyodide"]["version"] == site_tools.pyodide_version()
    assert rows["CPython"]["version"] == lock["info"]["python"]
    assert rows["micropip"]["version"] == lock["packages"]["micropip"]["version"]
    assert rows["micropip"]["version"] in micropip.name
    expected = {"Jabberwocky": ("MIT", "Permission is hereby granted"),
                "Pyodide": ("MPL-2.0", "Mozilla Public License Version 2.0"),
                "CPython": ("PSF-2.0", "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2"),
                "micropip": ("MPL-2.0", "Mozilla Public License Version 2.0"),
                "packaging": ("Apache-2.0 OR BSD-2-Clause", "Apache License"),
                "mousebender": ("BSD-3-Clause", "Brett Cannon"),
                "brotli-dec-wasm": ("MIT OR Apache-2.0", "Permission is hereby granted"),
                "Trystero": ("MIT", "Dan Motzenbecker"), "uqr": ("MIT", "Project Nayuki")}
    for name, (spdx, phrase) in expected.items():
        assert rows[name]["license"] == spdx, name
        assert phrase in (built / rows[name]["file"]).read_text(encoding="utf-8"), name
    packaging = (built / rows["packaging"]["file"]).read_text(encoding="utf-8")
    assert "Redistribution and use in source and binary forms" in packaging  # the BSD half
    with zipfile.ZipFile(micropip) as wheel:  # taken from the shipped wheel, unchanged
        shipped = wheel.read(f"micropip-{rows['micropip']['version']}.dist-info/licenses/LICENSE")
    assert (built / rows["micropip"]["file"]).read_bytes() == shipped.rstrip() + b"\n"


def test_a_micropip_wheel_without_its_licence_stops_the_build(tmp_path: Path) -> None:
    wheel = tmp_path / "micropip-0.11.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("micropip/__init__.py", "")
    with pytest.raises(notices.NoticeError, match=r"no micropip-0\.11\.1\.dist-info/licenses"):
        notices.components(wheel, jabberwocky="1", pyodide="2", python="3", micropip="0.11.1",
                           source_url="https://example.org/")
    with pytest.raises(SystemExit, match="licence notices"):
        site_tools.build(tmp_path / "site", wheel)


def test_manifest_screenshots_come_from_the_committed_pngs(built: Path) -> None:
    committed = sorted(p.name for p in site_tools.SCREENSHOTS.glob("*.png"))
    assert committed, "docs/screenshots/ holds the screenshots (python3 build.py screenshots)"
    manifest = json.loads((built / "manifest.webmanifest").read_text())
    shots = manifest["screenshots"]
    assert [s["src"] for s in shots] == [f"screenshots/{name}" for name in committed]
    assert {s["form_factor"] for s in shots} == {"wide", "narrow"}
    for shot in shots:
        data = (built / shot["src"]).read_bytes()
        assert data == (site_tools.SCREENSHOTS / shot["src"].split("/")[-1]).read_bytes()
        width, height = pwa.png_size(data)
        assert shot["sizes"] == f"{width}x{height}" and shot["type"] == "image/png"
        assert shot["label"]
        # what Chrome asks of install-dialog screenshots
        assert min(width, height) >= 320 and max(width, height) <= 3840
        assert max(width, height) <= 2.3 * min(width, height)
        assert (width > height) == (shot["form_factor"] == "wide")


_IMPORTED = (r'(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)["\'](\.{1,2}/[^"\']+)["\']')


def test_front_end_is_bundled_and_every_import_resolves(built: Path) -> None:
    """The site serves the bundles of tools/bundle.py, not the source modules: the page
    loads js/main.js and preloads exactly the chunks it imports; every relative import in
    a bundle names a file of the site; each module the page loads later keeps its path;
    the engine worker is one file that imports only Pyodide's scripts, later; each bundle
    has its source map, with the sources in it."""
    import re

    html = (built / "index.html").read_text()
    scripts = re.findall(r'<script type="module" src="([^"]+)"></script>', html)
    assert scripts == ["js/main.js"]
    main = (built / "js/main.js").read_text()
    static = sorted(set(re.findall(r'(?:\bfrom\s*|\bimport\s*)"\./([^"]+)"', main)))
    preloaded = sorted(re.findall(r'<link rel="modulepreload" href="js/([^"]+)">', html))
    assert preloaded == static, "index.html preloads the chunks js/main.js imports"
    for rel in [p.relative_to(built).as_posix() for p in built.rglob("*.js")]:
        if rel.startswith(("pyodide/", "vendor/")) or rel == "sw.js":
            continue
        text = (built / rel).read_text()
        assert text.rstrip().endswith(f"//# sourceMappingURL={rel.rsplit('/', 1)[-1]}.map"), rel
        source_map = json.loads((built / f"{rel}.map").read_text())
        assert len(source_map["sourcesContent"]) == len(source_map["sources"]), rel
        # (a chunk of esbuild's own helpers maps to no source)
        assert source_map["sources"] or not source_map["mappings"], rel
        for target in re.findall(_IMPORTED, text):
            resolved = (built / rel).parent / target
            assert resolved.resolve().is_file(), f"{rel} imports {target}, not in the site"
    for later in ("js/dialogs/stats.js", "js/update.js", "js/review/screen.js",
                  "js/stats/keep.js", "js/dialogs/about.js"):
        assert (built / later).is_file(), later
    assert not (built / "js/engine.js").exists() and not (built / "worker").exists(), \
        "the source modules are in the bundles, not beside them"
    worker = (built / "worker.js").read_text()
    assert sorted(set(re.findall(_IMPORTED, worker))) == ["./pyodide/pyodide.asm.mjs",
                                                          "./pyodide/pyodide.mjs"]
    assert not re.search(r'\bimport\s*[{"*]|\bfrom\s*"', worker), "no static import"
    # a module bundled from worker/ keeps the URL it had there (../build.json, …)
    assert 'new URL("worker/build-info.js",import.meta.url)' in worker


def _fetch(url: str, encoding: str) -> tuple[dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
    with urllib.request.urlopen(request) as r:
        return {k.lower(): v for k, v in r.headers.items()}, r.read()


def test_server_sends_text_precompressed_as_pages_does(server: str, built: Path) -> None:
    """Text goes brotli- or gzip-compressed (made at build time, tools/precompress.py) to a
    browser that accepts it, and decodes to the file; as it is to one that does not; the
    WebAssembly module and archives always as they are."""
    node = shutil.which("node")
    assert node, "Node.js runs the build: it is here"
    for rel in ("js/main.js", "index.html", "css/style.css", "build.json"):
        plain = (built / rel).read_bytes()
        headers, body = _fetch(f"{server}/sub/{'' if rel == 'index.html' else rel}", "gzip")
        assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == plain, rel
        assert headers["vary"] == "Accept-Encoding"
        assert int(headers["content-length"]) == len(body) < len(plain)
        headers, body = _fetch(f"{server}/sub/{rel}", "gzip, deflate, br")
        assert headers["content-encoding"] == "br", rel
        decoded = subprocess.run(
            [node, "-e", "process.stdout.write(require('zlib').brotliDecompressSync("
                         "require('fs').readFileSync(0)))"],
            input=body, check=True, capture_output=True).stdout
        assert decoded == plain, rel
        headers, body = _fetch(f"{server}/sub/{rel}", "identity")
        assert "content-encoding" not in headers and body == plain, rel
    headers, _ = _fetch(f"{server}/sub/pyodide/pyodide.asm.wasm", "gzip, br")
    assert "content-encoding" not in headers
    headers, _ = _fetch(f"{server}/sub/pyodide/{site_tools.STDLIB_LATER}", "gzip, br")
    assert "content-encoding" not in headers
