"""The arena's errors, below every other arena module (``match``,
``gamerow``, ``options``, ``folder``, ... all raise them)."""

from __future__ import annotations


class ArenaError(ValueError):
    """A game could not be played (an agent failed, a bad configuration, ...)."""


class RowError(ArenaError):
    """A games.jsonl row is malformed (the message says which field and why)."""


__all__ = ["ArenaError", "RowError"]
