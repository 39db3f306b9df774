"""A position, its legal moves, and unchecked apply/undo: the fast path.

This is the layer a solver searches. A position is a list of piles, each a
list of card indexes (``suit * 13 + rank``) bottom to top, plus the number of
face-down cards at the bottom of each pile, the redeals used and the score.
A move is a plain tuple ``(source, destination, count)`` of pile positions
in :attr:`Tables.labels` order, or :data:`DRAW` / :data:`TURN`.

``push`` applies a move without checking it and ``pop`` takes the last one
back exactly; ``moves()`` lists the legal moves. :class:`patiencekit.game.Game`
is the checked, friendly layer over this one.

>>> from patiencekit.games import get_rules
>>> s = State.deal(get_rules("klondike-draw1"), 24)
>>> len(s.moves()) > 0
True
>>> key = s.key(); s.push(DRAW); s.key() == key
False
>>> s.pop()
(-1, -1, 0)
>>> s.key() == key
True
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from patiencekit.cards import card_text
from patiencekit.deals import dealing_order
from patiencekit.rules import Build, EmptyFill, GameRules, PileKind, Turn, Win

__all__ = ["DRAW", "TURN", "Move", "State", "Tables", "tables_for"]

#: An engine move: (source pile, destination pile, number of cards).
Move = tuple[int, int, int]

#: ``s``: turn cards from the stock onto the waste.
DRAW: Final[Move] = (-1, -1, 0)
#: ``t``: turn the waste over to form the stock (or deal the next packet).
TURN: Final[Move] = (-2, -2, 0)

_KING = 12

# score deltas (RULES.md, Klondike scoring)
_WASTE_TO_COLUMN = 25
_COLUMN_TO_FOUNDATION = 25
_WASTE_TO_FOUNDATION = 50
_FLIP = 20
_FOUNDATION_TO_COLUMN = -25
_REDEAL = -25
#: points by (source kind, destination kind)
_SCORE_DELTA = {
    (PileKind.WASTE, PileKind.COLUMN): _WASTE_TO_COLUMN,
    (PileKind.COLUMN, PileKind.FOUNDATION): _COLUMN_TO_FOUNDATION,
    (PileKind.WASTE, PileKind.FOUNDATION): _WASTE_TO_FOUNDATION,
    (PileKind.FOUNDATION, PileKind.COLUMN): _FOUNDATION_TO_COLUMN,
}


class Tables:
    """A game's rules compiled to lookup tables for the move generator.

    Built once per game (see :func:`tables_for`).
    """

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        kinds: list[PileKind] = []
        labels: list[str] = []

        def add(kind: PileKind, count: int) -> list[int]:
            first = len(kinds)
            for i in range(count):
                kinds.append(kind)
                labels.append(kind.prefix if kind in _SINGLE else f"{kind.prefix}{i + 1}")
            return list(range(first, first + count))

        stock = rules.stock
        has_stock = stock is not None and stock.turn is Turn.REDEAL
        self.stock: int = add(PileKind.STOCK, 1)[0] if has_stock else -1
        self.waste: int = add(PileKind.WASTE, 1)[0] if has_stock else -1
        self.foundations: list[int] = add(PileKind.FOUNDATION, len(rules.foundations))
        self.columns: list[int] = add(PileKind.COLUMN, rules.columns)
        self.hand: list[int] = add(PileKind.HAND, rules.hand)
        self.reserve: list[int] = add(PileKind.RESERVE, rules.reserve)
        self.packets: list[int] = add(PileKind.PACKET, rules.packets)
        self.index: list[int] = add(PileKind.INDEX, rules.index_cards)
        self.kinds: tuple[PileKind, ...] = tuple(kinds)
        self.labels: tuple[str, ...] = tuple(labels)
        self.by_label: dict[str, int] = {label: i for i, label in enumerate(labels)}
        n = len(kinds)
        self.pile_count = n

        self.draw = stock.draw if stock else 0
        self.redeals: int | None = stock.redeals if stock else 0
        self.turn = stock.turn if stock else Turn.REDEAL
        self.scored = rules.scored
        self.win = rules.win
        self.target = rules.foundation_target

        # columns on which cards build, and what can be placed on what
        col = rules.column_rule
        self.build_columns: list[int] = self.columns if col.build is Build.ALTERNATE_DOWN else []
        self.king_empties = col.empty is EmptyFill.KING
        # parents[c]: the cards c may be placed on in a column
        self.parents: list[tuple[int, ...]] = []
        for c in range(52):
            rank, suit = c % 13, c // 13
            if rank == _KING:
                self.parents.append(())
            else:
                other = (2, 3) if suit < 2 else (0, 1)
                self.parents.append(tuple(s * 13 + rank + 1 for s in other))

        # foundations: acceptable first cards and next card(s) after each top card
        self.f_size: list[int] = [0] * n
        self.f_base: list[tuple[int, ...]] = [()] * n
        self.f_next: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
        self.f_out_columns: list[bool] = [False] * n
        self.f_out_foundations: list[bool] = [False] * n
        self.f_keep: list[int] = [0] * n  # cards that always stay
        self.f_keep_kings: list[bool] = [False] * n
        for fi, fr in zip(self.foundations, rules.foundations, strict=True):
            self.f_size[fi] = fr.size
            suits = (fr.suit,) if fr.suit is not None else (0, 1, 2, 3)
            self.f_base[fi] = tuple(s * 13 + fr.base_rank for s in suits)
            nxt: list[tuple[int, ...]] = []
            for c in range(52):
                r = fr.next_rank(c % 13)
                if r is None:
                    nxt.append(())
                elif fr.follow_suit:
                    nxt.append((c // 13 * 13 + r,))
                else:
                    nxt.append(tuple(s * 13 + r for s in range(4)))
            self.f_next[fi] = nxt
            self.f_out_columns[fi] = fr.to_columns and bool(self.build_columns)
            self.f_out_foundations[fi] = fr.to_foundations
            self.f_keep[fi] = 1 if fr.keep_base else 0
            self.f_keep_kings[fi] = fr.keep_kings

        # per-pile flags
        self.auto_flip = [False] * n
        for i in self.columns:
            self.auto_flip[i] = col.auto_flip
        self.refills = [False] * n
        if rules.reserve_refill:
            for i in self.reserve:
                self.refills[i] = True
        # sources of single-card moves other than columns: (pile, to_columns, to_hand)
        self.single_sources: list[tuple[int, bool]] = []
        if self.waste >= 0:
            self.single_sources.append((self.waste, bool(self.build_columns)))
        for i in self.hand:
            self.single_sources.append((i, bool(self.build_columns)))
        for i in self.reserve:
            self.single_sources.append((i, False))
        for i in self.packets:
            self.single_sources.append((i, False))
        if col.build is Build.NONE:  # Royal Cotillion's left piles: only to foundations
            for i in self.columns:
                self.single_sources.append((i, False))
            self.string_columns: list[int] = []
        else:
            self.string_columns = self.columns
        self.column_strings = col.strings
        self.column_to_hand = col.to_hand and bool(self.hand)
        self.fountain_sources: list[int] = [
            fi for fi in self.foundations if self.f_out_columns[fi] or self.f_out_foundations[fi]
        ]

        # score delta by (source pile, destination pile)
        self.pair_delta: list[list[int]] = [
            [_SCORE_DELTA.get((a, b), 0) if self.scored else 0 for b in kinds] for a in kinds
        ]

    def label_of(self, move: Move) -> str:
        """The move in the notation, with concrete piles: ``c3 f1``, ``c1 c4 3``, ``s``.

        >>> from patiencekit.games import get_rules
        >>> t = tables_for(get_rules("klondike"))
        >>> t.label_of((t.by_label["c3"], t.by_label["f1"], 1)), t.label_of(DRAW)
        ('c3 f1', 's')
        """
        src, dst, n = move
        if src == -1:
            return "s"
        if src == -2:
            return "t"
        text = f"{self.labels[src]} {self.labels[dst]}"
        return f"{text} {n}" if n != 1 else text


_SINGLE = (PileKind.STOCK, PileKind.WASTE)


@cache
def tables_for(rules: GameRules) -> Tables:
    """The compiled tables of a game, built once."""
    return Tables(rules)


class State:
    """A position with unchecked, exactly reversible moves.

    ``piles[i]`` lists pile ``i``'s cards bottom to top (a stock's last card
    is the next one drawn); ``down[i]`` counts its face-down cards at the
    bottom; ``redeals`` counts the turns of the waste (or packets dealt);
    ``score`` is Klondike's running score without the time bonus.
    """

    __slots__ = ("_undo", "down", "piles", "redeals", "score", "t")

    def __init__(
        self,
        tables: Tables,
        piles: list[list[int]],
        down: list[int],
        redeals: int = 0,
        score: int = 0,
    ) -> None:
        self.t = tables
        self.piles = piles
        self.down = down
        self.redeals = redeals
        self.score = score
        self._undo: list[tuple[Move, int, int, int, list[int] | None]] = []

    # -- construction -------------------------------------------------------

    @classmethod
    def deal(cls, rules: GameRules, number: int) -> State:
        """The starting position of game ``number`` (RULES.md "Deals")."""
        t = tables_for(rules)
        dealt = rules.deal(dealing_order(number, rules.decks))
        piles: list[list[int]] = [[] for _ in range(t.pile_count)]
        down = [0] * t.pile_count
        by_kind: dict[PileKind, list[int]] = {}
        for i, kind in enumerate(t.kinds):
            by_kind.setdefault(kind, []).append(i)
        for kind, dealt_piles in dealt.items():
            slots = by_kind.get(kind, [])
            if len(dealt_piles) > len(slots):
                raise ValueError(
                    f"{rules.id}: the deal gives {len(dealt_piles)} {kind.value} piles"
                )
            for slot, dp in zip(slots, dealt_piles, strict=False):
                piles[slot] = [c % 52 for c in dp.cards]
                # stock cards are hidden by their pile's kind; down counts column cards only
                down[slot] = 0 if kind is PileKind.STOCK else dp.face_down
        total = sum(len(p) for p in piles)
        if total != rules.card_count:
            raise ValueError(f"{rules.id}: the deal places {total} of {rules.card_count} cards")
        return cls(t, piles, down)

    def copy(self) -> State:
        """An independent copy (without the undo history)."""
        return State(self.t, [p[:] for p in self.piles], self.down[:], self.redeals, self.score)

    def key(self) -> tuple[object, ...]:
        """A hashable key of the position (piles, face-down counts, redeals, score)."""
        return (tuple(map(tuple, self.piles)), tuple(self.down), self.redeals, self.score)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.t is other.t and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    # -- queries -------------------------------------------------------------

    @property
    def history_length(self) -> int:
        """How many moves ``pop`` can take back."""
        return len(self._undo)

    def history(self) -> list[Move]:
        """The moves ``pop`` can take back, oldest first."""
        return [u[0] for u in self._undo]

    def last(self) -> Move | None:
        """The move ``pop`` would take back, or None."""
        return self._undo[-1][0] if self._undo else None

    def is_won(self) -> bool:
        """True when the game's win condition holds."""
        t = self.t
        piles = self.piles
        if t.win is Win.KINGS_AT_COLUMN_TOPS:
            kings = sum(1 for i in t.columns if piles[i] and piles[i][0] % 13 == _KING)
            return kings == 4 * t.rules.decks
        return sum(len(piles[i]) for i in t.foundations) == t.target

    def redeals_left(self) -> int | None:
        """Turns of the waste (or packet deals) still allowed; None when unlimited."""
        if self.t.redeals is None:
            return None
        return self.t.redeals - self.redeals

    def foundation_wants(self) -> dict[int, list[int]]:
        """Card -> the foundations (in layout order) that take it now."""
        t = self.t
        piles = self.piles
        want: dict[int, list[int]] = {}
        for fi in t.foundations:
            p = piles[fi]
            if not p:
                acc = t.f_base[fi]
            elif len(p) >= t.f_size[fi]:
                continue
            else:
                acc = t.f_next[fi][p[-1]]
            for c in acc:
                lst = want.get(c)
                if lst is None:
                    want[c] = [fi]
                else:
                    lst.append(fi)
        return want

    def moves(self) -> list[Move]:
        """Every legal move, in a fixed order."""
        t = self.t
        piles = self.piles
        out: list[Move] = []
        want = self.foundation_wants()
        parents = t.parents

        tops: dict[int, list[int]] = {}
        empties: list[int] = []
        for ci in t.build_columns:
            p = piles[ci]
            if p:
                lst = tops.get(p[-1])
                if lst is None:
                    tops[p[-1]] = [ci]
                else:
                    lst.append(ci)
            else:
                empties.append(ci)
        if not t.king_empties:
            empties = []
        free_hand = [h for h in t.hand if not piles[h]]

        # strings from columns
        down = self.down
        for si in t.string_columns:
            p = piles[si]
            if not p:
                continue
            c = p[-1]
            for fi in want.get(c, ()):
                out.append((si, fi, 1))
            if t.column_to_hand:
                for h in free_hand:
                    out.append((si, h, 1))
            maxk = len(p) - down[si] if t.column_strings else 1
            k = 1
            while True:
                for par in parents[c]:
                    for ci in tops.get(par, ()):
                        out.append((si, ci, k))
                if empties and c % 13 == _KING:
                    for ci in empties:
                        out.append((si, ci, k))
                k += 1
                if k > maxk:
                    break
                nc = p[-k]
                if nc not in parents[c]:
                    break
                c = nc

        # single cards: waste, hand, reserve, packets (and non-building columns)
        for si, to_columns in t.single_sources:
            p = piles[si]
            if not p:
                continue
            c = p[-1]
            for fi in want.get(c, ()):
                out.append((si, fi, 1))
            if to_columns:
                for par in parents[c]:
                    for ci in tops.get(par, ()):
                        out.append((si, ci, 1))
                if empties and c % 13 == _KING:
                    for ci in empties:
                        out.append((si, ci, 1))

        # foundation tops going back to columns or to other foundations
        for fi in t.fountain_sources:
            p = piles[fi]
            if len(p) <= t.f_keep[fi]:
                continue
            c = p[-1]
            if t.f_keep_kings[fi] and c % 13 == _KING:
                continue
            if t.f_out_columns[fi]:
                for par in parents[c]:
                    for ci in tops.get(par, ()):
                        out.append((fi, ci, 1))
                if empties and c % 13 == _KING:
                    for ci in empties:
                        out.append((fi, ci, 1))
            if t.f_out_foundations[fi]:
                for fj in want.get(c, ()):
                    if fj != fi:
                        out.append((fi, fj, 1))

        # a reserve space left empty can take the waste's top card
        if t.waste >= 0 and piles[t.waste]:
            for ri in t.reserve:
                if not piles[ri]:
                    out.append((t.waste, ri, 1))

        # the stock
        if t.stock >= 0:
            if piles[t.stock]:
                out.append(DRAW)
            elif piles[t.waste] and (t.redeals is None or self.redeals < t.redeals):
                out.append(TURN)
        elif t.turn is Turn.NEXT_PACKET and t.redeals is not None and self.redeals < t.redeals:
            packets = set(t.packets)
            if not any(m[0] in packets for m in out):
                out.append(TURN)
        return out

    # -- apply / undo ----------------------------------------------------------

    def push(self, move: Move) -> None:
        """Apply a legal move without checking it (see :meth:`moves`)."""
        t = self.t
        piles = self.piles
        src, dst, n = move
        prev_score = self.score
        if src >= 0:
            sp = piles[src]
            dp = piles[dst]
            if n == 1:
                dp.append(sp.pop())
            else:
                dp.extend(sp[-n:])
                del sp[-n:]
            delta = t.pair_delta[src][dst]
            flipped = 0
            if sp and t.auto_flip[src] and self.down[src] == len(sp):
                self.down[src] -= 1
                flipped = 1
                if t.scored:
                    delta += _FLIP
            refill = 0
            if not sp and t.refills[src]:
                w = t.waste
                if w >= 0 and piles[w]:
                    sp.append(piles[w].pop())
                    refill = 1
                elif t.stock >= 0 and piles[t.stock]:
                    sp.append(piles[t.stock].pop())
                    refill = 2
            if delta:
                s = prev_score + delta
                self.score = s if s > 0 else 0
            self._undo.append((move, flipped, refill, prev_score, None))
        elif src == -1:
            stock = piles[t.stock]
            waste = piles[t.waste]
            k = t.draw if t.draw < len(stock) else len(stock)
            for _ in range(k):
                waste.append(stock.pop())
            self._undo.append((move, 0, k, prev_score, None))
        elif t.turn is Turn.REDEAL:
            waste = piles[t.waste]
            waste.reverse()
            piles[t.stock] = waste
            piles[t.waste] = []
            self.redeals += 1
            if t.scored:
                s = prev_score + _REDEAL
                self.score = s if s > 0 else 0
            self._undo.append((move, 0, 0, prev_score, None))
        else:
            # Senior Wrangler: deal out the next packet, its bottom card first,
            # into its own space, then the spaces to its right, wrapping.
            packets = t.packets
            k = self.redeals
            saved = piles[packets[k]]
            piles[packets[k]] = []
            count = len(packets)
            for j, c in enumerate(saved):
                piles[packets[(k + j) % count]].append(c)
            self.redeals += 1
            self._undo.append((move, 0, 0, prev_score, saved))

    def pop(self) -> Move:
        """Take the last move back exactly; returns it."""
        t = self.t
        piles = self.piles
        move, flipped, extra, prev_score, saved = self._undo.pop()
        src, dst, n = move
        self.score = prev_score
        if src >= 0:
            sp = piles[src]
            if extra == 1:
                piles[t.waste].append(sp.pop())
            elif extra == 2:
                piles[t.stock].append(sp.pop())
            if flipped:
                self.down[src] += 1
            dp = piles[dst]
            if n == 1:
                sp.append(dp.pop())
            else:
                sp.extend(dp[-n:])
                del dp[-n:]
        elif src == -1:
            stock = piles[t.stock]
            waste = piles[t.waste]
            for _ in range(extra):
                stock.append(waste.pop())
        elif saved is None:
            stock = piles[t.stock]
            stock.reverse()
            piles[t.waste] = stock
            piles[t.stock] = []
            self.redeals -= 1
        else:
            self.redeals -= 1
            packets = t.packets
            k = self.redeals
            count = len(packets)
            for j in range(len(saved) - 1, -1, -1):
                piles[packets[(k + j) % count]].pop()
            piles[packets[k]] = saved
        return move

    # -- text ------------------------------------------------------------------

    def pile_texts(self) -> Iterable[tuple[str, str]]:
        """(label, cards) per pile; face-down cards in ``<..>``, bottom to top."""
        for i, label in enumerate(self.t.labels):
            d = self.down[i]
            yield (
                label,
                " ".join(
                    f"<{card_text(c)}>" if j < d else card_text(c)
                    for j, c in enumerate(self.piles[i])
                ),
            )

    def __repr__(self) -> str:
        return f"<State {self.t.rules.id} {' | '.join(f'{a}: {b}' for a, b in self.pile_texts())}>"
