"""The exact search of the games where only the waste's top card plays: Contradance and
Captured Queens.

Such a position is all in three things: the foundations' heights, the waste, and the
cards still to be drawn (with how many redeals are used). So this search keeps each
position as a few bytes and plays its moves on them, many times faster than the generic
search over the engine's piles, and it proves far more deals lost. It is a depth-first
search with a table of the positions seen, and four facts, each sound:

* **Alike foundations** (one suit, one sequence: Contradance's two fives of a suit) are
  interchangeable, so the key holds their heights sorted.
* **Safe plays** (the rule of :meth:`GenericSearch._safe
  <patiencekit.solver.generic.GenericSearch._safe>`): when every place left for the
  waste's top card takes it now (its twin is placed, or both places are open), it is
  played at once. On the last pass also when its twin is not still to be drawn: the twin
  then lies under it in the waste, and with no redeal left nothing reorders the two, so
  every line places this card before its twin. Its play is moved to now: until then no
  line puts anything on the foundation it goes to (only this card fits there), nor past
  its place on the other one (that needs this card or its twin first), and the waste is
  the line's less this card, so the line's moves stay legal; once the line plays it, the
  two positions are one (the heights of alike foundations are sorted).
* **The relaxation** (:meth:`DeadEnds.relaxed_lost
  <patiencekit.solver.dead_ends.DeadEnds.relaxed_lost>`, worked out here on the compact
  position): a position whose relaxed game is lost is lost. It is checked at every
  position, and it decides about half of all Contradance deals before a move is made.
* **Buried cards** on the last pass (:meth:`_buried`): a waste card that waits for a card
  under it never leaves the waste.
* **Partly relaxed games** (:meth:`partly_relaxed_lost`), tried before the search: the
  rule of the real game for the cards of one to three groups (``exact``), the
  relaxation's for the others. Every real play is a play there (a real place is open
  only when a copy of the card before it is placed), so a deal whose partly relaxed game
  is lost is lost. A relaxed card is played as soon as it fits: it fits for ever once it
  does, and the position with it played does at least as well (a line from the other
  plays the same moves, skipping that card's play and its draws after a redeal: every
  card it plays is still on top, the exact groups' heights are the same and the relaxed
  groups' no lower). So only the exact groups' cards branch, and such a game is
  searched in a few thousand positions. Keeping one group exact proves 413 of the 520
  Contradance deals of 1-1,000 that the relaxation leaves, two or three groups 61 more.

The line found is played on the engine before it is given (:meth:`move_texts`).

>>> from patiencekit import new_game
>>> search = WasteOnlySearch(new_game("contradance", 10).state, max_states=50_000)
>>> search.run()
(True, None)
>>> WasteOnlySearch(new_game("contradance", 1).state).run()  # lost in the relaxation
(False, None)
>>> search = WasteOnlySearch(new_game("contradance", 3).state)
>>> search.run(), search.proved_by  # lost with the sixth group's cards exact
((False, None), (5,))
"""

from __future__ import annotations

import sys
from itertools import combinations

from patiencekit.moves import DRAW, TURN
from patiencekit.solver.dead_ends import DeadEnds
from patiencekit.solver.limits import LIMIT_MEMORY, Limits, SearchLimit
from patiencekit.state import EngineMove, State

__all__ = ["WasteOnlySearch"]

#: the compact moves of a line: a draw, a redeal, or (0 and up) the waste's top card to
#: the foundation group of that number
_DRAW = -1
_TURN = -2

#: the most groups a partly relaxed game keeps exact (:meth:`WasteOnlySearch.run`)
EXACT_GROUPS = 3
#: the positions one partly relaxed game may take before it is left undecided
PARTLY_POSITIONS = 200_000
#: the positions all the partly relaxed games of one run may take together
PARTLY_TOTAL = 1_000_000


class _Undecided(Exception):
    """A partly relaxed game ran past its positions."""


class WasteOnlySearch:
    """One exact search from one position of a waste-only game (:meth:`applies`)."""

    def __init__(
        self,
        state: State,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
    ) -> None:
        if not self.applies(state):
            raise ValueError(f"{state.t.rules.id}: not a game where only the waste's top plays")
        t = state.t
        self.t = t
        self.root = state.copy()
        analysis = DeadEnds(t)
        #: per group (alike foundations): its foundations' piles, in layout order
        self.members: list[list[int]] = [[] for _ in analysis.group_len]
        for fi in t.foundations:
            self.members[analysis.group_of[fi]].append(fi)
        #: per group: where its heights start in the heights' bytes, and how many
        self.first: list[int] = []
        at = 0
        for m in self.members:
            self.first.append(at)
            at += len(m)
        #: per group: where its highest height is (the heights are sorted in a group)
        self.highest = [lo + len(m) - 1 for lo, m in zip(self.first, self.members, strict=True)]
        #: per group: its sequence of cards
        self.sequences = [analysis.sequence[m[0]] for m in self.members]
        #: per card: (group, place in the group's sequence)
        self.place = [p[0] if p else (-1, -1) for p in analysis.places]
        self.redeals = state.redeals_left() or 0
        self.limits = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        self.seen: set[bytes] = set()
        self.nodes = 0
        self.max_depth = 0
        #: the line being searched (compact moves), the winning one after :meth:`run`
        self.path: list[int] = []
        #: positions of the partly relaxed games (counted in ``nodes`` and the budget)
        self.partly = 0
        #: per group: whether the partly relaxed game being searched keeps it exact
        self._exact: list[bool] = []
        self._partly_seen: set[bytes] = set()
        self._partly_cap = 0
        #: the exact groups of the partly relaxed game that proved the position lost
        self.proved_by: tuple[int, ...] | None = None

    @staticmethod
    def applies(state: State) -> bool:
        """True for positions of games where only the waste's top card plays, each card
        has one sequence of foundations (alike ones), and redeals are counted: Contradance
        and Captured Queens."""
        t = state.t
        if not DeadEnds.applies(t) or state.redeals_left() is None or t.draw != 1:
            return False
        analysis = DeadEnds(t)
        return analysis.relaxed and all(len(p) <= 1 for p in analysis.places)

    def _heights(self, s: State) -> bytes:
        out = bytearray()
        for m in self.members:
            out += bytes(sorted(len(s.piles[fi]) for fi in m))
        return bytes(out)

    def run(self) -> tuple[bool | None, str | None]:
        """Search to the end or a limit: (True, None) solved (``path`` holds the line),
        (False, None) unsolvable, (None, which limit) undecided."""
        s = self.root
        t = self.t
        stream = bytes(reversed(s.piles[t.stock]))  # (drawn from the end of the pile)
        waste = bytes(s.piles[t.waste])
        hs = self._heights(s)
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            if not self._relaxed_lost(0, stream, waste, hs) and self._partly_lost():
                return False, None
            return self._search(0, stream, waste, hs), None
        except SearchLimit as e:
            return None, e.which
        except RecursionError:
            return None, LIMIT_MEMORY
        finally:
            sys.setrecursionlimit(old)

    def _partly_lost(self) -> bool:
        """True when a partly relaxed game with one to :data:`EXACT_GROUPS` exact groups
        (of alike foundations) is lost, the fewest groups first; those that run past
        :data:`PARTLY_POSITIONS` (or all of them past :data:`PARTLY_TOTAL`) prove
        nothing."""
        alike = [g for g, m in enumerate(self.members) if len(m) > 1]
        spent = 0
        for size in range(1, EXACT_GROUPS + 1):
            for exact in combinations(alike, size):
                if spent >= PARTLY_TOTAL:
                    return False
                before = self.partly
                lost = self.partly_relaxed_lost(exact, min(PARTLY_POSITIONS, PARTLY_TOTAL - spent))
                spent += self.partly - before
                if lost:
                    self.proved_by = exact
                    return True
        return False

    def partly_relaxed_lost(self, exact: tuple[int, ...], max_positions: int) -> bool | None:
        """The partly relaxed game from the root (the module's text), keeping the groups
        ``exact`` exact: True lost (so the position is), False won, None undecided
        within ``max_positions``.

        >>> from patiencekit import new_game
        >>> search = WasteOnlySearch(new_game("contradance", 3).state)
        >>> search.partly_relaxed_lost((), 1_000), search.partly_relaxed_lost((5,), 1_000)
        (False, True)
        """
        s = self.root
        t = self.t
        self._exact = [g in exact for g in range(len(self.members))]
        self._partly_seen = set()
        self._partly_cap = self.partly + max_positions
        try:
            return self._partly_search(
                0, bytes(reversed(s.piles[t.stock])), bytes(s.piles[t.waste]), self._heights(s)
            )
        except _Undecided:
            return None
        finally:
            self._partly_seen = set()

    def _partly_search(self, used: int, stream: bytes, waste: bytes, hs: bytes) -> bool:
        """True when the partly relaxed game is lost from this position. A relaxed
        group's height is its highest foundation's (the others stay as they were)."""
        last = used >= self.redeals
        place = self.place
        exact = self._exact
        branch: bytes | None = None  # the heights after the top card's unsafe exact play
        while waste:
            c = waste[-1]
            g, k = place[c]
            if g < 0:
                break
            if exact[g]:
                played = self._play(waste, hs)
                if played is None:
                    break
                if not (played[1] or (last and c not in stream)):
                    branch = played[0]
                    break
                hs = played[0]
            else:
                hi = self.highest[g]
                if k != 0 and hs[hi] < k:
                    break
                if hs[hi] < k + 1:
                    hs = hs[:hi] + bytes((k + 1,)) + hs[hi + 1 :]
            waste = waste[:-1]
        if not waste and not stream:
            return False
        key = bytes((used, len(stream))) + hs + waste + (stream if used else b"")
        if key in self._partly_seen:
            return True  # (searched before and lost: a won line ends the search)
        self._partly_seen.add(key)
        self.partly += 1
        self.nodes += 1
        if self.partly > self._partly_cap:
            raise _Undecided()
        if not self.partly & 1023:
            self.limits.check(len(self.seen) + self.partly)
        if branch is not None and not self._partly_search(used, stream, waste[:-1], branch):
            return False
        if stream:
            return self._partly_search(used, stream[1:], waste + stream[:1], hs)
        if waste and used < self.redeals:
            return self._partly_search(used + 1, waste, b"", hs)
        return True

    def _play(self, waste: bytes, hs: bytes) -> tuple[bytes, bool] | None:
        """The waste's top card played to its group, if a foundation there takes it:
        (the heights after, whether the play is safe)."""
        g, k = self.place[waste[-1]]
        if g < 0:
            return None
        lo = self.first[g]
        hi = lo + len(self.members[g])
        open_at = -1
        opened = 0  # places that take it now
        places = 0  # places left for it
        for i in range(lo, hi):
            h = hs[i]
            if h == k:
                open_at = i  # the last one: the sorted order stays sorted
                opened += 1
            if h <= k:
                places += 1
        if open_at < 0:
            return None
        new = hs[:open_at] + bytes((k + 1,)) + hs[open_at + 1 :]
        return new, opened == places

    def _relaxed_lost(self, used: int, stream: bytes, waste: bytes, hs: bytes) -> bool:
        """The relaxation on the compact position (DeadEnds.relaxed_lost): a card fits
        when its group shows a copy of the card before it, that is when the group's
        highest foundation is at least as high as its place."""
        top = [hs[i] for i in self.highest]
        place = self.place
        w = list(waste)
        seq = list(stream)
        left = self.redeals - used
        while True:
            i = 0
            n = len(seq)
            while True:
                while w:
                    g, k = place[w[-1]]
                    if k != 0 and top[g] < k:
                        break
                    w.pop()
                    if top[g] < k + 1:
                        top[g] = k + 1
                if i == n:
                    break
                w.append(seq[i])
                i += 1
            if not w:
                return False
            if left <= 0:
                return True
            left -= 1
            seq = w
            w = []

    def _buried(self, stream: bytes, waste: bytes, hs: bytes) -> bool:
        """On the last pass: True when a waste card lies on a card that it waits for.

        A card whose unplaced copies all lie in the waste, the highest at position ``j``,
        is *buried at* ``j``: it comes out only once the waste is dug down to ``j``. A
        place on a foundation waits for the cards before it there, so it is closed until
        the waste is dug down to the least of their burial positions. A waste card ``y``
        above that position for every place it has left can leave the waste neither to a
        foundation (closed) nor anywhere else (nothing else takes a waste card here, and
        no redeal is left): the card under it at that position never comes out.
        """
        place = self.place
        never = len(waste)
        buried = [never] * 52  # a card with a copy in the stock is never buried
        for j, c in enumerate(waste):
            buried[c] = j
        for c in stream:
            buried[c] = never
        members = self.members
        first = self.first
        seq_cards = self.sequences
        for p in range(len(waste) - 1, 0, -1):
            g, k = place[waste[p]]
            lo = first[g]
            opens = -1  # the greatest closing position over the card's places left
            for i in range(lo, lo + len(members[g])):
                h = hs[i]
                if h > k:
                    continue  # this place is taken
                closed = never
                for c in seq_cards[g][h:k]:
                    if buried[c] < closed:
                        closed = buried[c]
                if closed > opens:
                    opens = closed
            if opens < p:
                return True
        return False

    def _search(self, used: int, stream: bytes, waste: bytes, hs: bytes) -> bool:
        path = self.path
        mark = len(path)
        last = used >= self.redeals
        played: tuple[bytes, bool] | None = None  # (the top card's play, for the moves below)
        while waste:
            played = self._play(waste, hs)
            # on the last pass, also a card whose twin is not still to be drawn (the
            # module's text: the twin lies under it)
            if played is None or not (played[1] or (last and waste[-1] not in stream)):
                break
            hs = played[0]
            path.append(self.place[waste[-1]][0])
            waste = waste[:-1]
        if not waste and not stream:
            return True
        key = bytes((used, len(stream))) + hs + waste + (stream if used else b"")
        if key in self.seen:
            del path[mark:]
            return False
        self.seen.add(key)
        self.nodes += 1
        if not self.nodes & 1023:
            self.limits.check(len(self.seen) + self.partly)
        if len(path) > self.max_depth:
            self.max_depth = len(path)
        if not self._relaxed_lost(used, stream, waste, hs) and not (
            last and self._buried(stream, waste, hs)
        ):
            if waste and played is not None:
                path.append(self.place[waste[-1]][0])
                if self._search(used, stream, waste[:-1], played[0]):
                    return True
                path.pop()
            if stream:
                path.append(_DRAW)
                if self._search(used, stream[1:], waste + stream[:1], hs):
                    return True
                path.pop()
            elif waste and used < self.redeals:
                path.append(_TURN)
                if self._search(used + 1, waste, b"", hs):
                    return True
                path.pop()
        del path[mark:]
        return False

    def engine_moves(self) -> list[EngineMove]:
        """The found line as the engine's moves, each checked legal on the way."""
        s = self.root.copy()
        t = self.t
        out: list[EngineMove] = []
        for m in self.path:
            legal = s.moves()
            if m == _DRAW:
                move = DRAW
            elif m == _TURN:
                move = TURN
            else:
                fits = [x for x in legal if x[0] == t.waste and x[1] in self.members[m]]
                move = fits[0] if fits else (t.waste, self.members[m][0], 1)
            if move not in legal:
                raise AssertionError(f"the line's move {move} is not legal here")
            s.push(move)
            out.append(move)
        if not s.is_won():
            raise AssertionError("the line does not win")
        return out

    def move_texts(self) -> list[str]:
        """The found line in the notation."""
        return [self.t.label_of(m) for m in self.engine_moves()]
