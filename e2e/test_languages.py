"""The game in every language it speaks (issue 14): a round played through the page in
German, Czech and Korean shows no English word (a visible text that equals an English
catalogue value the language's own catalogue does not also use), switching the language
mid-game keeps the game, the language is remembered, and <html lang> follows it; the
round's table fits a 360-pixel phone in every language.  Screenshots per language at
360x740 and 1280x800 go to e2e/screenshots/ (gitignored)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SiteServer, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from pwa_helpers import marks, settle

BOOT = 120.0
SHOTS = Path(__file__).resolve().parent / "screenshots"


def catalogue(lang: str) -> dict[str, Any]:
    page: dict[str, Any] = json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text())
    if lang == "en":
        engine = json.loads((ROOT / "src/jabberwocky/locale/en.json").read_text())
        page = {**engine, **page}
    return page


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [v for k, v in value.items() if k != "plural" and isinstance(v, str)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


VISIBLE_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('[hidden], .visually-hidden, script, style, option')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    out.push(text);
  }
  for (const sel of document.querySelectorAll("select")) {
    const box = sel.getBoundingClientRect();
    if (box.width && box.height && !sel.closest('[hidden]')) {
      out.push(sel.selectedOptions[0]?.textContent.trim() || "");
    }
  }
  return out;
}"""


def english_left(page: Page, lang: str) -> list[str]:
    """Visible texts that are English catalogue values the language's own catalogue does
    not also use, or catalogue keys shown as they are."""
    english = {s.strip() for v in catalogue("en").values() for s in strings(v)}
    own = {s.strip() for v in catalogue(lang).values() for s in strings(v)}
    allowed = {"Jabberwocky"}
    keys = set(catalogue("en"))  # a key shown as it is: the catalogue lacks it
    texts: list[str] = page.evaluate(VISIBLE_TEXT)
    return sorted({t for t in texts if (t in english and t not in own and t not in allowed
                                        and not t.replace(" ", "").isdigit()) or t in keys})


@pytest.mark.parametrize("lang", ["de", "cs", "ko"])
def test_a_round_in_each_language_shows_no_english(
        new_context: Callable[..., BrowserContext], site_server: SiteServer, lang: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    found: dict[str, list[str]] = {}
    for size in ({"width": 360, "height": 740}, {"width": 1280, "height": 800}):
        context = new_context(viewport=size, reduced_motion="reduce")
        page = context.new_page()
        page.goto(site_server.url + f"#seed=e2e-lang-{lang}&players=4&bots=random&lang={lang}")
        wait_for_phase(page, ("bidding", "playing"), BOOT)
        assert page.evaluate("() => document.documentElement.lang") == lang
        tag = f"lang-{lang}-{size['width']}x{size['height']}"
        shot = 0
        while True:
            m = settle(page)
            left = english_left(page, lang)
            if left:
                found[f"{tag} {m['phase']}"] = left
            if shot < 3 and m["phase"] in ("bidding", "playing"):
                page.screenshot(path=str(SHOTS / f"{tag}-{shot}-{m['phase']}.png"))
                shot += 1
            if m["phase"] == "round-over":
                page.screenshot(path=str(SHOTS / f"{tag}-round-over.png"))
                wider = page.evaluate("() => { const p = document.querySelector('#round-panel');"
                                      " return p.scrollWidth - p.clientWidth; }")
                if wider > 0:  # a column of the round's table would be cut off
                    found[f"{tag} round panel"] = [f"{wider} px wider than the panel"]
                break
            if m["phase"] == "bidding":
                page.click("[data-bid]:not([disabled])")
            else:
                page.click('#hand [data-card][aria-disabled="false"]')
        for action in ("scores", "new-game", "share"):
            page.click(f'[data-action="{action}"]')
            page.wait_for_timeout(200)
            left = english_left(page, lang)
            if left:
                found[f"{tag} {action}"] = left
            page.screenshot(path=str(SHOTS / f"{tag}-{action}.png"))
            page.keyboard.press("Escape")
        for action in ("help", "tricks", "about"):
            page.click('[data-action="menu"]')
            page.click(f'[data-action="{action}"]')
            page.wait_for_timeout(300)
            left = english_left(page, lang)
            if left:
                found[f"{tag} {action}"] = left
            page.screenshot(path=str(SHOTS / f"{tag}-{action}.png"))
            page.keyboard.press("Escape")
        context.close()
    assert not found, found


def test_switching_language_mid_game_keeps_the_game_and_is_remembered(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    context = new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce",
                          locale="cs-CZ")
    page = context.new_page()
    page.goto(site_server.url)
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    assert page.evaluate("() => document.documentElement.lang") == "cs"  # the browser's
    m = settle(page)
    if m["phase"] == "bidding":
        page.click("[data-bid]:not([disabled])")
    before = settle(page)
    state = page.evaluate("() => window.__jabberwocky.request('export_record', {})")
    page.click('[data-action="menu"]')
    page.select_option("#language", "ko")
    deadline = time.monotonic() + 10
    while page.evaluate("() => document.documentElement.lang") != "ko":
        assert time.monotonic() < deadline
        page.wait_for_timeout(50)
    assert marks(page)["step"] == before["step"]
    after = page.evaluate("() => window.__jabberwocky.request('export_record', {})")
    assert after["record"] == state["record"], "the game went on unchanged"
    assert english_left(page, "ko") == []
    page.reload()
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    assert page.evaluate("() => document.documentElement.lang") == "ko"  # remembered


def test_a_links_language_survives_a_reload_until_another_is_picked(
        new_context: Callable[..., BrowserContext], site_server: SiteServer) -> None:
    """The page rewrites the address as the game goes on; a link's lang= stays in it while
    the page shows that language (a reload keeps German for an English browser), and
    goes once the player picks another language (which the menu then remembers)."""
    context = new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce",
                          locale="en-US")
    page = context.new_page()
    page.goto(site_server.url + "#seed=e2e-link-lang&players=4&bots=random&lang=de")
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    m = settle(page)
    if m["phase"] == "bidding":
        page.click("[data-bid]:not([disabled])")
    settle(page)
    deadline = time.monotonic() + 10
    while "seed=e2e-link-lang" not in page.url or "lang=de" not in page.url:
        assert time.monotonic() < deadline, page.url
        page.wait_for_timeout(50)
    page.reload()
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    assert page.evaluate("() => document.documentElement.lang") == "de"
    page.click('[data-action="menu"]')
    page.select_option("#language", "cs")
    while page.evaluate("() => document.documentElement.lang") != "cs":
        assert time.monotonic() < deadline + 10
        page.wait_for_timeout(50)
    assert "lang=" not in page.url and "seed=e2e-link-lang" in page.url
    page.reload()
    wait_for_phase(page, ("bidding", "playing"), BOOT)
    assert page.evaluate("() => document.documentElement.lang") == "cs"  # the menu's choice
