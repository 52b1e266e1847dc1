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
SNAPSHOT_FILE = "jabberwocky-snapshot.bin"


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
    assert bad["error"]["kind"] == "SeedError" and "choose 3 to 5" in bad["error"]["message"]
    assert bad["error"]["code"] == "table.players"
    bad = request(page, "teleport")
    assert bad["error"]["kind"] == "RequestError"
    bad = request(page, "import_record", {"record": "{\"format\": 1}"})
    assert bad["error"]["kind"] == "RecordError"

    events = page.evaluate("() => window.__jabberwocky.events")
    fractions = [e["fraction"] for e in events if e["type"] == "progress"]
    assert fractions[0] == 0 and fractions[-1] == 1
    assert fractions == sorted(fractions) and len(set(fractions)) >= 5
    # Past the downloads' share of the bar (0.6), the words say what happens next: chunks
    # that arrive after the module is compiled do not bring "Downloading…" back.
    late = [e["key"] for e in events if e["type"] == "progress" and e["fraction"] > 0.6]
    assert late and "loading.downloading" not in late, late
    assert all(e["key"].startswith("loading.") for e in events if e["type"] == "progress")
    assert [e["type"] for e in events].count("ready") == 1

    # a first visit: Pyodide's module and standard library come brotli-compressed
    # (js/early.js, worker/brotli.js)
    worker_files = {"worker.js", "build.json", "pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm.br",
                    "vendor/brotli-dec-wasm/brotli_dec_wasm_bg.wasm",
                    "pyodide/python_stdlib.zip.br"}
    fetched = {u[len(site_server.url):].split("?")[0] for u in urls}
    assert worker_files <= fetched, worker_files - fetched
    # the engine comes inside the standard library's first archive: no wheel to fetch
    assert build["wheel"] not in fetched and not any("/wheels/" in u for u in urls)
    outside = [u for u in urls if not u.startswith(site_server.url)]
    assert not outside, f"requests outside the sub-path: {outside}"
    assert "wheels/micropip" not in " ".join(urls)  # micropip stays off the start path
    # js/early.js starts the worker and engine.js adopts it: one worker, one Pyodide
    assert sum(u.split("?")[0].endswith("/worker.js") for u in urls) == 1
    assert sum(u.split("?")[0].endswith("/pyodide/pyodide.mjs") for u in urls) == 1
    assert sum(u.split("?")[0].endswith("/pyodide.asm.wasm.br") for u in urls) == 1
    assert sum(u.split("?")[0].endswith("/pyodide.asm.wasm") for u in urls) == 0  # not twice
    assert sum(u.split("?")[0].endswith("/python_stdlib.zip.br") for u in urls) == 1
    assert sum(u.split("?")[0].endswith("/python_stdlib.zip") for u in urls) == 0


def test_small_wasm_modules_are_compiled_once_per_content(page: Page,
                                                         site_server: SiteServer) -> None:
    """web/worker.js shares one compiled module among equal small ones (Pyodide compiles
    ~260 tiny wrapper modules per start, ~30 different); others are compiled as asked."""
    page.goto(site_server.url)
    wait_for_engine(page, BOOT_TIMEOUT)
    worker = next(w for w in page.workers if w.url.split("?")[0].endswith("/worker.js"))
    checks = worker.evaluate("""() => {
        const empty = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
        // one custom section ("x", one byte): another module, and customSections still works
        const custom = new Uint8Array([...empty, 0, 3, 1, 120, 7]);
        const big = new Uint8Array(8 + 3 + 2002);  // a 2002-byte custom section: over the limit
        big.set(empty);
        big.set([0, 0xd2, 0x0f, 1, 120], 8);
        const a = new WebAssembly.Module(empty);
        let withoutNew = "no error";
        try { WebAssembly.Module(empty); } catch (err) { withoutNew = err.name; }
        const c = new WebAssembly.Module(custom);
        return {
            same: a === new WebAssembly.Module(empty.slice()),
            sameFromBuffer: a === new WebAssembly.Module(empty.slice().buffer),
            other: a !== c,
            section: new Uint8Array(WebAssembly.Module.customSections(c, "x")[0])[0],
            instance: a instanceof WebAssembly.Module,
            instances: new WebAssembly.Instance(a) !== new WebAssembly.Instance(a),
            bigApart: new WebAssembly.Module(big) !== new WebAssembly.Module(big),
            withoutNew,
        };
    }""")
    assert checks == {"same": True, "sameFromBuffer": True, "other": True, "section": 7,
                      "instance": True, "instances": True, "bigApart": True,
                      "withoutNew": "TypeError"}, checks


# The stored snapshot (see web/snapshot-file.js): a file in the origin-private file system,
#   "JBWSNAP1" | u32 n | n bytes of JSON meta {…, digest} | body (page table + pages).
_SNAPSHOT_JS = """
const snapshotFile = async () => (await navigator.storage.getDirectory()).getFileHandle(name);
const readSnapshot = async () => {
    const bytes = new Uint8Array(await (await (await snapshotFile()).getFile()).arrayBuffer());
    const n = new DataView(bytes.buffer).getUint32(8, true);
    const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + n)));
    return {bytes, meta, body: bytes.slice(12 + n)};
};
const writeSnapshot = async (meta, body) => {
    const json = new TextEncoder().encode(JSON.stringify(meta));
    const out = new Uint8Array(12 + json.length + body.length);
    out.set(new TextEncoder().encode("JBWSNAP1"));
    new DataView(out.buffer).setUint32(8, json.length, true);
    out.set(json, 12);
    out.set(body, 12 + json.length);
    await writeBytes(out);
};
const writeBytes = async (bytes) => {
    const writable = await (await snapshotFile()).createWritable();
    await writable.write(bytes);
    await writable.close();
};
const digestOf = async (bytes) => Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).subarray(0, 16),
    (b) => b.toString(16).padStart(2, "0")).join("");
"""


def _corrupt(page: Page, how: str) -> None:
    """Damage the stored snapshot in one of several ways (runs in the page)."""
    page.evaluate(
        "async ([name, how]) => {" + _SNAPSHOT_JS + """
            const {bytes, meta, body} = await readSnapshot();
            if (how === "flipped") {
                body[body.length >> 1] ^= 0xff;            // digest no longer matches
            } else if (how === "garbage") {                // not even the format
                for (let i = 0; i < bytes.length; i += 65536) {
                    crypto.getRandomValues(bytes.subarray(i, Math.min(bytes.length, i + 65536)));
                }
                return writeBytes(bytes);
            } else if (how === "scrambled-heap") {
                // the format, the page table and the digest are right; the memory is not
                for (let i = meta.runs * 8 + (1 << 20); i < body.length; i += 65536) {
                    crypto.getRandomValues(body.subarray(i, Math.min(body.length, i + 65536)));
                }
                meta.digest = await digestOf(body);
            } else if (how === "truncated") {
                return writeBytes(bytes.subarray(0, 4096));
            } else if (how === "other-build") {
                meta.build = "0000000000000000";
            }
            await writeSnapshot(meta, body);
        }""",
        [SNAPSHOT_FILE, how],
    )


def _stored_digest(page: Page) -> str | None:
    return page.evaluate(
        "async (name) => {" + _SNAPSHOT_JS + """
            try {
                return (await readSnapshot()).meta.digest;
            } catch {
                return null;  // none stored, or not readable as one
            }
        }""", SNAPSHOT_FILE)


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
    # every engine module was imported before the snapshot: a request the first view
    # never makes still works
    deal = request(page, "deal", {"seed": "after restore", "players": 3})["result"]
    assert deal == cli_deal("after restore", 3)

    for how, expected in (("flipped", "failed"), ("garbage", "failed"),
                          ("scrambled-heap", "failed"), ("truncated", "failed"),
                          ("other-build", "none")):
        _corrupt(page, how)
        bad_digest = _stored_digest(page)
        info = _visit(page, site_server.url)
        assert info["snapshot"].split(":")[0] == expected, (how, info)
        if how == "scrambled-heap":  # got past the digest: Pyodide refused it
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
    # build.json cannot be had: the worker cannot tell which build it runs
    page.context.route("**/build.json", lambda route: route.fulfill(status=404))
    page.goto(site_server.url)
    assert wait_for_dataset(page, "engine", ("ready", "failed"), BOOT_TIMEOUT) == "failed"
    failed = [e for e in page.evaluate("() => window.__jabberwocky.events")
              if e["type"] == "failed"]
    assert failed and "build.json" in failed[0]["message"] and "404" in failed[0]["message"]
    err = request(page, "state")["error"]
    assert err["kind"] == "InternalError" and "build.json" in err["message"]


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


_HOLDER_PAGE = """<!doctype html><meta charset="utf-8"><title>holder</title>
<script src="e2e-holder-page.js"></script>"""
_HOLDER_PAGE_JS = """const worker = new Worker("e2e-holder.js");
worker.onmessage = (e) => { document.documentElement.dataset.holder = e.data; };
window.release = () => worker.postMessage("release");"""
_HOLDER_WORKER_JS = """(async () => {
    const root = await navigator.storage.getDirectory();
    const handle = await (await root.getFileHandle("%s")).createSyncAccessHandle();
    self.onmessage = () => { handle.close(); self.postMessage("released"); };
    self.postMessage("held");
})().catch((err) => self.postMessage("failed: " + err.name));"""


def test_a_snapshot_another_tab_has_open_is_left_alone(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        site_dir: Path) -> None:
    # another tab of the game reading or writing the snapshot holds the file's lock: a
    # visit at that moment starts normally, keeps the file and does not write one
    context = new_context()
    page = context.new_page()
    _visit(page, site_server.url)
    wait_for_dataset(page, "snapshot", "made", BOOT_TIMEOUT)
    made = _stored_digest(page)
    files = {"e2e-holder.html": _HOLDER_PAGE, "e2e-holder-page.js": _HOLDER_PAGE_JS,
             "e2e-holder.js": _HOLDER_WORKER_JS % SNAPSHOT_FILE}
    for name, text in files.items():
        (site_dir / name).write_text(text)
    try:
        holder = context.new_page()
        holder.goto(site_server.url + "e2e-holder.html")
        holder.wait_for_function("document.documentElement.dataset.holder", timeout=30_000)
        assert holder.evaluate("document.documentElement.dataset.holder") == "held"

        info = _visit(page, site_server.url)
        assert info["snapshot"] == "none", info
        page.wait_for_timeout(2500)  # longer than the worker's idle wait before a snapshot
        assert page.evaluate("document.body.dataset.snapshot") == "none"

        holder.evaluate("window.release()")
        holder.wait_for_function("document.documentElement.dataset.holder === 'released'")
        assert _stored_digest(page) == made
        assert _visit(page, site_server.url)["snapshot"] == "used"
    finally:
        for name in files:
            (site_dir / name).unlink(missing_ok=True)
