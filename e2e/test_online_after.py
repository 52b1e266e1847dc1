"""After an online game, and a seat changing hands (issue 29), over WebRTC between three
browser profiles and a local tracker (the fixtures of e2e/test_online.py).

A host (English) and two friends (German, English) sit at a table of three; a fourth
(Czech) finds it full and watches.  In round 1 a friend leaves: the host lets a bot stand in,
the watcher is offered the seat and takes it (their hand comes, their turns are theirs); the
friend who left comes back and watches, told why.  At the end every person with a seat keeps
the game in their statistics from their own seat, marked online; the one who watched gets the
record too; the host plays again at the same table and every page goes to the new deal by
itself.  One test, a short schedule (1-2), to keep it near a minute.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import SiteServer, wait_for_dataset, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from test_online import act, js, player, presence, table_view, tracker, wait_until

__all__ = ["tracker"]  # the local tracker fixture, shared with e2e/test_online.py

KEPT = """async () => {
  // the statistics' store (web/js/stats/store.js), read as it is; none yet: nothing kept
  if (!(await indexedDB.databases()).some((d) => d.name === "jabberwocky-games")) return [];
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open("jabberwocky-games");
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const all = await new Promise((ok) => {
    const r = db.transaction("games").objectStore("games").getAll();
    r.onsuccess = () => ok(r.result); });
  db.close();
  return all.map((e) => ({ me: e.facts.me ?? 0, online: Boolean(e.facts.online),
                           scores: e.facts.scores }));
}"""


def online_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = js(page, "() => window.__jabberwocky.online.table.state()")
    return state


def toast(page: Page) -> str:
    text: str = js(page, "() => document.getElementById('toast').textContent")
    return text


def join(page: Page, link: str) -> None:
    page.goto(link)  # the page is open already (its engine loaded): the hash changes
    wait_for_dataset(page, "engine", "ready", 120)
    # the join screen opens on the link (its code loads first); the host is looked for
    # only once the button is pressed
    page.locator('[data-action="online-join"]').wait_for(state="visible", timeout=20000)
    page.click('[data-action="online-join"]')


def shots(page: Page, name: str) -> None:
    """JABBERWOCKY_SHOTS=<dir>: screenshots of ``page`` at three sizes, to look at."""
    folder = os.environ.get("JABBERWOCKY_SHOTS")
    if not folder:
        return
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844},
                 {"width": 844, "height": 390}):
        page.set_viewport_size(size)
        page.wait_for_timeout(300)
        page.screenshot(path=f"{folder}/after-{name}-{size['width']}.png")
    page.set_viewport_size({"width": 1280, "height": 800})


def play_to_the_end(host: Page, people: list[tuple[Page, bool]], limit: float) -> None:
    deadline = time.monotonic() + limit
    while js(host, "() => document.body.dataset.phase") != "game-over":
        assert time.monotonic() < deadline, "the online game did not end"
        moved = False
        for page, is_guest in people:
            moved = act(page, is_guest) or moved
        if not moved:
            host.wait_for_timeout(40)


@pytest.mark.allow_console_errors  # a page closed mid-game may leave Trystero complaining
def test_a_seat_changes_hands_and_the_table_plays_again(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        tracker: str) -> None:
    began = time.monotonic()
    marks: list[str] = []

    def mark(what: str) -> None:
        marks.append(f"{what} {time.monotonic() - began:.0f} s")
    host = player(new_context, site_server, tracker, "en-GB", "Hana")
    host.goto(site_server.url + "#seed=after-e2e&players=3&bots=medium"
              "&rules=jabberwocky,schedule:1-2")
    # the friends' pages load their engines meanwhile (a table against bots, for now)
    de = player(new_context, site_server, tracker, "de-DE", "Dora")
    bo = player(new_context, site_server, tracker, "en-GB", "Bo")
    cz = player(new_context, site_server, tracker, "cs-CZ", "Vilém")
    for page in (de, bo, cz):
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
    join(cz, link)
    wait_for_dataset(cz, "online", "full", 40)
    mark("seated")
    host.click('[data-action="online-start"]')
    for page in (de, bo):
        wait_for_dataset(page, "online", "playing", 20)
    wait_for_dataset(cz, "online", "watching", 20)
    wait_for_phase(cz, ("bidding", "playing"), 20)
    assert not js(cz, "() => document.querySelector('[data-action=\"online-take-seat\"]')"
                      ".offsetParent"), "no seat to take while every friend is there"

    mark("started")
    # Bo leaves in round 1; the host lets a bot play for him
    bo_context = bo.context
    bo.close()
    wait_until("Bo away", lambda: presence(host)[2] in ("reconnecting", "gone"), 30, host)
    stand_in = host.locator('#online-bar [data-action="online-stand-in"]')
    stand_in.wait_for(state="visible", timeout=10000)
    stand_in.click()
    wait_until("the bot stands in", lambda: presence(host)[2] == "stand_in", 10, host)

    # the watcher is offered the seat, in Czech, and takes it
    take = cz.locator('#online-bar [data-action="online-take-seat"]')
    take.wait_for(state="visible", timeout=15000)
    shots(cz, "take-seat")
    assert take.get_attribute("data-seat") == "2"
    assert "Bo" in take.inner_text() and "místo 3" in take.inner_text()
    take.click()
    wait_for_dataset(cz, "online", "playing", 20)
    assert online_state(cz)["seat"] == 2
    wait_until("the seat's hand", lambda: (table_view(cz) or {}).get("viewer") == 2
               and (table_view(cz) or {}).get("hand") is not None, 20, cz)
    wait_until("the host's table names the new player", lambda: (table_view(host) or {})
               .get("player_names", [None] * 3)[2] == "Vilém", 20, host)
    assert presence(host)[2] == "connected"
    assert online_state(host)["names"][2] == "Vilém"

    mark("seat taken")
    # Bo comes back with his old token: he watches, and his page says why
    bo = bo_context.new_page()
    bo.goto(link)  # his name and token are kept: straight back, as after a reload
    wait_for_dataset(bo, "online", "watching", 60)
    wait_until("Bo told his seat went to Vilém", lambda: "Vilém" in toast(bo), 20, bo)
    assert online_state(bo)["seat"] is None
    shots(bo, "seat-lost")
    assert presence(host)[2] == "connected", "Vilém keeps the seat"

    mark("Bo back")
    play_to_the_end(host, [(host, False), (de, True), (cz, True)], 90)
    final = table_view(host)
    assert final is not None
    record = json.loads(js(host, "() => window.__jabberwocky.request('export_record', {})")
                        ["record"])
    assert record["names"] == ["Hana", "Dora", "Vilém"]
    for page in (de, cz, bo):
        wait_for_dataset(page, "online", "over", 30)
    mark("game over")
    # every person with a seat keeps the game from their own seat, marked online; the one
    # who watched the end gets the record for the review, and keeps no statistics
    for page, seat in ((host, 0), (de, 1), (cz, 2)):
        kept = wait_until(f"seat {seat}'s statistics", lambda p=page: js(p, KEPT), 20, page)
        assert [(k["me"], k["online"], k["scores"]) for k in kept] == \
            [(seat, True, final["scores"])], kept
    assert js(bo, KEPT) == []
    watched = json.loads(js(bo, "() => window.__jabberwocky.request('export_record', {})")
                         ["record"])
    assert watched["rounds"] == record["rounds"]
    # the Statistics screen shows it as an online game, from Dora's seat
    de.click('[data-action="menu"]')
    de.click('#menu [data-action="stats"]')
    wait_until("the statistics", lambda: js(
        de, "() => document.getElementById('dlg-stats').dataset.state") == "ready", 20, de)
    assert js(de, "() => document.querySelectorAll('#dlg-stats li[data-online=\"true\"]')"
                  ".length") == 1
    points = js(de, "() => document.querySelector('#dlg-stats dd[data-stat=\"points_per_game\"]')"
                    ".dataset.value")
    assert float(points) == final["scores"][1]
    shots(de, "stats")
    de.keyboard.press("Escape")

    # a guest is offered no game of their own while the table is open; the host plays again
    assert not js(de, "() => document.querySelector('#round-panel [data-action=\"play-again\"]')"
                      ".offsetParent")
    again = host.locator('#round-panel [data-action="online-play-again"]')
    again.wait_for(state="visible", timeout=10000)
    shots(host, "game-over")
    old_seed = final["seed"]
    again.click()
    wait_until("Dora told of the new game", lambda: "neues Spiel" in toast(de), 10, de)
    for page, seat in ((de, 1), (cz, 2)):
        wait_for_dataset(page, "online", "playing", 30)
        wait_until(f"seat {seat} at the new deal", lambda p=page, s=seat: (
            (v := table_view(p)) is not None and v["seed"] != old_seed and v["viewer"] == s
            and v["phase"] in ("bidding", "playing") and len(v["hand"]) == 1), 30, page)
    wait_for_dataset(bo, "online", "watching", 30)
    wait_until("the watcher at the new deal", lambda: (
        (v := table_view(bo)) is not None and v["seed"] != old_seed and v["hand"] == []), 30, bo)
    mark("played again")
    hv = table_view(host)
    assert hv is not None and hv["seed"] != old_seed and hv["player_names"] == record["names"]
    assert hv["remote"] == [1, 2] and hv["rules"] == final["rules"]

    # round 1 of the new game ends; then the host leaves for good: a guest keeps what was
    # public (round 1, checked by its own engine, no deal code) and is offered to save it
    deadline = time.monotonic() + 40
    while not (table_view(host) or {}).get("history"):
        assert time.monotonic() < deadline, "round 1 of the new game did not end"
        if not any(act(page, True) for page in (host, de, cz)):  # True: nobody deals round 2
            host.wait_for_timeout(40)
    kept_public = wait_until("Dora keeps round 1", lambda: js(
        de, "() => window.__jabberwocky.online.table.publicRecord()"), 20, de)
    public = json.loads(kept_public)
    assert public["format"] == "jabberwocky-public/1" and len(public["rounds"]) == 1
    assert "seed" not in kept_public and hv["seed"] not in kept_public
    host.click('[data-action="menu"]')
    host.click('#menu [data-action="online-leave"]')
    wait_for_dataset(de, "online", "ended", 20)
    save = de.locator('#online-bar [data-action="online-save-public"]')
    save.wait_for(state="visible", timeout=10000)
    assert save.get_attribute("data-rounds") == "1"
    with de.expect_download() as download:
        save.click()
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert json.loads(saved) == public
    # the table stays on show, closed: nothing on it acts on Dora's own engine (which holds
    # another game); no next round is offered
    assert de.evaluate("() => document.body.dataset.mode") == "closed"
    assert not de.evaluate(
        "() => document.querySelector('#round-panel [data-action=\"next-round\"]').offsetParent")
    shots(de, "host-left")
    mark("host left")
    print("\n" + ", ".join(marks))
