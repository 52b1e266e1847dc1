"""The game state machine: deal, bid, play, score, 13 rounds, winners.

``Game`` is the referee.  It holds every hand, so it is never handed to a bot or to
the UI: they receive ``Game.observation(seat)``, which holds only what that seat may
see.  Each action has three faces, as in pokerkit: ``why_illegal_*`` returns the
reason a move is not allowed now (or ``None``), ``legal_*`` lists what is allowed, and
``bid``/``play`` apply a move or raise :class:`IllegalMoveError` with that reason.

Three words for cards, the same in the engine, the bots and the web view:

- *legal*: allowed by the rules in force now (:meth:`Game.legal_mask`), which under the
  honour rule includes failing to follow suit;
- *renege*: a legal card that fails to follow suit though the player could
  (:meth:`Game.is_renege`; only possible under the honour rule, and it costs points);
- *honest*: legal and not a renege (:meth:`Game.honest_mask`): what bots choose from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from .cards import SUIT_MASKS, SUITS, Card, Mask, card_name, cards_of
from .deal import Deal, deal_round
from .deal import first_dealer as _first_dealer
from .errors import IllegalMoveError, SeedError
from .history import RoundResult, Trick
from .levels import BOTS_VERSION, MAX_LEVEL_LENGTH, SEAT_KINDS, is_seat_kind
from .messages import Message, quote
from .observation import Observation
from .phase import Phase
from .rng import seed_key
from .rules import JABBERWOCKY, Ruleset
from .table import MAX_SEED_LENGTH, check_seed

BIDDING = Phase.BIDDING
PLAYING = Phase.PLAYING
ROUND_OVER = Phase.ROUND_OVER
GAME_OVER = Phase.GAME_OVER

__all__ = ["BIDDING", "GAME_OVER", "MAX_SEED_LENGTH", "PLAYING", "ROUND_OVER", "Game", "Phase",
           "check_seed", "not_allowed", "trick_winner", "winners_of"]


def trick_winner(cards: Sequence[Card], leader: int, players: int, trump_suit: int) -> int:
    """The seat that wins a full trick: highest trump, else highest card of the suit led."""
    led = cards[0] // 13
    best = cards[0]
    best_i = 0
    best_trump = led == trump_suit
    for i in range(1, len(cards)):
        c = cards[i]
        s = c // 13
        if s == trump_suit:
            if not best_trump or c > best:
                best, best_i, best_trump = c, i, True
        elif s == led and not best_trump and c > best:
            best, best_i = c, i
    return (leader + best_i) % players


def not_allowed(trick: Sequence[Card], trump_suit: int) -> Message:
    """Why a card held by the player to act is not allowed (the rules forbid it now): it
    fails to follow the suit led, or it leads trumps before they are broken.  The one place
    the referee's words for it live (a view reads them from an observation too)."""
    if trick:
        return Message("move.must_follow", suit=SUITS[trick[0] // 13])
    return Message("move.trump_not_broken", suit=SUITS[trump_suit])


def winners_of(phase: Phase, scores: Sequence[int]) -> list[int]:
    """The seats with the most points once the game is over (all on a tie), else none."""
    if phase != GAME_OVER:
        return []
    best = max(scores)
    return [s for s, v in enumerate(scores) if v == best]


class Game:
    """A whole game of ``players`` seats under ``rules``, dealt from ``seed``.

    >>> g = Game("hello", players=4)
    >>> g.phase, g.round_index, g.hand_size
    (<Phase.BIDDING: 'bidding'>, 0, 3)

    ``seats`` names each seat's kind: ``human`` or a bot level, built-in or not (any name
    :func:`~jabberwocky.core.levels.is_level_name` accepts: the referee needs no bot, so a game
    of a third-party bot replays and checks where that bot is not installed).

    ``bots_version`` names the bots of the game: :data:`~jabberwocky.bots.BOTS_VERSION`
    for a new game; a game loaded from a record keeps the record's (``None`` for a record
    made before records named it), so the page can tell when the bots have changed since.

    Three more facts about the game travel with its record and play no part in the
    rules: ``names`` (one player name or ``None`` per seat, checked by
    :func:`~jabberwocky.core.table.check_names` where they come in), ``takebacks`` (how many
    times a move was taken back, :func:`~jabberwocky.core.actions.take_back`) and
    ``challenge`` (the text of the challenge link the game answers, or ``None``).

    ``first_dealer`` is the seat that deals round 1: the seed's
    (:func:`~jabberwocky.core.deal.first_dealer`) unless given, for a game dealt from
    outside its seed (with :meth:`round_deal`).
    """

    def __init__(
        self,
        seed: str,
        players: int = 4,
        rules: Ruleset = JABBERWOCKY,
        seats: Sequence[str] | None = None,
        *,
        first_dealer: int | None = None,
    ) -> None:
        self.players = players = rules.check_players(players)
        self.seed = check_seed(seed)
        self.rules = rules
        if seats is None:
            seats = ["human"] + ["random"] * (players - 1)
        if len(seats) != players:
            raise SeedError("table.seat_count", count=len(seats), players=players)
        for kind in seats:
            if not isinstance(kind, str):
                raise SeedError("table.unknown_seat", value=quote(kind), choices=list(SEAT_KINDS))
            if not is_seat_kind(kind):
                raise SeedError("table.seat_name", value=quote(kind), choices=list(SEAT_KINDS),
                                max=MAX_LEVEL_LENGTH)
        self.seats: tuple[str, ...] = tuple(seats)
        self.bots_version: str | None = BOTS_VERSION
        self.names: tuple[str | None, ...] = (None,) * players
        self.takebacks = 0
        self.challenge: str | None = None
        self.first_dealer = _first_dealer(seed, players) if first_dealer is None else first_dealer
        self.bot_key = seed_key(seed)
        self.results: list[RoundResult] = []
        self.scores = [0] * players
        self._start_round(0)

    # -- round set-up -------------------------------------------------------------

    def _start_round(self, index: int) -> None:
        n = self.players
        self.round_index = index
        self.dealer = (self.first_dealer + index) % n
        self.hand_size = self.rules.schedule[index]
        deal = self.round_deal(index)
        self.dealt = deal.hands
        self.hands = list(deal.hands)
        self.trump_card = deal.trump_card
        self.trump_suit = deal.trump_card // 13
        self.bids: list[int | None] = [None] * n
        self.taken = [0] * n
        self.reneges = [0] * n
        self.tricks: list[Trick] = []
        self.trick: list[Card] = []
        self.leader = (self.dealer + 1) % n
        self.broken = False
        self.phase: Phase = BIDDING
        self.to_act: int | None = self.leader
        self.step = 0

    def round_deal(self, index: int) -> Deal:
        """The deal of round ``index`` (0-based; :attr:`dealer` and :attr:`hand_size` are
        already that round's): the seed's, :func:`~jabberwocky.core.deal.deal_round`.

        The one hook a subclass may override to deal otherwise (OpenSpiel's chance nodes
        deal the cards, :mod:`jabberwocky.adapters.openspiel`); the rest of the referee is
        the same.
        """
        return deal_round(self.seed, index + 1, self.players, self.dealer, self.hand_size)

    def copy(self) -> Self:
        """An independent copy of the game as it stands (a subclass's copy is of its class):
        moves made on one do not reach the other.

        Every list of the state is copied; what the lists hold (cards, bids, tricks, round
        results) is immutable, so one level is enough.  As fast as the state is small: the
        tree searches (OpenSpiel's ``clone``) copy a game at every node.
        """
        new = object.__new__(type(self))
        new.__dict__.update({k: (v.copy() if type(v) is list else v)
                             for k, v in self.__dict__.items()})
        return new

    # -- bidding ------------------------------------------------------------------

    def forbidden_bid(self) -> int | None:
        """The bid the hook rule forbids the player to act, or ``None``."""
        if not self.rules.hook or self.phase != BIDDING or self.to_act != self.dealer:
            return None
        f = self.hand_size - sum(b for b in self.bids if b is not None)
        return f if 0 <= f <= self.hand_size else None

    def legal_bids(self) -> list[int]:
        """The bids allowed to the player to act (empty outside bidding)."""
        if self.phase != BIDDING:
            return []
        f = self.forbidden_bid()
        return [b for b in range(self.hand_size + 1) if b != f]

    def why_illegal_bid(self, bid: object) -> Message | None:
        """Why ``bid`` is not allowed now, or ``None`` if it is."""
        if self.phase != BIDDING:
            return Message("move.not_bidding", phase=self.phase.value)
        h = self.hand_size
        if not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= h:
            return Message("move.bid_range", max=h, value=quote(bid))
        if bid == self.forbidden_bid():
            return Message("move.hook", bid=bid, tricks=h)
        return None

    def bid(self, bid: int) -> None:
        """The player to act bids ``bid``; raises :class:`IllegalMoveError` if not allowed."""
        reason = self.why_illegal_bid(bid)
        if reason is not None:
            raise IllegalMoveError(reason)
        self.apply_bid(bid)

    def apply_bid(self, bid: int) -> None:
        """The player to act bids ``bid``, unchecked: for a caller that already knows the
        bid is legal (the replay of a checked record, the simulations' fast path)."""
        p = self.to_act
        assert p is not None
        self.bids[p] = bid
        self.step += 1
        if p == self.dealer:
            self.phase = PLAYING
            self.to_act = self.leader
        else:
            self.to_act = (p + 1) % self.players

    # -- play ---------------------------------------------------------------------

    def honest_mask(self) -> Mask:
        """The cards the player to act may play without reneging (0 outside play)."""
        if self.phase != PLAYING:
            return 0
        hand = self.hands[self.to_act]  # type: ignore[index]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0] // 13]
            return follow or hand
        if not self.broken and self.rules.trump_lead == "after-broken":
            return (hand & ~SUIT_MASKS[self.trump_suit]) or hand
        return hand

    def legal_mask(self) -> Mask:
        """The cards the rules allow now (0 outside play): the honest ones, and under the
        honour rule every card in hand when following (reneges included)."""
        if self.trick and self.rules.honour_rule and self.phase == PLAYING:
            return self.hands[self.to_act]  # type: ignore[index]
        return self.honest_mask()

    def legal_cards(self) -> list[Card]:
        """The legal cards (reneges included under the honour rule), in card order."""
        return cards_of(self.legal_mask())

    def honest_cards(self) -> list[Card]:
        """The honest cards (legal and no renege), in card order."""
        return cards_of(self.honest_mask())

    def why_illegal_card(self, card: object) -> Message | None:
        """Why ``card`` may not be played now, or ``None`` if it may."""
        if self.phase != PLAYING:
            return Message("move.not_playing", phase=self.phase.value)
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
            return Message("move.not_a_card", value=quote(card))
        hand = self.hands[self.to_act]  # type: ignore[index]
        if not hand >> card & 1:
            return Message("move.not_held", card=card_name(card))
        if self.legal_mask() >> card & 1:
            return None
        return not_allowed(self.trick, self.trump_suit)

    def is_renege(self, card: Card) -> bool:
        """True when ``card`` is legal now but fails to follow suit though the player could
        (only possible under the honour rule)."""
        return bool((self.legal_mask() & ~self.honest_mask()) >> card & 1)

    def play(self, card: Card) -> None:
        """The player to act plays ``card``; raises :class:`IllegalMoveError` if not allowed."""
        reason = self.why_illegal_card(card)
        if reason is not None:
            raise IllegalMoveError(reason)
        if self.is_renege(card):
            self.reneges[self.to_act] += 1  # type: ignore[index]
        self.apply_card(card)

    def apply_card(self, card: Card) -> None:
        """The player to act plays ``card``, unchecked and counted as no renege: for a
        caller that already knows the card is honest (the fast path of simulations)."""
        p: int = self.to_act  # type: ignore[assignment]
        self.hands[p] ^= 1 << card
        self.step += 1
        trick = self.trick
        trick.append(card)
        if card // 13 == self.trump_suit:
            self.broken = True
        if len(trick) < self.players:
            self.to_act = p + 1 if p + 1 < self.players else 0
            return
        leader = self.leader
        winner = trick_winner(trick, leader, self.players, self.trump_suit)
        tricks = self.tricks
        tricks.append(Trick(leader, tuple(trick), winner))
        self.taken[winner] += 1
        self.trick = []
        self.leader = self.to_act = winner
        if len(tricks) == self.hand_size:
            self.score_round()

    def score_round(self) -> None:
        """Score the round once its last trick is in :attr:`tricks` (what the last card
        does; a fast path that plays whole tricks itself, :mod:`~jabberwocky.bots.fastplay`,
        ends the round with it)."""
        rules = self.rules
        bids: tuple[int, ...] = tuple(self.bids)  # type: ignore[arg-type]
        penalty = rules.renege_penalty
        points = tuple([
            rules.points(bids[s], self.taken[s]) - penalty * self.reneges[s]
            for s in range(self.players)
        ])
        for seat, pts in enumerate(points):
            self.scores[seat] += pts
        self.results.append(RoundResult(
            self.round_index, self.dealer, self.hand_size, self.dealt, self.trump_card,
            bids, tuple(self.tricks), tuple(self.taken), tuple(self.reneges), points,
        ))
        self.to_act = None
        last = self.round_index + 1 == self.rules.rounds
        self.phase = GAME_OVER if last else ROUND_OVER

    def next_round(self) -> None:
        """Deal the next round once the current one is over."""
        if self.phase != ROUND_OVER:
            raise IllegalMoveError("move.round_not_over", phase=self.phase.value)
        self._start_round(self.round_index + 1)

    # -- results and views --------------------------------------------------------

    def winners(self) -> list[int]:
        """The seats with the most points (all of them on a tie); empty before the end."""
        return winners_of(self.phase, self.scores)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now: its own hand and the public table, nothing more."""
        acting = self.to_act == seat
        if acting and self.phase == BIDDING:
            legal_bids = tuple(self.legal_bids())
            legal = 0
        else:
            legal_bids = ()
            legal = self.legal_mask() if acting else 0
        return Observation(
            seat=seat,
            players=self.players,
            rules=self.rules,
            round_index=self.round_index,
            hand_size=self.hand_size,
            dealer=self.dealer,
            trump_card=self.trump_card,
            hand=self.hands[seat],
            bids=tuple(self.bids),
            leader=self.leader,
            trick=tuple(self.trick),
            tricks=tuple(self.tricks),
            taken=tuple(self.taken),
            broken=self.broken,
            scores=tuple(self.scores),
            phase=self.phase,
            to_act=self.to_act,
            legal_bids=legal_bids,
            legal=legal,
            honest=self.honest_mask() if acting else 0,
            history=tuple(self.results),
            step=self.step,
            bot_key=self.bot_key,
        )
