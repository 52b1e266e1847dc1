"""Online play behind NATs, with and without a TURN relay (issue 45), in a small internet
this test builds itself (e2e/netlab.py): two home networks, each behind its own NAT made
with iptables, and a public network with the tracker, the site and a coturn STUN/TURN
server.  A host's browser runs in one home, a friend's in the other.

- Two ordinary NATs (port-preserving, one mapping for every destination): the browsers
  connect directly; the selected candidate pair holds no ``relay`` candidate.
- Two symmetric NATs (a new port per destination), STUN but no TURN: no direct connection
  can be made, and the friend's join screen says so in words, and what to do, as soon as
  the browser knows it (the connection's state "failed"), long before the page's general
  "this takes long" words.
- The same with the TURN server set (Connection settings' stored form): the browsers
  connect through the relay (selected pair ``relay``) and play a short game to its end.
- A TURN server set with a wrong password: the join screen says the relay refused the user
  name or password.
- Connection settings' "Check my connection" from the friend's home: all fine behind an
  ordinary NAT (the tracker answers, one public address and port, the TURN server accepts
  the login); behind a symmetric NAT with a wrong password, "symmetric" (two STUN servers saw
  two ports) and "refused".  Screenshots of the join screen's words and the check's results
  (390x844, English and German) go to e2e/screenshots/nat/.

Needs root, ``ip netns``, iptables and coturn (``build.py test`` installs the last two as
root on Debian); skipped elsewhere with the reason.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM_FLAGS, ROOT, Guard, wait_for_dataset, wait_for_phase
from netlab import Lab, unavailable
from playwright.sync_api import Browser, Page, Playwright, ViewportSize
from pwa_helpers import PREFS_KEY
from test_online import SIGNAL_KEY, act, js, presence, wait_until

WHY = unavailable()
pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
SHOTS = ROOT / "e2e" / "screenshots" / "nat"  # ignored by git: look at them

# The selected candidate pair of every peer connection of the page's table.
PAIRS = """async () => {
  const t = window.__jabberwocky.online && window.__jabberwocky.online.table;
  if (!t) return [];
  const out = [];
  for (const room of t.link.rooms) {
    for (const [peer, pc] of Object.entries(room.trystero.getPeers())) {
      const stats = await pc.getStats();
      let pair = null;
      stats.forEach((s) => {
        if (s.type === "transport" && s.selectedCandidatePairId) {
          pair = stats.get(s.selectedCandidatePairId);
        }
      });
      if (!pair) continue;
      const local = stats.get(pair.localCandidateId);
      const remote = stats.get(pair.remoteCandidateId);
      out.push({ peer, state: pc.connectionState, local: local.candidateType,
        remote: remote.candidateType, localAddress: `${local.address}:${local.port}`,
        remoteAddress: `${remote.address}:${remote.port}` });
    }
  }
  return out;
}"""


class Home:
    """A browser in one home network, its context guarded as conftest's are."""

    def __init__(self, playwright: Playwright, lab: Lab, home: str) -> None:
        self.browser: Browser = playwright.chromium.launch(
            executable_path=lab.browser_wrapper(home), args=CHROMIUM_FLAGS, headless=True)
        self.guard = Guard(lab.site_url.rstrip("/").rsplit("/", 1)[0])
        self.lab = lab

    def page(self, name: str, signal: dict[str, Any], locale: str = "en-GB",
             viewport: ViewportSize | None = None) -> Page:
        context = self.browser.new_context(viewport=viewport or DESKTOP, reduced_motion="reduce",
                                           locale=locale)
        storage = {
            SIGNAL_KEY: json.dumps(signal),
            PREFS_KEY: json.dumps({"prefs": {"speed": "instant", "tipsDone": True,
                                             "challengeName": name}}),
            "jabberwocky.readableMs": "40", "jabberwocky.beatMs": "0",
        }
        context.add_init_script(
            "(items => { try { for (const [k, v] of Object.entries(items)) "
            "localStorage.setItem(k, v) } catch (e) {} })"
            f"({json.dumps(storage)})")
        self.guard.install(context)
        return context.new_page()

    def close(self) -> None:
        self.browser.close()


@pytest.fixture
def homes(playwright: Playwright, site_dir: Path, request: pytest.FixtureRequest
          ) -> Iterator[tuple[Lab, Home, Home]]:
    lab = Lab(request.param)
    opened: list[Home] = []
    with lab:
        lab.start_servers(site_dir)
        try:
            opened.append(Home(playwright, lab, "home1"))
            opened.append(Home(playwright, lab, "home2"))
            yield lab, opened[0], opened[1]
        finally:
            for home in opened:
                home.close()
    assert not lab.leftovers(), "a namespace of the lab is left"
    problems = [p for h in opened for p in h.guard.problems(True)]
    assert not problems, problems


def signal(lab: Lab, turn: list[dict[str, str]] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"networks": [{"strategy": "torrent", "urls": [lab.tracker_url]}],
                            "iceServers": lab.stun()}
    if turn:
        data["turn"] = turn
    return data


def open_table(host: Page, lab: Lab) -> str:
    """The host opens a table of two short rounds: one friend, one bot; the join link."""
    host.goto(lab.site_url + "#seed=nat-e2e&players=3&bots=medium&rules=jabberwocky,schedule:1-2")
    wait_for_phase(host, ("bidding", "playing"), 180)
    host.click('[data-action="new-game"]')
    host.click('#dlg-new [data-action="online-new"]')
    host.locator("#online-seats select").first.wait_for(state="visible", timeout=10000)
    seats = host.locator("#online-seats select")
    seats.nth(0).select_option("friend")
    seats.nth(1).select_option("medium")
    host.fill("#online-name", "Hana")
    host.click('[data-action="online-open"]')
    link: str = wait_until("the join link", lambda: js(
        host, "() => document.getElementById('online-link').value"), 30, host)
    return link


def check_connection(page: Page, shot: str | None = None) -> dict[str, str]:
    """Connection settings' "Check my connection" from the join screen: each result's
    hook and words; a screenshot of the results with ``shot``; the settings closed again."""
    page.click('#dlg-online [data-action="online-settings"]:visible')
    page.click('[data-action="online-check"]')
    wait_until("the check done", lambda: js(
        page, "() => document.getElementById('dlg-online-settings').dataset.check") == "done",
        30, page)
    results: dict[str, str] = js(page, """() => {
      const out = {};
      for (const li of document.querySelectorAll("#online-check-results li")) {
        const key = li.dataset.checkNetwork ? `network-${li.dataset.checkNetwork}`
          : li.dataset.checkStun !== undefined ? "stun" : "turn";
        out[key] = li.dataset.result || li.dataset.checkStun || li.dataset.checkTurn;
        out[`${key}-words`] = li.textContent;
      }
      return out;
    }""")
    if shot:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#online-check-results").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / shot))
    page.click('#dlg-online-settings button[value="cancel"]')
    return results


def join(friend: Page, link: str, check: str | None = None) -> float:
    """The friend opens the link and joins: the moment of the click (monotonic).  With
    ``check``, the connection check first, its results in ``friend.checked``."""
    friend.goto(link)
    wait_for_dataset(friend, "engine", "ready", 180)
    if check is not None:
        friend.checked = check_connection(friend, check or None)  # type: ignore[attr-defined]
    friend.fill("#online-join-name", "Dora")
    clicked = time.monotonic()
    friend.click('[data-action="online-join"]')
    return clicked


# Every candidate and pair each peer connection has (what a failure prints).
ICE = """async () => {
  const t = window.__jabberwocky.online && window.__jabberwocky.online.table;
  if (!t) return [];
  const out = [];
  for (const room of t.link.rooms) {
    for (const [peer, pc] of Object.entries(room.trystero.getPeers())) {
      const stats = await pc.getStats();
      const row = { peer, state: pc.connectionState, cands: [], pairs: [] };
      stats.forEach((s) => {
        if (s.type === "local-candidate" || s.type === "remote-candidate") {
          row.cands.push(`${s.type[0]} ${s.candidateType} ${s.address}:${s.port}`);
        }
        if (s.type === "candidate-pair") {
          row.pairs.push(`${s.state} ${s.localCandidateId} ${s.remoteCandidateId}`
            + ` req ${s.requestsSent} resp ${s.responsesReceived}`);
        }
      });
      out.push(row);
    }
  }
  return out;
}"""


def ice(page: Page) -> list[dict[str, Any]]:
    return list(js(page, ICE))


def pairs(page: Page) -> list[dict[str, Any]]:
    return list(js(page, PAIRS))


@pytest.mark.parametrize("homes", ["cone"], indirect=True)
def test_two_ordinary_nats_connect_directly(homes: tuple[Lab, Home, Home]) -> None:
    lab, home1, home2 = homes
    host = home1.page("Hana", signal(lab))
    link = open_table(host, lab)
    friend = home2.page("Dora", signal(lab, lab.turn()), viewport=PHONE)
    clicked = join(friend, link, "check-cone-en.png")
    checked = friend.checked  # type: ignore[attr-defined]
    print("check, ordinary NAT:", checked)
    assert (checked["network-torrent"], checked["stun"], checked["turn"]) == ("ok", "ok", "ok")
    assert checked["stun-words"] == said("online.check.stun_ok")
    assert checked["turn-words"] == said("online.check.turn_ok")
    try:
        wait_until("the friend connected", lambda: "connected" in presence(host)[1:], 60, host)
    except AssertionError:
        print("friend", json.dumps(ice(friend), indent=1))
        print("host", json.dumps(ice(host), indent=1))
        for nat in ("nat1", "nat2"):
            print(nat, lab.conntrack(nat))
        raise
    took = time.monotonic() - clicked
    seen = wait_until("the friend's selected pair", lambda: pairs(friend), 10, friend)
    seen_host = pairs(host)
    print(f"cone: connected in {took:.1f} s; friend {seen}; host {seen_host}")
    assert seen and all("relay" not in (p["local"], p["remote"]) for p in seen + seen_host), seen


def join_status(friend: Page) -> dict[str, str]:
    status: dict[str, str] = js(friend, """() => {
      const dlg = document.getElementById("dlg-online");
      return { trouble: dlg.dataset.trouble || "", slow: dlg.dataset.slow || "",
        status: dlg.dataset.status || "", retries: dlg.dataset.retries || "",
        words: document.getElementById("online-join-status").textContent };
    }""")
    return status


def said(key: str, lang: str = "en") -> str:
    """The catalogue's words for ``key`` (web/i18n/<lang>.json)."""
    words: str = json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text())[key]
    return words


def wait_trouble(friend: Page, trouble: str, clicked: float, timeout: float) -> float:
    """Until the join screen says ``trouble``: the seconds from the join's click."""
    wait_until(f"the join screen says {trouble}",
               lambda: join_status(friend)["trouble"] == trouble, timeout, friend)
    return time.monotonic() - clicked


@pytest.mark.parametrize("homes", ["symmetric"], indirect=True)
def test_two_symmetric_nats_need_the_relay(homes: tuple[Lab, Home, Home]) -> None:
    lab, home1, home2 = homes
    timings: dict[str, Any] = {}
    # no TURN server: no direct connection can be made, and the join screen says so
    host = home1.page("Hana", signal(lab))
    link = open_table(host, lab)
    friend = home2.page("Dora", signal(lab))
    clicked = join(friend, link)
    timings["direct_failed_s"] = wait_trouble(friend, "direct_failed", clicked, 90)
    status = join_status(friend)
    timings["direct_failed_states"] = js(
        friend, "() => window.__jabberwocky.online.table.link.states")
    assert said("online.status.direct_failed") in status["words"]
    assert "connected" not in presence(host)[1:]
    friend.set_viewport_size(PHONE)
    SHOTS.mkdir(parents=True, exist_ok=True)
    friend.screenshot(path=str(SHOTS / "join-direct-failed-en.png"))
    friend.context.close()

    # a TURN server set with a wrong password: the join screen says the relay refused it
    # (the host has no TURN server here, so no relay of its own could carry the game)
    wrong = home2.page("Dora", signal(lab, lab.turn("not-the-password")), locale="de-DE",
                       viewport=PHONE)
    clicked = join(wrong, link, "check-symmetric-wrong-password-de.png")
    checked = wrong.checked  # type: ignore[attr-defined]
    print("check, symmetric NAT, wrong password:", checked)
    assert (checked["network-torrent"], checked["stun"], checked["turn"]) == (
        "ok", "symmetric", "refused")
    assert checked["stun-words"] == said("online.check.stun_symmetric", "de")
    assert checked["turn-words"] == said("online.check.turn_refused", "de")
    timings["turn_refused_s"] = wait_trouble(wrong, "turn_refused", clicked, 60)
    assert said("online.status.turn_refused", "de") in join_status(wrong)["words"]
    wrong.screenshot(path=str(SHOTS / "join-turn-refused-de.png"))
    assert "connected" not in presence(host)[1:]
    wrong.context.close()
    host.context.close()

    print("symmetric:", json.dumps(timings))


def relayed_table(lab: Lab, home1: Home, home2: Home) -> tuple[Page, Page, dict[str, Any]]:
    """A host and a friend, both with the TURN server set, connected through the relay."""
    timings: dict[str, Any] = {}
    host = home1.page("Hana", signal(lab, lab.turn()))
    link = open_table(host, lab)
    friend = home2.page("Dora", signal(lab, lab.turn()))
    clicked = join(friend, link)
    wait_until("the friend connected through the relay",
               lambda: "connected" in presence(host)[1:], 60, host)
    timings["relay_connected_s"] = time.monotonic() - clicked
    seen = wait_until("the friend's selected pair", lambda: pairs(friend), 10, friend)
    timings["friend_pair"] = seen
    timings["host_pair"] = pairs(host)
    assert seen and all("relay" in (p["local"], p["remote"]) for p in seen), seen
    return host, friend, timings


@pytest.mark.parametrize("homes", ["symmetric"], indirect=True)
def test_the_turn_setting_plays_a_game_through_the_relay(homes: tuple[Lab, Home, Home]) -> None:
    lab, home1, home2 = homes
    host, friend, timings = relayed_table(lab, home1, home2)
    assert "ALLOCATE processed, success" in lab.turn_log()
    started = time.monotonic()
    host.click('[data-action="online-start"]')
    wait_for_phase(friend, ("bidding", "playing"), 30)
    deadline = time.monotonic() + 120
    players: list[tuple[Page, bool]] = [(host, False), (friend, True)]
    while js(host, "() => document.body.dataset.phase") != "game-over":
        if time.monotonic() > deadline:
            raise AssertionError(("the game did not end", presence(host), [js(
                page, "() => window.__jabberwocky.online.table.link.states")
                for page, _ in players]))
        if not any(act(page, guest) for page, guest in players):
            host.wait_for_timeout(40)
    wait_for_phase(friend, "game-over", 30)
    timings["game_s"] = time.monotonic() - started
    # still through the relay at the end
    timings["friend_pair_at_end"] = pairs(friend)
    assert all("relay" in (p["local"], p["remote"]) for p in timings["friend_pair_at_end"])
    print("relay:", json.dumps(timings))
