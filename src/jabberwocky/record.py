"""The documented name of :mod:`jabberwocky.formats.record` (docs/tournaments.md import it from
here): a re-export, nothing of its own."""

from .formats.record import *  # noqa: F403
