"""A seed's deals as JSON: what ``python -m jabberwocky deal --json`` prints and the
worker's ``deal`` request answers (one writer for both, so they cannot drift apart)."""

from __future__ import annotations

from typing import Any

from ..core.cards import card_name, cards_of
from ..core.deal import DEAL_ALGORITHM, deal_round, dealer_of_round, first_dealer
from ..core.rules import Ruleset
from ..core.table import check_seed


def deal_summary(seed: object, players: object, rules: Ruleset) -> dict[str, Any]:
    """The JSON of ``deal``: first dealer and all deals (the table and the seed are
    checked first: :class:`~jabberwocky.core.errors.SeedError` or ``RulesetError``)."""
    players = rules.check_players(players)
    seed = check_seed(seed)
    first = first_dealer(seed, players)
    rounds = []
    for i, size in enumerate(rules.schedule):
        dealer = dealer_of_round(first, i, players)
        d = deal_round(seed, i + 1, players, dealer, size)
        rounds.append({
            "round": i + 1,
            "dealer": dealer,
            "hand_size": size,
            "hands": [[card_name(c) for c in cards_of(h)] for h in d.hands],
            "trump_card": card_name(d.trump_card),
        })
    return {"seed": seed, "players": players, "deal_algorithm": DEAL_ALGORITHM,
            "first_dealer": first, "rounds": rounds}
