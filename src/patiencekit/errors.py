"""The engine's exceptions. All are :class:`ValueError` subclasses.

>>> issubclass(IllegalMoveError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidRecordError",
    "PatienceError",
    "UnknownGameError",
]


class PatienceError(ValueError):
    """Base class of every error the engine raises about its input."""


class InvalidCardError(PatienceError):
    """A card's text cannot be read."""


class InvalidMoveError(PatienceError):
    """A move's text is not in the notation (a syntax error)."""


class IllegalMoveError(PatienceError):
    """A well-formed move that the rules do not allow in this position."""


class UnknownGameError(PatienceError):
    """No game has this id."""


class InvalidRecordError(PatienceError):
    """A game record or position text is malformed."""
