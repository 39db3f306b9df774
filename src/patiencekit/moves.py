"""The engine's moves and why one is refused: :data:`EngineMove`, :data:`DRAW`, :data:`TURN`,
:class:`Why` and :class:`Refusal`.

Plain data below the position (:mod:`patiencekit.state`), which re-exports all of it: the
pure-Python position (:mod:`patiencekit.state_pure`) and its compiled copy
(``patiencekit.state_fast``) both use these very objects, so a refusal, its code and the two
stock moves are the same whichever position made them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

__all__ = ["DRAW", "TURN", "EngineMove", "Refusal", "Why"]

#: An engine move: (source pile, destination pile, number of cards), piles by position in
#: :attr:`patiencekit.state.Tables.labels`; :data:`DRAW` and :data:`TURN` for ``s`` and ``t``.
#: (The notation's move, with pile labels, is :class:`patiencekit.notation.Move`.)
EngineMove = tuple[int, int, int]

#: ``s``: turn cards from the stock onto the waste.
DRAW: Final[EngineMove] = (-1, -1, 0)
#: ``t``: turn the waste over to form the stock (or deal the next packet).
TURN: Final[EngineMove] = (-2, -2, 0)


class Why(StrEnum):
    """The rule a refused move breaks: the code of a :class:`Refusal`.

    Each is said in words by :meth:`patiencekit.game.Game.reason`, and as a player's sentence
    in English, Dutch or Spanish by :func:`patiencekit.words.refusal_words`; the comment says
    what ``Refusal.params`` holds when it holds anything.
    """

    SAME_PILE = "same-pile"
    SOURCE_EMPTY = "source-empty"
    STOCK_CARDS_ARE_DRAWN = "stock-cards-are-drawn"
    INDEX_CARDS_STAY = "index-cards-stay"
    FOUNDATION_KEEPS_ALL = "foundation-keeps-all"
    BASE_CARD_STAYS = "base-card-stays"
    KING_STAYS = "king-stays"
    FOUNDATION_TO_FOUNDATIONS_ONLY = "foundation-to-foundations-only"
    FOUNDATION_TO_COLUMNS_ONLY = "foundation-to-columns-only"
    PACKET_TO_FOUNDATIONS_ONLY = "packet-to-foundations-only"
    RESERVE_TO_FOUNDATIONS_ONLY = "reserve-to-foundations-only"
    ONE_CARD_FROM_PILE = "one-card-from-pile"
    TOO_FEW_FACE_UP = "too-few-face-up"  #: (face-up cards,)
    NOT_A_STRING = "not-a-string"
    FACE_DOWN = "face-down"
    COLUMN_TO_FOUNDATIONS_ONLY = "column-to-foundations-only"
    HAND_NOT_TO_COLUMNS = "hand-not-to-columns"
    NOT_BUILT_ON = "not-built-on"
    EMPTY_COLUMN_TAKES_NOTHING = "empty-column-takes-nothing"
    EMPTY_COLUMN_WANTS = "empty-column-wants"
    NOTHING_GOES_ON_CARD = "nothing-goes-on-card"
    DOES_NOT_FIT = "does-not-fit"
    ONE_CARD_TO_FOUNDATION = "one-card-to-foundation"
    FOUNDATION_COMPLETE = "foundation-complete"
    FOUNDATION_DOES_NOT_START = "foundation-does-not-start"
    FOUNDATION_DOES_NOT_TAKE = "foundation-does-not-take"
    HAND_FROM_COLUMNS_ONLY = "hand-from-columns-only"
    ONE_CARD_TO_HAND = "one-card-to-hand"
    HAND_FULL = "hand-full"
    HAND_CELL_TAKEN = "hand-cell-taken"
    RESERVE_TAKEN = "reserve-taken"
    RESERVE_FROM_WASTE_ONLY = "reserve-from-waste-only"
    NOTHING_GOES_ON_PILE = "nothing-goes-on-pile"
    # s and t
    NO_STOCK = "no-stock"
    STOCK_EMPTY = "stock-empty"
    STOCK_AND_WASTE_EMPTY = "stock-and-waste-empty"
    NO_REDEAL_FOR_STOCK = "no-redeal-for-stock"
    ALL_PACKETS_DEALT = "all-packets-dealt"
    PACKET_CARD_PLAYS = "packet-card-plays"  #: the first such move (source, destination, count)
    STOCK_NOT_EMPTY = "stock-not-empty"
    WASTE_EMPTY = "waste-empty"
    NO_REDEAL_LEFT = "no-redeal-left"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why ``move`` is not legal in a position (:meth:`State.check`): the rule it breaks and
    any numbers the rule's words need. :meth:`patiencekit.game.Game.reason` turns it into
    words and :func:`patiencekit.words.refusal_words` into a player's sentence, both naming
    only cards the player can see.

    >>> Refusal(Why.SAME_PILE, (3, 3, 1))
    Refusal(code=<Why.SAME_PILE: 'same-pile'>, move=(3, 3, 1), params=())
    """

    code: Why
    move: EngineMove
    params: tuple[int, ...] = ()
