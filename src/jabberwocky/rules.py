"""The ruleset: Jabberwocky by default, with the Oh Hell knobs players expect.

One frozen object holds every option, so a game record can name its rules exactly and
a variant is a different value, not a fork of the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .errors import RulesetError

RULES_VERSION = 1
"""Bumped whenever a rule's meaning changes, so old records are not misread."""

MIN_PLAYERS = 3
MAX_PLAYERS = 5

TrumpLead = Literal["after-broken", "any-time"]
Scoring = Literal["exact-1", "exact-10-plus-bid"]

JABBERWOCKY_SCHEDULE = (3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3)
_TRUMP_LEADS = ("after-broken", "any-time")
_SCORINGS = ("exact-1", "exact-10-plus-bid")
_RENEGE_PENALTIES = (0, 3)


@dataclass(frozen=True)
class Ruleset:
    """Every rule option of a game.

    ``schedule`` is the hand size of each round; ``hook`` forbids the dealer the bid
    that would make the bids total the tricks; ``trump_lead`` says whether trump may
    be led before it is broken; ``scoring`` is ``"exact-1"`` (1 point for an exact
    bid) or ``"exact-10-plus-bid"`` (Oh Hell: 10 + bid); ``renege_penalty`` is 0 (you
    must follow suit) or 3 (the honour rule: you may fail to follow suit and lose 3
    points per such card).
    """

    schedule: tuple[int, ...] = JABBERWOCKY_SCHEDULE
    hook: bool = True
    trump_lead: TrumpLead = "after-broken"
    scoring: Scoring = "exact-1"
    renege_penalty: int = 0
    name: str = field(default="jabberwocky", compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.schedule, tuple) or not self.schedule:
            raise RulesetError("the round schedule must list at least one hand size")
        for size in self.schedule:
            if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 10:
                raise RulesetError(
                    f"hand size {size!r} in the schedule is not allowed: use whole numbers 1 to 10"
                )
        if len(self.schedule) > 30:
            raise RulesetError("the round schedule may have at most 30 rounds")
        if not isinstance(self.hook, bool):
            raise RulesetError(f"hook must be true or false, not {self.hook!r}")
        if self.trump_lead not in _TRUMP_LEADS:
            raise RulesetError(
                f"trump_lead {self.trump_lead!r} is unknown: use one of {', '.join(_TRUMP_LEADS)}"
            )
        if self.scoring not in _SCORINGS:
            raise RulesetError(
                f"scoring {self.scoring!r} is unknown: use one of {', '.join(_SCORINGS)}"
            )
        if self.renege_penalty not in _RENEGE_PENALTIES or isinstance(self.renege_penalty, bool):
            raise RulesetError(
                f"renege_penalty {self.renege_penalty!r} is not offered: use 0 (off) or 3"
            )

    @property
    def rounds(self) -> int:
        """The number of rounds in a game."""
        return len(self.schedule)

    @property
    def honour_rule(self) -> bool:
        """True when a player may renege (and pays the penalty for it)."""
        return self.renege_penalty > 0

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesetError` unless ``players`` can play this schedule.

        Every round needs a stock to turn the trump card from, so at most 51 cards
        may be dealt.
        """
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RulesetError(
                f"{players!r} players cannot play: choose {MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        biggest = max(self.schedule)
        if players * biggest > 51:
            raise RulesetError(
                f"{players} players x {biggest} cards leaves no card to turn for trump:"
                " use smaller hands"
            )

    def points(self, bid: int, taken: int) -> int:
        """Points for a round before any renege penalty."""
        if bid != taken:
            return 0
        return 1 if self.scoring == "exact-1" else 10 + bid

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used in game records."""
        return {
            "name": self.name,
            "version": RULES_VERSION,
            "schedule": list(self.schedule),
            "hook": self.hook,
            "trump_lead": self.trump_lead,
            "scoring": self.scoring,
            "renege_penalty": self.renege_penalty,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Ruleset:
        """Read the JSON form; missing keys take the Jabberwocky defaults.

        Raises :class:`RulesetError` naming the first unusable key.
        """
        if data is None:
            return JABBERWOCKY
        if isinstance(data, str):
            return preset(data)
        if not isinstance(data, dict):
            raise RulesetError("rules must be an object of options or a preset name")
        known = {"name", "version", "schedule", "hook", "trump_lead", "scoring", "renege_penalty"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesetError(f"unknown rule option {unknown[0]!r}")
        version = data.get("version", RULES_VERSION)
        if version != RULES_VERSION:
            raise RulesetError(
                f"rules version {version!r} is not supported by this engine"
                f" (it knows {RULES_VERSION})"
            )
        schedule = data.get("schedule", list(JABBERWOCKY_SCHEDULE))
        if not isinstance(schedule, (list, tuple)):
            raise RulesetError("schedule must be a list of hand sizes")
        name = data.get("name", "custom")
        if not isinstance(name, str) or len(name) > 40:
            raise RulesetError("the ruleset name must be a short text")
        return cls(
            schedule=tuple(schedule),
            hook=data.get("hook", True),
            trump_lead=data.get("trump_lead", "after-broken"),
            scoring=data.get("scoring", "exact-1"),
            renege_penalty=data.get("renege_penalty", 0),
            name=name,
        )

    def with_options(self, **changes: Any) -> Ruleset:
        """A copy with some options changed (named ``"custom"`` unless given a name)."""
        changes.setdefault("name", "custom")
        return replace(self, **changes)


JABBERWOCKY = Ruleset()
"""The default preset: RULES.md to the letter."""

OH_HELL = Ruleset(
    schedule=(7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7),
    hook=True,
    trump_lead="any-time",
    scoring="exact-10-plus-bid",
    renege_penalty=0,
    name="oh-hell",
)
"""Oh Hell's common form: down and up from 7, trump may be led any time, 10 + bid."""

HONOUR = Ruleset(renege_penalty=3, name="honour")
"""Jabberwocky with the honour rule: reneging is possible and costs 3 points."""

PRESETS = {r.name: r for r in (JABBERWOCKY, OH_HELL, HONOUR)}


def preset(name: str) -> Ruleset:
    """The preset called ``name``; raises :class:`RulesetError` listing the presets."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesetError(
            f"no ruleset called {name!r}: choose one of {', '.join(sorted(PRESETS))}"
        ) from None
