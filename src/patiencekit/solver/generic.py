"""A solver for any game: depth-first search over the engine's own moves.

It searches the engine's :class:`~patiencekit.state.State` directly, with a
transposition table keyed on a canonical position: interchangeable piles
(columns, hand cells, reserve spaces, foundations with the same rule) are
sorted, so positions that differ only by which of them holds what are one.
Moves are ordered: cards to the foundations first, then moves that turn up
a card or fill a column's top with a king, then the rest, the stock last.
"""

from __future__ import annotations

import sys

from patiencekit.rules import PileKind, Win
from patiencekit.solver.limits import LIMIT_MEMORY, Limits, SearchLimit
from patiencekit.state import Move as EngineMove
from patiencekit.state import State

__all__ = ["GenericSearch", "SearchLimit"]


def kinds_give(kind: PileKind) -> bool:
    """Pile kinds whose cards go only to the foundations in the Patriarchs family."""
    return kind in (PileKind.WASTE, PileKind.RESERVE, PileKind.COLUMN)




class GenericSearch:
    """One search from one position of any game (thoughtful: hidden cards known)."""

    def __init__(
        self,
        state: State,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
        greedy: bool = False,
    ) -> None:
        self.state = state.copy()
        self.greedy = greedy
        t = self.state.t
        self.t = t
        self.seen: set[tuple[object, ...]] = set()
        self.path: list[EngineMove] = []
        self.nodes = 0
        self.max_depth = 0
        self.limits = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        # groups of interchangeable piles, sorted in the key
        groups: list[list[int]] = []
        if t.columns and not any(state.down[i] for i in t.columns):
            groups.append(list(t.columns))
        elif t.columns:
            groups.extend([i] for i in t.columns)
        for piles in (t.hand, t.reserve):
            if piles:
                groups.append(list(piles))
        by_rule: dict[object, list[int]] = {}
        for fi, rule in zip(t.foundations, t.rules.foundations, strict=True):
            by_rule.setdefault(rule, []).append(fi)
        groups.extend(by_rule.values())
        self.sorted_groups = [g for g in groups if len(g) > 1]
        self.fixed = [
            i for i in range(t.pile_count) if not any(i in g for g in self.sorted_groups)
        ]
        self.kings_win = t.win is Win.KINGS_AT_COLUMN_TOPS
        # Patriarchs: per suit its ace and king foundations. While their tops are in
        # sequence they hold one card of every rank between them, whatever their split,
        # and a card of that suit fits after moving cards across; wherever it goes the
        # result is the same position. So the key does not tell the splits apart, and
        # reversals are played only as part of placing a card (a macro move).
        reversal = any(f.to_foundations for f in t.rules.foundations)
        self.pairs: list[tuple[int, int]] = []
        self.givers: list[int] = []
        stock_family = not t.build_columns and not t.hand and not t.packets and t.draw == 1
        if stock_family:
            self.givers = [i for i in range(t.pile_count) if kinds_give(t.kinds[i])]
        if reversal and stock_family:
            rules = t.rules.foundations
            f0 = t.foundations[0]
            ups = {r.suit: f0 + n for n, r in enumerate(rules) if r.step == 1}
            downs = {r.suit: f0 + n for n, r in enumerate(rules) if r.step == -1}
            self.pairs = [(ups[su], downs[su]) for su in ups if su in downs]
            in_pairs = {i for pair in self.pairs for i in pair}
            self.fixed = [i for i in self.fixed if i not in in_pairs]
        # In a one-deck game where cards go only to the foundations (Captured Queens),
        # each card has one place: playing a card its foundation takes at once is never
        # worse. With two decks that is only a good guess (the greedy pass).
        self.forced_sources: set[int] = set()
        if stock_family and (greedy or t.rules.decks == 1):
            self.forced_sources = set(self.givers)

    def key(self) -> tuple[object, ...]:
        """The canonical position (without the score)."""
        s = self.state
        piles = s.piles
        down = s.down
        fixed = tuple((tuple(piles[i]), down[i]) for i in self.fixed)
        grouped = tuple(
            tuple(sorted((tuple(piles[i]), down[i]) for i in g)) for g in self.sorted_groups
        )
        pairs = tuple(
            "seq" if piles[a] and piles[k] and piles[k][-1] % 13 == piles[a][-1] % 13 + 1
            else (tuple(piles[a]), tuple(piles[k]))
            for a, k in self.pairs
        )
        return (fixed, grouped, pairs, s.redeals)

    def _check(self) -> None:
        self.limits.check(len(self.seen))

    def ordered(self, moves: list[EngineMove]) -> list[EngineMove]:
        """Moves best first."""
        t = self.t
        s = self.state
        kinds = t.kinds
        scored: list[tuple[int, int, EngineMove]] = []
        for n, m in enumerate(moves):
            src, dst, count = m
            if src < 0:
                score = 50 if src == -1 else 60
            else:
                sk, dk = kinds[src], kinds[dst]
                if dk is PileKind.FOUNDATION:
                    score = 65 if sk is PileKind.FOUNDATION else 0
                    if self.kings_win and s.piles[src][-1] % 13 == 12:
                        score = 90
                elif sk is PileKind.COLUMN:
                    left = len(s.piles[src]) - count
                    if left and s.down[src] == left:
                        score = 5  # turns a card up
                    elif dk is PileKind.COLUMN and not s.piles[dst]:
                        # to an empty column: a king string from deep in a column is progress
                        score = 10 if left else 80
                    elif not left:
                        score = 15  # empties a column
                    else:
                        score = 30
                elif sk is PileKind.FOUNDATION:
                    score = 70
                else:
                    score = 25
            scored.append((score, n, m))
        scored.sort()
        return [m for _, _, m in scored]

    def _is_reversal(self, m: EngineMove) -> bool:
        kinds = self.t.kinds
        return (
            m[0] >= 0
            and kinds[m[0]] is PileKind.FOUNDATION
            and kinds[m[1]] is PileKind.FOUNDATION
        )

    def _pair_placements(self) -> list[list[EngineMove]]:
        """Cards placed on a suit's in-sequence foundations after moving cards across."""
        piles = self.state.piles
        out: list[list[EngineMove]] = []
        for up, down in self.pairs:
            a, k = piles[up], piles[down]
            if not a or not k or k[-1] % 13 != a[-1] % 13 + 1:
                continue
            suit = a[-1] // 13
            top = a[-1] % 13
            for g in self.givers:
                p = piles[g]
                if not p or p[-1] // 13 != suit:
                    continue
                r = p[-1] % 13
                if r >= 1:  # on the ace foundation, whose top must become r - 1
                    d = (r - 1) - top
                    shift = [(down, up, 1)] * d if d > 0 else [(up, down, 1)] * (-d)
                    target = up
                else:  # an ace goes on the king foundation, above a two
                    d = top  # move the ace foundation down to its base
                    shift = [(up, down, 1)] * d
                    target = down
                if shift:  # (a card that fits as it is is a plain move)
                    out.append([*shift, (g, target, 1)])
        return out

    def _forced(self, moves: list[EngineMove]) -> list[EngineMove]:
        """Only the foundation moves of the first card that a foundation takes, if any
        (one per group of alike foundations)."""
        kinds = self.t.kinds
        first = -1
        out: list[EngineMove] = []
        seen_rules: set[object] = set()
        rules = self.t.rules.foundations
        f0 = self.t.foundations[0]
        for m in moves:
            src, dst, _ = m
            if src in self.forced_sources and kinds[dst] is PileKind.FOUNDATION:
                if first < 0:
                    first = src
                if src == first:
                    rule = (rules[dst - f0], tuple(self.state.piles[dst]))
                    if rule not in seen_rules:
                        seen_rules.add(rule)
                        out.append(m)
        return out

    def children(self) -> list[list[EngineMove]]:
        """The moves to try here, best first; a child may be a short sequence (a macro)."""
        moves = self.state.moves()
        macros: list[list[EngineMove]] = []
        if self.pairs:
            moves = [m for m in moves if not self._is_reversal(m)]
            macros = self._pair_placements()
        if self.pairs and self.greedy:
            # some card goes to a foundation if any can: try each such placement
            kinds = self.t.kinds
            placing = [
                [m] for m in moves
                if m[0] in self.forced_sources and kinds[m[1]] is PileKind.FOUNDATION
            ]
            if placing or macros:
                return placing + macros
        elif self.forced_sources:
            forced = self._forced(moves)
            if forced:
                return [[m] for m in forced]
        return macros + [[m] for m in self.ordered(moves)]

    def search(self) -> bool:
        """Depth-first search; True when a win is found (``path`` holds the line)."""
        self.nodes += 1
        if not self.nodes & 1023:
            self._check()
        s = self.state
        if s.is_won():
            return True
        k = self.key()
        if k in self.seen:
            return False
        self.seen.add(k)
        depth = len(self.path)
        if depth > self.max_depth:
            self.max_depth = depth
        path = self.path
        for child in self.children():
            for m in child:
                s.push(m)
                path.append(m)
            if self.search():
                return True
            for _ in child:
                path.pop()
                s.pop()
        return False

    def run(self) -> tuple[bool | None, str | None]:
        """(True, None) solved, (False, None) unsolvable, (None, limit) undecided."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 50000))
        try:
            return self.search(), None
        except SearchLimit as e:
            return None, e.which
        except RecursionError:
            return None, LIMIT_MEMORY
        finally:
            sys.setrecursionlimit(old)

    def move_texts(self) -> list[str]:
        """The found line in the notation."""
        return [self.t.label_of(m) for m in self.path]
