"""The documented name of :mod:`jabberwocky.core.observation` (docs/bots.md import it from
here): a re-export, nothing of its own."""

from .core.observation import *  # noqa: F403
