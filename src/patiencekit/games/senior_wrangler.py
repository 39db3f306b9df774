"""Senior Wrangler, seed 004: eight foundations built by intervals 2 to 9.

>>> from patiencekit.deals import dealing_order
>>> piles = deal_senior_wrangler(dealing_order(7, 2))
>>> [len(p.cards) for p in piles[PileKind.PACKET]]
[12, 12, 12, 12, 12, 12, 12, 12]
>>> [c % 13 + 1 for p in piles[PileKind.INDEX] for c in p.cards]
[2, 3, 4, 5, 6, 7, 8, 9]
"""

from __future__ import annotations

from collections.abc import Sequence

from patiencekit.cards import Rank
from patiencekit.rules import (
    DealtPile,
    FoundationRule,
    GameRules,
    PileKind,
    StockRule,
    Turn,
)

__all__ = ["SENIOR_WRANGLER", "deal_senior_wrangler"]


def deal_senior_wrangler(order: Sequence[int]) -> dict[PileKind, list[DealtPile]]:
    """The first card found of each rank 2..9 becomes an index card; the other 96 cards
    are dealt in rows across the eight packets."""
    index: dict[int, int] = {}
    rest: list[int] = []
    for c in order:
        r = c % 13
        if Rank.TWO <= r <= Rank.NINE and r not in index:
            index[r] = c
        else:
            rest.append(c)
    packets: list[list[int]] = [[] for _ in range(8)]
    for i, c in enumerate(rest):
        packets[i % 8].append(c)
    return {
        PileKind.INDEX: [DealtPile((index[r],)) for r in sorted(index)],
        PileKind.PACKET: [DealtPile(tuple(p)) for p in packets],
    }


def _foundation(n: int) -> FoundationRule:
    """The foundation below index card ``n``: from rank 2n (mod 13), up by n, to the king."""
    return FoundationRule(
        follow_suit=False,
        base_rank=Rank((2 * n) % 13 - 1),
        step=n,
        wrap=True,
        size=12,
        to_foundations=True,
        keep_kings=True,
    )


SENIOR_WRANGLER = GameRules(
    id="senior-wrangler",
    name="Senior Wrangler",
    rules_text=(
        "Two decks. Eight index cards, one each of ranks 2 to 9, never move. The other 96 "
        "cards form eight face-up board packets of twelve; only each packet's top card plays, "
        "and only to a foundation. Below index card n a foundation starts with the card of "
        "rank 2n (counting past 13 again: 7 gives A, 8 gives 3, 9 gives 5) and builds up by n, "
        "wrapping, ignoring suit, twelve cards ending on a king. A foundation's top card, "
        "except a king, may move to another foundation where it continues the sequence. When "
        "no packet card can be played, deal out the next board packet, 1 to 8 in order (t): "
        "turned over, its cards go one at a time into its own space, then the spaces to its "
        "right, wrapping to packet 1. At most 8 such deals. Win with all 96 cards on the "
        "foundations, each topped by a king."
    ),
    decks=2,
    deal=deal_senior_wrangler,
    foundations=tuple(_foundation(n) for n in range(2, 10)),
    packets=8,
    index_cards=8,
    stock=StockRule(turn=Turn.NEXT_PACKET, redeals=8),
)
