"""A solver for any game but Klondike, over the engine's own moves.

It searches the engine's :class:`~patiencekit.state.State` directly. Positions
are keyed canonically (packed into ``bytes``): interchangeable piles (columns,
hand cells, reserve spaces, foundations with the same rule) are sorted, so
positions that differ only by which of them holds what are one.

Two kinds of search share the moves and keys:

* the exact one, a depth-first search with a transposition table; moves are
  ordered (cards to the foundations first, then moves that turn up a card or
  fill a column's top with a king, then the rest, the stock last). It alone
  says ``unsolvable`` (or a beam pass that left nothing out). It can stop and
  resume, keeping its table (see :meth:`GenericSearch._dfs`).
* the search for a win: beam passes of doubling width over the game's progress
  (stock cards used, passes, packets dealt), positions of one level ranked by
  cards on the foundations and how soon the open and buried cards can follow
  (see :meth:`GenericSearch._beam`), after a short greedy depth-first search
  that plays cards to the foundations as soon as they fit.

* in PatienceMax, which has no stock to measure progress by, the search for a win
  is best first instead (see :meth:`GenericSearch._best_first`).

The greedy pass (``greedy=True``) only looks for a win; the exact one runs the
depth-first search, the beam (or best-first search), then the depth-first search again.
"""

from __future__ import annotations

import heapq
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence

from patiencekit.compiled import compiled_or_pure
from patiencekit.rules import PileKind, Win
from patiencekit.solver import dead_ends as _pure_dead_ends
from patiencekit.solver.limits import LIMIT_MEMORY, LIMIT_STATES, Limits, SearchLimit
from patiencekit.solver.wrangler import FoundationShuffles
from patiencekit.state import EngineMove, State

__all__ = ["GenericSearch", "SearchLimit"]

#: the dead-end analysis of Patriarchs' family, compiled with mypyc when it was built
#: from ``dead_ends.py`` as it is now (``tools/build_fast.py dead_ends``)
_DEAD_ENDS = compiled_or_pure(
    "patiencekit.solver.dead_ends_fast", _pure_dead_ends, "dead-end analysis"
)
DeadEnds: type[_pure_dead_ends.DeadEnds] = _DEAD_ENDS.DeadEnds
#: the source hash the dead-end analysis in use was compiled from, or ``pure``
DEAD_ENDS_BUILD: str = str(getattr(_DEAD_ENDS, "SOURCE_SHA256", "pure"))

#: a position as immutable data: piles, face-down counts, redeals, score
Snapshot = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int]
#: a line found by the beam: (parent node, the moves from the parent, moves from the root)
Node = tuple["Node | None", tuple[EngineMove, ...], int]
#: a beam candidate: (-score, random tie-break, parent position, parent node, moves)
Entry = tuple[int, float, Snapshot, "Node | None", tuple[EngineMove, ...]]

#: how far ahead the beam's score looks along each foundation
NEAR = 3
#: the widest beam pass (its table holds some hundred thousand positions)
MAX_WIDTH = 2048
#: a beam pass's cost in time grows about as its width to this power (measured: doubling
#: the width of an Odd and Even pass costs 1.8-2.9 times the time; its positions, 2 times)
WIDEN_EXPONENT = 1.1
#: the share of what is left of a budget that a fitted last pass is planned to take
WIDEN_MARGIN = 0.9
#: the narrowest fitted pass worth running (narrower: the budget is left to what follows)
MIN_FIT = 16
#: the greedy pass's share for its restricted depth-first search (then the beam)
GUESS_SHARE = 0.25
#: the exact search's first depth-first slice, as a share of its time
DFS_FIRST = 0.2
#: the same where the best-first search looks for the win (PatienceMax)
DFS_FIRST_BEST_FIRST = 0.05
#: then the beam's (or best-first search's) share of what is left (the depth-first search
#: resumes after)
BEAM_SHARE = 0.75
#: the beam's random tie-breaks are seeded: the same position gives the same search
BEAM_SEED = 2024
#: the best-first search's priority is its distance estimate plus this many times the moves
#: made so far (0: purely greedy; 0.3 won most PatienceMax deals at 2 s, beside 0, 0.5 and 1)
BEST_FIRST_G = 0.3


def kinds_give(kind: PileKind) -> bool:
    """Pile kinds whose cards go only to the foundations in the Patriarchs family."""
    return kind in (PileKind.WASTE, PileKind.RESERVE, PileKind.COLUMN)


def prefers_best_first(state: State) -> bool:
    """True for games whose wins the best-first search finds (building columns and no
    stock: PatienceMax), where the beam over the game's progress has no progress to follow."""
    t = state.t
    return bool(t.build_columns) and t.stock < 0 and not t.packets


def _snapshot(s: State) -> Snapshot:
    """A position as plain tuples (what a beam keeps per position)."""
    return (tuple(map(tuple, s.piles)), tuple(s.down), s.redeals, s.score)


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
        beam_width: int = 2,
        dead: Iterable[State] = (),
    ) -> None:
        self.state = state.copy()
        self.greedy = greedy
        #: the next beam width to try: an exact search that follows a greedy one from the
        #: same position starts where it stopped (the passes are deterministic, so the
        #: narrower ones would find nothing new)
        self.beam_width = beam_width
        t = self.state.t
        self.t = t
        self.seen: set[bytes] = set()
        self.path: list[EngineMove] = []
        #: positions the search must not enter (a hint's game history), by key
        self.dead: frozenset[bytes] = frozenset()
        self.nodes = 0
        self.max_depth = 0
        self.max_seconds = max_seconds
        self.max_states = max_states
        self.max_memory_mb = max_memory_mb
        self.deadline = time.perf_counter() + (max_seconds or 0.0)
        self.overall = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        self.limits = self.overall
        self.root = state.copy()
        self.root_snap = _snapshot(state)
        self.stock0 = len(state.piles[t.stock]) if t.stock >= 0 else 0
        self.open_keys: list[bytes] = []
        self.near_cache: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
        #: the budgets are checked every ``check_mask + 1`` positions
        self.check_mask = 1023
        #: ... and every ``wide_mask + 1`` positions expanded by the beam and the best-first
        #: search (whose positions each make many children)
        self.wide_mask = 255
        # the beam's score: piles whose top card plays, piles where cards lie buried
        self.open_piles = [
            i
            for i in range(t.pile_count)
            if t.kinds[i] in (PileKind.RESERVE, PileKind.HAND, PileKind.PACKET)
            or (t.kinds[i] is PileKind.COLUMN and not t.build_columns)
        ]
        self.buried_piles = [
            i
            for i in range(t.pile_count)
            if t.kinds[i] in (PileKind.WASTE, PileKind.PACKET)
            or (t.kinds[i] is PileKind.COLUMN and not t.build_columns)
        ]
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
        self.fixed = [i for i in range(t.pile_count) if not any(i in g for g in self.sorted_groups)]
        self.kings_win = t.win is Win.KINGS_AT_COLUMN_TOPS
        #: pile -> its group of interchangeable piles
        self.group_of = {i: n for n, g in enumerate(self.sorted_groups) for i in g}
        #: the piles whose filling may complete a win: with all cards to the foundations
        #: only a card arriving on one (a macro ends with it) raises their count; with
        #: the kings at the column tops only a pile put into an empty column changes a
        #: column's top card. (The beam tests only such children for a win.)
        self.win_dsts = frozenset(t.columns if self.kings_win else t.foundations)
        self.foundation_set = frozenset(t.foundations)
        #: kings-at-the-tops games whose foundations never give a card back (PatienceMax)
        self.kings_lost_on_foundations = self.kings_win and not t.fountain_sources
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
        # Where cards go only to the foundations (the stock family without reversal),
        # playing a card to a foundation at once is never worse when every place left
        # for its copies takes it now (see :meth:`_safe`): one deck (Captured Queens),
        # or with two decks when its twin is already placed or both its places are open.
        # Only from piles that nothing refills: the waste of a game without a reserve
        # (Contradance), and the columns (Royal Cotillion's left piles). A reserve card
        # is not: when it leaves, the waste's top card takes its space, and which card
        # that is depends on when it is played (so is the waste's top card where a
        # reserve's refill may take it). Otherwise it is only a good guess (the greedy pass).
        self.forced_sources: set[int] = set()
        fixed_suits = all(r.suit is not None and r.follow_suit for r in t.rules.foundations)
        if stock_family and not self.pairs and (t.rules.decks == 1 or fixed_suits):
            self.forced_sources = {
                i
                for i in self.givers
                if t.kinds[i] is PileKind.COLUMN or (t.kinds[i] is PileKind.WASTE and not t.reserve)
            }
        self.decks = t.rules.decks
        #: waste-only games (Contradance): on the last pass a waste card that can never
        #: go to a foundation blocks every card under it (see :meth:`_dead_top`)
        self.dead_tops = (
            stock_family
            and fixed_suits
            and not self.pairs
            and t.waste >= 0
            and not t.reserve
            and not t.columns
        )
        #: Patriarchs' family: a position with a card buried for ever is lost, and when
        #: the last pass has used up the stock some plays are made at once (dead_ends.py)
        self.dead_ends = DeadEnds(t, self.pairs) if stock_family and DeadEnds.applies(t) else None
        #: the greedy pass's restricted search (``restrict``) plays such a card at
        #: once with two decks too: a guess that finds some wins the beam misses, never
        #: used to say a deal is unsolvable
        self.guess_sources = set(self.givers)
        self.restrict = False
        self.best_first = prefers_best_first(state)
        #: Senior Wrangler: keys without suits, moves between foundations only as part of a
        #: placement (wrangler.py)
        self.shuffles = FoundationShuffles.of(t) if FoundationShuffles.applies(t) else None
        root = self.key()
        self.dead = frozenset(k for d in dead if (k := self.key_of(d)) != root)
        self.seen = set(self.dead)

    def key_of(self, state: State) -> bytes:
        """:meth:`key` of another position of this game."""
        here = self.state
        self.state = state
        try:
            return self.key()
        finally:
            self.state = here

    def key(self) -> bytes:
        """The canonical position (without the score), packed into one ``bytes``.

        Cards are 0..51 and face-down counts and redeals stay below 250, so the
        separators 255 (between piles), 254 (between groups) and 253 (a suit's
        in-sequence foundation pair) never occur as data; every segment has a fixed
        number of piles, so the packing is one-to-one.
        """
        s = self.state
        if self.shuffles is not None:
            return self.shuffles.key(s)
        piles = s.piles
        parts = [s.packed(self.fixed, self.sorted_groups)]  # (compiled, with the position)
        for a, k in self.pairs:
            pa, pk = piles[a], piles[k]
            if pa and pk and pk[-1] % 13 == pa[-1] % 13 + 1:
                parts.append(b"\xfd")
            else:
                parts.append(bytes(pa) + b"\xfe" + bytes(pk))
        parts.append(bytes([s.redeals]))
        return b"\xff".join(parts)

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
            m[0] >= 0 and kinds[m[0]] is PileKind.FOUNDATION and kinds[m[1]] is PileKind.FOUNDATION
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

    def _forced(self, moves: list[EngineMove], sources: set[int]) -> list[EngineMove]:
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
            if src in sources and kinds[dst] is PileKind.FOUNDATION:
                if first < 0:
                    first = src
                if src == first:
                    rule = (rules[dst - f0], tuple(self.state.piles[dst]))
                    if rule not in seen_rules:
                        seen_rules.add(rule)
                        out.append(m)
        return out

    def _safe(self, moves: list[EngineMove]) -> EngineMove | None:
        """A foundation move that is never worse than any other line, if there is one.

        A card ``c`` (on a pile in ``forced_sources``) fits here. Each
        foundation's suit is fixed and its sequence holds each card of that suit once,
        so the copies of ``c`` not yet on a foundation have exactly as many places left,
        and a foundation whose next card is ``c`` keeps waiting for a copy of ``c``. If
        every place left takes ``c`` now (one deck; with two, the twin is placed, or
        the twin is not but both places are open), play it: any winning line from here
        is copied after the move, and every card the line plays is as open in the copy
        (taking ``c`` away from a pile nothing refills only opens cards sooner). With one
        place left, the line's own play of ``c`` there is moved to now.

        With both places open, ``c`` goes to the one with more room. The two are of one
        suit and build by the same step from the same top, so what the shorter one still
        takes is the first part of what the longer one does (Royal Cotillion: from an
        ace up to the queen, from a two up to the king; Contradance's two alike
        foundations are as long). With ``c`` on the longer one, the copy places every
        card where it fits: the longer foundation follows whichever of the line's two
        is further along after ``c``, the shorter one the other. (Put on the shorter
        one, ``c`` may lose a win: the twin can lie under a card that only the longer
        one's end takes.)
        """
        piles = self.state.piles
        found = self.foundation_set
        sources = self.forced_sources
        places: dict[int, set[int]] = {}
        first: dict[int, EngineMove] = {}
        for m in moves:
            src, dst, _ = m
            if src in sources and dst in found:
                c = piles[src][-1]
                places.setdefault(c, set()).add(dst)
                first.setdefault(c, m)
        decks = self.decks
        f_size = self.t.f_size
        for c, dsts in places.items():
            if decks == 1:
                return first[c]
            if len(dsts) >= decks:
                dst = max(sorted(dsts), key=lambda f: f_size[f] - len(piles[f]))
                return (first[c][0], dst, 1)
            placed = sum(piles[f].count(c) for f in found)
            if len(dsts) >= decks - placed:
                return first[c]
        return None

    def _dead_top(self) -> bool:
        """On the last pass of a game where only the waste's top card plays: True when
        that card can never go to a foundation, so the cards under it never play either
        (the position is lost).

        Every place left for the top card ``y`` needs the cards before it in that
        foundation's sequence. The stock's cards will come on top of ``y``; the waste's
        are under it. So a place is closed when a card it needs is nowhere in the stock:
        its unplaced copies, if any, lie under ``y``.
        """
        s = self.state
        t = self.t
        piles = s.piles
        waste = piles[t.waste]
        if not waste:
            return False
        left = s.redeals_left()
        if left is None or left > 0:
            return False
        y = waste[-1]
        stock = piles[t.stock]
        f_next, f_base, f_size = t.f_next, t.f_base, t.f_size
        for fi in t.foundations:
            p = piles[fi]
            acc = f_next[fi][p[-1]] if p else f_base[fi]
            needed: list[int] = []
            for _ in range(f_size[fi] - len(p)):
                if not acc:
                    break
                c = acc[0]
                if c == y:
                    if all(n in stock for n in needed):
                        return False  # this place may still open
                    break
                needed.append(c)
                acc = f_next[fi][c]
        return True

    def children(self, order: bool = True) -> list[list[EngineMove]]:
        """The moves to try here, best first (unless not ``order``); a child may be a
        short sequence (a macro)."""
        if self.shuffles is not None:
            return self.shuffles.children(self.state)
        if self.dead_tops and self._dead_top():
            return []
        # (thorough in the exact depth-first search only: the searches for a win stay fast)
        dead_ends = self.dead_ends
        if dead_ends is not None and dead_ends.lost(self.state, order and not self.greedy):
            return []
        moves = self.state.moves()
        if dead_ends is not None and (plays := dead_ends.endgame_plays(self.state, moves)):
            return [[m] for m in plays]
        if self.group_of:
            # The same cards moved from the same pile to any empty pile of one group
            # of interchangeable piles give positions that differ only by which of
            # them holds the cards: one position under :meth:`key`. One move of each
            # such kind is enough (this is the key's own symmetry, so it stays sound).
            piles = self.state.piles
            group_of = self.group_of
            done: set[tuple[int, int, int]] = set()
            kept: list[EngineMove] = []
            for m in moves:
                g = group_of.get(m[1])
                if g is not None and not piles[m[1]]:
                    same = (g, m[0], m[2])
                    if same in done:
                        continue
                    done.add(same)
                kept.append(m)
            moves = kept
        if self.kings_lost_on_foundations:
            # The kings must end at the column tops and no card ever leaves a foundation
            # here, so a king put on one can never get there: the move loses the deal.
            piles = self.state.piles
            found = self.foundation_set
            moves = [m for m in moves if not (m[1] in found and piles[m[0]][-1] % 13 == 12)]
        macros: list[list[EngineMove]] = []
        if self.pairs:
            moves = [m for m in moves if not self._is_reversal(m)]
            macros = self._pair_placements()
        if self.restrict and self.pairs:
            # some card goes to a foundation if any can: try each such placement
            kinds = self.t.kinds
            placing = [
                [m]
                for m in moves
                if m[0] in self.guess_sources and kinds[m[1]] is PileKind.FOUNDATION
            ]
            if placing or macros:
                return placing + macros
        elif self.restrict:
            forced = self._forced(moves, self.guess_sources)
            if forced:
                return [[m] for m in forced]
        elif self.forced_sources:
            safe = self._safe(moves)
            if safe is not None:
                return [[safe]]
        return macros + [[m] for m in (self.ordered(moves) if order else moves)]

    def search(self) -> bool:
        """Depth-first search; True when a win is found (``path`` holds the line)."""
        self.nodes += 1
        if not self.nodes & self.check_mask:
            self._check()
        s = self.state
        if s.is_won():
            return True
        k = self.key()
        if k in self.seen:
            return False
        self.seen.add(k)
        self.open_keys.append(k)
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
        self.open_keys.pop()
        return False

    def _dfs(self, limits: Limits) -> bool | None:
        """The exact search, resumable: True won, False the whole space was searched,
        None when ``limits`` stopped it (``SearchLimit`` of the overall budget propagates).

        After a stop the positions still open on the line (``open_keys``) leave the
        table again, so it holds only positions whose every child was searched (or is
        in the table itself); a later call from the root searches what is left, and
        when it ends without a win the table is closed under moves: nothing reachable
        wins. Positions in the table are never won (the test comes first).
        """
        self.state = self.root.copy()
        self.path = []
        self.open_keys = []
        won = self._within(limits, self.search)
        if won is None:
            for k in self.open_keys:
                self.seen.discard(k)
        return won

    def _within(self, limits: Limits, search: Callable[[], bool | None]) -> bool | None:
        """``search()`` under ``limits`` (one part's budget): None when the part's own
        time or positions run out; a ``SearchLimit`` of the overall budget (or of
        memory) propagates."""
        self.limits = limits
        try:
            return search()
        except SearchLimit as e:
            if limits is self.overall or e.which == LIMIT_MEMORY:
                raise
            # the part's own budget ran out: the whole search's stops it only if it has too
            self.overall.check(len(self.seen))
            return None
        finally:
            self.limits = self.overall

    @staticmethod
    def _line(node: Node | None, last: Sequence[EngineMove]) -> list[EngineMove]:
        """The moves from the root: those of ``node`` and its parents, then ``last``."""
        line = list(last)
        while node is not None:
            line[:0] = node[1]
            node = node[0]
        return line

    # -- looking for a win: a beam over the stock's progress -------------------------------

    def _level(self) -> int:
        """How far the position is along the game (never smaller after a move, in the
        games this search serves): the stock cards used, passes and packets dealt;
        else the cards on the foundations."""
        s = self.state
        t = self.t
        if t.stock >= 0:
            return s.redeals * 4096 + self.stock0 - len(s.piles[t.stock])
        if t.packets:
            return s.redeals
        return sum(len(s.piles[f]) for f in t.foundations)

    def _score(self) -> int:
        """How promising a position is, to rank positions of the same level (higher
        is better): cards on the foundations above all."""
        s = self.state
        piles = s.piles
        t = self.t
        if self.kings_win:
            score = 0
            for c in t.columns:
                p = piles[c]
                if p and p[0] % 13 == 12:
                    run = 1
                    parents = t.parents
                    while run < len(p) and p[run - 1] in parents[p[run]]:
                        run += 1
                    score += 40 + 4 * run
                elif not p:
                    score += 30
            score += 6 * sum(1 for h in t.hand if not piles[h])
            return score
        fs = t.foundations
        lens = tuple([len(piles[f]) for f in fs])
        score = 16 * sum(lens)
        tops = (lens, tuple([piles[f][-1] for f in fs if piles[f]]))
        near = self.near_cache.get(tops)
        if near is None:
            near = self._near()
            if len(self.near_cache) > 50_000:
                self.near_cache.clear()
            self.near_cache[tops] = near
        # cards ready to play soon in the reserve (and other open piles) are good,
        # buried in the waste (or under other cards) bad, more so on the last pass
        for i in self.open_piles:
            p = piles[i]
            if p:
                score += NEAR - near[p[-1]]
        last = 2 if self.last_pass(s) else 1
        get = near.__getitem__
        for i in self.buried_piles:
            p = piles[i]
            if len(p) > 1:
                score -= last * (NEAR * len(p) - sum(map(get, p)) - NEAR + near[p[-1]])
        if t.build_columns:
            # cards soon wanted under others in the columns, by how deep; free places
            for i in t.build_columns:
                p = piles[i]
                n = len(p)
                if not n:
                    score += 24
                for j in range(n - 1):
                    d = near[p[j]]
                    if d < NEAR:
                        score -= (NEAR - d) * (n - 1 - j)
            score += 8 * sum(1 for h in t.hand if not piles[h])
        return score

    def _near(self) -> list[int]:
        """Per card, how soon it can go to a foundation: 0 now, 1 after one more card...
        (``NEAR``: not soon). It depends only on the foundations (their sizes and tops)."""
        t = self.t
        piles = self.state.piles
        near = [NEAR] * 52
        for fi in t.foundations:
            p = piles[fi]
            room = t.f_size[fi] - len(p)
            acc = t.f_next[fi][p[-1]] if p else t.f_base[fi]
            nxt = t.f_next[fi]
            for d in range(NEAR if room > NEAR else room):
                for c in acc:
                    if near[c] > d:
                        near[c] = d
                if len(acc) != 1:
                    break
                acc = nxt[acc[0]]
        for a, k in self.pairs:  # in sequence, every card of the suit fits
            pa, pk = piles[a], piles[k]
            if pa and pk and pk[-1] % 13 == pa[-1] % 13 + 1:
                base = pa[-1] - pa[-1] % 13
                near[base : base + 13] = [0] * 13
        return near

    def last_pass(self, s: State) -> bool:
        """True when the waste will not be turned again (nor packets dealt)."""
        left = s.redeals_left()
        return left is not None and left <= 0

    def _restore(self, snap: Snapshot) -> State:
        piles, down, redeals, score = snap
        self.state = State(self.t, [list(p) for p in piles], list(down), redeals, score)
        return self.state

    def _beam(self, width: int, rng: random.Random) -> tuple[bool, bool]:
        """One beam pass: at each level (see :meth:`_level`) at most ``width`` positions
        are expanded, best first by :meth:`_score` (ties at random); positions seen
        before in the pass are skipped. Returns (won, pruned): with a win ``path``
        holds the line; ``pruned`` is False when no position was ever left out.

        Soundness: the moves are the exact search's (:meth:`children`: no forced
        play with two decks), each new position is tested for a win when made, and a
        position is skipped only when its key was made before in this pass (it is, or
        will be, expanded). So a pass that left nothing out expanded every reachable
        position: no win exists. Leaving positions out only loses wins, never makes
        one: every line found is made of legal moves from the root."""
        self._restore(self.root_snap)
        if self.state.is_won():
            self.path = []
            return True, False
        seen = {self.key()} | self.dead
        win_dsts = self.win_dsts
        if self.greedy:  # (the exact search's table is its own)
            self.seen = seen
        buckets: dict[int, list[Entry]] = {}
        levels: list[int] = []
        first = self._level()
        buckets[first] = [(0, 0.0, self.root_snap, None, ())]
        levels.append(first)
        pruned = False
        while levels:
            level = heapq.heappop(levels)
            cands = buckets.pop(level)
            heapq.heapify(cands)
            left = width
            while cands:
                if not left:
                    pruned = True
                    break
                left -= 1
                _, _, snap, parent, moves = heapq.heappop(cands)
                s = self._restore(snap)
                for m in moves:
                    s.push(m)
                depth = len(moves) + (parent[2] if parent is not None else 0)
                if depth > self.max_depth:
                    self.max_depth = depth
                node: Node = (parent, moves, depth)
                self.nodes += 1
                if not self.nodes & self.wide_mask:
                    self.limits.check(self.nodes)
                here = _snapshot(s)
                for child in self.children(order=False):
                    for m in child:
                        s.push(m)
                    if child[-1][1] in win_dsts and s.is_won():
                        self.path = self._line(node, child)
                        return True, pruned
                    k = self.key()
                    if k not in seen:
                        seen.add(k)
                        entry = (-self._score(), rng.random(), here, node, tuple(child))
                        lv = self._level()
                        if lv == level:
                            heapq.heappush(cands, entry)
                        else:
                            bucket = buckets.get(lv)
                            if bucket is None:
                                buckets[lv] = [entry]
                                heapq.heappush(levels, lv)
                            else:
                                bucket.append(entry)
                    for _ in child:
                        s.pop()
        return False, pruned

    def _distance(self) -> int:
        """The best-first search's estimate of how far the position is from a win (lower
        is nearer): cards still to go to the foundations, cards lying above a lower card
        of their suit in a column (each must move away first), full hand cells; with the
        kings to end at the column tops (PatienceMax), the kings not there yet count
        most, and a king above other cards counts as such a card too."""
        t = self.t
        piles = self.state.piles
        decks = t.rules.decks
        on = sum([len(piles[f]) for f in t.foundations])
        kings = self.kings_win
        h = (48 * decks - on) if kings else 2 * (52 * decks - on)
        based = 0
        for c in t.columns:
            p = piles[c]
            if not p:
                continue
            if kings and p[0] % 13 == 12:
                based += 1
            low: dict[int, int] = {}
            for j, card in enumerate(p):
                suit, rank = divmod(card, 13)
                if kings and rank == 12:
                    if j:
                        h += 3
                    continue
                m = low.get(suit)
                if m is None or rank < m:
                    low[suit] = rank
                elif m < rank:
                    h += 1
        if kings:
            h += 8 * (4 * decks - based)
        return h + sum([1 for x in t.hand if piles[x]])

    def _best_first(self, limits: Limits) -> bool | None:
        """A best-first search for a win: the position with the lowest :meth:`_distance`
        plus ``BEST_FIRST_G`` times its depth is expanded first, every position once.

        True: won (``path`` holds the line); False: every reachable position was
        expanded (no win exists, as with the depth-first search: same moves, same keys);
        None when ``limits`` stopped it (``SearchLimit`` of the overall budget
        propagates)."""
        return self._within(limits, self._best_first_search)

    def _best_first_search(self) -> bool:
        """The body of :meth:`_best_first` (under its limits)."""
        s = self._restore(self.root_snap)
        if s.is_won():
            self.path = []
            return True
        seen = {self.key()} | self.dead
        if self.greedy:  # (the exact search's table is its own)
            self.seen = seen
        heap: list[tuple[float, int, Snapshot, Node | None, int]] = [
            (float(self._distance()), 0, self.root_snap, None, 0)
        ]
        made = 0
        while heap:
            _, _, snap, here, depth = heapq.heappop(heap)
            s = self._restore(snap)
            self.nodes += 1
            if not self.nodes & self.wide_mask:
                self.limits.check(len(seen))
            if depth > self.max_depth:
                self.max_depth = depth
            for child in self.children(order=False):
                for m in child:
                    s.push(m)
                if s.is_won():
                    self.path = self._line(here, child)
                    return True
                k = self.key()
                if k not in seen:
                    seen.add(k)
                    made += 1
                    node: Node = (here, tuple(child), depth + 1)
                    priority = self._distance() + BEST_FIRST_G * (depth + 1)
                    heapq.heappush(heap, (priority, made, _snapshot(s), node, depth + 1))
                for _ in child:
                    s.pop()
        return False

    def _share(self, amount: float) -> Limits:
        """The budget of one part of the search: ``amount`` seconds and the whole search's
        positions and memory; or, when the search has no time budget, ``amount``
        positions (so that a positions budget is split among the parts as a time budget
        is, and the same positions budget gives the same search on any machine)."""
        if self.max_seconds is None:
            return Limits(max_states=max(1, int(amount)), max_memory_mb=self.max_memory_mb)
        return Limits(
            max_seconds=amount, max_states=self.max_states, max_memory_mb=self.max_memory_mb
        )

    def _room(self, limits: Limits, cost: tuple[int, float]) -> float | None:
        """How many times wider than the pass that cost ``cost`` (positions, seconds) a
        pass can be and still end within ``WIDEN_MARGIN`` of what is left of ``limits``
        and of the whole search's budget (None: no budget)."""
        nodes, seconds = cost
        rooms: list[float] = []
        for lim in (limits, self.overall):
            if lim.deadline is not None and seconds > 0:
                left = max(0.0, lim.deadline - time.perf_counter())
                rooms.append((WIDEN_MARGIN * left / seconds) ** (1 / WIDEN_EXPONENT))
            if lim.max_states is not None and nodes > 0:
                rooms.append(WIDEN_MARGIN * (lim.max_states - self.nodes) / nodes)
        return min(rooms) if rooms else None

    def _widen(self, limits: Limits, rng: random.Random, start: int = 2) -> bool | None:
        """Beam passes of doubling width from ``start`` until a win, a pass that left
        nothing out (then the whole space was searched: False), or ``limits`` (None).

        A pass that cannot end within what is left wins nothing (a beam wins only at
        its last level), so each pass after a failed one is made to fit: when doubling
        would not fit (a pass costs about ``width ** WIDEN_EXPONENT`` in time and
        ``width`` in positions, as the last one cost), the widest pass that fits runs
        instead, if it is at least ``MIN_FIT`` wide. Past ``MAX_WIDTH`` the passes stay
        at that width while the budget lasts, each with new tie-breaks (other positions
        at the beam's edge); with no budget at all the widest pass is the last. Under a
        positions budget the widths follow from positions alone: the same budget, the
        same passes on any machine."""

        def passes() -> bool | None:
            width = start
            self.beam_width = width
            while True:
                nodes, began = self.nodes, time.perf_counter()
                won, pruned = self._beam(width, rng)
                if won:
                    return True
                if not pruned:
                    return False
                room = self._room(limits, (self.nodes - nodes, time.perf_counter() - began))
                doubled = min(2 * width, MAX_WIDTH)
                if room is None:
                    if width >= MAX_WIDTH:
                        return None
                    width = doubled
                elif width * room >= doubled:
                    width = doubled
                elif width * room >= MIN_FIT:
                    width = int(width * room)
                else:
                    self.beam_width = doubled
                    return None
                self.beam_width = width

        return self._within(limits, passes)

    def run(self) -> tuple[bool | None, str | None]:
        """(True, None) solved, (False, None) unsolvable, (None, limit) undecided.

        The greedy search spends its whole budget looking for a win (beam passes of
        growing width; best first in PatienceMax). The exact search first runs the
        depth-first search for part of its time (small spaces are decided there), then
        looks for a win the same way, then resumes the depth-first search with what is
        left. The parts share the budget by time, or, when the search has only a
        positions budget, by positions (each part a share of it), so a positions budget
        runs the same parts and gives the same verdict on any machine.
        """
        if (
            not self.greedy
            and self.dead_ends is not None
            and self.dead_ends.left_piles_lost(self.state)
        ):
            return False, None  # (Royal Cotillion's left piles: see dead_ends.py)
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 50000))
        rng = random.Random(BEAM_SEED + (0 if self.greedy else 1))
        try:
            if self.greedy and self.best_first:
                won = self._best_first(self.overall)
                return won, None if won is not None else LIMIT_STATES
            # the budget the parts share: seconds, else positions
            total = self.max_seconds if self.max_seconds is not None else self.max_states
            if self.greedy:
                if total is not None and self.guess_sources:
                    # first a short depth-first search that plays cards to the
                    # foundations as soon as they fit (its failure proves nothing)
                    self.restrict = True
                    won = self._dfs(self._share(total * GUESS_SHARE))
                    self.restrict = False
                    if won:
                        return True, None
                    self.seen = set(self.dead)
                won = self._widen(self.overall, rng)
                return won, None if won is not None else LIMIT_STATES
            if total is None:
                won = self._dfs(self.overall)
            else:
                # (a dead deal is decided at once; the best-first search finds the wins)
                first = DFS_FIRST_BEST_FIRST if self.best_first else DFS_FIRST
                won = self._dfs(self._share(total * first))
                if won is None:
                    # what is left of the time; a positions budget is of positions kept
                    # at once, which each part has whole
                    left = (
                        self.deadline - time.perf_counter()
                        if self.max_seconds is not None
                        else total
                    )
                    share = self._share(left * BEAM_SHARE)
                    if self.best_first:
                        won = self._best_first(share)
                    else:
                        won = self._widen(share, rng, start=self.beam_width)
                    if won is False:
                        return False, None
                if won is None:
                    won = self._dfs(self.overall)
            return won, None
        except SearchLimit as e:
            return None, e.which
        except RecursionError:
            return None, LIMIT_MEMORY
        finally:
            sys.setrecursionlimit(old)

    def move_texts(self) -> list[str]:
        """The found line in the notation."""
        return [self.t.label_of(m) for m in self.path]
