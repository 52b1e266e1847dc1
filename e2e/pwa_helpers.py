"""Helpers shared by the PWA, CSP and hostile-input end-to-end tests.

They drive the page only through the test contract (``document.body.dataset``, the
``data-bid`` / ``data-card`` / ``data-action`` elements) and read the engine's view
through ``window.__jabberwocky.tryRequest("state")`` (read-only) to know when a trick or
a round is over.
"""

from __future__ import annotations

import json
import time
from typing import Any

from conftest import wait_for_dataset, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

SAVE_KEY = "jabberwocky.save.v1"  # web/js/main.js
PREFS_KEY = "jabberwocky.prefs.v1"  # web/js/main.js
PLAYABLE = ("bidding", "playing", "round-over", "game-over")


def set_storage(page: Page, url: str, items: dict[str, str]) -> None:
    """Write ``items`` into the site's localStorage before the game page first loads."""
    page.goto(url + "build.json")
    page.evaluate("(items) => { for (const [k, v] of Object.entries(items)) "
                  "localStorage.setItem(k, v); }", items)


def fast_prefs() -> dict[str, str]:
    """Preferences that make bots act at once and skip the first-game tips."""
    return {PREFS_KEY: json.dumps({"prefs": {"speed": "instant", "tipsDone": True}})}


def open_game(page: Page, url: str, fragment: str = "", timeout: float = 90.0) -> str:
    """Load the game page at ``url + fragment``; wait until a game is on the table."""
    page.goto(url + fragment)
    return wait_for_phase(page, PLAYABLE, timeout)


def view(page: Page) -> dict[str, Any]:
    """The engine's current view (seat 0's), read without changing anything."""
    answer: dict[str, Any] = page.evaluate(
        "() => window.__jabberwocky.tryRequest('state', {})")
    if "result" not in answer:
        raise AssertionError(f"the engine did not answer 'state': {answer}")
    result: dict[str, Any] = answer["result"]
    return result


def controlled(page: Page) -> bool:
    return bool(page.evaluate("() => navigator.serviceWorker.controller !== null"))


def wait_controlled(page: Page, timeout: float = 60.0) -> None:
    """Wait until the service worker controls the page (it claims clients on activate)."""
    deadline = time.monotonic() + timeout
    while not controlled(page):
        if time.monotonic() > deadline:
            state = page.evaluate("async () => { const r = await navigator.serviceWorker"
                                  ".getRegistration(); return r ? [r.installing?.state, "
                                  "r.waiting?.state, r.active?.state] : 'none'; }")
            raise AssertionError(f"no service worker controls the page after {timeout} s "
                                 f"(installing, waiting, active: {state})")
        page.wait_for_timeout(100)


def sw_build(page: Page) -> dict[str, Any]:
    """{build, cache, files} from the service worker that controls the page."""
    info: dict[str, Any] = page.evaluate("""() => new Promise((resolve, reject) => {
        const sw = navigator.serviceWorker.controller;
        if (!sw) { reject(new Error("no controller")); return; }
        const channel = new MessageChannel();
        channel.port1.onmessage = (e) => resolve(e.data);
        sw.postMessage({type: "GET_BUILD"}, [channel.port2]);
        setTimeout(() => reject(new Error("the service worker did not answer")), 5000);
    })""")
    return info


def cache_names(page: Page) -> list[str]:
    names: list[str] = page.evaluate("() => caches.keys()")
    return names


def _click_first(page: Page, selector: str) -> bool:
    """Click the first visible match; False when there is none or the table moved on."""
    handle = page.query_selector(selector + ":visible")
    if handle is None:
        return False
    try:
        handle.click(timeout=2000)
    except PlaywrightError:  # redrawn meanwhile (a bot moved, a dialog opened): retry later
        return False
    return True


def act(page: Page) -> bool:
    """Make the human's move (first allowed bid or card, or the next round) if it is
    the human's turn; returns whether something was clicked."""
    phase = page.evaluate("() => document.body.dataset.phase")
    your_turn = page.evaluate("() => document.body.dataset.yourTurn") == "true"
    if phase == "bidding" and your_turn:
        return _click_first(page, "[data-bid]:not([disabled])")
    if phase == "playing" and your_turn:
        return _click_first(page, "[data-card]:not([aria-disabled='true'])")
    if phase == "round-over":
        return _click_first(page, "[data-action='next-round']")
    return False


def _progress(v: dict[str, Any]) -> tuple[int, int]:
    return int(v["round"]), sum(int(t) for t in v["taken"])


def play_trick(page: Page, timeout: float = 90.0) -> dict[str, Any]:
    """Play until one more trick is complete (bidding first if needed) and the table is
    still again (the human to act, or the round over); returns the view."""
    start = view(page)
    if start["phase"] in ("round-over", "game-over"):
        raise AssertionError(f"no trick to play in phase {start['phase']}")
    before = _progress(start)
    played = False
    deadline = time.monotonic() + timeout
    while True:
        v = view(page)
        if played and (_progress(v) > before or v["phase"] in ("round-over", "game-over")):
            # the bots may play on into the next trick: return once nothing moves
            wait_for_dataset(page, "busy", "false", timeout=max(1.0, deadline - time.monotonic()))
            return view(page)
        if time.monotonic() > deadline:
            raise AssertionError(f"no trick completed within {timeout} s; last view phase "
                                 f"{v['phase']}, to_act {v['to_act']}")
        if act(page) and v["phase"] == "playing":
            played = True
        page.wait_for_timeout(100)


def play_to_the_end(page: Page, timeout: float = 300.0) -> dict[str, Any]:
    """Play the human's moves until the game is over; returns the final view."""
    deadline = time.monotonic() + timeout
    while True:
        phase = page.evaluate("() => document.body.dataset.phase")
        if phase == "game-over":
            return view(page)
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end within {timeout} s (phase {phase})")
        if not act(page):
            page.wait_for_timeout(50)


def message_text(page: Page, timeout: float = 15.0) -> str:
    """The text of the visible message (#toast), waiting for it to appear."""
    deadline = time.monotonic() + timeout
    while True:
        text: str = page.evaluate("""() => {
            const t = document.getElementById("toast");
            return t && !t.hidden ? t.textContent.trim() : "";
        }""")
        if text:
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"no message was shown within {timeout} s")
        page.wait_for_timeout(50)


def offline(context: BrowserContext, on: bool) -> None:
    context.set_offline(on)


def marks(page: Page) -> dict[str, str]:
    """The body's test markers: phase, yourTurn, busy, step, round, handoff …"""
    data: dict[str, str] = page.evaluate("() => ({...document.body.dataset})")
    return data


def settle(page: Page, timeout: float = 60.0, handoff: bool = False) -> dict[str, str]:
    """Wait until the human must act or a round/game is over (or, with ``handoff``, a
    pass-and-play hand-off shows), with nothing in flight; the markers then."""
    deadline = time.monotonic() + timeout
    while True:
        m = marks(page)
        if m.get("busy") == "false" and (
                m.get("yourTurn") == "true" or m.get("phase") in ("round-over", "game-over")
                or (handoff and m.get("handoff") == "true")):
            return m
        if time.monotonic() > deadline:
            raise AssertionError(f"the table did not settle: {m}")
        page.wait_for_timeout(20)


def confirm_if_asked(page: Page, timeout: float = 1.5) -> bool:
    """Answer yes when the page asks before replacing a game in progress."""
    button = page.locator('#dlg-confirm [data-action="confirm-yes"]')
    try:
        button.wait_for(state="visible", timeout=timeout * 1000)
    except Exception:  # not asked: no game was in progress
        return False
    button.click()
    return True


__all__ = ["PLAYABLE", "PREFS_KEY", "SAVE_KEY", "act", "cache_names", "confirm_if_asked",
           "controlled", "fast_prefs", "marks", "message_text", "offline", "open_game",
           "play_to_the_end", "play_trick", "set_storage", "settle", "sw_build", "view",
           "wait_controlled", "wait_for_dataset", "wait_for_phase"]
