"""Ranks, suits, colours and cards, and their text.

A card's text is its rank then its suit: ``QH``, ``10H`` or ``TH``, ``Q♥``.
The canonical output uses ``T`` for ten and a suit letter (``TH``), the
notation PySolFC and most solvers print.

>>> Card.parse("q♥")
Card.parse('QH')
>>> str(Card.parse("10h"))
'TH'
>>> Card.parse("AS").colour
'black'

Inside the engine a card is a small integer, ``suit * 13 + rank`` (suits in
PySolFC's order clubs, spades, hearts, diamonds; ranks 0..12 for ace..king):
two-deck games hold two equal copies of each value.

>>> Card.parse("AC").index, Card.parse("KD").index
(0, 51)
>>> Card.from_index(13)
Card.parse('AS')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from patiencekit.errors import InvalidCardError

__all__ = [
    "CARD_COUNT",
    "RANK_NAMES",
    "SUIT_NAMES",
    "Card",
    "Rank",
    "Suit",
    "card_colour",
    "card_rank",
    "card_suit",
    "card_text",
    "parse_card_index",
]

CARD_COUNT = 52

#: Ranks in words, ace first.
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
#: Suits in words, in suit order.
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")


class Suit(IntEnum):
    """The four suits, in PySolFC's order (also the layout order of foundations).

    >>> Suit.HEARTS.letter, Suit.HEARTS.symbol, Suit.HEARTS.is_red
    ('H', '♥', True)
    """

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        """The suit's letter: C, S, H or D."""
        return "CSHD"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♠ ♥ ♦."""
        return "♣♠♥♦"[self]

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self >= 2


class Rank(IntEnum):
    """Ranks, ace low: ``Rank.ACE == 0`` ... ``Rank.KING == 12``.

    >>> Rank.QUEEN.letter, Rank.TEN.letter, Rank.TEN.value_
    ('Q', 'T', 10)
    """

    ACE = 0
    TWO = 1
    THREE = 2
    FOUR = 3
    FIVE = 4
    SIX = 5
    SEVEN = 6
    EIGHT = 7
    NINE = 8
    TEN = 9
    JACK = 10
    QUEEN = 11
    KING = 12

    @property
    def letter(self) -> str:
        """The rank's letter in canonical text: A 2 .. 9 T J Q K."""
        return "A23456789TJQK"[self]

    @property
    def value_(self) -> int:
        """The rank's counting value, 1 (ace) to 13 (king)."""
        return int(self) + 1


_RANK_TEXT = {letter: rank for rank, letter in enumerate("A23456789TJQK")}
_RANK_TEXT["10"] = 9
_RANK_TEXT["1"] = 0
_SUIT_TEXT = {
    "C": 0, "S": 1, "H": 2, "D": 3,
    "♣": 0, "♠": 1, "♥": 2, "♦": 3,
    "♧": 0, "♤": 1, "♡": 2, "♢": 3,
}


def card_rank(index: int) -> int:
    """The rank (0..12) of a card index."""
    return index % 13


def card_suit(index: int) -> int:
    """The suit (0..3) of a card index."""
    return index // 13


def card_colour(index: int) -> int:
    """0 for a black card, 1 for a red one."""
    return 1 if index >= 26 else 0


def card_text(index: int) -> str:
    """Canonical text of a card index.

    >>> card_text(0), card_text(51)
    ('AC', 'KD')
    """
    return _TEXT[index]


def parse_card_index(text: str) -> int:
    """Parse a card's text to its index; raises :class:`InvalidCardError`.

    >>> parse_card_index(" 10d ")
    48
    >>> parse_card_index("1X")
    Traceback (most recent call last):
    ...
    patiencekit.errors.InvalidCardError: '1X' is not a card: the suit must be one of C S H D ...
    """
    t = text.strip().upper()
    if len(t) < 2:
        raise InvalidCardError(f"{text!r} is not a card: write a rank and a suit, like QH or 10♥")
    suit = _SUIT_TEXT.get(t[-1])
    if suit is None:
        raise InvalidCardError(
            f"{text!r} is not a card: the suit must be one of C S H D (or ♣ ♠ ♥ ♦)"
        )
    rank = _RANK_TEXT.get(t[:-1])
    if rank is None:
        raise InvalidCardError(
            f"{text!r} is not a card: the rank must be one of A 2 3 4 5 6 7 8 9 10 (or T) J Q K"
        )
    return suit * 13 + rank


_TEXT = tuple(r + s for s in "CSHD" for r in "A23456789TJQK")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card: a rank and a suit.

    >>> c = Card(Rank.SEVEN, Suit.HEARTS)
    >>> str(c), c.symbol_text, c.is_red
    ('7H', '7♥', True)
    >>> Card.parse(str(c)) == c
    True
    """

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: ``QH``, ``10H``, ``TH``, ``Q♥`` (any case, spaces ignored)."""
        return _CARDS[parse_card_index(text)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card for an engine index ``suit * 13 + rank`` (0..51)."""
        if not 0 <= index < CARD_COUNT:
            raise InvalidCardError(f"{index!r} is not a card index: it must be 0..51")
        return _CARDS[index]

    @property
    def index(self) -> int:
        """The engine's integer for this card."""
        return int(self.suit) * 13 + int(self.rank)

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self.suit.is_red

    @property
    def colour(self) -> str:
        """``'red'`` or ``'black'``."""
        return "red" if self.suit.is_red else "black"

    @property
    def symbol_text(self) -> str:
        """The card with a suit symbol, for display: ``7♥``, ``10♠`` is ``T♠``."""
        return self.rank.letter + self.suit.symbol

    @property
    def name(self) -> str:
        """The card's name in words, for screen readers: ``seven of hearts``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return _TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARDS = tuple(Card(Rank(i % 13), Suit(i // 13)) for i in range(CARD_COUNT))
