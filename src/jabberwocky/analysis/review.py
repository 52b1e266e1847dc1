"""A finished (or recorded) game reviewed with every hand face up.

Three answers, each built by replaying the game's moves from its seed
(:mod:`~jabberwocky.core.actions`), so they hold for the current game, an imported record and
a challenge's result alike:

- :func:`timeline` — every step (a bid or a card) with the actor, the move, every hand
  before it, the bids, the trick and its winner, the tricks taken and the scores after
  it, how many moves were allowed; and per round the step where it starts and where each
  trick starts, for jumping.  One answer the page can step through without asking again.
- :func:`analyse` — at one step, what the ``hard`` bot would have done from the same
  seat's view (its :class:`~jabberwocky.bots.Hint`: the odds of each bid, each card's
  estimated score) and whether the player differed.  A ``hard`` decision costs tens of
  milliseconds, so this is one request per step: the page shows progress and caches the
  answers under :func:`digest`.  The bot's randomness is the hint's stream of that
  decision, so the same step always gets the same answer.
- :func:`seen` — exactly what the seat to act saw at one step: its
  :class:`~jabberwocky.core.observation.Observation` as JSON, the only input a bot's choice
  used ("the bots did not peek").
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..bots import BOTS_VERSION, available_levels, make_bot
from ..core.actions import Action, apply, deal_for, game_actions, options, replay
from ..core.cards import card_name, card_names, cards_of, sort_for_display
from ..core.errors import ReviewError
from ..core.game import Game
from ..core.levels import HUMAN
from ..formats.gamejson import observation_json, result_json, trick_json
from ..formats.record import dumps

ANALYSIS_LEVEL = "hard"
"""The level whose choices the review shows (the strongest available if it is missing)."""


def digest(game: Game) -> str:
    """A short digest of ``game``'s record and the bots version: the key under which the
    page may cache a review's analyses (the same game and bots give the same answers)."""
    data = (BOTS_VERSION + "\0" + dumps(game)).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:32]


def _value(action: Action) -> int | str:
    return action.value if action.kind == "bid" else card_name(action.value)


def _hands(game: Game) -> list[list[str]]:
    return [card_names(sort_for_display(cards_of(h), game.trump_suit)) for h in game.hands]


def timeline(game: Game) -> dict[str, Any]:
    """The whole game step by step, every hand face up (see the module's docstring)."""
    actions = game_actions(game)
    g = replay(game, [])
    steps: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = []
    for i, action in enumerate(actions):
        deal_for(g, action)
        if not rounds or rounds[-1]["round"] != g.round_index + 1:
            rounds.append({"round": g.round_index + 1, "dealer": g.dealer,
                           "hand_size": g.hand_size, "trump_card": card_name(g.trump_card),
                           "hands": _hands(g), "first_step": i, "tricks": [],
                           "result": None})
        hands = _hands(g)
        choices = len(options(g))
        trick_number = len(g.tricks) + 1
        if action.kind == "card" and not g.trick:
            rounds[-1]["tricks"].append(i)
        leader = g.leader
        apply(g, action)
        trick: dict[str, Any] | None = None
        if action.kind == "card":
            if g.trick:
                trick = {"number": trick_number, **trick_json(leader, g.trick, None)}
            else:  # this card completed the trick (the round's tricks stay until the next)
                trick = {"number": trick_number, **trick_json(*g.tricks[-1])}
        steps.append({
            "step": i, "round": action.round_index + 1, "seat": action.seat,
            "kind": action.kind, "value": _value(action),
            "human": game.seats[action.seat] == HUMAN, "choices": choices,
            "hands": hands, "bids": list(g.bids), "taken": list(g.taken), "trick": trick,
            "scores": list(g.scores),
        })
    totals = [0] * game.players
    for res, rnd in zip(game.results, rounds, strict=False):
        totals = [t + p for t, p in zip(totals, res.points, strict=True)]
        rnd["result"] = {**result_json(res), "totals": totals}
    return {
        "digest": digest(game),
        "seed": game.seed,
        "players": game.players,
        "rules": game.rules.to_dict(),
        "seats": list(game.seats),
        "player_names": list(game.names),
        "bots_version": game.bots_version,
        "phase": game.phase.value,
        "scores": list(game.scores),
        "winners": game.winners(),
        "steps": steps,
        "rounds": rounds,
        "decisions": [s["step"] for s in steps if s["human"]],
    }


def _before(game: Game, step: int) -> tuple[Game, Action]:
    """The game just before step ``step`` (0-based), and that step's move."""
    actions = game_actions(game)
    if not 0 <= step < len(actions):
        raise ReviewError("review.no_step", step=step, steps=len(actions))
    g = replay(game, actions[:step])
    deal_for(g, actions[step])
    return g, actions[step]


def analysis_level() -> str:
    """The level the analysis asks: ``hard``, or the strongest available."""
    levels = available_levels()
    return ANALYSIS_LEVEL if ANALYSIS_LEVEL in levels else levels[-1]


def analyse(game: Game, step: int) -> dict[str, Any]:
    """What the ``hard`` bot would have done at step ``step`` from the same seat's view,
    and whether the move made differs (a forced move is not worked out)."""
    g, action = _before(game, step)
    level = analysis_level()
    out: dict[str, Any] = {"step": step, "round": action.round_index + 1, "seat": action.seat,
                           "kind": action.kind, "chosen": _value(action), "level": level,
                           "digest": digest(game)}
    if len(options(g)) == 1:
        return {**out, "forced": True, "suggestion": _value(action), "differs": False}
    hint = make_bot(level).hint(g.observation(action.seat))
    if hint.kind == "bid":
        probs = list(hint.probabilities)
        return {**out, "forced": False, "suggestion": hint.suggestion,
                "differs": hint.suggestion != action.value, "probabilities": probs,
                "chosen_odds": probs[action.value] if action.value < len(probs) else None,
                "suggested_odds": probs[hint.suggestion] if probs else None}
    scores = {card_name(c): s for c, s in hint.card_scores}
    chances = {card_name(c): p for c, p in hint.card_chances}
    wins = {card_name(c): p for c, p in hint.card_wins}
    chosen, suggestion = card_name(action.value), card_name(hint.suggestion)
    return {**out, "forced": False, "suggestion": suggestion,
            "differs": suggestion != chosen, "card_scores": scores,
            "chosen_score": scores.get(chosen), "suggested_score": scores.get(suggestion),
            "card_chances": chances, "chosen_chance": chances.get(chosen),
            "suggested_chance": chances.get(suggestion),
            "card_wins": wins, "chosen_win": wins.get(chosen),
            "suggested_win": wins.get(suggestion)}


def seen(game: Game, step: int) -> dict[str, Any]:
    """What the seat to act saw at step ``step``, and what it chose."""
    g, action = _before(game, step)
    return {"step": step, "seat": action.seat, "kind": game.seats[action.seat],
            "chosen": _value(action), "observation": observation_json(
                g.observation(action.seat))}
