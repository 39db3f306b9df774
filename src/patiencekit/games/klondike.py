"""Klondike draw 3 ("Solitaire") and draw 1 ("Solitaire Simple"), seed 003.

Dealt exactly as PySolFC deals Klondike: the same game number gives the same
cards in the same places (RULES.md "Deals"); the waste starts empty.

>>> from patiencekit.deals import dealing_order
>>> piles = deal_klondike(dealing_order(24, 1))
>>> [len(p.cards) for p in piles[PileKind.COLUMN]], len(piles[PileKind.STOCK][0].cards)
([1, 2, 3, 4, 5, 6, 7], 24)
"""

from __future__ import annotations

from collections.abc import Sequence

from patiencekit.cards import Suit
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

__all__ = ["KLONDIKE", "KLONDIKE_DRAW1", "deal_klondike"]


def deal_klondike(order: Sequence[int]) -> dict[PileKind, list[DealtPile]]:
    """PySolFC's Klondike deal: face-down rows from the right, then a face-up row."""
    cols: list[list[int]] = [[] for _ in range(7)]
    it = iter(order)
    for i in range(1, 7):
        for p in range(6, i - 1, -1):
            cols[p].append(next(it))
    for p in range(6, -1, -1):
        cols[p].append(next(it))
    stock = list(it)
    stock.reverse()  # the next card drawn is the last one
    return {
        PileKind.COLUMN: [DealtPile(tuple(c), len(c) - 1) for c in cols],
        PileKind.STOCK: [DealtPile(tuple(stock), len(stock))],
    }


_FOUNDATIONS = tuple(FoundationRule(suit=s, to_columns=True) for s in Suit)
#: down in alternate colours, strings move as a unit, a king fills an empty column
_COLUMNS = ColumnRule(build=Build.ALTERNATE_DOWN, empty=EmptyFill.KING)

_TEXT = """\
One deck. Seven columns, column n holding n cards with only the last face up; \
24 cards form the stock. Build the four foundations up by suit from ace to king. \
On the columns build down in alternate colours; any face-up string moves as a unit \
if its first card fits; an empty column takes only a king or a string headed by a king. \
A face-down card left at the end of a column is turned up. {draw} \
When the stock is empty, turn the waste over (t) to form it again, as often as you like. \
A foundation's top card may come back to a column. Win with all 52 cards on the foundations.

Score: waste to column +25, column to foundation +25, waste to foundation +50, \
a face-down card turned up +20, foundation to column -25, waste turned over -25 \
(never below 0); on a win a time bonus of 1000 minus the seconds played."""

KLONDIKE = GameRules(
    id="klondike",
    name="Solitaire (Klondike, draw 3)",
    rules_text=_TEXT.format(
        draw="Turn three cards at a time from the stock onto the waste (s); "
        "only the waste's top card can be played."
    ),
    decks=1,
    deal=deal_klondike,
    foundations=_FOUNDATIONS,
    columns=7,
    column_rule=_COLUMNS,
    stock=StockRule(draw=3, redeals=None),
    scored=True,
    pysolfc_id=18,
    aliases=("solitaire", "klondike-draw3"),
)

KLONDIKE_DRAW1 = GameRules(
    id="klondike-draw1",
    name="Solitaire Simple (Klondike, draw 1)",
    rules_text=_TEXT.format(draw="Turn one card at a time from the stock onto the waste (s)."),
    decks=1,
    deal=deal_klondike,
    foundations=_FOUNDATIONS,
    columns=7,
    column_rule=_COLUMNS,
    stock=StockRule(draw=1, redeals=None),
    scored=True,
    pysolfc_id=2,
    aliases=("solitaire-simple",),
)
