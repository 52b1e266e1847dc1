"""JSON text from untrusted places (records, the page's requests), read in linear time.

Everything here runs before or instead of trusting the text: its size, its nesting
depth, its encoding and what plain ``json.loads`` would let through that JSON does not
have.  Each check is linear in the length of the text, so a 1 MB message costs about
what parsing 1 MB costs, whatever its shape (``tests/test_hostile.py`` times hostile
shapes against ``json.loads`` of a valid document of the same size).

- Depth first: ``json.loads``'s C parser recurses once per level, and under Pyodide a few
  thousand levels overflow the WebAssembly stack and kill the interpreter (no
  ``RecursionError`` is raised there), so deep text never reaches the parser.
- ``NaN`` and ``Infinity`` are refused (``json.loads`` takes them; JSON has no such
  numbers, and the page's ``JSON.parse`` would refuse what we echo back).
- A number of more digits than Python converts is refused with its own message.

>>> json_too_deep("[" * 65 + "]" * 65), json_too_deep('["[[[[[[["]')
(True, False)
"""

from __future__ import annotations

import json
import re
import sys
from itertools import accumulate
from typing import Any

from ..core.errors import JabberwockyError

MAX_JSON_DEPTH = 64
"""Deepest nesting of JSON lists and objects read (a game record needs 5 levels)."""

# One string from its opening quote to its closing one, or to the end of the text when it
# has none.  The closing quote being optional is what keeps this linear: an unterminated
# string is consumed once, instead of being retried from every quote inside it (the
# pattern '"(?:[^"\\]|\\.)*"' is quadratic there).  Each character can be matched one way
# only, so there is no backtracking either.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_ONE_KIND = str.maketrans("{}", "[]")
_STEP = {"[": 1, "]": -1}


def json_too_deep(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when ``text`` may nest JSON lists or objects more than ``limit`` levels deep.

    Brackets inside strings do not count.  For text that is not valid JSON the answer
    may be True where a parser would have stopped sooner: it never says False where a
    parser would go deeper.  Linear time, and every step runs in C.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).translate(_ONE_KIND)
    if "[" * (limit + 1) in brackets:
        return True
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit


class _Constant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in the text."""


def _refuse_constant(name: str) -> Any:
    raise _Constant(name)


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def read_json(text: str | bytes, *, error: type[JabberwockyError], prefix: str,
              max_size: int) -> Any:
    """The JSON value of ``text``, or ``error`` with a code under ``prefix``.

    Codes (``prefix`` is ``"record"`` or ``"request"``): ``.too_large`` (more than
    ``max_size`` characters, or bytes), ``.not_utf8`` (bytes that are not UTF-8, or a
    NUL character, which JSON text never holds: UTF-16 or binary data read as UTF-8),
    ``.too_deep``, ``.not_json`` (with line and column), ``.json_constant`` (``NaN``,
    ``Infinity``), ``.number_too_long``.  A leading byte order mark is ignored.
    """
    if len(text) > max_size:
        raise error(f"{prefix}.too_large", max=max_size)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise error(f"{prefix}.not_utf8") from None
    text = text.removeprefix("\ufeff")
    if "\x00" in text:  # never in JSON text: UTF-16 or UTF-32 read as UTF-8, or binary
        raise error(f"{prefix}.not_utf8")
    if json_too_deep(text):
        raise error(f"{prefix}.too_deep", max=MAX_JSON_DEPTH)
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise error(f"{prefix}.not_json", line=exc.lineno, column=exc.colno) from None
    except _Constant as exc:
        raise error(f"{prefix}.json_constant", value=str(exc)) from None
    except ValueError:  # int(): more digits than sys.get_int_max_str_digits() allows
        raise error(f"{prefix}.number_too_long", max=sys.get_int_max_str_digits()) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise error(f"{prefix}.too_deep", max=MAX_JSON_DEPTH) from None
