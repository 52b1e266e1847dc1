"""A table's session: the game and its seats, each seat's view, hint and hand-off.

A seat is a bot (its level and the bot playing it), a person at this device (``here``)
or a person elsewhere (``remote``, an online table's guest: their moves come in through
the host's relay naming their seat, and they see only their own view).  While a guest is
away the host may let a bot stand in for them (``stand_in``) until they are back.

One code path serves every table: a game of one person against bots is pass-and-play
with one person here, whose hand is shown from the start; with several people here the
device is handed on, and between two of them the view shows no hand at all (``handoff``)
until the next one says they have it (:meth:`Session.reveal`).

The session decides who may act and who sees what; the view's JSON is written by
:func:`jabberwocky.formats.gamejson.seat_view` from that seat's observation and the public
table facts only, so no other seat's hidden card can reach the page; only the device's own
view (:meth:`Session.view`) carries the deal code, which gives every hand of the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..analysis.claim import claim_order, why_claim_fails
from ..analysis.daily import is_daily_table
from ..bots import Bot, available_levels, is_builtin, make_bot
from ..bots.referee import bot_hint, bot_move
from ..core.actions import last_action, take_back
from ..core.cards import card_name, parse_card
from ..core.errors import IllegalMoveError, RequestError
from ..core.game import BIDDING, PLAYING, Game
from ..core.levels import HUMAN
from ..core.observation import Observation
from ..core.table import check_name
from ..formats.challenge import can_challenge
from ..formats.gamejson import public_observation, seat_view, table_facts
from ..formats.record import FORMAT

SeatKind = Literal["bot", "here", "remote"]


@dataclass
class Seat:
    """One seat of the table: who plays it and, for a bot, the bot."""

    kind: SeatKind
    level: str | None = None
    """The bot's level (a bot seat's kind in the game)."""
    bot: Bot | None = None
    stand_in: str | None = None
    """A remote seat only: the level of the bot playing for its person while they are
    away (``None``: the person plays it)."""
    stand_in_bot: Bot | None = None

    @property
    def person(self) -> bool:
        """True when a person plays the seat (here or elsewhere)."""
        return self.kind != "bot"

    def player(self) -> Bot | None:
        """The bot that makes this seat's moves now: its own, or the one standing in."""
        return self.bot if self.bot is not None else self.stand_in_bot


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


AUTO_LEVEL = "medium"
"""The level that moves for a guest whose turn clock ran out (the issue's choice: a
sensible move, not the strongest)."""


def seats_of(game: Game, remote: tuple[int, ...] | list[int] = ()) -> list[Seat]:
    """The seats of ``game``: its ``human`` seats played here, or elsewhere when listed in
    ``remote``, a bot made for every other (raises
    :class:`~jabberwocky.core.errors.BotError` when one cannot be made, and
    :class:`~jabberwocky.core.errors.RequestError` when ``remote`` names a bot's seat or
    every person seat: the host plays one)."""
    for seat in remote:
        if (not isinstance(seat, int) or isinstance(seat, bool)
                or not 0 <= seat < game.players or game.seats[seat] != HUMAN):
            raise RequestError("online.remote_not_person", seat=str(seat)[:40])
    far = set(remote)
    if far and all(kind != HUMAN or s in far for s, kind in enumerate(game.seats)):
        raise RequestError("online.no_host_seat")
    return [(Seat("remote") if s in far else Seat("here")) if kind == HUMAN
            else Seat("bot", kind, make_bot(kind))
            for s, kind in enumerate(game.seats)]


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

    def remote(self) -> list[int]:
        """The seats people play elsewhere (an online table's guests)."""
        return [s for s, seat in enumerate(self.seats) if seat.kind == "remote"]

    def stand_ins(self) -> dict[int, str]:
        """The remote seats a bot plays for now, and its level."""
        return {s: seat.stand_in for s, seat in enumerate(self.seats)
                if seat.stand_in is not None}

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
        """The device's view: its viewer's, with the hand-off between people here.  The
        only view with the deal code: this device holds every hand (it deals)."""
        viewer = self.viewer()
        return self.view_of(viewer, self.handoff(viewer), deal_code=self.game.seed)

    def view_of(self, seat: int, handoff: bool = False, *,
                deal_code: str | None = None) -> dict[str, Any]:
        """``seat``'s view (during a ``handoff``, with no hand), built from that seat's
        observation and the public table facts only; with the ``deal_code`` only when
        it is for this device's own screen."""
        game = self.game
        people = self.people()
        obs = game.observation(seat)
        can_claim = (obs.my_turn and not handoff and obs.phase == PLAYING
                     and len(people) == 1 and claim_order(obs) is not None)
        rule = self.why_no_take_back()
        return seat_view(obs, table_facts(game), deal_code=deal_code, handoff=handoff,
                         humans=people, can_claim=can_claim,
                         can_challenge=can_challenge(game),
                         can_take_back=rule is None and last_action(game, people) is not None,
                         record_version=FORMAT, remote=self.remote(),
                         stand_ins=self.stand_ins(), take_back_rule=rule)

    def person_view(self, seat: object) -> dict[str, Any]:
        """The view of a person's seat (here or elsewhere), never a hand-off: what the host
        sends a guest, so built from what that seat may know (no deal code: it gives every
        hand of the game).  Refused for a bot's seat or a seat not at the table."""
        return self.view_of(self.person_seat(seat))

    def public_view(self) -> dict[str, Any]:
        """The table as anyone may see it: what the host sends a friend who watches.

        Built from :func:`~jabberwocky.formats.gamejson.public_observation` (an
        observation with no hand, no legal moves, no random key) as a hand-off view: no
        legal cards, renege cards or reasons, no legal bids, ``your_turn`` false, no deal
        code, and every flag that could hint at a hand (claims, take-backs, challenges)
        off.  What is left is public at a real table: the trump card, the bids, the cards
        in the trick and the tricks played, how many cards each hand holds, the scores.
        The seat it is drawn from (``viewer``) is the host's, only for where the page
        puts the table."""
        game = self.game
        obs = public_observation(game.observation(self.here()[0]))
        return seat_view(obs, table_facts(game), deal_code=None, handoff=True,
                         humans=self.people(), can_claim=False, can_challenge=False,
                         can_take_back=False, record_version=FORMAT, remote=self.remote(),
                         stand_ins=self.stand_ins(), take_back_rule=None)

    def views_of(self, seats: object, public: object = False) -> dict[str, Any]:
        """Several people's views and, when ``public`` is true, the public view, in one
        request: what the host sends its guests after a move (one answer from the engine
        instead of one per guest).  ``seats``: a list of at most as many person seats as
        the table has, each checked as :meth:`person_view` checks one."""
        if (not isinstance(seats, list) or len(seats) > self.game.players
                or not isinstance(public, bool)):
            raise RequestError("online.bad_seat", value=str(seats)[:40],
                               players=self.game.players)
        views = [self.view_of(self.person_seat(seat)) for seat in seats]
        return {"views": views, "public": self.public_view() if public else None}

    def person_seat(self, seat: object) -> int:
        """``seat`` checked: a whole number naming a person's seat at this table."""
        if (not isinstance(seat, int) or isinstance(seat, bool)
                or not 0 <= seat < self.game.players):
            raise RequestError("online.bad_seat", value=str(seat)[:40],
                               players=self.game.players)
        if not self.seats[seat].person:
            raise RequestError("online.not_a_person", seat=seat)
        return seat

    def reveal(self) -> None:
        """The person to view has the device: the hand-off ends."""
        self.shown = self.viewer()

    # -- moves ----------------------------------------------------------------------------

    def check_remote_turn(self, seat: object) -> int:
        """``seat`` must be a remote person's, to act now, and not played by a stand-in."""
        checked = self.person_seat(seat)
        game = self.game
        if game.phase not in (BIDDING, PLAYING):
            raise IllegalMoveError("move.nothing_to_decide", phase=game.phase.value)
        if (self.seats[checked].kind != "remote" or game.to_act != checked
                or self.seats[checked].stand_in is not None):
            raise IllegalMoveError("move.not_your_turn", seat=checked)
        return checked

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

    def remote_bid(self, seat: object, bid: object) -> None:
        """The remote person at ``seat`` bids (refused unless it is their turn)."""
        self.check_remote_turn(seat)
        self.game.bid(bid)  # type: ignore[arg-type]  # bid() checks the type

    def remote_play(self, seat: object, card: object) -> None:
        """The remote person at ``seat`` plays the card named ``card``."""
        self.check_remote_turn(seat)  # the seat is to act: the game plays for it
        self.game.play(parse_card(card))  # type: ignore[arg-type]  # parse_card checks

    def set_stand_in(self, seat: object, level: object) -> None:
        """A bot of ``level`` plays the remote ``seat`` from now on (``None``: its person
        has it back).  The stand-in is a bot like the table's: it chooses from the seat's
        own view."""
        checked = self.person_seat(seat)
        if self.seats[checked].kind != "remote":
            raise RequestError("online.not_remote", seat=checked)
        place = self.seats[checked]
        if level is None:
            place.stand_in, place.stand_in_bot = None, None
            return
        if not isinstance(level, str) or level not in available_levels():
            raise RequestError("online.unknown_level", value=str(level)[:40],
                               choices=available_levels())
        place.stand_in, place.stand_in_bot = level, make_bot(level)

    def take_seat(self, seat: object, name: object) -> None:
        """Another person takes the remote ``seat`` a bot stands in for (a friend who
        watched, in the place of one who left): the stand-in steps aside and the seat plays
        under ``name`` (``None``: no name) from here on, with its hand and the table as they
        are.  Refused unless a bot stands in there (``online.no_stand_in``): a seat its
        person plays is never taken from them."""
        checked = self.person_seat(seat)
        place = self.seats[checked]
        if place.kind != "remote":
            raise RequestError("online.not_remote", seat=checked)
        if place.stand_in is None:
            raise RequestError("online.no_stand_in", seat=checked)
        new_name = None if name is None else check_name(name)
        names = list(self.game.names)
        names[checked] = new_name
        self.game.names = tuple(names)
        place.stand_in, place.stand_in_bot = None, None

    def auto_move(self, seat: object) -> dict[str, Any]:
        """One move for the remote ``seat`` whose turn clock ran out, made by the
        :data:`AUTO_LEVEL` bot (the action's JSON)."""
        checked = self.check_remote_turn(seat)
        return self._bot_action(checked, make_bot(AUTO_LEVEL))

    def why_no_take_back(self) -> str | None:
        """The code of the reason this table allows no take-backs, else ``None``: a
        challenge is played as dealt, the deal of the day counts its first game, and at an
        online table a move once seen by the others stays."""
        if self.game.challenge is not None:
            return "move.takeback_challenge"
        if self.remote():
            return "move.takeback_online"
        if is_daily_table(self.game) is not None:
            return "move.takeback_daily"
        return None

    def take_back(self) -> None:
        """Take back the latest move of a person and the bots' moves after it (not in a
        challenge game, the deal of the day or online): the game is replayed from its moves
        without them."""
        why = self.why_no_take_back()
        if why is not None:
            raise IllegalMoveError(why)
        self.game = take_back(self.game, self.people())

    def bot_step(self) -> dict[str, Any] | None:
        """One bot action if a bot (a seat's own or a stand-in) must act now (the action's
        JSON), else ``None``."""
        game = self.game
        seat = game.to_act
        bot = self.seats[seat].player() if seat is not None else None
        if seat is None or bot is None or game.phase not in (BIDDING, PLAYING):
            return None
        return self._bot_action(seat, bot)

    def _bot_action(self, seat: int, bot: Bot) -> dict[str, Any]:
        bidding = self.game.phase == BIDDING
        choice = bot_move(self.game, bot)
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
        return self._hint_for(game.to_act)  # type: ignore[arg-type]

    def remote_hint(self, seat: object) -> dict[str, Any]:
        """The hint for the remote person at ``seat``, on their turn only (computed from
        their seat's view, for them alone)."""
        return self._hint_for(self.check_remote_turn(seat))

    def _hint_for(self, seat: int) -> dict[str, Any]:
        game = self.game
        level = self.hint_level()
        hint = bot_hint(game, make_bot(level), seat, level)
        if hint.kind == "bid":
            return {"kind": "bid", "suggestion": hint.suggestion,
                    "probabilities": list(hint.probabilities), "level": level}
        scores = dict(hint.card_scores)
        obs: Observation = game.observation(seat)
        from ..analysis.hint_reason import card_reason  # here: only a hint needs it

        reason = card_reason(obs, hint.suggestion, scores.get(hint.suggestion))
        return {"kind": "card", "suggestion": card_name(hint.suggestion),
                "card_scores": {card_name(c): s for c, s in hint.card_scores},
                "reason": None if reason is None else reason.to_json(),
                "level": level}
