"""The documented name of :mod:`jabberwocky.drivers.simulate` and of
:func:`~jabberwocky.drivers.tournament.simulate` (docs/bots.md and docs/tournaments.md
import them from here): a re-export, nothing of its own."""

from .drivers.simulate import *  # noqa: F403
from .drivers.tournament import simulate as simulate
