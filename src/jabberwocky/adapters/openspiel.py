"""Jabberwocky as an OpenSpiel game: ``python_jabberwocky`` (optional: ``pip install open_spiel``).

``jabberwocky.adapters.openspiel.register()`` registers the game with ``pyspiel.register_game``;
then ``pyspiel.load_game("python_jabberwocky(players=3,deal=chance)")`` gives a game that
every OpenSpiel algorithm can play.  The referee is our own :class:`~jabberwocky.core.game.Game`,
so the rules are exactly those of the engine.

- **Actions.** One action space of ``52 + max hand size + 1`` ids: a card is its own
  number (``suit * 13 + rank``, suits C D H S, ranks 2..A), a bid ``b`` is ``52 + b``
  (cards first, bids after, as OpenSpiel's ``oh_hell``).  Legal cards are the rules' legal
  ones: under the honour rule a renege is legal (and costs its penalty).
- **Chance.** The first dealer (outcomes ``0..players-1``), then every round's cards one
  by one, round robin from the dealer's left as a dealer deals, then the turned trump
  card.  ``deal=seeded`` (the default) takes them from our derivation
  (``jabberwocky-deal/1`` of the parameter ``seed``: each chance node has one outcome, and
  a seed deals exactly what it deals in the engine); ``deal=chance`` leaves them to
  OpenSpiel's chance (uniform over the cards not dealt yet).
- **Parameters.** ``players`` (3..5), ``deal``, ``seed``, and the rules' options:
  ``schedule`` (hand sizes joined by ``:``, as ``3:4:5``; one round as ``7:``, since
  OpenSpiel reads a lone ``7`` as a number and ``3-4`` not at all), ``hook``,
  ``trump_lead``, ``scoring``, ``renege_penalty`` (the Jabberwocky defaults; the
  ``oh-hell`` preset is
  ``schedule=7:6:5:4:3:2:1:2:3:4:5:6:7,trump_lead=any-time,scoring=exact-10-plus-bid``,
  ``honour`` is ``renege_penalty=3``).  Bad values are refused with the engine's message.
- **What a seat sees.** Strings and tensors are built from the seat's
  :class:`~jabberwocky.core.observation.Observation` and the cards it was dealt, never from
  another hand or the seed.  The information state string is perfect recall: every
  finished round (the seat's cards in the order it got them, the trump card, the bids,
  every trick), the current round so far, and during a deal how many cards have been
  dealt.  The information state tensor is the observation tensor plus the seat's dealt
  hand, the current round's tricks card by card, and the earlier rounds summed up by
  each seat's bid and tricks taken (the string holds them whole).
- **Returns** are the final scores (points), at the end of the game.

``resample_from_infostate`` deals the cards a seat has not seen again, keeping every
hand's size and every void the seat has seen shown; the world it returns leaves its
future deals to chance (a seeded world would let a search read the next rounds' cards).

Importing this module needs neither OpenSpiel nor NumPy (the engine imports every module
of the package); :func:`register` does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import Card, card_name, cards_of
from ..core.deal import Deal, first_dealer, shuffled_deck
from ..core.errors import JabberwockyError
from ..core.game import BIDDING, GAME_OVER, PLAYING, ROUND_OVER, Game
from ..core.messages import quote
from ..core.observation import Observation
from ..core.rules import JABBERWOCKY, RULE_OPTIONS, Ruleset
from ..core.table import check_players, check_seed

GAME_NAME = "python_jabberwocky"
CHANCE = -1
"""OpenSpiel's player id of chance nodes."""
TERMINAL = -4
"""OpenSpiel's player id of terminal states."""
NUM_CARDS = 52
SEAT_KIND = "openspiel"
"""The seat kind of every seat of the engine's game inside (a player of OpenSpiel's)."""

DEFAULTS: dict[str, Any] = {
    "players": 4,
    "deal": "seeded",
    "seed": "openspiel",
    "schedule": ":".join(str(h) for h in JABBERWOCKY.schedule),
    **{o.field: getattr(JABBERWOCKY, o.field) for o in RULE_OPTIONS if o.field != "schedule"},
}
"""The game's parameters and their defaults (OpenSpiel's parameter specification): the
table, the deal, and every rule option of :data:`~jabberwocky.core.rules.RULE_OPTIONS` by
its field (the schedule as hand sizes joined by ``:``)."""
DEALS = ("seeded", "chance")


class OpenSpielParameterError(JabberwockyError):
    """A game parameter OpenSpiel was given that the engine cannot use."""


@dataclass(frozen=True)
class Params:
    """The game's parameters, checked."""

    players: int
    rules: Ruleset
    seeded: bool
    seed: str

    @property
    def max_hand(self) -> int:
        return max(self.rules.schedule)

    @property
    def num_distinct_actions(self) -> int:
        return NUM_CARDS + self.max_hand + 1

    @property
    def max_game_length(self) -> int:
        """Every action of a game, chance nodes included."""
        n = self.players
        return 1 + sum(n * h + 1 + n + n * h for h in self.rules.schedule)

    @property
    def utility_bounds(self) -> tuple[float, float]:
        rules = self.rules
        best = sum(rules.points(h, h) for h in rules.schedule)
        worst = -rules.renege_penalty * sum(rules.schedule)
        return float(worst), float(best)


def _as_default(default: Any, value: Any) -> Any:
    """``value`` as the type of its default (OpenSpiel may hand a bool as an int, an int as a
    float); text stays as given, for the ruleset to check."""
    if isinstance(default, bool):
        return bool(value)
    if isinstance(default, int):
        return int(value)
    return value


def params_from(values: dict[str, Any] | None) -> Params:
    """:class:`Params` from OpenSpiel's parameter values (missing ones take
    :data:`DEFAULTS`); raises :class:`OpenSpielParameterError` (or the engine's own
    :class:`~jabberwocky.core.errors.RulesetError`, ``SeedError``) naming the problem."""
    v = {**DEFAULTS, **(values or {})}
    unknown = sorted(set(v) - set(DEFAULTS))
    if unknown:
        raise OpenSpielParameterError("openspiel.unknown_parameter", value=quote(unknown[0]),
                                      choices=sorted(DEFAULTS))
    if v["deal"] not in DEALS:
        raise OpenSpielParameterError("openspiel.deal", value=quote(v["deal"]),
                                      choices=list(DEALS))
    parts = str(v["schedule"]).split(":")
    if not all(part.isdigit() and len(part) < 4 for part in parts if part):
        raise OpenSpielParameterError("openspiel.schedule", value=quote(v["schedule"]))
    schedule = [int(part) for part in parts if part]
    rules = Ruleset.from_dict({"schedule": schedule, **{
        o.field: _as_default(DEFAULTS[o.field], v[o.field])
        for o in RULE_OPTIONS if o.field != "schedule"}})
    players = rules.check_players(check_players(int(v["players"])))
    return Params(players, rules, v["deal"] == "seeded", check_seed(str(v["seed"])))


class _DealtGame(Game):
    """The engine's referee, dealt by OpenSpiel's chance nodes instead of by its seed."""

    def __init__(self, params: Params, first: int, deal: Sequence[Card]) -> None:
        self._deal = list(deal)
        super().__init__(params.seed, params.players, params.rules,
                         [SEAT_KIND] * params.players, first_dealer=first)

    def round_deal(self, index: int) -> Deal:
        """The round's cards as the chance nodes dealt them (in deal order, then the trump
        card): to the dealer's left first, one at a time."""
        n, h = self.players, self.hand_size
        hands = [0] * n
        for k, card in enumerate(self._deal[:n * h]):
            hands[(self.dealer + 1 + k) % n] |= 1 << card
        return Deal(tuple(hands), self._deal[n * h])

    def deal_next(self, deal: Sequence[Card]) -> None:
        """Start the next round with these cards (in deal order, then the trump card)."""
        self._deal = list(deal)
        self.next_round()


class Core:
    """The game state as OpenSpiel sees it, in plain Python (the pyspiel state wraps it)."""

    def __init__(self, params: Params, seeded: bool | None = None) -> None:
        self.params = params
        self.seeded = params.seeded if seeded is None else seeded
        self.first_dealer: int | None = None
        self.deals: list[list[Card]] = []
        """Every round's chance cards so far, in deal order (the trump card last)."""
        self.game: _DealtGame | None = None
        self.actions: list[int] = []

    # -- where the game is ------------------------------------------------------------

    def dealing(self) -> int | None:
        """The index of the round being dealt, or ``None``."""
        if self.first_dealer is None:
            return None
        game = self.game
        if game is None:
            return 0
        if game.phase == ROUND_OVER:
            return game.round_index + 1
        return None

    def _round_cards(self, index: int) -> int:
        return self.params.players * self.params.rules.schedule[index] + 1

    def _dealer(self, index: int) -> int:
        assert self.first_dealer is not None
        return (self.first_dealer + index) % self.params.players

    def current_player(self) -> int:
        if self.first_dealer is None or self.dealing() is not None:
            return CHANCE
        game = self.game
        assert game is not None
        if game.phase == GAME_OVER:
            return TERMINAL
        assert game.to_act is not None
        return game.to_act

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.phase == GAME_OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = self.params
        if self.first_dealer is None:
            if self.seeded:
                return [(first_dealer(p.seed, p.players), 1.0)]
            return [(s, 1.0 / p.players) for s in range(p.players)]
        index = self.dealing()
        assert index is not None, "not a chance node"
        pending = self._pending(index)
        if self.seeded:
            deck = shuffled_deck(p.seed, index + 1, self._round_cards(index))
            return [(deck[len(pending)], 1.0)]
        left = sorted(set(range(NUM_CARDS)) - set(pending))
        return [(c, 1.0 / len(left)) for c in left]

    def _pending(self, index: int) -> list[Card]:
        if len(self.deals) <= index:
            self.deals.append([])
        return self.deals[index]

    def legal_actions(self) -> list[int]:
        game = self.game
        if self.current_player() < 0 or game is None:
            return []
        if game.phase == BIDDING:
            return [NUM_CARDS + b for b in game.legal_bids()]
        return game.legal_cards()

    def apply(self, action: int) -> None:
        """Apply a chance outcome or a player's action (the engine refuses an illegal one
        with :class:`~jabberwocky.core.errors.IllegalMoveError`)."""
        if self.first_dealer is None:
            if not 0 <= action < self.params.players:
                raise ValueError(f"{action} is not a seat: the first dealer is a seat number")
            self.first_dealer = action
            self.actions.append(action)
            return
        index = self.dealing()
        if index is not None:
            pending = self._pending(index)
            if not 0 <= action < NUM_CARDS or action in pending:
                raise ValueError(f"{action} cannot be dealt now: deal each card once")
            pending.append(action)
            self.actions.append(action)
            if len(pending) == self._round_cards(index):
                if self.game is None:
                    self.game = _DealtGame(self.params, self.first_dealer, pending)
                else:
                    self.game.deal_next(pending)
            return
        game = self.game
        assert game is not None
        if game.phase == BIDDING:
            game.bid(action - NUM_CARDS)
        elif game.phase == PLAYING:
            game.play(action)
        else:
            raise ValueError("the game is over: no action applies")
        self.actions.append(action)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.params.players
        assert self.game is not None
        return [float(s) for s in self.game.scores]

    def copy(self) -> Core:
        """An independent copy (what ``clone`` gives)."""
        new = Core(self.params, self.seeded)
        new.first_dealer = self.first_dealer
        new.deals = [list(d) for d in self.deals]
        new.actions = list(self.actions)
        if self.game is not None:
            new.game = self.game.copy()
        return new

    # -- what a seat sees -------------------------------------------------------------

    def observation(self, seat: int) -> Observation | None:
        """The engine's observation of ``seat`` (``None`` before the first round is dealt):
        what the engine's bots get."""
        return None if self.game is None else self.game.observation(seat)

    def own_cards(self, seat: int, index: int) -> list[Card]:
        """The cards ``seat`` was dealt in round ``index``, in the order it got them."""
        if index >= len(self.deals):
            return []
        n = self.params.players
        dealer = self._dealer(index)
        h = self.params.rules.schedule[index]
        deal = self.deals[index][:n * h]
        return [c for k, c in enumerate(deal) if (dealer + 1 + k) % n == seat]

    def action_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            if self.first_dealer is None:
                return f"first dealer {action}"
            return f"deal {card_name(action)}"
        if action >= NUM_CARDS:
            return f"bid {action - NUM_CARDS}"
        return card_name(action)

    def information_state_string(self, seat: int) -> str:
        """Everything ``seat`` has seen, in order (perfect recall)."""
        n = self.params.players
        parts = [f"seat {seat} of {n}"]
        if self.first_dealer is None:
            return parts[0]
        parts.append(f"first dealer {self.first_dealer}")
        game = self.game
        done = game.results if game is not None else []
        for res in done:
            parts.append(self._round_text(seat, res.round_index, res.bids, res.tricks, ()))
        index = self.dealing()
        if index is not None:
            dealt = len(self._pending(index))
            mine = " ".join(card_name(c) for c in self.own_cards(seat, index))
            parts.append(f"round {index + 1} dealing {dealt}/{self._round_cards(index)}: "
                         f"mine {mine}")
        elif game is not None and game.phase in (BIDDING, PLAYING):
            parts.append(self._round_text(seat, game.round_index, tuple(game.bids),
                                          tuple(game.tricks), tuple(game.trick)))
        return "\n".join(parts)

    def _round_text(self, seat: int, index: int, bids: Sequence[int | None],
                    tricks: Sequence[Any], trick: Sequence[Card]) -> str:
        n = self.params.players
        dealer = self._dealer(index)
        trump = self.deals[index][-1]
        mine = " ".join(card_name(c) for c in self.own_cards(seat, index))
        order = [(dealer + 1 + k) % n for k in range(n)]
        bid_text = " ".join(f"{s}:{bids[s]}" for s in order if bids[s] is not None)
        trick_text = " ".join(
            f"[{t.leader}:{' '.join(card_name(c) for c in t.cards)}>{t.winner}]" for t in tricks)
        if trick and self.game is not None:
            trick_text += f" [{self.game.leader}:{' '.join(card_name(c) for c in trick)}"
        return (f"round {index + 1} dealer {dealer}: mine {mine}; trump {card_name(trump)}; "
                f"bids {bid_text}; tricks {trick_text}").rstrip()

    def observation_string(self, seat: int) -> str:
        """What ``seat`` sees now (not what it saw before: imperfect recall)."""
        n = self.params.players
        index = self.dealing()
        game = self.game
        if self.first_dealer is None:
            return f"seat {seat} of {n}"
        if index is not None:
            mine = " ".join(card_name(c) for c in sorted(self.own_cards(seat, index)))
            scores = " ".join(str(s) for s in (game.scores if game else [0] * n))
            return (f"seat {seat} of {n}; round {index + 1} dealing "
                    f"{len(self._pending(index))}/{self._round_cards(index)}; mine {mine}; "
                    f"scores {scores}")
        assert game is not None
        obs = game.observation(seat)
        bids = " ".join("-" if b is None else str(b) for b in obs.bids)
        taken = " ".join(str(t) for t in obs.taken)
        trick = " ".join(card_name(c) for c in obs.trick)
        played = " ".join(card_name(c) for c in cards_of(obs.played_mask()))
        return (f"seat {seat} of {n}; round {obs.round_index + 1} dealer {obs.dealer}; "
                f"phase {obs.phase.value}; trump {card_name(obs.trump_card)}; "
                f"hand {' '.join(card_name(c) for c in cards_of(obs.hand))}; bids {bids}; "
                f"taken {taken}; trick {obs.leader}:{trick}; played {played}; "
                f"broken {int(obs.broken)}; scores {' '.join(str(s) for s in obs.scores)}")

    # -- tensors ----------------------------------------------------------------------

    def tensor_shapes(self, perfect_recall: bool) -> list[tuple[str, int]]:
        """The named pieces of a seat's tensor and their sizes (fixed for the game)."""
        p = self.params
        n, h, r = p.players, p.max_hand, p.rules.rounds
        pieces = [("seat", n), ("phase", 4), ("round", r), ("hand", NUM_CARDS),
                  ("trump", NUM_CARDS), ("dealer", n), ("bids", n * (h + 2)),
                  ("taken", n * (h + 1)), ("trick", n * NUM_CARDS), ("played", NUM_CARDS),
                  ("broken", 1), ("scores", n)]
        if perfect_recall:
            pieces += [("dealt", NUM_CARDS), ("tricks", h * (n + n * NUM_CARDS)),
                       ("earlier", r * n * 2)]
        return pieces

    def fill_tensor(self, seat: int, perfect_recall: bool,
                    out: dict[str, Any]) -> None:
        """Set the pieces of ``out`` (zeroed, flat per piece) for ``seat``: seats are
        counted from ``seat`` (0 is the seat itself, 1 its left...)."""
        p = self.params
        n, h = p.players, p.max_hand
        rel = [(seat + k) % n for k in range(n)]  # relative position k -> seat
        out["seat"][seat] = 1
        index = self.dealing()
        game = self.game
        scale = max(1.0, p.utility_bounds[1])
        if game is not None:
            for k, s in enumerate(rel):
                out["scores"][k] = game.scores[s] / scale
        if self.first_dealer is None:
            out["phase"][0] = 1
            return
        if index is not None:
            out["phase"][0] = 1
            out["round"][index] = 1
            for c in self.own_cards(seat, index):
                out["hand"][c] = 1
            out["dealer"][(self._dealer(index) - seat) % n] = 1
            if perfect_recall:
                for c in self.own_cards(seat, index):
                    out["dealt"][c] = 1
                self._fill_earlier(seat, out)
            return
        assert game is not None
        obs = game.observation(seat)
        out["phase"][{BIDDING: 1, PLAYING: 2}.get(obs.phase, 3)] = 1
        out["round"][obs.round_index] = 1
        for c in cards_of(obs.hand):
            out["hand"][c] = 1
        out["trump"][obs.trump_card] = 1
        out["dealer"][(obs.dealer - seat) % n] = 1
        for k, s in enumerate(rel):
            b = obs.bids[s]
            out["bids"][k * (h + 2) + (0 if b is None else b + 1)] = 1
            out["taken"][k * (h + 1) + obs.taken[s]] = 1
        for i, c in enumerate(obs.trick):
            k = (obs.leader + i - seat) % n
            out["trick"][k * NUM_CARDS + c] = 1
        for t in obs.tricks:
            for c in t.cards:
                out["played"][c] = 1
        out["broken"][0] = float(obs.broken)
        if perfect_recall:
            for c in self.own_cards(seat, obs.round_index):
                out["dealt"][c] = 1
            width = n + n * NUM_CARDS
            for j, t in enumerate(obs.tricks):
                base = j * width
                out["tricks"][base + (t.leader - seat) % n] = 1
                for i, c in enumerate(t.cards):
                    k = (t.leader + i - seat) % n
                    out["tricks"][base + n + k * NUM_CARDS + c] = 1
            self._fill_earlier(seat, out)

    def _fill_earlier(self, seat: int, out: dict[str, Any]) -> None:
        if self.game is None:
            return
        n = self.params.players
        for res in self.game.results:
            h = max(1, res.hand_size)
            for k in range(n):
                s = (seat + k) % n
                base = (res.round_index * n + k) * 2
                out["earlier"][base] = res.bids[s] / h
                out["earlier"][base + 1] = res.taken[s] / h

    # -- resampling ---------------------------------------------------------------------

    def resample_actions(self, seat: int, uniform: Callable[[], float],
                         tries: int = 1000) -> list[int]:
        """The actions of a world ``seat`` cannot tell from this one: the cards of the
        current round it has not seen dealt again at random (every hand's size and every
        void ``seat`` has seen kept), the past and ``seat``'s own cards unchanged.
        ``uniform()`` gives floats in [0, 1).  Replay them on a state whose future deals
        are left to chance (``Core(params, seeded=False)``)."""
        if self.first_dealer is None:
            return list(self.actions)
        index = self.dealing()
        current = index if index is not None else self.game.round_index  # type: ignore[union-attr]
        p = self.params
        n = p.players
        h = p.rules.schedule[current]
        dealer = self._dealer(current)
        deal = self._pending(current)
        slots = [(dealer + 1 + k) % n for k in range(min(len(deal), n * h))]
        played: set[Card] = set()
        voids = [0] * n
        if index is None and self.game is not None:
            obs = self.game.observation(seat)
            played = {c for t in obs.tricks for c in t.cards} | set(obs.trick)
            voids = obs.shown_voids()
        fixed: list[Card | None] = [c if slots[k] == seat or c in played else None
                                    for k, c in enumerate(deal[:len(slots)])]
        known = {c for c in fixed if c is not None} | set(deal[n * h:])
        pool = [c for c in range(NUM_CARDS) if c not in known]
        start = self._deal_start(current)
        for _ in range(tries):
            left = list(pool)
            new = list(fixed)
            for k, card in enumerate(fixed):
                if card is not None:
                    continue
                void = voids[slots[k]]
                allowed = [c for c in left if not void >> (c // 13) & 1]
                if not allowed:
                    break
                pick = allowed[min(len(allowed) - 1, int(uniform() * len(allowed)))]
                left.remove(pick)
                new[k] = pick
            else:
                actions = list(self.actions)
                for k, card in enumerate(new):
                    assert card is not None
                    actions[start + k] = card
                return actions
        raise RuntimeError("no deal consistent with what the seat has seen turned up")

    def _deal_start(self, index: int) -> int:
        """Where round ``index``'s chance cards start in :attr:`actions`."""
        n = self.params.players
        return 1 + sum(2 * n * h + 1 + n for h in self.params.rules.schedule[:index])


_CLASSES: dict[str, Any] = {}


def _classes() -> dict[str, Any]:
    """pyspiel's game, state and observer classes for Jabberwocky (made once; they need
    ``pyspiel`` and NumPy, so they are made only when asked for)."""
    if _CLASSES:
        return _CLASSES
    import numpy as np
    import pyspiel

    game_type = pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Jabberwocky (Oh Hell: only an exact bid scores)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS),
    )

    class JabberwockyGame(pyspiel.Game):  # type: ignore[misc]
        """Jabberwocky for OpenSpiel; the parameters are :data:`DEFAULTS`'s."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            values = {k: v for k, v in (params or {}).items()}
            self.jabberwocky = jp = params_from(values)
            low, high = jp.utility_bounds
            info = pyspiel.GameInfo(
                num_distinct_actions=jp.num_distinct_actions,
                max_chance_outcomes=NUM_CARDS,
                num_players=jp.players,
                min_utility=low,
                max_utility=high,
                max_game_length=jp.max_game_length,
            )
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> Any:
            return JabberwockyState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return JabberwockyObserver(self.jabberwocky, perfect, params)

    class JabberwockyState(pyspiel.State):  # type: ignore[misc]
        """A state: :class:`Core` inside."""

        def __init__(self, game: Any, core: Core | None = None) -> None:
            super().__init__(game)
            self.core = core if core is not None else Core(game.jabberwocky)

        def current_player(self) -> int:
            return self.core.current_player()

        def _legal_actions(self, player: int) -> list[int]:
            return self.core.legal_actions()

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self.core.chance_outcomes()

        def _apply_action(self, action: int) -> None:
            self.core.apply(int(action))

        def _action_to_string(self, player: int, action: int) -> str:
            return self.core.action_string(player, int(action))

        def is_terminal(self) -> bool:
            return self.core.is_terminal()

        def returns(self) -> list[float]:
            return self.core.returns()

        def jabberwocky_observation(self, seat: int) -> Observation | None:
            """The engine's observation of ``seat``: what the engine's bots are given."""
            return self.core.observation(seat)

        def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
            """A state ``player_id`` cannot tell from this one (:meth:`Core.resample_actions`),
            whose future deals are left to chance."""
            actions = self.core.resample_actions(int(player_id),
                                                 lambda: float(probability_sampler()))
            state = JabberwockyState(self.get_game(), Core(self.core.params, seeded=False))
            for a in actions:
                state.apply_action(a)
            return state

        def __str__(self) -> str:
            game = self.core.game
            if game is None:
                return f"dealing; first dealer {self.core.first_dealer}"
            hands = " | ".join(" ".join(card_name(c) for c in cards_of(hand))
                               for hand in game.hands)
            return (f"round {game.round_index + 1}, {game.phase.value}; scores {game.scores}; "
                    f"hands {hands}")

    class JabberwockyObserver:
        """OpenSpiel's observer interface: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

        def __init__(self, jp: Params, perfect_recall: bool, params: Any) -> None:
            if params:
                raise ValueError(f"observation parameters are not supported, not {params!r}")
            self.perfect_recall = perfect_recall
            shapes = Core(jp).tensor_shapes(perfect_recall)
            self.tensor = np.zeros(sum(size for _, size in shapes), np.float32)
            self.dict: dict[str, Any] = {}
            at = 0
            for name, size in shapes:
                self.dict[name] = self.tensor[at:at + size]
                at += size

        def set_from(self, state: Any, player: int) -> None:
            self.tensor.fill(0)
            state.core.fill_tensor(int(player), self.perfect_recall, self.dict)

        def string_from(self, state: Any, player: int) -> str:
            core: Core = state.core
            if self.perfect_recall:
                return core.information_state_string(int(player))
            return core.observation_string(int(player))

    pyspiel.register_game(game_type, JabberwockyGame)
    _CLASSES.update(game_type=game_type, game=JabberwockyGame, state=JabberwockyState,
                    observer=JabberwockyObserver)
    return _CLASSES


def register() -> Any:
    """Register ``python_jabberwocky`` with OpenSpiel (once) and return its game class.

    Needs ``open_spiel`` (which brings NumPy); raises ``ImportError`` saying so.
    """
    try:
        return _classes()["game"]
    except ImportError as exc:
        raise ImportError(f"the OpenSpiel game needs open_spiel (pip install open_spiel): {exc}"
                          ) from exc
