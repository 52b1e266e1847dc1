"""``python -m jabberwocky``: see :mod:`jabberwocky.drivers.cli`."""

from __future__ import annotations

import sys

from .drivers.cli import main

if __name__ == "__main__":  # not when a tool such as pytest's doctest finder imports it
    sys.exit(main())
