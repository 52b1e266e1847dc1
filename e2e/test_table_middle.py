"""The table read at one glance on every size (issue 43): a trick gathered in a compact
middle, each bid in a bubble at the bidder's seat until the round's first card, the
winner of a trick said with why (a trump, or the highest of the suit led) under the
cards, not over them, and the bots' faces big enough to read on a phone."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from conftest import SiteServer, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from pwa_helpers import marks

BOOT = 120.0
SIZES = [(390, 844), (844, 390), (1280, 800)]
# A full trick's cards fit in this share of the table's width and of its height (the
# screen under the top bar), and their middle is this close to the table's middle.
MAX_W = 0.5
MAX_H = 0.45
OFF_CENTRE = 0.1


def open_table(new_context: Callable[..., BrowserContext], site_server: SiteServer,
               fragment: str, width: int, height: int, hold_ms: int = 4000,
               beat_ms: int = 0) -> Page:
    """A table with reduced motion; a finished trick stays `hold_ms`, a bot's move waits
    `beat_ms`."""
    context = new_context(reduced_motion="reduce", viewport={"width": width, "height": height})
    context.add_init_script(
        f"try {{ localStorage.setItem('jabberwocky.readableMs', '{hold_ms}');"
        f" localStorage.setItem('jabberwocky.beatMs', '{beat_ms}') }} catch (e) {{}}")
    page = context.new_page()
    page.goto(site_server.url + fragment)
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    return page


def state(page: Page) -> Any:
    return page.evaluate("() => window.__jabberwocky.request('state', {})")


def act(page: Page, m: dict[str, str]) -> None:
    if m["phase"] == "bidding":
        page.click("[data-bid]:not([disabled])")
    elif m["phase"] == "playing":
        page.click('#hand [data-card][aria-disabled="false"]')
    else:
        page.click('[data-action="next-round"]')


def until_a_trick_is_won(page: Page, timeout: float = 90.0) -> dict[str, str]:
    """Play the first thing allowed until the table shows a finished trick; its markers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = marks(page)
        if m.get("trickWinner"):
            return m
        waiting = m.get("yourTurn") == "true" or m.get("phase") == "round-over"
        if m.get("busy") == "false" and waiting:
            act(page, m)
        page.wait_for_timeout(30)
    raise AssertionError(f"no finished trick shown: {marks(page)}")


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


@pytest.mark.readable_hold
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_finished_trick_sits_together_in_the_middle_with_its_winner_and_why(
        width: int, height: int, new_context: Callable[..., BrowserContext],
        site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-middle&players=4&bots=random",
                      width, height)
    m = until_a_trick_is_won(page)
    assert m["trickCards"] == "4", m
    view = state(page)
    last = view["last_trick"]
    assert m["trickWinner"] == str(last["winner"])
    # why: the engine's reason, which the open cards bear out
    card = last["cards"][(last["winner"] - last["leader"]) % 4]
    assert m["trickWhy"] == ("trump" if card[1] == view["trump_suit"] else "led"), (m, last)
    # a screen reader hears it too
    live = page.text_content("#live") or ""
    assert ("The highest trump." if m["trickWhy"] == "trump"
            else "The highest card of the suit led") in live, live
    L = page.evaluate("() => window.__jabberwocky.layout()")
    cards = [{"x": p["x"], "y": p["y"], "w": L["trickW"], "h": L["trickH"]} for p in L["trickPos"]]
    left = min(c["x"] for c in cards)
    right = max(c["x"] + c["w"] for c in cards)
    top = min(c["y"] for c in cards)
    bottom = max(c["y"] + c["h"] for c in cards)
    table_h = height - L["top"]
    assert right - left <= MAX_W * width, (width, height, left, right)
    assert bottom - top <= MAX_H * table_h, (width, height, top, bottom)
    assert abs((left + right) / 2 - width / 2) <= OFF_CENTRE * width, (left, right)
    assert abs((top + bottom) / 2 - (L["top"] + height) / 2) <= 0.2 * table_h, (top, bottom)
    # the winner's words and the reason (two lines) cover none of the trick's cards
    label = L["label"]
    lw = L["labelMax"]
    lx = {"center": label["x"] - lw / 2, "left": label["x"],
          "right": label["x"] - lw}[label["align"]]
    words = {"x": lx, "y": label["y"] - 25, "w": lw, "h": 50}
    assert not any(overlap(words, c) for c in cards), (label, cards)


@pytest.mark.readable_hold
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_each_bid_shows_at_its_seat_until_the_first_card(
        width: int, height: int, new_context: Callable[..., BrowserContext],
        site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-bubbles&players=4&bots=random",
                      width, height, hold_ms=40, beat_ms=700)
    rounds = 0
    seen = {"bidding": 0, "before first card": 0, "cards": 0}
    deadline = time.monotonic() + 150
    while rounds < 2:
        assert time.monotonic() < deadline, (seen, marks(page))
        m = marks(page)
        bubbles = m.get("bidBubbles", "")
        if m.get("trickCards", "0") != "0":  # a card on the table: the badges say the bids
            assert bubbles == "", m
            seen["cards"] += 1
        if m.get("busy") != "false":
            page.wait_for_timeout(20)
            continue
        if m["phase"] == "bidding" and m["yourTurn"] == "true":
            view = state(page)
            # every bid made so far, each at its seat
            assert bubbles == " ".join(f"{s}:{b}" for s, b in enumerate(view["bids"])
                                       if b is not None), (m, view["bids"])
            seen["bidding"] += 1
            page.click("[data-bid]:not([disabled])")
            # yours too, at once (a bot's beat is 700 ms: no card lands before)
            page.wait_for_function("() => document.body.dataset.bidBubbles.split(' ')"
                                   ".some((b) => b.startsWith('0:'))", timeout=5000)
        elif m["phase"] == "playing" and m["trickCards"] == "0":
            view = state(page)
            if not view["tricks"] and not view["trick"]["cards"]:
                # all four bids stay until the round's first card is on the table
                assert len(bubbles.split()) == 4, m
                seen["before first card"] += 1
            if m["yourTurn"] == "true":
                act(page, m)
        elif m["phase"] == "round-over":
            rounds += 1
            act(page, m)
        elif m["yourTurn"] == "true":
            act(page, m)
        page.wait_for_timeout(20)
    assert seen["bidding"] >= 2 and seen["cards"] > 0, seen


@pytest.mark.readable_hold
def test_the_bots_faces_are_big_on_a_phone_and_show_how_they_feel_and_bids_end_marked(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_table(new_context, site_server, "#seed=e2e-moods&players=4&bots=random",
                      390, 844, hold_ms=40, beat_ms=500)
    L = page.evaluate("() => window.__jabberwocky.layout()")
    for seat in L["seats"][1:]:
        assert seat["face"]["size"] >= 40, seat
    # pointing at a face and its dots names the bot and explains the dots
    face = L["seats"][1]["face"]
    page.mouse.move(face["x"] + face["size"] / 2, face["y"] + face["size"] + 5)
    title = page.evaluate("() => document.getElementById('canvas').title")
    assert title.startswith("Jubjub: Random bot\n●●●○○: the bot's level"), title
    thinking = set()
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, marks(page)
        m = marks(page)
        view = state(page)
        moods = dict(x.split(":") for x in m.get("moods", "").split())
        acting = view["to_act"] not in (None, 0) and m["phase"] in ("bidding", "playing")
        if acting and moods.get(str(view["to_act"])) == "thinking":
            thinking.add(view["to_act"])
        if m["phase"] == "round-over" and m["busy"] == "false":
            result = view["round_result"]
            for s in (1, 2, 3):
                made = result["bids"][s] == result["taken"][s]
                assert moods[str(s)] == ("pleased" if made else "dismayed"), (moods, result)
            # and every seat's bid marked made or missed at the seat
            assert m["bidResults"] == " ".join(
                f"{s}:{'made' if b == t else 'missed'}"
                for s, (b, t) in enumerate(zip(result["bids"], result["taken"], strict=True))), m
            break
        if m["busy"] == "false" and m["yourTurn"] == "true":
            act(page, m)
        page.wait_for_timeout(20)
    assert thinking, "no bot was seen thinking on its turn"
