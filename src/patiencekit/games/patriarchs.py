"""Patriarchs and its family, seed 001: Picture Patience, Odd and Even, Royal
Cotillion, Contradance and Captured Queens. Dealt in PySolFC's order.

>>> from patiencekit.deals import dealing_order
>>> piles = deal_patriarchs(dealing_order(5, 2))
>>> [len(p.cards) for p in piles[PileKind.FOUNDATION]], len(piles[PileKind.RESERVE])
([1, 1, 1, 1, 1, 1, 1, 1], 9)
"""

from __future__ import annotations

from collections.abc import Sequence

from patiencekit.cards import Rank, Suit
from patiencekit.rules import (
    Build,
    ColumnRule,
    DealtPile,
    EmptyFill,
    FoundationRule,
    GameRules,
    PileKind,
    StockRule,
)

__all__ = [
    "CAPTURED_QUEENS",
    "CONTRADANCE",
    "ODD_AND_EVEN",
    "PATRIARCHS",
    "PICTURE_PATIENCE",
    "ROYAL_COTILLION",
]

_ACE, _KING = Rank.ACE, Rank.KING


def _stock(rest: Sequence[int]) -> DealtPile:
    """The undealt cards as a stock whose last card is drawn first."""
    cards = tuple(reversed(rest))
    return DealtPile(cards, len(cards))


def _first(order: Sequence[int], chosen: Sequence[int]) -> list[int]:
    """``order`` with the ``chosen`` card ids dealt first, the rest keeping their order."""
    taken = set(chosen)
    return [*chosen, *(c for c in order if c not in taken)]


def deal_patriarchs(order: Sequence[int]) -> dict[PileKind, list[DealtPile]]:
    """The ace and king of each suit from the first deck to the foundations, then 9 reserves."""
    bases = [s * 13 + _ACE for s in Suit] + [s * 13 + _KING for s in Suit]
    cards = _first(order, bases)
    return {
        PileKind.FOUNDATION: [DealtPile((c,)) for c in cards[:8]],
        PileKind.RESERVE: [DealtPile((c,)) for c in cards[8:17]],
        PileKind.STOCK: [_stock(cards[17:])],
    }


def deal_reserve9(order: Sequence[int]) -> dict[PileKind, list[DealtPile]]:
    """Nine reserve cards, the rest to the stock (Picture Patience, Odd and Even)."""
    return {
        PileKind.RESERVE: [DealtPile((c,)) for c in order[:9]],
        PileKind.STOCK: [_stock(order[9:])],
    }


def deal_royal_cotillion(order: Sequence[int]) -> dict[PileKind, list[DealtPile]]:
    """Sixteen reserve cards, then three rows across the four left piles."""
    left: list[list[int]] = [[] for _ in range(4)]
    for i, c in enumerate(order[16:28]):
        left[i % 4].append(c)
    return {
        PileKind.RESERVE: [DealtPile((c,)) for c in order[:16]],
        PileKind.COLUMN: [DealtPile(tuple(p)) for p in left],
        PileKind.STOCK: [_stock(order[28:])],
    }


def deal_contradance(order: Sequence[int]) -> dict[PileKind, list[DealtPile]]:
    """All the fives and sixes to the sixteen foundations (by rank, then suit)."""
    bases = sorted(
        (c for c in order if c % 13 in (Rank.FIVE, Rank.SIX)),
        key=lambda c: (c % 13, c % 52 // 13),
    )
    cards = _first(order, bases)
    return {
        PileKind.FOUNDATION: [DealtPile((c,)) for c in cards[:16]],
        PileKind.STOCK: [_stock(cards[16:])],
    }


def deal_stock_only(order: Sequence[int]) -> dict[PileKind, list[DealtPile]]:
    """Every card to the stock (Captured Queens)."""
    return {PileKind.STOCK: [_stock(order)]}


_PATRIARCHS_F = tuple(
    FoundationRule(suit=s, to_foundations=True, keep_base=True) for s in Suit
) + tuple(
    FoundationRule(suit=s, base_rank=_KING, step=-1, to_foundations=True, keep_base=True)
    for s in Suit
)
_PICTURE_F = tuple(FoundationRule(suit=s) for s in Suit) + tuple(
    FoundationRule(suit=s, base_rank=_KING, step=-1) for s in Suit
)
_BY_TWOS_F = tuple(FoundationRule(suit=s, step=2, wrap=True) for s in Suit) + tuple(
    FoundationRule(suit=s, base_rank=Rank.TWO, step=2, wrap=True) for s in Suit
)


def _fives_down(suit: Suit) -> FoundationRule:
    """A foundation from a five down by suit, wrapping: 5 4 3 2 A K."""
    return FoundationRule(suit=suit, base_rank=Rank.FIVE, step=-1, wrap=True, size=6)


_RESERVE_TEXT = (
    "When a reserve card leaves, its space is filled at once with the waste's top card or, "
    "if the waste is empty, the next stock card. Turn the stock one card at a time onto the "
    "waste (s); the waste's top card plays to a foundation."
)

PATRIARCHS = GameRules(
    id="patriarchs",
    name="Patriarchs",
    rules_text=(
        "Two decks. An ace and a king of each suit start on the foundations: the aces build "
        "up by suit to king, the kings down by suit to ace. Nine face-up reserve cards "
        "(three rows of three) play only to the foundations. " + _RESERVE_TEXT + " One redeal "
        "(t). Reversal: when the top cards of a suit's ace and king foundations are in "
        "sequence, cards may move one at a time from one to the other, never the base ace "
        "or king. Win with all 104 cards on the foundations."
    ),
    decks=2,
    deal=deal_patriarchs,
    foundations=_PATRIARCHS_F,
    reserve=9,
    stock=StockRule(draw=1, redeals=1),
    pysolfc_id=429,
)

PICTURE_PATIENCE = GameRules(
    id="picture-patience",
    name="Picture Patience",
    rules_text=(
        "As Patriarchs, but no card starts on the foundations: aces and kings are placed on "
        "their empty foundations as they are found (aces build up, kings down, by suit). "
        "Nine face-up reserve cards play only to the foundations. " + _RESERVE_TEXT
        + " No reversal and no redeal. Win with all 104 cards on the foundations."
    ),
    decks=2,
    deal=deal_reserve9,
    foundations=_PICTURE_F,
    reserve=9,
    stock=StockRule(draw=1, redeals=0),
    pysolfc_id=598,
)

ODD_AND_EVEN = GameRules(
    id="odd-and-even",
    name="Odd and Even",
    rules_text=(
        "Two decks. Per suit one foundation from an ace and one from a two, both built up by "
        "twos by suit, wrapping (A 3 5 7 9 J K 2 4 6 8 10 Q and 2 4 6 8 10 Q A 3 5 7 9 J K); "
        "bases are placed as they are found. Nine face-up reserve cards play only to the "
        "foundations. " + _RESERVE_TEXT + " One redeal (t). Win with all 104 cards on the "
        "foundations."
    ),
    decks=2,
    deal=deal_reserve9,
    foundations=_BY_TWOS_F,
    reserve=9,
    stock=StockRule(draw=1, redeals=1),
    pysolfc_id=55,
)

ROYAL_COTILLION = GameRules(
    id="royal-cotillion",
    name="Royal Cotillion",
    rules_text=(
        "Two decks. Foundations as in Odd and Even: per suit one from an ace and one from a "
        "two, up by twos by suit, wrapping. Left: four piles of three face-up cards; only each "
        "pile's last card plays, to a foundation; they are never refilled and nothing builds "
        "on them. Right: sixteen reserve cards, each played only to a foundation. "
        + _RESERVE_TEXT + " No redeal. Win with all 104 cards on the foundations."
    ),
    decks=2,
    deal=deal_royal_cotillion,
    foundations=_BY_TWOS_F,
    columns=4,
    column_rule=ColumnRule(
        build=Build.NONE, empty=EmptyFill.NONE, strings=False, to_columns=False,
        auto_flip=False,
    ),
    reserve=16,
    stock=StockRule(draw=1, redeals=0),
    pysolfc_id=54,
)

CONTRADANCE = GameRules(
    id="contradance",
    name="Contradance (Cotillion)",
    rules_text=(
        "Two decks. All eight fives and eight sixes start on sixteen foundations: the fives "
        "build down by suit 5 4 3 2 A K, the sixes up by suit 6 to Q. Turn the stock one card "
        "at a time onto the waste (s); only the waste's top card plays. One redeal (t). Win "
        "with all 104 cards on the foundations."
    ),
    decks=2,
    deal=deal_contradance,
    foundations=tuple(_fives_down(Suit(i // 2)) for i in range(8))
    + tuple(FoundationRule(suit=Suit(i // 2), base_rank=Rank.SIX, size=7) for i in range(8)),
    stock=StockRule(draw=1, redeals=1),
    pysolfc_id=418,
)

CAPTURED_QUEENS = GameRules(
    id="captured-queens",
    name="Captured Queens (Quadrille)",
    rules_text=(
        "One deck. As they appear, the fives start foundations built down by suit 5 4 3 2 A K, "
        "the sixes foundations built up by suit 6 to J, and the queens are set aside on their "
        "own piles. Turn the stock one card at a time onto the waste (s); only the waste's top "
        "card plays. Two redeals (t). Win with all 52 cards placed."
    ),
    decks=1,
    deal=deal_stock_only,
    foundations=tuple(_fives_down(s) for s in Suit)
    + tuple(FoundationRule(suit=s, base_rank=Rank.QUEEN, size=1) for s in Suit)
    + tuple(FoundationRule(suit=s, base_rank=Rank.SIX, size=6) for s in Suit),
    stock=StockRule(draw=1, redeals=2),
    pysolfc_id=410,
)
