"""The deal of the day through the page (issue 32): two fresh browser profiles on the same
mocked date (Playwright's clock) get the same deals and the same par; a finished daily
game gives the share text with one right mark per round; the second game of the day is
practice and says so; the streak counts across mocked days with a gap; another day's link
is practice, a malformed one is said and today's deal dealt; the screenshots of the result
and the calendar.

A daily game has fixed rules (13 rounds), so there is no short schedule here: the human
plays the first move allowed with the bots at the "instant" speed and reduced motion
(about half a minute a game on this machine).  The results of earlier days for the
streak are written into the page's own store (localStorage ``jabberwocky.daily.v1``, the
format of docs/daily.md), made from real games of those days' deals played by the engine
here, so that their reviews open.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import SiteServer, wait_for_dataset, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from pwa_helpers import act, confirm_if_asked, fast_prefs, set_storage, settle, view

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from jabberwocky.analysis.daily import daily_game, daily_seed, result_of  # noqa: E402
from jabberwocky.bots import make_bot  # noqa: E402
from jabberwocky.bots.referee import bot_move  # noqa: E402
from jabberwocky.core.game import GAME_OVER, ROUND_OVER  # noqa: E402

BOOT = 120.0
DAY = "2026-12-02"
NOON = f"{DAY}T12:00:00Z"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
DAILY_KEY = "jabberwocky.daily.v1"
SHOTS = ROOT / "e2e" / "screenshots"
MADE, MISSED = "✓", "✗"  # the English catalogue's daily.mark_made / daily.mark_missed


def profile(new_context: Callable[..., BrowserContext], site_server: SiteServer,
            when: str = NOON, viewport: dict[str, int] | None = None,
            items: dict[str, str] | None = None) -> Page:
    """A fresh browser profile whose clock says ``when``; bots act at once, no tips."""
    context = new_context(viewport=viewport or DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    page.clock.set_fixed_time(when)
    set_storage(page, site_server.url, {**fast_prefs(), **(items or {})})
    return page


def open_daily(page: Page, url: str, fragment: str = "#daily") -> None:
    page.goto(url + fragment)
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    wait_for_dataset(page, "daily", DAY if fragment == "#daily" else fragment[7:], 30)


def play_to_the_end(page: Page, timeout: float = 150.0) -> dict[str, Any]:
    """The human plays the first move allowed until the game is over (the round panel's
    Next round between rounds); the final view."""
    deadline = page.evaluate("() => performance.now()") + timeout * 1000
    while page.evaluate("() => document.body.dataset.phase") != "game-over":
        assert page.evaluate("() => performance.now()") < deadline, "the game did not end"
        if not act(page):
            page.wait_for_timeout(25)
    return view(page)


def result_dialog(page: Page, state: str = "ready", timeout: float = 90.0) -> dict[str, str]:
    """Wait for the daily result dialog in ``state``; its data-* markers."""
    page.locator("#dlg-daily[open]").wait_for(timeout=timeout * 1000)
    deadline = page.evaluate("() => performance.now()") + timeout * 1000
    while True:
        data: dict[str, str] = page.evaluate(
            "() => ({...document.getElementById('dlg-daily').dataset})")
        if data.get("state") == state:
            return data
        assert page.evaluate("() => performance.now()") < deadline, f"dialog stayed {data}"
        page.wait_for_timeout(100)


def stored(page: Page) -> dict[str, Any]:
    text = page.evaluate("(k) => localStorage.getItem(k)", DAILY_KEY)
    return json.loads(text) if text else {}


def engine_result(date: str, pick: str = "easy") -> dict[str, Any]:
    """A day's result as the page stores it, from a real game of that day's deals (a
    ``pick`` bot making the player's moves), with its par left unknown or given."""
    game = daily_game(date)
    bots = [make_bot(pick if kind == "human" else kind) for kind in game.seats]
    while game.phase != GAME_OVER:
        if game.phase == ROUND_OVER:
            game.next_round()
        else:
            bot_move(game, bots[game.to_act])  # type: ignore[index]
    r = result_of(game)
    return {"date": date, "points": r["points"], "exact": r["exact"], "bids": r["bids"],
            "marks": r["marks"], "rounds": [[x["bid"], x["taken"], x["points"]]
                                             for x in r["rounds"]],
            "challenge": r["challenge"], "bots_version": r["bots_version"], "at": 0,
            "par": None}


def test_two_profiles_on_the_same_day_get_the_same_deals_and_par_and_the_share_text(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    alex = profile(new_context, site_server)
    open_daily(alex, site_server.url)
    maria = profile(new_context, site_server)
    open_daily(maria, site_server.url)
    a, m = view(alex), view(maria)
    assert a["seed"] == m["seed"] == daily_seed(DAY)
    assert (a["hand"], a["trump_card"], a["dealer"]) == (m["hand"], m["trump_card"], m["dealer"])
    assert (a["players"], a["seats"]) == (4, ["human", "medium", "medium", "medium"])
    assert alex.evaluate("() => document.body.dataset.dailyPractice") == "false"
    bar = alex.inner_text("#daily-bar")
    assert "2 December" in bar and "Today" in bar
    # no take-backs in the day's game
    assert alex.locator('#menu [data-action="take-back"]').is_disabled()

    final = play_to_the_end(alex)
    data = result_dialog(alex)
    assert data["practice"] == "false" and data["date"] == DAY
    me = final["history"]
    marks = [MADE if r["bids"][0] == r["taken"][0] else MISSED for r in me]
    assert int(data["points"]) == final["scores"][0]
    assert int(data["exact"]) == marks.count(MADE)
    text = alex.input_value("#daily-share-text")
    lines = text.split("\n")
    assert "2 December 2026" in lines[0]
    assert "".join(marks) in lines, text
    assert f"Points: {final['scores'][0]}" in text and f"exact bids: {marks.count(MADE)}/13" in text
    assert f"Par: {data['parPoints']}" in text
    assert lines[-1].startswith(site_server.url + "#challenge=jc1.")
    words = "\n".join(lines[:-1])  # the link carries the game, for the friend's page only
    for card in [r["trump_card"] for r in me]:
        assert card not in words  # nothing spoiled: no card is named
    assert alex.get_attribute("#daily-share-text", "data-marks") == ",".join(
        "made" if x == MADE else "missed" for x in marks)
    rows = alex.eval_on_selector_all("#daily-rounds tr[data-round]",
                                     "rs => rs.map(r => [r.dataset.mark, r.dataset.parMark])")
    assert [r[0] for r in rows] == ["made" if x == MADE else "missed" for x in marks]
    assert all(r[1] in ("made", "missed") for r in rows)
    kept = stored(alex)["results"][DAY]
    assert kept["points"] == final["scores"][0] and kept["par"]["points"] == int(data["parPoints"])

    # the other profile's par: the same figures, computed on its own
    answer = maria.evaluate(
        "(d) => window.__jabberwocky.engine.dailyPar(d).then((a) => a.result)", DAY)
    assert (answer["points"], answer["exact"]) == (int(data["parPoints"]), int(data["parExact"]))
    par_marks = [r["mark"] for r in answer["rounds"]]
    assert par_marks == [r[1] for r in rows]

    # choosing the day again shows the day's result first, the table as it was
    alex.click("#dlg-daily button[type=submit]")
    alex.click('[data-action="menu"]')
    alex.click('#menu [data-action="daily"]')
    again = result_dialog(alex)
    assert again["kept"] == "true" and again["practice"] == "false"
    assert again["points"] == data["points"] and again["parPoints"] == data["parPoints"]
    assert alex.evaluate("() => document.body.dataset.phase") == "game-over"
    # ... and offers the second game of the day, which is practice and says so
    alex.click('#dlg-daily [data-action="daily-practice"]')
    confirm_if_asked(alex)
    wait_for_dataset(alex, "dailyPractice", "true", 30)
    wait_for_phase(alex, ("bidding", "playing"), 30)
    assert not alex.locator("#dlg-daily").is_visible()
    assert "Practice" in alex.inner_text("#daily-bar")
    assert view(alex)["hand"] == a["hand"]  # the same deals again
    # its end opens the result by itself too, though it ends at the same step count
    play_to_the_end(alex)
    second = result_dialog(alex)
    assert second["practice"] == "true" and second["kept"] == "false"
    assert stored(alex)["results"][DAY]["points"] == final["scores"][0]


def test_the_streak_counts_across_mocked_days_with_a_gap(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    # 29 and 30 November played (results of real games of those deals), 1 December not,
    # 2 December played through the page; then the clock moves on to 3 and 5 December
    earlier = {d: engine_result(d) for d in ("2026-11-29", "2026-11-30")}
    earlier["2026-11-29"]["par"] = {"points": 0, "exact": 0}  # at or above any par
    store = {"format": "jabberwocky-daily-results/1", "results": earlier, "pars": {}}
    page = profile(new_context, site_server, items={DAILY_KEY: json.dumps(store)})
    open_daily(page, site_server.url)
    play_to_the_end(page)
    result_dialog(page)
    page.click("#dlg-daily button[type=submit]")

    def figures(when: str) -> dict[str, str]:
        page.clock.set_fixed_time(when)
        page.reload()
        wait_for_phase(page, ("game-over", "bidding", "playing"), BOOT)
        page.click('[data-action="menu"]')
        page.click('#menu [data-action="stats"]')
        page.locator("#stats-daily").wait_for()
        out: dict[str, str] = page.eval_on_selector_all(
            "#stats-daily dd[data-stat]",
            "ds => Object.fromEntries(ds.map(d => [d.dataset.stat, d.dataset.value]))")
        cells = page.eval_on_selector_all(
            "#daily-calendar td[data-date]",
            "ts => Object.fromEntries(ts.map(t => [t.dataset.date, t.dataset.state]))")
        out.update({f"cell {k}": v for k, v in cells.items()})
        page.click("#dlg-stats button[type=submit]")
        return out

    today = figures(NOON)
    assert today["daily_days"] == "3" and today["daily_streak"] == "1"
    assert today["cell 2026-11-29"] == "at-par" and today["cell 2026-11-30"] == "played"
    assert today["cell 2026-12-01"] == "none"
    assert today["cell 2026-12-02"] in ("at-par", "below-par")
    assert today["cell 2026-12-03"] == "future"
    next_day = figures("2026-12-03T08:00:00Z")  # today not played yet: the streak holds
    assert next_day["daily_streak"] == "1" and next_day["cell 2026-12-03"] == "none"
    later = figures("2026-12-05T08:00:00Z")  # a day missed: the streak is broken
    assert later["daily_streak"] == "0" and later["daily_days"] == "3"
    # each day's game opens in the review
    page.click('[data-action="menu"]')
    page.click('#menu [data-action="stats"]')
    page.click('#daily-calendar [data-action="daily-review"][data-date="2026-11-30"]')
    wait_for_dataset_of(page, "#dlg-review", "state", "ready")
    # its title names the day, not the day's deal code (daily-2026-11-30-…)
    title = page.inner_text("#review-title")
    assert title == "Review · deal of the day, 30 November 2026", title


def wait_for_dataset_of(page: Page, selector: str, key: str, value: str,
                        timeout: float = 60.0) -> None:
    deadline = page.evaluate("() => performance.now()") + timeout * 1000
    while page.evaluate("([s, k]) => document.querySelector(s)?.dataset[k]", [selector, key]) \
            != value:
        assert page.evaluate("() => performance.now()") < deadline, f"{selector} {key}"
        page.wait_for_timeout(50)


def test_another_days_link_is_practice_and_a_malformed_one_is_said(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = profile(new_context, site_server)
    open_daily(page, site_server.url, "#daily=2026-11-30")
    assert page.evaluate("() => document.body.dataset.dailyPractice") == "true"
    assert view(page)["seed"] == daily_seed("2026-11-30")
    assert "30 November" in page.inner_text("#daily-bar")
    # a reload resumes it where it was (the autosave), still practice
    act(page)
    settle(page)  # the transitions done, so the autosave holds this step
    step = view(page)["step"]
    page.reload()
    wait_for_dataset(page, "daily", "2026-11-30", BOOT)
    assert view(page)["step"] >= step and page.evaluate(
        "() => document.body.dataset.dailyPractice") == "true"
    page.goto(site_server.url + "#daily=30.11.2026")
    wait_for_dataset(page, "daily", DAY, BOOT)
    page.locator("#toast:not([hidden])").wait_for()
    assert "YYYY-MM-DD" in page.inner_text("#toast")
    page.goto(site_server.url + "#daily=2026-02-30")
    page.locator("#toast:not([hidden])").wait_for()
    wait_for_dataset(page, "daily", DAY, BOOT)
    said = page.inner_text("#toast")
    assert "2026-02-30" in said and "today's deal instead" in said, said


def test_the_day_chosen_again_shows_its_result_and_fits_a_small_german_phone(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    """Today's result kept: the day's link deals the practice game and shows the result
    over it; the menu's choice shows the result first, the table left as it was.  In German
    at 360x740 the practice bar and the rounds' table (the Par column) fit."""
    store = {"format": "jabberwocky-daily-results/1", "results": {DAY: engine_result(DAY)},
             "pars": {}}
    page = profile(new_context, site_server, viewport=SMALL_PHONE,
                   items={DAILY_KEY: json.dumps(store)})
    page.goto(site_server.url + "#daily&lang=de")
    wait_for_dataset(page, "daily", DAY, BOOT)
    data = result_dialog(page)
    assert data["kept"] == "true" and data["practice"] == "false"
    assert data["points"] == str(store["results"][DAY]["points"])
    assert not page.locator('#dlg-daily [data-action="daily-practice"]').is_visible()
    # the Par column is in sight: the table is no wider than its box
    wrap = page.evaluate("() => { const w = document.querySelector('#dlg-daily .sheet-wrap');"
                         " return [w.scrollWidth, w.clientWidth]; }")
    assert wrap[0] <= wrap[1], wrap
    page.locator('#daily-rounds th:text-is("Par")').scroll_into_view_if_needed()
    box = page.locator('#daily-rounds th:text-is("Par")').bounding_box()
    assert box is not None and box["x"] + box["width"] <= SMALL_PHONE["width"], box
    page.click("#dlg-daily button[type=submit]")
    assert page.evaluate("() => document.body.dataset.dailyPractice") == "true"
    bar = page.evaluate("() => { const b = document.getElementById('daily-bar');"
                        " const r = b.getBoundingClientRect(); return {text: b.textContent,"
                        " sw: b.scrollWidth, cw: b.clientWidth, sh: b.scrollHeight,"
                        " ch: b.clientHeight, left: r.left, right: r.right}; }")
    assert "(dein Ergebnis steht schon fest)" in bar["text"]
    assert bar["sw"] <= bar["cw"] and bar["sh"] <= bar["ch"], bar  # nothing cut off
    assert bar["left"] >= 0 and bar["right"] <= SMALL_PHONE["width"], bar
    # from another game, the menu's choice of the day: its result first, nothing replaced
    page.goto(site_server.url + "#seed=e2e-daily-again&players=4&lang=de")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    page.click('[data-action="menu"]')
    page.click('#menu [data-action="daily"]')
    assert result_dialog(page)["kept"] == "true"
    assert view(page)["seed"] == "e2e-daily-again"
    assert page.locator('#dlg-daily [data-action="daily-practice"]').is_visible()
    page.click('#dlg-daily [data-action="daily-practice"]')
    confirm_if_asked(page)
    wait_for_dataset(page, "daily", DAY, 30)
    assert page.evaluate("() => document.body.dataset.dailyPractice") == "true"
    assert view(page)["seed"] == daily_seed(DAY)


@pytest.mark.skipif(os.environ.get("JABBERWOCKY_DAILY_SHOTS") != "write",
                    reason="writes e2e/screenshots/ when asked (JABBERWOCKY_DAILY_SHOTS=write)")
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
def test_screenshots_of_the_result_and_the_calendar(
        size: dict[str, int], new_context: Callable[..., BrowserContext],
        site_server: SiteServer) -> None:
    earlier = {d: engine_result(d) for d in ("2026-11-24", "2026-11-25", "2026-11-27",
                                             "2026-11-29", "2026-11-30")}
    for d, p in (("2026-11-24", 3), ("2026-11-25", 12), ("2026-11-29", 1)):
        earlier[d]["par"] = {"points": p, "exact": p}
    store = {"format": "jabberwocky-daily-results/1", "results": earlier, "pars": {}}
    page = profile(new_context, site_server, viewport=size,
                   items={DAILY_KEY: json.dumps(store)})
    open_daily(page, site_server.url)
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = f"{size['width']}x{size['height']}"
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"daily-table-{name}.png"))  # the bar naming the day
    play_to_the_end(page)
    result_dialog(page)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"daily-result-{name}.png"))
    page.click("#dlg-daily button[type=submit]")
    page.click('[data-action="menu"]')
    page.click('#menu [data-action="stats"]')
    page.locator("#stats-daily").wait_for()
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"daily-calendar-{name}.png"))
