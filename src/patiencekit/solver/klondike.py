"""A thoughtful Klondike solver: depth-first search with a Zobrist transposition table.

The solver knows the face-down cards ("thoughtful" Klondike, what winnability
studies mean). What makes it fast, after Solvitaire and lonelybot:

- **Stock macro moves** ("K+"): the stock and waste are one sequence, the
  talon; a move plays any card the player could reach by drawing (and turning
  the waste over) straight to its target. With draw 1 every talon card is
  reachable, so the draw position is not even part of the state.
- **Safe foundation moves** (a dominance): a column's last card goes up at once
  when no card left in play could ever need it.
- **Move pruning**: a string is moved off a column only whole (to turn up a
  card or empty the column) or to free a card that goes straight to a
  foundation; a king moves to the first empty column only.
- **A transposition table keyed by a 64-bit Zobrist hash** updated in O(1)
  per move, with pile symmetry: a column with no face-down card hashes the
  same whichever column it is.

The search is exact: ``solved`` comes with a line that the engine replays to a
win, ``unsolvable`` means the whole (pruned) space was searched.
"""

from __future__ import annotations

import random
import sys

from patiencekit.solver.limits import LIMIT_MEMORY, Limits, SearchLimit
from patiencekit.state import DRAW, TURN, State

__all__ = ["KlondikeSearch"]

_TALON_TO_FOUNDATION = 0
_TALON_TO_COLUMN = 1
_COLUMN_TO_FOUNDATION = 2
_COLUMN_TO_COLUMN = 3
_FOUNDATION_TO_COLUMN = 4

_IN_TALON = 0
_ON_FOUNDATION = 1
_ON_CARD = 2  # + parent card
_ON_HIDDEN = 54  # + column: on the face-down cards of that column
_ON_EMPTY = 61  # the bottom card of a column without face-down cards
_CODES = 62

_KING = 12

_rng = random.Random(0x5EED)
_Z = [[_rng.getrandbits(64) for _ in range(_CODES)] for _ in range(52)]
_ZH = [[_rng.getrandbits(64) for _ in range(24)] for _ in range(7)]


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
    q = 0
    while q < p:
        q = q + draw if q + draw < n else n
        if q - 1 not in out:
            out.append(q - 1)
    return out


def _reach_keys(draw: int) -> list[list[int]]:
    """keys[n][p]: a Zobrist key of the *set* of reachable positions. Two draw positions
    with the same reachable set have the same future (any talon move resets the position
    to where the card was), so the transposition table need not tell them apart."""
    by_set: dict[frozenset[int], int] = {}
    keys: list[list[int]] = []
    for n in range(53):  # a hand-made position may hold up to 52 talon cards
        row: list[int] = []
        for p in range(n + 1):
            reach = frozenset(reachable_positions(n, p, draw))
            if reach not in by_set:
                by_set[reach] = _rng.getrandbits(64)
            row.append(by_set[reach])
        keys.append(row)
    return keys


_REACH_KEYS: dict[int, list[list[int]]] = {}

# parents[c]: the two cards c may be placed on; children the reverse
_PARENTS: list[tuple[int, int]] = []
for _c in range(52):
    _r, _s = _c % 13, _c // 13
    _other = (2, 3) if _s < 2 else (0, 1)
    _PARENTS.append((_other[0] * 13 + _r + 1, _other[1] * 13 + _r + 1) if _r < _KING else (-1, -1))
_OPPOSITE = [(2, 3), (2, 3), (0, 1), (0, 1)]
_SAME_OTHER = [1, 0, 3, 2]

Move = tuple[int, int, int, int, int]  # kind, a, b, c, card or count



class KlondikeSearch:
    """One search over one Klondike position (thoughtful: face-down cards known)."""

    def __init__(
        self,
        state: State,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
    ) -> None:
        t = state.t
        self.draw = t.draw
        self.hidden: list[list[int]] = []
        self.up: list[list[int]] = []
        for ci in t.columns:
            pile = state.piles[ci]
            d = state.down[ci]
            self.hidden.append(pile[:d])
            self.up.append(pile[d:])
        self.found = [len(state.piles[f]) for f in t.foundations]
        waste = state.piles[t.waste]
        stock = state.piles[t.stock]
        self.talon: list[int] = waste + stock[::-1]
        self.p = len(waste)
        if self.draw not in _REACH_KEYS:
            _REACH_KEYS[self.draw] = _reach_keys(self.draw)
        self.reach_keys = _REACH_KEYS[self.draw]
        self.loc = [_ON_FOUNDATION] * 52
        self.path: list[Move] = []
        self.seen: set[int] = set()
        self.nodes = 0
        self.max_depth = 0
        self.limits = Limits(
            max_seconds=max_seconds, max_states=max_states, max_memory_mb=max_memory_mb
        )
        self.hash = 0
        self._rehash()

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
                loc[c] = self._base_code(col) if k == 0 else _ON_CARD + up[k - 1]
            for c in self.hidden[col]:
                loc[c] = -1
        for c in range(52):
            if loc[c] >= 0:
                h ^= _Z[c][loc[c]]
        if self.draw != 1:
            h ^= self.reach_keys[len(self.talon)][self.p]
        self.hash = h

    def _set(self, card: int, code: int) -> None:
        z = _Z[card]
        self.hash ^= z[self.loc[card]] ^ z[code]
        self.loc[card] = code

    # -- moves ----------------------------------------------------------------------

    def reachable(self) -> list[int]:
        """Talon positions the player can bring to the waste's top (draw, turn over)."""
        return reachable_positions(len(self.talon), self.p, self.draw)

    def _safe(self, card: int) -> bool:
        """A card on its foundation's next place that no card in play can need."""
        r = card % 13
        if r <= 1:
            return True
        s = card // 13
        f = self.found
        a, b = _OPPOSITE[s]
        return f[a] >= r and f[b] >= r and f[_SAME_OTHER[s]] >= r - 1

    def moves(self) -> list[Move]:
        """The pruned moves, best first."""
        up = self.up
        hidden = self.hidden
        found = self.found
        talon = self.talon
        first: list[Move] = []
        reveal: list[tuple[int, Move]] = []
        rest: list[Move] = []
        last: list[Move] = []
        tops: dict[int, int] = {}
        empty = -1
        for j in range(7):
            if up[j]:
                tops[up[j][-1]] = j
            elif empty < 0:
                empty = j
        # is there a king that an empty column could still take?
        king_waits = False
        for s in range(4):
            king = s * 13 + _KING
            where = self.loc[king]
            if where == _IN_TALON or where == -1 or (_ON_HIDDEN <= where < _ON_EMPTY):
                king_waits = True
                break
        # columns: the strings that may move (their first cards are the "heads")
        heads: set[int] = set()
        for i in range(7):
            u = up[i]
            if not u:
                continue
            top = u[-1]
            if found[top // 13] == top % 13:
                first.append((_COLUMN_TO_FOUNDATION, i, 0, 0, top))
            nh = len(hidden[i])
            for k in range(len(u)):
                card = u[k]
                if k > 0:
                    below = u[k - 1]
                    if found[below // 13] != below % 13:
                        continue
                elif nh == 0 and (card % 13 == _KING or not king_waits):
                    continue
                heads.add(card)
                n = len(u) - k
                targets = []
                pa, pb = _PARENTS[card]
                j = tops.get(pa, -1)
                if j >= 0:
                    targets.append(j)
                j = tops.get(pb, -1)
                if j >= 0:
                    targets.append(j)
                if card % 13 == _KING and empty >= 0:
                    targets.append(empty)
                for j in targets:
                    if k == 0 and nh:
                        reveal.append((nh, (_COLUMN_TO_COLUMN, i, k, j, n)))
                    else:
                        rest.append((_COLUMN_TO_COLUMN, i, k, j, n))
        # talon
        reach = self.reachable()
        draw1 = self.draw == 1
        for idx in reach:
            card = talon[idx]
            if found[card // 13] == card % 13:
                first.append((_TALON_TO_FOUNDATION, idx, 0, 0, card))
            # with draw 1 a talon card can wait in the talon until a card goes on it
            if draw1 and not self._useful(card, heads, reach, 13):
                continue
            pa, pb = _PARENTS[card]
            j = tops.get(pa, -1)
            if j >= 0:
                rest.append((_TALON_TO_COLUMN, idx, j, 0, card))
            j = tops.get(pb, -1)
            if j >= 0:
                rest.append((_TALON_TO_COLUMN, idx, j, 0, card))
            if card % 13 == _KING and empty >= 0:
                rest.append((_TALON_TO_COLUMN, idx, empty, 0, card))
        # foundation tops back down, when a card could then go on them
        for s in range(4):
            h = found[s]
            if h < 2:
                continue
            card = s * 13 + h - 1
            if not self._useful(card, heads, reach, 13):
                continue
            pa, pb = _PARENTS[card]
            j = tops.get(pa, -1)
            if j >= 0:
                last.append((_FOUNDATION_TO_COLUMN, s, j, 0, card))
            j = tops.get(pb, -1)
            if j >= 0:
                last.append((_FOUNDATION_TO_COLUMN, s, j, 0, card))
        # turning cards up first, foundation moves (that are not safe, so not automatic)
        # after the building moves: measured best on draw 1, no worse on draw 3
        reveal.sort(key=lambda x: -x[0])
        return [m for _, m in reveal] + rest + first + last

    def _useful(self, card: int, heads: set[int], reach: list[int], depth: int) -> bool:
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
            if y in heads:
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

    def apply(self, m: Move) -> int:
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
            self._set(run[0], _ON_CARD + dst[-1] if dst else _ON_EMPTY)
            dst.extend(run)
            return self._reveal(a) if b == 0 else 0
        if kind == _FOUNDATION_TO_COLUMN:
            self.found[a] -= 1
            dst = up[b]
            self._set(card, _ON_CARD + dst[-1])
            dst.append(card)
            return 0
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
            self._set(card, _ON_CARD + dst[-1] if dst else _ON_EMPTY)
            dst.append(card)
        return old_p

    def undo(self, m: Move, info: int) -> None:
        """Take back ``apply(m)``, which returned ``info``."""
        kind, a, b, c, card = m
        up = self.up
        if kind == _COLUMN_TO_FOUNDATION:
            if info:
                self._unreveal(a)
            self.found[card // 13] -= 1
            self._set(card, _ON_CARD + up[a][-1] if up[a] else self._base_code(a))
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
            self._set(run[0], _ON_CARD + src[-1] if src else self._base_code(a))
            src.extend(run)
            return
        if kind == _FOUNDATION_TO_COLUMN:
            card = up[b].pop()
            self._set(card, _ON_FOUNDATION)
            self.found[a] += 1
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
        hid = self.hidden[col]
        n = len(hid)
        card = hid.pop()
        self.hash ^= _ZH[col][n] ^ _ZH[col][n - 1]
        self.up[col].append(card)
        self.loc[card] = _ON_EMPTY if not hid else _ON_HIDDEN + col
        self.hash ^= _Z[card][self.loc[card]]
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

    def _check(self) -> None:
        self.limits.check(len(self.seen))

    def _auto(self) -> list[tuple[Move, int]]:
        """Play every safe foundation move; returns them with their undo information."""
        applied: list[tuple[Move, int]] = []
        up = self.up
        found = self.found
        changed = True
        while changed:
            changed = False
            for i in range(7):
                u = up[i]
                if u:
                    top = u[-1]
                    if found[top // 13] == top % 13 and self._safe(top):
                        m: Move = (_COLUMN_TO_FOUNDATION, i, 0, 0, top)
                        applied.append((m, self.apply(m)))
                        changed = True
            if self.draw == 1:
                talon = self.talon
                for idx in range(len(talon) - 1, -1, -1):
                    card = talon[idx]
                    if found[card // 13] == card % 13 and self._safe(card):
                        m = (_TALON_TO_FOUNDATION, idx, 0, 0, card)
                        applied.append((m, self.apply(m)))
                        changed = True
                        break
        return applied

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
            m: Move = (_COLUMN_TO_FOUNDATION, best, 0, 0, up[best][-1])
            self.apply(m)
            self.path.append(m)

    def search(self) -> bool:
        """Depth-first search from the current position; True when a win is found
        (``path`` then holds the line). Raises :class:`SearchLimit`."""
        self.nodes += 1
        if not self.nodes & 1023:
            self._check()
        applied = self._auto()
        path = self.path
        for m, _ in applied:
            path.append(m)
        if not self.talon and not any(self.hidden):
            self._finish()
            return True
        h = self.hash
        if h not in self.seen:
            self.seen.add(h)
            depth = len(path)
            if depth > self.max_depth:
                self.max_depth = depth
            for m in self.moves():
                info = self.apply(m)
                path.append(m)
                if self.search():
                    return True
                path.pop()
                self.undo(m, info)
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
        """
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

    def run(self) -> tuple[bool | None, str | None]:
        """Search to the end or a limit: (True, None) solved, (False, None) unsolvable,
        (None, which limit) undecided."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            if self.blocked():
                return False, None
            return self.search(), None
        except SearchLimit as e:
            return None, e.which
        except RecursionError:
            return None, LIMIT_MEMORY
        finally:
            sys.setrecursionlimit(old)

    def move_texts(self, state: State) -> list[str]:
        """The found line as engine moves (with the draws and turns), replayed on a copy of
        ``state`` to check every move."""
        s = state.copy()
        t = s.t
        out: list[str] = []

        def play(m: tuple[int, int, int]) -> None:
            legal = s.moves()
            if m not in legal:
                raise AssertionError(f"solver produced an illegal move {t.label_of(m)}")
            s.push(m)
            out.append(t.label_of(m))

        for kind, a, b, c, card in self.path:
            if kind in (_TALON_TO_FOUNDATION, _TALON_TO_COLUMN):
                for _ in range(2 * 52):
                    waste = s.piles[t.waste]
                    if waste and waste[-1] == card:
                        break
                    play(DRAW if s.piles[t.stock] else TURN)
                src = t.waste
                dst = t.foundations[card // 13] if kind == _TALON_TO_FOUNDATION else t.columns[b]
                play((src, dst, 1))
            elif kind == _COLUMN_TO_FOUNDATION:
                play((t.columns[a], t.foundations[card // 13], 1))
            elif kind == _COLUMN_TO_COLUMN:
                play((t.columns[a], t.columns[c], card))
            else:
                play((t.foundations[a], t.columns[b], 1))
        return out
