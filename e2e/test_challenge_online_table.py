"""A challenge made by a guest at the end of a real online game (issue 29), over WebRTC
between three browser profiles and the local tracker of e2e/test_online.py: the guest's
round panel offers it, the link is ``jc2.`` from the guest's own seat, and a fresh profile
opening it is told the challenger played online with friends.  Schedule 1-2, to stay short.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import SiteServer, wait_for_dataset, wait_for_phase
from playwright.sync_api import BrowserContext
from test_online import js, player, presence, tracker, wait_until
from test_online_after import join, play_to_the_end

__all__ = ["tracker"]  # the local tracker fixture, shared with e2e/test_online.py


@pytest.mark.allow_console_errors  # pages closed at the end may leave Trystero complaining
def test_a_guest_challenges_a_friend_from_their_own_seat(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        tracker: str) -> None:
    host = player(new_context, site_server, tracker, "en-GB", "Hana")
    host.goto(site_server.url + "#seed=c2-e2e&players=3&bots=medium"
              "&rules=jabberwocky,schedule:1-2")
    de = player(new_context, site_server, tracker, "de-DE", "Dora")
    bo = player(new_context, site_server, tracker, "en-GB", "Bo")
    for page in (de, bo):
        page.goto(site_server.url)
    wait_for_phase(host, ("bidding", "playing"), 120)
    host.click('[data-action="new-game"]')
    host.click('#dlg-new [data-action="online-new"]')
    host.locator("#online-seats select").first.wait_for(state="visible", timeout=10000)
    host.fill("#online-name", "Hana")
    host.click('[data-action="online-open"]')
    link = wait_until("the join link", lambda: js(
        host, "() => document.getElementById('online-link').value"), 20, host)
    join(de, link)
    wait_until("Dora connected", lambda: presence(host)[1] == "connected", 40, host)
    join(bo, link)
    wait_until("Bo connected", lambda: presence(host)[2] == "connected", 40, host)
    host.click('[data-action="online-start"]')
    for page in (de, bo):
        wait_for_dataset(page, "online", "playing", 20)
    play_to_the_end(host, [(host, False), (de, True), (bo, True)], 60)

    button = bo.locator('#round-panel [data-action="challenge-friend"]')
    button.wait_for(state="visible", timeout=30000)  # once the record came
    button.click()
    body = bo.locator("#challenge-body")
    assert body.get_attribute("data-i18n") == "makechallenge.body_online"
    bo.click('[data-action="challenge-make"]')
    bo.locator('#dlg-challenge[data-made="true"]').wait_for(timeout=30000)
    made = bo.input_value("#challenge-link")
    text = made.split("#challenge=", 1)[1]
    assert text.startswith("jc2.")
    assert host.locator('#round-panel [data-action="challenge-friend"]').is_visible()

    friend = player(new_context, site_server, tracker, "en-GB", "Eve")
    friend.goto(site_server.url + "#challenge=" + text)
    friend.locator("#dlg-invite[open]").wait_for(timeout=120000)
    note = friend.locator("#invite-online")
    assert note.get_attribute("data-online") == "true"
    assert "Bo played these deals online with friends" in note.inner_text()
    friend.click('[data-action="invite-accept"]')
    wait_for_phase(friend, ("bidding", "playing"), 30)
    seats = js(friend, "() => window.__jabberwocky.tryRequest('state', {})")["result"]["seats"]
    assert seats == ["medium", "medium", "human"]  # Bo's seat; Hana's and Dora's are bots'
