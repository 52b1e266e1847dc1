"""Seeds a person can read out: three short words and a number, like ``"brave-otter-lamp-42"``;
and seeds nobody can guess, for a table whose hands are hidden from some of its players.

Only *new* seeds are drawn here (from the operating system's entropy); replaying a
seed never touches this module.
"""

from __future__ import annotations

import os

_WORDS = (
    "amber", "apple", "arrow", "aspen", "badger", "bamboo", "basil", "beacon", "birch",
    "bison", "blaze", "bloom", "bold", "brave", "breeze", "brook", "cabin", "cactus",
    "calm", "candle", "canyon", "cedar", "cherry", "cider", "clever", "clover", "cobalt",
    "comet", "coral", "cosmic", "cozy", "crane", "crisp", "daisy", "dawn", "delta", "dune",
    "eagle", "ember", "fable", "falcon", "fern", "fiddle", "flint", "frost", "gale",
    "garnet", "gentle", "glade", "glow", "golden", "granite", "grove", "harbor", "hazel",
    "heron", "honey", "husky", "indigo", "iris", "ivory", "jade", "jasper", "jolly",
    "juniper", "kettle", "kite", "lagoon", "lantern", "lark", "lemon", "lilac", "linen",
    "lively", "lotus", "lucky", "lunar", "maple", "marble", "meadow", "mellow", "mint",
    "misty", "moss", "nectar", "nimble", "noble", "north", "oak", "ocean", "olive", "onyx",
    "opal", "orchid", "otter", "pebble", "pepper", "pine", "plum", "polar", "poppy",
    "prairie", "quartz", "quiet", "quill", "raven", "reef", "river", "robin", "ruby",
    "rustic", "saffron", "sage", "sailor", "satin", "scarlet", "shadow", "silver", "sky",
    "slate", "snowy", "sparrow", "spruce", "starry", "stone", "storm", "sunny", "swift",
    "thistle", "thunder", "tidal", "timber", "topaz", "tulip", "tundra", "velvet", "violet",
    "walnut", "wander", "willow", "windy", "winter", "wren", "zephyr",
)


def _below(n: int) -> int:
    """A uniform-enough random int in ``0..n-1`` from the OS (bias at most n / 2**64).

    ``os.urandom`` rather than :mod:`secrets`: ``os`` is loaded already, while importing
    ``secrets`` costs the browser's first table several milliseconds.
    """
    return int.from_bytes(os.urandom(8), "big") % n


def new_seed() -> str:
    """A fresh, readable seed."""
    words = [_WORDS[_below(len(_WORDS))] for _ in range(3)]
    return "-".join(words) + f"-{_below(100)}"


def secret_seed() -> str:
    """A fresh seed of 128 random bits, for an online table: a readable seed has only
    about 28 (150 words cubed, times 100), so a guest who knows its own first hands could
    try every one until the deals match theirs, and then know every other hand."""
    return "online-" + os.urandom(16).hex()
