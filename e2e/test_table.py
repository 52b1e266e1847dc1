"""The table as players feel it (issue 15): a finished trick stays in view with its winner
even without motion, this round's tricks can be looked at again, New game starts from the
game on the table and asks before throwing it away, the seed shown in Share is the seed
that works, an import asks first and refuses a file that holds no game, and the look
(theme, four-colour deck) is remembered."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import SiteServer, wait_for_dataset, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from pwa_helpers import marks, settle

BOOT = 120.0
DESKTOP = {"width": 1280, "height": 800}


def open_table(new_context: Callable[..., BrowserContext], site_server: SiteServer,
               fragment: str, **options: Any) -> Page:
    options.setdefault("viewport", DESKTOP)
    context = new_context(reduced_motion="reduce", **options)
    page = context.new_page()
    page.goto(site_server.url + fragment)
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    return page


def state(page: Page) -> Any:
    return page.evaluate("() => window.__jabberwocky.request('state', {})")


def human_move(page: Page) -> None:
    m = settle(page)
    if m["phase"] == "bidding":
        page.click("[data-bid]:not([disabled])")
    elif m["phase"] == "playing":
        page.click('#hand [data-card][aria-disabled="false"]')
    else:
        page.click('[data-action="next-round"]')


@pytest.mark.readable_hold
def test_with_reduced_motion_a_finished_trick_stays_in_view_with_its_winner(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-hold&players=4&bots=random")
    for _ in range(40):
        before = state(page)
        tricks = len(before["tricks"])
        human_move(page)
        # as soon as a trick is complete, the table shows it: all four cards, a winner
        deadline = time.monotonic() + 10
        while len(state(page)["tricks"]) == tricks and time.monotonic() < deadline:
            page.wait_for_timeout(20)
        after = state(page)
        if len(after["tricks"]) == tricks or after["phase"] != "playing":
            continue
        winner = str(after["tricks"][-1]["winner"])
        first = marks(page)
        assert first["trickWinner"] == winner and first["trickCards"] == "4", first
        page.wait_for_timeout(1000)  # a second later (no motion at all) it is still shown
        later = marks(page)
        if later["busy"] == "true":  # the bots are waiting for the trick to be read
            assert later["trickWinner"] == winner, later
        words = page.text_content("#live") or ""
        assert "wins the trick" in words or "win the trick" in words
        return
    raise AssertionError("no trick was completed")


def test_this_rounds_tricks_can_be_looked_at_again(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-tricks&players=3&bots=random")
    while len(state(page)["tricks"]) < 1:
        human_move(page)
    settle(page)
    page.keyboard.press("t")
    dialog = page.locator("#dlg-tricks")
    dialog.wait_for(state="visible")
    view = state(page)
    rows = page.locator("#tricks-table tbody tr")
    assert rows.count() == len(view["tricks"]) >= 1
    last = view["tricks"][-1]
    cells = rows.nth(rows.count() - 1).locator("td")
    won = cells.nth(last["winner"])
    assert "★" in (won.text_content() or "")
    assert "won the trick" in (won.get_attribute("aria-label") or "")
    page.keyboard.press("Escape")


def test_new_game_starts_from_the_game_on_the_table_and_asks_before_replacing_it(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-settings&players=5&bots=hard")
    human_move(page)
    settle(page)
    page.keyboard.press("n")
    page.locator("#dlg-new").wait_for(state="visible")
    checked = page.evaluate("() => document.querySelector('#players-seg input:checked').value")
    assert checked == "5"
    assert page.evaluate("() => document.activeElement.value") == "5"  # focus on the choice
    assert page.input_value("#bots-all") == "hard"
    page.click('[data-action="start-game"]')
    page.locator("#dlg-confirm").wait_for(state="visible")
    page.click('[data-action="confirm-no"]')
    assert state(page)["seed"] == "e2e-settings"  # kept
    page.keyboard.press("n")
    page.fill("#seed-input", "e2e settings two")
    page.click('[data-action="start-game"]')
    page.click('[data-action="confirm-yes"]')
    wait_for_dataset(page, "round", "1")
    deadline = time.monotonic() + 30
    while state(page)["seed"] != "e2e settings two":
        assert time.monotonic() < deadline
        page.wait_for_timeout(50)
    view = state(page)
    assert view["players"] == 5 and view["seats"][1:] == ["hard"] * 4


def test_the_seed_share_shows_deals_the_same_cards_when_typed_back(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=uxr-dlg&players=4&bots=random")
    settle(page)
    first = state(page)
    page.click('[data-action="share"]')
    shown = page.text_content("#share-seed") or ""
    assert shown == "uxr-dlg"
    page.keyboard.press("Escape")
    page.keyboard.press("n")
    page.fill("#seed-input", shown)
    page.click('[data-action="start-game"]')
    if page.locator("#dlg-confirm").is_visible():
        page.click('[data-action="confirm-yes"]')
    page.wait_for_timeout(300)
    settle(page)
    again = state(page)
    assert again["seed"] == "uxr-dlg"
    assert sorted(again["hand"]) == sorted(first["hand"])
    assert again["trump_card"] == first["trump_card"]


@pytest.mark.allow_console_errors
def test_an_import_checks_the_file_first_and_asks_only_about_a_good_one(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        tmp_path: Path) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-import-asks&players=4&bots=random")
    human_move(page)
    settle(page)
    before = state(page)
    stub = tmp_path / "stub.json"
    stub.write_text(json.dumps({"format": "jabberwocky-game/1", "seed": "x", "players": 4}))
    page.click('[data-action="menu"]')
    page.click('[data-action="import-record"]')
    page.set_input_files("#import-file", str(stub))
    # the file is checked first: a bad one is refused at once, with no question
    page.locator("#toast").wait_for(state="visible")
    text = page.text_content("#toast") or ""
    assert "holds none of it" in text and "Expecting" not in text, text
    assert not page.locator("#dlg-confirm").is_visible()
    after = state(page)
    assert after["seed"] == before["seed"] and after["step"] == before["step"]
    # a record without players is refused in words, not Python's ("not None")
    nameless = tmp_path / "nameless.json"
    nameless.write_text(json.dumps({"format": "jabberwocky-game/1", "seed": "x"}))
    page.set_input_files("#import-file", str(nameless))
    for _ in range(100):
        text = page.text_content("#toast") or ""
        if "does not say its players" in text:
            break
        page.wait_for_timeout(50)
    assert "does not say its players" in text and "None" not in text, text
    assert not page.locator("#dlg-confirm").is_visible()
    # a good record: asked, and the answer is no: nothing is read
    good = page.evaluate("() => window.__jabberwocky.tryRequest('export_record', {})")
    record = tmp_path / "good.json"
    record.write_text(good["result"]["record"])
    page.set_input_files("#import-file", str(record))
    page.locator("#dlg-confirm").wait_for(state="visible")
    assert page.text_content("#confirm-text") == \
        "Load this record? It replaces the game in progress."
    page.click('[data-action="confirm-no"]')
    assert state(page)["step"] == before["step"]


def test_theme_and_four_colour_deck_are_remembered(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-look&players=3&bots=random",
                      color_scheme="dark")
    assert marks(page)["theme"] == "dark"
    page.click('[data-action="menu"]')
    page.select_option("#theme", "light")
    page.check("#four-colour")
    assert marks(page)["theme"] == "light" and marks(page)["fourColour"] == "true"
    page.reload()
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    m = marks(page)
    assert m["theme"] == "light" and m["fourColour"] == "true"
    assert page.evaluate("() => document.documentElement.dataset.theme") == "light"


CLAIM_WHY = "Your cards surely win every trick left: claim them and end the round now"
# What shows while the claim's cards are on the table (body[data-claim-shown]).
CLAIM_WATCH = """() => {
    window.__claimSeen = [];
    new MutationObserver(() => {
        const n = document.body.dataset.claimShown;
        if (!n) return;
        const t = window.__jabberwocky.table().table;
        window.__claimSeen.push({ tricks: n, cards: t.claimed && t.claimed.cards,
            panelHidden: document.getElementById("round-panel").hidden,
            toast: document.getElementById("toast").textContent });
    }).observe(document.body, { attributes: true, attributeFilter: ["data-claim-shown"] });
}"""


def test_claiming_the_rest_is_offered_when_certain_and_refused_otherwise(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    # seed e2e-claim-164: first legal bid and first legal card each turn; after two moves
    # the human's 8 and ace of hearts surely take both remaining tricks
    page = open_table(new_context, site_server, "#seed=e2e-claim-164&players=3&bots=random")
    refused = False
    for _ in range(10):
        settle(page)
        view = state(page)
        claim = page.locator('[data-action="claim"]')
        if view["phase"] == "playing" and view["can_claim"]:
            assert claim.is_visible()
            # near the hand, and it says what it does
            assert claim.get_attribute("title") == CLAIM_WHY
            assert page.locator("#claim-why").inner_text() == CLAIM_WHY
            assert not page.evaluate("() => document.getElementById('claim-why').hidden")
            box = claim.bounding_box()
            first = page.locator("#hand [data-card]").first.bounding_box()
            assert box and first and abs((box["y"] + box["height"] / 2)
                                         - (first["y"] + first["height"] / 2)) < first["height"], \
                f"the claim button is not level with the hand: {box} {first}"
            taken = view["taken"][0]
            left = len(view["hand"])
            page.evaluate(CLAIM_WATCH)
            claim.click()
            wait_for_phase(page, "round-over", 30)
            done = state(page)
            assert done["round_result"]["taken"][0] == taken + left
            # the claim showed before the round panel: its cards and its words
            seen = page.evaluate("() => window.__claimSeen")
            assert seen and seen[0]["tricks"] == str(left) and seen[0]["panelHidden"], seen
            assert seen[0]["cards"] == view["hand"], seen
            assert f"your cards take the last {left} tricks" in seen[0]["toast"], seen
            assert page.evaluate("() => document.body.dataset.claimShown") == ""
            assert refused, "a claim that was not certain came first"
            return
        assert not claim.is_visible()
        # a screen reader hears of claiming only when a claim can be made (not while bidding)
        assert page.evaluate("() => document.getElementById('claim-why').hidden"), view["phase"]
        if view["phase"] == "playing" and not refused:
            answer = page.evaluate("() => window.__jabberwocky.tryRequest('claim', {})")
            assert answer["error"]["code"] == "claim.not_certain"
            assert state(page)["step"] == view["step"]
            refused = True
        if view["phase"] == "bidding":
            page.click(f'[data-bid="{view["legal_bids"][0]}"]')
        else:
            page.click(f'#hand [data-card="{view["legal_cards"][0]}"]')
        page.wait_for_timeout(200)
    raise AssertionError("the claim was never offered")


def test_the_round_panel_says_a_missed_bid_as_it_says_a_made_one(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-missed&players=3&bots=random")
    said: set[str] = set()
    for _ in range(120):
        m = settle(page)
        if m["phase"] in ("round-over", "game-over"):
            view = state(page)
            res = view["round_result"]
            line = page.locator("#round-body p.winners")
            kind = line.get_attribute("data-your-bid")
            if res["bids"][0] == res["taken"][0]:
                assert kind == "made" and line.inner_text() == "You made your bid."
            else:
                assert kind == "missed", kind
                assert line.inner_text() == (f"You missed your bid: you bid {res['bids'][0]} "
                                             f"and took {res['taken'][0]}.")
            said.add(kind or "")
            if said >= {"made", "missed"} or m["phase"] == "game-over":
                break
        human_move(page)
        page.wait_for_timeout(30)
    assert "missed" in said, f"no missed bid was seen: {said}"


def test_a_deal_code_that_cannot_be_dealt_says_what_was_dealt_instead(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=tab%09here&players=4&bots=random")
    settle(page)
    view = state(page)
    text = ""
    for _ in range(100):
        text = page.text_content("#toast") or ""
        if "instead" in text:
            break
        page.wait_for_timeout(50)
    assert "the deal code holds the control character U+0009 at position 4" in text, text
    assert f"A new deal is on the table instead: {view['players']} players, " \
        f"deal code “{view['seed']}”." in text, text
    assert view["seed"] != "tab\there"


def play_until(page: Page, phases: tuple[str, ...], limit: int = 300) -> dict[str, str]:
    for _ in range(limit):
        m = settle(page)
        if m["phase"] in phases:
            return m
        human_move(page)
        page.wait_for_timeout(20)
    raise AssertionError(f"never reached {phases}")


def test_panels_are_not_cut_off_on_phones(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    # on its side, five players: the line about your bid shows whole, above the buttons
    page = open_table(new_context, site_server, "#seed=e2e-panels&players=5&bots=random",
                      viewport={"width": 844, "height": 390})
    play_until(page, ("round-over",))
    fit = page.evaluate("""() => {
        const line = document.querySelector("#round-body p.winners").getBoundingClientRect();
        const actions = document.querySelector("#round-panel .panel-actions")
            .getBoundingClientRect();
        const panel = document.getElementById("round-panel").getBoundingClientRect();
        const bar = document.querySelector("header.topbar").getBoundingClientRect();
        return { top: line.top, bottom: line.bottom, actions: actions.top, h: innerHeight,
                 panel: panel.top, bar: bar.bottom };
    }""")
    assert fit["top"] >= 0 and fit["bottom"] <= fit["actions"], fit
    # the panel starts where the top bar ends: no strip of table above it, where the top
    # of a badge's dealer mark used to show, cut in half
    assert fit["bar"] - 1 <= fit["panel"] <= fit["bar"] + 1, fit
    page.context.close()
    # upright, at game over: what does not fit says so above the buttons, until scrolled
    page = open_table(new_context, site_server, "#seed=e2e-panels&players=5&bots=random"
                      "&rules=jabberwocky,schedule:1-2-1", viewport={"width": 390, "height": 844})
    play_until(page, ("game-over",))
    panel = page.locator("#round-panel")
    wait_for_dataset_of_panel(page, "true")
    assert page.locator("#round-more").is_visible()
    assert page.locator("#round-more").inner_text() == "More below ▾"
    # the sign sits in the buttons' bar, over none of the panel's words
    sign = page.locator("#round-more").bounding_box()
    bar = page.locator("#round-panel .panel-actions").bounding_box()
    assert sign and bar, (sign, bar)
    assert bar["y"] <= sign["y"], (sign, bar)
    assert sign["y"] + sign["height"] <= bar["y"] + bar["height"], (sign, bar)
    page.click("#round-more")
    panel.evaluate("(p) => p.scrollTo(0, p.scrollHeight)")
    wait_for_dataset_of_panel(page, "false")
    assert not page.locator("#round-more").is_visible()
    page.context.close()
    # the score sheet mid-round: the round in play says "now", no cell looks cut off
    page = open_table(new_context, site_server, "#seed=e2e-panels-sheet&players=5&bots=random",
                      viewport={"width": 390, "height": 844})
    play_until(page, ("round-over",))
    page.click('[data-action="next-round"]')
    settle(page)
    page.click('.toolbar [data-action="scores"]')
    cells = page.locator("#score-sheet td").all_inner_texts()
    assert cells and not any("…" in c for c in cells), cells
    assert page.locator("#score-sheet tr.current .now").inner_text() == "now"
    fits = page.evaluate("() => { const w = document.querySelector('#dlg-scores .sheet-wrap');"
                         " return w.scrollWidth <= w.clientWidth; }")
    assert fits, "the score sheet scrolls sideways on a phone"


def wait_for_dataset_of_panel(page: Page, more: str) -> None:
    for _ in range(100):
        if page.evaluate("() => document.getElementById('round-panel').dataset.more") == more:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"round panel data-more never became {more}")


LEGEND = {
    "dealer": "D: this seat deals this round and bids last",
    "trump": "Trump: this suit beats every other this round",
    "badge": "The seat's bid and the tricks it has taken so far; green while they are equal",
    "level": "●●●○○: the bot's level, from one dot (weakest) to five (strongest)",
}


def test_each_mark_of_the_table_is_explained_where_it_appears(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-marks-a&players=4&bots=random")
    settle(page)
    layout = page.evaluate("() => window.__jabberwocky.layout()")
    view = state(page)
    slot = (view["dealer"] - view.get("viewer", 0)) % view["players"]
    points = {"trump": (layout["trump"]["x"] + layout["trump"]["w"] / 2,
                        layout["trump"]["y"] + layout["trump"]["h"] / 2)}
    seat = layout["seats"][1]
    points["badge"] = (seat["x"] + seat["bw"] / 4, seat["y"] + 4)
    face = seat["face"]
    points["level"] = (face["x"] + face["size"] / 2, face["y"] + face["size"] + 5)
    if slot > 0:
        dealer = layout["seats"][slot]
        points["dealer"] = (dealer["x"] + dealer["bw"] / 2 - 2, dealer["y"] - dealer["bh"] / 2 + 2)
    assert "dealer" in points, "seed e2e-marks-a: a bot deals the first round"
    for mark, (x, y) in points.items():
        page.mouse.move(x, y)
        title = page.evaluate("() => document.getElementById('canvas').title")
        if mark in ("badge", "level"):
            # a bot's badge: its creature of the poem and its level, then what the line means
            name, _, legend = title.partition("\n")
            assert name == "Jubjub: Random bot", title
            title = legend
        assert title.startswith(LEGEND[mark]), (mark, title)
    # the cast is the page's display only: records and links keep seats and levels
    record = page.evaluate("() => window.__jabberwocky.request('export_record', {})")["record"]
    assert "Jubjub" not in record and json.loads(record)["seats"][1] == "random"
    assert "Jubjub" in page.inner_text("#seats") and "bots=random" in page.url
    page.mouse.move(layout["cx"], layout["cy"])
    # the help says the same for a touch screen
    page.click('[data-action="menu"]')
    page.click('#menu [data-action="help"]')
    text = page.inner_text("#help-body")
    assert "On the table" in text and "D on a badge: that seat deals this round" in text, text
    assert "green means an exact bid" in text
