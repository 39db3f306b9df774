"""The position in pure Python: :class:`Tables`, :func:`tables_for` and :class:`State`.

Import them from :mod:`patiencekit.state`, which says what they are and hands out either
these or their mypyc-compiled copy, ``patiencekit.state_fast``, built from this very file by
``tools/build_fast.py`` (and used only when it was built from this file as it is now). This
module is the reference: it needs no build, and the compiled copy must behave exactly as it
does (tests/test_state_fast.py). Keep it within what mypyc compiles: no monkeypatching of
these classes, no attributes beyond those assigned in ``__init__``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from patiencekit.cards import card_text
from patiencekit.deals import dealing_order
from patiencekit.moves import DRAW, TURN, EngineMove, Refusal, Why
from patiencekit.rules import GameRules, PileKind, Turn, Win

__all__ = ["State", "Tables", "tables_for"]

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
    """A game's rules compiled to lookup tables for the move generator and the checker.

    Built once per game (see :func:`tables_for`). Everything here comes from the
    :class:`~patiencekit.rules.GameRules` data: what goes on what in a column
    (``parents`` / ``children``, from :class:`~patiencekit.rules.Build`), what starts an
    empty column (``empty_takes``), what each foundation takes (``f_base`` / ``f_next``),
    and which piles may send cards where at all (``leave``, ``route_early``,
    ``route_late``; :meth:`opens`), from which the move generator's lists of sources
    (``string_columns``, ``single_sources``, ``fountain_sources``, ...) are made.
    :meth:`State.moves` and :meth:`State.check` both read these.
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

        # columns: what goes on what, and what starts an empty column (rules.Build, EmptyFill)
        col = rules.column_rule
        build = col.build
        self.build = build
        self.empty_fill = col.empty
        self.column_strings = col.strings
        #: the columns on which cards build (none when the rule builds nothing)
        self.build_columns: list[int] = self.columns if build.builds else []
        #: parents[c]: the cards c may be placed on in a column (a string: each card on its parent)
        self.parents: list[tuple[int, ...]] = [build.onto(c) for c in range(52)]
        #: children[c]: the cards that may be placed on c in a column
        self.children: list[tuple[int, ...]] = [
            tuple(k for k in range(52) if c in self.parents[k]) for c in range(52)
        ]
        #: empty_takes[c]: c (alone or heading a string) may start an empty column
        self.empty_takes: list[bool] = [col.empty.takes(c) for c in range(52)]
        #: an empty building column takes some card
        self.empty_fills = any(self.empty_takes) and bool(self.build_columns)

        # foundations: acceptable first cards and next card(s) after each top card
        self.f_size: list[int] = [0] * n
        self.f_base: list[tuple[int, ...]] = [()] * n
        self.f_next: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
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

        # which sources may go where: one table, read by moves() (through the lists
        # below) and by State.check
        self._strings_from_columns = build.builds and col.to_columns
        self._to_hand_from_columns = col.to_hand
        self._f_rules = dict(zip(self.foundations, rules.foundations, strict=True))
        self.leave: list[Why | None] = [self._leave(i) for i in range(n)]
        self.route_early: list[list[Why | None]] = [[None] * n for _ in range(n)]
        self.route_late: list[list[Why | None]] = [[None] * n for _ in range(n)]
        for a in range(n):
            for b in range(n):
                if a != b:
                    self.route_early[a][b], self.route_late[a][b] = self._route(a, b)

        def goes(a: int, to: Iterable[int]) -> bool:
            return any(self.opens(a, b) for b in to)

        #: columns whose strings (or last card) build on other columns
        self.string_columns: list[int] = self.columns if self._strings_from_columns else []
        self.column_to_hand = any(goes(i, self.hand) for i in self.string_columns)
        # sources of single-card moves other than building columns: (pile, to_columns)
        self.single_sources: list[tuple[int, bool]] = [
            (i, goes(i, self.columns))
            for i in [self.waste, *self.hand, *self.reserve, *self.packets, *self.columns]
            if i >= 0 and self.leave[i] is None and i not in self.string_columns
        ]
        self.f_out_columns: list[bool] = [False] * n
        self.f_out_foundations: list[bool] = [False] * n
        for fi in self.foundations:
            self.f_out_columns[fi] = goes(fi, self.columns)
            self.f_out_foundations[fi] = goes(fi, [f for f in self.foundations if f != fi])
        self.fountain_sources: list[int] = [
            fi for fi in self.foundations if self.f_out_columns[fi] or self.f_out_foundations[fi]
        ]
        #: empty reserve spaces the waste's top card may fill
        self.waste_to_reserve: list[int] = (
            [r for r in self.reserve if self.opens(self.waste, r)] if self.waste >= 0 else []
        )

        # score delta by (source pile, destination pile)
        self.pair_delta: list[list[int]] = [
            [_SCORE_DELTA.get((a, b), 0) if self.scored else 0 for b in kinds] for a in kinds
        ]

    def __reduce__(self) -> tuple[object, tuple[GameRules]]:
        # unpickled, a game's tables are the ones compiled once for its rules (tables_for)
        return (tables_for, (self.rules,))

    def _leave(self, i: int) -> Why | None:
        """Why no card ever leaves pile ``i``, or None."""
        kind = self.kinds[i]
        if kind is PileKind.STOCK:
            return Why.STOCK_CARDS_ARE_DRAWN
        if kind is PileKind.INDEX:
            return Why.INDEX_CARDS_STAY
        if kind is PileKind.FOUNDATION:
            fr = self._f_rules[i]
            if not (fr.to_columns and self.build_columns) and not fr.to_foundations:
                return Why.FOUNDATION_KEEPS_ALL
        return None

    def _route(self, a: int, b: int) -> tuple[Why | None, Why | None]:
        """Whether a card may go from pile ``a`` to pile ``b`` at all: the rule that forbids
        it, checked before (early) or after (late) the source's own checks, or None."""
        ka, kb = self.kinds[a], self.kinds[b]
        early: Why | None = None
        if ka is PileKind.FOUNDATION:
            fr = self._f_rules[a]
            if kb is PileKind.COLUMN and not (fr.to_columns and self.build_columns):
                early = Why.FOUNDATION_TO_FOUNDATIONS_ONLY
            elif kb is PileKind.FOUNDATION and not fr.to_foundations:
                early = Why.FOUNDATION_TO_COLUMNS_ONLY
        elif ka is PileKind.PACKET and kb is not PileKind.FOUNDATION:
            early = Why.PACKET_TO_FOUNDATIONS_ONLY
        elif ka is PileKind.RESERVE and kb is not PileKind.FOUNDATION:
            early = Why.RESERVE_TO_FOUNDATIONS_ONLY
        late: Why | None = None
        strings_from_a = ka is PileKind.COLUMN and self._strings_from_columns
        if kb is PileKind.COLUMN:
            if ka is PileKind.COLUMN and not strings_from_a:
                late = Why.COLUMN_TO_FOUNDATIONS_ONLY
            elif ka is PileKind.HAND and not self.build_columns:
                late = Why.HAND_NOT_TO_COLUMNS
            elif b not in self.build_columns:
                late = Why.NOT_BUILT_ON
        elif kb is PileKind.HAND:
            if ka is PileKind.COLUMN and not strings_from_a:
                late = Why.COLUMN_TO_FOUNDATIONS_ONLY
            elif not (strings_from_a and self._to_hand_from_columns):
                late = Why.HAND_FROM_COLUMNS_ONLY
        elif kb is PileKind.RESERVE:
            if ka is not PileKind.WASTE:
                late = Why.RESERVE_FROM_WASTE_ONLY
        elif kb is not PileKind.FOUNDATION:
            late = Why.NOTHING_GOES_ON_PILE
        return early, late

    def opens(self, a: int, b: int) -> bool:
        """True if the rules ever let a card go from pile ``a`` to pile ``b`` (the position
        decides when).

        >>> from patiencekit.games import get_rules
        >>> t = tables_for(get_rules("klondike"))
        >>> t.opens(t.by_label["w"], t.by_label["c1"]), t.opens(t.by_label["c1"], t.waste)
        (True, False)
        """
        return (
            a != b
            and self.leave[a] is None
            and self.route_early[a][b] is None
            and self.route_late[a][b] is None
        )

    def label_of(self, move: EngineMove) -> str:
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
#: the pile kinds, stock turns and win rule the position's moves ask about, as module
#: constants (the compiled position reads them without looking the enum up each time:
#: :meth:`State.check` took a third of the time it took with ``PileKind.COLUMN``)
_FOUNDATION_KIND: Final = PileKind.FOUNDATION
_RESERVE_KIND: Final = PileKind.RESERVE
_COLUMN_KIND: Final = PileKind.COLUMN
_NEXT_PACKET: Final = Turn.NEXT_PACKET
_TURN_REDEAL: Final = Turn.REDEAL
_KINGS_AT_TOPS: Final = Win.KINGS_AT_COLUMN_TOPS

#: what :meth:`State.pop` needs to take a move back: the move, whether it turned a card
#: face up, what else it moved (the cards drawn, or a refill: 1 from the waste, 2 from the
#: stock), the score before it, and a packet's cards before it was dealt
Undo = tuple[EngineMove, int, int, int, list[int] | None]


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
        self._undo: list[Undo] = []

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

    def __reduce__(
        self,
    ) -> tuple[type[State], tuple[Tables, list[list[int]], list[int], int, int], list[Undo]]:
        # pickled by hand: mypyc's compiled class has no default pickling of its own, and
        # both must pickle alike, the undo history included (see __setstate__)
        return (
            type(self),
            (self.t, self.piles, self.down, self.redeals, self.score),
            self._undo,
        )

    def __setstate__(self, undo: list[Undo]) -> None:
        self._undo = undo

    def key(self) -> tuple[object, ...]:
        """A hashable key of the position (piles, face-down counts, redeals, score)."""
        return (tuple(map(tuple, self.piles)), tuple(self.down), self.redeals, self.score)

    def packed(self, fixed: list[int], groups: list[list[int]]) -> bytes:
        """The piles ``fixed`` (their cards, then their face-down counts) and each group of
        ``groups`` with its piles sorted, packed into bytes, so that positions that differ
        only by which pile of a group holds what pack alike: 255 between pile segments, 254
        before a group. Cards are 0..51 and face-down counts stay below 250, so for given
        ``fixed`` and ``groups`` the packing is one-to-one: a key a search can keep a
        position by, and add its own parts to.

        >>> from patiencekit.games import get_rules
        >>> s = State.deal(get_rules("klondike"), 1)
        >>> c1, c2 = s.t.by_label["c1"], s.t.by_label["c2"]
        >>> s.packed([], [[c1, c2]]) == s.packed([], [[c2, c1]])
        True
        >>> s.packed([c1], []) == bytes(s.piles[c1]) + bytes([255, s.down[c1]])
        True
        """
        piles = self.piles
        down = self.down
        parts = [bytes(piles[i]) for i in fixed]
        parts.append(bytes([down[i] for i in fixed]))
        for g in groups:
            parts.append(b"\xfe" + b"\xff".join(sorted([bytes(piles[i]) for i in g])))
        return b"\xff".join(parts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.t is other.t and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    # -- queries -------------------------------------------------------------

    @property
    def history_length(self) -> int:
        """How many moves ``pop`` can take back."""
        return len(self._undo)

    def history(self) -> list[EngineMove]:
        """The moves ``pop`` can take back, oldest first."""
        return [u[0] for u in self._undo]

    def last(self) -> EngineMove | None:
        """The move ``pop`` would take back, or None."""
        return self._undo[-1][0] if self._undo else None

    def is_won(self) -> bool:
        """True when the game's win condition holds."""
        t = self.t
        piles = self.piles
        if t.win is _KINGS_AT_TOPS:
            kings = sum(1 for i in t.columns if piles[i] and piles[i][0] % 13 == _KING)
            return kings == 4 * t.rules.decks
        placed = 0
        for i in t.foundations:
            placed += len(piles[i])
        return placed == t.target

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

    def _wanted(self, nothing: list[int]) -> list[list[int]]:
        """:meth:`foundation_wants` as a list by card, ``nothing`` (an empty list, never
        appended to) for a card no foundation takes now: what :meth:`moves` reads."""
        t = self.t
        piles = self.piles
        want = [nothing] * 52
        for fi in t.foundations:
            p = piles[fi]
            if not p:
                acc = t.f_base[fi]
            elif len(p) >= t.f_size[fi]:
                continue
            else:
                acc = t.f_next[fi][p[-1]]
            for c in acc:
                lst = want[c]
                if lst:
                    lst.append(fi)
                else:
                    want[c] = [fi]
        return want

    def moves(self) -> list[EngineMove]:
        """Every legal move, in a fixed order."""
        # The hot path of every search: lists by card (not dicts) and locals, for pure
        # Python and mypyc alike; tests/test_state_fast.py holds it to the same moves.
        t = self.t
        piles = self.piles
        out: list[EngineMove] = []
        nothing: list[int] = []  # shared by every card that finds no pile: never appended to
        want = self._wanted(nothing)
        parents = t.parents

        # tops[c]: the building columns whose top card is c
        tops = [nothing] * 52
        empties: list[int] = []
        for ci in t.build_columns:
            p = piles[ci]
            if p:
                c = p[-1]
                lst = tops[c]
                if lst:
                    lst.append(ci)
                else:
                    tops[c] = [ci]
            else:
                empties.append(ci)
        if not t.empty_fills:
            empties = []
        empty_takes = t.empty_takes
        free_hand = [h for h in t.hand if not piles[h]] if t.column_to_hand else []
        column_strings = t.column_strings

        # strings from columns
        down = self.down
        for si in t.string_columns:
            p = piles[si]
            maxk = len(p) - down[si]
            if maxk <= 0:  # empty, or its last card face down (a column without auto_flip)
                continue
            c = p[-1]
            for fi in want[c]:
                out.append((si, fi, 1))
            for h in free_hand:
                out.append((si, h, 1))
            if not column_strings:
                maxk = 1
            k = 1
            while True:
                pars = parents[c]
                for par in pars:
                    for ci in tops[par]:
                        if ci != si:  # building either way, a string's card may fit its own top
                            out.append((si, ci, k))
                if empties and empty_takes[c]:
                    for ci in empties:
                        out.append((si, ci, k))
                k += 1
                if k > maxk:
                    break
                c = p[-k]
                if c not in pars:
                    break

        # single cards: waste, hand, reserve, packets (and non-building columns)
        for si, to_columns in t.single_sources:
            p = piles[si]
            if not p:  # (its last card is never face down: see Game.from_board)
                continue
            c = p[-1]
            for fi in want[c]:
                out.append((si, fi, 1))
            if to_columns:
                for par in parents[c]:
                    for ci in tops[par]:
                        out.append((si, ci, 1))
                if empties and empty_takes[c]:
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
                    for ci in tops[par]:
                        out.append((fi, ci, 1))
                if empties and empty_takes[c]:
                    for ci in empties:
                        out.append((fi, ci, 1))
            if t.f_out_foundations[fi]:
                for fj in want[c]:
                    if fj != fi:
                        out.append((fi, fj, 1))

        # a reserve space left empty can take the waste's top card
        if t.waste_to_reserve and piles[t.waste]:
            for ri in t.waste_to_reserve:
                if not piles[ri]:
                    out.append((t.waste, ri, 1))

        # the stock
        if t.stock >= 0:
            if piles[t.stock]:
                out.append(DRAW)
            elif piles[t.waste] and (t.redeals is None or self.redeals < t.redeals):
                out.append(TURN)
        elif t.turn is _NEXT_PACKET and t.redeals is not None and self.redeals < t.redeals:
            packets = set(t.packets)
            if not any(m[0] in packets for m in out):
                out.append(TURN)
        return out

    def check(self, move: EngineMove) -> Refusal | None:
        """None if ``move`` is legal now (exactly when it is in :meth:`moves`), else the
        :class:`Refusal` saying which rule it breaks, from the same compiled rules.

        Rules are checked in a fixed order, and a rule about a card is checked only once
        the card is known to be in sight, so that the first rule broken never depends on
        a hidden card.

        >>> from patiencekit.games import get_rules
        >>> s = State.deal(get_rules("klondike-draw1"), 24)
        >>> t = s.t
        >>> s.check((t.by_label["c3"], t.by_label["f1"], 1)) is None
        True
        >>> s.check((t.by_label["c1"], t.by_label["c2"], 1)).code
        <Why.DOES_NOT_FIT: 'does-not-fit'>
        >>> s.check(TURN).code
        <Why.STOCK_NOT_EMPTY: 'stock-not-empty'>
        """
        src, dst, n = move
        if src < 0:
            return self._check_stock(move)
        t = self.t
        piles = self.piles
        if src == dst:
            return Refusal(Why.SAME_PILE, move)
        pile = piles[src]
        if not pile:
            return Refusal(Why.SOURCE_EMPTY, move)
        why = t.leave[src]
        if why is None and t.kinds[src] is _FOUNDATION_KIND:
            if len(pile) <= t.f_keep[src]:
                why = Why.BASE_CARD_STAYS
            elif t.f_keep_kings[src] and pile[-1] % 13 == _KING:
                why = Why.KING_STAYS
        if why is None:
            why = t.route_early[src][dst]
        if why is not None:
            return Refusal(why, move)
        up = len(pile) - self.down[src]
        if n > 1:
            if src not in t.string_columns or not t.column_strings:
                return Refusal(Why.ONE_CARD_FROM_PILE, move)
            if n > up:
                return Refusal(Why.TOO_FEW_FACE_UP, move, (up,))
            parents = t.parents
            for j in range(len(pile) - n, len(pile) - 1):
                if pile[j] not in parents[pile[j + 1]]:
                    return Refusal(Why.NOT_A_STRING, move)
        elif up <= 0:
            return Refusal(Why.FACE_DOWN, move)
        card = pile[-n]
        dpile = piles[dst]
        dk = t.kinds[dst]
        why = t.route_late[src][dst]
        if dk is _RESERVE_KIND and dpile:
            return Refusal(Why.RESERVE_TAKEN, move)
        if why is not None:
            return Refusal(why, move)
        if dk is _COLUMN_KIND:
            if not dpile:
                if t.empty_takes[card]:
                    return None
                if not any(t.empty_takes):
                    return Refusal(Why.EMPTY_COLUMN_TAKES_NOTHING, move)
                return Refusal(Why.EMPTY_COLUMN_WANTS, move)
            top = dpile[-1]
            if top in t.parents[card]:
                return None
            if not t.children[top]:
                return Refusal(Why.NOTHING_GOES_ON_CARD, move)
            return Refusal(Why.DOES_NOT_FIT, move)
        if dk is _FOUNDATION_KIND:
            if n > 1:
                return Refusal(Why.ONE_CARD_TO_FOUNDATION, move)
            if len(dpile) >= t.f_size[dst]:
                return Refusal(Why.FOUNDATION_COMPLETE, move)
            # what foundation_wants() says of this one foundation, without the others
            takes = t.f_next[dst][dpile[-1]] if dpile else t.f_base[dst]
            if card in takes:
                return None
            if not dpile:
                return Refusal(Why.FOUNDATION_DOES_NOT_START, move)
            return Refusal(Why.FOUNDATION_DOES_NOT_TAKE, move)
        if n > 1:  # the hand, or an empty reserve space (from the waste: one card anyway)
            return Refusal(Why.ONE_CARD_TO_HAND, move)
        if dpile:  # a hand cell
            if all(piles[h] for h in t.hand):
                return Refusal(Why.HAND_FULL, move)
            return Refusal(Why.HAND_CELL_TAKEN, move)
        return None

    def _check_stock(self, move: EngineMove) -> Refusal | None:
        """:meth:`check` for ``s`` (:data:`DRAW`) and ``t`` (:data:`TURN`)."""
        t = self.t
        piles = self.piles
        left = self.redeals_left()
        if move == DRAW:
            if t.stock < 0:
                return Refusal(Why.NO_STOCK, move)
            if piles[t.stock]:
                return None
            if left is None or left > 0:
                if piles[t.waste]:
                    return Refusal(Why.STOCK_EMPTY, move)
                return Refusal(Why.STOCK_AND_WASTE_EMPTY, move)
            return Refusal(Why.NO_REDEAL_FOR_STOCK, move)
        if t.turn is _NEXT_PACKET:
            if left == 0:
                return Refusal(Why.ALL_PACKETS_DEALT, move, (t.redeals or 0,))
            packets = t.packets
            for m in self.moves():
                if m[0] in packets:
                    return Refusal(Why.PACKET_CARD_PLAYS, move, m)
            return None
        if t.stock < 0:
            return Refusal(Why.NO_STOCK, move)
        if piles[t.stock]:
            return Refusal(Why.STOCK_NOT_EMPTY, move)
        if not piles[t.waste]:
            return Refusal(Why.WASTE_EMPTY, move)
        if left is None or left > 0:
            return None
        return Refusal(Why.NO_REDEAL_LEFT, move, (t.redeals or 0,))

    # -- apply / undo ----------------------------------------------------------

    def push(self, move: EngineMove) -> None:
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
        elif t.turn is _TURN_REDEAL:
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

    def pop(self) -> EngineMove:
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
