"""tools/pwa.py: icons, manifest, service worker precache list and cache name."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import pwa  # noqa: E402

INDEX = """<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>Jabberwocky</title>
</head><body><script type="module" src="js/main.js"></script></body></html>
"""


def decode_png(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, RGBA bytes) of an 8-bit RGBA PNG with filters 0/2 (what we write)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF, kind
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert (depth, color, interlace) == (8, 6, 0)
    raw = zlib.decompress(idat)
    stride = width * 4
    assert len(raw) == (stride + 1) * height
    out, prev = bytearray(), bytes(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        assert kind in (0, 2)
        if kind == 2:
            row = bytes((a + b) & 0xFF for a, b in zip(row, prev, strict=True))
        out += row
        prev = row
    return width, height, bytes(out)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "_site"
    for rel, text in {
        "index.html": INDEX,
        "js/main.js": "import './update.js';\n",
        "js/update.js": "export {};\n",
        "css/app.css": "body{}\n",
        "worker.js": "// worker\n",
        "pyodide/pyodide.mjs": "// pyodide\n",
        "pyodide/pyodide.asm.wasm": "\0asm",
        "pyodide/pyodide.mjs.map": "{}",
        "wheels/jabberwocky-0.1.0-py3-none-any.whl": "PK",
        "build.json": json.dumps({"build": "c1", "pyodide": "314.0.7"}),
        ".nojekyll": "",
    }.items():
        path = site / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    pwa.finalize_site(site)
    return site


def sw_parts(site: Path) -> tuple[str, list[str]]:
    text = (site / "sw.js").read_text()
    build = re.search(r'const BUILD = "([0-9a-f]+)";', text)
    listing = re.search(r"const PRECACHE = (\[.*?\]);", text)
    assert build and listing, text[:400]
    return build.group(1), json.loads(listing.group(1))


def test_png_round_trip() -> None:
    pixels = bytes(range(256)) * 3  # 192 pixels
    data = pwa.encode_png(16, 12, pixels)
    assert decode_png(data) == (16, 12, pixels)
    assert pwa.png_size(data) == (16, 12)
    with pytest.raises(ValueError, match="not a PNG"):
        pwa.png_size(b"GIF89a" + bytes(30))


def test_icons_are_pngs_of_the_right_sizes(site: Path) -> None:
    for name, size, maskable in pwa.ICONS:
        width, height, rgba = decode_png((site / "icons" / name).read_bytes())
        assert (width, height) == (size, size), name
        alphas = rgba[3::4]
        corner = rgba[:4]
        if maskable:  # full bleed: the launcher cuts its own shape
            assert min(alphas) == 255, name
        else:  # a rounded square: transparent corners, opaque middle
            assert corner[3] == 0, name
        centre = (size // 2 * size + size // 2) * 4
        assert rgba[centre + 3] == 255, name
        assert len(set(zip(rgba[0::4], rgba[1::4], rgba[2::4], strict=True))) > 20, name
    ico = (site / "icons/favicon.ico").read_bytes()
    assert struct.unpack("<HHH", ico[:6]) == (0, 1, 1)
    _, _, _, _, _, _, length, offset = struct.unpack("<BBBBHHII", ico[6:22])
    assert pwa.png_size(ico[offset:offset + length]) == (32, 32)


def test_manifest_fields(site: Path) -> None:
    data = json.loads((site / "manifest.webmanifest").read_text())
    assert data["name"] == "Jabberwocky" and data["short_name"]
    assert data["description"]
    assert data["display"] == "standalone"
    assert data["start_url"] == "./" and data["scope"] == "./"
    assert re.fullmatch(r"#[0-9a-f]{6}", data["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", data["background_color"])
    by_size = {(i["sizes"], i["purpose"]): i["src"] for i in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(by_size)
    for (sizes, _), src in by_size.items():
        assert not src.startswith(("/", "http")), src
        width, height = pwa.png_size((site / src).read_bytes())
        assert f"{width}x{height}" == sizes


def test_index_gets_the_head_tags_once(site: Path) -> None:
    html = (site / "index.html").read_text()
    for marker, _ in pwa.HEAD_TAGS:
        assert html.count(marker) == 1, marker
    assert html.index('rel="manifest"') < html.index("</head>")
    pwa.finalize_site(site)
    assert (site / "index.html").read_text() == html


def test_precache_covers_every_file(site: Path) -> None:
    build, files = sw_parts(site)
    on_disk = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    # the wheels are there to be installed elsewhere: the page imports the engine from the
    # first standard-library archive and never loads micropip
    expected = {f for f in on_disk if f != "sw.js" and not f.endswith(".map")
                and not f.startswith((".", "wheels/"))}
    assert set(files) == expected
    assert "wheels/jabberwocky-0.1.0-py3-none-any.whl" in on_disk
    for needed in ("index.html", "manifest.webmanifest", "icons/icon-192.png",
                   "icons/icon-512.png", "icons/icon-maskable-512.png",
                   "icons/apple-touch-icon.png", "icons/favicon.ico", "worker.js",
                   "pyodide/pyodide.asm.wasm", "js/update.js", "build.json"):
        assert needed in files, needed
    assert all(not f.startswith(("/", "http")) for f in files)
    info = json.loads((site / "build.json").read_text())
    assert info["build"] == build and info["files"] == files
    assert info["pyodide"] == "314.0.7"


@pytest.mark.parametrize("changed", ["index.html", "js/main.js", "pyodide/pyodide.asm.wasm",
                                     "worker.js"])
def test_cache_name_changes_with_any_file(site: Path, tmp_path: Path, changed: str) -> None:
    build, _ = sw_parts(site)
    pwa.finalize_site(site)
    assert sw_parts(site)[0] == build, "the hash must be stable across rebuilds"
    other = tmp_path / "other"
    shutil.copytree(site, other)
    with (other / changed).open("a") as f:
        f.write("\n")
    pwa.finalize_site(other)
    assert sw_parts(other)[0] != build
    (other / "js/extra.js").write_text("")
    before = sw_parts(other)[0]
    pwa.finalize_site(other)
    assert sw_parts(other)[0] != before, "a new file must change the hash"
    assert "js/extra.js" in sw_parts(other)[1]


def test_per_file_hashes_cover_every_hashed_file(site: Path) -> None:
    text = (site / "sw.js").read_text()
    found = re.search(r"const HASHES = (\{.*?\});", text)
    assert found
    hashes = json.loads(found.group(1))
    _, files = sw_parts(site)
    assert set(hashes) == set(files) - pwa.DERIVED
    for rel, digest in hashes.items():
        assert digest == hashlib.sha256((site / rel).read_bytes()).hexdigest()[:16], rel


def test_template_marks_are_checked() -> None:
    with pytest.raises(ValueError, match="exactly once"):
        pwa.render_sw("const BUILD = 1;", "abc", [])


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_service_worker_is_valid_javascript(site: Path) -> None:
    result = subprocess.run(["node", "--check", str(site / "sw.js")], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    assert "jabberwocky-site-" in (site / "sw.js").read_text()


def test_screenshots_and_licence_texts_are_served_but_not_precached(tmp_path: Path) -> None:
    site = tmp_path / "_site"
    for rel, data in {
        "index.html": INDEX.encode(),
        "licenses/index.json": b"{}",
        "licenses/pyodide.txt": b"MPL",
        "screenshots/table-wide.png": pwa.encode_png(640, 400, bytes(640 * 400 * 4)),
        "screenshots/table-narrow.png": pwa.encode_png(400, 800, bytes(400 * 800 * 4)),
    }.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_bytes(data)
    pwa.finalize_site(site)
    _, files = sw_parts(site)
    assert "licenses/index.json" in files, "an About screen lists the licences offline"
    assert "licenses/pyodide.txt" not in files
    assert not any(f.startswith("screenshots/") for f in files)
    shots = json.loads((site / "manifest.webmanifest").read_text())["screenshots"]
    assert shots == [
        {"src": "screenshots/table-narrow.png", "sizes": "400x800", "type": "image/png",
         "form_factor": "narrow", "label": pwa.SCREENSHOT_LABEL},
        {"src": "screenshots/table-wide.png", "sizes": "640x400", "type": "image/png",
         "form_factor": "wide", "label": pwa.SCREENSHOT_LABEL},
    ]
    (site / "screenshots/table.png").write_bytes(pwa.encode_png(1, 1, bytes(4)))
    with pytest.raises(ValueError, match="-wide or -narrow"):
        pwa.finalize_site(site)


def test_no_screenshots_no_manifest_entry(site: Path) -> None:
    assert "screenshots" not in json.loads((site / "manifest.webmanifest").read_text())
