"""The documented name of :mod:`jabberwocky.adapters.openspiel` (docs/openspiel.md and
the README import it from here): a re-export, nothing of its own."""

from .adapters.openspiel import *  # noqa: F403
