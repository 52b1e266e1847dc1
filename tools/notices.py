"""The licences of what the site ships, as files an About screen can list and open.

``files(components(micropip_wheel, ...))`` is what tools/site.py writes into
``site/licenses/``:

- one text file per component: Jabberwocky's own ``LICENSE``; Pyodide (MPL-2.0) and the
  CPython inside it (PSF-2.0) from ``tools/notices/`` (their packages carry no licence
  file); micropip (MPL-2.0) and the ``packaging`` it vendors (Apache-2.0 OR
  BSD-2-Clause) taken from the micropip wheel itself, so they are always the shipped
  version's; the BSD-3-Clause of mousebender, of which micropip vendors an adapted part;
  the classic court cards (CC0), the brotli decoder (MIT), and the online table's Trystero
  and uqr (MIT), from their npm packages;
- ``index.json``: ``{"format": "jabberwocky-licenses/1", "components": [{"component",
  "version", "license" (SPDX), "file" (relative to the site), "url", "part_of"}]}``.

A micropip wheel that no longer holds a licence file where this expects one stops the
build with a sentence saying what to re-check, instead of shipping an incomplete list.
"""

from __future__ import annotations

import json
import re
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXTS = ROOT / "tools" / "notices"
FORMAT = "jabberwocky-licenses/1"
FOLDER = "licenses"
INDEX = f"{FOLDER}/index.json"


class NoticeError(Exception):
    """A licence text the site must ship was not found; the message says where to look."""


@dataclass(frozen=True)
class Component:
    """One line of the index: what it is, which version, under which licence, where."""

    component: str
    version: str
    license: str
    file: str
    url: str
    part_of: str | None = None
    name: str = ""
    """The component's own name, without the English words on what it does (``component``)."""
    role: str | None = None
    """What it does here, as a catalogue entry of the page (``about.role_<role>``): the
    About dialog says it in the player's language; ``component`` keeps the English."""


def _wheel_text(wheel: zipfile.ZipFile, names: list[str], what: str) -> bytes:
    found = [name for name in names if name in wheel.namelist()]
    if len(found) != len(names):
        missing = sorted(set(names) - set(found))
        raise NoticeError(f"the micropip wheel has no {', '.join(missing)} ({what}): "
                          f"check tools/notices.py against the new micropip")
    parts = [wheel.read(name).decode("utf-8").rstrip() + "\n" for name in names]
    return "\n\n".join(parts).encode("utf-8")


def _vendored_version(wheel: zipfile.ZipFile, init: str) -> str:
    found = re.search(r'^__version__ = "([^"]+)"', wheel.read(init).decode("utf-8"), re.M)
    if found is None:
        raise NoticeError(f"{init} in the micropip wheel names no __version__")
    return found.group(1)


def components(micropip_wheel: Path, *, jabberwocky: str, pyodide: str, python: str,
               micropip: str, source_url: str) -> list[tuple[Component, bytes]]:
    """Every component with its licence text (the versions are the build's)."""
    with zipfile.ZipFile(micropip_wheel) as wheel:
        dist = f"micropip-{micropip}.dist-info"
        vendored = "micropip/_vendored/packaging/"
        micropip_text = _wheel_text(wheel, [f"{dist}/licenses/LICENSE"], "its MPL-2.0 text")
        packaging_text = _wheel_text(
            wheel, [vendored + name for name in ("LICENSE", "LICENSE.APACHE", "LICENSE.BSD")],
            "the vendored packaging's licence")
        packaging = _vendored_version(wheel, vendored + "src/packaging/__init__.py")
        if "micropip/_vendored/mousebender/simple.py" not in wheel.namelist():
            raise NoticeError("the micropip wheel no longer vendors mousebender: drop its "
                              "entry from tools/notices.py")

    def committed(name: str) -> bytes:
        return (TEXTS / name).read_bytes()

    def file(name: str) -> str:
        return f"{FOLDER}/{name}.txt"

    return [
        (Component("Jabberwocky", jabberwocky, "MIT", file("jabberwocky"), source_url),
         (ROOT / "LICENSE").read_bytes()),
        (Component("Pyodide", pyodide, "MPL-2.0", file("pyodide"),
                   "https://github.com/pyodide/pyodide"), committed("MPL-2.0.txt")),
        (Component("CPython (the interpreter and standard library inside Pyodide)", python,
                   "PSF-2.0", file("cpython"), "https://www.python.org/", "Pyodide",
                   name="CPython", role="cpython"),
         committed("CPython-LICENSE.txt")),
        (Component("micropip", micropip, "MPL-2.0", file("micropip"),
                   "https://github.com/pyodide/micropip"), micropip_text),
        (Component("packaging (vendored in micropip)", packaging, "Apache-2.0 OR BSD-2-Clause",
                   file("packaging"), "https://github.com/pypa/packaging", "micropip",
                   name="packaging", role="packaging"),
         packaging_text),
        (Component("mousebender (adapted in micropip)", "", "BSD-3-Clause",
                   file("mousebender"), "https://github.com/brettcannon/mousebender",
                   "micropip", name="mousebender", role="mousebender"),
         committed("mousebender-LICENSE.txt")),
        (Component("Classic court cards: Adrian Kennard's playing-card designs, "
                   "via @letele/playing-cards", _package_version("@letele/playing-cards"),
                   "CC0-1.0", file("playing-cards"), "https://www.me.uk/cards/",
                   name="@letele/playing-cards", role="cards"),
         (ROOT / "node_modules" / "@letele" / "playing-cards" / "LICENSE").read_bytes()),
        (Component("brotli-dec-wasm (the brotli decoder of a first visit: Rust's "
                   "brotli-decompressor as WebAssembly)", _package_version("brotli-dec-wasm"),
                   "MIT OR Apache-2.0", file("brotli-dec-wasm"),
                   "https://github.com/ustclug-dev/brotli-dec-wasm",
                   name="brotli-dec-wasm", role="brotli"),
         (ROOT / "node_modules" / "brotli-dec-wasm" / "LICENSE-MIT.txt").read_bytes()),
        # the online table's libraries (tools/vendor.py bundles them into vendor/online/)
        (Component("Trystero (peer-to-peer connections for online tables: its WebTorrent "
                   "and Nostr strategies)", _package_version("@trystero-p2p/core"), "MIT",
                   file("trystero"), "https://github.com/dmotz/trystero",
                   name="Trystero", role="trystero"),
         (ROOT / "node_modules" / "@trystero-p2p" / "core" / "LICENSE").read_bytes()),
        (Component("uqr (the join link's QR code)", _package_version("uqr"), "MIT",
                   file("uqr"), "https://github.com/unjs/uqr", name="uqr", role="uqr"),
         (ROOT / "node_modules" / "uqr" / "LICENSE").read_bytes()),
    ]


def _package_version(name: str) -> str:
    """The version of an installed npm package (``npm ci`` installed it)."""
    manifest = ROOT / "node_modules" / name / "package.json"
    if not manifest.is_file():
        raise NoticeError(f"the npm package {name} is missing: run npm ci")
    return str(json.loads(manifest.read_text())["version"])


def index(entries: list[tuple[Component, bytes]]) -> bytes:
    """The bytes of ``licenses/index.json``."""
    data = {"format": FORMAT, "components": [asdict(c) for c, _ in entries]}
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def files(entries: list[tuple[Component, bytes]]) -> dict[str, bytes]:
    """Every file of ``licenses/`` by its path in the site."""
    out = {component.file: text for component, text in entries}
    out[INDEX] = index(entries)
    return out
