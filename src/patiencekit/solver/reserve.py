"""A compact beam search for the games with a reserve refilled from the waste: Odd and
Even, Royal Cotillion and Picture Patience.

In these games a card only goes to a foundation (from the waste's top, the reserve, or
the top of one of Royal Cotillion's left piles), and a reserve space is filled at once
from the waste's top (from the stock when the waste is empty). So a position is all in a
few things: the foundations' heights, the waste, the reserve as a set (which space holds
a card changes nothing), the left piles' heights, and the cards still to draw. This
search keeps each position as a tuple of a few ``bytes`` and plays its moves on them,
several times faster than the generic search over the engine's piles.

It looks for a win the way the generic search's beam passes do
(:meth:`GenericSearch._beam <patiencekit.solver.generic.GenericSearch._beam>`): at each
level of progress (stock cards drawn, passes) at most ``width`` positions are expanded,
best first by a score close to the generic one, and the passes widen (2, 4, ... up to
:data:`MAX_WIDTH`, then again at that width with new tie-breaks) until a win, a budget,
or a pass that left no position out: that pass expanded every reachable position, so no
win exists. Leaving positions out only loses wins, never makes one, and the line found
is played on the engine before it is given (:meth:`engine_moves`). A deal whose left
piles lose it (:meth:`DeadEnds.left_piles_lost
<patiencekit.solver.dead_ends.DeadEnds.left_piles_lost>`) is answered lost at once.

>>> from patiencekit import new_game
>>> search = ReserveBeam(new_game("odd-and-even", 1).state, max_states=200_000)
>>> search.run()
(True, None)
>>> len(search.move_texts()) > 100
True
"""

from __future__ import annotations

import heapq
import random
import time
from typing import Any, Final

from patiencekit.compiled import native_module
from patiencekit.moves import DRAW, TURN
from patiencekit.solver.dead_ends import DeadEnds, piles_crossed
from patiencekit.solver.limits import LIMIT_MEMORY, LIMIT_STATES, Limits, SearchLimit
from patiencekit.solver.lines import Line, unwind
from patiencekit.state import EngineMove, State

__all__ = [
    "MAX_RESTARTS",
    "MAX_WIDTH",
    "NATIVE_BUILD",
    "RESTART_STATES",
    "ROLLOUT_WIDTHS",
    "ReserveBeam",
    "ReserveExact",
    "ReserveRestarts",
    "ReserveRollout",
]

#: the widest beam pass; past it the passes repeat at this width with new tie-breaks
MAX_WIDTH = 4096
#: a card this many plays away from a foundation, or more, is "not soon" (the score)
NEAR = 3
#: the tie-breaks' seed (the first pass; each pass draws from one generator)
SEED = 2024
#: :class:`ReserveRestarts`: the positions of one restart, and the most restarts
RESTART_STATES = 20_000
MAX_RESTARTS = 1_000
#: :class:`ReserveRollout`: its passes' widths, in turn, each tried with the two rollouts
ROLLOUT_WIDTHS = (16, 64, 256, 1024, 4096, 16384)

#: the compact moves of a line: a draw, a redeal, or a card played from the waste
#: (``_WASTE``), the reserve or left pile ``p`` to foundation ``f``:
#: ``kind | card << 4 | f << 10 | p << 14``
_DRAW = -1
_TURN = -2
_WASTE = 1
_RESERVE = 2
_LEFT = 3

#: a position: (redeals used, the cards of this pass's stock in the order drawn, how
#: many of them are drawn, waste, reserve sorted, foundation heights, left pile heights)
Position = tuple[int, bytes, int, bytes, bytes, bytes, bytes]

#: :class:`ReserveExact`'s search in C (``reserve_native.c``, built by
#: ``tools/build_fast.py reserve_native``) when it was built from that file as it is now,
#: else None: then the search runs in Python. Both visit the same positions in the same
#: order, prune the same ones and find the same line.
_NATIVE: Final[Any] = native_module(
    "patiencekit.solver.reserve_native", "reserve_native.c", "reserve games' exact search"
)
#: which exact search runs: the sha256 of the C file the native one was built from, or
#: ``"python"``
NATIVE_BUILD: Final[str] = str(_NATIVE.SOURCE_SHA256) if _NATIVE is not None else "python"


class ReserveBeam:
    """The beam passes from one position of a reserve game (:meth:`applies`)."""

    def __init__(
        self,
        state: State,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
    ) -> None:
        if not self.applies(state):
            raise ValueError(
                f"{state.t.rules.id}: not a game with a reserve refilled from the waste"
            )
        t = state.t
        self.t = t
        self.root_state = state.copy()
        analysis = DeadEnds(t)
        #: the deal is lost in its left piles (:meth:`DeadEnds.left_piles_lost`)
        self.stuck = analysis.left_piles_lost(state)
        self.foundations = list(t.foundations)
        #: per foundation: its sequence of cards
        self.sequences = [bytes(analysis.sequence[fi]) for fi in self.foundations]
        self.total = sum(len(q) for q in self.sequences)
        #: per card: its places, as (foundation index, place in the sequence)
        self.places: list[list[tuple[int, int]]] = [[] for _ in range(52)]
        for f, q in enumerate(self.sequences):
            for k, c in enumerate(q):
                self.places[c].append((f, k))
        self.redeals = state.redeals_left() or 0
        piles = state.piles
        #: per left pile: its cards, bottom first
        self.left_cards = [bytes(piles[c]) for c in t.columns]
        self.root: Position = (
            0,
            bytes(reversed(piles[t.stock])),  # (drawn from the end of the pile)
            0,
            bytes(piles[t.waste]),
            bytes(sorted(c for r in t.reserve for c in piles[r])),
            bytes(len(piles[fi]) for fi in self.foundations),
            bytes(len(p) for p in self.left_cards),
        )
        self.limits = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        self.nodes = 0
        self.max_depth = 0
        self.width = 2
        #: the most positions one pass held at once (its table of positions seen)
        self.kept = 0
        self.near_cache: dict[bytes, list[int]] = {}
        #: the winning line's compact moves, after :meth:`run` found one
        self.path: list[int] = []

    @staticmethod
    def applies(state: State) -> bool:
        """True for positions of games where cards go only to foundations of one suit and
        sequence each, with a reserve refilled from the waste, a stock dealt one card at a
        time, counted redeals and no moves between foundations: Odd and Even, Royal
        Cotillion, Picture Patience."""
        t = state.t
        if not DeadEnds.applies(t) or not t.reserve or t.waste < 0 or t.stock < 0:
            return False
        if state.redeals_left() is None or t.draw != 1:
            return False
        if any(f.to_foundations for f in t.rules.foundations):  # (Patriarchs' reversal)
            return False
        analysis = DeadEnds(t)
        return all(len(analysis.sequence[fi]) == t.f_size[fi] for fi in t.foundations)

    # -- moves -------------------------------------------------------------------------

    def children(self, pos: Position) -> list[tuple[int, Position]]:
        """The moves from ``pos`` and the positions they make."""
        used, stream, drawn, waste, reserve, hs, left = pos
        places = self.places
        out: list[tuple[int, Position]] = []
        if waste:
            c = waste[-1]
            for f, k in places[c]:
                if hs[f] == k:
                    out.append(
                        (
                            _WASTE | c << 4 | f << 10,
                            (used, stream, drawn, waste[:-1], reserve, _up(hs, f), left),
                        )
                    )
        last = -1
        for j in range(len(reserve)):
            c = reserve[j]
            if c == last:
                continue  # (alike copies: one play)
            last = c
            for f, k in places[c]:
                if hs[f] == k:
                    rest = reserve[:j] + reserve[j + 1 :]
                    w = waste
                    d = drawn
                    if w:
                        rest = _insert(rest, w[-1])
                        w = w[:-1]
                    elif d < len(stream):
                        rest = _insert(rest, stream[d])
                        d += 1
                    out.append(
                        (_RESERVE | c << 4 | f << 10, (used, stream, d, w, rest, _up(hs, f), left))
                    )
        for p in range(len(left)):
            n = left[p]
            if n:
                c = self.left_cards[p][n - 1]
                for f, k in places[c]:
                    if hs[f] == k:
                        out.append(
                            (
                                _LEFT | c << 4 | f << 10 | p << 14,
                                (used, stream, drawn, waste, reserve, _up(hs, f), _down(left, p)),
                            )
                        )
        if drawn < len(stream):
            out.append(
                (
                    _DRAW,
                    (used, stream, drawn + 1, waste + stream[drawn : drawn + 1], reserve, hs, left),
                )
            )
        elif waste and used < self.redeals:
            out.append((_TURN, (used + 1, waste, 0, b"", reserve, hs, left)))
        return out

    def crossed(self, pos: Position) -> bool:
        """True when the left piles' cards of ``pos`` cannot be shared out among the
        foundations' places (:meth:`DeadEnds.left_piles_crossed
        <patiencekit.solver.dead_ends.DeadEnds.left_piles_crossed>`, on this model): then
        no line wins from ``pos``. A line can come to it from a deal that is not: by
        putting on a foundation the copy the left piles needed there."""
        left = pos[6]
        cards = self.left_cards
        return piles_crossed([cards[p][: left[p]] for p in range(len(left))], pos[5], self.places)

    # -- the beam ----------------------------------------------------------------------

    def _near(self, hs: bytes) -> list[int]:
        """Per card, how soon it can go to a foundation: 0 now, 1 after one more card...
        (:data:`NEAR`: not soon)."""
        near = self.near_cache.get(hs)
        if near is not None:
            return near
        near = [NEAR] * 52
        for f in range(len(hs)):
            q = self.sequences[f]
            k = hs[f]
            for d in range(min(NEAR, len(q) - k)):
                c = q[k + d]
                if near[c] > d:
                    near[c] = d
        if len(self.near_cache) > 50_000:
            self.near_cache.clear()
        self.near_cache[hs] = near
        return near

    def score(self, pos: Position) -> int:
        """How promising a position is (higher is better), as the generic search's
        score: cards on the foundations above all; reserve cards and left piles' tops
        soon to play are good, cards soon wanted under others in the waste or a left
        pile bad, twice as bad on the last pass."""
        used, _, _, waste, reserve, hs, left = pos
        near = self._near(hs)
        score = 16 * sum(hs)
        for c in reserve:
            score += NEAR - near[c]
        weight = 2 if used >= self.redeals else 1
        for j in range(len(waste) - 1):
            score -= weight * (NEAR - near[waste[j]])
        for p in range(len(left)):
            n = left[p]
            if n:
                cards = self.left_cards[p]
                score += NEAR - near[cards[n - 1]]
                for j in range(n - 1):
                    score -= weight * (NEAR - near[cards[j]])
        return score

    def beam(self, width: int, rng: random.Random) -> tuple[bool, bool]:
        """One pass (the module's text): (won, pruned). With a win ``path`` holds the
        line; ``pruned`` is False when no position was ever left out."""
        root = self.root
        if sum(root[5]) == self.total:
            self.path = []
            return True, False
        seen: set[Position] = {_key(root)}
        first = _level(root)
        buckets: dict[int, list[tuple[int, float, Position, Line, int]]] = {
            first: [(0, 0.0, root, None, 0)]
        }
        levels = [first]
        pruned = False
        total = self.total
        try:
            while levels:
                level = heapq.heappop(levels)
                cands = buckets.pop(level)
                heapq.heapify(cands)
                room = width
                while cands:
                    if not room:
                        pruned = True
                        break
                    room -= 1
                    _, _, pos, line, depth = heapq.heappop(cands)
                    self.nodes += 1
                    if depth > self.max_depth:
                        self.max_depth = depth
                    if not self.nodes & 1023:
                        self.limits.check(self.nodes)
                    for move, child in self.children(pos):
                        if move >= 0 and sum(child[5]) == total:
                            self.path = unwind((move, line))
                            return True, pruned
                        key = _key(child)
                        if key in seen:
                            continue
                        seen.add(key)
                        entry = (-self.score(child), rng.random(), child, (move, line), depth + 1)
                        lv = _level(child)
                        if lv == level:
                            heapq.heappush(cands, entry)
                        else:
                            bucket = buckets.get(lv)
                            if bucket is None:
                                buckets[lv] = [entry]
                                heapq.heappush(levels, lv)
                            else:
                                bucket.append(entry)
            return False, pruned
        finally:  # (a pass's table only grows: its size at the end is the most it held)
            if len(seen) > self.kept:
                self.kept = len(seen)

    def run(self) -> tuple[bool | None, str | None]:
        """Widening passes until a win (True, None), a pass that left nothing out
        (False, None: no win exists) or a budget: (None, which one)."""
        if self.stuck:
            return False, None
        rng = random.Random(SEED)
        try:
            while True:
                won, pruned = self.beam(self.width, rng)
                if won:
                    return True, None
                if not pruned:
                    return False, None
                self.width = min(self.width * 2, MAX_WIDTH)
        except SearchLimit as e:
            return None, e.which
        except MemoryError:
            return None, LIMIT_MEMORY

    # -- the line on the engine ----------------------------------------------------------

    def engine_moves(self) -> list[EngineMove]:
        """The found line as the engine's moves, each checked legal on the way."""
        s = self.root_state.copy()
        t = self.t
        out: list[EngineMove] = []
        for m in self.path:
            legal = s.moves()
            if m == _DRAW:
                move = DRAW
            elif m == _TURN:
                move = TURN
            else:
                kind, c, dst = m & 15, m >> 4 & 63, self.foundations[m >> 10 & 15]
                sources = (
                    [t.waste]
                    if kind == _WASTE
                    else t.reserve
                    if kind == _RESERVE
                    else [t.columns[m >> 14]]
                )
                fits = [
                    x for x in legal if x[1] == dst and x[0] in sources and s.piles[x[0]][-1] == c
                ]
                move = fits[0] if fits else (-1, dst, 1)
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


class _OnTheModel:
    """What the searches over :class:`ReserveBeam`'s model share: the budget check their C
    code calls back, and the line found as the engine's moves."""

    beam: ReserveBeam
    limits: Limits

    def _native_check(self, nodes: int) -> str | None:
        """The C search's budget check (every 1,024 positions, as the Python search
        checks): None to go on, else the name of the limit reached."""
        return self.limits.reached(nodes)

    def engine_moves(self) -> list[EngineMove]:
        """The found line as the engine's moves, each checked legal on the way."""
        return self.beam.engine_moves()

    def move_texts(self) -> list[str]:
        """The found line in the notation."""
        return self.beam.move_texts()


class ReserveExact(_OnTheModel):
    """The pruned exact search from one position (:meth:`applies`).

    An exact search for the reserve games without a redeal (Picture Patience, Royal
    Cotillion), pruned by a bound that proves positions lost.

    The search is depth-first over the compact positions of
    :class:`~patiencekit.solver.reserve.ReserveBeam` (its moves, its keys), with a table of
    the positions seen; a position the bound calls lost is not searched. If the search ends
    without a win, no line wins: the deal is proved lost.

    **The bound** (:meth:`ReserveExact.lost`) plays a relaxed game from the position and
    says "lost" when even the relaxed game cannot put every card on the foundations. In
    these games a card goes only to a foundation, each card has two places (one on each of
    the two foundations of its suit), a play of a reserve card or of the waste's top *pops*
    the waste (its next card comes into play: into the reserve, or as the new top), and a
    draw puts the next stock card on the waste. The relaxed game:

    * every card in the reserve, on the waste's top, on a left pile's top or on a foundation
      is *free*; the waste under its top is a stack of which each card played frees the next
      card (or, the waste empty, the next stock card, as a refill does);
    * a suit's two foundations may reach a pair of heights when each card they pass was
      free at some point, and a card both of them pass had both copies free (the *reach* of
      the suit: every pair reachable so from the position's pair);
    * each suit is credited with the most cards its reach holds, and every card credited
      frees the next card of the waste (the relaxed player plays before drawing);
    * a left pile's top leaves (freeing the card under it) once a pair of the reach is past
      one of its places;
    * when nothing more is credited, the next stock card is drawn: it is free, and a *blank*
      goes onto the waste (where the real draw buries the waste's top; the relaxed one keeps
      it free), which a later credited card frees for nothing.

    It is lost when the stock is used up and some suit's reach does not hold both
    foundations full. **Sound** (it never calls a winnable position lost): take any real line
    from the position; after each of its draws, the real foundations are a pair of each
    suit's relaxed reach, and every card free in the real game is free in the relaxed one.
    By induction: a real play passes a card with a free copy (two copies for a card both
    foundations pass), so the new real pair is in the reach; the real game frees waste
    cards only by plays from the reserve or the waste, one each, and the relaxed game has
    credited at least as many (its most, over pairs that include the real one), and its
    waste holds the same cards in the same order with blanks where the real one holds cards
    drawn since (cards the relaxed game keeps free): so each waste card is freed no later.
    A real left pile loses its top only to a foundation, which is then past that place. And
    the relaxed game is decided by playing as it does: crediting never hurts (what is free
    and the reach only grow), and drawing later never hurts (a blank pushed later lies above
    fewer of the cards still to free). So if the relaxed game leaves a foundation short, so
    does every real line.

    What it relaxes is which card a draw buries: a real draw buries the waste's top, which
    may be a card the player needs; the bound keeps it. (Burying the drawn card for real
    whenever nothing was played between two draws is **not** sound: a player may keep a
    card that fits in the reserve, draw, then play it, pulling the drawn card into the
    reserve; ``docs/experiments/royal_cotillion_bounds.c`` measured that variant calling
    positions of winning lines lost.)

    >>> from patiencekit import new_game
    >>> search = ReserveExact(new_game("picture-patience", 2).state, max_states=10_000)
    >>> search.run()
    (False, None)
    """

    #: the free copies a foundation needs to pass a card the other foundation of its suit
    #: has not passed (the bound's rule; a test's unsound variant asks for 2)
    ONE_COPY = 1

    def __init__(
        self,
        state: State,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
        native: bool = True,
    ) -> None:
        if not self.applies(state):
            raise ValueError(f"{state.t.rules.id}: not a reserve game without a redeal")
        #: the search in C (:data:`_NATIVE`) when it is built and ``native``, else None;
        #: a subclass with a bound of its own (:meth:`lost`) searches in Python
        self.native: Any = _NATIVE if native and type(self).lost is ReserveExact.lost else None
        #: the compact model (moves, keys, the line's engine moves)
        self.beam = ReserveBeam(state)
        beam = self.beam
        self.limits = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        self.nodes = 0
        self.max_depth = 0
        #: the positions seen (the most held at once: all of them)
        self.kept = 0
        #: positions the bound called lost
        self.pruned = 0
        #: :class:`ReserveRestarts`' knobs, off in the exact search: ``_bury`` 1 makes the
        #: bound's relaxed game bury the card it drew when it draws again with nothing
        #: credited between, 2 also the last card its credits brought out of the waste
        #: when it draws after them (neither sound: "no line" then proves nothing), ``_seed`` (not
        #: None) tries each position's children in an order drawn from it (:meth:`_order`;
        #: ``_rng`` is its generator's state)
        self._bury = 0
        self._seed: int | None = None
        self._rng = 0
        self.sequences = beam.sequences
        #: per suit: its two foundations (a, b); per card: its place on each
        self.pairs: list[tuple[int, int]] = []
        self.place_a = [0] * 52
        self.place_b = [0] * 52
        self.bounded = all(len(q) == 13 for q in self.sequences)
        for suit in range(4):
            found = sorted({f for c in range(13 * suit, 13 * suit + 13) for f, _ in beam.places[c]})
            if len(found) != 2:
                self.bounded = False
                break
            a, b = found
            self.pairs.append((a, b))
            for c in range(13 * suit, 13 * suit + 13):
                where = dict(beam.places[c])
                if sorted(where) != [a, b]:
                    self.bounded = False
                self.place_a[c] = where.get(a, 0)
                self.place_b[c] = where.get(b, 0)

    @staticmethod
    def applies(state: State) -> bool:
        """True for the positions of the reserve games (:meth:`ReserveBeam.applies`) with
        no redeal left: Picture Patience and Royal Cotillion."""
        return ReserveBeam.applies(state) and not (state.redeals_left() or 0)

    # -- the bound -------------------------------------------------------------------------

    def lost(self, pos: Position) -> bool:
        """True when the left piles' cards cannot be shared out
        (:meth:`ReserveBeam.crossed`) or the relaxed game (the module's text) cannot be won
        from ``pos``."""
        if self.beam.crossed(pos):
            return True
        if not self.bounded:
            return False
        _, stream, drawn, waste, reserve, hs, left = pos
        sequences = self.sequences
        place_a, place_b = self.place_a, self.place_b
        free = [0] * 52
        for f in range(len(hs)):
            seq = sequences[f]
            for k in range(hs[f]):
                free[seq[k]] += 1
        for c in reserve:
            free[c] += 1
        buried = list(waste)
        last = -1  # the card the relaxed game drew last, nothing credited since (or the top)
        popped = -1  # the card the last credit brought out of the waste (-1: none, a blank)
        if buried:
            last = buried.pop()
            free[last] += 1
        left_cards = self.beam.left_cards
        heights = list(left)
        for p in range(len(heights)):
            if heights[p]:
                free[left_cards[p][heights[p] - 1]] += 1
        # per suit: the reach as a 14 x 14 grid (a * 14 + b), its most cards, and its
        # highest a and b (a pair past a place exists when one of those is)
        pairs = self.pairs
        reach: list[list[bool]] = []
        best: list[int] = []
        top_a: list[int] = []
        top_b: list[int] = []
        todo: list[list[int]] = []
        for s in range(4):
            a0, b0 = hs[pairs[s][0]], hs[pairs[s][1]]
            grid = [False] * 196
            grid[a0 * 14 + b0] = True
            reach.append(grid)
            best.append(a0 + b0)
            top_a.append(a0)
            top_b.append(b0)
            todo.append([a0 * 14 + b0])
        credited = sum(best)
        one = self.ONE_COPY
        n = len(stream)
        j = drawn
        while True:
            while True:
                # grow each reach from its new points
                for s in range(4):
                    stack = todo[s]
                    if not stack:
                        continue
                    grid = reach[s]
                    seq_a = sequences[pairs[s][0]]
                    seq_b = sequences[pairs[s][1]]
                    while stack:
                        x = stack.pop()
                        a, b = divmod(x, 14)
                        if a + b > best[s]:
                            best[s] = a + b
                        if a > top_a[s]:
                            top_a[s] = a
                        if b > top_b[s]:
                            top_b[s] = b
                        if a < 13:
                            c = seq_a[a]
                            if free[c] >= (2 if b > place_b[c] else one) and not grid[x + 14]:
                                grid[x + 14] = True
                                stack.append(x + 14)
                        if b < 13:
                            c = seq_b[b]
                            if free[c] >= (2 if a > place_a[c] else one) and not grid[x + 1]:
                                grid[x + 1] = True
                                stack.append(x + 1)
                freed: list[int] = []
                total = sum(best)
                while credited < total:
                    credited += 1
                    last = -1
                    popped = -1
                    if buried:
                        x = buried.pop()
                        popped = x
                        if x >= 0:
                            freed.append(x)
                    elif j < n:
                        freed.append(stream[j])
                        j += 1
                for p in range(len(heights)):
                    while heights[p]:
                        c = left_cards[p][heights[p] - 1]
                        s = c // 13
                        if top_a[s] <= place_a[c] and top_b[s] <= place_b[c]:
                            break
                        heights[p] -= 1
                        if heights[p]:
                            freed.append(left_cards[p][heights[p] - 1])
                if not freed:
                    break
                for c in freed:
                    self._free(c, free, reach, todo)
            if all(reach[s][195] for s in range(4)):
                return False
            if j >= n:
                return True
            if self._bury and last >= 0:
                free[last] -= 1  # (drawn, and nothing credited since: buried for real)
                buried.append(last)
            elif self._bury == 2 and popped >= 0:
                free[popped] -= 1  # (the waste's top after the credits: buried again)
                buried.append(popped)
            else:
                buried.append(-1)  # (the blank)
            popped = -1
            c = stream[j]
            j += 1
            last = c
            self._free(c, free, reach, todo)

    def _free(
        self, c: int, free: list[int], reach: list[list[bool]], todo: list[list[int]]
    ) -> None:
        """One more copy of ``c`` free: the points of its suit's reach where it is the next
        card of a foundation may grow (they go on the suit's ``todo``)."""
        free[c] += 1
        s = c // 13
        grid = reach[s]
        a, b = self.place_a[c], self.place_b[c]
        stack = todo[s]
        for y in range(14):  # (points at a on foundation a, then at b on foundation b)
            if grid[a * 14 + y]:
                stack.append(a * 14 + y)
            if grid[y * 14 + b]:
                stack.append(y * 14 + b)

    # -- the search ------------------------------------------------------------------------

    def run(self) -> tuple[bool | None, str | None]:
        """(True, None) won (the line in :meth:`move_texts`), (False, None) no line wins,
        (None, which budget) undecided."""
        beam = self.beam
        total = beam.total
        root = beam.root
        if beam.stuck or self.lost(root):
            return False, None
        if sum(root[5]) == total:
            return True, None
        if self.native is not None:
            try:
                return self._run_native()
            except OverflowError:  # (a position larger than the C search holds)
                pass
        self._rng = (self._seed * 1_000_003 + 1) & _MASK64 if self._seed is not None else 0
        seen: set[Position] = {_key(root)}
        stack: list[tuple[list[tuple[int, Position]], int]] = [
            (self._order(beam.children(root)), 0)
        ]
        moves: list[int] = []
        try:
            while stack:
                children, i = stack[-1]
                if i == len(children):
                    stack.pop()
                    if moves:
                        moves.pop()
                    continue
                stack[-1] = (children, i + 1)
                move, child = children[i]
                if move != _DRAW and sum(child[5]) == total:
                    beam.path = [*moves, move]
                    return True, None
                key = _key(child)
                if key in seen:
                    continue
                seen.add(key)
                self.nodes += 1
                if not self.nodes & 1023:
                    self.limits.check(self.nodes)
                if self.lost(child):
                    self.pruned += 1
                    continue
                moves.append(move)
                if len(moves) > self.max_depth:
                    self.max_depth = len(moves)
                stack.append((self._order(beam.children(child)), 0))
            return False, None
        except SearchLimit as e:
            return None, e.which
        except MemoryError:
            return None, LIMIT_MEMORY
        finally:
            self.kept = len(seen)

    def _run_native(self) -> tuple[bool | None, str | None]:
        """:meth:`run`'s search in C (``reserve_native.c``: the same positions in the same
        order, the same ``nodes``, ``kept``, ``pruned``, ``max_depth`` and line)."""
        beam = self.beam
        model = (
            tuple(self.sequences),
            tuple(beam.left_cards),
            self.bounded,
            bytes(f for pair in self.pairs for f in pair),
            bytes(self.place_a),
            bytes(self.place_b),
        )
        won, nodes, kept, pruned, depth, path, limit = self.native.search(
            model,
            beam.root,
            self.ONE_COPY,
            self._bury,
            -1 if self._seed is None else self._seed,
            self._native_check,
        )
        self.nodes = nodes
        self.kept = kept
        self.pruned = pruned
        self.max_depth = depth
        if won:
            beam.path = path
        return (None, limit) if won is None else (bool(won), None)

    def _order(self, children: list[tuple[int, Position]]) -> list[tuple[int, Position]]:
        """``children`` as the search tries them: as they are, or with a seed the plays
        shuffled (Fisher-Yates from the last, by a xorshift generator) and the draw
        first when the generator says 0 of 4, else last (the C search does the same)."""
        if not self._rng:
            return children
        plays = [ch for ch in children if ch[0] != _DRAW]
        draws = [ch for ch in children if ch[0] == _DRAW]
        for k in range(len(plays) - 1, 0, -1):
            q = self._rnd() % (k + 1)
            plays[k], plays[q] = plays[q], plays[k]
        if draws and self._rnd() % 4 == 0:
            return draws + plays
        return plays + draws

    def _rnd(self) -> int:
        """The next number of the xorshift generator (the C search's rnd)."""
        x = self._rng
        x ^= (x << 13) & _MASK64
        x ^= x >> 7
        x ^= (x << 17) & _MASK64
        self._rng = x
        return (x >> 11) & 0xFFFFFFFF


class ReserveRestarts:
    """Restarts of :class:`ReserveExact`'s search cut by an unsound rule, each trying the
    children in an order of its own: a finder of wins (Royal Cotillion's, after the beam).

    The exact search goes deep down the first lines it tries. On some deals that the beam
    and it leave undecided, a search that cuts more and tries the plays in another order
    wins within a few hundred positions (Royal Cotillion #171: 189). The cut: the bound's
    relaxed game buries the card it drew when it draws again with nothing credited between
    (``_bury`` 1), and in every other restart also, when it draws after credits, the last
    card they brought out of the waste (``_bury`` 2: the waste's top then, which a real
    draw buries). Neither is **sound** (a player may keep a card that fits in the reserve,
    draw, then play it, pulling the drawn card into the reserve: they call some winnable
    deals lost, 2 more of them than 1; yet the experiment's search cut by 2 won Royal
    Cotillion #545, #589 and #653, which no other search had), so this search never says a
    deal is lost: :meth:`run` gives (True, None), a win, or (None, the budget that ran
    out). Each restart has :data:`RESTART_STATES` positions; the first two (cut 1, then 2)
    try the children in the search's own order, restart k >= 2 (cut 1 + k % 2, or the
    other if that one cut the root) in an order drawn from the seed k
    (:meth:`ReserveExact._order`), so the same budget in positions gives the same answer on
    any machine. A win is a line of the model, given as the engine's moves checked legal
    on the way (:meth:`engine_moves`).

    >>> from patiencekit import new_game
    >>> search = ReserveRestarts(new_game("royal-cotillion", 171).state, max_states=100_000)
    >>> search.run()
    (True, None)
    >>> search.nodes < RESTART_STATES
    True
    """

    def __init__(
        self,
        state: State,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
    ) -> None:
        if not ReserveExact.applies(state):
            raise ValueError(f"{state.t.rules.id}: not a reserve game without a redeal")
        self.state = state
        self.max_states = max_states
        self.max_memory_mb = max_memory_mb
        self.limits = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        #: positions searched, over every restart; the most kept by one; the deepest line
        self.nodes = 0
        self.kept = 0
        self.max_depth = 0
        #: the restarts run
        self.restarts = 0
        #: the restart that won, if one did
        self.found: ReserveExact | None = None

    @staticmethod
    def applies(state: State) -> bool:
        """As :meth:`ReserveExact.applies`."""
        return ReserveExact.applies(state)

    def run(self) -> tuple[bool | None, str | None]:
        """(True, None) won (the line in :meth:`move_texts`), else (None, which budget ran
        out): never False, see the class's text."""
        cut: set[int] = set()  # the cuts that cut the root (every restart with them would)
        while self.restarts < MAX_RESTARTS:
            which = self.limits.reached(self.nodes)
            if which is not None:
                return None, which
            each = RESTART_STATES
            if self.max_states is not None:
                each = min(each, self.max_states - self.nodes)
            seconds = None
            if self.limits.deadline is not None:
                seconds = max(self.limits.deadline - time.perf_counter(), 0.0)
            search = ReserveExact(
                self.state, max_seconds=seconds, max_states=each, max_memory_mb=self.max_memory_mb
            )
            k = self.restarts
            mode = 1 + k % 2
            if mode in cut:
                mode = 3 - mode
            search._bury = mode
            search._seed = k if k >= 2 else None
            self.restarts += 1
            won, limit = search.run()
            self.nodes += search.nodes
            self.kept = max(self.kept, search.kept)
            self.max_depth = max(self.max_depth, search.max_depth)
            if won:
                self.found = search
                return True, None
            if limit is not None and limit != LIMIT_STATES:
                return None, limit
            if search.nodes == 0:  # (cut at the root: every restart with this cut would be)
                cut.add(mode)
                if len(cut) == 2:
                    break
        return None, LIMIT_STATES

    def engine_moves(self) -> list[EngineMove]:
        """The found line as the engine's moves, each checked legal on the way."""
        if self.found is None:
            raise ValueError("no line found")
        return self.found.engine_moves()

    def move_texts(self) -> list[str]:
        """The found line in the notation."""
        if self.found is None:
            raise ValueError("no line found")
        return self.found.move_texts()


class ReserveRollout(_OnTheModel):
    """Beam passes scored by a greedy rollout of the real game: a finder of wins in Royal
    Cotillion (and the other reserve games without a redeal, :meth:`applies`).

    A pass keeps, after each move made, the ``width`` best positions of the next level
    (the children of the positions kept, each once a level), best by how many cards a
    fixed greedy line puts on the foundations from the position (:meth:`rollout`: play
    a card that fits whenever one does, else draw, to the end of the stock); ties go to
    the child found first. :data:`ROLLOUT_WIDTHS` gives the passes' widths, each run
    with the rollout that plays the left piles' tops first, then with the one that plays
    them last. The rollout is only a score: the line a pass finds is the beam's own,
    replayed on the engine (:meth:`engine_moves`). A child whose left piles can no longer
    be shared out (:meth:`ReserveBeam.crossed`) is lost and left out at once. A pass that
    never left another position out searched every position reachable from the root
    (but those lost ones): then no line wins and :meth:`run` says so (False); otherwise a
    pass that finds no win proves nothing.

    Why it exists (2026-12-07, ``docs/experiments/royal_cotillion_bounds.c``, "beam"):
    on the 107 Royal Cotillion deals of 1-1,000 that no earlier search had won, a beam of
    1,000 positions a level scored this way won 45 (0.4 s a deal in C); scored by the
    cards placed and the bounds' relaxed lines it won 4 of 10 easy deals.

    >>> from patiencekit import new_game
    >>> search = ReserveRollout(new_game("royal-cotillion", 2).state, max_states=100_000)
    >>> search.run()
    (True, None)
    >>> search.width
    16
    """

    def __init__(
        self,
        state: State,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
        native: bool = True,
    ) -> None:
        if not ReserveExact.applies(state):
            raise ValueError(f"{state.t.rules.id}: not a reserve game without a redeal")
        #: the passes in C (:data:`_NATIVE`) when it is built and ``native``, else None
        self.native: Any = _NATIVE if native else None
        #: the compact model (moves, keys, the line's engine moves)
        self.beam = ReserveBeam(state)
        self.limits = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        #: positions expanded, over every pass; the most candidates one level held; the
        #: deepest level
        self.nodes = 0
        self.kept = 0
        self.max_depth = 0
        #: the last pass's width and rollout (1: the left piles last)
        self.width = 0
        self.left_last = 0

    @staticmethod
    def applies(state: State) -> bool:
        """As :meth:`ReserveExact.applies`."""
        return ReserveExact.applies(state)

    def rollout(self, pos: Position, left_last: int) -> int:
        """The cards on the foundations at the end of the greedy line from ``pos``: while
        a card fits, play the first that does (the left piles' tops in order, then the
        waste's top, then the reserve's cards in order; with ``left_last`` the left piles
        after the reserve), each to the first of its places that takes it, a reserve card
        replaced in its place from the waste's top (else from the stock); when none fits,
        draw; at the end of the stock, stop."""
        beam = self.beam
        places, left_cards = beam.places, beam.left_cards
        _, stream, drawn, w, r, h, lh = pos
        waste, reserve, hs, left = list(w), list(r), list(h), list(lh)
        n = len(stream)
        placed = sum(hs)
        while True:
            f = -1
            for step in (0, 1, 2) if not left_last else (1, 2, 0):
                if step == 0:
                    for p in range(len(left)):
                        f = _first_fit(places[left_cards[p][left[p] - 1]], hs) if left[p] else -1
                        if f >= 0:
                            left[p] -= 1
                            break
                elif step == 1:
                    f = _first_fit(places[waste[-1]], hs) if waste else -1
                    if f >= 0:
                        waste.pop()
                else:
                    for j in range(len(reserve)):
                        f = _first_fit(places[reserve[j]], hs)
                        if f >= 0:
                            if waste:
                                reserve[j] = waste.pop()
                            elif drawn < n:
                                reserve[j] = stream[drawn]
                                drawn += 1
                            else:
                                del reserve[j]
                            break
                if f >= 0:
                    break
            if f >= 0:
                hs[f] += 1
                placed += 1
                continue
            if drawn >= n:
                return placed
            waste.append(stream[drawn])
            drawn += 1

    def run(self) -> tuple[bool | None, str | None]:
        """(True, None) won (the line in :meth:`move_texts`), (False, None) no line wins (a
        pass left no position out), else (None, which budget ran out; the states budget
        also when the widest passes are done)."""
        beam = self.beam
        if beam.stuck:
            return False, None
        if sum(beam.root[5]) == beam.total:
            return True, None
        try:
            for width in ROLLOUT_WIDTHS:
                for left_last in (0, 1):
                    self.width, self.left_last = width, left_last
                    won, pruned = False, True
                    if self.native is not None:
                        try:
                            won, pruned = self._pass_native(width, left_last)
                        except OverflowError:  # (a position larger than the C pass holds)
                            self.native = None
                    if self.native is None:
                        won, pruned = self._pass(width, left_last)
                    if won:
                        return True, None
                    if not pruned:
                        return False, None
        except SearchLimit as e:
            return None, e.which
        except MemoryError:
            return None, LIMIT_MEMORY
        return None, LIMIT_STATES

    def _pass(self, width: int, left_last: int) -> tuple[bool, bool]:
        """One pass (the class's text): (won, pruned); with a win ``beam.path`` holds the
        line."""
        beam = self.beam
        total = beam.total
        level: list[tuple[Position, Line]] = [(beam.root, None)]
        pruned = False
        depth = 0
        while level:
            cands: list[tuple[int, int, Position, Line]] = []
            seen: set[Position] = set()
            for pos, line in level:
                self.nodes += 1
                if not self.nodes & 1023:
                    self.limits.check(self.nodes)
                for move, child in beam.children(pos):
                    if move != _DRAW and sum(child[5]) == total:
                        beam.path = unwind((move, line))
                        return True, pruned
                    key = _key(child)
                    if key in seen:
                        continue
                    seen.add(key)
                    if beam.crossed(child):
                        continue  # (lost: no line wins from it)
                    cands.append((-self.rollout(child, left_last), len(cands), child, (move, line)))
            self.kept = max(self.kept, len(cands))
            if len(cands) > width:
                pruned = True
            cands.sort(key=lambda x: (x[0], x[1]))
            level = [(child, line) for _, _, child, line in cands[:width]]
            if level:
                depth += 1
                self.max_depth = max(self.max_depth, depth)
        return False, pruned

    def _pass_native(self, width: int, left_last: int) -> tuple[bool, bool]:
        """:meth:`_pass` in C (``reserve_native.c``: the same positions, scores and
        line)."""
        beam = self.beam
        won, pruned, nodes, kept, depth, path, limit = self.native.rollout_beam(
            (tuple(beam.sequences), tuple(beam.left_cards), False, b"", b"", b""),
            beam.root,
            width,
            left_last,
            self.nodes,
            self._native_check,
        )
        self.nodes = nodes
        self.kept = max(self.kept, kept)
        self.max_depth = max(self.max_depth, depth)
        if limit is not None:
            raise SearchLimit(limit)
        if won:
            beam.path = path
        return bool(won), bool(pruned)


_MASK64 = (1 << 64) - 1


def _first_fit(places: list[tuple[int, int]], hs: list[int]) -> int:
    """The first foundation among a card's ``places`` that takes it at heights ``hs``, or
    -1."""
    for f, k in places:
        if hs[f] == k:
            return f
    return -1


def _up(hs: bytes, f: int) -> bytes:
    """The heights with foundation ``f`` one card higher."""
    return hs[:f] + bytes((hs[f] + 1,)) + hs[f + 1 :]


def _down(left: bytes, p: int) -> bytes:
    """The left piles' heights with pile ``p`` one card lower."""
    return left[:p] + bytes((left[p] - 1,)) + left[p + 1 :]


def _insert(cards: bytes, c: int) -> bytes:
    """The sorted ``cards`` with ``c`` added, still sorted."""
    i = 0
    while i < len(cards) and cards[i] < c:
        i += 1
    return cards[:i] + bytes((c,)) + cards[i:]


def _level(pos: Position) -> int:
    """How far the position is along the game: passes, then cards drawn."""
    return pos[0] * 4096 + pos[2]


def _key(pos: Position) -> Position:
    """The position as a key: the first pass's stock is the root's, so only how many of
    its cards are drawn counts."""
    return pos if pos[0] else (0, b"", pos[2], pos[3], pos[4], pos[5], pos[6])
