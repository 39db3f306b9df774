"""The rules vocabulary: a game is data built from these frozen dataclasses.

A game says how many piles of each kind it has, how its foundations build,
how its columns build (:class:`Build`: direction, suit policy and step, in the
spirit of Solvitaire's build policies) and what fills an empty one
(:class:`EmptyFill`), how its stock deals and
how often it may be turned over, how it is won and how it is dealt. Only the
deal (where the shuffled cards go) is a function; everything else is data.

>>> FoundationRule(suit=Suit.HEARTS).sequence()[:3]
('AH', '2H', '3H')
>>> FoundationRule(base_rank=Rank.TWO, step=2, wrap=True, suit=Suit.CLUBS).sequence()[:8]
('2C', '4C', '6C', '8C', 'TC', 'QC', 'AC', '3C')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from patiencekit.cards import Rank, Suit, card_text

__all__ = [
    "Build",
    "ColumnRule",
    "Deal",
    "DealtPile",
    "Direction",
    "EmptyFill",
    "FoundationRule",
    "GameRules",
    "PileKind",
    "StockRule",
    "SuitPolicy",
    "Turn",
    "Win",
]


class PileKind(StrEnum):
    """Kinds of pile, in the players' words. The value is the ``deal --json`` kind."""

    STOCK = "stock"
    WASTE = "waste"
    FOUNDATION = "foundation"
    COLUMN = "column"
    HAND = "hand"
    RESERVE = "reserve"
    PACKET = "packet"
    INDEX = "index"

    @property
    def prefix(self) -> str:
        """The letter naming piles of this kind in the move notation (``c3``, ``f1``, ``w``)."""
        return _PREFIX[self]


_PREFIX = {
    PileKind.STOCK: "s",
    PileKind.WASTE: "w",
    PileKind.FOUNDATION: "f",
    PileKind.COLUMN: "c",
    PileKind.HAND: "h",
    PileKind.RESERVE: "r",
    PileKind.PACKET: "p",
    PileKind.INDEX: "i",
}


class Direction(StrEnum):
    """Which way cards build on a column: the card placed is ``step`` ranks from the one
    it goes on, lower (``down``), higher (``up``), either, or nothing is built (``none``)."""

    DOWN = "down"
    UP = "up"
    EITHER = "either"
    NONE = "none"


class SuitPolicy(StrEnum):
    """Which suit a card built on a column must have, beside the card it goes on."""

    ALTERNATE_COLOUR = "alternate-colour"  #: the other colour (red on black, black on red)
    SAME_SUIT = "same-suit"
    SAME_COLOUR = "same-colour"
    ANY_SUIT = "any-suit"


@dataclass(frozen=True, slots=True, kw_only=True)
class Build:
    """How cards build on a column: ``direction``, ``suits`` and ``step`` (ranks apart).

    Klondike's columns are ``Build.ALTERNATE_DOWN`` (one rank lower, of the other
    colour); ``Build.NONE`` builds nothing. A card is a card index, ``suit * 13 + rank``.

    >>> Build.ALTERNATE_DOWN.fits(11, 38)  # QC on KH
    True
    >>> Build.ALTERNATE_DOWN.fits(11, 12), Build.NONE.fits(11, 38)  # QC on KC; no building
    (False, False)
    >>> up = Build(direction=Direction.UP, suits=SuitPolicy.SAME_SUIT)
    >>> up.fits(1, 0), up.fits(0, 1), up.onto(1)  # 2C on AC, not AC on 2C; 2C goes on AC
    (True, False, (0,))
    >>> Build(direction=Direction.EITHER, suits=SuitPolicy.ANY_SUIT, step=2).ranks_onto(5)
    (7, 3)
    """

    direction: Direction = Direction.DOWN
    suits: SuitPolicy = SuitPolicy.ALTERNATE_COLOUR
    step: int = 1

    #: one rank lower, of the other colour (Klondike, PatienceMax)
    ALTERNATE_DOWN: ClassVar[Build]
    #: nothing is ever built on the column
    NONE: ClassVar[Build]

    def __post_init__(self) -> None:
        if not 1 <= self.step <= 12:
            raise ValueError(f"A column's build step must be 1..12, not {self.step}.")

    @property
    def builds(self) -> bool:
        """True if anything is built on the column."""
        return self.direction is not Direction.NONE

    def ranks_onto(self, rank: int) -> tuple[int, ...]:
        """The ranks (0..12) of the cards a card of ``rank`` may be placed on."""
        d = self.direction
        found: list[int] = []
        if d is Direction.DOWN or d is Direction.EITHER:
            found.append(rank + self.step)
        if d is Direction.UP or d is Direction.EITHER:
            found.append(rank - self.step)
        return tuple(r for r in found if 0 <= r <= 12)

    def ranks_on(self, rank: int) -> tuple[int, ...]:
        """The ranks (0..12) of the cards that may be placed on a card of ``rank``."""
        return tuple(r for r in range(13) if rank in self.ranks_onto(r))

    def suits_with(self, suit: int) -> tuple[int, ...]:
        """The suits (0..3) a card of ``suit`` may be placed on (and take on it)."""
        policy = self.suits
        if policy is SuitPolicy.SAME_SUIT:
            return (suit,)
        if policy is SuitPolicy.ANY_SUIT:
            return (0, 1, 2, 3)
        black = suit < 2
        if policy is SuitPolicy.SAME_COLOUR:
            return (0, 1) if black else (2, 3)
        return (2, 3) if black else (0, 1)

    def onto(self, card: int) -> tuple[int, ...]:
        """The cards (indexes 0..51) ``card`` may be placed on."""
        rank, suit = card % 13, card % 52 // 13
        return tuple(s * 13 + r for r in self.ranks_onto(rank) for s in self.suits_with(suit))

    def fits(self, card: int, onto: int) -> bool:
        """True if ``card`` may be placed on ``onto``."""
        return onto % 52 in self.onto(card)


Build.ALTERNATE_DOWN = Build()
Build.NONE = Build(direction=Direction.NONE)


class EmptyFill(StrEnum):
    """What an empty column accepts (and a string headed by it)."""

    KING = "king"  #: a king or a string headed by a king
    ANY = "any"  #: any card or string
    NONE = "none"  #: nothing

    def takes(self, card: int) -> bool:
        """True if ``card`` (a card index) may start an empty column.

        >>> EmptyFill.KING.takes(12), EmptyFill.KING.takes(11), EmptyFill.ANY.takes(0)
        (True, False, True)
        """
        if self is EmptyFill.ANY:
            return True
        return self is EmptyFill.KING and card % 13 == Rank.KING


class Win(StrEnum):
    """How a game is won."""

    ALL_ON_FOUNDATIONS = "all-on-foundations"
    KINGS_AT_COLUMN_TOPS = "kings-at-column-tops"  #: PatienceMax, read literally


class Turn(StrEnum):
    """What the ``t`` move does."""

    REDEAL = "redeal"  #: the waste is turned over to form the stock again
    NEXT_PACKET = "next-packet"  #: Senior Wrangler: the next board packet is dealt out


@dataclass(frozen=True, slots=True, kw_only=True)
class FoundationRule:
    """How one foundation builds.

    ``suit`` fixes the foundation's suit (``None``: the first card decides);
    ``follow_suit`` makes every card the suit of the one below it (``False``
    in Senior Wrangler, which ignores suits). The first card has rank
    ``base_rank``; each next card is ``step`` ranks further, modulo 13 when
    ``wrap``. ``size`` cards complete it.
    """

    suit: Suit | None = None
    follow_suit: bool = True
    base_rank: Rank = Rank.ACE
    step: int = 1
    wrap: bool = False
    size: int = 13
    #: the top card may go back to a column (Klondike)
    to_columns: bool = False
    #: the top card may go to another foundation that takes it (reversal)
    to_foundations: bool = False
    #: the first card never leaves (Patriarchs' base aces and kings)
    keep_base: bool = False
    #: a king never leaves (Senior Wrangler)
    keep_kings: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.size <= 13:
            raise ValueError(f"A foundation holds 1 to 13 cards, not {self.size}.")
        if self.step == 0 or not -12 <= self.step <= 12:
            raise ValueError(f"A foundation's step must be -12..-1 or 1..12, not {self.step}.")
        if not self.wrap:
            last = self.base_rank + self.step * (self.size - 1)
            if not 0 <= last <= 12:
                raise ValueError(
                    f"A foundation from rank {self.base_rank.letter} by {self.step} "
                    f"cannot hold {self.size} cards without wrapping."
                )

    def rank_at(self, position: int) -> int:
        """The rank (0..12) of the card at ``position`` (0 = the base card)."""
        r = self.base_rank + self.step * position
        return r % 13 if self.wrap else r

    def next_rank(self, rank: int) -> int | None:
        """The rank that follows ``rank`` on this foundation, or None."""
        r = rank + self.step
        if self.wrap:
            return r % 13
        return r if 0 <= r <= 12 else None

    def sequence(self) -> tuple[str, ...]:
        """The foundation's cards in order, as text (for a fixed suit), for rules pages."""
        suit = self.suit if self.suit is not None else Suit.CLUBS
        return tuple(card_text(suit * 13 + self.rank_at(i)) for i in range(self.size))


@dataclass(frozen=True, slots=True, kw_only=True)
class ColumnRule:
    """How a column (``c1``..) or a packet (``p1``..) behaves: how cards build on it
    (:class:`Build`), what fills it when empty (:class:`EmptyFill`), and where its cards go.

    >>> ColumnRule().build == Build.ALTERNATE_DOWN, ColumnRule().empty
    (True, <EmptyFill.KING: 'king'>)
    """

    build: Build = Build.ALTERNATE_DOWN
    empty: EmptyFill = EmptyFill.KING
    #: face-up strings move as a unit if their first card fits
    strings: bool = True
    #: its lowest card may go into the hand
    to_hand: bool = False
    #: its lowest card may go to a column
    to_columns: bool = True
    #: when its last card is face down, it is turned up at once
    auto_flip: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class StockRule:
    """The stock: ``draw`` cards per ``s``; ``redeals`` turns of the waste (None: unlimited)."""

    draw: int = 1
    redeals: int | None = None
    turn: Turn = Turn.REDEAL


@dataclass(frozen=True, slots=True)
class DealtPile:
    """Cards dealt to a pile, bottom to top; the first ``face_down`` of them face down."""

    cards: tuple[int, ...]
    face_down: int = 0


#: A deal hook: the shuffled card ids in dealing order (first dealt first; an id is
#: ``deck * 52 + suit * 13 + rank``) to the dealt piles, by kind, in layout order.
Deal = Callable[[Sequence[int]], dict[PileKind, list[DealtPile]]]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRules:
    """A whole game as data (plus its deal hook).

    Piles of each kind are numbered from 1 in layout order: ``foundations``
    gives one rule per foundation (``f1``, ``f2``, ...).
    """

    id: str
    name: str
    rules_text: str
    decks: int
    deal: Deal
    foundations: tuple[FoundationRule, ...]
    columns: int = 0
    column_rule: ColumnRule = field(default_factory=ColumnRule)
    hand: int = 0
    reserve: int = 0
    #: an emptied reserve space is filled from the waste, else the stock
    reserve_refill: bool = True
    packets: int = 0
    packet_rule: ColumnRule = field(
        default_factory=lambda: ColumnRule(
            build=Build.NONE, empty=EmptyFill.NONE, strings=False, to_columns=False,
            auto_flip=False,
        )
    )
    index_cards: int = 0
    stock: StockRule | None = None
    win: Win = Win.ALL_ON_FOUNDATIONS
    #: Klondike's points (RULES.md "Scoring")
    scored: bool = False
    #: the deal has a known PySolFC equivalent
    pysolfc_id: int | None = None
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.decks not in (1, 2):
            raise ValueError(f"Game {self.id!r}: decks must be 1 or 2, not {self.decks}.")
        if not self.foundations:
            raise ValueError(f"Game {self.id!r} needs at least one foundation.")
        stock = self.stock
        if (
            stock is not None
            and stock.turn is Turn.NEXT_PACKET
            and (stock.redeals is None or not 0 <= stock.redeals <= self.packets)
        ):
            raise ValueError(
                f"Game {self.id!r}: each of the {self.packets} packets is dealt out at most "
                f"once, so the stock's redeals must be 0..{self.packets}, not {stock.redeals}."
            )
        if self.win is Win.ALL_ON_FOUNDATIONS:
            total = sum(f.size for f in self.foundations) + self.index_cards
            if total != 52 * self.decks:
                raise ValueError(
                    f"Game {self.id!r}: foundations hold {total} cards with the index cards,"
                    f" but the game has {52 * self.decks}."
                )

    @property
    def card_count(self) -> int:
        """How many cards the game is played with."""
        return 52 * self.decks

    @property
    def foundation_target(self) -> int:
        """How many cards the foundations hold when the game is won (all to piles)."""
        return sum(f.size for f in self.foundations)
