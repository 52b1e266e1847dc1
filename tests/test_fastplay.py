"""The all-random fast loop gives exactly the games of the referee's checked path.

``fastplay.finish_round_randomly`` (used by ``simulate`` whenever every seat is the
``random`` bot) must make the choices :class:`RandomBot` makes through an observation
and apply the rules exactly as :class:`Game` does.  ``simulate.play_game`` takes the
fast path for ``RandomBot`` seats, so the slow path is driven by hand here.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jabberwocky.bots.base import Bot
from jabberwocky.bots.fastplay import TIMING_STRIDE, finish_round_randomly
from jabberwocky.bots.random_bot import RandomBot
from jabberwocky.core.cards import Card
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from jabberwocky.core.observation import Observation
from jabberwocky.core.rules import HONOUR, JABBERWOCKY, OH_HELL, Ruleset
from jabberwocky.drivers.simulate import play_game
from jabberwocky.drivers.tournament import simulate
from jabberwocky.formats.record import to_record

PRESETS = [JABBERWOCKY, OH_HELL, HONOUR, JABBERWOCKY.with_options(trump_lead="any-time"),
           JABBERWOCKY.with_options(hook=False)]
CASES = [(players, rules) for players in (3, 4, 5) for rules in PRESETS]


def slow_step(g: Game, bot: Bot) -> None:
    """One action: observation -> bot.act -> the checked Game.bid / Game.play."""
    if g.phase == ROUND_OVER:
        g.next_round()
        return
    seat = g.to_act
    assert seat is not None
    choice = bot.act(g.observation(seat))
    if g.phase == BIDDING:
        g.bid(choice)
    else:
        assert not g.is_renege(choice)
        g.play(choice)


def slow_game(seed: str, players: int, rules: Ruleset) -> Game:
    g = Game(seed, players, rules, ["random"] * players)
    bot = RandomBot()
    while g.phase != GAME_OVER:
        slow_step(g, bot)
    return g


def fast_game(seed: str, players: int, rules: Ruleset) -> Game:
    g = Game(seed, players, rules, ["random"] * players)
    while g.phase != GAME_OVER:
        if g.phase == ROUND_OVER:
            g.next_round()
        finish_round_randomly(g)
    return g


@pytest.mark.parametrize("players,rules", CASES,
                         ids=[f"{p}p-{r.name}-{r.trump_lead}-{r.hook}" for p, r in CASES])
def test_fast_loop_gives_the_records_of_the_checked_path(players: int, rules: Ruleset) -> None:
    for i in range(20):
        seed = f"fast {i}"
        slow = slow_game(seed, players, rules)
        fast = fast_game(seed, players, rules)
        assert to_record(fast) == to_record(slow)
        assert (fast.step, fast.broken, fast.leader, fast.to_act) == (
            slow.step, slow.broken, slow.leader, slow.to_act)


@given(st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=30),
       st.sampled_from([3, 4, 5]), st.sampled_from(PRESETS))
def test_fast_loop_matches_the_checked_path_for_any_seed(
    seed: str, players: int, rules: Ruleset
) -> None:
    assert to_record(fast_game(seed, players, rules)) == to_record(
        slow_game(seed, players, rules))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_play_game_with_random_bots_matches_the_checked_path(players: int) -> None:
    for i in range(10):
        g = Game(f"play_game {i}", players, JABBERWOCKY, ["random"] * players)
        play_game(g, [RandomBot() for _ in range(players)])
        assert to_record(g) == to_record(slow_game(f"play_game {i}", players, JABBERWOCKY))


@pytest.mark.parametrize("cut", [1, 2, 3, 5, 6, 7, 9, 14, 20, 33])
def test_fast_loop_can_take_over_at_any_point_of_a_round(cut: int) -> None:
    # bids and some cards (possibly mid-trick) through the slow path, the rest fast
    for players in (3, 4, 5):
        for rules in (JABBERWOCKY, HONOUR):
            seed = f"take over {cut}"
            g = Game(seed, players, rules, ["random"] * players)
            bot = RandomBot()
            for _ in range(5):  # into round 3 or so
                finish_round_randomly(g)
                g.next_round()
            for _ in range(cut):
                if g.phase not in (BIDDING, PLAYING):
                    break
                slow_step(g, bot)
            while g.phase != GAME_OVER:
                if g.phase == ROUND_OVER:
                    g.next_round()
                finish_round_randomly(g)
            assert to_record(g) == to_record(slow_game(seed, players, rules))


class ObservingRandom(Bot):
    """The random bot's choices through a full observation, not a RandomBot subclass
    (so play_game drives it through the slow path)."""

    level = "random"

    def __init__(self) -> None:
        self.inner = RandomBot()

    def choose_bid(self, obs: Observation) -> int:
        return self.inner.choose_bid(obs)

    def choose_card(self, obs: Observation) -> Card:
        return self.inner.choose_card(obs)


@pytest.mark.parametrize("mask", [0b0001, 0b0110, 0b1011, 0b1111])
def test_mixed_fast_and_slow_seats_play_the_same_game(mask: int) -> None:
    players = 4
    for i in range(5):
        bots: list[Bot] = [ObservingRandom() if mask >> s & 1 else RandomBot()
                           for s in range(players)]
        g = Game(f"mixed {i}", players, HONOUR, ["random"] * players)
        play_game(g, bots)
        assert to_record(g) == to_record(slow_game(f"mixed {i}", players, HONOUR))


def test_decision_times_bids_all_cards_sampled() -> None:
    """The all-random loop times every bid and every TIMING_STRIDE-th card action."""
    g = Game("times", 4, JABBERWOCKY, ["random"] * 4)
    times: list[list[int]] = [[] for _ in range(4)]
    play_game(g, [RandomBot() for _ in range(4)], times)
    n = 4
    card_samples = sum(
        1 for h in JABBERWOCKY.schedule for step in range(n, n + n * h)
        if step % TIMING_STRIDE == 0
    )
    assert sum(len(t) for t in times) == n * JABBERWOCKY.rounds + card_samples
    assert all(len(t) > JABBERWOCKY.rounds for t in times)  # every seat has card samples
    assert all(x >= 0 for t in times for x in t)


def test_decision_times_every_action_on_the_checked_path() -> None:
    g = Game("times", 4, JABBERWOCKY, ["random"] * 4)
    times: list[list[int]] = [[] for _ in range(4)]
    play_game(g, [ObservingRandom()] + [RandomBot() for _ in range(3)], times)
    per_seat = sum(JABBERWOCKY.schedule) + JABBERWOCKY.rounds  # cards + bids
    assert [len(t) for t in times] == [per_seat] * 4


def test_simulate_summary_is_reproducible_apart_from_times() -> None:
    a = simulate(4, 20, ["random"] * 4, "repro")
    b = simulate(4, 20, ["random"] * 4, "repro")
    for sa, sb in zip(a["seats"], b["seats"], strict=True):
        for key in ("points_per_game", "exact_bid_rate", "exact_by_hand_size", "win_share",
                    "win_share_ci95"):
            assert sa[key] == sb[key]
    assert sum(s["win_share"] for s in a["seats"]) == pytest.approx(1.0)
