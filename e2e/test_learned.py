"""The ``learned`` level on the page: offered by name in the New game dialog, and its
bots play in the page's engine (their weights come with the engine, checked
against their digest where they load)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from conftest import SiteServer, wait_for_phase
from playwright.sync_api import BrowserContext
from pwa_helpers import settle

BOOT = 120.0


def test_learned_bots_are_offered_and_play(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    context = new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(site_server.url + "#seed=e2e-learned&players=4&bots=learned")
    wait_for_phase(page, ("bidding", "playing"), BOOT)

    def state() -> Any:
        return page.evaluate("() => window.__jabberwocky.request('state', {})")

    assert state()["seats"] == ["human", "learned", "learned", "learned"]
    # the human plays on until the bots have made every other move of the first trick
    deadline = time.monotonic() + 60
    while not state()["tricks"]:
        assert time.monotonic() < deadline, "the learned bots did not play"
        m = settle(page)
        if m["phase"] == "bidding":
            page.click("[data-bid]:not([disabled])")
        elif m["phase"] == "playing":
            page.click('#hand [data-card][aria-disabled="false"]')
    view = state()
    assert all(b is not None for b in view["bids"])
    page.keyboard.press("n")
    page.locator("#dlg-new").wait_for(state="visible")
    assert page.input_value("#bots-all") == "learned"
    labels = page.evaluate(
        "() => [...document.querySelectorAll('#bots-all option')].map(o => [o.value, o.text])")
    assert ["learned", "Learned"] in labels
    values = [v for v, _ in labels]
    assert values.index("medium") < values.index("learned") < values.index("hard")
