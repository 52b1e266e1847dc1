"""Fixtures for the end-to-end tests: the built site, a server under a sub-path, Chromium.

- ``site_dir`` (session): ``_site/`` built once per session with ``tools.site.build``
  (``JABBERWOCKY_SITE=/some/dir`` builds and serves a private copy instead: useful while
  someone else rebuilds ``_site/`` in the same tree).
- ``site_server`` (session): serves it at ``http://127.0.0.1:PORT/jabberwocky/`` (the
  GitHub Pages sub-path); ``.url``, ``.origin``, ``.stop()``, ``.start()`` (same port).
- ``browser_type_launch_args``: Debian's ``/usr/bin/chromium`` with the flags this machine
  needs (Playwright's own browser download does not work here).
- Every browser context (``context``, ``page``, ``new_context(...)``) is guarded: requests
  to another origin are aborted and recorded, console errors and page errors are
  collected, and the test fails at teardown if any occurred.  Mark a test
  ``@pytest.mark.allow_console_errors`` to allow console/page errors (hostile input);
  every context shortens the hold of a finished trick (``jabberwocky.readableMs``) and
  the beat before a bot's move without motion (``jabberwocky.beatMs``) unless the test is
  marked ``@pytest.mark.readable_hold``;
  foreign requests always fail the test.
- ``wait_for_phase(page, phase, timeout)`` and ``wait_for_dataset(page, key, value,
  timeout)`` poll ``document.body.dataset`` with ``page.evaluate`` (``wait_for_function``
  does not work under the site's CSP).
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Route

ROOT = Path(__file__).resolve().parent.parent
SUBPATH = "/jabberwocky/"
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    # WebRTC between two pages here: real host addresses, not mDNS names (e2e/test_online.py)
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import site as site_tools  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "allow_console_errors: console and page errors do not fail this test")
    config.addinivalue_line(
        "markers",
        "readable_hold: keep the page's hold of a finished trick and its beat before a bot's "
        "move without motion (others shorten them)")


# -- the site and its server ----------------------------------------------------------


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """``_site/``, rebuilt when any input changed (the build only rewrites what changed)."""
    site = Path(os.environ.get("JABBERWOCKY_SITE", ROOT / "_site"))
    site_tools.build(site, site_tools.micropip_wheel())
    return site


class SiteServer:
    """The site served under ``/jabberwocky/`` on a fixed port that survives stop/start."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.port = 0
        self._server: Any = None
        self._thread: threading.Thread | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return self.origin + SUBPATH

    def start(self) -> None:
        if self._server is not None:
            return
        for _ in range(50):
            try:
                self._server = site_tools.make_server(self.site, self.port, prefix=SUBPATH)
                break
            except OSError:  # the port is still held by the last run: wait a moment
                time.sleep(0.1)
        else:
            raise RuntimeError(f"could not listen on port {self.port} again")
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)


@pytest.fixture(scope="session")
def site_server(site_dir: Path) -> Iterator[SiteServer]:
    server = SiteServer(site_dir)
    server.start()
    yield server
    server.stop()


# -- Chromium ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    args = dict(browser_type_launch_args)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        args["executable_path"] = chromium
    args["args"] = [*args.get("args", []), *CHROMIUM_FLAGS]
    return args


class Guard:
    """Records foreign requests (aborted), console errors and page errors of a context."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.foreign: list[str] = []
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []

    def is_foreign(self, url: str) -> bool:
        if url.startswith(("data:", "blob:", "about:")):
            return False
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}" != self.origin

    def block(self, route: Route) -> None:
        self.foreign.append(route.request.url)
        route.abort("blockedbyclient")

    def watch_page(self, page: Page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.text} ({message.location.get('url', '')})")

    def install(self, context: BrowserContext) -> None:
        context.route(self.is_foreign, self.block)
        for page in context.pages:
            self.watch_page(page)
        context.on("page", self.watch_page)

    def problems(self, allow_console: bool) -> list[str]:
        out = [f"request to another origin: {url}" for url in self.foreign]
        if not allow_console:
            out += [f"console error: {text}" for text in self.console_errors]
            out += [f"page error: {text}" for text in self.page_errors]
        return out


@pytest.fixture
def new_context(new_context: Callable[..., BrowserContext], site_server: SiteServer,
                request: pytest.FixtureRequest) -> Iterator[Callable[..., BrowserContext]]:
    """pytest-playwright's ``new_context`` with every context guarded (see module doc)."""
    guards: list[Guard] = []

    hold = request.node.get_closest_marker("readable_hold") is not None

    def guarded(**kwargs: Any) -> BrowserContext:
        context = new_context(**kwargs)
        if not hold:
            # A finished trick stays 1.5 s when nothing moves, and each bot's move waits its
            # beat; full games through the UI would wait minutes for them.  Tests of that
            # hold or beat carry @pytest.mark.readable_hold.
            context.add_init_script(
                "try { localStorage.setItem('jabberwocky.readableMs', '40');"
                " localStorage.setItem('jabberwocky.beatMs', '0') } catch (e) {}")
        guard = Guard(site_server.origin)
        guard.install(context)
        guards.append(guard)
        return context

    yield guarded
    allow = request.node.get_closest_marker("allow_console_errors") is not None
    problems = [p for g in guards for p in g.problems(allow)]
    if problems:
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)


# -- waiting ----------------------------------------------------------------------------


def wait_for_dataset(page: Page, key: str, value: str | tuple[str, ...],
                     timeout: float = 30.0) -> str:
    """Poll ``document.body.dataset[key]`` until it equals ``value`` (or one of them)."""
    wanted = (value,) if isinstance(value, str) else value
    deadline = time.monotonic() + timeout
    seen: str | None = None
    while True:
        seen = page.evaluate("(k) => document.body ? document.body.dataset[k] ?? null : null",
                             key)
        if seen in wanted:
            return str(seen)
        if time.monotonic() > deadline:
            raise AssertionError(f"document.body.dataset.{key} is {seen!r} after {timeout} s, "
                                 f"expected {' or '.join(wanted)}")
        page.wait_for_timeout(50)


def wait_for_phase(page: Page, phase: str | tuple[str, ...], timeout: float = 30.0) -> str:
    """Poll ``document.body.dataset.phase`` until it is ``phase`` (or one of them)."""
    return wait_for_dataset(page, "phase", phase, timeout)


def wait_for_engine(page: Page, timeout: float = 60.0) -> dict[str, Any]:
    """Wait until the engine worker is ready; returns its ready message (plus pageMs)."""
    wait_for_dataset(page, "engine", ("ready", "failed"), timeout)
    info: dict[str, Any] = page.evaluate("() => window.__jabberwocky.ready()")
    return info
