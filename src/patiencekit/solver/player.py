"""The hint player: hindsight optimisation over the player's view, with the game's history.

A hint is chosen as a strong player who cannot see the face-down cards nor the stock's
order would choose it (after the HOP players of Bjarnason, Tadepalli & Fern and of
lonelybot):

1. **Only moves to new positions.** A move whose next position is already on the game's
   line (from the deal to now) is never proposed, so following the hints never goes
   round in circles. A position here is what the player sees: the cards in sight, where
   they lie, how many are hidden in each pile (and the redeals, when they are limited).
   In these games that is the whole position: hidden cards never move while hidden, and
   the stock and waste keep their order but for the cards taken from them.
2. **Safe moves at once.** A card to its foundation that no card in play can need goes
   there without a search; with draw 3 not from the waste while the stock has cards
   (that shifts the turns of every card after it in the talon).
3. **Scouting.** In Klondike the first pass goes through the stock without playing
   from it (safe foundation moves from the columns apart): after it every card of the
   stock has been in sight, and the tableau has waited (nothing in it changed
   meanwhile). The cards the waste offers on the next pass are those it offered on this
   one.
4. **Determinizations.** The unseen cards are dealt at random into the unseen places,
   ``samples`` times, seeded by the view (the same view gives the same samples, and two
   deals that differ only in what is hidden give the same hint); the stock as the
   player saw it go by stays as it was.
5. **Plans for the talon.** Once the player knows the talon (Klondike, after the first
   pass), a draw is not a candidate by itself: each card the draws can bring to the
   waste's top is, as one plan (the draws, then the card's move; :func:`talon_plans`).
   Judged alone, a draw looks as good as the best card of the next pass, which the
   player, who never goes back to a position of the line, may no longer reach.
6. **Scores.** Each candidate (a move or a plan) is played in the samples, one after
   another, and each sample searched from there by the thoughtful solver within ``positions``
   positions, forbidden to enter the positions of the game's line that could come again
   (so a "win" that only goes back round the stock counts for nothing). The candidates
   meet the same samples in the same order. Two judges share the searches out, as a
   game's hint settings say (``solver.HINT_SETTINGS``):

   - the bounds (:func:`_by_samples`): the searches go to the candidates by upper
     confidence bounds. In Klondike draw 3 as lonelybot's player gives them
     (:data:`LEADER`): many samples (a thousand) of small searches, ten at a time to
     the candidate with the best bound, until one candidate has met every sample:
     that one is the hint. In the other games UCB1 (:data:`UCB1`), a few samples of
     larger searches, and the candidate with the best share of won samples;
   - the race (:func:`_race`, Klondike draw 1): every candidate still in the race
     meets the next sample, and one clearly behind the leader leaves.

   Either way at most ``evaluations`` searches; equal shares go to the rule of thumb
   (:func:`ordered`), which is also the answer when there is a single candidate.
7. **Arrangements** (Klondike draw 3, :func:`arranged_plans`). A move that can be
   taken back is not a candidate by itself: a candidate is an irreversible move, made
   from the position or after at most two reversible ones, as lonelybot's player
   makes them.

Everything is bounded by positions (deterministic on any machine); ``seconds`` is only a
safety net that stops scoring early.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from patiencekit.rules import PileKind, Turn
from patiencekit.solver.generic import GenericSearch, prefers_best_first
from patiencekit.state import DRAW, TURN, EngineMove, State

__all__ = [
    "PlayerLine",
    "candidates",
    "choose",
    "line_of",
    "new_moves",
    "ordered",
    "position_key",
    "talon_known",
    "talon_plans",
]


def position_key(state: State) -> Hashable:
    """A position as the player sees it: per pile, how many cards are hidden and the cards
    in sight; the redeals too when they are limited.

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 1)
    >>> before = position_key(g.state)
    >>> _ = g.play("s")
    >>> position_key(g.state) == before
    False
    """
    t = state.t
    piles = state.piles
    down = state.down
    out: list[object] = []
    for i in range(t.pile_count):
        p = piles[i]
        hidden = len(p) if t.kinds[i] is PileKind.STOCK else down[i]
        out.append((hidden, tuple(p[hidden:])))
    if state.t.redeals is not None:
        out.append(state.redeals)
    return tuple(out)


def _hidden(state: State, i: int) -> int:
    return len(state.piles[i]) if state.t.kinds[i] is PileKind.STOCK else state.down[i]


class PlayerLine:
    """The game's line as the hint player needs it: the keys of every position on it (the
    current one included), and copies of the earlier positions that could come again.

    In Klondike (unlimited redeals) the player learns the stock's order on the first pass:
    from the first time the stock is empty on, every card of it has been in sight. The
    positions before that were seen knowing less, and one of them may come once more
    after (the deal itself, when a first pass only looked at the cards), so the line then
    holds only the positions since: no position comes a third time."""

    __slots__ = ("kept", "keys", "near", "scouting", "stock")

    def __init__(
        self,
        keys: set[Hashable],
        near: list[State],
        stock: list[int] | None = None,
        scouting: bool = False,
        kept: frozenset[tuple[int, int, int]] = frozenset(),
    ) -> None:
        self.keys = keys
        #: earlier positions with the current face-down counts, stock and waste size
        #: and redeals: the only ones the game can come back to
        self.near = near
        #: the stock as the player has seen it (bottom to top), when every card in it was
        #: on the waste, in sight, since the stock was last empty; else None
        self.stock = stock
        #: Klondike's first pass: the stock has never been empty, so the player has not
        #: seen all of it yet (the hint then goes through it first)
        self.scouting = scouting
        #: the reversible moves the game made since its last irreversible one (draws and
        #: turns apart), as (card, from, to): the hint's arrangements do not take them
        #: back (:func:`arranged_plans`), so that it cannot move a card to and fro
        #: between the draws
        self.kept = kept


def line_of(state: State) -> PlayerLine:
    """The line of ``state`` (its undo history), walked back and forth on ``state`` itself,
    which ends as it began.

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 1)
    >>> for m in ["s", "s", "s"]:
    ...     _ = g.play(m)
    >>> line = line_of(g.state)
    >>> len(line.keys), len(line.near)
    (4, 3)
    """
    # (position key, a copy when it could come again, the stock empty there), now first
    seen: list[tuple[Hashable, State | None, bool]] = []
    undone: list[EngineMove] = []
    down = state.down[:]
    redeals = state.redeals
    talon = _talon_size(state)
    # unlimited redeals count up for ever, yet a position before a turn of the waste comes
    # again after it (the position key leaves them out then)
    unlimited = state.t.redeals is None
    t = state.t
    remember = t.turn is Turn.REDEAL and t.stock >= 0 and t.waste >= 0
    seq: list[int] | None = None
    seen.append((position_key(state), None, remember and not state.piles[t.stock]))
    kept: set[tuple[int, int, int]] = set()
    arranging = True
    try:
        while state.history_length:
            undone.append(state.pop())
            last = undone[-1]
            if arranging and last[0] >= 0:
                if reversible(state, last):
                    src, dst, count = last
                    kept.add((state.piles[src][-count], src, dst))
                else:
                    arranging = False
            empty = remember and not state.piles[t.stock]
            if empty and seq is None and state.piles[t.waste]:
                seq = state.piles[t.waste][:]
            near = (
                state.down == down
                and (unlimited or state.redeals == redeals)
                and _talon_size(state) == talon
            )
            seen.append((position_key(state), state.copy() if near else None, empty))
    finally:
        for m in reversed(undone):
            state.push(m)
    # the first position with the stock empty (the stock known from then on)
    known = next((i for i in range(len(seen) - 1, -1, -1) if seen[i][2]), None)
    first_pass = remember and unlimited  # the game where the stock is learnt once
    if first_pass and known is not None:
        seen = seen[: known + 1]
    keys = {k for k, _, _ in seen}
    near_states = [c for _, c, _ in seen if c is not None]
    stock = _seen_stock(state, seq) if seq is not None else None
    return PlayerLine(keys, near_states, stock, first_pass and known is None, frozenset(kept))


def _seen_stock(state: State, seq: list[int]) -> list[int] | None:
    """The stock of ``state`` from ``seq``, the waste when the stock was last empty: a
    turn puts the waste back in the stock as it came, and cards only leave since, so the
    talon (the waste, then the stock from its top) is ``seq`` less the cards gone."""
    t = state.t
    stock = state.piles[t.stock]
    waste = state.piles[t.waste]
    if not stock:
        return None
    present = set(stock) | set(waste)
    rest = [c for c in seq if c in present]
    if rest[: len(waste)] != waste or len(rest) != len(waste) + len(stock):
        return None
    return rest[len(waste) :][::-1]


def _talon_size(state: State) -> int:
    t = state.t
    n = len(state.piles[t.stock]) if t.stock >= 0 else 0
    return n + (len(state.piles[t.waste]) if t.waste >= 0 else 0)


def _twin(past: State, sample: State, klondike: bool) -> State | None:
    """``past`` (a position of the real game that could come again, see :class:`PlayerLine`)
    as it would be in the world of ``sample``: the sample's hidden cards where ``past`` has
    the same hidden places, the rest as it was (the cards dealt since were seen). In
    Klondike the talon is a set to the search (:meth:`KlondikeSearch.forbid`), so only its
    split between stock and waste is kept. None when it cannot be made (a game whose
    stock was longer then)."""
    t = past.t
    piles = [q[:] for q in past.piles]
    for i in t.columns:
        d = sample.down[i]
        if d:
            piles[i] = sample.piles[i][:d] + past.piles[i][d:]
    if t.stock >= 0:
        stock = sample.piles[t.stock]
        if klondike:
            talon = sorted(stock + sample.piles[t.waste])
            w = len(past.piles[t.waste])
            piles[t.waste] = talon[:w]
            piles[t.stock] = talon[w:]
        else:
            if len(past.piles[t.stock]) < len(stock):
                return None
            piles[t.stock] = stock + past.piles[t.stock][len(stock) :]
    return State(t, piles, past.down[:], past.redeals, past.score)


def _near_twins(line: PlayerLine, sample: State, klondike: bool) -> list[State]:
    """The positions of ``line`` that could come again, as they are in ``sample``'s world
    (:func:`_twin`): what a search of that sample must not enter."""
    return [tw for p in line.near if (tw := _twin(p, sample, klondike)) is not None]


#: how often a hint's generic search checks its positions budget (every 16 positions)
_HINT_CHECK_MASK = 15


def _solve(
    sample: State,
    dead: list[State],
    positions: int,
    klondike_search: Any | None,
) -> tuple[bool | None, EngineMove | None]:
    """Solve one sample within ``positions``, never entering ``dead``: (won, first move)."""
    if klondike_search is not None:
        ks = klondike_search(sample, max_states=positions, max_memory_mb=None)
        # a hint's budget is small: check it often, or a search runs far past it
        ks.check_mask = _HINT_CHECK_MASK
        ks.forbid(dead)
        won, _ = ks.run()
        first = ks.first_move(sample) if won else None
        return (bool(won) if won is not None else None), first
    won = None
    width = 2
    best_first = prefers_best_first(sample)
    for greedy in [False] if best_first else [True, False]:
        gs = GenericSearch(
            sample,
            max_states=positions,
            max_memory_mb=None,
            greedy=greedy,
            beam_width=width,
            dead=dead,
        )
        # a hint's budget is small: check it often, or a search runs far past it
        gs.check_mask = gs.wide_mask = _HINT_CHECK_MASK
        won, _ = gs.run()
        width = gs.beam_width
        if won:
            return True, (gs.path[0] if gs.path else None)
    return won, None


def ordered(state: State, moves: list[EngineMove]) -> list[EngineMove]:
    """The rule of thumb, best first: cards to the foundations; moves that turn up a card
    or bring a king's string out from over face-down cards to an empty column; a card
    from the waste (or a hand, a reserve) to a column; the stock (draw, then turn); and
    last the moves that only shift cards about (a string to another column, a card back
    from a foundation), which any line can make later as well as now.

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 1)
    >>> [g.tables.label_of(m) for m in ordered(g.state, g.state.moves())][-1]
    's'
    """
    return [m for _, m in _scored(state, moves)]


def _scored(state: State, moves: list[EngineMove]) -> list[tuple[int, EngineMove]]:
    """:func:`ordered` with each move's score (lower is better)."""
    t = state.t
    kinds = t.kinds
    scored: list[tuple[int, int, EngineMove]] = []
    for n, m in enumerate(moves):
        src, dst, count = m
        if src < 0:
            score = 50 if src == -1 else 60
        else:
            sk, dk = kinds[src], kinds[dst]
            if dk is PileKind.FOUNDATION:
                score = 80 if sk is PileKind.FOUNDATION else 0
            elif sk is PileKind.COLUMN:
                left = len(state.piles[src]) - count
                if left and state.down[src] == left:
                    score = 5  # turns a card up
                elif dk is PileKind.COLUMN and not state.piles[dst]:
                    score = 10 if left else 95  # a king string out (or from one gap to another)
                elif not left:
                    score = 70  # empties a column
                else:
                    score = 75
            elif sk is PileKind.FOUNDATION:
                score = 85
            else:
                score = 25
        scored.append((score, n, m))
    scored.sort()
    return [(score, m) for score, _, m in scored]


#: searches one hint may make (the default, Klondike's; the other games ask for fewer)
EVALUATIONS = 256
#: every candidate is first searched in this many samples
FIRST_ROUND = 2


def _klondike_safe(state: State, m: EngineMove) -> bool:
    """A card to its foundation that no card in play can need (Klondike's rule) and that
    changes nothing in what the talon offers: with draw 3, a card taken from the waste
    while the stock has cards shifts the turn of every talon card after it, so that a
    card the next pass would bring may come up no more (it is a candidate then, judged
    in the samples like any other: such a move lost won deals 3,000,000 and 3,000,015
    to the hints)."""
    t = state.t
    if m[0] < 0 or t.kinds[m[1]] is not PileKind.FOUNDATION:
        return False
    if m[0] == t.waste and t.draw > 1 and state.piles[t.stock]:
        return False
    card = state.piles[m[0]][-1]
    r, suit = card % 13, card // 13
    if r <= 1:
        return True
    f = [len(state.piles[i]) for i in t.foundations]
    a, b = (2, 3) if suit < 2 else (0, 1)
    same = suit ^ 1
    return f[a] >= r and f[b] >= r and f[same] >= r - 1


def choose(
    state: State,
    samples: Sequence[State],
    line: PlayerLine,
    *,
    positions: int,
    evaluations: int = EVALUATIONS,
    klondike_search: Any | None = None,
    seconds: float | None = None,
    allocation: Allocation | None = None,
    arrange_depth: int = 0,
) -> EngineMove | None:
    """The hint's move from ``state`` (see the module's docstring), or None when no move
    leads to a position not already on ``line``.

    ``samples`` are the determinizations (positions that look like ``state`` to the
    player; one sample, the real position, for a thoughtful hint); ``klondike_search``
    is the Klondike search class for Klondike games (None: the generic search);
    ``positions`` bounds each search, ``evaluations`` the searches of one hint.
    ``allocation`` is how the searches go to the candidates (:func:`_by_samples`); None
    is the race in Klondike (:func:`_race`) and :data:`UCB1` in the other games.
    ``arrange_depth`` is Klondike's reversible moves before a candidate commits
    (:func:`arranged_plans`; 0: every move is a candidate by itself).
    """
    cands = new_moves(state, line)
    if not cands:
        return None
    scored = _scored(state, cands)
    order = [m for _, m in scored]
    if klondike_search is not None:
        for m in order:
            if _klondike_safe(state, m):
                return m
        if line.scouting:
            # the first pass: look at every card of the stock before choosing (the
            # tableau waits: nothing in it changes meanwhile)
            for m in order:
                if m[0] == -1:
                    return m
    else:
        safe = GenericSearch(state)._safe(cands)
        if safe is not None:
            return safe
    if len(order) == 1:
        return order[0]
    klondike = klondike_search is not None
    if len(samples) == 1:
        # the real position: its line's first move
        sample = samples[0]
        near = _near_twins(line, sample, klondike)
        ok, first = _solve(sample, near, positions, klondike_search)
        return first if ok and first in cands else order[0]
    plans = candidates(state, line, klondike, scored, arrange_depth)
    if not plans:
        return order[0]
    if len(plans) == 1:
        return plans[0][0]
    deadline = None if seconds is None else time.perf_counter() + seconds
    if allocation is None and klondike:
        judged = _race(
            state, plans, samples, line, positions, evaluations, klondike_search, deadline
        )
    else:
        judged = _by_samples(
            state, plans, samples, line, positions, evaluations, klondike_search, deadline,
            allocation or UCB1,
        )
    return judged[0]


def new_moves(state: State, line: PlayerLine) -> list[EngineMove]:
    """The legal moves of ``state`` whose next position is not on ``line``: the only
    moves a hint may give (``state`` ends as it began).

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 1)
    >>> len(new_moves(g.state, line_of(g.state))) == len(g.state.moves())  # all new
    True
    """
    out: list[EngineMove] = []
    for m in state.moves():
        state.push(m)
        try:
            if position_key(state) not in line.keys:
                out.append(m)
        finally:
            state.pop()
    return out


def candidates(
    state: State,
    line: PlayerLine,
    klondike: bool,
    scored: list[tuple[int, EngineMove]] | None = None,
    arrange_depth: int = 0,
) -> list[list[EngineMove]]:
    """What a hint judges in the samples when no move is safe, in the rule of thumb's
    order: in Klondike with an ``arrange_depth``, the plans of :func:`arranged_plans`
    (when there are any); else in Klondike once the player knows the talon, the plans of
    :func:`talon_plans`; else each move of :func:`new_moves` alone. ``scored`` is
    :func:`new_moves` with the rule of thumb's scores (made here when not given).

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 1)
    >>> line = line_of(g.state)
    >>> [len(plan) for plan in candidates(g.state, line, True)] == [1] * len(
    ...     new_moves(g.state, line))
    True
    """
    if scored is None:
        scored = _scored(state, new_moves(state, line))
    if klondike and arrange_depth:
        plans = arranged_plans(state, line, arrange_depth)
        if plans:
            return plans
    if klondike and talon_known(state, line.stock):
        return talon_plans(state, line, scored)
    return [[m] for _, m in scored]


#: Klondike's candidates (after lonelybot's player, :func:`arranged_plans`): the
#: arrangements a hint looks through are reached by at most this many reversible moves
#: by default, and there are at most :data:`ARRANGE_MAX` of them
ARRANGE_DEPTH = 2
ARRANGE_MAX = 24


def reversible(state: State, m: EngineMove) -> bool:
    """Can ``m`` be taken back by a legal move, to the very same position (as the player
    sees it)? A string from one column to another that turns no card up, a card between
    a column and its foundation that turns none up; never a draw, a turn or a card from
    the waste. (``state`` ends as it began.)

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 1)
    >>> any(reversible(g.state, m) for m in g.state.moves())
    False
    """
    src, dst, count = m
    if src < 0:
        return False
    before = position_key(state)
    state.push(m)
    try:
        back = (dst, src, count)
        if state.check(back) is not None:
            return False
        state.push(back)
        try:
            return position_key(state) == before
        finally:
            state.pop()
    finally:
        state.pop()


def arranged_plans(
    state: State, line: PlayerLine, depth: int = ARRANGE_DEPTH
) -> list[list[EngineMove]]:
    """Klondike's candidates as lonelybot's player makes them: a reversible move
    (:func:`reversible`) is never a candidate by itself, for in the samples it only puts
    off a choice, and a search after it can still make every choice, so that it looks
    at least as good as the best of them (and a player following such hints shifts cards
    about for ever). A candidate is an irreversible move (or, once the player knows the
    talon, a plan of :func:`talon_plans` that ends in one), made from the position or
    from an arrangement reached by at most ``depth`` reversible moves, with
    those moves before it; one plan for each position it ends in, the shortest. An
    arrangement never takes back a reversible move the game made since its last
    irreversible one (``line.kept``): the hint plays a plan's first move only and judges
    again from there, and with a draw between them a card could otherwise go to and fro
    for ever (lonelybot's own player does that, ``SP`` and ``PS`` of one card, in its
    later versions). The plans from the position come first, in the rule of thumb's
    order. Empty when no irreversible move leads to a new position. (``state`` ends as
    it began.)

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 1)
    >>> plans = arranged_plans(g.state, line_of(g.state))
    >>> all(not reversible(g.state, p[0]) for p in plans if len(p) == 1)
    True
    """
    talon = talon_known(state, line.stock)
    out: list[list[EngineMove]] = []
    ends: set[Hashable] = set()
    visited = {position_key(state)}
    queue: list[list[EngineMove]] = [[]]
    i = 0
    while i < len(queue):
        path = queue[i]
        i += 1
        for m in path:
            state.push(m)
        try:
            scored = _scored(state, new_moves(state, line))
            moves = [m for _, m in scored]
            rev = [m for m in moves if reversible(state, m)]
            plans = talon_plans(state, line, scored) if talon else [[m] for m in moves]
            for plan in plans:
                if len(plan) == 1 and plan[0] in rev:
                    continue
                for m in plan:
                    state.push(m)
                key = position_key(state)
                for _ in plan:
                    state.pop()
                if key not in ends:
                    ends.add(key)
                    out.append(path + plan)
            if len(path) < depth:
                for m in rev:
                    src, dst, count = m
                    if (state.piles[src][-count], dst, src) in line.kept:
                        continue  # the game's own arrangement, taken back
                    state.push(m)
                    key = position_key(state)
                    state.pop()
                    if key not in visited and len(queue) < ARRANGE_MAX:
                        visited.add(key)
                        queue.append([*path, m])
        finally:
            for _ in path:
                state.pop()
    return out


def talon_known(state: State, stock_seen: Sequence[int] | None) -> bool:
    """Every talon card has been in sight since the stock was last empty (``stock_seen``,
    the stock as the player saw it go by, is known) or the stock is empty now: the player
    knows what each draw brings. A game without a stock has no talon to know.

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 5)
    >>> talon_known(g.state, None), talon_known(g.state, [])
    (False, True)
    """
    t = state.t
    if t.stock < 0 or t.waste < 0:
        return False
    return stock_seen is not None or not state.piles[t.stock]


def talon_plans(
    state: State, line: PlayerLine, scored: list[tuple[int, EngineMove]]
) -> list[list[EngineMove]]:
    """Klondike's candidates once the player knows the talon (the rule of thumb's order):
    each move but a draw or a turn, and each card the draws can bring to the waste's top
    played from there, *as one plan*: the draws (and a turn) that bring it, then the
    card's move. A draw alone only shifts the talon; what it is for is the card it brings,
    and judging the draw by itself over-rates it: a search after the draw may take any
    card of the next pass, yet the player cannot go round again past positions of the
    line (a card drawn past is gone until the tableau changes). The draws stop at the
    first position of the line. The plans go where the draw was in the order.

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike-draw1", 5)
    >>> for _ in range(24):
    ...     _ = g.play("s")
    >>> state = g.state
    >>> line = line_of(state)
    >>> plans = talon_plans(state, line, _scored(state, state.moves()))
    >>> all(len(p) == 1 or p[0] in (DRAW, TURN) for p in plans)
    True
    """
    t = state.t
    out: list[tuple[int, int, list[EngineMove]]] = []
    for score, m in scored:
        if m[0] >= 0:
            out.append((score, len(out), [m]))
    draw_score = next((sc for sc, m in scored if m[0] < 0), 50)
    sim = state.copy()
    path: list[EngineMove] = []
    passed = set(line.keys)
    while True:
        step = DRAW if sim.piles[t.stock] else TURN
        if step not in sim.moves():
            break
        sim.push(step)
        path.append(step)
        key = position_key(sim)
        if key in passed:
            break
        passed.add(key)
        for m in sim.moves():
            if m[0] == t.waste:
                sim.push(m)
                new = position_key(sim) not in line.keys
                sim.pop()
                if new:
                    out.append((draw_score, len(out), [*path, m]))
    out.sort()
    return [plan for _, _, plan in out]


@dataclass(frozen=True)
class Allocation:
    """How :func:`_by_samples` gives the searches to the candidates: by upper confidence
    bounds, ``mean + c * sqrt(ln(searches made) / searches of the candidate)``."""

    #: the exploration constant
    c: float
    #: samples a candidate meets in a row each time it is chosen
    batch: int
    #: samples every candidate meets first (fewer when the searches cannot give every
    #: candidate as many; one at least)
    first: int
    #: the first candidate to meet every sample is the hint (lonelybot's player); else
    #: the searches go on to ``evaluations`` or until every candidate met every sample
    until_one_full: bool
    #: when no candidate has won a sample after this many each, the samples cannot tell
    #: them apart and the rule of thumb chooses (0: never)
    hopeless: int


#: the other games: UCB1, one search at a time, to the end of the searches
UCB1 = Allocation(c=math.sqrt(2), batch=1, first=FIRST_ROUND, until_one_full=False, hopeless=0)
#: Klondike, after lonelybot's player (``pick_moves``: UCB with c = 0.5, batches of 10
#: samples, the first candidate to meet them all is the move), with many samples of small
#: searches; and the rule of thumb when no candidate wins any of its first 20 samples
LEADER = Allocation(c=0.5, batch=10, first=10, until_one_full=True, hopeless=20)


def _by_samples(
    state: State,
    order: list[list[EngineMove]],
    samples: Sequence[State],
    line: PlayerLine,
    positions: int,
    evaluations: int,
    klondike_search: Any | None,
    deadline: float | None,
    how: Allocation = UCB1,
) -> list[EngineMove]:
    """Score the candidates ``order`` (the rule of thumb's order) in the samples: a
    candidate is played in a sample and the sample searched from there, never entering
    the positions of the line (nor the present one); a win within ``positions`` counts.
    Every candidate meets the samples in the same order, so two candidates are judged
    on the same deals. Each candidate gets ``how.first`` samples, then the next
    ``how.batch`` searches go to the candidate with the best upper confidence bound, and
    so on until ``evaluations`` searches are made, or every candidate has met every
    sample, or (``how.until_one_full``) one has: that one is the hint then, the one the
    bounds kept coming back to. A candidate is a list of moves (a plan,
    :func:`talon_plans`) played in a row. Otherwise the hint is the candidate with the
    best share of won samples (with one win and one loss added to each, so that a
    candidate searched little does not win on luck); equal shares go to the rule of
    thumb, as does a position where no candidate wins any of its first ``how.hopeless``
    samples.

    >>> import patiencekit
    >>> from patiencekit.solver import _KLONDIKE, _sampled_states
    >>> g = patiencekit.new_game("klondike", 3)
    >>> for m in ["s"] * 8 + ["t"]:
    ...     _ = g.play(m)
    >>> state = g.state
    >>> line = line_of(state)
    >>> cands = [[m] for m in ordered(state, state.moves())]
    >>> plan = _by_samples(state, cands, _sampled_states(g, 8, line.stock), line, 300,
    ...                    24, _KLONDIKE.KlondikeSearch, None)
    >>> plan in cands
    True
    """
    klondike = klondike_search is not None
    dead: dict[int, list[State]] = {}

    def forbidden(j: int) -> list[State]:
        got = dead.get(j)
        if got is None:
            got = dead[j] = _forbidden(state, samples[j], line, klondike)
        return got

    n = len(order)
    wins = [0] * n
    plays = [0] * n
    full = len(samples)
    total = 0

    def evaluate(k: int) -> None:
        nonlocal total
        j = plays[k]
        ok = _won_after(samples[j], order[k], forbidden(j), positions, klondike_search)
        plays[k] += 1
        total += 1
        if ok:
            wins[k] += 1

    def late() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    # every candidate meets as many samples first (one at least) as the searches allow
    for _ in range(max(1, min(how.first, evaluations // n))):
        for k in range(n):
            if plays[k] < full and not (total and late()):
                evaluate(k)
    while total < evaluations and not late():
        if how.until_one_full and full in plays:
            break  # (the hint, below)
        if how.hopeless and not any(wins) and min(plays) >= how.hopeless:
            return order[0]
        best_k = -1
        best_u = -1.0
        log_total = math.log(total)
        for k in range(n):
            if plays[k] >= full:
                continue
            u = wins[k] / plays[k] + how.c * math.sqrt(log_total / plays[k])
            if u > best_u:
                best_k, best_u = k, u
        if best_k < 0:
            break
        for _ in range(how.batch):
            if plays[best_k] >= full or total >= evaluations or late():
                break
            evaluate(best_k)
    if how.until_one_full and full in plays:
        return order[plays.index(full)]
    # (a candidate the safety net left unsearched is not chosen over a searched one)
    means = [(wins[k] + 1) / (plays[k] + 2) if plays[k] else -1.0 for k in range(n)]
    return order[means.index(max(means))]


def _won_after(
    sample: State,
    plan: list[EngineMove],
    dead: list[State],
    positions: int,
    klondike_search: Any | None,
) -> bool:
    """``plan`` played in ``sample``, then a win found within ``positions`` positions
    without entering ``dead``."""
    after = sample.copy()
    for m in plan:
        after.push(m)
    return bool(_solve(after, dead, positions, klondike_search)[0])


def _forbidden(state: State, sample: State, line: PlayerLine, klondike: bool) -> list[State]:
    """What a search of ``sample`` must not enter: the positions of ``line`` that could
    come again and the present one, as they are in the sample's world (:func:`_twin`)."""
    got = _near_twins(line, sample, klondike)
    here = _twin(state, sample, klondike)
    if here is not None:
        got.append(here)
    return got


#: racing (:func:`_race`): samples between two looks at the candidates
RACE_STEP = 4
#: racing: a candidate is dropped when the leader's lead over it, counted on the samples
#: where exactly one of the two wins, is more than this many times its standard deviation
#: (the square root of the count of those samples: a paired sign test)
RACE_Z = 2.0
#: racing: after this many looks in which every candidate left won and lost the very same
#: samples, the samples cannot tell them apart: the rule of thumb chooses
RACE_QUIET = 4


def _race(
    state: State,
    order: list[list[EngineMove]],
    samples: Sequence[State],
    line: PlayerLine,
    positions: int,
    evaluations: int,
    klondike_search: Any | None,
    deadline: float | None,
) -> list[EngineMove]:
    """Klondike's judge of the candidates ``order`` (the rule of thumb's order): a race
    over the samples. Every candidate still in the race is played in the next sample and
    the sample searched from there within ``positions`` positions, never entering the
    positions of the line nor the present one (as :func:`_by_samples`); so all of them
    meet the same samples, and two candidates differ only on the samples one wins and
    the other loses. Every :data:`RACE_STEP` samples, a candidate whose lead by the
    leader on those samples is past :data:`RACE_Z` standard deviations leaves the race.
    It ends with one candidate left, when the samples or the ``evaluations`` searches run
    out, or when the samples cannot tell the candidates left apart
    (:data:`RACE_QUIET`); the hint is the candidate left with the most won samples,
    equal ones going to the rule of thumb.

    A race keeps close candidates on the same samples for as long as they stay close,
    so they are compared where they differ, and lets the others go early: with 64
    samples and 256 searches it won 25 of 60 draw-3 deals where 16 samples and 48
    searches by upper confidence bounds won 21 (docs/benchmarks.md).

    >>> import patiencekit
    >>> from patiencekit.solver import _KLONDIKE, _sampled_states
    >>> g = patiencekit.new_game("klondike", 3)
    >>> for m in ["s"] * 8 + ["t"]:
    ...     _ = g.play(m)
    >>> state = g.state
    >>> line = line_of(state)
    >>> cands = [[m] for m in ordered(state, state.moves())]
    >>> plan = _race(state, cands, _sampled_states(g, 8, line.stock), line, 300, 24,
    ...              _KLONDIKE.KlondikeSearch, None)
    >>> plan in cands
    True
    """
    klondike = klondike_search is not None
    results: list[list[bool]] = [[] for _ in order]
    alive = list(range(len(order)))
    total = 0
    j = 0
    while j < len(samples) and len(alive) > 1 and total + len(alive) <= evaluations:
        sample = samples[j]
        dead = _forbidden(state, sample, line, klondike)
        for k in alive:
            results[k].append(_won_after(sample, order[k], dead, positions, klondike_search))
            total += 1
        j += 1
        if deadline is not None and time.perf_counter() > deadline:
            break
        if j % RACE_STEP:
            continue
        lead = max(alive, key=lambda k: (sum(results[k]), -k))
        ahead = results[lead]
        if j >= RACE_QUIET * RACE_STEP and all(results[k] == ahead for k in alive):
            break
        keep = []
        for k in alive:
            mine = results[k]
            a = sum(1 for x, y in zip(ahead, mine, strict=True) if x and not y)
            b = sum(1 for x, y in zip(ahead, mine, strict=True) if y and not x)
            if k == lead or a - b <= RACE_Z * math.sqrt(a + b):
                keep.append(k)
        alive = keep
    best = max(alive, key=lambda k: (sum(results[k]), -k))
    return order[best]
