"""PatienceMax, seed 000: two decks, ten columns of ten, a hand of four.

>>> from patiencekit.deals import dealing_order
>>> piles = deal_patiencemax(dealing_order(1, 2))
>>> [len(p.cards) for p in piles[PileKind.COLUMN]], len(piles[PileKind.HAND])
([10, 10, 10, 10, 10, 10, 10, 10, 10, 10], 4)
"""

from __future__ import annotations

from collections.abc import Sequence

from patiencekit.rules import (
    Build,
    ColumnRule,
    DealtPile,
    EmptyFill,
    FoundationRule,
    GameRules,
    PileKind,
    Win,
)

__all__ = ["PATIENCEMAX", "PATIENCEMAX_ALL_TO_PILES", "deal_patiencemax"]


def deal_patiencemax(order: Sequence[int]) -> dict[PileKind, list[DealtPile]]:
    """Ten face-up rows across the ten columns, then the last four cards to the hand."""
    cols: list[list[int]] = [[] for _ in range(10)]
    for i in range(100):
        cols[i % 10].append(order[i])
    return {
        PileKind.COLUMN: [DealtPile(tuple(c)) for c in cols],
        PileKind.HAND: [DealtPile((c,)) for c in order[100:104]],
    }


_FOUNDATIONS = tuple(FoundationRule() for _ in range(8))
#: down in alternate colours, strings move as a unit, a king fills an empty column; a
#: column's last card may go into the hand
_COLUMNS = ColumnRule(build=Build.ALTERNATE_DOWN, empty=EmptyFill.KING, to_hand=True)

_TEXT = """\
Two decks. Ten columns of ten face-up cards; the four other cards are in your hand \
(at most four cards). A card goes on the lowest card of another column if it is one \
rank lower and of the other colour; a string moves as a unit if its first card fits. \
An empty column takes only a king or a string headed by a king. A column's lowest card \
or a hand card may go to one of the eight piles: an ace on an empty pile, then up by suit; \
cards never leave the piles. A column's lowest card may go into the hand while it holds \
fewer than four cards, and a hand card may go to a column or a pile. {win}"""

PATIENCEMAX = GameRules(
    id="patiencemax",
    name="PatienceMax",
    rules_text=_TEXT.format(
        win="Win when every one of the eight kings lies at the top (the deepest place) "
        "of a column; a king sent to a pile can never do that."
    ),
    decks=2,
    deal=deal_patiencemax,
    foundations=_FOUNDATIONS,
    columns=10,
    column_rule=_COLUMNS,
    hand=4,
    win=Win.KINGS_AT_COLUMN_TOPS,
)

PATIENCEMAX_ALL_TO_PILES = GameRules(
    id="patiencemax-all-to-piles",
    name="PatienceMax (all to piles)",
    rules_text=_TEXT.format(win="Win with all 104 cards on the piles."),
    decks=2,
    deal=deal_patiencemax,
    foundations=_FOUNDATIONS,
    columns=10,
    column_rule=_COLUMNS,
    hand=4,
)
