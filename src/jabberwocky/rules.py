"""The documented name of :mod:`jabberwocky.core.rules` (docs/tournaments.md import it from
here): a re-export, nothing of its own."""

from .core.rules import *  # noqa: F403
