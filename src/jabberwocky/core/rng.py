"""Deterministic random streams for bots: SplitMix64, seeded from the game seed.

Bots must replay exactly from a shared seed, so their randomness may depend on the
seed, the seat and the decision only: never on the clock, on ``hash()`` of a string
(salted per process) or on the ``random`` module's internals.  SplitMix64 is tiny,
fast in pure Python and fully specified, so CPython and Pyodide agree bit for bit.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from .deal import seed_bytes

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def seed_key(seed: str, purpose: str = "bots") -> int:
    """A 64-bit key for ``seed`` and ``purpose`` (SHA-256 based, stable everywhere)."""
    digest = hashlib.sha256(b"jabberwocky-rng/1\x00" + purpose.encode() + b"\x00"
                            + seed_bytes(seed)).digest()
    return int.from_bytes(digest[:8], "big")


@lru_cache(maxsize=256)
def round_stream(key: int, round_index: int) -> bytes:
    """128 random bytes for the cheap decisions of one round (the ``random`` bot's).

    Two bytes per action of the round, addressed by the action's step number, so the
    value of a decision depends on the seed, the round and the step alone.  Computed
    once per round (two SHA-512 blocks) and shared, which keeps random play cheap.
    """
    base = b"jabberwocky-round/1\x00" + key.to_bytes(8, "big") + round_index.to_bytes(2, "big")
    return hashlib.sha512(base + b"\x00").digest() + hashlib.sha512(base + b"\x01").digest()


def step_fraction16(key: int, round_index: int, step: int) -> int:
    """The 16-bit random value of one action of a round, from :func:`round_stream`."""
    stream = round_stream(key, round_index)
    return stream[2 * step] << 8 | stream[2 * step + 1]


class Rng:
    """A SplitMix64 stream.  ``Rng.for_decision`` derives one per bot decision."""

    __slots__ = ("_state",)

    def __init__(self, state: int) -> None:
        self._state = state & _M64

    @classmethod
    def for_decision(cls, key: int, seat: int, round_index: int, step: int) -> Rng:
        """The stream of one decision: seat ``seat``, round ``round_index``, ``step``-th
        action of the round (bids and cards counted together)."""
        return cls(_mix(key ^ ((seat << 40) | (round_index << 20) | step)))

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = s = (self._state + _GOLDEN) & _M64
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (``n`` well below 2**32: bias under 1e-9)."""
        return ((self.next64() >> 32) * n) >> 32

    def random(self) -> float:
        """A uniform float in ``[0, 1)``."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def pick_bit(self, mask: int) -> int:
        """A uniformly chosen set bit of a non-empty ``mask``, as a bit index."""
        k = self.below(mask.bit_count())
        while k:
            mask &= mask - 1
            k -= 1
        return (mask & -mask).bit_length() - 1

    def shuffle(self, items: list[int]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
