"""A thoughtful Klondike solver: depth-first search with a Zobrist transposition table.

The solver knows the face-down cards ("thoughtful" Klondike, what winnability
studies mean). What makes it fast, after Solvitaire and lonelybot:

- **Stock macro moves** ("K+"): the stock and waste are one sequence, the
  talon; a move plays any card the player could reach by drawing (and turning
  the waste over) straight to its target. With draw 1 every talon card is
  reachable, so the draw position is not even part of the state.
- **Tableau rearrangement is implicit** (after lonelybot): a position's key
  does not tell which of the two cards of a rank and colour (its parents) each
  face-up card lies on, only that it lies on one. All positions with one key
  are as good as each other (a string moves from one parent to the other's
  twin in one move, whenever that twin is free), so a card that could go onto
  either parent has one move, a string moves off a column only whole (to turn
  up a card, or to empty the column for a king; a king moves to the first empty
  column only), and a card under a string goes to its foundation in one move
  when its twin is a column's top (the string goes onto the twin first; see
  :meth:`KlondikeSearch.moves`).
- **Safe foundation moves** (a dominance): a card goes up at once when no card
  left in play could ever need it; with draw 3 the talon's last card too, when
  that loses no other talon card its turn; when it would, the cards that only
  the next pass brings up wait for it.
- **A transposition table keyed by a 64-bit Zobrist hash** updated in O(1)
  per move, with pile symmetry: a column with no face-down card hashes the
  same whichever column it is. A move into a position of the table is skipped
  without being played (:meth:`KlondikeSearch.child_key`).
- **A draw-position dominance** (draw 3): a position is cut when the same
  position with an earlier draw position of the same pass rhythm is in the
  table, as that one can play every line this one can
  (:meth:`KlondikeSearch._dominated`, where it is proved).

The search runs in three phases (:meth:`KlondikeSearch.run`): a short depth-first
search, which decides most deals at once; greedy best-first passes after
Klondike-Solver's fast mode (:meth:`KlondikeSearch.greedy`), which find wins that
the depth-first search would reach only late; then the exhaustive depth-first
search with what is left of the budget. The greedy passes add no pruning: they
play the same moves and can only ever report a win, never "unsolvable".

The search is exact: ``solved`` comes with a line that the engine replays to a
win, ``unsolvable`` means the whole (pruned) space was searched.

The depth-first search is also written in C (``klondike_native.c``, built by
``tools/build_fast.py native``): the same search move for move, with the same keys, in a
table of 8-byte slots, about ten times as fast as this module compiled with mypyc. When it
is built from that file as it is now it runs both depth-first phases
(:meth:`KlondikeSearch._dfs`); this module's :meth:`KlondikeSearch.search` is the reference
the tests hold it to, and runs without it.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterable
from typing import Any, Final

from patiencekit.compiled import native_module
from patiencekit.solver.limits import LIMIT_MEMORY, Limits, SearchLimit
from patiencekit.state import DRAW, TURN, State

__all__ = ["KlondikeSearch"]

_TALON_TO_FOUNDATION: Final = 0
_TALON_TO_COLUMN: Final = 1
_COLUMN_TO_FOUNDATION: Final = 2
_COLUMN_TO_COLUMN: Final = 3
_FOUNDATION_TO_COLUMN: Final = 4
#: a card to its foundation from under a string, which first goes onto the card's twin
#: (the other card of its rank and colour, a column's top): (kind, column, the string's
#: length, the twin's column, card)
_SWAP_TO_FOUNDATION: Final = 5

_IN_TALON: Final = 0
_ON_FOUNDATION: Final = 1
_ON_CARD: Final = 2  # on a card (which of the card's two parents is not part of the key)
_ON_HIDDEN: Final = 54  # + column: on the face-down cards of that column
_ON_EMPTY: Final = 61  # the bottom card of a column without face-down cards
_CODES: Final = 62

_KING: Final = 12

#: positions the first depth-first search may expand before the greedy passes (-1: no cap)
FIRST_DFS_NODES: Final = -1
#: the share of the time budget the first depth-first search may spend (processor time)
FIRST_DFS_SHARE: Final = 0.1
#: the greedy passes: (two_shift, three_shift) of :meth:`KlondikeSearch.greedy`, as in
#: Klondike-Solver's fast mode, but the narrowest (quickest to dive to a win) first
GREEDY_PASSES: Final[tuple[tuple[int, int], ...]] = ((1, 4), (0, 4), (0, 0))
#: positions each greedy pass may keep
GREEDY_CLOSED: Final = 200_000
#: the share of the time budget the greedy passes may spend in all (processor time)
GREEDY_SHARE: Final = 0.3
#: priority buckets of the greedy passes (a priority past the last drops the position)
_BUCKETS: Final = 4096
#: how many earlier draw positions the draw-position dominance looks up
#: (:meth:`KlondikeSearch._dominated`)
_DOMINANCE_PROBES: Final = 3
#: internal: in :meth:`KlondikeSearch.move_texts`' list of engine moves, ``(_BRING, card, 0)``
#: stands for the draws and turns that bring ``card`` to the waste's top (worked out as they
#: are played; the engine's own stock moves are -1 and -2)
_BRING: Final = -3
#: internal: a phase of :meth:`KlondikeSearch.run` used up its own budget
_PHASE_OVER: Final = "phase"

#: Zobrist keys of 62 bits: they and their xors stay small integers in the compiled
#: module (no allocation per update); two of ten million positions collide with odds of
#: about one in 100,000
_KEY_BITS: Final = 62
_rng: Final = random.Random(0x5EED)
_Z: Final = [[_rng.getrandbits(_KEY_BITS) for _ in range(_CODES)] for _ in range(52)]
_ZH: Final = [[_rng.getrandbits(_KEY_BITS) for _ in range(24)] for _ in range(7)]

#: the depth-first search in C (``klondike_native.c``, built by ``tools/build_fast.py
#: native``) when it was built from that file as it is now, else None: then
#: :meth:`KlondikeSearch.search` runs. It is the same search, move for move, with the same
#: keys (it gets the Zobrist keys above), in a table of 8-byte slots
_NATIVE: Final[Any] = native_module(
    "patiencekit.solver.klondike_native", "klondike_native.c", "Klondike depth-first search"
)
if _NATIVE is not None:
    _NATIVE.set_keys(_Z, _ZH)
#: which depth-first search runs: the sha256 of the C file the native one was built from,
#: or ``"python"``
NATIVE_BUILD: Final[str] = str(_NATIVE.SOURCE_SHA256) if _NATIVE is not None else "python"


def reachable_positions(n: int, p: int, draw: int) -> list[int]:
    """Talon positions that can come to the waste's top, for a talon of ``n`` cards with
    ``p`` of them on the waste: its top, each turn of ``draw`` on in this pass, and each
    turn of a pass after the waste is turned over."""
    if draw == 1:
        return list(range(n))
    out: list[int] = [p - 1] if p > 0 else []
    q = p
    while q < n:
        q = q + draw if q + draw < n else n
        out.append(q - 1)
    # After the turn-over the whole talon comes round again from its start: its turns
    # need not meet this pass's (they do only when p is a multiple of draw), so the
    # next pass is followed to the end. Later passes repeat it.
    q = 0
    while q < n:
        q = q + draw if q + draw < n else n
        if q - 1 not in out:
            out.append(q - 1)
    return out


def _reach_mask(n: int, p: int, draw: int) -> int:
    """The set :func:`reachable_positions` lists, as a bit mask (bit ``i``: position ``i``),
    made without the list (a search's first start builds some 1,400 of them)."""
    mask = 1 << (p - 1) if p > 0 else 0
    q = p
    while q < n:
        q = q + draw if q + draw < n else n
        mask |= 1 << (q - 1)
    q = 0
    while q < n:
        q = q + draw if q + draw < n else n
        mask |= 1 << (q - 1)
    return mask


_M64: Final = (1 << 64) - 1


def _mix(x: int) -> int:
    """splitmix64's finaliser: a well-mixed 62-bit key of ``x``."""
    z = (x + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return (z ^ (z >> 31)) >> (64 - _KEY_BITS)


def _reach_row(n: int, draw: int) -> list[int]:
    """row[p]: a Zobrist key of the *set* of talon positions reachable with ``n`` talon
    cards, ``p`` of them on the waste. Two draw positions with the same reachable set have
    the same future (any talon move resets the position to where the card was), so the
    transposition table need not tell them apart: the key is a function of ``n`` and the
    set alone, the same in every process. (Draw 1 needs none: every card is reachable.)"""
    return [_mix((draw << 60) | (n << 53) | _reach_mask(n, p, draw)) for p in range(n + 1)]


#: reachable_positions per (draw, talon size, draw position), made when first asked
_REACH_LISTS: Final[dict[int, list[int]]] = {}


def _reach_list(n: int, p: int, draw: int) -> list[int]:
    """:func:`reachable_positions`, kept once made (callers must not change the list)."""
    k = (draw << 12) | (n << 6) | p
    out = _REACH_LISTS.get(k)
    if out is None:
        out = reachable_positions(n, p, draw)
        _REACH_LISTS[k] = out
    return out


#: per draw, the rows of :func:`_reach_row` for talons of 0, 1, ... cards, made as far as a
#: search has needed them (a deal's talon has 24 cards; a hand-made position up to 52)
_REACH_KEYS: Final[dict[int, list[list[int]]]] = {1: [], 2: [], 3: []}

# parents[c]: the two cards c may be placed on; children the reverse
_PARENTS: Final[list[tuple[int, int]]] = []
for _c in range(52):
    _r, _s = _c % 13, _c // 13
    _other = (2, 3) if _s < 2 else (0, 1)
    _PARENTS.append((_other[0] * 13 + _r + 1, _other[1] * 13 + _r + 1) if _r < _KING else (-1, -1))
_OPPOSITE: Final = [(2, 3), (2, 3), (0, 1), (0, 1)]
_SAME_OTHER: Final = [1, 0, 3, 2]

#: a move of the search: (kind, a, b, c, card or count), the kinds above; not the
#: engine's move (:mod:`patiencekit.state`) nor the notation's
SearchMove = tuple[int, int, int, int, int]


class KlondikeSearch:
    """One search over one Klondike position (thoughtful: face-down cards known)."""

    def __init__(
        self,
        state: State,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
        first_dfs_nodes: int = FIRST_DFS_NODES,
        greedy_passes: tuple[tuple[int, int], ...] = GREEDY_PASSES,
        native: bool = True,
    ) -> None:
        self.start = state
        #: the C depth-first search (``klondike_native``) when it is built and ``native``,
        #: else None (:meth:`search` runs)
        self.native: Any = _NATIVE if native else None
        self.first_dfs_nodes = first_dfs_nodes
        self.greedy_passes = greedy_passes
        self.draw = state.t.draw
        self.hidden: list[list[int]] = []
        self.up: list[list[int]] = []
        self.found: list[int] = []
        self.talon: list[int] = []
        self.p = 0
        self.reach_keys = _REACH_KEYS.setdefault(self.draw, [])
        self.loc = [_ON_FOUNDATION] * 52
        self.path: list[SearchMove] = []
        #: the transposition table: a ``set`` of keys, or the C search's ``KeySet`` (the
        #: same keys, ``add``, ``discard``, ``in`` and ``len``)
        self.seen: Any = self.native.KeySet() if self.native is not None else set()
        #: keys of positions the search must not enter (see :meth:`forbid`)
        self.dead: set[int] = set()
        #: the keys of the positions on the line being searched (see :meth:`_phases`)
        self.line: list[int] = []
        #: the draw-position dominance (see :meth:`_dominated`) is used (False: the search
        #: as before it, for the A/B tests)
        self.draw_dominance = True
        #: the keys of the line the first phase left (see :meth:`_phases`): never cut by
        #: the dominance
        self.old_line: Any = set()
        self.nodes = 0
        #: the budgets are checked every ``check_mask + 1`` positions (a hint's small
        #: searches check more often, or they run far past their budget)
        self.check_mask = 1023
        self.max_depth = 0
        self.max_seconds = max_seconds
        self.limits = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        #: the current phase's own cap on expanded positions (-1: none), see :meth:`run`
        self.phase_nodes = -1
        #: the current phase's own deadline, in processor time (``time.process_time``,
        #: so that a busy machine does not starve one phase for the next; the budget
        #: itself is wall time); -1: none
        self.phase_deadline = -1.0
        #: which phase decided (or last ran): "dfs", "greedy" or "exhaustive"
        self.phase = ""
        self.hash = 0
        self._load()

    def _load(self) -> None:
        """Set the search's position to the start position (a phase left mid-line by a
        limit starts over from here)."""
        state = self.start
        t = state.t
        self.hidden = []
        self.up = []
        for ci in t.columns:
            pile = state.piles[ci]
            d = state.down[ci]
            self.hidden.append(pile[:d])
            self.up.append(pile[d:])
        self.found = [len(state.piles[f]) for f in t.foundations]
        waste = state.piles[t.waste]
        stock = state.piles[t.stock]
        self.talon = waste + stock[::-1]
        self.p = len(waste)
        self.path = []
        self._rehash()

    def forbid(self, states: Iterable[State]) -> None:
        """Never enter these positions (of this deal; a hint's game history): the search
        treats them as searched without a win, so a line it finds avoids them. A
        position is known by its key, which is a function of the cards' places, the
        face-down counts, the *set* of talon cards and the draw position (never the
        talon's order nor which face-down card is which, nor which of the two cards
        of a rank and colour a face-up card lies on)."""
        start = self.start
        root = self.hash  # (the start position is loaded)
        try:
            for state in states:
                self.start = state
                self._load()
                # a position the search cannot tell from the start (in draw 1 the draw
                # position is not part of the key) is the start itself to it
                if self.hash != root:
                    self.dead.add(self.hash)
                    self.seen.add(self.hash)
        finally:
            self.start = start
            self._load()

    def first_move(self, state: State) -> tuple[int, int, int] | None:
        """The engine move that starts the found line from ``state`` (the start position):
        a draw or turn when the line's first talon card is not on the waste's top yet."""
        if not self.path:
            return None
        kind, a, b, c, card = self.path[0]
        t = state.t
        if kind in (_TALON_TO_FOUNDATION, _TALON_TO_COLUMN):
            waste = state.piles[t.waste]
            if not waste or waste[-1] != card:
                return DRAW if state.piles[t.stock] else TURN
            dst = t.foundations[card // 13] if kind == _TALON_TO_FOUNDATION else t.columns[b]
            return (t.waste, dst, 1)
        if kind == _COLUMN_TO_FOUNDATION:
            return (t.columns[a], t.foundations[card // 13], 1)
        if kind == _COLUMN_TO_COLUMN:
            return (t.columns[a], t.columns[c], card)
        if kind == _SWAP_TO_FOUNDATION:
            return (t.columns[a], t.columns[c], b)
        return (t.foundations[a], t.columns[b], 1)

    # -- hashing ------------------------------------------------------------------

    def _base_code(self, col: int) -> int:
        return _ON_HIDDEN + col if self.hidden[col] else _ON_EMPTY

    def _rehash(self) -> None:
        loc = self.loc
        for i in range(52):
            loc[i] = _ON_FOUNDATION
        for c in self.talon:
            loc[c] = _IN_TALON
        h = 0
        for col in range(7):
            h ^= _ZH[col][len(self.hidden[col])]
            up = self.up[col]
            for k, c in enumerate(up):
                loc[c] = self._base_code(col) if k == 0 else _ON_CARD
            for c in self.hidden[col]:
                loc[c] = -1
        for c in range(52):
            if loc[c] >= 0:
                h ^= _Z[c][loc[c]]
        if self.draw != 1:
            rows = self.reach_keys
            while len(rows) <= len(self.talon):
                rows.append(_reach_row(len(rows), self.draw))
            h ^= rows[len(self.talon)][self.p]
        self.hash = h

    def _set(self, card: int, code: int) -> None:
        z = _Z[card]
        self.hash ^= z[self.loc[card]] ^ z[code]
        self.loc[card] = code

    # -- moves ----------------------------------------------------------------------

    def reachable(self) -> list[int]:
        """Talon positions the player can bring to the waste's top (draw, turn over)."""
        return _reach_list(len(self.talon), self.p, self.draw)

    def _safe(self, card: int) -> bool:
        """A card on its foundation's next place whose going up loses no win: the two
        foundations of the other colour within two ranks of it and the other of its
        colour within three (Solvitaire's dominance, proved by Blake & Gent; lonelybot's
        ``dominance_mask``). A card of the other colour that could still need it as a
        parent is next on its foundation, and so is any card that could go on that one."""
        r = card % 13
        if r <= 1:
            return True
        s = card // 13
        f = self.found
        a, b = _OPPOSITE[s]
        return f[a] >= r - 1 and f[b] >= r - 1 and f[_SAME_OTHER[s]] >= r - 2

    def _twin(self, card: int) -> int:
        """The other card of ``card``'s rank and colour (it takes the same cards)."""
        return _SAME_OTHER[card // 13] * 13 + card % 13

    def _to_foundation(self, card: int, tops: list[int]) -> SearchMove | None:
        """The move that puts a face-up ``card`` (next on its foundation) up, or None:
        from a column's top; or from under a string that first goes onto the card's
        twin, when the twin is a column's top (``tops[card]``: the column whose top the
        card is, else -1). The two are one move to the search: which of a rank and
        colour's two cards a string lies on is not part of a position's key."""
        j = tops[card]
        if j >= 0:
            return (_COLUMN_TO_FOUNDATION, j, 0, 0, card)
        jt = tops[self._twin(card)]
        if jt < 0:
            return None
        up = self.up
        for i in range(7):
            u = up[i]
            for k in range(len(u) - 1):
                if u[k] == card:
                    return (_SWAP_TO_FOUNDATION, i, len(u) - 1 - k, jt, card)
        return None

    def _tops(self) -> list[int]:
        """tops[card]: the column whose top card it is, else -1 (tops[-1], the "parent"
        of a king, stays -1)."""
        tops = [-1] * 53
        up = self.up
        for j in range(7):
            if up[j]:
                tops[up[j][-1]] = j
        return tops

    def moves(self) -> list[SearchMove]:
        """The pruned moves, best first.

        The moves are those of a position's *class*: positions that differ only in which
        of a rank and colour's two cards each string lies on have one key (see
        :meth:`_rehash`) and one set of next classes, as lonelybot's search has it. A
        string moves only whole: from over face-down cards (turning one up), or off a
        column without any when a king waits for the column; a card goes to its
        foundation from a column's top or from under a string that moves onto the
        card's twin first (:meth:`_to_foundation`); each card that could go onto either
        of two cards has one move (onto the first), as both lead to the same class.
        Moving a string from one card to the other's twin changes nothing the key
        knows and is never a move.
        """
        up = self.up
        hidden = self.hidden
        found = self.found
        talon = self.talon
        loc = self.loc
        first: list[SearchMove] = []
        reveal: list[tuple[int, SearchMove]] = []
        rest: list[SearchMove] = []
        last: list[SearchMove] = []
        tops = self._tops()
        empty = -1
        for j in range(7):
            if not up[j]:
                empty = j
                break
        # is there a king that an empty column could still take?
        king_waits = False
        for s in range(4):
            king = s * 13 + _KING
            where = loc[king]
            if where == _IN_TALON or where == -1 or (_ON_HIDDEN <= where < _ON_EMPTY):
                king_waits = True
                break
        # cards to their foundations
        for s in range(4):
            h = found[s]
            if h < 13 and loc[s * 13 + h] >= _ON_CARD:
                m = self._to_foundation(s * 13 + h, tops)
                if m is not None:
                    first.append(m)
        # columns: the strings that may move whole (their first cards are "heads"), and
        # the cards whose strings may move off them for a foundation move (heads too)
        heads = [False] * 52
        for i in range(7):
            u = up[i]
            if not u:
                continue
            for k in range(1, len(u)):
                below = u[k - 1]
                if found[below // 13] == below % 13:
                    heads[u[k]] = True
            card = u[0]
            nh = len(hidden[i])
            if nh == 0 and (card % 13 == _KING or not king_waits):
                continue
            heads[card] = True
            pa, pb = _PARENTS[card]
            j = tops[pa]
            if j < 0:
                j = tops[pb]
            if j < 0 and card % 13 == _KING:
                j = empty
            if j >= 0:
                if nh:
                    reveal.append((nh, (_COLUMN_TO_COLUMN, i, 0, j, len(u))))
                else:
                    rest.append((_COLUMN_TO_COLUMN, i, 0, j, len(u)))
        # talon
        reach = self.reachable()
        plays = reach
        draw1 = self.draw == 1
        if not draw1 and self._last_safe():
            # the talon's last card is safe (and, the draw position not pure, not played
            # by _auto): a card only the next pass brings up can wait for it, as playing
            # the last card first keeps every other card's turn (lonelybot's deck filter)
            plays = self._this_pass(reach)
        for idx in plays:
            card = talon[idx]
            if found[card // 13] == card % 13:
                first.append((_TALON_TO_FOUNDATION, idx, 0, 0, card))
            # with draw 1 a talon card can wait in the talon until a card goes on it
            if draw1 and not self._useful(card, heads, reach, 13):
                continue
            pa, pb = _PARENTS[card]
            j = tops[pa]
            if j < 0:
                j = tops[pb]
            if j < 0 and card % 13 == _KING:
                j = empty
            if j >= 0:
                rest.append((_TALON_TO_COLUMN, idx, j, 0, card))
        # foundation tops back down, when a card could then go on them
        for s in range(4):
            h = found[s]
            if h < 2:
                continue
            card = s * 13 + h - 1
            # a safe card would go straight back up
            if self._safe(card) or not self._useful(card, heads, reach, 13):
                continue
            pa, pb = _PARENTS[card]
            j = tops[pa]
            if j < 0:
                j = tops[pb]
            if j >= 0:
                last.append((_FOUNDATION_TO_COLUMN, s, j, 0, card))
        # turning cards up first, foundation moves (that are not safe, so not automatic)
        # after the building moves: measured best on draw 1, no worse on draw 3
        reveal.sort(key=lambda x: -x[0])
        return [m for _, m in reveal] + rest + first + last

    def _this_pass(self, reach: list[int]) -> list[int]:
        """The talon positions of ``reach`` that this pass brings up (no turn-over)."""
        p = self.p
        d = self.draw
        last = len(self.talon) - 1
        return [i for i in reach if i == p - 1 or i == last or (i >= p and (i - p + 1) % d == 0)]

    def _useful(self, card: int, heads: list[bool], reach: list[int], depth: int) -> bool:
        """Could a card be put on ``card`` (once it is on a column) and lead somewhere?

        True when one of the two cards that go on it heads a string that may move,
        or (searching ``depth`` steps on) comes from the talon or a foundation
        and is itself useful. With draw 3, taking any card from the talon is useful.
        """
        r = card % 13
        if r == 0:
            return False
        children = (2 * 13 + r - 1, 3 * 13 + r - 1) if card < 26 else (r - 1, 13 + r - 1)
        loc = self.loc
        for y in children:
            if heads[y]:
                return True
            where = loc[y]
            if where == _IN_TALON:
                if self.draw != 1:
                    if self.talon.index(y) in reach:
                        return True
                elif depth > 0 and self._useful(y, heads, reach, depth - 1):
                    return True
            elif (
                where == _ON_FOUNDATION
                and self.found[y // 13] == r
                and depth > 0
                and self._useful(y, heads, reach, depth - 1)
            ):
                return True
        return False

    def child_key(self, m: SearchMove) -> int:
        """The key :meth:`apply` would give the position after ``m``, without playing it:
        the same Zobrist updates, worked out from the position as it is. Most moves of a
        search lead to a position in the table (about two in three), and this spares
        them the move and its undo. Exactly ``apply``'s key (a test checks it on every
        move of many positions)."""
        kind, a, b, c, card = m
        loc = self.loc
        z = _Z[card]
        if kind == _COLUMN_TO_COLUMN:
            u = self.up[a]
            first = u[b]
            zf = _Z[first]
            h = self.hash ^ zf[loc[first]] ^ zf[_ON_CARD if self.up[c] else _ON_EMPTY]
            if b == 0:
                h ^= self._reveal_key(a)
            return h
        if kind in (_COLUMN_TO_FOUNDATION, _SWAP_TO_FOUNDATION):
            h = self.hash ^ z[loc[card]] ^ z[_ON_FOUNDATION]
            # the card was the column's first face-up card: one is turned up
            if len(self.up[a]) == (1 if kind == _COLUMN_TO_FOUNDATION else b + 1):
                h ^= self._reveal_key(a)
            return h
        if kind == _FOUNDATION_TO_COLUMN:
            return self.hash ^ z[_ON_FOUNDATION] ^ z[_ON_CARD]
        h = self.hash
        if self.draw != 1:
            n = len(self.talon)
            h ^= self.reach_keys[n][self.p] ^ self.reach_keys[n - 1][a]
        if kind == _TALON_TO_FOUNDATION:
            return h ^ z[_IN_TALON] ^ z[_ON_FOUNDATION]
        return h ^ z[_IN_TALON] ^ z[_ON_CARD if self.up[b] else _ON_EMPTY]

    def _dominated(self, m: SearchMove, key: int) -> bool:
        """Is the position after ``m`` (key ``key``) dominated by a position in the table
        (searched, or on the line): the same but for an earlier draw position in the
        same pass rhythm? (The table's key of a position before its safe moves stands
        for the position after them, as in :meth:`search`: two positions alike but for
        such draw positions have the same safe moves, see below.)

        With draw ``d``, take two positions alike but for the draw position, ``q < p``
        cards on the waste, ``q`` and ``p`` alike modulo ``d`` and neither a multiple of
        ``d`` nor the whole talon (not "pure", :meth:`_pure`). The talon positions this
        pass brings up from ``q`` are those it brings up from ``p`` and more (the turns
        from ``q - 1`` on, ``d`` apart, pass through ``p - 1``), and the next pass brings
        up the same ones from both; so the reachable set and this pass's set of the
        ``q`` position hold the ``p`` position's. Then every line from the ``p``
        position is a line from the ``q`` position, move for move: a talon move leads
        both to the same position (its draw position is the card's place); any other
        move (the same pruned move, as :meth:`moves` depends on the draw position only
        through those two sets, and more of them only adds moves) leaves the two
        positions alike but for the same draw positions; the safe moves are the same
        (neither is pure, so the talon's last card goes up by itself from neither).
        So the ``q`` position wins in as few moves as the ``p`` one.

        Cutting a dominated position loses no win, by the argument for cutting a
        position found in the table, with an induction on the moves to a win: if a
        complete search (every position it entered searched to its end) misses a win,
        follow a shortest winning line from the start: it meets a cut position, whose
        dominating position (entered, so searched) wins in as many moves or fewer; its
        shortest winning line meets another cut position nearer a win; and so on, which
        cannot go on forever. (Between phases the positions left on the line are dropped
        from the table, and never cut by the dominance after, see :meth:`_phases`.)"""
        # only after a talon move: 98 % of the dominated positions found on three hard
        # deals, for four in five of the look-ups (cutting fewer is always sound)
        if m[0] > _TALON_TO_COLUMN:
            return False
        n = len(self.talon) - 1
        p = m[1]
        d = self.draw
        if p % d == 0 or p == n:
            return False
        row = self.reach_keys[n]
        # the key without its draw position
        group = key ^ row[p]
        seen = self.seen
        # the nearest three of them: nearly all the dominating positions found (97 % on
        # three hard deals, 85 % the nearest alone), for a third of the look-ups
        q = p - d
        stop = p - _DOMINANCE_PROBES * d
        while q > 0 and q >= stop:
            if group ^ row[q] in seen:
                return key not in self.old_line
            q -= d
        return False

    def _reveal_key(self, col: int) -> int:
        """The key change of turning up column ``col``'s last face-down card, if any
        (:meth:`_reveal`, the column's face-up cards all gone)."""
        hid = self.hidden[col]
        n = len(hid)
        if not n:
            return 0
        code = _ON_EMPTY if n == 1 else _ON_HIDDEN + col
        return _ZH[col][n] ^ _ZH[col][n - 1] ^ _Z[hid[-1]][code]

    def apply(self, m: SearchMove) -> int:
        """Apply a move; returns what undo needs (old draw position, or whether a card
        was turned up)."""
        kind, a, b, c, card = m
        up = self.up
        if kind == _COLUMN_TO_FOUNDATION:
            up[a].pop()
            self._set(card, _ON_FOUNDATION)
            self.found[card // 13] += 1
            return self._reveal(a)
        if kind == _COLUMN_TO_COLUMN:
            u = up[a]
            run = u[b:]
            del u[b:]
            dst = up[c]
            self._set(run[0], _ON_CARD if dst else _ON_EMPTY)
            dst.extend(run)
            return self._reveal(a) if b == 0 else 0
        if kind == _FOUNDATION_TO_COLUMN:
            self.found[a] -= 1
            dst = up[b]
            self._set(card, _ON_CARD)
            dst.append(card)
            return 0
        if kind == _SWAP_TO_FOUNDATION:
            # the string (b cards) onto the twin: its first card stays on a card
            u = up[a]
            n = len(u) - b
            up[c].extend(u[n:])
            del u[n:]
            u.pop()
            self._set(card, _ON_FOUNDATION)
            self.found[card // 13] += 1
            return self._reveal(a)
        talon = self.talon
        old_p = self.p
        if self.draw != 1:
            n = len(talon)
            self.hash ^= self.reach_keys[n][old_p] ^ self.reach_keys[n - 1][a]
        talon.pop(a)
        self.p = a
        if kind == _TALON_TO_FOUNDATION:
            self._set(card, _ON_FOUNDATION)
            self.found[card // 13] += 1
        else:
            dst = up[b]
            self._set(card, _ON_CARD if dst else _ON_EMPTY)
            dst.append(card)
        return old_p

    def undo(self, m: SearchMove, info: int) -> None:
        """Take back ``apply(m)``, which returned ``info``."""
        kind, a, b, c, card = m
        up = self.up
        if kind == _COLUMN_TO_FOUNDATION:
            if info:
                self._unreveal(a)
            self.found[card // 13] -= 1
            self._set(card, _ON_CARD if up[a] else self._base_code(a))
            up[a].append(card)
            return
        if kind == _COLUMN_TO_COLUMN:
            if info:
                self._unreveal(a)
            dst = up[c]
            n = len(dst) - card
            run = dst[n:]
            del dst[n:]
            src = up[a]
            self._set(run[0], _ON_CARD if src else self._base_code(a))
            src.extend(run)
            return
        if kind == _FOUNDATION_TO_COLUMN:
            card = up[b].pop()
            self._set(card, _ON_FOUNDATION)
            self.found[a] += 1
            return
        if kind == _SWAP_TO_FOUNDATION:
            if info:
                self._unreveal(a)
            self.found[card // 13] -= 1
            self._set(card, _ON_CARD if up[a] else self._base_code(a))
            u = up[a]
            u.append(card)
            dst = up[c]
            n = len(dst) - b
            u.extend(dst[n:])
            del dst[n:]
            return
        if kind == _TALON_TO_FOUNDATION:
            self.found[card // 13] -= 1
        else:
            up[b].pop()
        self._set(card, _IN_TALON)
        n = len(self.talon)
        if self.draw != 1:
            self.hash ^= self.reach_keys[n][self.p] ^ self.reach_keys[n + 1][info]
        self.talon.insert(a, card)
        self.p = info

    def _reveal(self, col: int) -> int:
        if self.up[col] or not self.hidden[col]:
            return 0
        self.hash ^= self._reveal_key(col)
        hid = self.hidden[col]
        card = hid.pop()
        self.up[col].append(card)
        self.loc[card] = _ON_EMPTY if not hid else _ON_HIDDEN + col
        return 1

    def _unreveal(self, col: int) -> None:
        card = self.up[col].pop()
        self.hash ^= _Z[card][self.loc[card]]
        self.loc[card] = -1
        hid = self.hidden[col]
        n = len(hid)
        hid.append(card)
        self.hash ^= _ZH[col][n] ^ _ZH[col][n + 1]

    # -- search ---------------------------------------------------------------------

    def _check(self, stored: int) -> None:
        """Raise :class:`SearchLimit` when a budget (``stored``: positions kept) or the
        phase's own cap is used up."""
        self.limits.check(stored)
        if 0 <= self.phase_nodes < self.nodes:
            raise SearchLimit(_PHASE_OVER)
        if self.phase_deadline >= 0 and time.process_time() > self.phase_deadline:
            raise SearchLimit(_PHASE_OVER)

    def _auto(self) -> list[tuple[SearchMove, int]]:
        """Play every safe foundation move (from a column's top or from under a string
        that goes onto the card's twin, see :meth:`_to_foundation`; with draw 1 from the
        talon too); returns them with their undo information."""
        applied: list[tuple[SearchMove, int]] = []
        found = self.found
        loc = self.loc
        draw1 = self.draw == 1
        changed = True
        while changed:
            changed = False
            for s in range(4):
                h = found[s]
                if h == 13:
                    continue
                card = s * 13 + h
                where = loc[card]
                if where >= _ON_CARD:
                    if self._safe(card):
                        m = self._to_foundation(card, self._tops())
                        if m is not None:
                            applied.append((m, self.apply(m)))
                            changed = True
                elif where == _IN_TALON and draw1 and self._safe(card):
                    m = (_TALON_TO_FOUNDATION, self.talon.index(card), 0, 0, card)
                    applied.append((m, self.apply(m)))
                    changed = True
            if not draw1 and self._last_safe() and self._pure():
                n = len(self.talon)
                m = (_TALON_TO_FOUNDATION, n - 1, 0, 0, self.talon[n - 1])
                applied.append((m, self.apply(m)))
                changed = True
        return applied

    def _last_safe(self) -> bool:
        """Is the talon's last card (the stock's bottom) next on its foundation, and safe?"""
        talon = self.talon
        if not talon:
            return False
        card = talon[-1]
        return self.found[card // 13] == card % 13 and self._safe(card)

    def _pure(self) -> bool:
        """Is the draw position at a turn of this pass the next pass meets too (the waste
        a multiple of the draw, or the whole talon)? Then every talon card this pass can
        bring up, the next pass can too."""
        return self.p % self.draw == 0 or self.p == len(self.talon)

    def _finish(self) -> None:
        """Every card face up and the talon empty: play them all up, lowest first."""
        up = self.up
        while True:
            best = -1
            for i in range(7):
                if up[i]:
                    top = up[i][-1]
                    lowest = best < 0 or top % 13 < up[best][-1] % 13
                    if self.found[top // 13] == top % 13 and lowest:
                        best = i
            if best < 0:
                return
            m: SearchMove = (_COLUMN_TO_FOUNDATION, best, 0, 0, up[best][-1])
            self.apply(m)
            self.path.append(m)

    def search(self) -> bool:
        """Depth-first search from the current position; True when a win is found
        (``path`` then holds the line). Raises :class:`SearchLimit`."""
        self.nodes += 1
        if not self.nodes & self.check_mask:
            self._check(len(self.seen))
        before = self.hash
        applied = self._auto()
        path = self.path
        for m, _ in applied:
            path.append(m)
        if not self.talon and not any(self.hidden):
            self._finish()
            return True
        h = self.hash
        seen = self.seen
        if h not in seen:
            seen.add(h)
            line = self.line
            line.append(h)
            if h != before:
                # the safe moves are a function of the position, so the position
                # before them is searched once the position after them is: keep both
                # keys, and a later line reaching either is cut before its safe moves
                seen.add(before)
                line.append(before)
            depth = len(path)
            if depth > self.max_depth:
                self.max_depth = depth
            # the draw-position dominance: only with draw 2 or 3, and not when some
            # positions are forbidden (a dominating position's line could pass through one)
            dominance = self.draw_dominance and self.draw != 1 and not self.dead
            for m in self.moves():
                # a position already in the table was searched (or is on the line
                # being searched): the same cut ``search`` makes, without the call,
                # and without playing the move (its key is known beforehand)
                key = self.child_key(m)
                if key in seen or (dominance and self._dominated(m, key)):
                    continue
                info = self.apply(m)
                path.append(m)
                if self.search():
                    return True
                path.pop()
                self.undo(m, info)
            line.pop()
            if h != before:
                line.pop()
        for m, info in reversed(applied):
            path.pop()
            self.undo(m, info)
        return False

    def blocked(self) -> bool:
        """A face-down card that can never leave its column (a static deadlock), so that
        the cards under it never come out: the position is lost.

        A face-down card leaves to its foundation (after the card below it in suit) or
        onto a card one rank higher of the other colour; kings and aces can always go.
        Each of those cards must come out first, which it cannot if it lies under the
        card in the same column, or under face-down cards that are themselves stuck.
        (The C module's ``blocked`` when it is in use: the same fixed point.)
        """
        if self.native is not None:
            return bool(self.native.blocked(self.hidden))
        where: dict[int, tuple[int, int]] = {}
        for col in range(7):
            for pos, c in enumerate(self.hidden[col]):
                where[c] = (col, pos)
        free: set[int] = {c for c in where if c % 13 in (0, _KING)}
        changed = True
        while changed:
            changed = False
            for c, (col, pos) in where.items():
                if c in free:
                    continue
                r, su = c % 13, c // 13
                exits = [su * 13 + r - 1, *_PARENTS[c]]
                for x in exits:
                    if x not in where:
                        ok = True  # face up, in the talon or on a foundation
                    else:
                        xcol, xpos = where[x]
                        if xcol == col and xpos < pos:
                            continue  # under this very card
                        above = self.hidden[xcol][xpos + 1 :]
                        ok = all(y in free or y == c for y in above)
                    if ok:
                        free.add(c)
                        changed = True
                        break
        return len(free) < len(where)

    # -- the greedy pass --------------------------------------------------------------

    def _draws(self, idx: int) -> int:
        """How many draws (and turns of the waste) bring talon position ``idx`` to the
        waste's top: what a talon move costs beyond the move itself."""
        p = self.p
        d = self.draw
        if idx == p - 1:
            return 0
        if idx >= p:
            return (idx + 1 - p + d - 1) // d
        n = len(self.talon)
        return (n - p + d - 1) // d + 1 + (idx + d) // d

    def _estimate(self) -> int:
        """A guess at the moves still needed (not a bound, only an ordering): one per card
        not on a foundation, one more per face-down card, one more per card lying on a
        lower card of its suit in its column (it must go somewhere else first), and the
        draws to go once through the stock."""
        found = self.found
        h = 52 - found[0] - found[1] - found[2] - found[3]
        h += (len(self.talon) - self.p + self.draw - 1) // self.draw
        low = [13, 13, 13, 13]
        for col in range(7):
            hid = self.hidden[col]
            if not hid:
                continue
            h += len(hid)
            for s in range(4):
                low[s] = 13
            for c in hid:
                s, r = c // 13, c % 13
                if low[s] < r:
                    h += 1
                else:
                    low[s] = r
            for c in self.up[col]:
                s, r = c // 13, c % 13
                if low[s] < r:
                    h += 1
                else:
                    low[s] = r
        return h

    def greedy(self, max_closed: int, two_shift: int, three_shift: int) -> bool:
        """A greedy best-first pass from the start position (after Klondike-Solver's fast
        mode): positions are expanded lowest first by (moves so far, draws included) +
        :meth:`_estimate` + (cards not on a foundation), and each expansion keeps only its
        best child, its second best while fewer than ``max_closed >> two_shift`` positions
        were kept, its third best while fewer than ``max_closed >> three_shift``.

        True when it finds a win (``path`` then holds the line); False when it gives up
        (open list empty or ``max_closed`` reached) -- which proves nothing, as children
        were dropped. It only ever plays moves of :meth:`moves`, so a line it finds is a
        line the exhaustive search could find. Raises :class:`SearchLimit`.
        """
        self._load()
        parent: list[int] = [-1]
        depth: list[int] = [0]
        cost: list[int] = [0]
        edges: list[list[SearchMove]] = []
        infos: list[list[int]] = []
        applied = self._auto()
        edges.append([m for m, _ in applied])
        infos.append([i for _, i in applied])
        if not self.talon and not any(self.hidden):
            self.path = list(edges[0])
            self._finish()
            return True
        closed: dict[int, int] = {self.hash: 0}
        buckets: list[list[int]] = [[] for _ in range(_BUCKETS)]
        buckets[0].append(0)
        lowest = 0
        cur = 0
        two_cap = max_closed >> two_shift
        three_cap = max_closed >> three_shift
        none: SearchMove = (-1, 0, 0, 0, 0)
        while len(closed) < max_closed:
            while lowest < _BUCKETS and not buckets[lowest]:
                lowest += 1
            if lowest >= _BUCKETS:
                return False
            node = buckets[lowest].pop()
            # walk the position from ``cur`` to ``node`` through their common ancestor
            a = cur
            b = node
            forward: list[int] = []
            while depth[b] > depth[a]:
                forward.append(b)
                b = parent[b]
            while a != b:
                if depth[a] >= depth[b]:
                    em = edges[a]
                    ei = infos[a]
                    for k in range(len(em) - 1, -1, -1):
                        self.undo(em[k], ei[k])
                    a = parent[a]
                else:
                    forward.append(b)
                    b = parent[b]
            for k in range(len(forward) - 1, -1, -1):
                n = forward[k]
                infos[n] = [self.apply(m) for m in edges[n]]
            cur = node
            self.nodes += 1
            if not self.nodes & self.check_mask:
                self._check(len(closed))
            if depth[node] > self.max_depth:
                self.max_depth = depth[node]
            g = cost[node]
            close = len(closed)
            f1 = f2 = f3 = _BUCKETS
            m1 = m2 = m3 = none
            c1 = c2 = c3 = 0
            k1 = k2 = k3 = 0
            a1: list[SearchMove] = []
            a2: list[SearchMove] = []
            a3: list[SearchMove] = []
            for m in self.moves():
                c = g + 1
                if m[0] <= _TALON_TO_COLUMN:
                    c += self._draws(m[1])
                info = self.apply(m)
                autos = self._auto()
                if not self.talon and not any(self.hidden):
                    # the line backwards: these autos, this move, then each edge up
                    line: list[SearchMove] = [autos[k][0] for k in range(len(autos) - 1, -1, -1)]
                    line.append(m)
                    n = node
                    while n >= 0:
                        em = edges[n]
                        for k in range(len(em) - 1, -1, -1):
                            line.append(em[k])
                        n = parent[n]
                    line.reverse()
                    self.path = line
                    self._finish()
                    return True
                key = self.hash
                old = closed.get(key, -1)
                if (old < 0 or old > c) and key not in self.dead:
                    found = self.found
                    left = 52 - found[0] - found[1] - found[2] - found[3]
                    f = c + self._estimate() + left
                    if f < f1:
                        if close < two_cap and f1 < f2:
                            f2, m2, c2, k2, a2 = f1, m1, c1, k1, a1
                        elif close < three_cap and f1 < f3:
                            f3, m3, c3, k3, a3 = f1, m1, c1, k1, a1
                        f1, m1, c1, k1 = f, m, c, key
                        a1 = [am for am, _ in autos]
                    elif close < two_cap and f < f2:
                        if close < three_cap and f2 < f3:
                            f3, m3, c3, k3, a3 = f2, m2, c2, k2, a2
                        f2, m2, c2, k2 = f, m, c, key
                        a2 = [am for am, _ in autos]
                    elif close < three_cap and f < f3:
                        f3, m3, c3, k3 = f, m, c, key
                        a3 = [am for am, _ in autos]
                for k in range(len(autos) - 1, -1, -1):
                    self.undo(autos[k][0], autos[k][1])
                self.undo(m, info)
            for f, m, c, key, autos_moves in (
                (f1, m1, c1, k1, a1), (f2, m2, c2, k2, a2), (f3, m3, c3, k3, a3)
            ):
                if f >= _BUCKETS:
                    continue
                old = closed.get(key, -1)
                if old >= 0 and old <= c:
                    continue
                closed[key] = c
                edge = [m]
                edge.extend(autos_moves)
                parent.append(node)
                depth.append(depth[node] + 1)
                cost.append(c)
                edges.append(edge)
                infos.append([])
                buckets[f].append(len(parent) - 1)
                if f < lowest:
                    lowest = f
        return False

    # -- the whole search ---------------------------------------------------------------

    def run(self) -> tuple[bool | None, str | None]:
        """Search to the end or a limit: (True, None) solved, (False, None) unsolvable,
        (None, which limit) undecided.

        Three phases, each from the start position: a depth-first search of at most
        :data:`FIRST_DFS_SHARE` of the time budget (and ``first_dfs_nodes`` positions,
        -1: no cap), which decides most deals; the greedy passes ``greedy_passes``
        (:meth:`greedy`, which find wins the depth-first search reaches late, and never
        prove anything), together at most :data:`GREEDY_SHARE` of the time budget; then
        the depth-first search again, to the end or what is left of the budget, keeping
        the positions the first phase finished (see :meth:`_phases` for why no win is
        lost). Only a depth-first phase that runs to its end may say "unsolvable".
        Without a time budget the first phase is the whole search.
        """
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            if self.blocked():
                return False, None
            return self._phases()
        except SearchLimit as e:
            return None, e.which
        except RecursionError:
            return None, LIMIT_MEMORY
        finally:
            sys.setrecursionlimit(old)

    def _phases(self) -> tuple[bool | None, str | None]:
        self.phase = "dfs"
        self.phase_nodes = self.first_dfs_nodes
        if self.max_seconds is not None:
            self.phase_deadline = time.process_time() + self.max_seconds * FIRST_DFS_SHARE
        try:
            return self._dfs(), None
        except SearchLimit as e:
            if e.which != _PHASE_OVER:
                raise
        # Keep what the first phase learnt. A position it finished searching (its
        # ``search`` returned False) has every next position in the table, each either
        # finished too or on the line being searched when the phase stopped. So from a
        # finished position every line to a win passes through a position of that
        # line, and each of those is reached from the start through the others. Drop
        # the line's keys, and the last phase, cutting only at finished positions, still
        # reaches every win that is reachable at all: a line to a win through a finished
        # position can be replaced from its last line-position on by a line avoiding
        # the finished ones (the line's positions are no longer in the table).
        for key in self.line:
            self.seen.discard(key)
        # The draw-position dominance (:meth:`_dominated`) cuts against the table too,
        # and never cuts a position of that line, so that the last phase enters each of
        # them again (they are reached from the start through each other), as the
        # argument above needs.
        self.old_line = (
            set(self.line) if self.native is None else self.native.KeySet(self.line)
        )
        self.line = []
        self.phase_nodes = -1
        self.phase = "greedy"
        if self.max_seconds is not None:
            self.phase_deadline = time.process_time() + self.max_seconds * GREEDY_SHARE
        try:
            for two_shift, three_shift in self.greedy_passes:
                if self.greedy(GREEDY_CLOSED, two_shift, three_shift):
                    return True, None
        except SearchLimit as e:
            if e.which != _PHASE_OVER:
                raise
        self.phase_deadline = -1.0
        self.phase = "exhaustive"
        self._load()
        return self._dfs(), None

    def _dfs(self) -> bool:
        """:meth:`search` from the current position (the start: ``path`` empty), in C when
        it is built (:data:`_NATIVE`): the same positions in the same order, the same
        table, ``nodes``, ``max_depth`` and ``path``, and on a limit the same ``line``.
        Raises :class:`SearchLimit`."""
        native = self.native
        if native is None:
            return self.search()
        won, nodes, depth, path, line, limit = native.dfs(
            self.hidden, self.up, self.found, self.talon, self.p, self.draw, self.loc,
            self.hash, self.seen, self.old_line if len(self.old_line) else None,
            self.draw_dominance and self.draw != 1 and not self.dead,
            self.nodes, self.check_mask, self._native_check,
        )
        self.nodes = nodes
        if depth > self.max_depth:
            self.max_depth = depth
        if won is None:
            self.line = line
            raise SearchLimit(limit)
        if won:
            self.path = path
        return bool(won)

    def _native_check(self, nodes: int, kept: int) -> str | None:
        """The C search's budget check (every ``check_mask + 1`` positions, as
        :meth:`search` checks): None to go on, else the name of the limit reached."""
        self.nodes = nodes
        try:
            self._check(kept)
        except SearchLimit as e:
            return e.which
        return None

    def move_texts(self, state: State) -> list[str]:
        """The found line as engine moves (with the draws and turns), replayed on a copy of
        ``state`` to check every move."""
        s = state.copy()
        t = s.t
        piles = s.piles
        waste_pile = t.waste
        stock_pile = t.stock
        columns = t.columns
        foundations = t.foundations
        moves: list[tuple[int, int, int]] = []
        # the engine moves first (the draws and turns worked out on the talon as it is
        # then), each checked and played in turn below
        for kind, a, b, c, card in self.path:
            if kind in (_TALON_TO_FOUNDATION, _TALON_TO_COLUMN):
                moves.append((_BRING, card, 0))
                dst = foundations[card // 13] if kind == _TALON_TO_FOUNDATION else columns[b]
                moves.append((waste_pile, dst, 1))
            elif kind == _COLUMN_TO_FOUNDATION:
                moves.append((columns[a], foundations[card // 13], 1))
            elif kind == _COLUMN_TO_COLUMN:
                moves.append((columns[a], columns[c], card))
            elif kind == _SWAP_TO_FOUNDATION:
                moves.append((columns[a], columns[c], b))
                moves.append((columns[a], foundations[card // 13], 1))
            else:
                moves.append((foundations[a], columns[b], 1))
        out: list[str] = []
        i = 0
        draws = 0
        while i < len(moves):
            m = moves[i]
            if m[0] == _BRING:
                waste = piles[waste_pile]
                if (waste and waste[-1] == m[1]) or draws == 2 * 52:
                    i += 1
                    draws = 0
                    continue
                # a draw or turn towards the card, checked like any move
                m = DRAW if piles[stock_pile] else TURN
                draws += 1
            else:
                i += 1
            # State.check is legal exactly when the move is in State.moves(), and it checks
            # one move instead of listing them all
            if s.check(m) is not None:
                raise AssertionError(f"solver produced an illegal move {t.label_of(m)}")
            s.push(m)
            out.append(t.label_of(m))
        return out
