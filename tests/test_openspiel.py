"""Jabberwocky as an OpenSpiel game: OpenSpiel's own conformance tests, our deals, and
what each seat sees.

The parts that need no OpenSpiel (the state, the strings, the tensors, resampling) run
everywhere; the conformance tests need ``open_spiel`` (``pip install open_spiel``, the
optional ``openspiel`` extra) and skip, saying so, where it is not installed (always
under Pyodide).
"""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from jabberwocky.adapters.openspiel import (
    CHANCE,
    DEFAULTS,
    NUM_CARDS,
    TERMINAL,
    Core,
    OpenSpielParameterError,
    params_from,
)
from jabberwocky.bots import make_bot
from jabberwocky.core.deal import deal_round, first_dealer
from jabberwocky.core.errors import JabberwockyError, RulesetError, SeedError
from jabberwocky.core.game import BIDDING, PLAYING, ROUND_OVER, Game
from jabberwocky.core.rng import Rng

HAVE_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None
needs_openspiel = pytest.mark.skipif(
    not HAVE_OPENSPIEL,
    reason="open_spiel is not installed here (pip install open_spiel: an optional extra); "
           "its conformance tests cannot run")


def play_randomly(core: Core, rng: Rng, stop: int | None = None) -> Core:
    """Chance outcomes as chance gives them (the first, for seeded deals; else at random),
    player actions at random, up to ``stop`` actions or the end."""
    while not core.is_terminal() and (stop is None or len(core.actions) < stop):
        if core.current_player() == CHANCE:
            outcomes = core.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            core.apply(outcomes[rng.below(len(outcomes))][0])
        else:
            legal = core.legal_actions()
            assert legal == sorted(legal)
            core.apply(legal[rng.below(len(legal))])
    return core


def test_seeded_deals_are_the_engines() -> None:
    params = params_from({"seed": "same deal", "players": 5})
    core = play_randomly(Core(params), Rng(1))
    assert core.is_terminal()
    assert core.first_dealer == first_dealer("same deal", 5)
    assert core.game is not None
    for res in core.game.results:
        engine = deal_round("same deal", res.round_index + 1, 5, res.dealer, res.hand_size)
        assert res.hands == engine.hands and res.trump_card == engine.trump_card
    assert len(core.actions) == params.max_game_length
    assert core.returns() == [float(s) for s in core.game.scores]


def test_chance_deals_are_any_deal() -> None:
    params = params_from({"deal": "chance", "players": 3, "schedule": "9:9"})
    a = play_randomly(Core(params), Rng(1))
    b = play_randomly(Core(params), Rng(2))
    assert a.game is not None and b.game is not None
    assert a.game.results[0].hands != b.game.results[0].hands
    fresh = Core(params)
    assert fresh.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]


def test_actions_are_cards_then_bids() -> None:
    params = params_from({})
    assert params.num_distinct_actions == NUM_CARDS + 9 + 1
    core = play_randomly(Core(params), Rng(3), stop=1 + 4 * 3 + 1)
    assert core.game is not None and core.game.phase == BIDDING
    assert core.legal_actions() == [NUM_CARDS + b for b in core.game.legal_bids()]
    assert core.action_string(core.current_player(), NUM_CARDS + 2) == "bid 2"
    while core.game.phase == BIDDING:
        core.apply(core.legal_actions()[0])
    assert core.game.phase == PLAYING
    assert core.legal_actions() == core.game.legal_cards()
    with pytest.raises(JabberwockyError):
        core.apply(NUM_CARDS + 1)  # a bid while cards are played: the engine refuses it


@pytest.mark.parametrize("values,error,text", [
    ({"deal": "shuffle"}, OpenSpielParameterError, "deal 'shuffle' is unknown"),
    ({"schedule": "3-4"}, OpenSpielParameterError, "is not hand sizes joined by ':'"),
    ({"schedule": "11:"}, RulesetError, "hand size 11"),
    ({"players": 6}, SeedError, "6 players cannot play"),
    ({"seed": "x" * 201}, SeedError, "use at most 200"),
    ({"colour": 1}, OpenSpielParameterError, "unknown parameter 'colour'"),
])
def test_parameters_are_checked(values: dict[str, Any], error: type[Exception], text: str) -> None:
    with pytest.raises(error, match=text):
        params_from(values)


def test_the_rules_options_are_parameters() -> None:
    p = params_from({"schedule": "7:6:5:4:3:2:1:2:3:4:5:6:7", "trump_lead": "any-time",
                     "scoring": "exact-10-plus-bid", "renege_penalty": 3, "hook": False})
    assert p.rules.schedule == (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7) and not p.rules.hook
    assert p.utility_bounds == (-3.0 * 55, float(sum(10 + h for h in p.rules.schedule)))
    assert set(DEFAULTS) == {"players", "deal", "seed", "schedule", "hook", "trump_lead",
                             "scoring", "renege_penalty"}


def _positions(players: int, deal: str, every: int = 7) -> list[Core]:
    params = params_from({"players": players, "deal": deal, "seed": f"pos/{players}"})
    out = []
    core = Core(params)
    rng = Rng(players)
    while not core.is_terminal():
        if len(core.actions) % every == 0:
            out.append(core.copy())
        play_randomly(core, rng, stop=len(core.actions) + 1)
    return out


@pytest.mark.parametrize("players,deal", [(3, "chance"), (4, "seeded"), (5, "chance")])
def test_what_a_seat_sees_does_not_depend_on_the_cards_it_cannot_see(players: int,
                                                                     deal: str) -> None:
    """A world resampled for a seat looks the same to it (strings and tensors alike) and
    keeps the past and the seat's cards, but may differ in the other hands."""
    rng = Rng(99)
    changed = 0
    for core in _positions(players, deal):
        player = core.current_player()
        seats = [player] if player >= 0 else [0]
        for seat in seats:
            actions = core.resample_actions(seat, rng.random)
            world = Core(core.params, seeded=False)
            for a in actions:
                world.apply(a)
            assert world.information_state_string(seat) == core.information_state_string(seat)
            assert world.observation_string(seat) == core.observation_string(seat)
            for perfect in (False, True):
                assert tensor(world, seat, perfect) == tensor(core, seat, perfect)
            if core.game is not None and world.game is not None:
                changed += world.game.hands != core.game.hands
                if core.game.phase in (BIDDING, PLAYING):
                    assert world.game.observation(seat) == core.game.observation(seat)
    assert changed > 10


def tensor(core: Core, seat: int, perfect: bool) -> list[float]:
    pieces = {name: [0.0] * size for name, size in core.tensor_shapes(perfect)}
    core.fill_tensor(seat, perfect, pieces)
    return [x for name, _ in core.tensor_shapes(perfect) for x in pieces[name]]


def test_seats_see_their_own_cards_and_the_public_table() -> None:
    core = play_randomly(Core(params_from({"seed": "views"})), Rng(5), stop=1 + 13 + 4 + 2)
    game = core.game
    assert game is not None and game.phase == PLAYING
    for seat in range(4):
        text = core.information_state_string(seat)
        view = core.observation_string(seat)
        from jabberwocky.core.cards import card_name, cards_of

        for other in range(4):
            for c in cards_of(game.hands[other]):
                assert (card_name(c) in text.split("mine ")[1].split(";")[0]) == (other == seat)
                assert (f" {card_name(c)}" in view.split("hand")[1].split(";")[0]) == \
                    (other == seat)
        assert "views" not in text and "views" not in view
    assert core.information_state_string(0) != core.information_state_string(1)


def test_information_states_are_perfect_recall_and_observations_are_not() -> None:
    core = play_randomly(Core(params_from({"seed": "recall", "schedule": "3:3"})), Rng(2))
    game = core.game
    assert game is not None
    text = core.information_state_string(0)
    assert text.count("round ") == 2 and text.count("[") == 6  # two rounds of 3 tricks
    assert "round 1" not in core.observation_string(0)


def test_the_engines_bots_play_through_the_observation() -> None:
    core = Core(params_from({"seed": "bots", "schedule": "4:5", "players": 3}))
    bot = make_bot("medium")
    rng = Rng(4)
    while not core.is_terminal():
        player = core.current_player()
        if player == CHANCE:
            core.apply(core.chance_outcomes()[0][0])
            continue
        obs = core.observation(player)
        assert obs is not None and obs.seat == player
        choice = bot.act(obs)
        action = choice + NUM_CARDS if obs.phase == BIDDING else choice
        assert action in core.legal_actions()
        core.apply(action)
        rng.next64()
    assert core.current_player() == TERMINAL
    # the same seed through the engine: the same deals, so the same bots' game
    same = Game("bots", 3, core.params.rules, ["medium"] * 3)
    bots = [make_bot("medium") for _ in range(3)]
    from jabberwocky.drivers.simulate import play_game

    play_game(same, bots)
    assert core.game is not None and same.scores == core.game.scores
    assert [r.bids for r in same.results] == [r.bids for r in core.game.results]


def test_copies_are_independent() -> None:
    core = play_randomly(Core(params_from({"seed": "copy"})), Rng(6), stop=40)
    twin = core.copy()
    play_randomly(twin, Rng(7), stop=60)
    assert len(core.actions) == 40 and len(twin.actions) == 60
    assert core.game is not None and twin.game is not None
    assert core.game.hands != twin.game.hands or core.game.step != twin.game.step
    assert core.game.phase in (BIDDING, PLAYING, ROUND_OVER)


# -- with OpenSpiel -------------------------------------------------------------------


@pytest.fixture(scope="module")
def pyspiel() -> Any:
    import pyspiel as module

    from jabberwocky.adapters.openspiel import register

    register()
    return module


GAMES = [
    "python_jabberwocky",
    "python_jabberwocky(players=3,deal=chance)",
    "python_jabberwocky(players=5,deal=chance,renege_penalty=3)",
    "python_jabberwocky(players=4,schedule=7:6:5:4:3:2:1:2:3:4:5:6:7,trump_lead=any-time,"
    "scoring=exact-10-plus-bid,hook=False,seed=oh-hell)",
]


@needs_openspiel
@pytest.mark.parametrize("name", GAMES)
def test_openspiel_conformance(pyspiel: Any, name: str) -> None:
    """OpenSpiel's own tests of a game (random simulations checking legal actions, chance
    outcomes, returns, serialisation, and every observation: the strings and tensors of
    information states and observations for each player, at every state)."""
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@needs_openspiel
def test_openspiel_game_facts(pyspiel: Any) -> None:
    game = pyspiel.load_game("python_jabberwocky(players=3)")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 62
    assert game.max_chance_outcomes() == 52
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [
        (first_dealer("openspiel", 3), 1.0)]
    with pytest.raises(Exception, match="deal 'nope' is unknown"):
        pyspiel.load_game("python_jabberwocky(deal=nope)")


@needs_openspiel
def test_ismcts_plays_a_legal_game(pyspiel: Any) -> None:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_jabberwocky(players=3,schedule=2:3,seed=ismcts)")
    rs = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert len(state.returns()) == 3
