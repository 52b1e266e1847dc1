"""The committed screenshots: the README's and the install dialog's (manifest ``screenshots``).

With ``JABBERWOCKY_SCREENSHOTS=write`` (``python3 build.py screenshots``) this plays a
seeded game in Chromium to the middle of a trick in round 3 and writes
``docs/screenshots/table-wide.png`` (a desktop window) and ``table-narrow.png`` (a phone)
anew.  Otherwise it only checks that both are committed, PNGs of the sizes below: the
front end keeps changing, so they are made again on purpose, not on every run.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, SiteServer
from playwright.sync_api import BrowserContext, Page
from pwa_helpers import settle
from test_game import engine_view, open_table, wait_changed
from tools.pwa import png_size

SHOTS = ROOT / "docs" / "screenshots"
SIZES = {"table-wide.png": (1280, 800), "table-narrow.png": (390, 844)}
SEED = "#seed=jabberwocky-readme&players=4&bots=medium"
WRITE = os.environ.get("JABBERWOCKY_SCREENSHOTS") == "write"


def play_to_a_trick_in_round_3(page: Page) -> None:
    """The human bids and plays the first thing allowed until, in round 3, at least two
    cards lie on the table with the human to play: a deterministic position (seeded deal,
    seeded bots, the same choices)."""
    for _ in range(200):
        m = settle(page)
        if m["phase"] == "round-over":
            page.click('[data-action="next-round"]')
        elif m["phase"] == "bidding":
            page.click("[data-bid]:not([disabled])")
        elif m["phase"] == "playing":
            view = engine_view(page)
            if int(m["round"]) >= 3 and len(view["trick"]["cards"]) >= 2:
                return
            page.click('#hand [data-card][aria-disabled="false"]')
        else:
            raise AssertionError(f"unexpected phase before round 3: {m}")
        wait_changed(page, m)
    raise AssertionError("round 3 was not reached within 200 actions")


@pytest.mark.skipif(not WRITE, reason="writes the screenshots only when asked "
                    "(python3 build.py screenshots); test_committed_screenshots checks them")
@pytest.mark.parametrize("name", sorted(SIZES))
def test_write_screenshot(name: str, new_context: Callable[..., BrowserContext],
                          site_server: SiteServer) -> None:
    width, height = SIZES[name]
    page = open_table(new_context, site_server, SEED, {"width": width, "height": height})
    play_to_a_trick_in_round_3(page)
    page.wait_for_timeout(300)  # let the last frame paint
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))
    assert png_size((SHOTS / name).read_bytes()) == (width, height)


@pytest.mark.parametrize("name", sorted(SIZES))
def test_committed_screenshots(name: str) -> None:
    path = SHOTS / name
    assert path.is_file(), f"{path} is missing: make it with python3 build.py screenshots"
    assert png_size(path.read_bytes()) == SIZES[name]
    assert path.stat().st_size > 10_000, "a real screenshot, not an empty image"


def test_readme_shows_the_wide_screenshot() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/screenshots/table-wide.png)" in readme
    assert Path(SHOTS / "table-wide.png").relative_to(ROOT).as_posix() in readme
