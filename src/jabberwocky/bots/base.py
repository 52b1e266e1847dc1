"""The bot interface: a bot sees one seat's :class:`Observation` and nothing else."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import Card
from ..core.observation import Observation
from ..core.phase import Phase

HINT_PURPOSE = 0x48494E54
"""Mixed into a hint's random stream so asking for a hint never changes a bot's move."""


@dataclass(frozen=True)
class Hint:
    """What a bot would do for a seat, with its reasons in numbers.

    For a bid, ``probabilities[k]`` is the estimated chance of taking exactly ``k``
    tricks with this hand; for a card, ``card_scores`` maps each playable card to the
    bot's estimate of making the bid when playing it (higher is better), and
    ``card_chances`` (when the bot gives them: ``hard`` does) to its estimated chance of
    taking exactly the bid after playing it, and ``card_wins`` (when the bot plays its
    cards for the game: ``hard`` does) to its estimated chance of winning the game after
    playing it.  A bot that plays for the game may suggest a card with less chance of
    making the bid than another: ``card_wins`` says what it gains.
    """

    kind: str
    """``"bid"`` or ``"card"``."""
    suggestion: int
    """The suggested bid, or the suggested card."""
    probabilities: tuple[float, ...] = ()
    card_scores: tuple[tuple[Card, float], ...] = ()
    card_chances: tuple[tuple[Card, float], ...] = ()
    level: str = ""
    card_wins: tuple[tuple[Card, float], ...] = ()


class Bot:
    """Base class: subclasses choose bids and cards from an observation.

    Bots are deterministic given the observation: their randomness comes from
    ``obs.rng()``, derived from the seed, the seat and the decision, and their work
    is bounded by counts, never by the clock, so a shared seed replays the same game.
    """

    level = "base"

    def choose_bid(self, obs: Observation) -> int:
        """The bid to make; ``obs.legal_bids`` lists the allowed ones."""
        raise NotImplementedError

    def choose_card(self, obs: Observation) -> Card:
        """The card to play; one of ``obs.honest_cards()`` (bots never renege)."""
        raise NotImplementedError

    def act(self, obs: Observation) -> int:
        """A bid in the bidding phase, else a card."""
        if obs.phase == Phase.BIDDING:
            return self.choose_bid(obs)
        return self.choose_card(obs)

    def hint(self, obs: Observation) -> Hint:
        """What this bot would do in ``obs``'s seat (default: its own choice, no numbers)."""
        if obs.phase == Phase.BIDDING:
            return Hint("bid", self.choose_bid(obs), level=self.level)
        return Hint("card", self.choose_card(obs), level=self.level)
