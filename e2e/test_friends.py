"""Same deals, friends and reviews through the page (issue 16): a challenge made in one
browser profile and played in another, round by round and at the end, then passed on;
hostile challenge links; the review of a finished game, of a record file and of a
challenger's game; a take-back that restores the position exactly; pass-and-play with two
people and two bots where no person's hand ever reaches the page while the other holds it."""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import SiteServer, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from pwa_helpers import act, fast_prefs, message_text, set_storage, settle, view

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from jabberwocky.core.errors import ChallengeError  # noqa: E402
from jabberwocky.formats.challenge import decode  # noqa: E402

BOOT = 120.0
DESKTOP = {"width": 1280, "height": 800}
SHORT = "rules=jabberwocky,schedule:2-3"  # two rounds: a whole game in seconds


def profile(new_context: Callable[..., BrowserContext], site_server: SiteServer,
            **options: Any) -> Page:
    """A fresh browser profile with bots acting at once and no first-game tips."""
    context = new_context(viewport=options.pop("viewport", DESKTOP), reduced_motion="reduce",
                          **options)
    page = context.new_page()
    set_storage(page, site_server.url, fast_prefs())
    return page


def play_round(page: Page) -> dict[str, Any]:
    """Play the human's moves until the round (or game) is over; the view at its end."""
    for _ in range(400):
        m = settle(page, handoff=True)
        if m["phase"] in ("round-over", "game-over"):
            return view(page)
        act(page)
        page.wait_for_timeout(30)
    raise AssertionError("the round did not end")


def next_round(page: Page) -> None:
    page.click('#round-panel [data-action="next-round"]')
    wait_for_phase(page, ("bidding", "playing"), 30)


def play_to_the_end(page: Page) -> list[list[str]]:
    """Play the whole game; the human's hand at the start of each round."""
    hands = []
    while True:
        hands.append(sorted(view(page)["hand"]))
        end = play_round(page)
        if end["phase"] == "game-over":
            return hands
        next_round(page)


def make_challenge(page: Page, name: str) -> str:
    page.click('#round-panel [data-action="challenge-friend"]')
    page.fill("#challenge-name", name)
    copy = page.locator('#dlg-challenge [data-action="challenge-copy"]')
    assert copy.is_disabled(), "Copy before there is a link to copy"
    page.click('#dlg-challenge [data-action="challenge-make"]')
    wait_for_dataset_of(page, "#dlg-challenge", "made", "true")
    assert copy.is_enabled()
    link = page.input_value("#challenge-link")
    page.click('#dlg-challenge button[type="submit"]')
    return link


def wait_for_dataset_of(page: Page, selector: str, key: str, value: str,
                        timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while page.evaluate("([s, k]) => document.querySelector(s)?.dataset[k]", [selector, key]) \
            != value:
        assert time.monotonic() < deadline, f"{selector} data-{key} never became {value}"
        page.wait_for_timeout(50)


def accept_invitation(page: Page, link: str, name: str) -> str:
    page.goto(link)
    page.locator("#dlg-invite[open]").wait_for(timeout=BOOT * 1000)
    title = page.inner_text("#invite-title")
    page.fill("#invite-name", name)
    page.click('[data-action="invite-accept"]')
    wait_for_phase(page, ("bidding", "playing"), 30)
    return title


def test_a_challenge_is_played_in_another_profile_compared_and_passed_on(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    alex = profile(new_context, site_server)
    alex.goto(site_server.url + f"#seed=e2e-friends&players=4&bots=medium&{SHORT}")
    wait_for_phase(alex, ("bidding", "playing"), BOOT)
    alex_hands = play_to_the_end(alex)
    alex_end = view(alex)
    link = make_challenge(alex, "Alex")
    assert "#challenge=jc1." in link and len(link.split("#", 1)[1]) < 1000

    maria = profile(new_context, site_server)  # another profile: nothing shared but the link
    title = accept_invitation(maria, link, "Maria")
    assert "Alex" in title
    assert view(maria)["challenge"] is True
    maria_hands = []
    for alex_round in alex_end["history"]:
        maria_hands.append(sorted(view(maria)["hand"]))
        end = play_round(maria)
        # how Alex did on this deal, beside Maria's own round
        line = maria.inner_text('#round-panel [data-challenge] li[data-player="1"]') if \
            end["phase"] == "round-over" else None
        if line is not None:
            assert f"bid {alex_round['bids'][0]}, took {alex_round['taken'][0]}" in line, line
            assert "Alex" in line
        if end["phase"] == "game-over":
            break
        next_round(maria)
    assert maria_hands == alex_hands  # the same deals
    final = maria.locator('#round-panel [data-challenge="final"]')
    final.wait_for()
    totals = [int(x) for x in final.locator("tfoot td").evaluate_all(
        "(cells) => cells.map((c) => c.dataset.total)")]
    assert totals == [alex_end["scores"][0], view(maria)["scores"][0]]
    heads = final.locator("thead th").all_inner_texts()
    assert heads[1:] == ["Alex", "Maria"]
    assert final.locator("tbody tr").count() == len(alex_end["history"])

    # passed on: the next friend sees both results
    again = make_challenge(maria, "Maria")
    jan = profile(new_context, site_server)
    jan.goto(again)
    jan.locator("#dlg-invite[open]").wait_for(timeout=BOOT * 1000)

    def points(n: int) -> str:
        return f"{n} point" if n == 1 else f"{n} points"

    assert jan.locator("#invite-list li").all_inner_texts() == [
        f"Alex: {points(alex_end['scores'][0])}", f"Maria: {points(view(maria)['scores'][0])}"]
    assert jan.evaluate("() => document.getElementById('dlg-invite').dataset.results") == "2"

    # Alex's game, reviewed from Maria's final table, face up
    maria.click('#round-panel [data-action="challenge-review"][data-player="1"]')
    wait_for_dataset_of(maria, "#dlg-review", "state", "ready")
    assert maria.inner_text("#review-title").endswith("e2e-friends")
    assert "Alex" in maria.inner_text("#review-hands")


def short(card: str) -> str:
    """A card as the page writes it in lists ("10♥")."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[card[1]]


def hostile_variants(text: str) -> dict[str, str]:
    """Damaged challenge texts made from a good one (each checked to be refused)."""
    spec = importlib.util.spec_from_file_location("challenge_cases", ROOT / "tests" /
                                                  "test_challenge.py")
    assert spec and spec.loader
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    names = ["empty", "a seed link", "version 3", "bad base64 character", "padding",
             "truncated by half", "truncated by 4", "only the prefix", "extra bytes",
             "one character changed", "checksum changed", "total changed, checksum made good",
             "six results", "no human", "a name with a bidi override", "oversized"]
    out = {}
    for name in names:
        bad = cases.HOSTILE[name][0](text)
        with pytest.raises(ChallengeError):
            decode(bad)
        out[name] = bad
    return out


@pytest.mark.allow_console_errors
def test_hostile_challenge_links_open_a_normal_game_with_a_message(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    alex = profile(new_context, site_server)
    alex.goto(site_server.url + f"#seed=e2e-hostile-challenge&players=4&bots=random&{SHORT}")
    wait_for_phase(alex, ("bidding", "playing"), BOOT)
    play_to_the_end(alex)
    link = make_challenge(alex, "Alex")
    text = link.split("#challenge=", 1)[1]
    variants = hostile_variants(text)
    assert len(variants) >= 10
    page = profile(new_context, site_server)
    failures = []
    for name, bad in variants.items():
        try:
            page.goto("about:blank")
            page.goto(site_server.url + "#challenge=" + bad.replace("%", "%25").replace(" ", "%20")
                      .replace("#", "%23").replace("&", "%26"))
            wait_for_phase(page, ("bidding", "playing"), BOOT)
            assert message_text(page), "no message"
            assert not page.locator("#dlg-invite[open]").count(), "an invitation was shown"
            v = view(page)
            assert v["challenge"] is False
            try:
                game = decode(bad)
            except ChallengeError as exc:
                game = exc.game
            if game is not None:  # its table could be read: its deals are on the table
                assert v["seed"] == game["seed"], (v["seed"], game["seed"])
            act(page)  # and it plays
        except Exception as exc:  # every case is reported together
            failures.append(f"{name}: {exc}")
    assert not failures, "\n".join(failures)


def test_the_review_steps_through_a_finished_game_with_the_hard_bots_view(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = profile(new_context, site_server)
    page.goto(site_server.url + f"#seed=e2e-review&players=4&bots=medium&{SHORT}")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    play_to_the_end(page)
    page.click('#round-panel [data-action="review"]')
    wait_for_dataset_of(page, "#dlg-review", "state", "ready")
    dlg = "#dlg-review"
    steps = int(page.evaluate("() => document.getElementById('dlg-review').dataset.steps"))
    decisions = page.evaluate("() => document.getElementById('dlg-review').dataset.decisions")
    timeline = page.evaluate("() => window.__jabberwocky.request('review', {})")
    assert steps == len(timeline["steps"]) and int(decisions) == len(timeline["decisions"])
    # every step, one arrow at a time, from the first to the last
    page.keyboard.press("Home")
    at = lambda: int(page.evaluate("() => document.getElementById('dlg-review').dataset.step"))  # noqa: E731
    assert at() == 0
    cards_seen = 0
    for i in range(steps):
        assert at() == i
        step = timeline["steps"][i]
        hands = page.locator("#review-hands li").all_inner_texts()
        assert len(hands) == 4  # every hand, in words too
        if step["kind"] == "card":
            cards_seen += 1
            assert short(step["value"]) in hands[step["seat"]].split(": ", 1)[1].split(", ")
        page.keyboard.press("ArrowRight")
    assert at() == steps - 1 and cards_seen == 4 * (2 + 3)
    page.keyboard.press("End")
    assert at() == steps - 1
    # the round picker and the trick picker jump
    page.select_option("#review-round", "2")
    assert at() == timeline["rounds"][1]["first_step"]
    page.select_option("#review-trick", "2")
    assert at() == timeline["rounds"][1]["tricks"][1]
    # the hard bot looks at every decision in the background; the marks follow its answers
    wait_for_dataset_of(page, dlg, "analysed", decisions, timeout=180)
    first = timeline["decisions"][0]
    page.keyboard.press("Home")
    if first != 0:
        page.click(f'{dlg} [data-action="review-next-decision"]')
    assert at() == first
    answer = page.evaluate(
        "(s) => window.__jabberwocky.request('review_analyse', {step: s})", first)
    marked = page.evaluate("() => document.getElementById('dlg-review').dataset.differs")
    assert marked == str(answer["differs"]).lower()
    verdict = page.inner_text("#review-verdict")
    assert ("hard bot would" in verdict) or verdict.startswith("Bid ")
    # a card: the hard bot plays its cards for the game, and the verdict says so in numbers
    for step in timeline["decisions"]:
        if timeline["steps"][step]["kind"] != "card":
            continue
        answer = page.evaluate(
            "(s) => window.__jabberwocky.request('review_analyse', {step: s})", step)
        if isinstance(answer.get("chosen_win"), float):
            while at() < step:
                page.click(f'{dlg} [data-action="review-next-decision"]')
            verdict = page.inner_text("#review-verdict")
            assert "chance of winning the game" in verdict and "of making the bid" in verdict, \
                verdict
            break
    else:
        raise AssertionError("no card decision of yours was rated for the game")
    page.keyboard.press("Home")
    page.click("#review-analysis summary")
    rows = page.locator("#review-rounds tbody tr")
    assert rows.count() == 2
    bid_row = rows.nth(0).locator("td").all_inner_texts()
    assert bid_row[0].startswith(str(timeline["steps"][first]["value"]))
    # what a bot saw: its own hand and the open table, no one else's cards
    bot_step = next(s for s in timeline["steps"] if not s["human"] and s["kind"] == "card")
    page.select_option("#review-round", str(bot_step["round"]))
    while at() < bot_step["step"]:
        page.keyboard.press("ArrowRight")
    page.keyboard.press("s")
    page.locator("#review-seen h3").wait_for()
    seen = page.evaluate("(s) => window.__jabberwocky.request('review_seen', {step: s})",
                         bot_step["step"])
    assert set(seen["observation"]["hand"]) == set(bot_step["hands"][bot_step["seat"]])
    others = {c for s, h in enumerate(bot_step["hands"]) if s != bot_step["seat"] for c in h}
    assert not others & set(seen["observation"]["hand"])
    text = page.inner_text("#review-seen")
    assert "Hand:" in text and "The bot's own dice: random stream" in text
    # at your own seat no bot's dice are spoken of
    mine = next((s for s in timeline["steps"] if s["human"] and s["step"] > bot_step["step"]
                 and s["round"] == bot_step["round"]), None)
    if mine is not None:
        while at() < mine["step"]:
            page.keyboard.press("ArrowRight")
        if not page.locator("#review-seen").is_visible():  # a move closes it: open it again
            page.keyboard.press("s")
        for _ in range(100):
            if page.evaluate("() => document.getElementById('review-seen').dataset.step") \
                    == str(mine["step"]) and "Hand:" in page.inner_text("#review-seen"):
                break
            page.wait_for_timeout(50)
        text = page.inner_text("#review-seen")
        assert "Hand:" in text and "dice" not in text and "random stream" not in text, text
    page.click(f'{dlg} [data-action="review-close"]')
    wait_for_dataset_of(page, dlg, "state", "closed")


def test_a_record_file_can_be_reviewed(new_context: Callable[..., BrowserContext],
                                       site_server: SiteServer) -> None:
    page = profile(new_context, site_server)
    page.goto(site_server.url + f"#seed=e2e-review-file&players=3&bots=easy&{SHORT}")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    play_to_the_end(page)
    record = page.evaluate("() => window.__jabberwocky.request('export_record', {})")["record"]
    page.goto(site_server.url + "#seed=another-game&players=4&bots=random")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    page.click('[data-action="menu"]')
    with page.expect_file_chooser() as chooser:
        page.click('#menu [data-action="review-record"]')
    chooser.value.set_files(files=[{"name": "game.json", "mimeType": "application/json",
                                    "buffer": record.encode()}])
    wait_for_dataset_of(page, "#dlg-review", "state", "ready")
    assert page.inner_text("#review-title").endswith("e2e-review-file")
    assert page.evaluate("() => document.getElementById('dlg-review').dataset.steps") == str(
        3 * (1 + 2) + 3 * (1 + 3))
    assert view(page)["seed"] == "another-game"  # the game on the table is untouched


def test_a_take_back_restores_the_previous_position_exactly(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = profile(new_context, site_server)
    page.goto(site_server.url + "#seed=e2e-take-back&players=4&bots=hard")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    ignore = {"takebacks", "can_take_back"}
    done = 0
    while done < 6:  # a bid, then cards: each taken back and made again
        if settle(page, handoff=True)["phase"] == "round-over":
            next_round(page)
            continue
        before = {k: v for k, v in view(page).items() if k not in ignore}
        act(page)
        settle(page, handoff=True)
        assert view(page)["step"] > before["step"]
        page.keyboard.press("u")
        settle(page, handoff=True)
        after = {k: v for k, v in view(page).items() if k not in ignore}
        assert after == before
        act(page)  # the same move again: the bots answer as before
        done += 1
    assert view(page)["takebacks"] == 6


def test_pass_and_play_hides_each_persons_hand_from_the_other(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = profile(new_context, site_server, viewport={"width": 390, "height": 844},
                   has_touch=True, is_mobile=True)
    page.goto(site_server.url + f"#seed=e2e-pass&players=4&bots=medium&{SHORT}")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    page.click('[data-action="new-game"]')
    page.check("#multi")
    page.select_option('[data-seat-kind="1"]', "medium")
    page.select_option('[data-seat-kind="2"]', "human")
    page.select_option('[data-seat-kind="3"]', "easy")
    page.fill('[data-seat-name="0"]', "Maria")
    page.fill('[data-seat-name="2"]', "Jan")
    page.click('[data-action="start-game"]')
    if page.locator('#dlg-confirm[open]').count():
        page.click('[data-action="confirm-yes"]')
    handoffs = 0
    shown_hands: list[tuple[int, int, set[str]]] = []  # (round, seat, cards shown)
    for _ in range(600):
        m = settle(page, handoff=True)
        table = page.evaluate("() => window.__jabberwocky.table()")
        v = table["view"]
        if m["phase"] == "game-over":
            break
        if m.get("handoff") == "true":
            handoffs += 1
            # nothing of anyone's hand on the page: not in the DOM, not in what the canvas draws
            assert v["hand"] == [] and v["legal_cards"] == [] and v["legal_bids"] == []
            assert page.locator("#hand [data-card]").count() == 0
            assert page.locator("#handoff").is_visible()
            name = "Maria" if v["to_act"] == 0 else "Jan"
            assert name in page.inner_text("#handoff-text")
            page.click('[data-action="reveal"]')
            continue
        if m["phase"] == "round-over":
            next_round(page)
            continue
        if m.get("yourTurn") == "true":
            # the hand shown is the acting person's own, and only theirs
            seat = v["to_act"]
            assert v["viewer"] == seat and seat in (0, 2)
            shown = {b for b in page.locator("#hand [data-card]").evaluate_all(
                "(bs) => bs.map((b) => b.dataset.card)")}
            assert shown == set(v["hand"])
            shown_hands.append((v["round"], seat, shown))
            act(page)
    else:
        raise AssertionError("the game did not end")
    assert handoffs >= 4
    assert page.evaluate("() => document.body.dataset.phase") == "game-over"
    # every hand shown was the acting person's own (the record, once the game is over)
    record = json.loads(page.evaluate(
        "() => window.__jabberwocky.request('export_record', {})")["record"])
    assert record["seats"] == ["human", "medium", "human", "easy"]
    for rnd, seat, shown in shown_hands:
        assert shown <= set(record["rounds"][rnd - 1]["hands"][seat])
    assert {seat for _, seat, _ in shown_hands} == {0, 2}
