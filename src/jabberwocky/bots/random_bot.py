"""``random``: uniform over the legal moves.  The floor of the bot ladder."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import Card, Mask
from ..core.observation import Observation
from ..core.rng import step_fraction16
from .base import Bot


class RandomBot(Bot):
    """Picks uniformly among the legal bids or cards.

    It needs nothing but the legal moves, so simulations may call :meth:`pick` with
    those alone and skip building a full observation (the engine benchmark does).
    """

    level = "random"

    @staticmethod
    def pick(legal_bids: Sequence[int], legal_cards: Mask, u16: int) -> int:
        """The choice for the 16-bit random value ``u16``: among ``legal_bids`` if any,
        else among the cards of ``legal_cards`` (index ``u16 * count >> 16``)."""
        if legal_bids:
            return legal_bids[u16 * len(legal_bids) >> 16]
        k = u16 * legal_cards.bit_count() >> 16
        while k:
            legal_cards &= legal_cards - 1
            k -= 1
        return (legal_cards & -legal_cards).bit_length() - 1

    @staticmethod
    def _u16(obs: Observation) -> int:
        return step_fraction16(obs.bot_key, obs.round_index, obs.step)

    def choose_bid(self, obs: Observation) -> int:
        return self.pick(obs.legal_bids, 0, self._u16(obs))

    def choose_card(self, obs: Observation) -> Card:
        return self.pick((), obs.honest, self._u16(obs))
