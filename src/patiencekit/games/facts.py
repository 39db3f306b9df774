"""What the registry knows of a game beyond its rules: how it is shown and who serves it.

The rules (:class:`~patiencekit.rules.GameRules`) say how a game is played; a
:class:`GameFacts` says only what the rules cannot: its short name, the line and
cards of its lobby tile, the board layout family the pages draw it with, whether
it is ranked (tournaments, ranked play and a Top 100), the words for its piles
where the usual ones do not fit, and which solver serves it. Whatever follows
from the rules (scored or not, the stock's draw and redeals, the foundations'
base cards) is read from the rules, never written here again
(:func:`foundation_bases`).

>>> facts = GameFacts(
...     short_name="Solitaire",
...     blurb="The classic.",
...     lobby_cards=("KS", "QH", "JC"),
...     layout=Layout.SEVEN_COLUMNS,
...     solver=Solver.KLONDIKE,
... )
>>> facts.layout, facts.ranked, facts.pile_word(PileKind.COLUMN)
(<Layout.SEVEN_COLUMNS: 'seven-columns'>, False, None)
>>> GameFacts(short_name="X", blurb="Y.", lobby_cards=("KS", "QH"), layout=Layout.SEVEN_COLUMNS)
Traceback (most recent call last):
...
ValueError: A game's lobby tile shows 3 cards, not 2: ('KS', 'QH').
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from patiencekit.cards import Rank, Suit, card_text, parse_card_index
from patiencekit.errors import InvalidCardError
from patiencekit.rules import GameRules, PileKind, Turn

__all__ = [
    "LOBBY_CARDS",
    "FoundationBase",
    "GameFacts",
    "Layout",
    "Solver",
    "StockFacts",
    "check_facts",
    "foundation_bases",
    "stock_facts",
]

#: how many cards decorate a game's lobby tile
LOBBY_CARDS = 3


class Layout(StrEnum):
    """The board layout families the pages know (``server/static/js/layout.js``)."""

    SEVEN_COLUMNS = "seven-columns"  #: stock and waste, foundations, seven columns below
    COLUMNS_AND_HAND = "columns-and-hand"  #: foundations, the hand, ten columns
    RESERVE_BETWEEN = "reserve-between"  #: two foundation columns around a 3 x 3 reserve
    LEFT_PILES = "left-piles"  #: left piles, foundations, a 4 x 4 reserve
    TWO_ROWS = "two-rows"  #: two rows of eight foundations
    THREE_ROWS = "three-rows"  #: three rows of four foundations
    INDEX_CARDS = "index-cards"  #: index cards, foundations, packets


class Solver(StrEnum):
    """Which search of :mod:`patiencekit.solver` serves a game."""

    KLONDIKE = "klondike"  #: the fast Klondike search (Klondike-shaped rules only)
    GENERIC = "generic"  #: the generic search, for any game


@dataclass(frozen=True, slots=True)
class FoundationBase:
    """The base card of a foundation: its rank, and its suit when the rules fix it.

    >>> str(FoundationBase(Rank.ACE, Suit.CLUBS)), str(FoundationBase(Rank.FOUR))
    ('AC', '4')
    """

    rank: Rank
    suit: Suit | None = None

    def __str__(self) -> str:
        return self.rank.letter + (self.suit.letter if self.suit is not None else "")


@dataclass(frozen=True, slots=True, kw_only=True)
class GameFacts:
    """A game's presentation and service facts (its rules say everything else)."""

    #: the name where space is short (tabs, tournament and Top 100 lists): "Solitaire"
    short_name: str
    #: one or two sentences for the lobby tile (the rules page has the full text)
    blurb: str
    #: the cards decorating the lobby tile, as card text ("KS")
    lobby_cards: tuple[str, ...]
    #: the board layout family the pages draw the game with
    layout: Layout
    #: tournaments, ranked play and a Top 100 (only for scored games)
    ranked: bool = False
    #: the search that solves it and gives its hints
    solver: Solver = Solver.GENERIC
    #: the word for a kind of pile where the usual one does not fit ("left pile")
    pile_words: Mapping[PileKind, str] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if not self.short_name.strip() or len(self.short_name) > 32:
            raise ValueError(f"A short name has 1 to 32 characters, not {self.short_name!r}.")
        if not self.blurb.strip() or "\n" in self.blurb:
            raise ValueError(f"A blurb is one line of text, not {self.blurb!r}.")
        if len(self.lobby_cards) != LOBBY_CARDS:
            raise ValueError(
                f"A game's lobby tile shows {LOBBY_CARDS} cards, not "
                f"{len(self.lobby_cards)}: {self.lobby_cards!r}."
            )
        for text in self.lobby_cards:
            try:
                canonical = card_text(parse_card_index(text))
            except InvalidCardError:
                raise ValueError(f"The lobby card {text!r} is not a card.") from None
            if canonical != text:
                raise ValueError(f"Write the lobby card {text!r} as {canonical!r}.")
        for kind, word in self.pile_words.items():
            if not isinstance(kind, PileKind) or not word.strip():
                raise ValueError(f"A pile word names a pile kind: {kind!r}: {word!r}.")
        # frozen all through: the registry's facts cannot be changed in place
        object.__setattr__(self, "pile_words", MappingProxyType(dict(self.pile_words)))

    def pile_word(self, kind: PileKind) -> str | None:
        """This game's own word for piles of ``kind``, or None for the usual one."""
        return self.pile_words.get(kind)


def foundation_bases(rules: GameRules) -> tuple[FoundationBase, ...]:
    """The base card of each foundation, in layout order (what an empty one takes).

    >>> from patiencekit.games import get_rules
    >>> [str(b) for b in foundation_bases(get_rules("captured-queens"))][::4]
    ['5C', 'QC', '6C']
    """
    return tuple(FoundationBase(Rank(f.rank_at(0)), f.suit) for f in rules.foundations)


@dataclass(frozen=True, slots=True)
class StockFacts:
    """What ``s`` and ``t`` do in a game, read from its rules."""

    #: cards turned per ``s`` (0: the game has no stock to turn)
    draw: int
    #: how often ``t`` may be played (None: as often as you like; 0: never)
    redeals: int | None
    #: what ``t`` does, or None when the game has no ``t`` at all
    turn: Turn | None


def stock_facts(rules: GameRules) -> StockFacts:
    """The stock's facts as the player meets them.

    >>> from patiencekit.games import get_rules
    >>> stock_facts(get_rules("klondike"))
    StockFacts(draw=3, redeals=None, turn=<Turn.REDEAL: 'redeal'>)
    >>> stock_facts(get_rules("senior-wrangler"))
    StockFacts(draw=0, redeals=8, turn=<Turn.NEXT_PACKET: 'next-packet'>)
    >>> stock_facts(get_rules("picture-patience")), stock_facts(get_rules("patiencemax"))
    (StockFacts(draw=1, redeals=0, turn=None), StockFacts(draw=0, redeals=0, turn=None))
    """
    stock = rules.stock
    if stock is None:
        return StockFacts(draw=0, redeals=0, turn=None)
    draw = stock.draw if stock.turn is Turn.REDEAL else 0
    turn = stock.turn if stock.redeals != 0 else None
    return StockFacts(draw=draw, redeals=stock.redeals, turn=turn)


def check_facts(rules: GameRules, facts: GameFacts) -> GameFacts:
    """``facts``, checked against the game's ``rules``: raises :class:`ValueError` where
    they contradict each other."""
    if facts.ranked and not rules.scored:
        raise ValueError(
            f"Game {rules.id!r} is ranked but not scored: ranked play, tournaments and the "
            "Top 100 count Klondike's points."
        )
    if facts.solver is Solver.KLONDIKE and not _klondike_shaped(rules):
        raise ValueError(
            f"Game {rules.id!r} is not Klondike-shaped (one deck, seven columns, four "
            "foundations, a stock): the Klondike search cannot solve it."
        )
    for kind in facts.pile_words:
        if not _has(rules, kind):
            raise ValueError(f"Game {rules.id!r} has no {kind} piles to name.")
    return facts


def _klondike_shaped(rules: GameRules) -> bool:
    """What the Klondike search assumes: Klondike's piles, foundations up from the ace
    by suit, a stock turned over as often as you like."""
    return (
        rules.decks == 1
        and rules.columns == 7
        and len(rules.foundations) == 4
        and not (rules.hand or rules.reserve or rules.packets or rules.index_cards)
        and all(f.suit is not None and f.step == 1 and f.size == 13 for f in rules.foundations)
        and all(b.rank is Rank.ACE for b in foundation_bases(rules))
        and rules.stock is not None
        and rules.stock.redeals is None
    )


def _has(rules: GameRules, kind: PileKind) -> bool:
    """Whether the game has piles of ``kind``."""
    counts = {
        PileKind.FOUNDATION: len(rules.foundations),
        PileKind.COLUMN: rules.columns,
        PileKind.HAND: rules.hand,
        PileKind.RESERVE: rules.reserve,
        PileKind.PACKET: rules.packets,
        PileKind.INDEX: rules.index_cards,
        PileKind.STOCK: stock_facts(rules).draw,
        PileKind.WASTE: stock_facts(rules).draw,
    }
    return counts[kind] > 0
