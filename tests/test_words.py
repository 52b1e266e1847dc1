"""Fresh seeds: readable, well formed and not repeating."""

from __future__ import annotations

import re

from jabberwocky.core import words
from jabberwocky.core.game import Game


def test_new_seed_is_three_known_words_and_a_number() -> None:
    known = set(words._WORDS)
    for _ in range(200):
        seed = words.new_seed()
        match = re.fullmatch(r"([a-z]+)-([a-z]+)-([a-z]+)-(\d{1,2})", seed)
        assert match, seed
        assert set(match.groups()[:3]) <= known
        Game(seed)  # a valid seed for the engine


def test_new_seeds_differ_and_cover_the_word_list() -> None:
    seeds = [words.new_seed() for _ in range(300)]
    assert len(set(seeds)) == len(seeds)
    used = {w for s in seeds for w in s.split("-")[:3]}
    assert len(used) > len(words._WORDS) // 2


def test_below_stays_in_range() -> None:
    assert {words._below(3) for _ in range(300)} == {0, 1, 2}
