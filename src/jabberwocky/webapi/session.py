"""A table's session: the game and its seats, each seat's view, hint and hand-off.

A seat is a bot (its level and the bot playing it), a person at this device (``here``)
or, once live play lands, a person elsewhere (``remote``: their moves come in through
their own channel, and they see only their own view).  One code path serves every
table: a game of one person against bots is pass-and-play with one person here, whose
hand is shown from the start; with several people here the device is handed on, and
between two of them the view shows no hand at all (``handoff``) until the next one says
they have it (:meth:`Session.reveal`).

The session decides who may act and who sees what; the view's JSON is written by
:func:`jabberwocky.formats.gamejson.seat_view` from that seat's observation only, so no
other seat's hidden card can reach the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..analysis.claim import claim_order, why_claim_fails
from ..analysis.hint_reason import card_reason
from ..bots import Bot, available_levels, is_builtin, make_bot
from ..bots.referee import bot_hint, bot_move
from ..core.actions import last_action, take_back
from ..core.cards import card_name, parse_card
from ..core.errors import IllegalMoveError
from ..core.game import BIDDING, PLAYING, Game
from ..core.levels import HUMAN
from ..core.observation import Observation
from ..formats.challenge import can_challenge
from ..formats.gamejson import seat_view
from ..formats.record import FORMAT

SeatKind = Literal["bot", "here", "remote"]


@dataclass
class Seat:
    """One seat of the table: who plays it and, for a bot, the bot."""

    kind: SeatKind
    level: str | None = None
    """The bot's level (a bot seat's kind in the game)."""
    bot: Bot | None = None

    @property
    def person(self) -> bool:
        """True when a person plays the seat (here or elsewhere)."""
        return self.kind != "bot"


DEFAULT_LEVEL = "medium"
"""The level a new game's bots have unless the player picks another: the page has always
started with it (``learned``, between it and ``hard`` on the ladder, is offered, not
imposed)."""


def default_level() -> str:
    """:data:`DEFAULT_LEVEL` when it is available, else the strongest available built-in
    level below ``hard``, or the strongest built-in one (a third-party level is never the
    default: its strength is not known)."""
    levels = [lvl for lvl in available_levels() if is_builtin(lvl)]
    if DEFAULT_LEVEL in levels:
        return DEFAULT_LEVEL
    below_hard = [lvl for lvl in levels if lvl != "hard"]
    return (below_hard or levels)[-1]


def seats_of(game: Game) -> list[Seat]:
    """The seats of ``game``: its ``human`` seats played here, a bot made for every other
    (raises :class:`~jabberwocky.core.errors.BotError` when one cannot be made)."""
    return [Seat("here") if kind == HUMAN else Seat("bot", kind, make_bot(kind))
            for kind in game.seats]


class Session:
    """The game at the table, its seats, and which person here was last given the device
    (``shown``)."""

    def __init__(self, game: Game, seats: list[Seat] | None = None) -> None:
        """Seat ``game`` (its bots are made first: a session is whole or not made)."""
        self.seats = seats_of(game) if seats is None else seats
        self.game = game
        here = self.here()
        self.shown: int | None = here[0] if len(here) == 1 else None

    # -- who is where -------------------------------------------------------------------

    def people(self) -> list[int]:
        """The seats people play, here or elsewhere."""
        return [s for s, seat in enumerate(self.seats) if seat.person]

    def here(self) -> list[int]:
        """The seats people play at this device."""
        return [s for s, seat in enumerate(self.seats) if seat.kind == "here"]

    def viewer(self) -> int:
        """The person here whose view the device gets: the seat to act if it is theirs,
        else the last of them to act, else the first of them to act from here."""
        game = self.game
        here = self.here()
        to_act = game.to_act
        if game.phase in (BIDDING, PLAYING) and to_act is not None and to_act in here:
            return to_act
        last = last_action(game, here)
        if last is not None:
            return last.seat
        start = game.to_act if game.to_act is not None else game.leader
        return next(s for k in range(game.players)
                    if (s := (start + k) % game.players) in here)

    def handoff(self, viewer: int) -> bool:
        """True while the device is on its way to ``viewer``: shown no hand."""
        return viewer != self.shown

    # -- the views ----------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The device's view: its viewer's, with the hand-off between people here."""
        viewer = self.viewer()
        return self.view_of(viewer, self.handoff(viewer))

    def view_of(self, seat: int, handoff: bool = False) -> dict[str, Any]:
        """``seat``'s view (during a ``handoff``, with no hand)."""
        game = self.game
        people = self.people()
        obs = game.observation(seat)
        can_claim = (obs.my_turn and not handoff and obs.phase == PLAYING
                     and len(people) == 1 and claim_order(obs) is not None)
        return seat_view(game, obs, handoff=handoff, humans=people, can_claim=can_claim,
                         can_challenge=can_challenge(game),
                         can_take_back=(game.challenge is None
                                        and last_action(game, people) is not None),
                         record_version=FORMAT)

    def reveal(self) -> None:
        """The person to view has the device: the hand-off ends."""
        self.shown = self.viewer()

    # -- moves ----------------------------------------------------------------------------

    def check_turn(self) -> None:
        """A person here must be to act, and (between several) have been given the device."""
        game = self.game
        if game.phase not in (BIDDING, PLAYING):
            return
        seat: int = game.to_act  # type: ignore[assignment]
        if self.seats[seat].kind != "here":
            raise IllegalMoveError("move.not_your_turn", seat=seat)
        if self.handoff(seat):
            raise IllegalMoveError("move.handoff", seat=seat)

    def bid(self, bid: object) -> None:
        """The person to act bids (the referee checks the value)."""
        self.check_turn()
        self.game.bid(bid)  # type: ignore[arg-type]  # bid() checks the type

    def play(self, card: object) -> None:
        """The person to act plays the card named ``card``."""
        parsed = parse_card(card)  # type: ignore[arg-type]  # it checks
        self.check_turn()
        self.game.play(parsed)

    def take_back(self) -> None:
        """Take back the latest move of a person and the bots' moves after it (not in a
        challenge game): the game is replayed from its moves without them."""
        game = self.game
        if game.challenge is not None:
            raise IllegalMoveError("move.takeback_challenge")
        self.game = take_back(game, self.people())

    def bot_step(self) -> dict[str, Any] | None:
        """One bot action if a bot must act now (the action's JSON), else ``None``."""
        game = self.game
        seat = game.to_act
        bot = self.seats[seat].bot if seat is not None else None
        if seat is None or bot is None or game.phase not in (BIDDING, PLAYING):
            return None
        bidding = game.phase == BIDDING
        choice = bot_move(game, bot)
        if bidding:
            return {"seat": seat, "kind": "bid", "value": choice}
        return {"seat": seat, "kind": "card", "value": card_name(choice)}

    def claim(self) -> None:
        """The person to act claims every remaining trick: refused with the reason unless
        certain from that seat's own view, and at a table with other people (their moves
        cannot be made for them); if accepted, the round is played out (the claimer's
        cards in the order that wins, the bots as they would)."""
        game = self.game
        self.check_turn()
        seat: int = game.to_act  # type: ignore[assignment]
        if len(self.people()) > 1:
            raise IllegalMoveError("claim.humans")
        obs = game.observation(seat)
        reason = why_claim_fails(obs)
        if reason is not None:
            raise IllegalMoveError(reason)
        order = claim_order(obs) or []
        round_index = game.round_index
        while game.phase == PLAYING and game.round_index == round_index:
            if game.to_act == seat:
                game.play(order.pop(0))
            else:
                self.bot_step()

    # -- hints ----------------------------------------------------------------------------

    def hint_level(self) -> str:
        """The strongest built-in level at the table (else a third-party level there, else
        the default): the seats' kinds decide, not what a bot calls itself."""
        levels = available_levels()
        table = [kind for kind in self.game.seats[1:] if kind in levels]
        builtin = [kind for kind in table if is_builtin(kind)]
        if builtin:
            return max(builtin, key=levels.index)
        return table[0] if table else default_level()

    def hint(self) -> dict[str, Any]:
        """What the table's strongest bot level would do in the acting person's place."""
        game = self.game
        if game.phase not in (BIDDING, PLAYING):
            raise IllegalMoveError("move.nothing_to_decide", phase=game.phase.value)
        self.check_turn()
        seat: int = game.to_act  # type: ignore[assignment]
        level = self.hint_level()
        hint = bot_hint(game, make_bot(level), seat, level)
        if hint.kind == "bid":
            return {"kind": "bid", "suggestion": hint.suggestion,
                    "probabilities": list(hint.probabilities), "level": level}
        scores = dict(hint.card_scores)
        obs: Observation = game.observation(seat)
        reason = card_reason(obs, hint.suggestion, scores.get(hint.suggestion))
        return {"kind": "card", "suggestion": card_name(hint.suggestion),
                "card_scores": {card_name(c): s for c, s in hint.card_scores},
                "reason": None if reason is None else reason.to_json(),
                "level": level}
