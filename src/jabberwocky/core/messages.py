"""The engine's words: a code and parameters for every refusal and error; English from a file.

The engine never builds a sentence for the page.  Every reason it gives (a move refused,
a record refused, a request refused) is a :class:`Message`: a catalogue code such as
``"move.must_follow"`` and parameters such as ``{"suit": "H"}``.  The page turns it into
the player's language from its own catalogues (``web/i18n/``); the command line, ``str()``
and the tests read the English catalogue, ``locale/en.json`` next to this module — the
same file the site build hands the page as its English engine words.

A catalogue maps a code to a template.  ``{name}`` is replaced by the parameter
``name``; a parameter is rendered by what its name says it is:

- ``card`` or ``*_card`` (a record name, ``"QH"``): the template ``card.words`` with
  ``rank`` and ``suit``; ``{card.short}`` picks ``card.short`` instead (any form works
  the same way, falling back to the plain key);
- ``suit`` / ``*_suit`` (``"CDHS"``), ``rank`` / ``*_rank`` (``"23456789TJQKA"``),
  ``phase`` / ``*_phase``: the catalogue's ``suit.H``, ``rank.Q``, ``phase.bidding``
  (``{suit.one}`` tries ``suit.H.one`` first);
- a nested :class:`Message` (``reason``, ``detail``, …): its own text;
- a list: its items joined (the page uses ``Intl.ListFormat``);
- anything else as it is (the page formats numbers with ``Intl.NumberFormat``).

A template may instead be an object ``{"plural": "<param>", "one": "…", "other": "…"}``:
the form is chosen by the plural category of that parameter (English: ``one`` for 1, else
``other``; the page uses ``Intl.PluralRules``, so Czech may add ``few`` and ``many``).

>>> str(Message("move.must_follow", suit="H"))
'you must follow hearts'
>>> Message("move.must_follow", suit="H").to_json()
{'code': 'move.must_follow', 'params': {'suit': 'H'}}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Union

Param = Union[str, int, float, bool, None, "Message", list[Any]]
"""What a parameter may be: JSON scalars, lists of them, or a nested message."""

MAX_QUOTE = 40
"""Longest piece of user input quoted back in a message (the rest becomes '…')."""

_CATALOGUE = ("jabberwocky", "locale/en.json")
"""The English catalogue, a data file of the package: read through the package's loader
(:func:`pkgutil.get_data`), so it is found in an installed wheel, in the source tree and in
a zip archive alike (the site's engine is imported from its standard library's first
archive, where there is no such file on disk)."""
_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)(?:\.([a-z][a-z0-9_]*))?\}")
_TYPED = ("card", "suit", "rank", "phase")

_english: dict[str, Any] | None = None


def english() -> dict[str, Any]:
    """The English catalogue (read once, on first use)."""
    global _english
    if _english is None:
        import pkgutil  # here: only a message needs the catalogue

        data = pkgutil.get_data(*_CATALOGUE)
        if data is None:  # a loader that cannot read data files: not one Python ships
            raise FileNotFoundError(f"{_CATALOGUE[0]}/{_CATALOGUE[1]}")
        _english = json.loads(data.decode("utf-8"))
    return _english


def quote(value: object, limit: int = MAX_QUOTE) -> str:
    """``value`` as a short quoted piece for a message: ``repr``, clipped to ``limit``.

    Error messages quote what was wrong, but never a whole hostile value: a 200,000
    character card name gives a message of a few dozen characters.
    """
    if isinstance(value, str):
        text = repr(value[: limit + 1])
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        text = f"a number of {value.bit_length()} bits"  # str() of a huge int is slow, or refused
    elif isinstance(value, (int, float)) or value is None:
        text = repr(value)
    elif isinstance(value, dict):
        text = "{…}"  # the shape, not the content (and no word to translate)
    elif isinstance(value, (list, tuple)):
        small = len(value) <= 12 and all(v is None or (isinstance(v, (int, float)) and
                                         not (isinstance(v, int) and v.bit_length() > 64))
                                         for v in value)
        text = repr(list(value)) if small else "[…]"
    else:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit + 2 else text[:limit] + "…"


def _kind(name: str) -> str | None:
    for kind in _TYPED:
        if name == kind or name.endswith("_" + kind):
            return kind
    return None


def _lookup(catalogue: Mapping[str, Any], key: str, form: str | None) -> Any:
    if form is not None and f"{key}.{form}" in catalogue:
        return catalogue[f"{key}.{form}"]
    return catalogue.get(key)


def render(code: str, params: Mapping[str, Any], catalogue: Mapping[str, Any] | None = None) -> str:
    """The English (or ``catalogue``'s) text of ``code`` with ``params``.

    An unknown code renders as the code and its parameters, so a gap in a catalogue
    shows up as something a maintainer can find, never as an exception.
    """
    cat = english() if catalogue is None else catalogue
    template = cat.get(code)
    if isinstance(template, dict):
        count = params.get(template.get("plural", ""), 0)
        template = template.get("one") if count == 1 else template.get("other")
    if not isinstance(template, str):
        return f"{code} {json.dumps(_plain(params), ensure_ascii=False, sort_keys=True)}"

    def fill(match: re.Match[str]) -> str:
        name, form = match.group(1), match.group(2)
        if name not in params:
            return match.group(0)
        return _render_param(name, form, params[name], cat)

    return _PLACEHOLDER.sub(fill, template)


def _render_param(name: str, form: str | None, value: Any, cat: Mapping[str, Any]) -> str:
    if isinstance(value, Message):
        return render(value.code, value.params, cat)
    if isinstance(value, list):
        return ", ".join(_render_param(name, form, v, cat) for v in value)
    kind = _kind(name)
    if kind == "card" and isinstance(value, str) and len(value) == 2:
        template = _lookup(cat, "card", form) if form else cat.get("card.words")
        if isinstance(template, str):
            return render("card.words" if form is None else f"card.{form}",
                          {"rank": value[0], "suit": value[1]}, cat)
    if kind in ("suit", "rank", "phase") and isinstance(value, str):
        word = _lookup(cat, f"{kind}.{value}", form)
        if isinstance(word, str):
            return word
    return str(value)


def _plain(params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _plain_value(v) for k, v in params.items()}


def _plain_value(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, list):
        return [_plain_value(v) for v in value]
    return value


class Message(str):
    """A sentence of the engine: its English text, its catalogue code and parameters.

    A ``str`` (the English text), so it prints, compares and serialises as before;
    ``code`` and ``params`` let the page say it in the player's language.
    """

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, /, **params: Any) -> Message:
        self = super().__new__(cls, render(code, params))
        self.code = code
        self.params = params
        return self

    def to_json(self) -> dict[str, Any]:
        """``{"code": …, "params": {…}}`` with nested messages as objects too."""
        return {"code": self.code, "params": _plain(self.params)}

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.code, self.params))


def _rebuild(code: str, params: dict[str, Any]) -> Message:
    return Message(code, **params)
