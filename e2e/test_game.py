"""The table in Chromium, driven as a person would: clicking bid buttons, cards, next round.

Bots are the random level (fast) and motion is reduced, so no animation or bot pause
slows the run.  Screenshots of the table go to ``e2e/screenshots/`` (gitignored).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import ROOT, SiteServer, wait_for_phase
from playwright.sync_api import BrowserContext, Page, expect
from pwa_helpers import act, confirm_if_asked, marks, settle

from jabberwocky.core.messages import Message

BOOT_TIMEOUT = 120.0
SHOTS = Path(__file__).resolve().parent / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


def sentences(codes: dict[str, Any]) -> dict[str, str]:
    """The English sentences of a view's reason codes (what the page's English catalogue
    says for them: the view carries codes only)."""
    return {k: str(Message(m["code"], **m["params"])) for k, m in codes.items()}


def cli_deal(seed: str, players: int) -> Any:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-m", "jabberwocky", "deal", "--seed", seed, "--players",
         str(players), "--json"], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def open_table(new_context: Callable[..., BrowserContext], site_server: SiteServer,
               fragment: str, viewport: dict[str, int] = DESKTOP) -> Page:
    context = new_context(viewport=viewport, reduced_motion="reduce")
    page = context.new_page()
    page.goto(site_server.url + fragment)
    wait_for_phase(page, ("bidding", "playing", "round-over", "game-over"), BOOT_TIMEOUT)
    return page


def engine_view(page: Page) -> Any:
    return page.evaluate("() => window.__jabberwocky.request('state', {})")


def wait_changed(page: Page, before: dict[str, str], timeout: float = 15.0) -> None:
    """Wait until the step, phase or round differs from ``before``."""
    deadline = time.monotonic() + timeout
    keys = ("step", "phase", "round")
    while True:
        m = marks(page)
        if any(m.get(k) != before.get(k) for k in keys):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"nothing happened after the action: {m}")
        page.wait_for_timeout(20)


def hand_cards(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "#hand [data-card]", "els => els.map(e => e.dataset.card)")
    return cards


def test_full_game_through_the_ui(new_context: Callable[..., BrowserContext],
                                  site_server: SiteServer) -> None:
    started = time.monotonic()
    page = open_table(new_context, site_server, "#seed=e2e-full-game-4&players=4&bots=random")
    SHOTS.mkdir(exist_ok=True)
    checked_illegal = checked_dealer = shot_taken = False
    rounds_seen: set[int] = set()
    for _ in range(400):
        m = settle(page)
        phase = m["phase"]
        if phase == "game-over":
            break
        if phase == "round-over":
            rounds_seen.add(int(m["round"]))
            page.click('[data-action="next-round"]')
            wait_changed(page, m)
            continue
        view = engine_view(page)
        assert view["your_turn"] and view["phase"] == phase
        if phase == "bidding":
            enabled = page.eval_on_selector_all(
                "[data-bid]", "els => els.filter(e => !e.disabled).map(e => +e.dataset.bid)")
            assert enabled == view["legal_bids"]
            if view["bid_reason_codes"]:
                for bid, reason in sentences(view["bid_reason_codes"]).items():
                    assert view["dealer"] == 0
                    assert page.is_disabled(f'[data-bid="{bid}"]')
                    assert reason.lower() in (page.text_content("#bid-reason") or "").lower()
                checked_dealer = True
            page.click("[data-bid]:not([disabled])")
        else:
            legal = page.eval_on_selector_all(
                '#hand [data-card][aria-disabled="false"]', "els => els.map(e => e.dataset.card)")
            assert sorted(legal) == sorted(view["legal_cards"])
            assert hand_cards(page) == view["hand"]
            illegal = [c for c in view["hand"] if c not in view["legal_cards"]]
            if illegal and not checked_illegal:
                card = illegal[0]
                # aria-disabled cards stay focusable and clickable; Playwright treats
                # aria-disabled as "not enabled", so the click is forced.
                page.click(f'#hand [data-card="{card}"]', force=True)
                toast = page.locator("#toast")
                toast.wait_for(state="visible")
                assert sentences(view["illegal_reason_codes"])[card] in (toast.text_content() or "")
                assert marks(page)["step"] == m["step"]  # nothing was played
                checked_illegal = True
            if not shot_taken and int(m["round"]) >= 4 and view["trick"]["cards"]:
                page.screenshot(path=str(SHOTS / "table-desktop-1280x800.png"))
                shot_taken = True
            page.click('#hand [data-card][aria-disabled="false"]')
        wait_changed(page, m)
    else:
        raise AssertionError("the game did not end within 400 human actions")

    view = engine_view(page)
    assert view["phase"] == "game-over" and view["round"] == 13
    assert rounds_seen == set(range(1, 13))
    assert checked_dealer, "the human dealt at least 3 rounds; the hook rule never showed"
    assert checked_illegal, "no illegal card was ever in hand"
    best = max(view["scores"])
    assert view["winners"] == [s for s, p in enumerate(view["scores"]) if p == best]
    assert page.is_visible('[data-action="play-again"]')
    assert page.is_visible('[data-action="replay"]')
    assert not page.is_visible('[data-action="next-round"]')
    page.screenshot(path=str(SHOTS / "game-over-desktop-1280x800.png"))
    # The whole end of the game shows at once on a desktop: every row of the standings and
    # of the last round's table lies inside the panel, above its buttons (no scrolling).
    hidden = page.evaluate("""() => {
      const panel = document.querySelector("#round-panel");
      const box = panel.getBoundingClientRect();
      const bar = panel.querySelector(".panel-actions").getBoundingClientRect();
      const rows = [...panel.querySelectorAll(".standings tr, .mini-sheet tr")];
      return rows.length < 10 ? ["too few rows: " + rows.length] : rows
        .filter(tr => { const r = tr.getBoundingClientRect();
                        return r.top < box.top || r.bottom > Math.min(box.bottom, bar.top) + 0.5; })
        .map(tr => tr.textContent);
    }""")
    assert hidden == []
    # The score sheet: a row per round and the engine's totals.
    page.click('#round-panel [data-action="scores"]')
    rows = page.locator("#score-sheet tbody tr")
    assert rows.count() == 13
    totals = page.eval_on_selector_all("#score-sheet tfoot td",
                                       "els => els.map(e => +e.textContent)")
    assert totals == view["scores"]
    page.keyboard.press("Escape")
    # Replay these deals: the same seed, round 1 again.
    page.click('[data-action="replay"]')
    wait_for_phase(page, "bidding")
    assert engine_view(page)["seed"] == "e2e-full-game-4"
    assert marks(page)["round"] == "1"
    print(f"full game through the UI: {time.monotonic() - started:.1f} s")


def test_seed_link_reproduces_the_cli_deal(new_context: Callable[..., BrowserContext],
                                           site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=brave-otter-lamp-42&players=5&bots=random")
    for seed, players in (("brave-otter-lamp-42", 5), ("e2e link", 3)):
        if seed != "brave-otter-lamp-42":  # a second link opened in the same tab
            page.goto(site_server.url + f"#seed={seed.replace(' ', '%20')}&players={players}"
                      "&bots=random")
            deadline = time.monotonic() + 20
            while engine_view(page)["seed"] != seed:
                assert time.monotonic() < deadline, "the new link did not start its game"
                page.wait_for_timeout(50)
        settle(page)
        deal = cli_deal(seed, players)
        assert sorted(hand_cards(page)) == sorted(deal["rounds"][0]["hands"][0])
        view = engine_view(page)
        assert view["seed"] == seed and view["players"] == players
        assert view["trump_card"] == deal["rounds"][0]["trump_card"]
        assert view["dealer"] == deal["first_dealer"]


def test_reload_resumes_at_the_same_step(new_context: Callable[..., BrowserContext],
                                         site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-reload&players=4&bots=random")
    acted = 0
    while acted < 4:
        m = settle(page)
        if m["phase"] == "bidding":
            page.click("[data-bid]:not([disabled])")
        elif m["phase"] == "playing":
            page.click('#hand [data-card][aria-disabled="false"]')
        else:
            page.click('[data-action="next-round"]')
        wait_changed(page, m)
        acted += 1
    before = settle(page)
    view = engine_view(page)
    url = page.url
    assert "seed=e2e-reload" in url
    page.reload()
    wait_for_phase(page, ("bidding", "playing", "round-over"), BOOT_TIMEOUT)
    after = settle(page)
    assert after["step"] == before["step"] and after["phase"] == before["phase"]
    again = engine_view(page)
    for key in ("hand", "bids", "taken", "scores", "trick", "round", "to_act", "seed"):
        assert again[key] == view[key], key
    assert page.url == url
    # Opening the bare page resumes the same game as well.
    page.goto(site_server.url)
    wait_for_phase(page, ("bidding", "playing", "round-over"), BOOT_TIMEOUT)
    assert settle(page)["step"] == before["step"]


def test_a_reload_before_the_first_move_resumes_silently(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    """Issue 43: a game where you act first, reloaded before your first bid, is the same
    game again (its autosave holds no move yet), with no word of a discarded save."""
    page = open_table(new_context, site_server, "#seed=e2e-reload-first-3&players=4&bots=random")
    before = settle(page)
    assert before["step"] == "0" and before["phase"] == "bidding"
    hand = sorted(hand_cards(page))
    page.reload()
    wait_for_phase(page, ("bidding",), BOOT_TIMEOUT)
    assert settle(page)["step"] == "0"
    page.wait_for_timeout(800)  # a refused save says so as the engine answers, before a deal
    assert not page.locator("#toast").is_visible(), page.text_content("#toast")
    assert sorted(hand_cards(page)) == hand
    # the bare page resumes it too: not a fresh game with a deal code of its own
    page.goto(site_server.url)
    wait_for_phase(page, ("bidding",), BOOT_TIMEOUT)
    settle(page)
    assert engine_view(page)["seed"] == "e2e-reload-first-3"
    assert sorted(hand_cards(page)) == hand
    assert not page.locator("#toast").is_visible(), page.text_content("#toast")


def test_rules_link_carries_the_toggles(new_context: Callable[..., BrowserContext],
                                        site_server: SiteServer) -> None:
    """rules= names a preset and the options that differ; the engine checks the values."""
    page = open_table(new_context, site_server,
                      "#seed=rules-link&players=4&bots=random&rules=honour,hook:off,schedule:2-3-2")
    settle(page)
    rules = engine_view(page)["rules"]
    assert rules["renege_penalty"] == 3 and rules["hook"] is False
    assert rules["schedule"] == [2, 3, 2]
    assert page.locator("#hand [data-card]").count() == 2
    assert "rules=honour,schedule:2-3-2,hook:off" in page.evaluate("location.hash")  # canonical
    # New game starts from these rules: the Rounds field shows 2-3-2, the preset says custom
    page.click('[data-action="new-game"]')
    assert page.locator("#rule-schedule").input_value() == "2-3-2"
    assert page.locator("#rule-schedule option:checked").inner_text() == \
        "2 up to 3 and back to 2 cards"
    assert page.locator("#rules-preset").input_value() == "custom"
    assert page.locator("#rules-preset option:checked").inner_text() == \
        "Custom rules (from the link)"
    assert not page.locator("#rule-hook").is_checked()
    # the player-count buttons show no radio circles (the radios are there, unseen)
    radio = page.locator('#players-seg input[value="4"]')
    assert radio.is_checked() and radio.evaluate("(e) => getComputedStyle(e).opacity") == "0"
    page.click('#dlg-new button[value="cancel"]')
    # the help describes the rules in play, not 13 rounds
    page.click('[data-action="menu"]')
    page.click('#menu [data-action="help"]')
    help_text = page.inner_text("#help-body")
    assert "The game on the table: 4 players, 3 rounds; no hook rule" in help_text, help_text
    assert "2 up to 3 and back to 2 cards, 3 rounds in all" in help_text
    assert "13 rounds" not in help_text
    # and its steps say this game's bidding rule: no hook, so the dealer may bid anything
    assert "The dealer bids last, and any number is allowed" in help_text, help_text
    assert "is not allowed the one number" not in help_text
    page.click('#dlg-help button[type="submit"]')
    # a value the engine refuses: its message, then a default game
    page.goto(site_server.url
              + "#seed=bad-rules&players=3&bots=random&rules=jabberwocky,lead:sideways")
    page.locator("#toast").filter(has_text="sideways").wait_for(timeout=20_000)
    settle(page)
    view = engine_view(page)
    assert view["rules"]["trump_lead"] == "after-broken" and view["rules"]["name"] == "jabberwocky"
    # an unknown option: a message before anything starts
    page.goto(site_server.url + "#seed=odd-rules&players=3&bots=random&rules=honour,colour:blue")
    page.locator("#toast").filter(has_text="colour:blue").wait_for(timeout=20_000)
    page.context.close()


def test_corrupt_save_is_discarded_with_a_message(new_context: Callable[..., BrowserContext],
                                                  site_server: SiteServer) -> None:
    foreign = json.dumps({"format": "jabberwocky-save/1", "options": {"seed": "x", "players": 4},
                          "record": '{"format": 1}'})
    for stored in ("{not json", foreign):
        context = new_context(viewport=DESKTOP, reduced_motion="reduce")
        plant = (f"localStorage.setItem('jabberwocky.save.v1', {json.dumps(stored)});"
                 " sessionStorage.setItem('planted', '1');")
        context.add_init_script(
            f"try {{ if (!sessionStorage.getItem('planted')) {{ {plant} }} }} catch (e) {{}}")
        page = context.new_page()
        page.goto(site_server.url)
        wait_for_phase(page, "bidding", BOOT_TIMEOUT)
        settle(page)
        assert "discarded" in (page.text_content("#toast") or "")
        assert page.locator("#hand [data-card]").count() == 3  # a fresh game instead
        context.close()


def test_phone_layout_and_keyboard(new_context: Callable[..., BrowserContext],
                                   site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-phone&players=5&bots=random", PHONE)
    SHOTS.mkdir(exist_ok=True)
    m = settle(page)
    assert m["phase"] == "bidding"
    page.screenshot(path=str(SHOTS / "table-phone-360x740-bidding.png"))
    # Every hand card and bid button lies inside the viewport and is reachable.
    for box in page.eval_on_selector_all(
            "#hand [data-card], [data-bid]",
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; })"):
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= 360 and box[3] <= 740, box
    # On a bid button the arrows move along the bids (skipping one the rules forbid), round
    # the end, and never into the hand (issue 43).
    view = engine_view(page)
    bids = page.eval_on_selector_all("#bid-buttons [data-bid]:not([disabled])",
                                     "els => els.map(e => Number(e.dataset.bid))")
    assert bids == view["legal_bids"] and len(bids) >= 3, bids
    page.focus(f'#bid-buttons [data-bid="{bids[0]}"]')
    focused_bid = "() => document.activeElement.dataset.bid ?? null"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused_bid) == str(bids[1])
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused_bid) == str(bids[2])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused_bid) == str(bids[-1])
    assert engine_view(page)["step"] == view["step"]  # moving chose nothing
    page.keyboard.press(str(view["legal_bids"][0]))  # number keys bid
    wait_changed(page, m)
    m = settle(page)
    if m["phase"] == "playing":
        page.focus("#hand [data-card]")
        page.keyboard.press("ArrowRight")
        focused = page.evaluate("() => document.activeElement.dataset.card || null")
        assert focused in hand_cards(page)
        # The hand is one Tab stop (roving tabindex): Shift+Tab leaves it at once instead
        # of walking back through the other cards, and focus stays where it went.
        stops = page.eval_on_selector_all("#hand [data-card]",
                                          "els => els.filter(e => e.tabIndex === 0).length")
        assert stops == 1
        page.keyboard.press("Shift+Tab")
        page.wait_for_timeout(100)
        assert not page.evaluate("() => !!document.activeElement.closest('#hand')")
        view = engine_view(page)
        target = view["legal_cards"][0]
        page.focus(f'#hand [data-card="{target}"]')
        page.keyboard.press("Enter")
        wait_changed(page, m)
        settle(page)
        page.screenshot(path=str(SHOTS / "table-phone-360x740-playing.png"))


def test_a_name_is_not_hyphenated_in_the_game_over_heading(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    """The creatures' names carry soft hyphens (the score sheet's narrow columns break
    there); the game-over heading never splits one ("Boro-gove wins." on a phone)."""
    page = open_table(new_context, site_server,
                      "#seed=hy-23&players=4&bots=random&rules=jabberwocky,schedule:1", PHONE)
    for _ in range(40):
        if settle(page)["phase"] == "game-over":
            break
        act(page)
    line = page.locator("#round-body .winners")
    assert line.inner_text().replace("\u00ad", "") == "Borogove wins."
    # narrower than the name: it may overflow, but it is one piece (one box, no hyphen)
    boxes = page.evaluate("""() => {
        const p = document.querySelector('#round-body .winners');
        p.style.width = '40px';
        const text = p.firstChild, at = text.data.indexOf('Boro');
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, text.data.indexOf('gove') + 4);
        return range.getClientRects().length;
    }""")
    assert boxes == 1, boxes


def test_export_then_import_continues_the_game(new_context: Callable[..., BrowserContext],
                                               site_server: SiteServer, tmp_path: Path) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-export&players=3&bots=random")
    m = settle(page)
    page.click("[data-bid]:not([disabled])")
    wait_changed(page, m)
    before = settle(page)
    # the record is saved from the menu ("Save this game's record"), not the top bar
    assert page.locator('.toolbar [data-action="export-record"]').count() == 0
    page.click('[data-action="menu"]')
    item = page.locator('#menu [data-action="export-record"]')
    assert item.inner_text() == "Save this game's record"
    with page.expect_download() as info:
        item.click()
    path = tmp_path / "game.json"
    info.value.save_as(path)
    assert info.value.suggested_filename == "jabberwocky-e2e-export.json"
    record = json.loads(path.read_text())
    assert record["format"] == "jabberwocky-game/1" and record["seed"] == "e2e-export"
    # A different game through the New game dialog...
    page.click('[data-action="new-game"]')
    page.check('#dlg-new input[name="players"][value="5"]')
    page.fill("#seed-input", "e2e other game")
    page.click('[data-action="start-game"]')
    # a game is in progress: the page asks before throwing it away
    page.click('#dlg-confirm [data-action="confirm-yes"]')
    wait_for_phase(page, "bidding")
    settle(page)
    assert engine_view(page)["players"] == 5
    assert "seed=e2e%20other%20game&players=5" in page.url
    # ...then the record brings the first one back at the same step (after asking, when
    # the other game has begun).
    page.set_input_files("#import-file", str(path))
    confirm_if_asked(page)
    deadline = time.monotonic() + 20
    while engine_view(page)["seed"] != "e2e-export":
        assert time.monotonic() < deadline, "the import did not load"
        page.wait_for_timeout(50)
    after = settle(page)
    assert after["step"] == before["step"]
    assert "seed=e2e-export&players=3" in page.url
    # A foreign file is refused with the engine's message; the game stays.
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else/1"}')
    page.set_input_files("#import-file", str(bad))
    confirm_if_asked(page)
    # (the export's own toast may still be showing: wait for the refusal's words)
    expect(page.locator("#toast")).to_contain_text("could not be loaded", timeout=15_000)
    assert engine_view(page)["seed"] == "e2e-export"


RECORD_SCRIPT = """
import json, sys
from jabberwocky.webapi import WebApi
api = WebApi()
def req(kind, payload=None):
    answer = json.loads(api.handle(kind, json.dumps(payload or {})))
    return answer["result"]
view = req("new_game", {"seed": "e2e-watch", "players": 3, "bots": "random"})
while not (view["round"] >= 4 and view["phase"] == "playing" and view["your_turn"]
           and view["trick"]["cards"]):
    if view["phase"] == "round-over":
        view = req("next_round")
    elif view["your_turn"] and view["phase"] == "bidding":
        view = req("bid", {"bid": view["legal_bids"][-1]})
    elif view["your_turn"]:
        view = req("play", {"card": view["legal_cards"][-1]})
    else:
        view = req("bot_step")["view"]
print(json.dumps({"record": req("export_record")["record"], "step": view["step"]}))
"""


def test_watch_a_record_replays_it_exactly(new_context: Callable[..., BrowserContext],
                                           site_server: SiteServer, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    made = json.loads(subprocess.run([sys.executable, "-c", RECORD_SCRIPT], capture_output=True,
                                     text=True, env=env, check=True).stdout)
    path = tmp_path / "watch.json"
    path.write_text(made["record"])
    page = open_table(new_context, site_server, "#seed=e2e-before-watch&players=4&bots=random")
    settle(page)
    page.click('[data-action="menu"]')
    page.click('[data-action="watch-record"]')
    page.set_input_files("#import-file", str(path))
    confirm_if_asked(page)
    deadline = time.monotonic() + 60
    while not (marks(page).get("step") == str(made["step"]) and marks(page).get("busy") == "false"
               and engine_view(page)["seed"] == "e2e-watch"):
        assert time.monotonic() < deadline, f"the replay stalled at {marks(page)}"
        page.wait_for_timeout(50)
    exported = json.loads(page.evaluate(
        "() => window.__jabberwocky.request('export_record', {}).then(r => r.record)"))
    original = json.loads(made["record"])
    assert exported["rounds"] == original["rounds"]
    # The record is used up: the human takes over at exactly that point.
    page.locator("#watch-bar").wait_for(state="hidden", timeout=10_000)
    assert settle(page)["yourTurn"] == "true"


def test_hint_gives_odds_for_bids_and_a_card_to_play(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-hint&players=4&bots=medium")
    m = settle(page)
    assert m["phase"] == "bidding"
    view = engine_view(page)
    assert page.is_visible("#tips")  # the first-game tip for a bid, which names the hint
    page.click('[data-action="hint"]')
    page.locator("#bid-hint .odds").wait_for(state="visible")
    assert page.is_hidden("#tips")  # asked for, the hint takes the tip's place
    odds = page.eval_on_selector_all(
        "#bid-hint .odds li", "els => els.map(e => parseInt(e.lastChild.textContent))")
    assert len(odds) == view["hand_size"] + 1
    assert 97 <= sum(odds) <= 103  # rounded percentages
    suggested = page.get_attribute("[data-bid].suggested", "data-bid")
    assert suggested is not None and int(suggested) in view["legal_bids"]
    page.click("[data-bid].suggested")
    wait_changed(page, m)
    m = settle(page)
    assert m["phase"] == "playing"
    page.click('[data-action="hint"]')
    page.locator("#toast").filter(has_text="Suggested card").wait_for()
    card = page.evaluate("() => document.activeElement.dataset.card")
    assert card in engine_view(page)["legal_cards"]
    assert "Suggested card" in (page.text_content("#toast") or "")
    assert page.is_hidden("#tips")


def test_a_link_opened_while_the_game_saves_is_followed(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    """A join link opened just as the table saves (its record on the way from the engine)
    opens the join screen, and the address keeps it: the save used to write the game's own
    link over it before the page read it (an online friend's join screen then never came)."""
    page = open_table(new_context, site_server, "#seed=join-race&players=4&bots=random")
    settle(page)
    # hold the next save's record until the link is opened: the record's answer then
    # lands before the page hears of the new address, as it can on a busy machine
    page.evaluate("""() => {
      const engine = window.__jabberwocky.engine;
      const exportRecord = engine.exportRecord.bind(engine);
      engine.exportRecord = () => exportRecord().then((answer) => new Promise((ok) => {
        window.__releaseSave = () => ok(answer);
      }));
    }""")
    bids = page.eval_on_selector_all(
        "[data-bid]", "els => els.filter(e => !e.disabled).map(e => e.dataset.bid)")
    if bids:
        page.click(f'[data-bid="{bids[0]}"]')
    else:
        card = page.eval_on_selector_all(
            "#hand [data-card]", "els => els.filter(e => !e.disabled).map(e => e.dataset.card)")[0]
        page.click(f'#hand [data-card="{card}"]')
    page.wait_for_function("() => typeof window.__releaseSave === 'function'", timeout=15000)
    room = "abcdefghijkmnpqrstuv"
    page.evaluate("(h) => { location.hash = h; window.__releaseSave(); }", f"#join={room}")
    page.locator('#dlg-online [data-action="online-join"]').wait_for(state="visible",
                                                                     timeout=10000)
    assert page.evaluate("() => document.getElementById('dlg-online').dataset.state") == "join"
    assert page.evaluate("location.hash") == f"#join={room}"
