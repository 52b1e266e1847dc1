"""A challenge made of an online game (``jc2.``), opened in a fresh profile: the invitation
says plainly that the challenger played with friends online, the friend plays the same
deals from that seat against bots, the final comparison says it again, and passing it on
keeps the online game in the chain.

The link is made by the engine here (a 3-player game of people, schedule 1-2), as the
host's or a guest's page makes it (``challenge_encode {seat}``, tests/test_challenge_online.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from conftest import SiteServer, wait_for_phase
from playwright.sync_api import BrowserContext
from pwa_helpers import view
from test_friends import BOOT, play_round, profile

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from test_challenge import bot_game  # noqa: E402

from jabberwocky.core.rules import Ruleset  # noqa: E402
from jabberwocky.formats.challenge import Challenge, decode  # noqa: E402


def online_link() -> str:
    game = bot_game("e2e-online-challenge", 3, Ruleset((1, 2), name="short"),
                    seats=["human"] * 3)
    return Challenge.of_game(game, "Jonas", seat=1).text


def test_an_online_games_challenge_is_played_against_bots_and_says_so(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    text = online_link()
    page = profile(new_context, site_server)
    page.goto(site_server.url + "#challenge=" + text)
    page.locator("#dlg-invite[open]").wait_for(timeout=BOOT * 1000)
    note = page.locator("#invite-online")
    assert note.is_visible() and note.get_attribute("data-online") == "true"
    assert "Jonas played these deals online with friends" in note.inner_text()
    assert "Medium" in note.inner_text() or "medium" in note.inner_text()
    page.fill("#invite-name", "Bo")
    page.click('[data-action="invite-accept"]')
    wait_for_phase(page, ("bidding", "playing"), 30)
    now = view(page)  # the page's own seat is the challenger's (seat 1 of 3), bots elsewhere
    assert now["viewer"] == 1 and now["seats"] == ["medium", "human", "medium"]
    play_round(page)
    page.click('#round-panel [data-action="next-round"]')
    wait_for_phase(page, ("bidding", "playing"), 30)
    end = play_round(page)
    assert end["phase"] == "game-over"
    final = page.locator('[data-challenge="final"]')
    assert "online with friends" in final.inner_text()
    page.click('#round-panel [data-action="challenge-friend"]')
    page.click('[data-action="challenge-make"]')
    page.locator('#dlg-challenge[data-made="true"]').wait_for(timeout=30_000)
    passed = page.input_value("#challenge-link").split("#challenge=", 1)[1]
    assert passed.startswith("jc2.")
    chain = decode(passed)
    assert [r.name for r in chain.results] == ["Jonas", "Bo"]
    assert [bool(r.people) for r in chain.results] == [True, False]

