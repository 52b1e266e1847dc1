"""Bytes for links: base64url without padding, varints, and moves packed as one number.

The pieces of the challenge link format (:mod:`~jabberwocky.formats.challenge`), each small,
canonical (one value has one encoding, so a decoded link written again is the same
text) and linear in its input:

- **base64url** (RFC 4648 section 5) without ``=`` padding; text that is not exactly the
  encoding of some bytes (a stray character, a length no encoding has, unused bits set)
  is refused.
- **varints**: unsigned LEB128, seven bits a byte, low bits first, no redundant trailing
  zero byte, at most :data:`MAX_VARINT_BYTES` bytes.
- **moves as one number**: a move chosen among ``r`` allowed ones is a digit of radix
  ``r``; a game's digits make one mixed-radix number (the first move is the lowest
  digit).  A forced move (``r == 1``) costs nothing, a choice among 10 costs 3.3 bits.

>>> b64url_encode(b"\\xfb\\xff"), b64url_decode("-_8")
('-_8', b'\\xfb\\xff')
>>> w = Writer(); w.varint(300); bytes(w.data)
b'\\xac\\x02'
>>> number = pack_digits([(1, 3), (0, 1), (4, 5)]); number, unpack_digits(number, [3, 1, 5])
(13, ([1, 0, 4], 0))
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Sequence

MAX_VARINT_BYTES = 5
"""A varint holds at most 35 bits: every count and number of a link is far smaller."""

_B64URL = re.compile(r"[A-Za-z0-9_-]*")


class PackingError(ValueError):
    """Bytes that are not what the format allows: ``what`` says which part, as a short
    code word (``"base64"``, ``"truncated"``, ``"varint"``, ``"utf8"``)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def b64url_encode(data: bytes) -> str:
    """``data`` as base64url text without padding."""
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def b64url_decode(text: str) -> bytes:
    """The bytes ``text`` encodes; :class:`PackingError` ``"base64"`` unless ``text`` is
    exactly the unpadded base64url encoding of those bytes."""
    if not _B64URL.fullmatch(text) or len(text) % 4 == 1:
        raise PackingError("base64")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):  # pragma: no cover - the pattern rules these out
        raise PackingError("base64") from None
    if b64url_encode(data) != text:  # unused bits set in the last character
        raise PackingError("base64")
    return data


def b64url_decode_lenient(text: str) -> bytes:
    """As many whole bytes as the longest base64url prefix of ``text`` holds, unused bits
    ignored (for telling a link cut short from a damaged one, and for salvaging what a
    damaged link still says; never raises)."""
    match = _B64URL.match(text)
    prefix = match.group(0) if match else ""
    if len(prefix) % 4 == 1:  # one character short of a byte: no encoding ends so
        prefix = prefix[:-1]
    try:
        return base64.urlsafe_b64decode(prefix + "=" * (-len(prefix) % 4))
    except (binascii.Error, ValueError):  # pragma: no cover - a clean prefix decodes
        return b""


def is_b64url(text: str) -> bool:
    """True when ``text`` holds only base64url characters (no padding, no spaces)."""
    return _B64URL.fullmatch(text) is not None


class Writer:
    """Bytes written field by field."""

    def __init__(self) -> None:
        self.data = bytearray()

    def u8(self, value: int) -> None:
        """One byte, ``0..255``."""
        self.data.append(value)

    def varint(self, value: int) -> None:
        """An unsigned varint (``0 <= value < 2**35``)."""
        if not 0 <= value < 1 << (7 * MAX_VARINT_BYTES):
            raise ValueError(f"varint out of range: {value}")
        while value >= 0x80:
            self.data.append(value & 0x7F | 0x80)
            value >>= 7
        self.data.append(value)

    def signed(self, value: int) -> None:
        """A signed number as a zigzag varint (0, -1, 1, -2, … as 0, 1, 2, 3, …)."""
        self.varint(value * 2 if value >= 0 else -value * 2 - 1)

    def blob(self, data: bytes) -> None:
        """A varint length, then the bytes."""
        self.varint(len(data))
        self.data += data

    def text(self, value: str) -> None:
        """UTF-8 text with its length in bytes first."""
        self.blob(value.encode("utf-8"))

    def number(self, value: int) -> None:
        """A non-negative number of any size: its length in bytes, then big-endian bytes
        without a leading zero byte (zero is no byte at all)."""
        self.blob(value.to_bytes((value.bit_length() + 7) // 8, "big"))


class Reader:
    """Bytes read field by field; every read that would run past the end raises
    :class:`PackingError` ``"truncated"``."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    @property
    def left(self) -> int:
        """How many bytes are not read yet."""
        return len(self.data) - self.pos

    def take(self, count: int) -> bytes:
        """The next ``count`` bytes."""
        if count > self.left:
            raise PackingError("truncated")
        out = self.data[self.pos:self.pos + count]
        self.pos += count
        return out

    def u8(self) -> int:
        """One byte."""
        return self.take(1)[0]

    def varint(self) -> int:
        """An unsigned varint in its one canonical form."""
        value = 0
        for i in range(MAX_VARINT_BYTES):
            byte = self.u8()
            value |= (byte & 0x7F) << (7 * i)
            if not byte & 0x80:
                if byte == 0 and i > 0:  # a redundant zero byte: not the canonical form
                    raise PackingError("varint")
                return value
        raise PackingError("varint")

    def signed(self) -> int:
        """A zigzag varint."""
        z = self.varint()
        return z >> 1 if not z & 1 else -(z >> 1) - 1

    def blob(self, limit: int) -> bytes:
        """Bytes after their varint length, which must be at most ``limit``."""
        size = self.varint()
        if size > limit:
            raise PackingError("length")
        return self.take(size)

    def text(self, limit: int) -> str:
        """UTF-8 text of at most ``limit`` bytes (strict: no surrogates, no overlong forms)."""
        try:
            return self.blob(limit).decode("utf-8")
        except UnicodeDecodeError:
            raise PackingError("utf8") from None

    def number(self, limit: int) -> int:
        """A number written by :meth:`Writer.number`, of at most ``limit`` bytes."""
        data = self.blob(limit)
        if data[:1] == b"\0":
            raise PackingError("number")
        return int.from_bytes(data, "big")


def pack_digits(digits: Iterable[tuple[int, int]]) -> int:
    """One number for ``(digit, radix)`` pairs (``0 <= digit < radix``), the first pair
    the lowest digit."""
    pairs = list(digits)
    number = 0
    for digit, radix in reversed(pairs):
        if not 0 <= digit < radix:
            raise ValueError(f"digit {digit} out of radix {radix}")
        number = number * radix + digit
    return number


def unpack_digits(number: int, radices: Sequence[int]) -> tuple[list[int], int]:
    """The digits of ``number`` for ``radices`` (lowest first) and what is left over
    (0 for a number :func:`pack_digits` made from exactly these radices)."""
    out = []
    for radix in radices:
        number, digit = divmod(number, radix)
        out.append(digit)
    return out, number
