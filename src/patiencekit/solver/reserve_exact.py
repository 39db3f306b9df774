"""An exact search for the reserve games without a redeal (Picture Patience, Royal
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

from __future__ import annotations

from patiencekit.solver.limits import LIMIT_MEMORY, Limits, SearchLimit
from patiencekit.solver.reserve import _DRAW, Position, ReserveBeam, _key
from patiencekit.state import EngineMove, State

__all__ = ["ReserveExact"]


class ReserveExact:
    """The pruned exact search from one position (:meth:`applies`)."""

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
    ) -> None:
        if not self.applies(state):
            raise ValueError(f"{state.t.rules.id}: not a reserve game without a redeal")
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
        """True when the relaxed game (the module's text) cannot be won from ``pos``."""
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
        if buried:
            free[buried.pop()] += 1
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
                    if buried:
                        x = buried.pop()
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
            buried.append(-1)  # (the blank)
            c = stream[j]
            j += 1
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
        seen: set[Position] = {_key(root)}
        stack: list[tuple[list[tuple[int, Position]], int]] = [(beam.children(root), 0)]
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
                stack.append((beam.children(child), 0))
            return False, None
        except SearchLimit as e:
            return None, e.which
        except MemoryError:
            return None, LIMIT_MEMORY
        finally:
            self.kept = len(seen)

    def engine_moves(self) -> list[EngineMove]:
        """The found line as the engine's moves, each checked legal on the way."""
        return self.beam.engine_moves()

    def move_texts(self) -> list[str]:
        """The found line in the notation."""
        return self.beam.move_texts()

