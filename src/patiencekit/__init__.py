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

from patiencekit.cards import Card, Rank, Suit
from patiencekit.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidRecordError,
    PatienceError,
    UnknownGameError,
)
from patiencekit.game import Game, LegalMoves, PileView, View, new_game
from patiencekit.games import GAMES, get_rules
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
    "Suit",
    "UnknownGameError",
    "View",
    "format_record",
    "get_rules",
    "new_game",
    "parse_record",
]

__version__ = "0.1.0"
