"""Senior Wrangler's foundations for the generic search: suits ignored, top cards that
move between foundations.

Two facts make many of the search's positions one:

* No rule of the game reads a card's suit (the foundations ignore suits; a packet's top
  card goes only to a foundation). So positions that differ only in suits are alike,
  and the key holds ranks only.
* A foundation holds the ranks of its sequence up to its height, so its height says all
  about it. Moving a top card to another foundation can be undone at once (the card
  moves back, where it was the next card), so the heights that such moves reach from
  each other are alike too: from any of them the others are reached, and nothing else
  changes. The key holds the least of them, and the search's moves are a placement (a
  packet's top card to a foundation, or the next packet dealt) after some such moves:
  one for each place it leads to.
"""

from __future__ import annotations

from collections import deque

from patiencekit.rules import Turn
from patiencekit.state import TURN, EngineMove, State, Tables

__all__ = ["FoundationShuffles"]

#: card value -> its rank (``bytes.translate`` table; a card's value is below 256)
_RANKS = bytes(c % 13 for c in range(256))
#: a height vector: one height per foundation, in layout order
Heights = tuple[int, ...]
#: heights alike to a start, each with the heights it was reached from and the move
#: (:meth:`FoundationShuffles.alike`)
Group = dict[Heights, tuple[Heights | None, tuple[int, int] | None]]


class FoundationShuffles:
    """The analysis of one game's positions (see the module's text)."""

    def __init__(self, t: Tables) -> None:
        self.t = t
        self.foundations = list(t.foundations)
        #: per foundation (by its place in ``foundations``): the rank at each height
        self.ranks = [[rule.rank_at(h) for h in range(rule.size)] for rule in t.rules.foundations]
        self.size = [len(r) for r in self.ranks]
        self.packets = list(t.packets)
        #: heights -> the least heights alike (see the module's text)
        self.least: dict[Heights, Heights] = {}
        #: heights -> their :meth:`alike` group and its :class:`_Placements` (a search
        #: meets the same heights often)
        self.groups: dict[Heights, tuple[Group, _Placements]] = {}

    @classmethod
    def of(cls, t: Tables) -> FoundationShuffles:
        """The analysis of ``t``'s game, shared by its searches (its tables of alike
        heights depend on the rules alone, so one search's work serves the next:
        a hint makes dozens of small ones)."""
        got = _SHARED.get(t)
        if got is None:
            got = _SHARED[t] = cls(t)
        return got

    @staticmethod
    def applies(t: Tables) -> bool:
        """True for games whose rules never read a suit and whose foundations give their
        top card to each other (Senior Wrangler): packets to foundations only, no stock,
        columns, hand or reserve."""
        rules = t.rules.foundations
        return (
            bool(t.packets)
            and t.stock < 0
            and not t.columns
            and not t.hand
            and not t.reserve
            and t.turn is Turn.NEXT_PACKET
            and all(not f.follow_suit and f.suit is None and f.to_foundations for f in rules)
        )

    def heights(self, s: State) -> Heights:
        return tuple(len(s.piles[f]) for f in self.foundations)

    def needs(self, h: Heights) -> dict[int, list[int]]:
        """At heights ``h``: each rank that fits on a foundation, with the foundations it
        fits on (by place in ``foundations``, in layout order)."""
        ranks, size = self.ranks, self.size
        need: dict[int, list[int]] = {}
        for b, hb in enumerate(h):
            if hb < size[b]:
                need.setdefault(ranks[b][hb], []).append(b)
        return need

    def _shifts(self, h: Heights) -> list[tuple[int, int]]:
        """The moves of a top card to another foundation from heights ``h``: (from, to)
        by place in ``foundations``. A king never leaves."""
        ranks = self.ranks
        need = self.needs(h)
        out: list[tuple[int, int]] = []
        for a, ha in enumerate(h):
            if not ha:
                continue
            r = ranks[a][ha - 1]
            if r == 12:
                continue
            for b in need.get(r, ()):
                if b != a:
                    out.append((a, b))
        return out

    def alike(self, h: Heights) -> Group:
        """The heights reached from ``h`` by moving top cards between foundations, each
        with the heights it was reached from and the move (a breadth-first search)."""
        seen: Group = {h: (None, None)}
        todo = deque([h])
        while todo:
            here = todo.popleft()
            for a, b in self._shifts(here):
                there = list(here)
                there[a] -= 1
                there[b] += 1
                nxt = tuple(there)
                if nxt not in seen:
                    seen[nxt] = (here, (a, b))
                    todo.append(nxt)
        return seen

    def canonical(self, h: Heights) -> Heights:
        """The least heights alike to ``h``."""
        least = self.least.get(h)
        if least is None:
            group = self.alike(h)
            least = min(group)
            if len(self.least) > 200_000:
                self.least.clear()
            for g in group:
                self.least[g] = least
        return least

    def key(self, s: State) -> bytes:
        """The position without suits, its foundations by their least alike heights:
        packets (ranks, 255 between them), heights, packets dealt."""
        piles = s.piles
        parts = [bytes(piles[p]).translate(_RANKS) for p in self.packets]
        parts.append(bytes(self.canonical(self.heights(s))))
        parts.append(bytes([s.redeals]))
        return b"\xff".join(parts)

    def children(self, s: State) -> list[list[EngineMove]]:
        """The search's moves from ``s``: each placement after the moves between
        foundations that allow it, one per position it leads to; the next packet dealt
        (where some alike heights leave no packet card to play) last."""
        f = self.foundations
        piles = s.piles
        start = self.heights(s)
        got = self.groups.get(start)
        if got is None:
            group = self.alike(start)
            got = (group, _Placements(self, group))
            if len(self.groups) > 20_000:
                self.groups.clear()
            self.groups[start] = got
        group, placements = got
        tops = [(p, piles[p][-1] % 13) for p in self.packets if piles[p]]
        # (the group's order of heights, then the packets', then the foundations')
        found: list[tuple[int, int, int, Heights, int]] = []
        for n, (p, r) in enumerate(tops):
            for i, h, b in placements.of_rank(r):
                found.append((i, n, b, h, p))
        found.sort()
        out = [[*self._path(group, h), (p, f[b], 1)] for _, _, b, h, p in found]
        left = s.redeals_left()
        if left is not None and left > 0:
            stoppage = placements.stoppage(frozenset(r for _, r in tops))
            if stoppage is not None:
                out.append([*self._path(group, stoppage), TURN])
        return out

    def _path(
        self,
        group: Group,
        h: Heights,
    ) -> list[EngineMove]:
        """The moves between foundations that lead from the search's start to ``h``."""
        f = self.foundations
        path: list[EngineMove] = []
        here: Heights | None = h
        while here is not None:
            parent, move = group[here]
            if move is not None:
                path.append((f[move[0]], f[move[1]], 1))
            here = parent
        path.reverse()
        return path


class _Placements:
    """What :meth:`FoundationShuffles.children` needs of one group of alike heights, made
    once per group and rank as the search asks: for a rank, where a card of it can be
    placed from the group's heights (their place in the group, the heights, the
    foundation), one entry per position the placement leads to (by the least heights
    alike to those after it; the first heights in the group's order that lead there);
    and for a set of top ranks, the first heights where none of them fits (the next
    packet is dealt from there)."""

    __slots__ = ("heights", "needs", "ranks", "stops", "view")

    def __init__(self, view: FoundationShuffles, group: Group) -> None:
        self.view = view
        self.heights = list(group)
        #: per heights (group order): :meth:`FoundationShuffles.needs` there
        self.needs = [view.needs(h) for h in self.heights]
        self.ranks: dict[int, list[tuple[int, Heights, int]]] = {}
        self.stops: dict[frozenset[int], Heights | None] = {}

    def of_rank(self, r: int) -> list[tuple[int, Heights, int]]:
        """The placements of a card of rank ``r`` (see the class's text)."""
        got = self.ranks.get(r)
        if got is None:
            got = []
            made: set[Heights] = set()
            for i, (h, need) in enumerate(zip(self.heights, self.needs, strict=True)):
                for b in need.get(r, ()):
                    after = list(h)
                    after[b] += 1
                    least = self.view.canonical(tuple(after))
                    if least not in made:
                        made.add(least)
                        got.append((i, h, b))
            self.ranks[r] = got
        return got

    def stoppage(self, tops: frozenset[int]) -> Heights | None:
        """The first heights (group order) where no rank of ``tops`` fits."""
        if tops in self.stops:
            return self.stops[tops]
        pairs = zip(self.heights, self.needs, strict=True)
        stop = next((h for h, need in pairs if need.keys().isdisjoint(tops)), None)
        if len(self.stops) > 64:
            self.stops.clear()
        self.stops[tops] = stop
        return stop


#: :meth:`FoundationShuffles.of`'s analyses, by tables (one game's rules each)
_SHARED: dict[Tables, FoundationShuffles] = {}
