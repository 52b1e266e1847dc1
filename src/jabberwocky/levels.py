"""The names of the seat kinds, shared by the CLI, the web settings and game records."""

from __future__ import annotations

HUMAN = "human"
BOT_LEVELS = ("random", "easy", "medium", "hard")
"""Bot levels from weakest to strongest."""
SEAT_KINDS = (HUMAN, *BOT_LEVELS)
