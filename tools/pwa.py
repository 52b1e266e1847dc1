"""The installable, offline part of the site: icons, web app manifest, service worker.

``finalize_site(site)`` runs at the end of every build (``tools/site.py``):

1. draws the icons (our own art, pure Python: a card with a spade, fanned over a red
   card, on felt green) into ``icons/``: 192 and 512 px, a maskable 512, an
   apple-touch-icon (180) and a favicon (32 px PNG and ``favicon.ico``);
2. writes ``manifest.webmanifest`` (relative ``start_url`` and ``scope``; the PNGs in
   ``screenshots/`` as its ``screenshots``, ``*-wide.png`` and ``*-narrow.png``, for the
   richer install dialog);
3. adds the manifest/icon/theme-colour tags to ``index.html`` when they are missing;
4. hashes every file the service worker precaches (all but the service worker, source
   maps, the screenshots, the classic deck's card faces and the licence texts: see
   :func:`is_precached`) and writes ``sw.js`` from
   ``web/sw.js`` with that list and the cache name ``jabberwocky-site-<hash>``; the
   hash is also written into ``build.json`` (``"build"``, ``"files"``) when it exists.

Standard library only (zlib + struct for PNG).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import struct
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SW_TEMPLATE = ROOT / "web" / "sw.js"
ICON_CACHE = ROOT / ".cache" / "icons"

NAME = "Jabberwocky"
SHORT_NAME = "Jabberwocky"
DESCRIPTION = ("Jabberwocky, the Oh Hell card game where only an exact bid scores: "
               "play against bots, offline.")
THEME_COLOR = "#12402b"  # the page's <meta name="theme-color">
BACKGROUND_COLOR = "#0d3020"  # the page's background (--felt-dark): the splash screen
FELT_COLOR = "#1d5c3d"  # the table's felt (--felt): the icons' background
CACHE_PREFIX = "jabberwocky-site-"
BUILD_MARK = "__JABBERWOCKY_BUILD__"
PRECACHE_MARK = "[/* __JABBERWOCKY_PRECACHE__ */]"
HASHES_MARK = "{/* __JABBERWOCKY_HASHES__ */}"

# Not precached: the service worker itself (it names the hash), source maps, dotfiles.
EXCLUDE_NAMES = {"sw.js"}
EXCLUDE_SUFFIXES = (".map",)
# Not precached either: files a player rarely opens, fetched when they are (the
# install dialog's screenshots, the licence texts behind licenses/index.json, which is
# precached so an About screen lists them offline).  They would otherwise double the
# bytes of ours that every visitor downloads (bench/size.py: target 300 KB).
NOT_PRECACHED_PREFIXES = ("screenshots/", "cards/",
                          # a first visit's downloads of Pyodide's module and standard
                          # library, and their decoder: the engine worker leaves the
                          # decoded files for the service worker (web/worker/brotli.js),
                          # which precaches those
                          "pyodide/pyodide.asm.wasm.br", "pyodide/python_stdlib.zip.br",
                          "vendor/brotli-dec-wasm/", "worker/brotli.js",
                          # the wheels: the page imports the engine from the first
                          # standard-library archive and never loads micropip; they are
                          # there to be installed elsewhere
                          "wheels/",
                          # the online table's libraries (tools/vendor.py): only a player
                          # who opens or joins an online table fetches them
                          "vendor/online/")
NOT_PRECACHED_TEXTS = "licenses/"


def is_precached(rel: str) -> bool:
    """Whether the service worker precaches the site file ``rel`` (a POSIX path)."""
    name = rel.rsplit("/", 1)[-1]
    return not (name in EXCLUDE_NAMES or name.endswith(EXCLUDE_SUFFIXES)
                or any(part.startswith(".") for part in rel.split("/"))
                or rel.startswith(NOT_PRECACHED_PREFIXES)
                or (rel.startswith(NOT_PRECACHED_TEXTS) and rel.endswith(".txt")))


# Written from the hash, so it is precached but not part of what is hashed.
DERIVED = {"build.json"}

RGBA = tuple[float, float, float, float]

# -- PNG and ICO encoding --------------------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def encode_png(width: int, height: int, rgba: bytes) -> bytes:
    """An 8-bit RGBA PNG of ``rgba`` (rows top to bottom, 4 bytes a pixel).

    Each row uses the "up" filter except the first ("none"): flat art compresses well.
    """
    stride = width * 4
    if len(rgba) != stride * height:
        raise ValueError(f"expected {stride * height} bytes of RGBA, got {len(rgba)}")
    raw = bytearray()
    prev = bytes(stride)
    for y in range(height):
        row = rgba[y * stride:(y + 1) * stride]
        if y == 0:
            raw += b"\x00" + row
        else:
            raw += b"\x02" + bytes((a - b) & 0xFF for a, b in zip(row, prev, strict=True))
        prev = row
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + _chunk(b"IEND", b""))


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG; raises ValueError if ``data`` is not one."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def encode_ico(pngs: Iterable[bytes]) -> bytes:
    """A .ico holding the given PNG images (supported by every current browser)."""
    images = list(pngs)
    out = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    body = b""
    for png in images:
        w, h = png_size(png)
        out += struct.pack("<BBBBHHII", w % 256, h % 256, 0, 0, 1, 32, len(png), offset)
        offset += len(png)
        body += png
    return out + body


# -- drawing: signed distance functions, one sample a pixel with a 1 px soft edge ------


def _sd_round_box(x: float, y: float, hw: float, hh: float, r: float) -> float:
    qx = abs(x) - hw + r
    qy = abs(y) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def _sd_heart(x: float, y: float, s: float) -> float:
    """A heart of width ~2.4 s centred near the origin, point down (y grows downwards)."""
    d = s  # half-diagonal of the rotated square
    # The square rotated 45 degrees: |x| + |y - c| <= d, shifted so the heart is centred.
    cy = 0.25 * s
    square = (abs(x) + abs(y - cy) - d) / math.sqrt(2.0)
    r = d / math.sqrt(2.0)
    left = math.hypot(x + d / 2, y - cy + d / 2) - r
    right = math.hypot(x - d / 2, y - cy + d / 2) - r
    return min(square, left, right)


def _sd_spade(x: float, y: float, s: float) -> float:
    """A spade: the heart turned point-up, with a flared stem below."""
    body = _sd_heart(x, -y + 0.2 * s, s)
    # Stem: a trapezoid from (±0.12 s, 0.5 s) down to (±0.5 s, 1.45 s), with a soft top.
    top, bottom = 0.45 * s, 1.45 * s
    if y < top - 0.1 * s:
        stem = top - y
    else:
        t = min(max((y - top) / (bottom - top), 0.0), 1.0)
        half = 0.1 * s + 0.4 * s * t * t
        stem = max(abs(x) - half, y - bottom, top - y)
    return min(body, stem)


def _rotate(x: float, y: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return c * x + s * y, -s * x + c * y


def _over(dst: RGBA, color: tuple[float, float, float], alpha: float) -> RGBA:
    """``color`` at ``alpha`` composited over ``dst`` (straight alpha)."""
    if alpha <= 0.0:
        return dst
    r, g, b, a = dst
    out_a = alpha + a * (1.0 - alpha)
    if out_a <= 0.0:
        return (0.0, 0.0, 0.0, 0.0)
    k = a * (1.0 - alpha)
    return ((color[0] * alpha + r * k) / out_a, (color[1] * alpha + g * k) / out_a,
            (color[2] * alpha + b * k) / out_a, out_a)


def _hex(color: str) -> tuple[float, float, float]:
    return (int(color[1:3], 16) / 255, int(color[3:5], 16) / 255, int(color[5:7], 16) / 255)


FELT = _hex(FELT_COLOR)
FELT_EDGE = _hex("#134430")
CARD = _hex("#fbf8ef")
CARD_EDGE = _hex("#c9c2ad")
BACK_CARD = _hex("#f4e9e4")
RED = _hex("#c8323a")
INK = _hex("#1b1b22")
SHADOW = (0.0, 0.0, 0.0)


def _coverage(distance: float, px: float) -> float:
    """Fraction of a pixel inside a shape whose signed distance (icon units) is given."""
    return min(max(0.5 - distance * px, 0.0), 1.0)


def icon_pixel(u: float, v: float, px: float, maskable: bool) -> RGBA:
    """The colour at (u, v) in [-0.5, 0.5]^2; ``px`` = pixels per icon unit.

    Maskable icons fill the whole square (the launcher cuts its own shape) and keep the
    art inside the central safe circle (radius 0.4); the others are a rounded square.
    """
    color: RGBA = (0.0, 0.0, 0.0, 0.0)
    if maskable:
        color = (*FELT, 1.0)
        art = 0.8
    else:
        bg = _sd_round_box(u, v, 0.5, 0.5, 0.2)
        color = _over(color, FELT_EDGE, _coverage(bg, px))
        color = _over(color, FELT, _coverage(bg + 0.025, px))
        art = 0.92
    x, y = u / art, v / art
    # The back card, tilted left, with a red heart.
    bx, by = _rotate(x + 0.1, y + 0.02, 16.0)
    back = _sd_round_box(bx, by, 0.2, 0.28, 0.04)
    if back < 0.05:
        color = _over(color, SHADOW, 0.25 * _coverage(back - 0.012, px / 2.5))
        color = _over(color, CARD_EDGE, _coverage(back, px / art))
        color = _over(color, BACK_CARD, _coverage(back + 0.01, px / art))
        color = _over(color, RED, _coverage(_sd_heart(bx + 0.125, by + 0.185, 0.042), px / art))
    # The front card, tilted right, with a large black spade.
    fx, fy = _rotate(x - 0.09, y + 0.03, -9.0)
    front = _sd_round_box(fx, fy, 0.2, 0.28, 0.04)
    if front < 0.05:
        color = _over(color, SHADOW, 0.3 * _coverage(front - 0.015, px / 3.0))
        color = _over(color, CARD_EDGE, _coverage(front, px / art))
        color = _over(color, CARD, _coverage(front + 0.01, px / art))
        color = _over(color, INK, _coverage(_sd_spade(fx, fy + 0.03, 0.095), px / art))
    return color


def render_icon(size: int, maskable: bool = False,
                pixel: Callable[[float, float, float, bool], RGBA] = icon_pixel) -> bytes:
    """RGBA bytes of the icon at ``size`` x ``size`` pixels."""
    out = bytearray()
    for j in range(size):
        v = (j + 0.5) / size - 0.5
        for i in range(size):
            r, g, b, a = pixel((i + 0.5) / size - 0.5, v, float(size), maskable)
            if a <= 0.0:
                out += b"\x00\x00\x00\x00"
            else:
                out += bytes((round(r * 255), round(g * 255), round(b * 255), round(a * 255)))
    return bytes(out)


# (file name, size, maskable)
ICONS = [
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("icon-maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),  # iOS draws no transparency: full-bleed art
    ("favicon-32.png", 32, False),
]


def _drawing_key() -> str:
    """Changes whenever this module (the art) changes: the key of the icon cache."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def icon_files() -> dict[str, bytes]:
    """Every icon file by name; drawn once per version of this module (cached)."""
    cache = ICON_CACHE / _drawing_key()
    names = [name for name, _, _ in ICONS] + ["favicon.ico"]
    if all((cache / name).is_file() for name in names):
        return {name: (cache / name).read_bytes() for name in names}
    files = {name: encode_png(size, size, render_icon(size, maskable))
             for name, size, maskable in ICONS}
    files["favicon.ico"] = encode_ico([files["favicon-32.png"]])
    try:
        cache.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (cache / name).write_bytes(data)
    except OSError:
        pass  # a read-only checkout still builds, just more slowly
    return files


# -- manifest, index.html tags, service worker ------------------------------------------


SCREENSHOT_LABEL = "A game of Jabberwocky against three bots"


def screenshots(site: Path) -> list[dict[str, str]]:
    """The manifest's ``screenshots``: each ``screenshots/*-wide.png`` and
    ``*-narrow.png`` of the built site, with its size read from the file."""
    out = []
    for path in sorted((site / "screenshots").glob("*.png")):
        form = path.stem.rsplit("-", 1)[-1]
        if form not in ("wide", "narrow"):
            raise ValueError(f"{path.name}: a screenshot's name ends in -wide or -narrow")
        width, height = png_size(path.read_bytes())
        out.append({"src": f"screenshots/{path.name}", "sizes": f"{width}x{height}",
                    "type": "image/png", "form_factor": form, "label": SCREENSHOT_LABEL})
    return out


def manifest(shots: list[dict[str, str]] | None = None) -> dict[str, object]:
    """The web app manifest (every URL relative to the manifest, so any sub-path works)."""
    return {
        "id": "./",
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": DESCRIPTION,
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games"],
        "icons": [
            {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": "icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
        **({"screenshots": shots} if shots else {}),
    }


HEAD_TAGS = [
    ("rel=\"manifest\"", '<link rel="manifest" href="manifest.webmanifest">'),
    ("rel=\"icon\"", '<link rel="icon" href="icons/favicon.ico" sizes="32x32">'),
    ("rel=\"apple-touch-icon\"", '<link rel="apple-touch-icon" href="icons/apple-touch-icon.png">'),
    ("name=\"theme-color\"", f'<meta name="theme-color" content="{THEME_COLOR}">'),
]


def add_head_tags(html: str) -> str:
    """``html`` with the manifest, icon and theme-colour tags added where missing."""
    missing = [tag for marker, tag in HEAD_TAGS if marker not in html]
    if not missing:
        return html
    match = re.search(r"</head\s*>", html, flags=re.IGNORECASE)
    if match is None:
        raise ValueError("index.html has no </head>: cannot add the manifest and icon links")
    insert = "".join(f"  {tag}\n" for tag in missing)
    return html[:match.start()] + insert + html[match.start():]


def precache_files(site: Path) -> list[str]:
    """Every file of the site the service worker precaches (relative POSIX paths)."""
    return [rel for rel in (p.relative_to(site).as_posix() for p in sorted(site.rglob("*"))
                            if p.is_file()) if is_precached(rel)]


def file_hashes(site: Path, files: Iterable[str]) -> dict[str, str]:
    """SHA-256 (first 16 hex digits) of each file's bytes, derived files left out."""
    return {rel: hashlib.sha256((site / rel).read_bytes()).hexdigest()[:16]
            for rel in sorted(files) if rel not in DERIVED}


def content_hash(hashes: dict[str, str]) -> str:
    """The build's hash: SHA-256 (first 16 hex digits) over every file's name and hash."""
    digest = hashlib.sha256()
    for rel in sorted(hashes):
        digest.update(f"{rel}\0{hashes[rel]}\n".encode())
    return digest.hexdigest()[:16]


def render_sw(template: str, build: str, files: list[str],
              hashes: dict[str, str] | None = None) -> str:
    """The service worker source with the build hash, the precache list and the per-file
    hashes (used to copy unchanged files from an older build's cache) filled in."""
    for mark in (BUILD_MARK, PRECACHE_MARK, HASHES_MARK):
        if template.count(mark) != 1:
            raise ValueError(f"web/sw.js must contain {mark!r} exactly once")
    listing = json.dumps(files, indent=0).replace("\n", "")
    table = json.dumps(hashes or {}, indent=0).replace("\n", "")
    return (template.replace(BUILD_MARK, build).replace(PRECACHE_MARK, listing)
            .replace(HASHES_MARK, table))


def finalize_site(site: Path) -> None:
    """Add the icons, the manifest and the service worker to the built site ``site``."""
    icons = site / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    for name, data in icon_files().items():
        (icons / name).write_bytes(data)
    (site / "manifest.webmanifest").write_text(
        json.dumps(manifest(screenshots(site)), indent=2) + "\n")
    index = site / "index.html"
    if index.is_file():
        html = index.read_text(encoding="utf-8")
        updated = add_head_tags(html)
        if updated != html:
            index.write_text(updated, encoding="utf-8")
    files = precache_files(site)
    hashes = file_hashes(site, files)
    build = content_hash(hashes)
    info = site / "build.json"
    if info.is_file():
        data = json.loads(info.read_text())
        data["build"] = build
        data["files"] = files
        info.write_text(json.dumps(data, indent=2) + "\n")
    (site / "sw.js").write_text(render_sw(SW_TEMPLATE.read_text(), build, files, hashes))


def main() -> None:
    """``python -m tools.pwa SITE``: finalize an already built site (for experiments)."""
    import sys

    site = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_site"
    finalize_site(site)
    print(f"{site}/sw.js: cache {CACHE_PREFIX}"
          f"{json.loads((site / 'build.json').read_text())['build']}"
          if (site / "build.json").is_file() else f"{site}/sw.js written")


if __name__ == "__main__":
    main()
