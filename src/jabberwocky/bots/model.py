"""A small learned model of trick-taking: the chance that a card takes a trick.

Two networks, after campbellsoup37's OhHell bot (see docs/bots.md), each one hidden
layer of ReLU units and one sigmoid output, over one-hot inputs (:func:`later_shared`
with :func:`later_own`, :func:`now_inputs`):

- ``later``: the chance that a card in hand takes a trick before the round ends;
- ``now``: the chance that a card played now takes the trick in progress.

The inputs are what the seat sees: the table size, the cards it holds, every seat's
remaining need, the unseen cards of the trump suit and of the card's suit, how many
unseen cards would beat it, the known voids.  Every input is one-hot, so a forward
pass adds one column of the first layer per active group (:meth:`Net.hidden`) and the
groups shared by every card of a decision are added once (:meth:`Net.partial`).

The forward pass is pure Python and bit-for-bit the same wherever IEEE doubles are:
additions, products and one division only, with :func:`sigmoid` written out rather
than ``math.exp`` (whose last bit may differ between the C libraries of CPython and of
Pyodide), so a choice never depends on where the bot runs.

The weights ship as ``models/<name>.json`` inside the package with their SHA-256
digest written here (:data:`MODEL_DIGEST`); :func:`load_model` refuses a file that
does not match, so the bots version (which names the behaviour) cannot drift from the
weights it was measured with.  ``bench/train_bots.py`` makes them.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..core.cards import SUIT_MASKS, Card, Mask
from ..core.errors import JabberwockyError

MODEL_NAME = "learned-1"
"""The shipped weights: ``models/learned-1.json``."""
MODEL_DIGEST = "14165eb0d1a9bf3ee047f414a2dc38128c2bfcf02c396fe437ad7e8906452d2b"
"""SHA-256 of the shipped weights file (checked at load)."""

FEATURES_VERSION = 1
"""The layout of the inputs below; a weights file names the layout it was trained on."""

MAX_HAND = 9
NEED_CATS = 13
"""A seat's need as one of 13: absent seat, not bid yet, over its bid, need 0..9."""


def need_cat(seat_present: bool, need: int | None) -> int:
    """The category of a seat's remaining need (bid minus tricks taken)."""
    if not seat_present:
        return 0
    if need is None:
        return 1
    if need < 0:
        return 2
    return 3 + min(need, MAX_HAND)


def _layout(groups: Sequence[tuple[str, int]]) -> tuple[dict[str, int], int]:
    offsets: dict[str, int] = {}
    at = 0
    for name, size in groups:
        offsets[name] = at
        at += size
    return offsets, at


LATER_GROUPS = (("players", 3), ("hand", MAX_HAND + 1),
                *((f"need{r}", NEED_CATS) for r in range(5)),
                ("voids", 4), ("trump_unseen", 13), ("is_trump", 2), ("suit_unseen", 13),
                ("higher", 13), ("length", MAX_HAND))
LATER_AT, LATER_SIZE = _layout(LATER_GROUPS)
NOW_GROUPS = (("players", 3), ("pos", 5), *((f"after{r}", NEED_CATS) for r in range(1, 5)),
              ("trump_unseen", 13), ("lead_trump", 2), ("led_unseen", 13), ("is_trump", 2),
              ("higher", 13), ("void_led", 5), ("void_trump", 5), ("hand", MAX_HAND + 1))
NOW_AT, NOW_SIZE = _layout(NOW_GROUPS)


def _clip(x: int, top: int) -> int:
    return 0 if x < 0 else top if x > top else x


def later_shared(players: int, hand_size: int, needs: Sequence[int | None], voids: int,
                 trump_unseen: int) -> list[int]:
    """The active inputs of the ``later`` network that every card of a decision shares.

    ``needs`` are the seats' needs from this seat round the table (this seat first);
    ``hand_size`` the cards this seat will hold (after the card it plays, if any);
    ``voids`` the suits it will lack."""
    a = LATER_AT
    out = [a["players"] + players - 3, a["hand"] + _clip(hand_size, MAX_HAND)]
    for r in range(5):
        out.append(a[f"need{r}"] + need_cat(r < players, needs[r] if r < players else None))
    out.append(a["voids"] + _clip(voids, 3))
    out.append(a["trump_unseen"] + _clip(trump_unseen, 12))
    return out


def later_own(card: Card, trump: int, hand: Mask, unseen: Mask) -> list[int]:
    """The active inputs of the ``later`` network that belong to ``card`` (in ``hand``)."""
    a = LATER_AT
    s = card // 13
    suit = SUIT_MASKS[s]
    higher = suit & ~((2 << card) - 1) & unseen
    return [a["is_trump"] + (s == trump), a["suit_unseen"] + _clip((suit & unseen).bit_count(), 12),
            a["higher"] + _clip(higher.bit_count(), 12),
            a["length"] + _clip((suit & hand).bit_count() - 1, MAX_HAND - 1)]


def now_inputs(players: int, pos: int, after_needs: Sequence[int | None], trump_unseen: int,
               lead_trump: bool, led_unseen: int, is_trump: bool, beaters: int,
               void_led: int, void_trump: int, hand_size: int) -> list[int]:
    """The active inputs of the ``now`` network for a card that beats the trick so far
    (or leads it): ``after_needs`` are the needs of the seats still to play after this
    one, in order; ``beaters`` the unseen cards that would beat it."""
    a = NOW_AT
    out = [a["players"] + players - 3, a["pos"] + _clip(pos, 4)]
    for r in range(1, 5):
        present = r <= len(after_needs)
        out.append(a[f"after{r}"] + need_cat(present, after_needs[r - 1] if present else None))
    out += [a["trump_unseen"] + _clip(trump_unseen, 12), a["lead_trump"] + lead_trump,
            a["led_unseen"] + _clip(led_unseen, 12), a["is_trump"] + is_trump,
            a["higher"] + _clip(beaters, 12), a["void_led"] + _clip(void_led, 4),
            a["void_trump"] + _clip(void_trump, 4), a["hand"] + _clip(hand_size, MAX_HAND)]
    return out


LN2 = 0.6931471805599453


def sigmoid(x: float) -> float:
    """``1 / (1 + e**-x)`` from IEEE arithmetic alone (the same bits in every runtime):
    ``e**-x`` as ``2**k * e**r`` with ``|r| <= ln 2 / 2`` and a Taylor series for
    ``e**r`` (relative error below 1e-16)."""
    if x > 40.0:  # 1 + e**-40 is 1 in doubles
        return 1.0
    if x < -700.0:  # e**700 is near the largest double
        return 0.0
    y = -x
    k = round(y / LN2)
    r = y - k * LN2
    term = 1.0
    total = 1.0
    for i in range(1, 16):
        term = term * r / i
        total += term
    return 1.0 / (1.0 + math.ldexp(total, k))


@dataclass
class Net:
    """One hidden layer of ReLU units over one-hot inputs, one sigmoid output.

    ``w1[i]`` is input ``i``'s column (one weight per hidden unit), so a forward pass
    sums the columns of the active inputs; ``w2`` the output weights."""

    inputs: int
    w1: list[list[float]]
    b1: list[float]
    w2: list[float]
    b2: float

    @property
    def units(self) -> int:
        return len(self.b1)

    def partial(self, active: Sequence[int], base: Sequence[float] | None = None) -> list[float]:
        """The hidden layer's sums before the ReLU for ``active`` inputs (added to
        ``base``, or to the biases)."""
        h = list(self.b1 if base is None else base)
        w1 = self.w1
        for i in active:
            col = w1[i]
            for j in range(len(h)):
                h[j] += col[j]
        return h

    def output(self, sums: Sequence[float]) -> float:
        """The output's logit from the hidden sums."""
        z = self.b2
        for s, w in zip(sums, self.w2, strict=True):
            if s > 0.0:
                z += s * w
        return z

    def prob(self, active: Sequence[int], base: Sequence[float] | None = None) -> float:
        return sigmoid(self.output(self.partial(active, base)))

    def to_json(self) -> dict[str, Any]:
        return {"inputs": self.inputs, "w1": self.w1, "b1": self.b1, "w2": self.w2,
                "b2": self.b2}

    @classmethod
    def from_json(cls, data: dict[str, Any], inputs: int) -> Net:
        net = cls(int(data["inputs"]), [[float(x) for x in col] for col in data["w1"]],
                  [float(x) for x in data["b1"]], [float(x) for x in data["w2"]],
                  float(data["b2"]))
        units = len(net.b1)
        if (net.inputs != inputs or len(net.w1) != inputs or len(net.w2) != units
                or any(len(col) != units for col in net.w1)):
            raise ValueError("the network's shape does not match its inputs")
        return net


@dataclass
class Model:
    """The two networks and what they were trained on."""

    later: Net
    now: Net
    meta: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"format": "jabberwocky-model/1", "features": FEATURES_VERSION,
                "meta": self.meta, "later": self.later.to_json(), "now": self.now.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Model:
        if data.get("format") != "jabberwocky-model/1" or data.get("features") != FEATURES_VERSION:
            raise ValueError("not a jabberwocky-model/1 file of this feature layout")
        return cls(Net.from_json(data["later"], LATER_SIZE), Net.from_json(data["now"], NOW_SIZE),
                   dict(data.get("meta", {})))


def dumps(model: Model) -> str:
    """The weights file's text (weights rounded to 6 decimals: small, and exact to
    parse the same everywhere)."""
    def r(x: float) -> float:
        return round(x, 6)

    data = model.to_json()
    for key in ("later", "now"):
        net = data[key]
        net["w1"] = [[r(x) for x in col] for col in net["w1"]]
        net["b1"] = [r(x) for x in net["b1"]]
        net["w2"] = [r(x) for x in net["w2"]]
        net["b2"] = r(net["b2"])
    return json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n"


def loads(text: str) -> Model:
    return Model.from_json(json.loads(text))


_cache: dict[tuple[str, str], Model] = {}


def load_model(name: str = MODEL_NAME, digest: str | None = None) -> Model:
    """The shipped model ``name``, read once per process; raises
    :class:`JabberwockyError` (``bot.model_digest``) when the file is not the one
    :data:`MODEL_DIGEST` names."""
    want = MODEL_DIGEST if digest is None else digest
    if (name, want) in _cache:
        return _cache[name, want]
    data = resources.files(__package__).joinpath("models", f"{name}.json").read_bytes()
    got = hashlib.sha256(data).hexdigest()
    if got != want:
        raise JabberwockyError("bot.model_digest", name=name, expected=want, actual=got)
    model = _cache[name, want] = loads(data.decode("utf-8"))
    return model
