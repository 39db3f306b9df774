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
   there without a search.
3. **Determinizations.** The unseen cards are dealt at random into the unseen places,
   ``samples`` times, seeded by the view (the same view gives the same samples, and two
   deals that differ only in what is hidden give the same hint). Each sample is solved
   by the thoughtful solver within ``positions`` positions, forbidden to enter the
   positions of the game's line that could come again (so a "win" that only goes back
   round the stock counts for nothing). The first move of each sample's line gets a vote.
4. **Scores.** Each candidate move is then played in every sample the solver won, and
   scored by the samples still won after it (those it started a line of are won
   already); the best score wins, then the rule of thumb's order (below).
   A candidate is dropped as soon as it cannot beat the best one.
5. **Fallback.** When no sample is won, the rule of thumb (:func:`ordered`) picks
   among the moves to new positions.

Everything is bounded by positions (deterministic on any machine); ``seconds`` is only a
safety net that stops scoring early.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

from patiencekit.rules import PileKind, Turn
from patiencekit.solver.generic import GenericSearch, prefers_best_first
from patiencekit.state import EngineMove, State

__all__ = ["PlayerLine", "choose", "line_of", "ordered", "position_key"]


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
    current one included), and copies of the earlier positions that could come again."""

    __slots__ = ("keys", "near", "stock")

    def __init__(
        self, keys: set[Hashable], near: list[State], stock: list[int] | None = None
    ) -> None:
        self.keys = keys
        #: earlier positions with the current face-down counts, stock and waste size
        #: and redeals: the only ones the game can come back to
        self.near = near
        #: the stock as the player has seen it (bottom to top), when every card in it was
        #: on the waste, in sight, since the stock was last empty; else None
        self.stock = stock


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
    keys: set[Hashable] = {position_key(state)}
    near: list[State] = []
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
    try:
        while state.history_length:
            undone.append(state.pop())
            keys.add(position_key(state))
            if remember and seq is None and not state.piles[t.stock] and state.piles[t.waste]:
                seq = state.piles[t.waste][:]
            if (
                state.down == down
                and (unlimited or state.redeals == redeals)
                and _talon_size(state) == talon
            ):
                near.append(state.copy())
    finally:
        for m in reversed(undone):
            state.push(m)
    return PlayerLine(keys, near, _seen_stock(state, seq) if seq is not None else None)


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
        ks.forbid(dead)
        won, _ = ks.run()
        first = ks.first_move(sample) if won else None
        return (bool(won) if won is not None else None), first
    won = None
    width = 2
    best_first = prefers_best_first(sample)
    for greedy in ([False] if best_first else [True, False]):
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


#: :func:`ordered`'s scores up to this one are progress (a card home, one turned up, a
#: king brought out), tried before the stock whether or not a sample's line starts with it
_PROGRESS = 10


def _by_votes(
    scored: list[tuple[int, EngineMove]], votes: Counter[EngineMove]
) -> list[EngineMove]:
    """The order candidates are scored in, which breaks ties between equal scores: first
    progress and the moves that start a sample's line (most lines first), then the stock,
    then the rest by the rule of thumb. The stock is not ranked by its lines: with
    unlimited redeals a draw starts a line in nearly every sample, since the sample knows
    where each card lies, which the player does not."""
    order = [m for _, m in scored]
    progress = {m for score, m in scored if score <= _PROGRESS}
    stock = [m for m in order if m[0] < 0]
    first = [m for m in order if m[0] >= 0 and (m in progress or votes[m])]
    first.sort(key=lambda m: -votes[m])  # (stable: the rule of thumb among equals)
    rest = [m for m in order if m[0] >= 0 and m not in first]
    return first + stock + rest


def _klondike_safe(state: State, m: EngineMove) -> bool:
    """A card to its foundation that no card in play can need (Klondike's rule)."""
    t = state.t
    if m[0] < 0 or t.kinds[m[1]] is not PileKind.FOUNDATION:
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
    klondike_search: Any | None = None,
    seconds: float | None = None,
) -> EngineMove | None:
    """The hint's move from ``state`` (see the module's docstring), or None when no move
    leads to a position not already on ``line``.

    ``samples`` are the determinizations (positions that look like ``state`` to the
    player); ``klondike_search`` is the Klondike search class for Klondike games (None:
    the generic search); ``positions`` bounds each sample's search.
    """
    legal = state.moves()
    cands: list[EngineMove] = []
    for m in legal:
        state.push(m)
        try:
            if position_key(state) not in line.keys:
                cands.append(m)
        finally:
            state.pop()
    if not cands:
        return None
    scored = _scored(state, cands)
    order = [m for _, m in scored]
    if klondike_search is not None:
        for m in order:
            if _klondike_safe(state, m):
                return m
    else:
        safe = GenericSearch(state)._safe(cands)
        if safe is not None:
            return safe
    if len(order) == 1:
        return order[0]
    deadline = None if seconds is None else time.perf_counter() + seconds
    klondike = klondike_search is not None
    won: list[int] = []
    votes: Counter[EngineMove] = Counter()
    firsts: list[EngineMove | None] = []
    twins: list[list[State]] = []
    for i, sample in enumerate(samples):
        if deadline is not None and time.perf_counter() > deadline and won:
            break
        near = [tw for p in line.near if (tw := _twin(p, sample, klondike)) is not None]
        ok, first = _solve(sample, near, positions, klondike_search)
        # after a candidate move, the position now is one of the line's too
        here = _twin(state, sample, klondike)
        twins.append(near + ([here] if here is not None else []))
        firsts.append(first)
        if ok:
            won.append(i)
            if first is not None:
                votes[first] += 1
    if not won:
        return order[0]
    best: EngineMove | None = None
    best_score = -1
    for m in _by_votes(scored, votes):
        wins = 0
        left = len(won)
        for i in won:
            if wins + left <= best_score:
                break
            left -= 1
            if firsts[i] == m:
                wins += 1
                continue
            if deadline is not None and time.perf_counter() > deadline:
                break
            after = samples[i].copy()
            after.push(m)
            ok, _ = _solve(after, twins[i], positions, klondike_search)
            if ok:
                wins += 1
        if wins > best_score:
            best, best_score = m, wins
        if best_score == len(won) or (deadline is not None and time.perf_counter() > deadline):
            break
    return best if best is not None else order[0]
