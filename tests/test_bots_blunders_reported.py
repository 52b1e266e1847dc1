"""Oh Hell bot blunders that players reported in public, as positions ``hard`` must pass.

Every case names its source (the parameter id and the ``SOURCES`` table); each is the
reported decision translated into our rules (RULES.md): the hook rule for the dealer,
trumps led only once broken or from a hand of trumps, the turned card out of play, one
point for an exact bid.  Where the translation had to adapt the report, the case says
how (``note``).  The sources are the bot repository of Trickster Cards, whose Oh Hell
issues are filed from its customers' reports (label ``customer``), and its maintainers'
own tests of those reports (``TestBots/TestOhHellBot.cs``).

``hard`` plays at its real budgets (``HardBot()``); a case asks only what the report
says is a blunder, so any other sound choice passes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest
from positions import position

from jabberwocky.bots.hard import HardBot
from jabberwocky.core.cards import parse_card
from jabberwocky.core.game import BIDDING
from jabberwocky.core.rules import JABBERWOCKY, OH_HELL, Ruleset

TRICKSTER = "https://github.com/TricksterCards/TricksterBots"
SOURCES = {
    "trickster-59": f"{TRICKSTER}/issues/59",
    "trickster-71": f"{TRICKSTER}/issues/71",
    "trickster-142": f"{TRICKSTER}/issues/142",
    "trickster-207": f"{TRICKSTER}/pull/207",
    "trickster-217": f"{TRICKSTER}/issues/217",
    "trickster-245": f"{TRICKSTER}/issues/245",
    "trickster-350": f"{TRICKSTER}/issues/350",
    "trickster-351": f"{TRICKSTER}/pull/351",
    "trickster-tests": f"{TRICKSTER}/blob/main/TestBots/TestOhHellBot.cs (PR 60)",
}
"""Where each case comes from (the part of a case's id before the first ``/``)."""
NO_HOOK = dataclasses.replace(JABBERWOCKY, hook=False)


@dataclass(frozen=True)
class Case:
    """One reported decision: the position, and what the report says ``hard`` must
    (``want``) or must not (``avoid``) choose; for a bid, ``at_least`` is the lowest
    bid that is no blunder, and ``bid`` the one the source expects, where it says."""

    hands: Sequence[str]
    trump: str
    dealer: int
    bids: Sequence[int | None]
    seat: int
    avoid: Sequence[str] = ()
    want: Sequence[str] = ()
    at_least: int = 0
    bid: int | None = None
    trick: str = ""
    played: Sequence[str] = ()
    rules: Ruleset = JABBERWOCKY
    note: str = field(default="", compare=False)


CASES: dict[str, Case] = {
    # -- the hook: the dealer barred from its bid bids 0 holding the ace of trumps ----
    "trickster-59/4-players": Case(
        ["AS 7H 8D 2C", "3C 4C 5C 6C", "7C 8C 9C TC", "JC QC KC AC"], "5S", 0,
        [None, 1, 1, 1], 0, at_least=1,
        note="the dealer holds the ace of trumps and is barred from 1 by the hook"),
    "trickster-59/5-players": Case(
        ["AS 7H 9D 2C 9H 4D", "3C 4C 5C 6C 7C 8C", "9C TC JC QC KC AC",
         "2D 3D 5D 6D 7D 8D", "2H 3H 4H 5H 6H 8H"], "5S", 0, [None, 2, 1, 1, 1], 0,
        at_least=1, note="barred from 1 (the others bid 5 of 6)"),
    "trickster-59/3-players": Case(
        ["KS 7H 8D 2C 9H", "3C 4C 5C 6C 7C", "9C TC JC QC AC"], "AS", 0,
        [None, 2, 2], 0, at_least=1,
        note="the ace is turned up: the king is the top trump; barred from 1"),
    "trickster-tests/hook-ace": Case(
        ["AC 2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D 8D", "9D TD JD QD KD AD 8H",
         "9H TH JH QH KH AH 2S"], "2C", 0, [None, 1, 2, 3], 0, at_least=1, bid=2,
        note="TestBids with the hook (4 players, 7 cards): the maintainers expect 2"),
    "trickster-tests/hook-king": Case(
        ["KC 2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D 8D", "9D TD JD QD KD AD 8H",
         "9H TH JH QH KH AH 2S"], "AC", 0, [None, 1, 2, 3], 0, at_least=1, bid=2,
        note="the ace of trumps turned up, so the king is the top trump"),
    "trickster-tests/no-hook-ace": Case(
        ["AC 2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D 8D", "9D TD JD QD KD AD 8H",
         "9H TH JH QH KH AH 2S"], "2C", 0, [None, 1, 2, 3], 0, at_least=1, bid=1,
        rules=NO_HOOK, note="TestBids without the hook: the maintainers expect 1"),
    "trickster-tests/no-hook-king": Case(
        ["KC 2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D 8D", "9D TD JD QD KD AD 8H",
         "9H TH JH QH KH AH 2S"], "AC", 0, [None, 1, 2, 3], 0, at_least=1, bid=1,
        rules=NO_HOOK),
    # -- needing every trick: the top trumps first ---------------------------------
    "trickster-350/4-players": Case(
        ["KS QS 4S", "2C 3C 4C", "5C 6C 7C", "8C 9C TC"], "AS", 3, [3, 0, 0, 1], 0,
        avoid=["4S"], note="the ace is turned up here, so the king and queen are sure "
                           "tricks as the report says they were"),
    "trickster-350/3-players": Case(
        ["KS QS 4S", "2C 3C 4C", "5C 6C 7C"], "AS", 2, [3, 0, 1], 0, avoid=["4S"]),
    "trickster-350/ace-unseen": Case(
        ["KH QH 4H", "2C 3C 4C", "5C 6C 7C", "8C 9C TC", "JC QC KC"], "9D", 4,
        [3, 0, 0, 0, 1], 0, avoid=["4H"],
        note="5 players; the ace of trumps unseen (the report's deal: it was not in play)"),
    "trickster-71/four-trumps": Case(
        ["AS QS JS 3S", "2C 3C 4C 5C", "6C 7C 8C 9C", "TC JC QC AC"], "KS", 3,
        [4, 0, 0, 1], 0, avoid=["3S"]),
    "trickster-71/side-ace": Case(
        ["AS KS 5S AH", "3C 4C 5C 6C", "7C 8C 9C TC", "2D 3D 4D 5D"], "2S", 0,
        [5, 0, 0, 1], 0, want=["AS", "KS"], played=["JC QC KC QS"],
        note="mid-round: the bot ruffed the first trick (trumps broken) and needs the "
             "other four; the ace and king of trumps draw trumps before the side ace"),
    "trickster-245/comment": Case(
        ["AH KH 3H", "2C 3C 4C", "5C 6C 7C", "8C 9C TC"], "QH", 3, [3, 0, 0, 1], 0,
        avoid=["3H"], note="the comment's rule (need every trick: the highest trump "
                           "first); its PBN deal is not used: there the bot's low trump "
                           "lead was a lead our rules forbid"),
    "trickster-217/oh-hell-2-cards": Case(
        ["KS 7S", "2C 3C", "4C 5C", "6C 7C"], "AS", 3, [2, 0, 0, 1], 0, avoid=["7S"],
        rules=OH_HELL, note="the report's 2-card round, under the Oh Hell preset"),
    "trickster-217/jabberwocky": Case(
        ["KS 7S", "3C 4C", "5C 6C", "8C 9C"], "AS", 3, [3, 0, 0, 1], 0, avoid=["7S"],
        played=["AD 2D 7D TD"],
        note="our rounds have 3 cards or more: the bot won the first trick and leads "
             "with two trumps left, needing both"),
    # -- the boss trump and one trick to go: wait for the last trick ---------------
    "trickster-142/second-seat": Case(
        ["4C", "AS 5D", "6C 7C", "8C 9C"], "2S", 0, [1, 1, 0, 0], 1, want=["5D"],
        trick="KH", played=["2H 3H 4H 5H"],
        note="a 3-card round after one trick: two cards left, the bot needs one trick, "
             "holds the top trump and is void in the suit led"),
    "trickster-142/last-seat": Case(
        ["4C", "7C", "9C", "AS 5D"], "2S", 0, [1, 0, 0, 1], 3, want=["5D"],
        trick="KH 6C 8C", played=["2H 3H 4H 5H"],
        note="the bot plays last: ruffing takes this trick and leaves it to lead the "
             "five of diamonds, which nobody can follow"),
    "trickster-142/king-top-5-players": Case(
        ["4C", "KS 5D", "6C 7C", "8C 9C", "TC JC"], "AS", 0, [1, 1, 0, 0, 0], 1,
        want=["5D"], trick="QH", played=["2H 3H 4H 5H 6H"],
        note="5 players; the ace of trumps is turned up, so the king is the boss trump"),
    "trickster-142/3-players": Case(
        ["4C", "7C", "AS 5D"], "2S", 0, [1, 0, 1], 2, want=["5D"],
        trick="QH 6C", played=["2H 3H 4H"]),
    # -- bid already made, or none wanted: get rid of the winners ------------------
    "trickster-351/made-dump-ace": Case(
        ["5C", "AH 2H", "6C 9H", "8C TH"], "2S", 3, [1, 1, 0, 1], 1, want=["AH"],
        trick="4C", played=["3D AD 4D 5D", "2D 6D 7D 8D"],
        note="a 4-card round: the bot made its bid of 1 on the first trick; void in the "
             "suit led, it throws the ace of hearts, which could take a trick later"),
    "trickster-351/zero-dump-king": Case(
        ["2H 3H", "KH 2D 3D", "6C 5H 6H", "8C 9C TC"], "2S", 3, [1, 0, 1, 0], 1,
        want=["KH"], trick="4C", note="bid 0, void in clubs: the king goes now"),
    # -- bid 1 with a sure trick: no other high card in the lead -------------------
    "trickster-245/ace-of-trumps-is-good": Case(
        ["AS KD 2C", "3C 4C 5C", "6C 7C 8C", "9C TC JC"], "5S", 3, [1, 0, 1, 0], 0,
        avoid=["KD"], note="the report: the ace of trumps takes its trick whenever it "
                           "is played, and the bots lead their highest card first; "
                           "the king of diamonds led would most likely take a second"),
    "trickster-245/bid-0-side-ace": Case(
        ["AH 3C 4D", "5C 6C 7C", "8C 9C TC", "JC QC KC"], "5S", 3, [0, 1, 1, 0], 0,
        avoid=["AH"], note="bid 0 on lead: the ace led takes the trick unless ruffed"),
    # -- second to play on a high card, needing the trick: ruff it -----------------
    "trickster-207/ruff-second": Case(
        ["3C 4C", "2S 3D 4D", "5C 6C 7C", "8C 9C TC"], "9S", 3, [1, 1, 0, 0], 1,
        want=["2S"], trick="AH",
        note="the pull request's play bug (its Oh Hell, Whist and 500 bots): second to "
             "a high card led, void in it, the bot needs a trick"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hard_makes_no_reported_blunder(name: str) -> None:
    case = CASES[name]
    assert name.split("/")[0] in SOURCES
    game = position(case.hands, case.trump, dealer=case.dealer, bids=case.bids,
                    trick=case.trick, played=case.played, rules=case.rules)
    obs = game.observation(case.seat)
    assert game.to_act == case.seat, (game.to_act, case.seat)
    choice = HardBot().act(obs)
    if game.phase == BIDDING:
        assert choice >= case.at_least, (name, choice, case.note)
        assert case.bid is None or choice == case.bid, (name, choice, case.note)
        return
    if case.avoid:
        assert choice not in [parse_card(c) for c in case.avoid], (name, choice, case.note)
    if case.want:
        assert choice in [parse_card(c) for c in case.want], (name, choice, case.note)
