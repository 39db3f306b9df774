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
    """A well-formed move that the rules do not allow in this position.

    ``move`` is the move's text and ``reason`` why it is refused; the message
    is ``"MOVE: REASON"``.

    >>> e = IllegalMoveError("c1 c2", "5C cannot go on 9H")
    >>> str(e), e.move, e.reason
    ('c1 c2: 5C cannot go on 9H', 'c1 c2', '5C cannot go on 9H')
    """

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"{move}: {reason}")
        self.move = move
        self.reason = reason

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[str, str]]:
        return (type(self), (self.move, self.reason))


class UnknownGameError(PatienceError):
    """No game has this id."""


class InvalidRecordError(PatienceError):
    """A game record or position text is malformed."""
