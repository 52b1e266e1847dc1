"""The online table's vendor bundle: Trystero's two signalling strategies and the QR writer.

``online_bundle()`` bundles ``tools/online_vendor.mjs`` (it re-exports ``joinRoom`` of
``@trystero-p2p/torrent`` and of ``@trystero-p2p/nostr``, and ``renderSVG`` of ``uqr``)
with the pinned esbuild from ``node_modules``: one minified ES module (its source map
kept beside it in the cache, not shipped), made once per entry, lock file and esbuild
version and kept in ``.cache/vendor/``.
tools/site.py copies the module to the site's ``vendor/online/`` (``SITE_DIR``); the page
imports the module only when a player opens or joins an online table
(web/js/online/transport.js), so the start-up path never loads it, and the service worker
does not precache it (tools/pwa.py).  Kept apart from the front end's own bundling step so
the two change independently.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "tools" / "online_vendor.mjs"
ESBUILD_PACKAGE = ROOT / "node_modules" / "esbuild" / "package.json"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
LOCK = ROOT / "package-lock.json"
CACHE = ROOT / ".cache" / "vendor"
SITE_DIR = "vendor/online"
"""Where the bundle sits in the site (not precached: fetched when first needed)."""
FILES = ("online.js", "online.js.map")
SHIPPED = ("online.js",)
"""The source map stays in the cache (the site ships no .map: tests/test_site_build.py);
``python3 -c "from tools import vendor; print(vendor.online_bundle()[1])"`` names it."""


def _key() -> str:
    version = json.loads(ESBUILD_PACKAGE.read_text())["version"]
    digest = hashlib.sha256()
    parts = (ENTRY.read_bytes(), LOCK.read_bytes(), version.encode(), Path(__file__).read_bytes())
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()[:16]


def online_bundle() -> list[Path]:
    """The bundle and its source map (``online.js``, ``online.js.map``), made when missing."""
    if not ESBUILD_PACKAGE.is_file():
        sys.exit(f"{ESBUILD_PACKAGE.parent} is missing: run `npm ci` (python3 build.py does)")
    folder = CACHE / _key()
    if not all((folder / name).is_file() for name in FILES):
        made = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
        shutil.rmtree(made, ignore_errors=True)
        done = subprocess.run(
            [str(ESBUILD), str(ENTRY.relative_to(ROOT)), "--bundle", "--format=esm", "--minify",
             "--sourcemap=external", "--target=es2022", "--legal-comments=eof",
             "--log-level=warning", f"--outfile={made / FILES[0]}"],
            cwd=ROOT, check=False)
        if done.returncode != 0:
            sys.exit("bundling the online table's libraries failed: see esbuild's messages above")
        if folder.exists():
            shutil.rmtree(made)
        else:
            made.replace(folder)
    return [folder / name for name in FILES]
