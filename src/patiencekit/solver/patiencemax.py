"""A compact search for PatienceMax (both wins: the kings at the column tops, or all to
the piles).

PatienceMax deals every card face up and has no stock, so a position is all in three
things: the ten columns (which column holds what changes nothing: they are kept sorted),
the hand as a set, and per suit the heights of its two foundations (which of the eight
foundations a suit took changes nothing either). This search packs a position into one
``bytes`` (:func:`pack`) and plays its moves on it, many times faster than the generic
search over the engine's piles.

It looks for a win best first, as the generic search does in PatienceMax: the position
with the lowest distance estimate (:meth:`PatienceMaxSearch.distance`) plus :data:`G`
times its moves is expanded first, every position once. How soon one such search finds a
win depends much on its luck with ties, so it makes several runs in rounds instead
(:meth:`PatienceMaxSearch.run`): each run its own search with its own tie-breaks and
weights in the estimate (:data:`RUNS`), going on in each round where it stopped, for
twice the positions it had in the last; after each round one long run (:data:`LONG_RUN`)
goes on for longer. A run that expands every reachable position without a win proves
there is none. Eight more runs a round look for a position on the way instead, and a
short search finishes from there (:meth:`PatienceMaxSearch.run`): all to the piles, the
kings at the column tops (as the kings' search does), with the kings at the tops, every
other card on the foundations (as the search all to the piles does); each is often a few
moves from a win that the game's own estimate does not see coming.

One kind of move is made at once, without a choice: a card goes to a foundation when
nothing could ever be built on it any more (:meth:`PatienceMaxSearch.settle`; never a
king when the kings are to end at the column tops). That is sound: the position with
the card on the foundation can do all the other one can. The card could only ever move
to a foundation, into the hand, onto another column or stay; on a column or in the hand
it can only later go on to a foundation or be built on, and nothing is left to build on
it (every card of the rank below in the other colour is on the foundations already, and
cards never leave them); the cards it leaves uncovered are the same either way. So no
win is lost. The line found is played on the engine before it is given
(:meth:`PatienceMaxSearch.engine_moves`).

>>> from patiencekit import new_game
>>> search = PatienceMaxSearch(new_game("patiencemax-all-to-piles", 1).state, max_states=200_000)
>>> search.run()
(True, None)
>>> len(search.move_texts()) > 100
True
"""

from __future__ import annotations

import heapq
import random
from typing import Any, Final

from patiencekit.compiled import native_module
from patiencekit.rules import Win
from patiencekit.solver.limits import LIMIT_MEMORY, Limits, SearchLimit
from patiencekit.solver.lines import Line, unwind
from patiencekit.state import EngineMove, State

__all__ = ["G", "PatienceMaxSearch", "pack"]

#: the priority is the distance estimate plus this many times the moves made so far (as
#: the generic search's ``BEST_FIRST_G``)
G = 0.3
#: the runs of a round: (seed of the random tie-breaks, weight of the next cards' depth
#: and, with the kings to end at the column tops, of the cards to clear away in the
#: distance estimate); each run is a fresh best-first search
#: (eight runs, 2026-12-06: on the 97 deals of 1-1,000 that four runs and the generic search
#: left undecided at 10 s, the C runs alone for 10 s won 15 with the first four of these,
#: 30 with all eight, 38 with sixteen; on the 167 they had solved in 1-200, eight missed
#: one, sixteen three or four)
RUNS = (
    (1, 1, 2), (2, 1, 0), (3, 0, 3), (4, 1, 4), (5, 2, 2), (6, 1, 1), (7, 0, 1), (8, 2, 4),
)
#: the positions each run expands in the first round; each round doubles it
FIRST_RUN = 4096
#: the long run (:meth:`PatienceMaxSearch.run`): (seed, weight of the next cards' depth,
#: weight of the cards to clear away), as in :data:`RUNS`
LONG_RUN = (1, 0, 0)
#: after each round the long run goes on for this many times the round's room (8: as many
#: positions as the round's eight runs together. 2026-12-06, on 107 deals of 1-1,000 (the
#: 55 a full study at 10 s left undecided, and the 52 it took over 2 s to decide), the
#: compact search alone for 9.5 s: 4 decided 53, 8 52, 16 47)
LONG_ROOM = 8
#: positions a finishing search (:meth:`PatienceMaxSearch.run`) may expand from a
#: position on the way (2026-12-06: from the kings' wins on 38 deals the search had left
#: undecided all to the piles, it won 37 all to the piles, all but one within 40
#: positions and that one within 2,300)
FINISH_ROOM = 50_000
#: how many of :data:`RUNS` (the first) look for a position on the way
#: (:meth:`PatienceMaxSearch.run`) with the kings at the tops, and all to the piles
#: (2026-12-06, deals 1-1,000, the compact search alone at 9.5 s: with the kings, 4 of
#: them decided 963, where the study at 10 s with 8 decided 956; all to the piles, 4
#: decided 954, the study with 8 957)
BY_WAY_KINGS = 4
BY_WAY_PILES = 8
#: the separator between the hand and the columns in a packed position (no card is 255)
_SEP = 255
#: where a move goes or comes from, besides a column (0..9)
_HAND = 10
_FOUNDATION = 11
#: the best-first run in C (``patiencemax_native.c``, built by ``tools/build_fast.py
#: patiencemax_native``) when it was built from that file as it is now, else None: then
#: :class:`_Run` runs in Python. Both expand the same positions in
#: the same order and find the same line.
_NATIVE: Final[Any] = native_module(
    "patiencekit.solver.patiencemax_native", "patiencemax_native.c",
    "PatienceMax best-first run",
)
#: which best-first run runs: the sha256 of the C file the native one was built from, or
#: ``"python"``
NATIVE_BUILD: Final[str] = str(_NATIVE.SOURCE_SHA256) if _NATIVE is not None else "python"


def pack(heights: bytes, hand: bytes, columns: list[bytes]) -> bytes:
    """A position as one ``bytes``: the eight foundation heights (per suit the lower
    first), the hand sorted, then the columns sorted, each after a separator."""
    out = bytearray(heights)
    out += bytes(sorted(hand))
    for c in sorted(columns):
        out.append(_SEP)
        out += c
    return bytes(out)


def unpack(pos: bytes) -> tuple[bytes, bytes, list[bytes]]:
    """The heights, hand and columns of a packed position (:func:`pack`)."""
    parts = pos[8:].split(bytes((_SEP,)))
    return pos[:8], parts[0], parts[1:]


class PatienceMaxSearch:
    """The best-first search from one PatienceMax position (:meth:`applies`)."""

    def __init__(
        self,
        state: State,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
        native: bool = True,
        kings: bool | None = None,
        all_but_kings: bool = False,
    ) -> None:
        if not self.applies(state):
            raise ValueError(f"{state.t.rules.id}: not PatienceMax")
        #: the C best-first run (:data:`_NATIVE`) when it is built and ``native``, else
        #: None (the Python one)
        self.native: Any = _NATIVE if native else None
        t = state.t
        self.t = t
        self.root_state = state.copy()
        #: no king goes to a foundation; and what the search looks for: the eight kings
        #: at the column tops (the game's win, or ``kings=True``: on the way to a win all
        #: to the piles), or, not :attr:`kings`, all to the piles
        self.kings = (
            t.win is Win.KINGS_AT_COLUMN_TOPS if kings is None else kings
        ) or all_but_kings
        #: ``all_but_kings``: what the search looks for is every card but the kings on
        #: the foundations (on the way to the kings at the tops; no king goes there), by
        #: the estimate all to the piles
        self.all_but_kings = all_but_kings
        #: the kings at the column tops are what the search looks for
        self.kings_goal = self.kings and not all_but_kings
        #: the search looks for another win than the game's (``kings``, ``all_but_kings``)
        self.waypoint = self.kings_goal != (t.win is Win.KINGS_AT_COLUMN_TOPS)
        #: with a win found from a position on the way (:attr:`waypoint`): the moves there
        #: and the search that went on from there (:meth:`engine_moves` plays both)
        self.prefix: list[EngineMove] = []
        self.finisher: PatienceMaxSearch | None = None
        self.hand_size = len(t.hand)
        self.cost_cache: dict[bytes, int] = {}
        self.need_cache: dict[bytes, list[int]] = {}
        self.root = self.settle(_packed(state), [])
        self.limits = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        self.nodes = 0
        self.max_depth = 0
        #: the most positions one run held
        self.kept = 0
        #: the runs made
        self.runs = 0
        #: the weight of the next cards' depth in :meth:`distance` (the run's)
        self.w_next = 0
        #: the weight of the cards to clear away in :meth:`distance` (the run's)
        self.w_clear = 0
        #: the winning line's compact moves, after :meth:`run` found one (with a finishing
        #: search, :attr:`finisher`: the run's on the way, then the finisher's)
        self.path: list[int] = []
        #: runs that look for a position on the way first (:meth:`run`); not in a
        #: finishing search
        self.by_way = not self.waypoint

    @staticmethod
    def applies(state: State) -> bool:
        """True for positions of PatienceMax and PatienceMax (all to piles)."""
        return state.t.rules.id in ("patiencemax", "patiencemax-all-to-piles")

    # -- the rules on packed positions ---------------------------------------------------

    def won(self, pos: bytes) -> bool:
        """Whether the packed position is won."""
        hs, _, cols = unpack(pos)
        return self._won(hs, cols)

    def _won(self, h: bytes, cols: list[bytes]) -> bool:
        """:meth:`won`, from the heights and the columns."""
        if self.kings_goal:
            return sum(1 for c in cols if c and c[0] % 13 == 12) == 8
        return sum(h) == (96 if self.all_but_kings else 104)

    def safe_cards(self, h: bytes | bytearray) -> list[int]:
        """The cards that fit a foundation with heights ``h`` and that nothing can be
        built on any more (the module's text): every card of the rank below in the other
        colour is on the foundations, and cards never leave them."""
        out: list[int] = []
        black_floor = min(h[0], h[2])  # (both copies of both black suits' ranks below)
        red_floor = min(h[4], h[6])
        for s in range(4):
            floor = red_floor if s < 2 else black_floor
            for r in (h[2 * s], h[2 * s + 1]):
                if r > 12 or (r == 12 and self.kings):
                    continue
                if r <= 1 or floor >= r:
                    out.append(s * 13 + r)
        return out

    def settle(self, pos: bytes, moves: list[int]) -> bytes:
        """``pos`` with every card that nothing can be built on any more moved to the
        foundations (the module's text), each move added to ``moves``."""
        hs, hand, cols = unpack(pos)
        h = bytearray(hs)
        left = self._settle(h, hand, cols, moves)
        return pos if left is None else pack(bytes(h), left, cols)

    def _settle(
        self, h: bytearray, hand: bytes, cols: list[bytes], moves: list[int]
    ) -> bytes | None:
        """Settle ``h`` and ``cols`` in place: the hand left, or None if no card moved."""
        moved = False
        left = bytearray(hand)
        safe = self.safe_cards(h)
        while safe:
            found = False
            for i in range(len(cols)):
                c = cols[i]
                if c and c[-1] in safe:
                    card = c[-1]
                    _found(h, card)
                    cols[i] = c[:-1]
                    moves.append(i | _FOUNDATION << 4 | 1 << 8 | card << 16)
                    found = True
                    break
            if not found:
                for j in range(len(left)):
                    card = left[j]
                    if card in safe:
                        _found(h, card)
                        del left[j]
                        moves.append(_HAND | _FOUNDATION << 4 | 1 << 8 | card << 16)
                        found = True
                        break
            if not found:
                break
            moved = True
            safe = self.safe_cards(h)
        return bytes(left) if moved else None

    def column_cost(self, p: bytes) -> int:
        """A column's part of :meth:`distance`: its cards lying above a lower card of
        their suit (and, with the kings to end at the column tops, 3 for each king above
        other cards, and -8 when a king is at its top)."""
        cost = self.cost_cache.get(p)
        if cost is not None:
            return cost
        kings = self.kings_goal
        cost = 0
        if kings and p and p[0] % 13 == 12:
            cost -= 8
        low = [13, 13, 13, 13]
        for j in range(len(p)):
            card = p[j]
            s = card // 13
            r = card % 13
            if kings and r == 12:
                if j:
                    cost += 3
                continue
            m = low[s]
            if r < m:
                low[s] = r
            elif m < r:
                cost += 1
        if len(self.cost_cache) > 1_000_000:
            self.cost_cache.clear()
        self.cost_cache[p] = cost
        return cost

    def _finish(
        self, h: bytes, raised: bool, hand: bytes, cols: list[bytes], exposed: int
    ) -> tuple[bytes, int, bool]:
        """A child position packed and settled, with its :meth:`distance` and whether it
        is won (:meth:`won`, from the parts); ``exposed`` is the card the move left at the
        end of a column (-1 none), the only one that may have become safe unless the
        foundations were ``raised``."""
        if raised or (exposed >= 0 and exposed in self.safe_cards(h)):
            hb = bytearray(h)
            left = self._settle(hb, hand, cols, [])
            if left is not None:
                hand = left
            h = bytes(hb)
        return pack(h, hand, cols), self._distance(h, hand, cols), self._won(h, cols)

    def _distance(self, h: bytes, hand: bytes, cols: list[bytes]) -> int:
        on = sum(h)
        d = (96 - on + 64) if self.kings_goal else 2 * (104 - on)
        for p in cols:
            d += self.column_cost(p)
        if self.kings_goal and self.w_clear:
            # the cards to clear away from columns with no king at the top, but for the
            # two fullest such columns (ten columns, eight kings)
            sizes = sorted([len(p) for p in cols if not p or p[0] % 13 != 12])
            d += self.w_clear * sum(sizes[:-2])
        w = self.w_next
        if w:
            # the cards the foundations take next: how many cards lie on them (on the
            # nearer copy, or on both when both foundations of the suit take the card;
            # none on a card in the hand)
            need = self._need(h)
            best = [0] * 52
            second = [0] * 52
            for p in cols:
                n = len(p)
                for j in range(n):
                    c = p[j]
                    if need[c]:
                        x = n - j  # (one more than the cards on it)
                        b = best[c]
                        if b == 0 or x < b:
                            second[c] = b
                            best[c] = x
                        elif second[c] == 0 or x < second[c]:
                            second[c] = x
            for c in range(52):
                k = need[c]
                if k:
                    b = best[c]
                    if b:
                        d += w * (b - 1)
                    if k == 2:
                        b = second[c]
                        if b:
                            d += w * (b - 1)
        return d + len(hand)

    def _need(self, h: bytes) -> list[int]:
        """Per card, how many foundations with heights ``h`` take it next."""
        need = self.need_cache.get(h)
        if need is None:
            need = [0] * 52
            for su in range(4):
                for r in (h[2 * su], h[2 * su + 1]):
                    if r < 13:
                        need[su * 13 + r] += 1
            if len(self.need_cache) > 100_000:
                self.need_cache.clear()
            self.need_cache[h] = need
        return need

    def children(self, pos: bytes) -> list[tuple[int, bytes, int, bool]]:
        """The moves from ``pos``, the positions they make (settled: :meth:`settle`),
        their :meth:`distance` and whether they are won; a move is
        ``source | destination << 4 | count << 8 | card << 16`` with columns numbered as
        in ``pos``, the hand ``_HAND`` and the foundations ``_FOUNDATION``."""
        hs, hand, cols = unpack(pos)
        kings = self.kings
        out: list[tuple[int, bytes, int, bool]] = []
        n = len(cols)
        # runs: per column the length of the string at its end that moves as a unit
        runs = [0] * n
        for i in range(n):
            c = cols[i]
            k = len(c)
            if k:
                j = k - 1
                while j > 0:
                    a, b = c[j - 1], c[j]
                    if a % 13 != b % 13 + 1 or (a >= 26) == (b >= 26):
                        break
                    j -= 1
                runs[i] = k - j
        room = len(hand) < self.hand_size
        empty = -1
        for i in range(n):
            if not cols[i]:
                empty = i
                break
        for i in range(n):
            src = cols[i]
            k = len(src)
            if not k:
                continue
            last = src[-1]
            lr = last % 13
            below = src[-2] if k > 1 else -1
            # to a foundation
            s = last // 13
            if (hs[2 * s] == lr or hs[2 * s + 1] == lr) and not (kings and lr == 12):
                h = bytearray(hs)
                _found(h, last)
                new = cols[:]
                new[i] = src[:-1]
                child, d, won = self._finish(bytes(h), True, hand, new, below)
                out.append((i | _FOUNDATION << 4 | 1 << 8 | last << 16, child, d, won))
            # strings onto other columns
            run = runs[i]
            for j in range(n):
                if j == i:
                    continue
                dst = cols[j]
                if not dst:
                    continue
                top = dst[-1]
                cnt = top % 13 - lr
                if cnt < 1 or cnt > run:
                    continue
                head = src[k - cnt]
                if (head >= 26) == (top >= 26):
                    continue
                new = cols[:]
                new[i] = src[: k - cnt]
                new[j] = dst + src[k - cnt :]
                exposed = src[k - cnt - 1] if k > cnt else -1
                child, d, won = self._finish(hs, False, hand, new, exposed)
                out.append((i | j << 4 | cnt << 8 | head << 16, child, d, won))
            # a string headed by a king to an empty column (not a whole column)
            if empty >= 0:
                cnt = 12 - lr + 1
                if cnt <= run and cnt < k:
                    new = cols[:]
                    new[i] = src[: k - cnt]
                    new[empty] = src[k - cnt :]
                    child, d, won = self._finish(hs, False, hand, new, src[k - cnt - 1])
                    out.append((i | empty << 4 | cnt << 8 | src[k - cnt] << 16, child, d, won))
            # into the hand
            if room:
                new = cols[:]
                new[i] = src[:-1]
                child, d, won = self._finish(hs, False, hand + bytes((last,)), new, below)
                out.append((i | _HAND << 4 | 1 << 8 | last << 16, child, d, won))
        prev = -1
        for x in range(len(hand)):
            card = hand[x]
            if card == prev:
                continue  # (alike copies: one move)
            prev = card
            rest = hand[:x] + hand[x + 1 :]
            r = card % 13
            s = card // 13
            if (hs[2 * s] == r or hs[2 * s + 1] == r) and not (kings and r == 12):
                h = bytearray(hs)
                _found(h, card)
                child, d, won = self._finish(bytes(h), True, rest, cols[:], -1)
                out.append((_HAND | _FOUNDATION << 4 | 1 << 8 | card << 16, child, d, won))
            for j in range(n):
                dst = cols[j]
                if dst:
                    top = dst[-1]
                    if top % 13 != r + 1 or (top >= 26) == (card >= 26):
                        continue
                elif r != 12:
                    continue
                elif j != empty:
                    continue  # (empty columns are alike: one move)
                new = cols[:]
                new[j] = dst + bytes((card,))
                child, d, won = self._finish(hs, False, rest, new, -1)
                out.append((_HAND | j << 4 | 1 << 8 | card << 16, child, d, won))
        return out

    def distance(self, pos: bytes) -> int:
        """How far the position is from a win (lower is nearer), as the generic search's
        estimate: cards still to go to the foundations, cards lying above a lower card
        of their suit in a column, full hand cells; with the kings to end at the column
        tops, the kings not there yet count most, and a king above other cards counts as
        such a card too."""
        hs, hand, cols = unpack(pos)
        return self._distance(hs, hand, cols)

    # -- the search --------------------------------------------------------------------

    def run(self) -> tuple[bool | None, str | None]:
        """(True, None) with a win, (False, None) when every reachable position was
        expanded without one, (None, which limit) otherwise.

        Rounds of best-first runs (:data:`RUNS`), each run its own search with its own
        tie-breaks and estimate, each going on in each round where it stopped in the
        last, for twice the positions it had in the last (:data:`FIRST_RUN` in the
        first): one search's luck with ties decides much of how soon it finds a win, so
        several searches find more wins than one. After each round the long run
        (:data:`LONG_RUN`) goes on where it stopped, for :data:`LONG_ROOM` times the
        round's room. A run's positions come in the same order however its room is cut
        up (a run with its seed and weights is one search), so a run that goes on does
        what a fresh one with all its room would, without expanding its first positions
        again. A run that expands every reachable position proves no win.

        All to the piles, the round has eight more runs (:data:`RUNS` again,
        :data:`BY_WAY_PILES`), after the others and before the long run, that look for
        the eight kings at the column tops instead (as in the kings' game: no king to a
        foundation), each for the round's room: such a position is often much nearer a
        win all to the piles than the estimate says, and the kings' search finds it
        sooner. When one of them reaches it, a search all to the piles goes on from
        there for at most :data:`FINISH_ROOM` positions (:attr:`finisher`); its win is
        the search's. These runs only find wins: a run of them that expands every
        position it can reach proves nothing (a win all to the piles need not pass the
        kings at the tops), and it stops. With the kings at the tops, four more runs
        (the first four of :data:`RUNS`, :data:`BY_WAY_KINGS`) look for every card but
        the kings on the foundations instead (no king goes there; the estimate all to
        the piles), from where the kings alone are soon at the tops: the deals won all
        to the piles are often those the kings' runs find hard."""
        if self.won(self.root):
            self.path = []
            return True, None
        try:
            room = FIRST_RUN
            runs: list[_Run] = []
            for seed, w_next, w_clear in (*RUNS, LONG_RUN):
                runs.append(_Run(self, seed, w_next, w_clear))
                self.runs += 1
            long = runs.pop()
            helper: PatienceMaxSearch | None = None
            by_way: list[_Run] = []
            if self.by_way:
                helper = PatienceMaxSearch(
                    self.root_state,
                    native=self.native is not None,
                    kings=not self.kings,
                    all_but_kings=self.kings,
                )
                helper.limits = self.limits
                for seed, w_next, w_clear in RUNS[: BY_WAY_KINGS if self.kings else BY_WAY_PILES]:
                    by_way.append(_Run(helper, seed, w_next, w_clear))
                    self.runs += 1
            while True:
                for one in runs:
                    won = one.go(self.nodes + room)
                    if won is not None:
                        return won, None
                if helper is not None:
                    for one in by_way:
                        if not one.over and self._by_way_go(helper, one, self.nodes + room):
                            return True, None
                won = long.go(self.nodes + LONG_ROOM * room)
                if won is not None:
                    return won, None
                room *= 2
        except SearchLimit as e:
            return None, e.which
        except MemoryError:
            return None, LIMIT_MEMORY

    def _by_way_go(self, helper: PatienceMaxSearch, one: _Run, end: int) -> bool:
        """A run of :meth:`run` that looks for a position on the way (its search
        ``helper``) goes on until ``end``; when it reaches it, the finishing search from
        there: True when that wins."""
        helper.nodes = self.nodes
        try:
            reached = one.go(end)
        finally:
            self.nodes = helper.nodes
            self.kept = max(self.kept, helper.kept)
            self.max_depth = max(self.max_depth, helper.max_depth)
        if not reached:
            return False
        prefix, state = helper._replay()
        if not helper.won(_packed(state)):
            raise AssertionError("the run's line does not reach the position on the way")
        # the finisher's room, within what is left of the search's budget
        finisher = PatienceMaxSearch(state, native=self.native is not None)
        finisher.by_way = False
        cap = self.limits.max_states
        finisher.limits = Limits(
            max_states=FINISH_ROOM if cap is None else min(FINISH_ROOM, cap - self.nodes)
        )
        finisher.limits.deadline = self.limits.deadline
        finisher.limits.max_memory_kb = self.limits.max_memory_kb
        won, _ = finisher.run()
        self.nodes += finisher.nodes
        self.kept = max(self.kept, finisher.kept)
        self.runs += finisher.runs
        if won:
            self.prefix = prefix
            self.finisher = finisher
            self.path = helper.path + finisher.path
            return True
        self.limits.check(self.nodes)  # (the search's own budget: over with the finisher's?)
        return False

    def _native_result(self, out: tuple[Any, ...]) -> bool | None:
        """What :meth:`_Run.go` returns, from the C run's answer (:data:`_NATIVE`: the
        same positions in the same order as the Python run, the same ``nodes``, ``kept``,
        ``max_depth`` and ``path``). Raises :class:`SearchLimit` as the Python run does."""
        won, nodes, kept, depth, path, limit = out
        self.nodes = nodes
        if kept > self.kept:
            self.kept = kept
        if depth > self.max_depth:
            self.max_depth = depth
        if limit is not None:
            raise SearchLimit(limit)
        if won:
            self.path = path
        return None if won is None else bool(won)

    def _native_check(self, nodes: int) -> str | None:
        """The C run's budget check (every 1,024 positions, as :meth:`_Run.go`
        checks): None to go on, else the name of the limit reached."""
        return self.limits.reached(nodes)

    # -- the line on the engine ----------------------------------------------------------

    def engine_moves(self) -> list[EngineMove]:
        """The found line as the engine's moves, each checked legal on the way (the
        settling moves after each move included)."""
        if self.finisher is not None:
            # (the way there may pass a win: every card but the kings placed, the kings
            # may be at the tops before the last of them; the line ends at the win)
            line = self.prefix + self.finisher.engine_moves()
            s = self.root_state.copy()
            for i, move in enumerate(line):
                s.push(move)
                if s.is_won():
                    return line[: i + 1]
            raise AssertionError("the line does not win")
        out, s = self._replay()
        if not s.is_won():
            raise AssertionError("the line does not win")
        return out

    def _replay(self) -> tuple[list[EngineMove], State]:
        """:attr:`path` played on the engine from the root: its moves and the state they
        reach (where the search's goal is reached, :attr:`kings`)."""
        s = self.root_state.copy()
        out: list[EngineMove] = []
        self._settle_engine(s, _packed(s), None, out)
        for m in self.path:
            pos = _packed(s)
            where = _columns_of(s, unpack(pos)[2])
            self._play(s, pos, m, out, where)
            # (with the kings at the tops, settling cannot make a win)
            if (self.won(_packed(s)) if self.waypoint else s.is_won()):
                break
            self._settle_engine(s, pos, m, out, where)
        return out, s

    @staticmethod
    def _unsettled(pos: bytes, m: int | None) -> tuple[bytearray, bytes, list[bytes]]:
        """The foundations' heights, hand and columns after compact move ``m`` from
        ``pos`` (None: of ``pos`` itself), as :meth:`children` makes them before settling
        (the columns in ``pos``'s order, the hand with a card put into it last)."""
        hs, hand, cols = unpack(pos)
        h = bytearray(hs)
        if m is None:
            return h, hand, cols
        src, dst, cnt, card = m & 15, m >> 4 & 15, m >> 8 & 255, m >> 16
        if src == _HAND:
            x = hand.index(card)
            hand = hand[:x] + hand[x + 1 :]
            moving = bytes((card,))
        else:
            moving = cols[src][-cnt:]
            cols[src] = cols[src][:-cnt]
        if dst == _FOUNDATION:
            _found(h, card)
        elif dst == _HAND:
            hand = hand + moving
        else:
            cols[dst] = cols[dst] + moving
        return h, hand, cols

    def _settle_engine(
        self,
        s: State,
        pos: bytes,
        m: int | None,
        out: list[EngineMove],
        where: list[int] | None = None,
    ) -> None:
        """Play on the engine ``s`` the settling moves the search made after compact move
        ``m`` from ``pos`` (None: those that settle ``pos``, the root), ``m`` already
        played on ``s``. The search settles the columns in ``pos``'s order with the move
        made, before they are sorted (:meth:`_unsettled`): of two alike safe cards, the
        copy it takes depends on that order. ``where``: the engine column of each of
        ``pos``'s columns (found by their cards if not given)."""
        moves: list[int] = []
        self._settle(*self._unsettled(pos, m), moves)
        if not moves:
            return
        if where is None:
            where = _columns_of(s, unpack(pos)[2])
        for x in moves:
            self._play(s, pos, x, out, where)

    def _play(
        self,
        s: State,
        pos: bytes,
        m: int,
        out: list[EngineMove],
        where: list[int] | None = None,
    ) -> None:
        """Play compact move ``m``, made from ``pos``, on the engine; ``where`` gives the
        engine column of each of ``pos``'s columns (found by their cards if not given)."""
        t = s.t
        src, dst, cnt, card = m & 15, m >> 4 & 15, m >> 8 & 255, m >> 16
        piles = s.piles
        if where is None:
            where = _columns_of(s, unpack(pos)[2])
        if src == _HAND:
            sources = [h for h in t.hand if piles[h] and piles[h][-1] == card]
        else:
            sources = [where[src]]
        if dst == _FOUNDATION:
            targets = list(t.foundations)
        elif dst == _HAND:
            targets = list(t.hand)
        else:
            targets = [where[dst]]
        for x in s.moves():
            if x[0] in sources and x[1] in targets and x[2] == cnt and piles[x[0]][-cnt] == card:
                s.push(x)
                out.append(x)
                return
        raise AssertionError(f"the line's move {m:#x} has no legal engine move")

    def move_texts(self) -> list[str]:
        """The found line in the notation."""
        return [self.t.label_of(m) for m in self.engine_moves()]


class _Run:
    """One best-first run of a :class:`PatienceMaxSearch` (the module's text) that goes
    on where it stopped: :meth:`go` expands positions until a win, every reachable
    position expanded or the search's ``nodes`` reach ``end``, and can be called again
    after that last (not after the others: :class:`ValueError`). In C (``start`` and
    ``resume`` of :data:`_NATIVE`) when the search has it, else in Python: both expand
    the same positions in the same order."""

    def __init__(self, search: PatienceMaxSearch, seed: int, w_next: int, w_clear: int) -> None:
        self.search = search
        self.w_next = w_next
        self.w_clear = w_clear
        root = search.root
        #: the C run (a capsule) when the search runs in C
        self.native: Any = None
        #: won or every reachable position expanded: it cannot go on
        self.over = False
        if search.native is not None:
            self.native = search.native.start(
                root, 2 if search.all_but_kings else int(search.kings), search.hand_size,
                seed, w_next, w_clear
            )
            return
        self.rng = random.Random(seed)
        self.seen: set[bytes] = {root}
        search.w_next = w_next
        search.w_clear = w_clear
        self.heap: list[tuple[float, float, bytes, Line, int]] = [
            (float(search.distance(root)), 0.0, root, None, 0)
        ]

    def go(self, end: int) -> bool | None:
        """True won (the search's ``path`` holds the line), False every reachable
        position expanded, None when the search's ``nodes`` reached ``end``."""
        search = self.search
        if self.over:
            raise ValueError("patiencemax run: this run is over")
        if self.native is not None:
            won = search._native_result(
                search.native.resume(self.native, end, search.nodes, search._native_check)
            )
            self.over = won is not None
            return won
        search.w_next = self.w_next
        search.w_clear = self.w_clear
        rng = self.rng
        seen = self.seen
        heap = self.heap
        try:
            while heap:
                if search.nodes >= end:
                    return None
                _, _, pos, line, depth = heapq.heappop(heap)
                search.nodes += 1
                if not search.nodes & 1023:
                    search.limits.check(search.nodes)
                if depth > search.max_depth:
                    search.max_depth = depth
                for move, child, d, won in search.children(pos):
                    if child in seen:
                        continue
                    if won:
                        search.path = unwind((move, line))
                        self.over = True
                        return True
                    seen.add(child)
                    priority = d + G * (depth + 1)
                    heapq.heappush(heap, (priority, rng.random(), child, (move, line), depth + 1))
            self.over = True
            return False
        finally:
            if len(seen) > search.kept:
                search.kept = len(seen)


def _heights(s: State) -> bytes:
    """Per suit the heights of its two foundations, the lower first."""
    hs = [0] * 8
    for fi in s.t.foundations:
        p = s.piles[fi]
        if p:
            su = p[0] // 13
            if hs[2 * su + 1] == 0:
                hs[2 * su + 1] = len(p)
            else:
                hs[2 * su] = len(p)
    for su in range(4):
        if hs[2 * su] > hs[2 * su + 1]:
            hs[2 * su], hs[2 * su + 1] = hs[2 * su + 1], hs[2 * su]
    return bytes(hs)


def _packed(s: State) -> bytes:
    """The engine position ``s`` packed (:func:`pack`; not settled)."""
    t = s.t
    return pack(
        _heights(s),
        bytes(c for h in t.hand for c in s.piles[h]),
        [bytes(s.piles[c]) for c in t.columns],
    )


def _columns_of(s: State, cols: list[bytes]) -> list[int]:
    """The engine column holding each of ``cols`` (alike columns each their own)."""
    free = list(s.t.columns)
    where: list[int] = []
    for c in cols:
        for ci in free:
            if bytes(s.piles[ci]) == c:
                where.append(ci)
                free.remove(ci)
                break
        else:
            raise AssertionError(f"no engine column holds {list(c)}")
    return where


def _found(h: bytearray, card: int) -> None:
    """Put ``card`` on a foundation of its suit that it fits (the heights stay sorted)."""
    s, r = divmod(card, 13)
    if h[2 * s] == r:
        h[2 * s] += 1
        if h[2 * s] > h[2 * s + 1]:
            h[2 * s], h[2 * s + 1] = h[2 * s + 1], h[2 * s]
    else:
        h[2 * s + 1] += 1
