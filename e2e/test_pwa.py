"""Installable, offline, updatable: the PWA end to end, under the /jabberwocky/ sub-path.

- installability: manifest fields, every icon loads with its size, the service worker
  controls the page, and Chromium reports no installability error;
- offline: first visit, wait for the service worker, stop the server, go offline, reload,
  play a trick; a link with a seed (and a query string) opened offline;
- a first visit downloads Pyodide's module and standard library brotli-compressed, and
  once only (a missing or garbled .br falls back to the file itself);
- update: two builds; the new one installs in the background, the player is told, the
  game in progress is untouched until they choose to reload, then the saved game is
  restored in the new version and the old cache is gone.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Guard, SiteServer
from playwright.sync_api import BrowserContext, BrowserType, Page
from pwa_helpers import (
    cache_names,
    controlled,
    fast_prefs,
    open_game,
    play_trick,
    set_storage,
    sw_build,
    view,
    wait_controlled,
    wait_for_dataset,
)
from tools import pwa


@pytest.fixture
def server(site_server: SiteServer) -> Iterator[SiteServer]:
    """The session server, restarted and pointed back at the real site after the test."""
    site = site_server.site
    yield site_server
    site_server.stop()
    site_server.site = site
    site_server.start()


# -- installability -------------------------------------------------------------------


def test_installable(browser_type: BrowserType, browser_type_launch_args: dict[str, Any],
                     site_server: SiteServer, tmp_path: Path) -> None:
    # Chromium never offers to install from an incognito (off-the-record) context, which
    # is what browser.new_context() makes: use a real profile here.
    context = browser_type.launch_persistent_context(str(tmp_path / "profile"),
                                                     **browser_type_launch_args)
    guard = Guard(site_server.origin)
    guard.install(context)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(site_server.url)
        wait_controlled(page)
        links = page.evaluate("""() => Object.fromEntries(
            [...document.querySelectorAll('link[rel~="manifest"], link[rel~="icon"], '
              + 'link[rel="apple-touch-icon"]')].map((l) => [l.rel, l.href]))""")
        assert links["manifest"] == site_server.url + "manifest.webmanifest"
        assert links["apple-touch-icon"].startswith(site_server.url)
        manifest = page.evaluate("(u) => fetch(u).then((r) => r.json())", links["manifest"])
        assert manifest["name"] == "Jabberwocky" and manifest["short_name"]
        assert manifest["description"] and manifest["theme_color"]
        assert manifest["background_color"] and manifest["display"] == "standalone"
        assert manifest["start_url"] == "./" and manifest["scope"] == "./"
        purposes = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
        icons = [(site_server.url + i["src"], i["sizes"]) for i in manifest["icons"]]
        # The favicon link may name any of our square icons (favicon.ico is 32x32).
        favicon = links["icon"].removeprefix(site_server.url)
        icons += [(links["apple-touch-icon"], "180x180"),
                  (links["icon"], {"icons/favicon.ico": "32x32", "icons/favicon-32.png": "32x32",
                                   "icons/icon-192.png": "192x192"}.get(favicon, "?"))]
        for url, sizes in icons:
            got = page.evaluate("""async (u) => {
                const r = await fetch(u);
                const img = await createImageBitmap(await r.blob());
                return [r.status, r.headers.get("content-type"), `${img.width}x${img.height}`];
            }""", url)
            assert got[0] == 200 and got[1].startswith("image/") and got[2] == sizes, (url, got)
        cdp = context.new_cdp_session(page)
        app = cdp.send("Page.getAppManifest")
        assert app["url"] == links["manifest"] and not app["errors"], app["errors"]
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        assert sw_build(page)["cache"].startswith("jabberwocky-site-")
        scope = page.evaluate("() => navigator.serviceWorker.getRegistration()"
                              ".then((r) => [r.scope, r.active.scriptURL])")
        assert scope == [site_server.url, site_server.url + "sw.js"], scope
    finally:
        context.close()
    problems = guard.problems(allow_console=False)
    assert not problems, problems


# -- offline ---------------------------------------------------------------------------


def test_offline_after_first_visit(context: BrowserContext, page: Page,
                                   server: SiteServer) -> None:
    url = server.url
    set_storage(page, url, fast_prefs())
    open_game(page, url, "#seed=offline-test&players=4&bots=random")
    wait_controlled(page)
    build = json.loads((server.site / "build.json").read_text())["build"]
    assert sw_build(page)["build"] == build
    assert f"jabberwocky-site-{build}" in cache_names(page)

    server.stop()
    context.set_offline(True)
    try:
        page.reload()
        assert wait_for_dataset(page, "phase", ("bidding", "playing"), timeout=90)
        v = play_trick(page)
        assert v["seed"] == "offline-test"
        assert sum(v["taken"]) >= 1 or v["phase"] in ("round-over", "game-over")
        # A shared link, with a query string too, opened offline: the cached page answers.
        page.goto("about:blank")
        open_game(page, url, "?from=share#seed=friend-link&players=3&bots=random")
        v = view(page)
        assert v["seed"] == "friend-link" and v["players"] == 3
        assert "seed=friend-link" in page.evaluate("() => location.hash")
    finally:
        context.set_offline(False)


# -- a first visit's brotli-compressed module -------------------------------------------

CACHED_HASH = """async (url) => {
    for (const name of await caches.keys()) {
        if (!name.startsWith("jabberwocky-site-")) continue;
        const hit = await (await caches.open(name)).match(url);
        if (!hit) return null;
        const bytes = await hit.arrayBuffer();
        const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
        return Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
    }
    return null;
}"""


def _requested(context: BrowserContext) -> list[str]:
    urls: list[str] = []
    context.on("request", lambda request: urls.append(request.url))
    return urls


def _site_hash(server: SiteServer, rel: str = "pyodide/pyodide.asm.wasm") -> str:
    return pwa.file_hashes(server.site, [rel])[rel]


EARLY_FILES = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip")


def test_first_visit_downloads_the_module_once_compressed(
        context: BrowserContext, page: Page, server: SiteServer) -> None:
    """The page fetches pyodide.asm.wasm.br and python_stdlib.zip.br, the worker decodes
    them, and the service worker precaches the decoded files from "jabberwocky-early":
    neither file itself is ever requested, and the cached copies are the site's files
    byte for byte."""
    urls = _requested(context)
    open_game(page, server.url, "#seed=brotli-test&players=4&bots=random")
    wait_controlled(page)
    for rel in EARLY_FILES:
        assert sum(u.split("?")[0].endswith(f"/{rel}.br") for u in urls) == 1, (rel, urls)
        assert not any(u.split("?")[0].endswith(f"/{rel}") for u in urls), (rel, urls)
        assert page.evaluate(CACHED_HASH, server.url + rel) == _site_hash(server, rel), rel
    assert "jabberwocky-early" not in cache_names(page)


NO_STREAM_TRANSFER = """(() => {
    // as in Safari: a ReadableStream cannot be transferred
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (message, transfer) {
        const moved = Array.isArray(transfer) ? transfer : transfer?.transfer ?? [];
        if (moved.some((t) => t instanceof ReadableStream)) {
            throw new DOMException("ReadableStream cannot be transferred", "DataCloneError");
        }
        return post.apply(this, arguments);
    };
})();"""


def test_first_visit_where_streams_cannot_be_transferred(
        context: BrowserContext, page: Page, server: SiteServer) -> None:
    """Where the page cannot hand a download to the worker (Safari), the engine worker
    fetches both .br files itself, once each, and decodes them; the service worker then
    precaches the decoded files: neither file itself is requested."""
    context.add_init_script(NO_STREAM_TRANSFER)
    urls = _requested(context)
    open_game(page, server.url, "#seed=no-transfer&players=4&bots=random")
    started = page.evaluate("() => window.__jabberwockyEarlyDownloads")
    assert started is None, "the page started no download"
    play_trick(page)
    wait_controlled(page)
    for rel in EARLY_FILES:
        assert sum(u.split("?")[0].endswith(f"/{rel}.br") for u in urls) == 1, (rel, urls)
        assert not any(u.split("?")[0].endswith(f"/{rel}") for u in urls), (rel, urls)
        assert page.evaluate(CACHED_HASH, server.url + rel) == _site_hash(server, rel), rel


def test_a_visit_without_the_service_worker_reads_the_site_cache(
        context: BrowserContext, page: Page, server: SiteServer) -> None:
    """No service worker controls the page (here: unregistered), but the site cache is
    there: the page does not start a first visit's downloads (the compressed module and
    its decoder); the worker takes Pyodide's files as on any repeat visit."""
    open_game(page, server.url, "#seed=uncontrolled&players=4&bots=random")
    wait_controlled(page)
    page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).unregister()")
    page.goto("about:blank")
    urls = _requested(context)
    open_game(page, server.url, "#seed=uncontrolled-2&players=4&bots=random")
    assert not controlled(page)
    assert any(n.startswith("jabberwocky-site-") for n in cache_names(page))
    first_visit = [u for u in urls if u.endswith(".br") or "/vendor/brotli-dec-wasm/" in u]
    assert not first_visit, first_visit


@pytest.mark.allow_console_errors  # the 404, and Pyodide saying it fetches the module itself
@pytest.mark.parametrize(("rel", "damage"), [
    *((EARLY_FILES[0], d) for d in ("missing", "garbled", "cut short", "damaged inside")),
    *((EARLY_FILES[1], d) for d in ("missing", "cut short", "damaged inside"))])
def test_first_visit_without_a_good_compressed_file(
        context: BrowserContext, page: Page, server: SiteServer, rel: str, damage: str) -> None:
    """A .br that is missing, not brotli, cut short or damaged inside: the game still
    starts (with the file itself: fetched where the decoding stopped, compiled again when
    the decoded module does not compile, fetched anew when the decoded archive does not
    have build.json's hash) and the service worker precaches the real file."""
    good = (server.site / f"{rel}.br").read_bytes()
    middle = len(good) // 3
    bodies = {"garbled": b"\x1b\x00not brotli at all" * 500,
              "cut short": good[: len(good) // 2],
              "damaged inside": good[:middle] + bytes(4096) + good[middle + 4096:]}

    def answer(route: Any) -> None:
        if damage == "missing":
            route.fulfill(status=404, body="not here")
        else:
            route.fulfill(status=200, body=bodies[damage],
                          headers={"Content-Type": "application/octet-stream"})

    context.route(f"**/{rel}.br", answer)
    urls = _requested(context)
    open_game(page, server.url, "#seed=brotli-damaged&players=4&bots=random")
    v = play_trick(page)
    assert v["seed"] == "brotli-damaged"
    wait_controlled(page)
    assert any(u.split("?")[0].endswith(f"/{rel}") for u in urls), urls
    for each in EARLY_FILES:
        assert page.evaluate(CACHED_HASH, server.url + each) == _site_hash(server, each), each


# -- updates ---------------------------------------------------------------------------


MARK = "/* build 2 */"


def second_build(site: Path, tmp_path: Path) -> tuple[Path, str, str]:
    """A copy of ``site`` with one changed front-end file, finalized again: a new build.

    Returns the copy, its build hash and the changed file (relative)."""
    other = tmp_path / "v2"
    shutil.copytree(site, other)
    css = sorted((other / "css").glob("*.css")) if (other / "css").is_dir() else []
    target = css[0] if css else other / "js" / "update.js"
    with target.open("a") as fh:
        fh.write(f"\n{MARK}\n")
    pwa.finalize_site(other)
    build = json.loads((other / "build.json").read_text())["build"]
    return other, build, target.relative_to(other).as_posix()


def served_text(page: Page, rel: str) -> str:
    """The text the page gets for ``rel`` (through its service worker)."""
    text: str = page.evaluate("(u) => fetch(u).then((r) => r.text())", rel)
    return text


def toast_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("""() => {
        const t = document.querySelector(".update-toast");
        return {shown: !!t && !t.hidden && t.getBoundingClientRect().height > 0,
                text: t ? t.textContent : "", role: t ? t.getAttribute("role") : null};
    }""")
    return state


def test_update_flow(context: BrowserContext, page: Page, server: SiteServer,
                     tmp_path: Path) -> None:
    v1_site = server.site
    v1 = json.loads((v1_site / "build.json").read_text())["build"]
    v2_site, v2, changed = second_build(v1_site, tmp_path)
    assert v1 != v2
    # Unchanged files come from the old build's cache, not the network: build 2's server
    # does not even have Pyodide's two largest files (an install fetching them would fail).
    for name in ("pyodide.asm.wasm", "python_stdlib.zip"):
        (v2_site / "pyodide" / name).unlink()

    url = server.url
    set_storage(page, url, fast_prefs())
    open_game(page, url, "#seed=update-test&players=4&bots=random")
    wait_controlled(page)
    assert sw_build(page)["build"] == v1
    assert toast_state(page)["shown"] is False, "the first install is not an update"
    assert page.evaluate("() => document.body.dataset.update") in ("none", "installing")
    play_trick(page)
    before = view(page)
    assert before["step"] > 0
    page.evaluate("() => { window.__sameDocument = true; }")

    # Deploy build 2 and let the page look for it.
    server.stop()
    server.site = v2_site
    server.start()
    page.evaluate("async () => { const r = await navigator.serviceWorker.getRegistration();"
                  " await r.update(); }")
    wait_for_dataset(page, "update", "ready", timeout=60)
    toast = toast_state(page)
    assert toast["shown"] and "new version" in toast["text"].lower(), toast
    assert toast["role"] == "status"
    # Nothing reloaded by itself; the game and the old version are still in place.
    assert page.evaluate("() => window.__sameDocument === true")
    assert sw_build(page)["build"] == v1
    assert view(page)["step"] == before["step"]
    assert MARK not in served_text(page, changed), "the old page got a file of build 2"
    names = cache_names(page)
    assert f"jabberwocky-site-{v1}" in names and f"jabberwocky-site-{v2}" in names

    # The player chooses to reload.
    with page.expect_navigation(timeout=60_000):
        page.click("[data-action='reload-update']")
    wait_for_dataset(page, "phase", ("bidding", "playing", "round-over"), timeout=90)
    assert controlled(page) and sw_build(page)["build"] == v2
    assert MARK in served_text(page, changed)
    after = view(page)
    assert after["seed"] == before["seed"] == "update-test"
    assert after["step"] == before["step"], "the saved game must survive the update"
    assert after["scores"] == before["scores"] and after["hand"] == before["hand"]
    names = cache_names(page)
    assert f"jabberwocky-site-{v2}" in names
    assert f"jabberwocky-site-{v1}" not in names, "the old build's cache must be deleted"
    assert toast_state(page)["shown"] is False
