"""The documented name of :mod:`jabberwocky.drivers.tournament` (docs/tournaments.md import it from
here): a re-export, nothing of its own."""

from .drivers.tournament import *  # noqa: F403
