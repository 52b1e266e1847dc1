"""The runtime in Chromium: the Pyodide worker under a sub-path, the protocol, snapshots.

Driven through ``window.__jabberwocky`` (created by ``web/js/engine.js``) so these tests
do not depend on the table UI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SiteServer, wait_for_dataset, wait_for_engine
from playwright.sync_api import BrowserContext, Page

BOOT_TIMEOUT = 120.0
SNAPSHOT_CACHE = "jabberwocky-snapshot"


def cli_deal(seed: str, players: int) -> Any:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-m", "jabberwocky", "deal", "--seed", seed, "--players",
         str(players), "--json"], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def request(page: Page, kind: str, payload: dict[str, Any] | None = None) -> Any:
    """{result} or {error: {kind, message}} of one request."""
    return page.evaluate("([k, p]) => window.__jabberwocky.tryRequest(k, p)",
                         [kind, payload or {}])


def test_worker_boots_under_the_subpath_and_answers(page: Page, site_server: SiteServer,
                                                    site_dir: Path) -> None:
    urls: list[str] = []  # requests of the page and its worker (not the service worker's)
    page.context.on("request", lambda r: None if r.service_worker else urls.append(r.url))
    page.goto(site_server.url)
    info = wait_for_engine(page, BOOT_TIMEOUT)
    build = json.loads((site_dir / "build.json").read_text())
    assert info["pyodide"] == build["pyodide"]
    assert info["build"] == build["build"]
    assert info["snapshot"] == "none"  # fresh profile: nothing stored yet

    view = request(page, "new_game", {"seed": "e2e deal", "players": 4, "bots": "random"})
    view = view["result"]
    assert view["seed"] == "e2e deal" and view["players"] == 4
    assert view["phase"] == "bidding" and len(view["hand"]) == 3
    assert view["record_version"] == "jabberwocky-game/1"

    for seed, players in (("e2e deal", 4), ("ünïcode ♣", 5)):
        deal = request(page, "deal", {"seed": seed, "players": players})["result"]
        assert deal == cli_deal(seed, players)
        expected_hand = set(deal["rounds"][0]["hands"][0])
        if seed == "e2e deal":
            assert set(view["hand"]) == expected_hand

    bad = request(page, "new_game", {"players": 9, "bots": "random"})
    assert bad["error"]["kind"] == "SeedError" and "choose 3, 4 or 5" in bad["error"]["message"]
    bad = request(page, "teleport")
    assert bad["error"]["kind"] == "RequestError"
    bad = request(page, "import_record", {"record": "{\"format\": 1}"})
    assert bad["error"]["kind"] == "RecordError"

    events = page.evaluate("() => window.__jabberwocky.events")
    fractions = [e["fraction"] for e in events if e["type"] == "progress"]
    assert fractions[0] == 0 and fractions[-1] == 1
    assert fractions == sorted(fractions) and len(set(fractions)) >= 5
    assert [e["type"] for e in events].count("ready") == 1

    worker_files = {"worker.js", "build.json", "pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm",
                    "pyodide/python_stdlib.zip", build["wheel"]}
    fetched = {u[len(site_server.url):].split("?")[0] for u in urls}
    assert worker_files <= fetched, worker_files - fetched
    outside = [u for u in urls if not u.startswith(site_server.url)]
    assert not outside, f"requests outside the sub-path: {outside}"
    assert "wheels/micropip" not in " ".join(urls)  # micropip stays off the start path
    # js/early.js starts the worker and engine.js adopts it: one worker, one Pyodide
    assert sum(u.split("?")[0].endswith("/worker.js") for u in urls) == 1
    assert sum(u.split("?")[0].endswith("/pyodide.asm.wasm") for u in urls) == 1


def _corrupt(page: Page, how: str) -> None:
    """Damage the stored snapshot in one of several ways (runs in the page)."""
    page.evaluate(
        """async ([name, how]) => {
            const cache = await caches.open(name);
            const keys = await cache.keys();
            if (keys.length !== 1) throw new Error(`expected one snapshot, found ${keys.length}`);
            const old = await cache.match(keys[0]);
            const bytes = new Uint8Array(await old.arrayBuffer());
            const headers = new Headers(old.headers);
            if (how === "flipped") {
                bytes[bytes.length >> 1] ^= 0xff;          // digest no longer matches
            } else if (how === "garbage" || how === "scrambled-heap") {
                // "scrambled-heap" keeps the header (magic number, build id) intact
                const from = how === "garbage" ? 0 : 1 << 20;
                for (let i = from; i < bytes.length; i += 65536) {
                    crypto.getRandomValues(bytes.subarray(i, Math.min(bytes.length, i + 65536)));
                }
                const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
                headers.set("x-digest", Array.from(hash.subarray(0, 16),
                    (b) => b.toString(16).padStart(2, "0")).join(""));
            } else if (how === "truncated") {
                headers.set("x-length", String(bytes.length));
                await cache.put(keys[0], new Response(bytes.subarray(0, 4096), {headers}));
                return;
            } else if (how === "other-build") {
                headers.set("x-build", "0000000000000000");
            }
            await cache.put(keys[0], new Response(bytes, {headers}));
        }""",
        [SNAPSHOT_CACHE, how],
    )


def _stored_digest(page: Page) -> str | None:
    return page.evaluate(
        """async (name) => {
            const cache = await caches.open(name);
            const keys = await cache.keys();
            if (!keys.length) return null;
            return (await cache.match(keys[0])).headers.get("x-digest");
        }""", SNAPSHOT_CACHE)


def _visit(page: Page, url: str) -> dict[str, Any]:
    page.goto(url)
    info = wait_for_engine(page, BOOT_TIMEOUT)
    # a request proves the engine answers (and, on a normal start, schedules the snapshot)
    view = request(page, "new_game", {"seed": "snap", "players": 3, "bots": "random"})
    assert view["result"]["phase"] == "bidding"
    return info


def test_snapshot_is_used_on_the_next_visit_and_bad_ones_fall_back(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    context = new_context()
    page = context.new_page()
    first = _visit(page, site_server.url)
    assert first["snapshot"] == "none"
    wait_for_dataset(page, "snapshot", "made", BOOT_TIMEOUT)

    second = _visit(page, site_server.url)
    assert second["snapshot"] == "used"
    assert page.evaluate("document.body.dataset.snapshot") == "used"
    # modules not imported before the snapshot still load (the wheel is unpacked again)
    deal = request(page, "deal", {"seed": "after restore", "players": 3})["result"]
    assert deal == cli_deal("after restore", 3)

    for how, expected in (("flipped", "failed"), ("garbage", "failed"),
                          ("scrambled-heap", "failed"), ("truncated", "failed"),
                          ("other-build", "none")):
        _corrupt(page, how)
        bad_digest = _stored_digest(page)
        info = _visit(page, site_server.url)
        assert info["snapshot"].split(":")[0] == expected, (how, info)
        if how in ("garbage", "scrambled-heap"):  # got past the digest: Pyodide refused it
            assert "digest" not in info["snapshot"], info
        if expected == "failed":
            assert page.evaluate("document.body.dataset.snapshot") == "failed"
        # the bad copy is gone: the worker stores a fresh one, which the next visit uses
        wait_for_dataset(page, "snapshot", "made", BOOT_TIMEOUT)
        assert _stored_digest(page) not in (None, bad_digest) or how == "other-build"
        again = _visit(page, site_server.url)
        assert again["snapshot"] == "used", (how, again)


@pytest.mark.allow_console_errors  # the refused file is logged by the browser
def test_a_worker_that_cannot_start_says_why(page: Page, site_server: SiteServer) -> None:
    page.context.route("**/wheels/jabberwocky-*.whl", lambda route: route.fulfill(status=404))
    page.goto(site_server.url)
    assert wait_for_dataset(page, "engine", ("ready", "failed"), BOOT_TIMEOUT) == "failed"
    failed = [e for e in page.evaluate("() => window.__jabberwocky.events")
              if e["type"] == "failed"]
    assert failed and "engine wheel" in failed[0]["message"] and "404" in failed[0]["message"]
    err = request(page, "state")["error"]
    assert err["kind"] == "InternalError" and "engine wheel" in err["message"]


def test_a_snapshot_that_restores_too_slowly_is_dropped(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    context = new_context()
    page = context.new_page()
    _visit(page, site_server.url)
    wait_for_dataset(page, "snapshot", "made", BOOT_TIMEOUT)
    # a 1 ms limit: the page gives up on the restore, replaces the worker, drops the copy
    page.evaluate("() => localStorage.setItem('jabberwocky.restoreTimeoutMs', '1')")
    info = _visit(page, site_server.url)
    assert info["snapshot"].startswith("failed: restoring the snapshot took too long"), str(info)
    assert page.evaluate("document.body.dataset.snapshot") == "failed"
    page.evaluate("() => localStorage.removeItem('jabberwocky.restoreTimeoutMs')")
    wait_for_dataset(page, "snapshot", "made", BOOT_TIMEOUT)
    assert _visit(page, site_server.url)["snapshot"] == "used"
