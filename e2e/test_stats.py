"""Statistics in Chromium: the store of finished games (IndexedDB), the Statistics screen,
the running totals at game over.

The decisive check: 200 games written by ``simulate --record`` and imported through the
screen show exactly ``simulate``'s summary of them (the figures carry the raw numbers in
``data-value``).  Then the store: duplicates recognised on import, the cap (a test sets a
small one, ``localStorage jabberwocky.statsCap``), clear with a confirmation, a foreign
database set aside untouched, unreadable entries set aside; a game finished at the table
is kept; the list plays the same deals and reviews a game.  Screenshots of the screens at
390x844 and 1280x800 go to ``e2e/screenshots/``.
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

import pytest
from conftest import ROOT, SiteServer, wait_for_phase
from playwright.sync_api import BrowserContext, Page
from pwa_helpers import confirm_if_asked, marks

BOOT_TIMEOUT = 120.0
SHOTS = Path(__file__).resolve().parent / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHORT = "rules=jabberwocky,schedule:2-3-2"  # a three-round game


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """200 games of ``python -m jabberwocky simulate --record``: the summary and the file."""
    path = tmp_path_factory.mktemp("stats") / "games.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-m", "jabberwocky", "simulate", "--players", "4", "--games", "200",
         "--bots", "easy,random,easy,medium", "--seed", "e2e-stats", "--record", str(path),
         "--json", "--quiet"], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout), path


def open_page(new_context: Callable[..., BrowserContext], site_server: SiteServer,
              viewport: dict[str, int] = DESKTOP, cap: int | None = None,
              fragment: str = "#seed=e2e-stats-table&players=4&bots=random",
              init: str | None = None) -> Page:
    context = new_context(viewport=viewport, reduced_motion="reduce",
                          has_touch=viewport["width"] < 900)
    if cap is not None:
        context.add_init_script(  # every document, about:blank too (no storage there)
            f"try {{ localStorage.setItem('jabberwocky.statsCap', '{cap}'); }} catch {{}}")
    if init:
        context.add_init_script(init)
    page = context.new_page()
    page.goto(site_server.url + fragment)
    wait_for_phase(page, ("bidding", "playing", "round-over", "game-over"), BOOT_TIMEOUT)
    return page


def dialog_state(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.evaluate(
        "() => ({...document.getElementById('dlg-stats').dataset})")
    return data


def wait_ready(page: Page, timeout: float = 60.0) -> dict[str, str]:
    deadline = time.monotonic() + timeout
    while True:
        state = dialog_state(page)
        if state.get("state") == "ready":
            return state
        assert time.monotonic() < deadline, f"the statistics did not settle: {state}"
        page.wait_for_timeout(50)


def open_stats(page: Page) -> dict[str, str]:
    page.click('[data-action="menu"]')
    page.click('[data-action="stats"]')
    page.locator("#dlg-stats").wait_for(state="visible")
    return wait_ready(page)


def import_file(page: Page, path: Path, timeout: float = 120.0) -> dict[str, str]:
    """Import ``path`` through the screen; the status line's counts."""
    page.evaluate("() => { const s = document.getElementById('stats-status');"
                  " delete s.dataset.added; }")
    page.set_input_files("#stats-import-file", str(path))
    deadline = time.monotonic() + timeout
    while True:
        status: dict[str, str] = page.evaluate(
            "() => ({...document.getElementById('stats-status').dataset,"
            " text: document.getElementById('stats-status').textContent})")
        if "added" in status and dialog_state(page).get("state") == "ready":
            return status
        assert time.monotonic() < deadline, f"the import did not finish: {status}"
        page.wait_for_timeout(100)


def figure(page: Page, stat: str) -> float:
    value = page.get_attribute(f'#dlg-stats dd[data-stat="{stat}"]', "data-value")
    assert value is not None, stat
    return float(value)


def listed_seeds(page: Page) -> list[str]:
    ids: list[str] = page.eval_on_selector_all(
        "#dlg-stats .stats-list li", "els => els.map(e => e.dataset.gameId)")
    seeds: list[str] = page.evaluate(
        """async (ids) => {
            const db = await new Promise((ok, no) => {
              const r = indexedDB.open('jabberwocky-games');
              r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
            const store = db.transaction('games').objectStore('games');
            const out = [];
            for (const id of ids) out.push(await new Promise((ok) => {
              const r = store.get(id); r.onsuccess = () => ok(r.result.facts.seed); }));
            db.close();
            return out;
        }""", ids)
    return seeds


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), "utf-8")
    return path


def test_200_games_imported_through_the_screen_equal_simulates_summary(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        simulated: tuple[dict[str, Any], Path]) -> None:
    summary, path = simulated
    page = open_page(new_context, site_server)
    state = open_stats(page)
    assert state["games"] == "0"
    assert "No finished games yet" in (page.text_content("#stats-body") or "")
    started = time.monotonic()
    status = import_file(page, path)
    print(f"200 records imported through the screen in {time.monotonic() - started:.1f} s")
    assert status["added"] == "200" and status["duplicates"] == "0" and status["refused"] == "0"
    assert dialog_state(page)["games"] == "200"
    seat = summary["seats"][0]
    for stat in ("points_per_game", "exact_bid_rate", "win_share"):
        assert figure(page, stat) == seat[stat], stat  # the very same numbers
    rows: dict[str, float] = page.eval_on_selector_all(
        '[data-chart="by-hand-size"] tr[data-hand-size]',
        "els => Object.fromEntries(els.map(e => [e.dataset.handSize, +e.dataset.value]))")
    assert rows == seat["exact_by_hand_size"]
    # each chart has its table, and the trend covers the last 20 games
    assert page.locator('[data-chart="by-hand-size"] svg[role="img"] rect.bar').count() == 7
    assert page.locator('[data-chart="trend"] table tbody tr').count() == 20
    assert page.locator("#dlg-stats .stats-list li").count() == 20  # the newest, then "show more"
    page.click('[data-action="stats-more"]')
    page.locator("#dlg-stats .stats-list li").nth(39).wait_for()
    assert page.locator("#dlg-stats .stats-list li").count() == 40
    # the game on the table was never touched
    assert page.evaluate("() => window.__jabberwocky.request('state', {})")["seed"] == \
        "e2e-stats-table"


def test_import_merges_and_recognises_duplicates(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        simulated: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    _, path = simulated
    lines = path.read_text("utf-8").splitlines()
    page = open_page(new_context, site_server)
    open_stats(page)
    first = import_file(page, write_lines(tmp_path / "a.jsonl", lines[:30]))
    assert first["added"] == "30"
    # lines 20..49 again, one of them spaced differently, and a line that is no record
    respaced = json.dumps(json.loads(lines[25]), separators=(", ", ": "))
    second_lines = [*lines[20:25], respaced, *lines[26:50], '{"format": "nothing"}']
    second = import_file(page, write_lines(tmp_path / "b.jsonl", second_lines))
    assert second["added"] == "20" and second["duplicates"] == "10"
    assert second["refused"] == "1"
    assert "line 31" in second["text"]
    assert dialog_state(page)["stored"] == "50"
    # a single exported record (pretty-printed over many lines) imports too
    one = tmp_path / "one.json"
    one.write_text(json.dumps(json.loads(lines[60]), indent=2), "utf-8")
    assert import_file(page, one)["added"] == "1"
    assert dialog_state(page)["stored"] == "51"


def test_the_cap_drops_the_oldest(new_context: Callable[..., BrowserContext],
                                  site_server: SiteServer,
                                  simulated: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    _, path = simulated
    lines = path.read_text("utf-8").splitlines()
    page = open_page(new_context, site_server, cap=5)
    open_stats(page)
    status = import_file(page, write_lines(tmp_path / "eight.jsonl", lines[:8]))
    assert status["added"] == "8" and status["dropped"] == "3"
    assert dialog_state(page)["stored"] == "5"
    assert listed_seeds(page) == [f"e2e-stats/{i}" for i in (7, 6, 5, 4, 3)]  # newest first
    status = import_file(page, write_lines(tmp_path / "more.jsonl", lines[8:10]))
    assert status["dropped"] == "2"
    assert listed_seeds(page) == [f"e2e-stats/{i}" for i in (9, 8, 7, 6, 5)]


def test_clear_asks_first(new_context: Callable[..., BrowserContext], site_server: SiteServer,
                          simulated: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    _, path = simulated
    lines = path.read_text("utf-8").splitlines()
    page = open_page(new_context, site_server)
    open_stats(page)
    import_file(page, write_lines(tmp_path / "three.jsonl", lines[:3]))
    page.click('[data-action="stats-clear"]')
    page.locator("#dlg-confirm").wait_for(state="visible")
    assert "3 games" in (page.text_content("#confirm-text") or "")
    page.click('#dlg-confirm [data-action="confirm-no"]')
    page.wait_for_timeout(200)
    assert wait_ready(page)["stored"] == "3"
    page.click('[data-action="stats-clear"]')
    page.click('#dlg-confirm [data-action="confirm-yes"]')
    deadline = time.monotonic() + 10
    while dialog_state(page).get("stored") != "0":
        assert time.monotonic() < deadline, dialog_state(page)
        page.wait_for_timeout(50)
    assert "deleted" in (page.text_content("#stats-status") or "")
    assert "No finished games yet" in (page.text_content("#stats-body") or "")


FOREIGN = """
(() => {
  if (!location.protocol.startsWith('http')) return;  // about:blank has no storage
  const r = indexedDB.open('jabberwocky-games', 3);
  r.onupgradeneeded = () => r.result.createObjectStore('other').put({mine: 'keep me'}, 'k');
  r.onsuccess = () => { r.result.close(); localStorage.setItem('foreign-made', '1'); };
})();
"""


def test_a_foreign_store_is_set_aside_untouched(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        simulated: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    _, path = simulated
    lines = path.read_text("utf-8").splitlines()
    page = open_page(new_context, site_server, init=FOREIGN)
    deadline = time.monotonic() + 10
    while page.evaluate("() => localStorage.getItem('foreign-made')") != "1":
        assert time.monotonic() < deadline
        page.wait_for_timeout(50)
    open_stats(page)
    assert "set aside" in (page.text_content("#stats-status") or "")
    assert import_file(page, write_lines(tmp_path / "two.jsonl", lines[:2]))["added"] == "2"
    kept = page.evaluate("""() => new Promise((ok) => {
        const r = indexedDB.open('jabberwocky-games');
        r.onsuccess = () => { const db = r.result;
          const g = db.transaction('other').objectStore('other').get('k');
          g.onsuccess = () => { const v = db.version; db.close(); ok({v, value: g.result}); }; };
    })""")
    assert kept == {"v": 3, "value": {"mine": "keep me"}}
    names = page.evaluate("() => indexedDB.databases().then((d) => d.map((x) => x.name).sort())")
    assert names == ["jabberwocky-games", "jabberwocky-games-2"]
    assert page.evaluate("() => window.__jabberwocky.request('state', {})")["seed"] == \
        "e2e-stats-table"


def test_unreadable_entries_are_set_aside(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        simulated: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    _, path = simulated
    lines = path.read_text("utf-8").splitlines()
    page = open_page(new_context, site_server)
    open_stats(page)
    import_file(page, write_lines(tmp_path / "three.jsonl", lines[:3]))
    # one entry of the wrong shape, one whose facts the engine refuses (scores tampered)
    page.evaluate("""() => new Promise((ok) => {
        const r = indexedDB.open('jabberwocky-games');
        r.onsuccess = () => { const db = r.result;
          const tx = db.transaction('games', 'readwrite'); const s = tx.objectStore('games');
          s.put({id: 'not-a-digest', junk: true});
          const c = s.openCursor();
          c.onsuccess = () => { const cur = c.result; if (!cur) return;
            const e = cur.value; e.facts.scores[0] += 1; cur.update(e); };
          tx.oncomplete = () => { db.close(); ok(); }; };
    })""")
    page.keyboard.press("Escape")
    state = open_stats(page)
    assert state["stored"] == "2" and state["games"] == "2"
    assert "2 stored games could not be read and were set aside" in (
        page.text_content("#stats-status") or "")
    aside = page.evaluate("""() => new Promise((ok) => {
        const r = indexedDB.open('jabberwocky-games');
        r.onsuccess = () => { const db = r.result;
          const c = db.transaction('aside').objectStore('aside').count();
          c.onsuccess = () => { db.close(); ok(c.result); }; };
    })""")
    assert aside == 2


def play_to_the_end(page: Page, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        m = marks(page)
        if m.get("busy") == "false" and m.get("phase") == "game-over":
            return
        assert time.monotonic() < deadline, f"the game did not end: {m}"
        try:
            if m.get("busy") == "false" and m.get("phase") == "round-over":
                page.click('[data-action="next-round"]', timeout=1000)
            elif m.get("yourTurn") == "true" and m.get("phase") == "bidding":
                page.click("[data-bid]:not([disabled])", timeout=1000)
            elif m.get("yourTurn") == "true":
                page.click('#hand [data-card][aria-disabled="false"]', timeout=1000)
        except Exception:  # the table moved on meanwhile: look again
            pass
        page.wait_for_timeout(30)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
def test_a_finished_game_is_kept_and_the_screens(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        simulated: tuple[dict[str, Any], Path], viewport: dict[str, int]) -> None:
    _, path = simulated
    size = f"{viewport['width']}x{viewport['height']}"
    page = open_page(new_context, site_server, viewport,
                     fragment=f"#seed=e2e-stats-kept&players=4&bots=random&{SHORT}")
    play_to_the_end(page)
    # the running totals: a chart below the standings, and its table
    chart = page.locator('#round-panel [data-chart="totals"]')
    assert chart.locator("svg .series").count() == 4
    assert chart.locator("table tbody tr").count() == 3
    totals = chart.locator("table tbody tr").last.locator("td").all_text_contents()
    view = page.evaluate("() => window.__jabberwocky.request('state', {})")
    assert [int(v) for v in totals] == view["scores"]
    # the table for screen readers takes no room: its rows once made the panel scroll on
    # into empty space (and say "More below" where nothing was)
    hidden = chart.locator(".visually-hidden").bounding_box()
    assert hidden is not None and hidden["height"] <= 1, hidden
    assert page.is_visible('#round-panel [data-action="play-again"]')
    # The buttons stay in reach over the end of the game that scrolls under them; on a phone
    # held upright they sit two to a row (Play again alone on the first), so they cover less.
    rows = page.eval_on_selector_all(
        "#round-panel > .panel-actions > button:not([hidden]):not(.more-below)",
        "els => els.map(e => [e.dataset.action, Math.round(e.getBoundingClientRect().top)])")
    tops = sorted({top for _, top in rows})
    if viewport == PHONE:
        assert len(rows) == 5 and len(tops) == 3, rows
        assert [a for a, top in rows if top == tops[0]] == ["play-again"], rows
    else:
        assert len(tops) <= 2, rows
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"stats-game-over-{size}.png"))
    state = open_stats(page)
    deadline = time.monotonic() + 10
    while state["stored"] != "1":  # kept as the game ended (the store is written meanwhile)
        assert time.monotonic() < deadline, state
        page.keyboard.press("Escape")
        state = open_stats(page)
    assert listed_seeds(page) == ["e2e-stats-kept"]
    import_file(page, path)
    page.screenshot(path=str(SHOTS / f"stats-{size}.png"))
    page.eval_on_selector('[data-chart="trend"]', "e => e.scrollIntoView()")
    page.screenshot(path=str(SHOTS / f"stats-trend-{size}.png"))
    page.eval_on_selector(".stats-games", "e => e.scrollIntoView()")
    page.screenshot(path=str(SHOTS / f"stats-list-{size}.png"))


def test_the_list_plays_the_same_deals_and_reviews(
        new_context: Callable[..., BrowserContext], site_server: SiteServer,
        simulated: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    _, path = simulated
    lines = path.read_text("utf-8").splitlines()
    page = open_page(new_context, site_server)
    open_stats(page)
    import_file(page, write_lines(tmp_path / "two.jsonl", lines[:2]))
    page.click('#dlg-stats li:has-text("e2e-stats/1") [data-action="stats-play"]')
    confirm_if_asked(page)
    deadline = time.monotonic() + 20
    while page.evaluate("() => window.__jabberwocky.request('state', {})")["seed"] != "e2e-stats/1":
        assert time.monotonic() < deadline, "the same deals were not dealt"
        page.wait_for_timeout(50)
    view = page.evaluate("() => window.__jabberwocky.request('state', {})")
    assert view["seats"] == ["human", "random", "easy", "medium"] and view["round"] == 1
    assert not page.is_visible("#dlg-stats")
    open_stats(page)
    page.click('#dlg-stats li:has-text("e2e-stats/0") [data-action="review-game"]')
    # the review screen opens over the statistics, with the game's every move
    deadline = time.monotonic() + 30
    review = "() => document.getElementById('dlg-review')?.dataset.state"
    while page.evaluate(review) != "ready":
        assert time.monotonic() < deadline, "the game was not reviewed"
        page.wait_for_timeout(50)
    assert page.inner_text("#review-title").endswith("e2e-stats/0")
    record = json.loads(lines[0])
    moves = sum(len(r["bids"]) + sum(len(t["cards"]) for t in r["tricks"])
                for r in record["rounds"])
    assert page.evaluate("() => document.getElementById('dlg-review').dataset.steps") == str(moves)
    assert view["seed"] == "e2e-stats/1"  # the game on the table stays
