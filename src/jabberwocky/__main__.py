"""``python -m jabberwocky``: see :mod:`jabberwocky.cli`."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":  # not when a tool such as pytest's doctest finder imports it
    sys.exit(main())
