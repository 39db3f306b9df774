"""The engine's exceptions. All are :class:`ValueError` subclasses.

>>> issubclass(IllegalMoveError, ValueError)
True
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidRecordError",
    "PatienceError",
    "ReplayError",
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
    is ``"MOVE: REASON"``. ``refusal`` is the same reason as data, for words in the
    player's language (:func:`patiencekit.words.refusal_words`): a
    :class:`patiencekit.state.Refusal` when a rule of the position refuses the move, a
    :class:`patiencekit.game.GameRefusal` when the game does (won, no such pile, nothing
    to undo, ...), or None when the raiser gave none. It is typed ``Any`` because this
    module sits below both and may not import them.

    >>> e = IllegalMoveError("c1 c2", "5C cannot go on 9H")
    >>> str(e), e.move, e.reason, e.refusal
    ('c1 c2: 5C cannot go on 9H', 'c1 c2', '5C cannot go on 9H', None)
    """

    def __init__(self, move: str, reason: str, refusal: Any = None) -> None:
        super().__init__(f"{move}: {reason}")
        self.move = move
        self.reason = reason
        self.refusal = refusal

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.move, self.reason, self.refusal))


class UnknownGameError(PatienceError):
    """No game has this id."""


class InvalidRecordError(PatienceError):
    """A game record or position text is malformed."""


class ReplayError(IllegalMoveError):
    """A game record's move cannot be played (illegal here, or not in the notation).

    ``position`` is the move's place in the record (from 1), ``move`` its text,
    ``reason`` why, ``game`` the game as it was before that move, and ``refusal`` the
    reason as data (as :class:`IllegalMoveError` has it; None for a move that is not in the
    notation). It survives pickling with all five.

    >>> from patiencekit import Game
    >>> try:
    ...     Game.from_record({"game": "klondike", "number": 24, "moves": ["s", "c1 c2"]})
    ... except ReplayError as e:
    ...     print(e.position, e.move, len(e.game.moves))
    2 c1 c2 1
    """

    def __init__(
        self, position: int, move: str, reason: str, game: Any, refusal: Any = None
    ) -> None:
        super().__init__(move, reason, refusal)
        self.args = (f"move {position} of the record, {move!r}, cannot be played: {reason}",)
        self.position = position
        #: the game (a :class:`patiencekit.game.Game`) as it was before the move; typed
        #: ``Any`` because this module sits below the game and may not import it
        self.game = game

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.position, self.move, self.reason, self.game, self.refusal))
