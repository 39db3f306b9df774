"""An experiment, not part of the package: Picture Patience as ten cards in play, and an
exact search over that model with a sound relaxation at every position.

Picture Patience (RULES.md, the Patriarchs family): two decks, no card on the foundations at
first (per suit one pile up from an ace, one down from a king), nine reserve cards refilled
at once from the waste's top (from the stock when the waste is empty), one pass of the stock.

**The model.** While cards are left in the waste or the stock, the nine reserve cards and the
waste's top are the ten cards in play. Whichever of them goes to a foundation, the next
waste card (or stock card) comes into play: a reserve card's space takes the waste's top,
and the card under it becomes the top. A draw buries the waste's top under the new card.
Two facts follow:

* plays commute: the same cards played between two draws give the same position, whatever
  their order (each play brings in exactly the next card of the waste);
* what a reserve play buys over playing the waste's top is *which* card it keeps out of the
  waste: the top at that moment. So its timing is a real choice. With the waste ``[a, b]``
  and a reserve card ``c`` that fits, playing ``c`` now keeps ``b`` (then the draw ``s``
  gives the waste ``[a, s]``), drawing first keeps ``s`` (waste ``[a, b]``). Neither line
  is better in general: no "play it as soon as it fits" rule is sound, not even in the
  relaxed game where foundations never close.

**The relaxation** (:func:`relaxed_lost`, sound): every card but the buried waste (the waste
below its top) is free, foundations never close (a card fits once either of its places has
been reached), and each play digs out one buried card. Any real line is a line of this game
with at least as much in hand, and greedy play is optimal in it, so a lost relaxation is a
lost position. Looser relaxations (the waste as a set, burials chosen freely) drop the stack,
which is what loses these deals, and prove nothing.

Run of 2026-12-04 (``python docs/experiments/picture_patience_exposures.py A B LIMIT``, one
process): deals 1-5 at 200,000 positions each, none decided; the relaxation cut 11, 63,498,
49,461, 54,764 and 58,012 of them (4-7 s a deal). #244196 (winnable) is not solved within
2,000,000 positions by this search's order (plays first, then the draw). Proving these deals
lost needs an argument about the timing of reserve plays that this model does not give.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from patiencekit.deals import dealing_order

sys.setrecursionlimit(100_000)

Cards = tuple[int, ...]


def deal(n: int) -> tuple[list[int], list[int]]:
    """Game ``n``'s nine reserve cards and its stock (first drawn first); a card is
    ``suit * 13 + rank``, both decks alike."""
    order = [c % 52 for c in dealing_order(n, 2)]
    return order[:9], order[9:]


class Limit(Exception):
    """The positions budget ran out."""


def relaxed_lost(
    reserve: Cards, waste: Cards, stock: list[int], i: int, up: Cards, down: Cards
) -> bool:
    """True when the relaxation (the module's text) is lost: free cards are the reserve,
    the waste's top and the stock still to come; each play digs out one buried card."""
    ups, downs = list(up), list(down)
    free = list(reserve) + list(waste[-1:]) + stock[i:]
    buried = list(waste[:-1])
    progress = True
    while progress:
        progress = False
        k = 0
        while k < len(free):
            suit, rank = divmod(free[k], 13)
            fits = False
            if ups[suit] >= rank:
                fits = True
                ups[suit] = max(ups[suit], rank + 1)
            if downs[suit] >= 12 - rank:
                fits = True
                downs[suit] = max(downs[suit], 13 - rank)
            if fits:
                free[k] = free[-1]
                free.pop()
                if buried:
                    free.append(buried.pop())
                progress = True
            else:
                k += 1
    return bool(buried) or bool(free)


def solve(n: int, limit: int) -> tuple[str, int, int]:
    """The exact search of game ``n`` within ``limit`` positions: (outcome, positions,
    positions the relaxation cut)."""
    reserve0, stock = deal(n)
    size = len(stock)
    seen: set[tuple[int, Cards, Cards, Cards, Cards]] = set()
    nodes = cut = 0

    def rec(i: int, waste: Cards, reserve: Cards, up: Cards, down: Cards, placed: int) -> bool:
        nonlocal nodes, cut
        if placed == 104:
            return True
        key = (i, waste, reserve, up, down)
        if key in seen:
            return False
        seen.add(key)
        nodes += 1
        if nodes > limit:
            raise Limit
        if relaxed_lost(reserve, waste, stock, i, up, down):
            cut += 1
            return False
        tops = [(c, True) for k, c in enumerate(reserve) if not k or reserve[k - 1] != c]
        tops += [(waste[-1], False)] if waste else []
        for card, in_reserve in tops:
            suit, rank = divmod(card, 13)
            for side in (0, 1):
                if (up[suit] != rank) if side == 0 else (down[suit] != 12 - rank):
                    continue
                nup = (*up[:suit], rank + 1, *up[suit + 1 :]) if side == 0 else up
                ndown = (*down[:suit], down[suit] + 1, *down[suit + 1 :]) if side else down
                if not in_reserve:
                    if rec(i, waste[:-1], reserve, nup, ndown, placed + 1):
                        return True
                    continue
                rest = list(reserve)
                rest.remove(card)
                nwaste, ni = waste, i
                if waste:
                    rest.append(waste[-1])
                    nwaste = waste[:-1]
                elif i < size:
                    rest.append(stock[i])
                    ni = i + 1
                if rec(ni, nwaste, tuple(sorted(rest)), nup, ndown, placed + 1):
                    return True
        return i < size and rec(i + 1, (*waste, stock[i]), reserve, up, down, placed)

    try:
        won = rec(0, (), tuple(sorted(reserve0)), (0,) * 4, (0,) * 4, 0)
        return ("solved" if won else "unsolvable"), nodes, cut
    except Limit:
        return "limit", nodes, cut


if __name__ == "__main__":
    first, end, budget = map(int, sys.argv[1:4])
    for number in range(first, end):
        began = time.perf_counter()
        print(number, *solve(number, budget), round(time.perf_counter() - began, 2), flush=True)
