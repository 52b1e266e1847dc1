"""A repeat visit paints the saved table before the engine is up (web/js/main.js
paintSavedView, web/js/save.js peekSavedView), refuses every input until the engine has
taken the game back, then plays on; a saved view that differs from the engine's gives way
to the engine's at once; a damaged saved view is ignored and loses nothing.

The engine is held back by holding the page's requests to the worker (an init script
wraps ``Worker.prototype.postMessage``; ``window.__releaseEngine()`` sends them): the
worker boots, but the saved game is not taken back until the test says so.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from conftest import SiteServer, wait_for_dataset, wait_for_phase
from playwright.sync_api import BrowserContext, Page

GAME = "#seed=paint&players=4&bots=random"
SAVE_KEY = "jabberwocky.save.v1"

HOLD_ENGINE = """
(() => {
  const post = Worker.prototype.postMessage;
  const held = [];
  let released = false;
  Worker.prototype.postMessage = function (...args) {
    if (released || args[0]?.type === "early") return post.apply(this, args);
    held.push([this, args]);
  };
  window.__releaseEngine = () => {
    released = true;
    for (const [worker, args] of held.splice(0)) post.apply(worker, args);
  };
})();
"""

PAINTED = ("() => performance.getEntriesByName('jabberwocky:painted').length")


def _saved(page: Page) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(page.evaluate(f"localStorage.getItem('{SAVE_KEY}')"))
    return value


def _first_visit(context: BrowserContext, url: str) -> dict[str, Any]:
    """A game with one bid made; returns the save it left."""
    page = context.new_page()
    page.goto(url + GAME)
    wait_for_phase(page, "bidding", 120)
    wait_for_dataset(page, "yourTurn", "true")
    page.click("[data-bid]:not([disabled])")
    wait_for_dataset(page, "yourTurn", "true", 60)  # the bots bid; your first card
    page.wait_for_timeout(300)  # the save after the last transition
    saved = _saved(page)
    assert saved["view"]["step"] == int(page.evaluate("document.body.dataset.step"))
    page.close()
    return saved


def _held_visit(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    page.add_init_script(HOLD_ENGINE)
    page.goto(url + GAME)
    wait_for_dataset(page, "preview", "saved", 60)
    for _ in range(100):  # polled: the page's CSP refuses wait_for_function
        if page.evaluate(PAINTED):
            break
        page.wait_for_timeout(50)
    assert page.evaluate(PAINTED) == 1
    return page


def test_the_saved_table_is_painted_at_once_and_refuses_input_until_the_engine_is_up(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    context = new_context(reduced_motion="reduce", viewport={"width": 390, "height": 844})
    saved = _first_visit(context, site_server.url)
    page = _held_visit(context, site_server.url)
    body = "() => ({...document.body.dataset})"
    data = page.evaluate(body)
    # the engine's own earlier view, drawn: its step and round, nothing playable
    assert data["step"] == str(saved["view"]["step"]) and data["round"] == "1", data
    assert data["yourTurn"] == "false" and data["busy"] == "true", data
    assert data["phase"] == "loading", data  # data-phase waits for the engine
    assert page.is_hidden("#loading")
    table = page.evaluate("() => window.__jabberwocky.table().view")
    assert table == saved["view"]
    hand = page.locator("#hand [data-card]")
    assert hand.count() == len(saved["view"]["hand"])
    # every input refused: a tap on a card, the keys, the toolbar
    box = hand.first.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.press("n")  # would open New game
    page.keyboard.press("h")  # would ask for a hint
    page.wait_for_timeout(400)
    assert page.evaluate("() => window.__jabberwocky.log.length") == 0
    assert page.evaluate("document.querySelector('#dlg-new').open") is False
    assert page.evaluate(body)["step"] == str(saved["view"]["step"])
    assert page.evaluate("document.querySelector('main#table').inert") is True
    # the engine takes the game back: the same view, and play goes on
    page.evaluate("window.__releaseEngine()")
    wait_for_dataset(page, "preview", ("agreed", "replaced"), 60)
    assert page.evaluate("document.body.dataset.preview") == "agreed"
    wait_for_dataset(page, "yourTurn", "true", 60)
    assert page.evaluate("document.querySelector('main#table').inert") is False
    step = int(page.evaluate("document.body.dataset.step"))
    page.locator("#hand [data-card]:not([aria-disabled='true'])").first.click()
    for _ in range(200):
        if int(page.evaluate("document.body.dataset.step")) > step:
            break
        page.wait_for_timeout(50)
    assert int(page.evaluate("document.body.dataset.step")) > step


def test_a_saved_view_unlike_the_engines_gives_way_and_a_damaged_one_is_ignored(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    context = new_context(reduced_motion="reduce")
    saved = _first_visit(context, site_server.url)
    page = context.new_page()
    page.goto(site_server.url + "#lang=en")  # not the game's link: nothing resumes early
    wait_for_phase(page, ("bidding", "playing"), 60)
    # a view the engine would not show (other scores): drawn, then replaced at once
    other = dict(saved, view={**saved["view"], "scores": [99, 0, 0, 0]})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [SAVE_KEY, json.dumps(other)])
    page.close()
    page = _held_visit(context, site_server.url)
    assert page.evaluate("() => window.__jabberwocky.table().view.scores") == [99, 0, 0, 0]
    page.evaluate("window.__releaseEngine()")
    wait_for_dataset(page, "preview", ("agreed", "replaced"), 60)
    assert page.evaluate("document.body.dataset.preview") == "replaced"
    assert page.evaluate("() => window.__jabberwocky.table().view.scores") == [0, 0, 0, 0]
    wait_for_dataset(page, "yourTurn", "true", 60)
    page.close()
    # damaged views (every shape is in tests/web/save.test.mjs): none is drawn, the record
    # alone resumes the game where it stood
    for damage in ({"phase": "bidding", "players": "four"}, {**saved["view"], "seed": "another"}):
        page = context.new_page()
        page.goto(site_server.url + "#lang=en")
        wait_for_phase(page, ("bidding", "playing"), 60)
        page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                      [SAVE_KEY, json.dumps(dict(saved, view=damage))])
        page.close()
        page = context.new_page()
        page.goto(site_server.url + GAME)
        wait_for_dataset(page, "yourTurn", "true", 60)
        assert page.evaluate(PAINTED) == 0, damage
        assert page.evaluate("document.body.dataset.preview ?? null") is None, damage
        assert page.evaluate("document.body.dataset.step") == str(saved["view"]["step"]), damage
        assert _saved(page)["record"] == saved["record"]
        page.close()
