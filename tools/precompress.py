"""Text files of the site compressed at build time, for the dev server (``build.py serve``).

GitHub Pages sends text compressed (``Content-Encoding: gzip``) when the browser accepts
it; the dev server did not, so a first visit there (and Lighthouse's audit of it) moved
every script and stylesheet whole.  ``precompress(site)`` makes a gzip (level 9) and a
brotli (quality 11) copy of every text file of the site (:data:`TEXT_SUFFIXES`: HTML,
JavaScript, CSS, JSON, the manifest, SVG, plain text, source maps), kept in
``.cache/precompressed/`` under the hash of the file's bytes: outside the site, so
nothing extra is deployed, and made once per content.  ``Lookup`` finds them for a
request: the server sends brotli when the browser accepts it, else gzip, with
``Content-Encoding`` and ``Vary: Accept-Encoding``.

Not compressed: ``.wasm``, ``.zip``, ``.whl``, ``.br`` and images.  (GitHub Pages also
gzips ``.wasm``; here a first visit downloads Pyodide's module as the ``.br`` file the
engine worker decodes, and a repeat visit reads it from the service worker's cache.)
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "precompressed"
TEXT_SUFFIXES = (".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".txt",
                 ".map")
MIN_SIZE = 256
"""Smaller files go as they are: the headers would outweigh what compression saves."""
ENCODINGS = ("br", "gzip")
"""In the order of preference (when the browser accepts both)."""

BROTLI = ROOT / "tools" / "brotli_compress.mjs"
"""The site's one brotli writer (quality 11, a 4 MB window), given many files at once."""


def is_text(rel: str) -> bool:
    """Whether the site file ``rel`` is sent compressed."""
    return rel.endswith(TEXT_SUFFIXES)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def precompress(site: Path) -> int:
    """Make the compressed copies of the site's text files that are missing; returns how
    many files have them.  Without Node.js, gzip only."""
    CACHE.mkdir(parents=True, exist_ok=True)
    todo: list[str] = []
    count = 0
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or not is_text(rel) or path.stat().st_size < MIN_SIZE:
            continue
        data = path.read_bytes()
        key = _digest(data)
        count += 1
        gz = CACHE / f"{key}.gz"
        if not gz.is_file():
            tmp = gz.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(gzip.compress(data, 9, mtime=0))
            tmp.replace(gz)
        if not (CACHE / f"{key}.br").is_file():
            todo += [str(path), str(CACHE / f"{key}.br.{os.getpid()}.tmp")]
    node = shutil.which("node")
    if todo and node:
        for start in range(0, len(todo), 200):  # under any command line's limit
            part = todo[start:start + 200]
            done = subprocess.run([node, str(BROTLI), *part], check=False)
            if done.returncode != 0:
                sys.exit("brotli-compressing the site's text failed: see the messages above")
            for made in part[1::2]:
                Path(made).replace(made.rsplit(".", 2)[0])
    return count


class Lookup:
    """The compressed copy of a site file, by its bytes (remembered by size and time)."""

    def __init__(self) -> None:
        self._keys: dict[str, tuple[int, int, str]] = {}
        self._lock = threading.Lock()

    def find(self, path: Path, rel: str, accept: str) -> tuple[Path, str] | None:
        """(compressed file, its Content-Encoding) for ``path`` when the browser accepts
        one (``accept``: its Accept-Encoding) and it was made; else None."""
        if not is_text(rel):
            return None
        accepted = {part.split(";")[0].strip() for part in accept.split(",")}
        wanted = [e for e in ENCODINGS if e in accepted]
        if not wanted:
            return None
        try:
            stat = path.stat()
        except OSError:
            return None
        with self._lock:
            known = self._keys.get(str(path))
        if known is None or known[:2] != (stat.st_size, stat.st_mtime_ns):
            key = _digest(path.read_bytes())
            with self._lock:
                self._keys[str(path)] = (stat.st_size, stat.st_mtime_ns, key)
        else:
            key = known[2]
        for encoding in wanted:
            made = CACHE / f"{key}.{'br' if encoding == 'br' else 'gz'}"
            if made.is_file():
                return made, encoding
        return None
