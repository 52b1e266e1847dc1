"""The ruleset: Jabberwocky by default, with the Oh Hell knobs players expect.

One frozen object holds every option, so a game record can name its rules exactly and
a variant is a different value, not a fork of the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from dataclasses import field as _field  # RuleOption has a field named `field`
from itertools import pairwise
from typing import Any, Literal, TypeGuard

from .errors import JabberwockyError, RulesetError
from .messages import quote
from .table import DEFAULT_PLAYERS, MAX_PLAYERS, MIN_PLAYERS, check_players, check_seed

RULES_VERSION = 1
"""Bumped whenever a rule's meaning changes, so old records are not misread."""

MIN_HAND = 1
MAX_HAND = 10
MAX_ROUNDS = 30
MAX_NAME_LENGTH = 40

TrumpLead = Literal["after-broken", "any-time"]
Scoring = Literal["exact-1", "exact-10-plus-bid"]

JABBERWOCKY_SCHEDULE = (3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3)


@dataclass(frozen=True)
class RuleOption:
    """One rule option, declared once: everything the engine and the page need to know of
    it apart from what it does in play.

    ``field`` is the :class:`Ruleset` field (and the record's key); ``link`` its key in a
    link's ``rules=`` value and ``link_values`` the link's text for each of ``values``;
    ``setting`` the page's settings key; ``control`` the New game dialog's control
    (``schedule``, ``checkbox``: ticked means ``checked``, or ``select``); ``words`` the
    catalogue keys of its label, its values and its short summary (templates: ``{value}``
    stands for the link value).  ``flag`` is the value the option's bit ``bit`` stands for
    in a challenge link's custom rules (the other value is the bit clear); a bit, once
    given, is never reused, so old links read the same.  The schedule has no values, no
    bit: it is spelled out as hand sizes everywhere.
    """

    field: str
    link: str
    setting: str
    control: Literal["schedule", "checkbox", "select"]
    values: tuple[Any, ...] = ()
    link_values: tuple[str, ...] = ()
    checked: Any = None
    words: dict[str, Any] = _field(default_factory=dict)
    bit: int | None = None
    flag: Any = None

    @property
    def kind(self) -> str:
        """``schedule``, ``bool`` (two values, true and false) or ``choice``."""
        if self.control == "schedule":
            return "schedule"
        return "bool" if all(type(v) is bool for v in self.values) else "choice"

    def allows(self, value: object) -> bool:
        """True when ``value`` is one of the option's values, of the same JSON type (``1``
        is not ``true``, ``false`` is not ``0``)."""
        return any(type(value) is type(v) and value == v for v in self.values)

    def link_value(self, value: object) -> str:
        """The link's text for ``value``."""
        return self.link_values[self.values.index(value)]

    def to_json(self) -> dict[str, Any]:
        """What the page reads (``rules_info()["options"][field]``, without the defaults)."""
        out: dict[str, Any] = {"field": self.field, "link": self.link, "setting": self.setting,
                               "control": self.control}
        if self.control != "schedule":
            out["values"] = list(self.values)
            out["link_values"] = list(self.link_values)
        if self.control == "checkbox":
            out["checked"] = self.checked
        out["words"] = dict(self.words)
        return out


RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("schedule", "schedule", "schedule", "schedule",
               words={"label": "newgame.rounds", "short": "preset.schedule"}),
    RuleOption("hook", "hook", "hook", "checkbox", (True, False), ("on", "off"), checked=True,
               words={"label": "newgame.hook", "short": "hook.{value}.short"},
               bit=0, flag=True),
    RuleOption("trump_lead", "lead", "trumpLead", "select", ("after-broken", "any-time"),
               ("after-broken", "any-time"),
               words={"label": "newgame.lead", "value": "trump_lead.{value}",
                      "short": "trump_lead.{value}.short"},
               bit=1, flag="any-time"),
    RuleOption("scoring", "scoring", "scoring", "select", ("exact-1", "exact-10-plus-bid"),
               ("exact-1", "exact-10-plus-bid"),
               words={"label": "newgame.scoring", "value": "scoring.{value}",
                      "short": "scoring.{value}.short"},
               bit=2, flag="exact-10-plus-bid"),
    RuleOption("renege_penalty", "renege", "renege", "checkbox", (0, 3), ("0", "3"), checked=3,
               words={"label": "newgame.renege", "label_params": {"points": 3},
                      "short": "renege.{value}.short", "short_params": {"points": "{value}"}},
               bit=3, flag=3),
)
"""Every rule option, in the order the New game dialog shows them: the one declaration
the ruleset's checks, its JSON, the page's settings, links and dialog, the challenge
codec and the OpenSpiel parameters are all made from.  Adding an option is a line here,
a field of :class:`Ruleset` (its default), its play logic, its words in the catalogues,
and tests."""
OPTIONS = {o.field: o for o in RULE_OPTIONS}
_RENEGE_PENALTIES = OPTIONS["renege_penalty"].values


def is_whole(value: object) -> TypeGuard[int]:
    """A JSON whole number: an ``int`` that is not a ``bool`` (``true`` is not 1 here, and
    ``2.0`` is not 2)."""
    return isinstance(value, int) and not isinstance(value, bool)


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
            raise RulesetError("rules.schedule_empty")
        if len(self.schedule) > MAX_ROUNDS:
            raise RulesetError("rules.schedule_long", max=MAX_ROUNDS)
        for size in self.schedule:
            if not is_whole(size) or not MIN_HAND <= size <= MAX_HAND:
                raise RulesetError("rules.hand_size", value=quote(size), min=MIN_HAND,
                                   max=MAX_HAND)
        for option in RULE_OPTIONS[1:]:
            value = getattr(self, option.field)
            if not option.allows(value):
                if option.kind == "bool":  # its message names no choices: on or off
                    raise RulesetError(f"rules.{option.field}", value=quote(value))
                raise RulesetError(f"rules.{option.field}", value=quote(value),
                                   choices=list(option.values))
        _check_name(self.name)

    @property
    def rounds(self) -> int:
        """The number of rounds in a game."""
        return len(self.schedule)

    @property
    def honour_rule(self) -> bool:
        """True when a player may renege (and pays the penalty for it)."""
        return self.renege_penalty > 0

    def check_players(self, players: object) -> int:
        """Return ``players`` if that table can play this schedule.

        The table size itself is :func:`~jabberwocky.core.table.check_players`'s to decide
        (:class:`~jabberwocky.core.errors.SeedError`); then every round needs a stock to turn
        the trump card from, so at most 51 cards may be dealt (:class:`RulesetError`).
        """
        players = check_players(players)
        biggest = max(self.schedule)
        if players * biggest > 51:
            raise RulesetError("rules.no_stock", players=players, cards=biggest)
        return players

    def points(self, bid: int, taken: int) -> int:
        """Points for a round before any renege penalty."""
        if bid != taken:
            return 0
        return 1 if self.scoring == "exact-1" else 10 + bid

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used in game records."""
        out: dict[str, Any] = {"name": self.name, "version": RULES_VERSION,
                               "schedule": list(self.schedule)}
        for option in RULE_OPTIONS[1:]:
            out[option.field] = getattr(self, option.field)
        return out

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
            raise RulesetError("rules.not_object")
        known = {"name", "version", *OPTIONS}
        unknown = sorted(str(k) for k in set(data) - known)
        if unknown:
            raise RulesetError("rules.unknown_option", value=quote(unknown[0]))
        version = data.get("version", RULES_VERSION)
        if not is_whole(version) or version != RULES_VERSION:
            raise RulesetError("rules.version", value=quote(version), known=RULES_VERSION)
        schedule = data.get("schedule", list(JABBERWOCKY_SCHEDULE))
        if not isinstance(schedule, (list, tuple)):
            raise RulesetError("rules.schedule_not_list")
        if len(schedule) > MAX_ROUNDS:
            raise RulesetError("rules.schedule_long", max=MAX_ROUNDS)
        name = data.get("name", "custom")
        options = {o.field: data.get(o.field, getattr(JABBERWOCKY, o.field))
                   for o in RULE_OPTIONS[1:]}
        return cls(schedule=tuple(schedule), name=name, **options)

    def with_options(self, **changes: Any) -> Ruleset:
        """A copy with some options changed (named ``"custom"`` unless given a name)."""
        changes.setdefault("name", "custom")
        return replace(self, **changes)


def _check_name(name: object) -> str:
    """A ruleset's name is shown and written back: short text, held to a seed's rules
    (encodable, no control character)."""
    if not isinstance(name, str) or len(name) > MAX_NAME_LENGTH:
        raise RulesetError("rules.name", max=MAX_NAME_LENGTH)
    try:
        check_seed(name)
    except JabberwockyError:
        raise RulesetError("rules.name", max=MAX_NAME_LENGTH) from None
    return name


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
    if not isinstance(name, str) or name not in PRESETS:
        raise RulesetError("rules.unknown_preset", value=quote(name), choices=sorted(PRESETS))
    return PRESETS[name]


def options_info() -> dict[str, Any]:
    """Every rule option with its default and the values it takes (JSON-ready).

    The page builds its settings from this (and from :data:`PRESETS`) instead of holding
    a copy of the rules; the equivalence tests of the fast paths enumerate it, so an
    option added here cannot escape them.
    """
    out: dict[str, Any] = {}
    for option in RULE_OPTIONS:
        default = getattr(JABBERWOCKY, option.field)
        if option.kind == "schedule":
            entry: dict[str, Any] = {
                "kind": "schedule", "default": list(default), "min_hand": MIN_HAND,
                "max_hand": MAX_HAND, "max_rounds": MAX_ROUNDS,
                "named": {schedule_name(p.schedule): list(p.schedule) for p in PRESETS.values()}}
        else:
            entry = {"kind": option.kind, "default": default}
        out[option.field] = {**entry, **option.to_json()}
    return out


def schedule_name(schedule: tuple[int, ...] | list[int]) -> str:
    """A schedule's short name: ``"3-9-3"`` for one that climbs (or falls) by one card a
    round to a turning point and comes back by one; otherwise every hand size joined."""
    sizes = list(schedule)
    steps = [b - a for a, b in pairwise(sizes)]
    if steps and all(abs(d) == 1 for d in steps):
        turns = [i for i in range(1, len(steps)) if steps[i] != steps[i - 1]]
        if len(turns) == 1:
            return f"{sizes[0]}-{sizes[turns[0]]}-{sizes[-1]}"
    return "-".join(str(s) for s in sizes)


def rules_info() -> dict[str, Any]:
    """What the page needs to know about rules, from this one place: the rules version,
    the default preset, every preset in full, every option, the table sizes, the honour
    rule's penalty."""
    return {
        "version": RULES_VERSION,
        "default": JABBERWOCKY.name,
        "presets": {name: p.to_dict() for name, p in PRESETS.items()},
        "options": options_info(),
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "default": DEFAULT_PLAYERS},
        "renege_penalty": max(_RENEGE_PENALTIES),
    }
