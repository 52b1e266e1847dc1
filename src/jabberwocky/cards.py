"""The documented name of :mod:`jabberwocky.core.cards` (docs/bots.md import it from
here): a re-export, nothing of its own."""

from .core.cards import *  # noqa: F403
