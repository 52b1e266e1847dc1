"""The first minute as a new player feels it (issue 30): nothing accepts input before
the human's cards have landed; with reduced motion the bots' cards still arrive one by
one, a readable beat apart (no flying, but who played what, in order, stays visible); the
menu fits the screen; the New game dialog's choices are said whole on a phone; keyboard
focus on a card is unmistakable in both themes; on a phone the first-game tips cover
neither your cards nor the bid buttons, one at a time."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest
from conftest import SiteServer, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from pwa_helpers import PREFS_KEY, fast_prefs, set_storage, settle, view

BOOT = 120.0
DESKTOP = {"width": 1280, "height": 800}

# Each change of `data-your-turn` and `data-trick-cards` is kept with its time.
WATCH = """
(() => {
  const log = window.__rhythm = { clicks: [], turn: [], trick: [] };
  const seen = { turn: null, trick: null };
  const look = () => {
    const d = document.body && document.body.dataset;
    if (!d) return;
    const now = performance.now();
    if (d.yourTurn !== seen.turn) log.turn.push([now, seen.turn = d.yourTurn]);
    if (d.trickCards !== seen.trick) log.trick.push([now, seen.trick = d.trickCards]);
  };
  new MutationObserver(look).observe(document, {
    attributes: true, subtree: true, attributeFilter: ["data-your-turn", "data-trick-cards"],
  });
})();
"""


# From the first moment, "bid 0" is clicked as soon as it is enabled (a quick tap).
TAP = """
setInterval(() => {
  const b = document.querySelector('[data-bid="0"]');
  const log = window.__rhythm;
  if (b && !b.disabled && log && log.clicks.length === 0) {
    log.clicks.push(performance.now());
    b.click();
  }
}, 5);
"""


def open_watched(new_context: Callable[..., BrowserContext], site_server: SiteServer,
                 fragment: str, prefs: dict[str, Any], tap: bool = False,
                 **options: Any) -> Page:
    context = new_context(viewport=DESKTOP, **options)
    page = context.new_page()
    set_storage(page, site_server.url, {PREFS_KEY: json.dumps({"prefs": prefs})})
    context.add_init_script(WATCH + (TAP if tap else ""))
    page.goto(site_server.url + fragment)
    return page


def dealt_at(page: Page) -> float | None:
    """When the first deal's cards had all landed (ms), or None while they are flying."""
    at: float | None = page.evaluate(
        "() => performance.getEntriesByName('jabberwocky:dealt')[0]?.startTime ?? null")
    return at


def test_no_bid_is_accepted_before_the_hand_has_landed(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    # seed e2e-landed, four players: seat 3 deals round 1, so the human bids first, while
    # the deal's cards (three each, at normal speed: about 0.7 s) are still flying in
    page = open_watched(new_context, site_server, "#seed=e2e-landed&players=4&bots=random",
                        {"speed": "normal", "tipsDone": True}, tap=True)
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    deadline = time.monotonic() + 30
    while view(page)["bids"][0] is None:  # the quick tap is taken once it may be
        assert time.monotonic() < deadline, "the human's bid was never taken"
        page.wait_for_timeout(50)
    landed = dealt_at(page)
    log = page.evaluate("() => window.__rhythm")
    assert landed is not None, f"a bid was taken while the cards were still flying: {log}"
    assert log["clicks"], log
    early = landed - log["clicks"][0]
    assert early <= 0, f"a bid was taken {early:.0f} ms before the cards landed"
    yours = [at for at, value in log["turn"] if value == "true"]
    assert yours and yours[0] >= landed, (yours, landed)
    assert view(page)["bids"][0] == 0


@pytest.mark.readable_hold
def test_with_reduced_motion_the_bots_cards_arrive_one_by_one_with_a_pause(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    page = open_watched(new_context, site_server, "#seed=e2e-beat&players=4&bots=random",
                        {"speed": "normal", "tipsDone": True}, reduced_motion="reduce")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    deadline = time.monotonic() + 90
    while True:  # play two tricks: the bots play several cards in a row
        m = settle(page)
        v = view(page)
        if len(v["tricks"]) >= 2 or m["phase"] not in ("playing", "bidding"):
            break
        assert time.monotonic() < deadline, m
        page.wait_for_timeout(400)  # the human takes a moment: only the bots' beat is timed
        if m["phase"] == "bidding":
            page.click("[data-bid]:not([disabled])")
        else:
            page.click('#hand [data-card][aria-disabled="false"]')
        page.wait_for_timeout(100)
    log = page.evaluate("() => window.__rhythm")["trick"]
    # each card the table shows (1 → 2 → 3 → 4 in one trick) comes a readable beat after the last
    steps = [(at, int(n)) for at, n in log if n is not None]
    gaps = [b[0] - a[0] for a, b in pairwise(steps) if b[1] == a[1] + 1 and a[1] >= 1]
    assert len(gaps) >= 3, log
    assert min(gaps) >= 300, f"cards arrived {min(gaps):.0f} ms apart: {gaps}"


def open_table_in(new_context: Callable[..., BrowserContext], site_server: SiteServer,
                  size: dict[str, int], lang: str, seed: str) -> Page:
    """A table of four (random bots) in ``lang`` at ``size``, reduced motion, dealt."""
    page = new_context(viewport=size, reduced_motion="reduce").new_page()
    set_storage(page, site_server.url, fast_prefs())
    page.goto(site_server.url + f"#seed={seed}&players=4&bots=random&lang={lang}")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    return page


@pytest.mark.parametrize(("size", "lang"), [
    ({"width": 1280, "height": 800}, "en"), ({"width": 390, "height": 844}, "en"),
    ({"width": 390, "height": 844}, "de"), ({"width": 844, "height": 390}, "de"),
    ({"width": 360, "height": 740}, "cs"),
])
def test_the_menu_fits_the_screen(new_context: Callable[..., BrowserContext],
                                  site_server: SiteServer, size: dict[str, int], lang: str) -> None:
    page = open_table_in(new_context, site_server, size, lang, "e2e-menu")
    page.click('[data-action="menu"]')
    page.locator("#menu").wait_for(state="visible")
    fit = page.evaluate("""() => {
        const menu = document.getElementById("menu");
        const r = menu.getBoundingClientRect();
        const bottom = (id) => document.getElementById(id).getBoundingClientRect().bottom;
        return { bottom: r.bottom, height: innerHeight, scroll: menu.scrollHeight,
                 client: menu.clientHeight, sound: bottom("sound"), speed: bottom("speed") };
    }""")
    assert fit["bottom"] <= fit["height"], fit
    assert fit["scroll"] <= fit["client"] + 1, f"the menu scrolls inside: {fit}"
    assert fit["sound"] <= fit["bottom"] and fit["speed"] <= fit["bottom"], fit


# Every select of the open New game dialog whose chosen words do not fit its box (the
# words' width in the select's own font, with its padding and ~20 px for its arrow).
CUT_SELECTS = """() => [...document.querySelectorAll("#dlg-new select")]
    .filter((s) => s.checkVisibility())
    .map((s) => {
        const cs = getComputedStyle(s);
        const ctx = document.createElement("canvas").getContext("2d");
        ctx.font = cs.font;
        const words = s.options[s.selectedIndex]?.text ?? "";
        const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        return { id: s.id, words, width: Math.ceil(ctx.measureText(words).width), room };
    })
    .filter((x) => x.width > x.room)"""


@pytest.mark.parametrize(("size", "lang"), [
    ({"width": 360, "height": 740}, "cs"), ({"width": 360, "height": 740}, "de"),
    ({"width": 390, "height": 844}, "en"), ({"width": 360, "height": 740}, "ko"),
])
def test_the_new_game_dialog_says_each_choice_whole(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        size: dict[str, int], lang: str) -> None:
    # a phone's select cannot wrap: the preset is named in it, and what sets the preset
    # apart is said in a line of its own beneath (it was cut: "Jabberwocky (3…9…3, 1 po")
    page = open_table_in(new_context, site_server, size, lang, "e2e-dialog")
    page.click('.toolbar [data-action="new-game"]')
    page.locator("#dlg-new").wait_for(state="visible")
    page.click("#rule-options summary")
    for preset in ("oh-hell", "honour", "jabberwocky"):
        page.select_option("#rules-preset", preset)
        assert page.evaluate(CUT_SELECTS) == [], preset
        details = page.locator("#rules-preset-details")
        assert details.is_visible() and details.inner_text().strip(), preset
    if lang == "en":
        assert page.locator("#rules-preset-details").inner_text() == \
            "3…9…3 cards, 1 point per exact bid"
        page.select_option("#rules-preset", "oh-hell")
        assert page.locator("#rules-preset option:checked").inner_text() == "Oh Hell"
        assert page.locator("#rules-preset-details").inner_text() == \
            "7…1…7 cards, 10 + bid, trump led any time"


# Along the focused card's left edge, at its middle: the canvas's pixels from 16 px outside
# the card to 4 px inside, as [r, g, b].
EDGE_PIXELS = """(card) => {
    const hit = document.querySelector(`#hand [data-card="${card}"]`).getBoundingClientRect();
    const canvas = document.getElementById("canvas");
    const box = canvas.getBoundingClientRect();
    const k = canvas.width / box.width;
    const y = Math.round((hit.top + hit.height / 2 - box.top) * k);
    const x0 = Math.round((hit.left - 16 - box.left) * k);
    const n = Math.round(20 * k);
    const data = canvas.getContext("2d").getImageData(x0, y, n, 1).data;
    const out = [];
    for (let i = 0; i < n; i++) out.push([data[4 * i], data[4 * i + 1], data[4 * i + 2]]);
    return { pixels: out, scale: k };
}"""
FOCUS = (79, 209, 255)  # render.js FOCUS


def focus_ring(pixels: list[list[int]]) -> tuple[int, bool]:
    """The longest run of the focus colour, and whether a dark band lies beside it."""
    near = [all(abs(c - f) <= 40 for c, f in zip(p, FOCUS, strict=True)) for p in pixels]
    dark = [0.3 * p[0] + 0.59 * p[1] + 0.11 * p[2] < 40 for p in pixels]
    best, run, framed = 0, 0, False
    for i, on in enumerate(near):
        run = run + 1 if on else 0
        if run > best:
            best = run
            start = i - run + 1
            framed = any(dark[max(0, start - 4):start]) and any(dark[i + 1:i + 5])
    return best, framed


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_keyboard_focus_on_a_card_is_unmistakable(
        new_context: Callable[..., BrowserContext], site_server: SiteServer, theme: str) -> None:
    context = new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    prefs = {"speed": "instant", "tipsDone": True, "theme": theme}
    set_storage(page, site_server.url, {PREFS_KEY: json.dumps({"prefs": prefs})})
    page.goto(site_server.url + "#seed=e2e-focus&players=4&bots=random")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    settle(page)
    assert page.evaluate("() => document.body.dataset.theme") == theme
    card = view(page)["hand"][1]
    page.wait_for_timeout(200)
    unfocused = page.evaluate(EDGE_PIXELS, card)
    assert focus_ring(unfocused["pixels"])[0] == 0
    page.keyboard.press("Tab")
    page.focus(f'#hand [data-card="{card}"]')
    page.keyboard.press("Shift")  # a key: the page knows the keyboard is in use
    page.wait_for_timeout(300)
    focused = page.evaluate(EDGE_PIXELS, card)
    width, framed = focus_ring(focused["pixels"])
    assert width >= 3 * focused["scale"], f"a {width} px ring: {focused}"
    assert framed, f"the ring has no dark frame: {focused}"


# The tip's box and every box it must leave free: your cards (raised ones too), the bid
# panel, the claim button.
TIP_BOXES = """() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return { x: r.left, y: r.top, w: r.width, h: r.height };
    };
    const byId = (id) => document.getElementById(id);
    const tip = byId("tips");
    const shown = (el) => !el.hidden && getComputedStyle(el).display !== "none";
    const others = [...document.querySelectorAll("#hand [data-card]"), byId("bid-panel"),
                    byId("claim-button")].filter(shown).map(box);
    return { tip: shown(tip) ? box(tip) : null, spot: tip.dataset.spot, others,
             text: byId("tips-text").textContent, w: innerWidth, h: innerHeight };
}"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and \
        a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 844, "height": 390}],
                         ids=["upright", "on-its-side"])
@pytest.mark.readable_hold  # the bots' real beats: the bid tip must not wait for them
def test_on_a_phone_the_tips_cover_neither_the_cards_nor_the_bid_buttons(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        size: dict[str, int]) -> None:
    context = new_context(viewport=size, reduced_motion="reduce")
    page = context.new_page()
    page.goto(site_server.url + "#seed=e2e-tips&players=5&bots=random")
    texts = []
    for phase in ("bidding", "playing"):
        wait_for_phase(page, (phase,), BOOT)
        settle(page)
        boxes = page.evaluate(TIP_BOXES)
        assert boxes["tip"] is not None and boxes["spot"] == "free", boxes
        tip = boxes["tip"]
        assert tip["x"] >= 0 and tip["x"] + tip["w"] <= boxes["w"], boxes
        assert tip["y"] >= 0 and tip["y"] + tip["h"] <= boxes["h"], boxes
        for other in boxes["others"]:
            assert not overlaps(tip, other), f"the {phase} tip covers {other}: {boxes}"
        texts.append(boxes["text"])
        assert page.locator("#tips").count() == 1  # one tip at a time
        if phase == "bidding":
            page.click("[data-bid]:not([disabled])")
            # the bid tip goes with the bid, not once the bots after you have bid too
            bid_tip = boxes["text"]
            deadline = time.monotonic() + 1.0
            while page.evaluate(TIP_BOXES)["text"] == bid_tip and \
                    page.locator("#tips").is_visible() and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            assert page.locator("#tips").is_hidden() or \
                page.evaluate(TIP_BOXES)["text"] != bid_tip, "the bid tip outlives the bid"
    assert texts[0] != texts[1], "the playing tip follows the bidding one"
    page.click('[data-action="dismiss-tips"]')
    assert not page.locator("#tips").is_visible(), "a dismissed tip goes away"
