"""The front end bundled and minified for the site (esbuild, by ``tools/bundle.mjs``).

The source modules in ``web/`` stay as they are (the unit tests import them, people read
them); the site serves, in their place, what ``bundle()`` makes:

- ``js/main.js``: the page's modules in one file (``js/chunk-*.js``: code it shares with
  the modules it loads later, ``js/dialogs/stats.js``, ``js/update.js``, …, which keep
  their paths);
- ``worker.js``: the engine worker with all of its own modules (and the brotli decoder's
  JavaScript) in one file;
- ``js/early.js`` and ``css/style.css``: minified;

each with a source map beside it (``.map``, not precached), which holds the sources.
``index.html`` is rewritten to match (:func:`rewrite_index`): the page's one module script
and a ``modulepreload`` for each chunk it imports, in place of the 46 source modules.

Why: a first visit then asks for 11 scripts of ours before its first table instead of 57,
in fewer round trips (the worker's were three levels of imports before Pyodide's own could
be asked for), 141 KB instead of 320 KB (54 KB instead of 117 KB gzipped).  Made once per
input and kept in ``.cache/bundle/``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
SCRIPT = ROOT / "tools" / "bundle.mjs"
ESBUILD = ROOT / "node_modules" / "esbuild" / "package.json"
DECODER_JS = ROOT / "node_modules" / "brotli-dec-wasm" / "pkg" / "brotli_dec_wasm.js"
CACHE = ROOT / ".cache" / "bundle"
ENTRY = "js/main.js"
"""The page's module script (index.html's ``<script type="module">``)."""

_PRELOADS = re.compile(r'^[ \t]*<link rel="modulepreload" href="[^"]+">\n', re.M)
_ENGINE_FIRST = re.compile(
    r'^[ \t]*<!--[^\n]*-->\n[ \t]*<script type="module" src="js/engine\.js"></script>\n'
    r'|^[ \t]*<script type="module" src="js/engine\.js"></script>\n', re.M)
_MAIN = f'<script type="module" src="{ENTRY}"></script>'


@dataclass(frozen=True)
class Bundle:
    """What ``bundle()`` made: ``folder`` holds the site files (``outputs``, with their
    ``.map``); ``inputs`` are the web/ files taken into them (not copied to the site);
    ``imports``: site path -> the site paths it imports statically."""

    folder: Path
    outputs: tuple[str, ...]
    inputs: frozenset[str]
    imports: dict[str, tuple[str, ...]]

    def files(self) -> list[str]:
        """Every file to put into the site (outputs and their source maps), sorted."""
        return sorted(p.relative_to(self.folder).as_posix() for p in self.folder.rglob("*")
                      if p.is_file() and p.name != "meta.json")


def _key() -> str:
    h = hashlib.sha256()
    for path in sorted(WEB.rglob("*")):
        if path.is_file() and path.suffix in (".js", ".css"):
            h.update(path.relative_to(WEB).as_posix().encode() + b"\0" + path.read_bytes())
    for path in (SCRIPT, ESBUILD, DECODER_JS):
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def bundle() -> Bundle:
    """Bundle web/ (once per input: kept in ``.cache/bundle/<key>/``)."""
    for needed in (ESBUILD, DECODER_JS):
        if not needed.is_file():
            sys.exit(f"{needed} is missing: run `npm ci` (python3 build.py does)")
    folder = CACHE / _key()
    if not (folder / "meta.json").is_file():
        node = shutil.which("node")
        if node is None:
            sys.exit("Node.js is needed to bundle the front end: install Node.js 22 or 24")
        made = folder.with_name(f"{folder.name}.{os.getpid()}.tmp")
        shutil.rmtree(made, ignore_errors=True)
        done = subprocess.run([node, str(SCRIPT), str(made)], cwd=ROOT, check=False)
        if done.returncode != 0 or not (made / "meta.json").is_file():
            shutil.rmtree(made, ignore_errors=True)
            sys.exit(f"bundling the front end failed (exit {done.returncode}); see the messages "
                     "above")
        for old in CACHE.glob("*"):
            if old != made:
                shutil.rmtree(old, ignore_errors=True)  # made from other sources
        made.replace(folder)
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    outputs = meta["outputs"]
    return Bundle(folder=folder, outputs=tuple(sorted(outputs)),
                  inputs=frozenset(meta["inputs"]),
                  imports={k: tuple(v["imports"]) for k, v in outputs.items()})


def rewrite_index(html: str, made: Bundle) -> str:
    """web/index.html for the bundled site: the engine's own module script goes (the
    page's bundle holds it; js/early.js has started the worker already), and the list of
    source modules to preload becomes the chunks that ``js/main.js`` imports."""
    if _MAIN not in html:
        sys.exit(f"web/index.html has no {_MAIN}: tools/bundle.py cannot rewrite it")
    html = _ENGINE_FIRST.sub("", html)
    preloads = "".join(f'<link rel="modulepreload" href="{chunk}">\n'
                       for chunk in made.imports.get(ENTRY, ()))
    html = _PRELOADS.sub("", html)
    return html.replace(_MAIN, preloads + _MAIN, 1)
