"""PatienceKit: patience (solitaire) games, exactly as ruled, from Python.

>>> import patiencekit
>>> game = patiencekit.new_game("klondike", 24)
>>> game.play("s")
Move.parse('s')
>>> len(game.moves), game.score
(1, 0)
>>> sorted(patiencekit.GAMES)[:3]
['captured-queens', 'contradance', 'klondike']
"""

from __future__ import annotations

import random as _random

from patiencekit.cards import Card, Rank, Suit
from patiencekit.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidRecordError,
    PatienceError,
    ReplayError,
    UnknownGameError,
)
from patiencekit.game import Clock, Game, LegalMoves, PileView, View
from patiencekit.game import new_game as _new_game
from patiencekit.games import GAMES, get_rules
from patiencekit.games.winnable_numbers import WINNABLE
from patiencekit.notation import Move, Record, format_record, parse_record
from patiencekit.rules import GameRules, PileKind

__all__ = [
    "GAMES",
    "Card",
    "Game",
    "GameRules",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidRecordError",
    "LegalMoves",
    "Move",
    "PatienceError",
    "PileKind",
    "PileView",
    "Rank",
    "Record",
    "ReplayError",
    "Suit",
    "UnknownGameError",
    "View",
    "format_record",
    "get_rules",
    "new_game",
    "parse_record",
    "winnable_number",
]

__version__ = "0.1.0"


def new_game(
    game_id: str,
    number: int | None = None,
    *,
    clock: Clock | None = None,
    undo: bool = True,
    elapsed: float = 0.0,
    winnable: bool = False,
) -> Game:
    """Start game ``number`` of ``game_id`` (see :func:`patiencekit.game.new_game`).

    ``winnable=True`` (with no number) deals a game the solver has proved winnable: one of
    the shipped proved numbers (:mod:`patiencekit.games.winnable_numbers`), see
    :func:`winnable_number`.

    >>> g = new_game("klondike-draw1", winnable=True)
    >>> from patiencekit.games.winnable_numbers import WINNABLE
    >>> g.number in WINNABLE["klondike-draw1"]
    True
    """
    if winnable and number is None:
        number = winnable_number(game_id)
    return _new_game(game_id, number, clock=clock, undo=undo, elapsed=elapsed)


def winnable_number(game_id: str) -> int:
    """A shipped game number proved winnable (:mod:`patiencekit.games.winnable_numbers`), at
    random. A game with none shipped raises :class:`PatienceError`: the engine never solves;
    :func:`patiencekit.solver.winnable_number` proves one on the spot.

    >>> winnable_number("patriarchs") in WINNABLE["patriarchs"]
    True
    """
    rules = get_rules(game_id)
    proved = WINNABLE.get(rules.id, ())
    if not proved:
        raise PatienceError(
            f"No winnable number of {rules.id!r} is shipped; "
            f"patiencekit.solver.winnable_number({rules.id!r}) finds one with the solver."
        )
    return _random.choice(proved)
