"""The documented name of :mod:`jabberwocky.core.errors` (docs/bots.md import it from
here): a re-export, nothing of its own."""

from .core.errors import *  # noqa: F403
