"""The game-level model (:mod:`jabberwocky.bots.strategy`): win chances from the scores
and the rounds left, and the value of each way a round can end."""

from __future__ import annotations

import pytest

from jabberwocky.bots.strategy import round_values, win_chances


@pytest.mark.parametrize("scores", [[0, 0, 0], [3, 1, 2, 2], [5, 7, 6, 2, 7], [-3, 0, 1]])
@pytest.mark.parametrize("rounds", [0, 1, 4, 12])
def test_win_chances_share_out_one_whole_win(scores: list[int], rounds: int) -> None:
    chances = win_chances(scores, rounds)
    assert sum(chances) == pytest.approx(1.0)
    assert all(0.0 <= c <= 1.0 for c in chances)
    # More points never means a smaller share.
    order = sorted(range(len(scores)), key=lambda s: scores[s])
    assert [chances[s] for s in order] == sorted(chances)


def test_with_no_round_left_the_leaders_share_the_win() -> None:
    assert win_chances([4, 6, 6, 1], 0) == [0.0, 0.5, 0.5, 0.0]
    assert win_chances([2, 2, 2], 0) == pytest.approx([1 / 3] * 3)


def test_a_lead_is_worth_less_the_more_rounds_remain() -> None:
    late, early = win_chances([3, 2, 2, 2], 1)[0], win_chances([3, 2, 2, 2], 10)[0]
    assert 0.25 < early < late < 1.0


def test_round_values_reward_my_exact_bid_and_punish_the_leaders() -> None:
    # Seat 0 trails seat 1 by a point with one round to play after this one.
    values = round_values([4, 5, 2, 2], 1, seat=0)
    assert len(values) == 16
    nobody, me, leader, both = values[0], values[1], values[2], values[3]
    assert me > nobody > leader
    assert me > both > leader
    # A far-behind seat's own bid cannot win it the game any more.
    hopeless = round_values([0, 6, 2, 2], 1, seat=0)
    assert max(hopeless) == 0.0
