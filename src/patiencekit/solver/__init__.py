"""Solvers for every game: ``solve``, ``hint``, ``autocomplete``, winnable deals.

>>> from patiencekit.solver import solve
>>> result = solve("klondike-draw1", 1, max_seconds=10)
>>> result.outcome, len(result.moves) > 50
('solved', True)
>>> import patiencekit
>>> g = patiencekit.new_game("klondike-draw1", 1)
>>> for m in result.moves:
...     _ = g.play(m)
>>> g.is_won()
True

A result is a record, never a bare bool: ``solved`` (with the moves, in the
notation, which the engine replays to a win), ``unsolvable`` (the whole
space was searched) or ``limit`` (``result.limit`` says which budget ran out:
``time``, ``states`` or ``memory``), with search statistics.

Klondike has its own fast solver (:mod:`patiencekit.solver.klondike`); every
other game uses the generic search (:mod:`patiencekit.solver.generic`). Both
are *thoughtful*: they know the face-down cards and the stock order. For hints,
:func:`hint` uses only what the player sees: it deals the unseen cards at
random into the unseen places a few times, solves each such deal and plays
the move that wins most often.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, overload

from patiencekit.compiled import compiled_or_pure
from patiencekit.game import Game, View, new_game
from patiencekit.games import FACTS, get_rules
from patiencekit.games.facts import Solver
from patiencekit.rules import PileKind
from patiencekit.solver import klondike as _pure_klondike
from patiencekit.solver import patiencemax as _pure_patiencemax
from patiencekit.solver import player as _player
from patiencekit.solver import reserve as _pure_reserve
from patiencekit.solver import waste_only as _pure_waste_only
from patiencekit.solver.generic import GenericSearch, prefers_best_first
from patiencekit.state import State

__all__ = [
    "HINT_SETTINGS",
    "Budget",
    "HintSettings",
    "Samples",
    "SolveResult",
    "autocomplete",
    "autocomplete_line",
    "autocomplete_possible",
    "find_winnable_number",
    "hint",
    "hint_settings",
    "solve",
    "solve_state",
    "winnable_number",
]

Outcome = Literal["solved", "unsolvable", "limit"]

#: the games the fast Klondike search solves, as the registry says (their facts' ``solver``);
#: every other game uses the generic search
KLONDIKE_IDS = tuple(g for g, facts in FACTS.items() if facts.solver is Solver.KLONDIKE)

#: where only the waste's top card plays: the compact exact search's share of a time budget
#: (the generic greedy pass looks for a win with the rest if it is undecided)
WASTE_ONLY_SHARE = 0.7
#: the generic greedy pass's share of a time budget (the exact search has the rest)
GREEDY_SHARE = 0.3
#: the same in the games with a reserve (Patriarchs, Picture Patience, Odd and Even, Royal
#: Cotillion): which waste card a reserve space takes depends on when its card is played,
#: so the exact search's space is far too large to be searched whole at these budgets (at
#: 10 s it proved no deal of 1,000 lost in Patriarchs or Odd and Even, 2 in Royal
#: Cotillion), while the greedy pass's beams find wins with more time (of the 91 Odd and
#: Even deals left undecided at 10 s, 17 of the first 62 are won by its widening beams
#: within 300,000 positions): most of the time goes to them
GREEDY_SHARE_RESERVE = 0.9
#: in the reserve games without reversal: the compact beam's share of a time budget
#: (:class:`~patiencekit.solver.reserve.ReserveBeam`, several times the generic search's
#: positions a second); the generic passes share the rest as above
RESERVE_BEAM_SHARE = 0.5
#: in the reserve games without a redeal (Picture Patience, Royal Cotillion): the pruned
#: exact search's share of a time budget
#: (:class:`~patiencekit.solver.reserve.ReserveExact`), per game, and whether it
#: runs before the compact beam. Picture Patience: first, nearly all of it (2026-12-06,
#: the same search in C, docs/experiments: it decided 933 of deals 1-1,000 in 100,000
#: positions each, 932 of them lost; the beam and the generic passes decide almost
#: none). Royal Cotillion: after the beam (which wins most of its deals, while the exact
#: search finds few wins), a tenth of what is left: in C that is some 100,000 positions,
#: far more than the losses it proves need (#761: 683), and 2 million decide none of the
#: deals left undecided (stop 43), while the generic passes after it still win some near
#: the end of the budget (0.3 before: 8 of 27 such deals won at 10 s, 0.1: 11)
RESERVE_EXACT: dict[str, tuple[bool, float]] = {
    "picture-patience": (True, 0.9),
    "royal-cotillion": (False, 0.1),
}
#: in Royal Cotillion, after the exact search: the restarts' share of what is left of a
#: time budget (:class:`~patiencekit.solver.reserve.ReserveRestarts`, a finder of wins;
#: the generic passes have the rest). 2026-12-07: on deals 1-1,000 left undecided by every
#: earlier run, 20 restarts of 20,000 positions won 3 of the first 30 (#110, 178, 190),
#: the 10 s exact search none
RESERVE_RESTARTS: dict[str, float] = {"royal-cotillion": 0.5}
#: in Royal Cotillion, first: the share of a time budget of the beam scored by greedy
#: rollouts (:class:`~patiencekit.solver.reserve.ReserveRollout`, a finder of wins; the
#: searches above share what is left as they did). 2026-12-07: on the 107 deals of 1-1,000
#: no earlier run had won, its passes of 1,000 positions a level won 45 at 0.4 s a deal
#: (docs/experiments/royal_cotillion_bounds.c, "beam"); half of 10 s reaches passes of 4,096
RESERVE_ROLLOUT: dict[str, float] = {"royal-cotillion": 0.5}
#: in PatienceMax: the compact search's share of a time budget
#: (:class:`~patiencekit.solver.patiencemax.PatienceMaxSearch`, rounds of best-first runs);
#: the generic search has the rest (its own best-first search wins a few other deals).
#: 0.85 since its runs are in C (2026-12-06): with them, three more seconds of runs won 15
#: of 97 undecided deals, the generic search's three seconds 1; 0.95 since its runs go on
#: where they stopped (2026-12-06, later): on 99 hard deals 10 s of them decided 43, 8.5 s 39
#: (with the long run at 16 rounds' room then)
PATIENCEMAX_SHARE = 0.95


def greedy_share(state: State) -> float:
    """The generic greedy pass's share of a time budget from ``state``
    (:data:`GREEDY_SHARE`, or :data:`GREEDY_SHARE_RESERVE` in a game with a reserve).

    >>> from patiencekit import new_game
    >>> [greedy_share(new_game(g, 1).state) for g in ("odd-and-even", "patiencemax")]
    [0.9, 0.3]
    """
    return GREEDY_SHARE_RESERVE if state.t.reserve else GREEDY_SHARE


def _klondike_module(name: str = "patiencekit.solver.klondike_fast") -> Any:
    """The mypyc-compiled Klondike search if it was built (``tools/build_fast.py``) from
    ``klondike.py`` as it is now and ``PATIENCEKIT_PURE_PYTHON`` is not set; else the
    pure-Python one. The build names the source's sha256 in the module
    (``SOURCE_SHA256``): a module built from another source (``klondike.py`` edited
    since) would run the old search, so it is refused, with a warning
    (:func:`patiencekit.compiled.compiled_or_pure`)."""
    return compiled_or_pure(name, _pure_klondike, "Klondike search", stacklevel=2)


_KLONDIKE = _klondike_module()
#: True when the compiled Klondike search is in use
COMPILED = _KLONDIKE is not _pure_klondike
#: which Klondike search runs: the sha256 of the source the compiled module was built
#: from (that of ``klondike.py``), or ``"pure"``
KLONDIKE_BUILD: str = str(_KLONDIKE.SOURCE_SHA256) if COMPILED else "pure"
#: the exact search of the waste-only games (Contradance, Captured Queens), compiled when
#: it was built from ``waste_only.py`` as it is now (``tools/build_fast.py waste_only``)
_WASTE_ONLY = compiled_or_pure(
    "patiencekit.solver.waste_only_fast", _pure_waste_only, "waste-only search"
)
WasteOnlySearch: type[_pure_waste_only.WasteOnlySearch] = _WASTE_ONLY.WasteOnlySearch
#: the sha256 of the source the waste-only search in use was compiled from, or ``pure``
WASTE_ONLY_BUILD: str = str(getattr(_WASTE_ONLY, "SOURCE_SHA256", "pure"))
#: the compact beam of the reserve games (Odd and Even, Royal Cotillion, Picture Patience),
#: compiled when it was built from ``reserve.py`` as it is now (``tools/build_fast.py
#: reserve``)
_RESERVE = compiled_or_pure("patiencekit.solver.reserve_fast", _pure_reserve, "reserve beam")
ReserveBeam: type[_pure_reserve.ReserveBeam] = _RESERVE.ReserveBeam
ReserveExact: type[_pure_reserve.ReserveExact] = _RESERVE.ReserveExact
ReserveRestarts: type[_pure_reserve.ReserveRestarts] = _RESERVE.ReserveRestarts
ReserveRollout: type[_pure_reserve.ReserveRollout] = _RESERVE.ReserveRollout
#: the sha256 of the source the reserve beam in use was compiled from, or ``pure``
RESERVE_BUILD: str = str(getattr(_RESERVE, "SOURCE_SHA256", "pure"))
#: the compact search of PatienceMax, compiled when it was built from ``patiencemax.py``
#: as it is now (``tools/build_fast.py patiencemax``)
_PATIENCEMAX = compiled_or_pure(
    "patiencekit.solver.patiencemax_fast", _pure_patiencemax, "PatienceMax search"
)
PatienceMaxSearch: type[_pure_patiencemax.PatienceMaxSearch] = _PATIENCEMAX.PatienceMaxSearch
#: the sha256 of the source the PatienceMax search in use was compiled from, or ``pure``
PATIENCEMAX_BUILD: str = str(getattr(_PATIENCEMAX, "SOURCE_SHA256", "pure"))


@dataclass(frozen=True, slots=True)
class Budget:
    """What a search may spend: wall seconds, positions kept, memory (MiB: the process's
    resident memory while it searches, :func:`~patiencekit.solver.limits.resident_kb`)."""

    seconds: float | None = 30.0
    states: int | None = None
    memory_mb: int | None = 1024


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of a search, with its statistics."""

    outcome: Outcome
    moves: tuple[str, ...] = ()
    #: which budget ran out, for ``limit``
    limit: str | None = None
    #: positions expanded (searched), counting repeats
    states: int = 0
    #: distinct positions kept in the transposition table
    unique_states: int = 0
    #: deepest line searched (moves)
    depth: int = 0
    seconds: float = 0.0
    game: str = ""
    number: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def decided(self) -> bool:
        """True for ``solved`` and ``unsolvable``."""
        return self.outcome != "limit"

    def to_json(self) -> dict[str, Any]:
        """The ``solve --json`` shape: outcome, moves, states, seconds (plus added keys)."""
        return {
            "outcome": self.outcome,
            "moves": list(self.moves),
            "states": self.states,
            "seconds": round(self.seconds, 6),
            "limit": self.limit,
            "unique_states": self.unique_states,
            "depth": self.depth,
            "game": self.game,
            "number": self.number,
        }


class _CompactSearch(Protocol):
    """What ``solve_state`` reads of a compact search that runs before the generic one
    (:class:`~patiencekit.solver.reserve.ReserveBeam`,
    :class:`~patiencekit.solver.reserve.ReserveExact`,
    :class:`~patiencekit.solver.reserve.ReserveRestarts`,
    :class:`~patiencekit.solver.reserve.ReserveRollout`,
    :class:`~patiencekit.solver.patiencemax.PatienceMaxSearch`)."""

    nodes: int
    kept: int
    max_depth: int

    def run(self) -> tuple[bool | None, str | None]: ...

    def move_texts(self) -> list[str]: ...


def _first_limits(budget: Budget, share: float) -> dict[str, Any]:
    """The limits of a search that runs first: ``share`` of the budget's time, all of its
    positions and memory."""
    seconds = None if budget.seconds is None else budget.seconds * share
    return {"max_seconds": seconds, "max_states": budget.states, "max_memory_mb": budget.memory_mb}


def solve_state(state: State, budget: Budget | None = None) -> SolveResult:
    """Search from an engine position (thoughtful)."""
    budget = budget or Budget()
    start = time.perf_counter()
    rules = state.t.rules
    if rules.id in KLONDIKE_IDS:
        ks = _KLONDIKE.KlondikeSearch(
            state,
            max_seconds=budget.seconds,
            max_states=budget.states,
            max_memory_mb=budget.memory_mb,
        )
        won, limit = ks.run()
        moves = tuple(ks.move_texts(state)) if won else ()
        won = bool(won) if won is not None else None
        nodes, unique, depth = ks.nodes, len(ks.seen), ks.max_depth
    else:
        # a greedy pass first (greedy_share of the time; it may miss wins, never invents
        # one), then the exact search with what is left of the budget; where the exact search looks
        # for a win best first (PatienceMax) it has the whole budget. Where only the
        # waste's top card plays (Contradance, Captured Queens), the compact exact
        # search comes first (WASTE_ONLY_SHARE of the time), then, if it is undecided,
        # the generic greedy pass looks for a win with the rest. In the reserve games
        # without reversal (Odd and Even, Royal Cotillion, Picture Patience) the compact
        # beam (ReserveBeam) looks for a win first (RESERVE_BEAM_SHARE of the time), with
        # the pruned exact search (ReserveExact) before or after it where the game has no
        # redeal (RESERVE_EXACT) and then, in Royal Cotillion, restarts of it that only
        # look for a win (ReserveRestarts, RESERVE_RESTARTS), all of them there after the
        # beam scored by rollouts (ReserveRollout, RESERVE_ROLLOUT), then the generic passes
        # share the rest as above (their dead-end analysis lets their
        # beams run out of positions: that proves a deal lost). In PatienceMax the compact
        # search's best-first runs come first (PATIENCEMAX_SHARE of the time), then the
        # generic exact search with the rest
        won, limit = None, None
        nodes = unique = depth = 0
        moves = ()
        width = 2  # the exact search's first beam width
        passes = [True, False] if not prefers_best_first(state) else [False]
        after_waste_only = WasteOnlySearch.applies(state)
        if after_waste_only:
            ws = WasteOnlySearch(state, **_first_limits(budget, WASTE_ONLY_SHARE))
            won, limit = ws.run()
            nodes, unique, depth = ws.nodes, len(ws.seen), ws.max_depth
            if won:
                moves = tuple(ws.move_texts())
            passes = [] if won is not None else [True]
        else:
            # the compact searches of the game, if it has them (ReserveBeam: never a
            # best-first game, those have no stock), in turn, each with its share of what
            # is left of the time
            compact: list[tuple[Callable[..., _CompactSearch], float]] = []
            if ReserveBeam.applies(state):
                compact.append((ReserveBeam, RESERVE_BEAM_SHARE))
                exact = RESERVE_EXACT.get(rules.id)
                if exact is not None and ReserveExact.applies(state):
                    before, share = exact
                    compact.insert(0 if before else 1, (ReserveExact, share))
                    restarts = RESERVE_RESTARTS.get(rules.id)
                    if restarts is not None:
                        compact.append((ReserveRestarts, restarts))
                    rollout = RESERVE_ROLLOUT.get(rules.id)
                    if rollout is not None:
                        compact.insert(0, (ReserveRollout, rollout))
            elif PatienceMaxSearch.applies(state):
                compact.append((PatienceMaxSearch, PATIENCEMAX_SHARE))
            for search_class, share in compact:
                spent = time.perf_counter() - start
                left = None if budget.seconds is None else max(budget.seconds - spent, 0.0)
                first = search_class(
                    state,
                    max_seconds=None if left is None else left * share,
                    max_states=budget.states,
                    max_memory_mb=budget.memory_mb,
                )
                won, limit = first.run()
                nodes, unique = nodes + first.nodes, max(unique, first.kept)
                depth = max(depth, first.max_depth)
                if won:
                    moves = tuple(first.move_texts())
                if won is not None:
                    passes = []
                    break
        for greedy in passes:
            # what is left of the budget; the greedy pass takes its share of it
            spent = time.perf_counter() - start
            left = None if budget.seconds is None else budget.seconds - spent
            seconds = left
            if left is not None and greedy and not after_waste_only:
                seconds = left * greedy_share(state)
            gs = GenericSearch(
                state,
                max_seconds=seconds,
                max_states=budget.states,
                max_memory_mb=budget.memory_mb,
                greedy=greedy,
                beam_width=width,
            )
            won, limit = gs.run()
            nodes, unique, depth = nodes + gs.nodes, len(gs.seen), max(depth, gs.max_depth)
            width = gs.beam_width
            if won:
                moves = tuple(gs.move_texts())
                break
    outcome: Outcome = "solved" if won else "unsolvable" if won is False else "limit"
    return SolveResult(
        outcome=outcome,
        moves=moves,
        limit=limit,
        states=nodes,
        unique_states=unique,
        depth=depth,
        seconds=time.perf_counter() - start,
        game=rules.id,
    )


def solve(
    game: Game | str,
    number: int | None = None,
    *,
    budget: Budget | None = None,
    max_seconds: float | None = None,
) -> SolveResult:
    """Solve a game from its current position, or game ``number`` of a game id.

    ``max_seconds`` is a shortcut for ``Budget(seconds=...)``. A budget goes by name:

    >>> solve("captured-queens", 1, Budget(states=10))
    Traceback (most recent call last):
    ...
    TypeError: solve() takes from 1 to 2 positional arguments but 3 were given
    >>> solve(new_game("captured-queens", 1), Budget(states=10))
    Traceback (most recent call last):
    ...
    TypeError: solve(game, number): a Game is solved from its position, so no number ...
    """
    if budget is None:
        budget = Budget(seconds=max_seconds if max_seconds is not None else 30.0)
    if not isinstance(game, str):
        if number is not None:
            raise TypeError(
                "solve(game, number): a Game is solved from its position, so no number "
                f"(got a {type(number).__name__}); pass the budget as budget="
            )
    else:
        if number is None:
            raise ValueError("solve(game_id, number): give the game number to solve")
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(
                f"solve({game!r}, number): the number is an int, not {type(number).__name__}"
            )
        game = new_game(game, number)
    return replace(solve_state(game.state, budget), number=game.number)


# -- the player's view ---------------------------------------------------------------


def _unseen_cards(view: View) -> list[int]:
    """The cards the view hides (face down or in the stock), sorted, with repeats for
    two decks: every card of the game less those in sight."""
    decks = get_rules(view.game).decks
    counts = Counter({c: decks for c in range(52)})
    for pile in view.piles:
        for card in pile.cards:
            if card is not None:
                counts[card.index] -= 1
    return sorted(counts.elements())


def _sampled_states(game: Game, samples: int, stock: list[int] | None = None) -> list[State]:
    """Positions that look the same to the player: the unseen cards dealt at random into
    the unseen places, seeded by the view itself (so the same view gives the same samples).
    ``stock``: the stock as the player has seen it go by (:class:`player.PlayerLine`),
    which then stays as it is. (All of :class:`Samples` at once.)"""
    return list(Samples(game, samples, stock))


class Samples(Sequence[State]):
    """The ``count`` samples of :func:`_sampled_states`, the same ones in the same order,
    each dealt when it is first asked for: a hint that needs none (a safe move, the first
    pass through the stock) or only some (a race decided early) deals no more. The view
    is read when the sequence is made, so the game may move on meanwhile.

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 4)
    >>> lazy = Samples(g, 3)
    >>> len(lazy), lazy.dealt
    (3, 0)
    >>> lazy[1].piles == _sampled_states(g, 3)[1].piles and lazy.dealt
    2
    """

    def __init__(self, game: Game, count: int, stock: list[int] | None = None) -> None:
        view = game.view()
        t = game.tables
        seen = view.to_json()
        if _player.talon_known(game.state, stock):
            # the talon is known: the seed leaves out where the draws stand in it (and
            # what only counts moves), so the draws a plan makes (player.talon_plans) keep
            # the samples, and the plan's judgement, as they were
            waste = [c.index for c in view.piles[t.waste].cards if c is not None]
            rest = [p for i, p in enumerate(seen["piles"]) if i not in (t.stock, t.waste)]
            talon = sorted(waste + (stock or []))
            seen = {"game": seen["game"], "number": seen["number"], "piles": rest, "talon": talon}
        elif stock is not None:
            seen["stock"] = stock
        seed = hashlib.sha256(json.dumps(seen, sort_keys=True).encode())
        self._rng = random.Random(seed.digest())
        unseen = _unseen_cards(view)
        if stock is not None:
            unseen = sorted((Counter(unseen) - Counter(stock)).elements())
        self._unseen = unseen
        self._t = t
        #: each pile's cards, None where one is unseen (the stock as seen, when it is known)
        self._layout: list[list[int | None]] = [
            list(stock)
            if stock is not None and i == t.stock
            else [c.index if c is not None else None for c in pile.cards]
            for i, pile in enumerate(view.piles)
        ]
        state = game.state
        self._down = [
            0 if pile.kind is PileKind.STOCK else state.down[i]
            for i, pile in enumerate(view.piles)
        ]
        self._redeals = state.redeals
        self._score = state.score
        self._count = count
        self._made: list[State] = []

    @property
    def dealt(self) -> int:
        """How many samples have been dealt so far."""
        return len(self._made)

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, j: int) -> State: ...

    @overload
    def __getitem__(self, j: slice) -> list[State]: ...

    def __getitem__(self, j: int | slice) -> State | list[State]:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(self._count))]
        if j < 0:
            j += self._count
        if not 0 <= j < self._count:
            raise IndexError(f"sample {j} of {self._count}")
        while len(self._made) <= j:
            self._made.append(self._deal())
        return self._made[j]

    def _deal(self) -> State:
        unseen = self._unseen
        self._rng.shuffle(unseen)
        it = iter(unseen)
        piles = [[next(it) if c is None else c for c in pile] for pile in self._layout]
        return State(self._t, piles, self._down[:], self._redeals, self._score)


@dataclass(frozen=True)
class HintSettings:
    """How a player-mode hint judges its candidates in one game (see
    :mod:`patiencekit.solver.player`): a budget of positions, so that the same game gets
    the same hint on any machine.

    >>> HINT_SETTINGS["klondike"].samples, HINT_SETTINGS["klondike-draw1"].samples
    (1000, 64)
    """

    #: determinizations the candidates are played in
    samples: int
    #: positions each of their searches may keep
    positions: int
    #: searches one hint may make
    evaluations: int
    #: how the searches go to the candidates (``player.LEADER``, ``player.UCB1``); None
    #: is the race in Klondike (``player._race``) and UCB1 in the other games
    allocation: _player.Allocation | None = None
    #: Klondike: reversible moves a candidate may make before it commits
    #: (``player.arranged_plans``; 0: every move is a candidate by itself)
    arrange_depth: int = 0


#: the other games' hint: a few samples of larger searches, by UCB1
HINT_GENERIC = HintSettings(samples=8, positions=300, evaluations=24)
#: each game's own hint where it is not :data:`HINT_GENERIC`:
#:
#: - Klondike draw 3: lonelybot's player's allocation (``player.LEADER``) and candidates
#:   (arrangements of at most two reversible moves), with many small searches: 1,000
#:   samples of 1,000 positions, 6,000 searches (docs/benchmarks.md, "Hints");
#: - Klondike draw 1: the race over 64 samples of 3,000 positions, 256 searches;
#: - Senior Wrangler: its positions are dearer (groups of alike foundation heights: in
#:   the hint bench, 300 gave p50 0.66 s and p99 2.2 s, 200 gave 0.54 s and 1.9 s and won
#:   as many deals).
HINT_SETTINGS: dict[str, HintSettings] = {
    "klondike": HintSettings(
        samples=1_000,
        positions=1_000,
        evaluations=6_000,
        allocation=_player.LEADER,
        arrange_depth=_player.ARRANGE_DEPTH,
    ),
    "klondike-draw1": HintSettings(samples=64, positions=3_000, evaluations=256),
    "senior-wrangler": replace(HINT_GENERIC, positions=200),
}


def hint_settings(game_id: str) -> HintSettings:
    """The player-mode hint's settings for ``game_id``.

    >>> hint_settings("patriarchs") == HINT_GENERIC
    True
    """
    return HINT_SETTINGS.get(game_id, HINT_GENERIC)


#: positions the thoughtful hint's one search (the real deal) may keep
THOUGHTFUL_HINT_STATES = 200_000


def hint(
    game: Game,
    *,
    mode: Literal["player", "thoughtful"] = "player",
    samples: int | None = None,
    positions: int | None = None,
    evaluations: int | None = None,
    seconds: float | None = 3.0,
) -> str | None:
    """A good next move, in the notation; None when no move is left, or when every move
    left goes back to a position already on the game's line.

    ``player`` mode (the default) uses only what the player can see: it is the hint
    player of :mod:`patiencekit.solver.player`: hindsight optimisation, each candidate
    move played in ``samples`` deals of the unseen cards, each searched within
    ``positions`` positions, ``evaluations`` searches at most; by default the game's own
    :func:`hint_settings`, which also say how the searches go to the candidates.
    ``thoughtful`` mode searches the real deal (a stronger hint, for analysis; by default
    within :data:`THOUGHTFUL_HINT_STATES` positions). Either way the hint never leads
    back to a position the game has been in. The budgets are positions, so the same game
    gets the same hint on any machine; ``seconds`` (None: none) is only a safety net that
    stops scoring early on a machine far too busy.

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 1)
    >>> move = hint(g, seconds=None)
    >>> g.can_play(move)
    True
    """
    state = game.state
    if not state.moves():
        return None
    klondike = _KLONDIKE.KlondikeSearch if game.id in KLONDIKE_IDS else None
    line = _player.line_of(state)
    settings = hint_settings(game.id)
    if mode == "thoughtful":
        chosen: Sequence[State] = [state.copy()]
        cap = positions or THOUGHTFUL_HINT_STATES
    else:
        chosen = Samples(game, samples or settings.samples, line.stock)
        cap = positions or settings.positions
    evaluations = evaluations or settings.evaluations
    move = _player.choose(
        state,
        chosen,
        line,
        positions=cap,
        evaluations=evaluations,
        klondike_search=klondike,
        seconds=seconds,
        allocation=settings.allocation,
        arrange_depth=settings.arrange_depth,
    )
    return None if move is None else game.tables.label_of(move)


#: Klondike draw 3 with no face-down card: auto-complete tries the simple rule on every
#: order of the stock when it holds at most this many cards (5! = 120 orders)
AUTOCOMPLETE_STOCK_ORDERS = 5


def autocomplete(
    game: Game, *, seconds: float = 5.0, budget: Budget | None = None
) -> list[str] | None:
    """Finish a game whose win follows from what the player sees: plays the line through
    ``game`` and returns its moves (``[]`` when the game is won already); None, with
    nothing played, when the player's view does not prove a win.

    It never wins through cards the player cannot see. It plays when:

    - nothing is hidden (no face-down card, the stock empty): the position is the view,
      and the solver's line is played (searched within ``budget``, by default
      ``Budget(seconds=seconds)``);
    - Klondike with no face-down card and every column going down in rank, as play
      always leaves it: the simple rule "a card to a foundation if one can go, else the
      waste's card to a column, else draw (or turn the waste over)" decides each move
      from the view as the cards come. In draw 1 it wins whatever the stock's order: the
      lowest card still missing from the foundations is at the end of its column (every
      card above it would be lower still, and so missing too) or comes to the top of the
      waste within one pass. In draw 3 that is not so (A, 2, 3 of a suit drawn as one
      turn bury the ace), so the rule is played on every order of the stock's cards when
      there are at most :data:`AUTOCOMPLETE_STOCK_ORDERS` of them, and the game is
      finished only if it wins in all of them.

    Whether it plays is thus a function of the view (and, when nothing is hidden, of the
    solver's budget); the terminal's ``a`` uses it, in ranked play too.

    >>> import patiencekit
    >>> autocomplete(patiencekit.new_game("patriarchs", 3)) is None  # the stock is unseen
    True
    """
    line = autocomplete_line(game, budget=budget or Budget(seconds=seconds))
    if line is None:
        return None
    for m in line:
        game.play(m)
    return line


#: what :func:`autocomplete_line` may search by default when nothing is hidden: positions,
#: not seconds, so that its verdict is the same on any machine (time is a safety net)
AUTOCOMPLETE_BUDGET = Budget(seconds=10.0, states=50_000)


def autocomplete_line(game: Game, *, budget: Budget | None = None) -> list[str] | None:
    """The moves :func:`autocomplete` would play, without playing them: ``[]`` when the
    game is won already, None when the player's view does not prove a win.

    A function of the view only (and, when nothing is hidden, of ``budget``, by default
    :data:`AUTOCOMPLETE_BUDGET`), so that a page may show its button whenever it is not
    None without telling the player anything the view does not.

    >>> import patiencekit
    >>> autocomplete_line(patiencekit.new_game("klondike", 1)) is None
    True
    """
    if game.is_won():
        return []
    line = _klondike_line(game)
    if line is None and not _hides_anything(game):
        result = solve_state(game.state, budget or AUTOCOMPLETE_BUDGET)
        if result.outcome == "solved":
            line = list(result.moves)
    return line


def autocomplete_possible(game: Game) -> bool:
    """Whether a page should offer auto-complete: cheap, and a function of the view only.

    True when Klondike's simple rule is proved to win from the view (then
    :func:`autocomplete_line` plays it), or, in the other games, when nothing is hidden
    (then :func:`autocomplete_line` searches, and may still find no win).

    >>> import patiencekit
    >>> autocomplete_possible(patiencekit.new_game("klondike", 1))
    False
    """
    if game.is_won():
        return False
    if game.id in KLONDIKE_IDS:
        return _klondike_line(game) is not None
    return not _hides_anything(game)


def _hides_anything(game: Game) -> bool:
    return any(c is None for p in game.view().piles for c in p.cards)


def _klondike_line(game: Game) -> list[str] | None:
    """Klondike with no face-down card: the simple rule's line when the view proves that
    it wins (see :func:`autocomplete`), else None."""
    s = game.state
    t = game.tables
    if game.id not in KLONDIKE_IDS or any(s.down[i] for i in t.columns):
        return None
    for ci in t.columns:
        p = s.piles[ci]
        if any(p[j] % 13 <= p[j + 1] % 13 for j in range(len(p) - 1)):
            return None
    if t.draw > 1 and s.piles[t.stock]:
        stock = s.piles[t.stock]
        if len(stock) > AUTOCOMPLETE_STOCK_ORDERS:
            return None
        # every order of the unseen cards (here exactly the stock's), found from the view
        for order in set(itertools.permutations(_unseen_cards(game.view()))):
            trial = s.copy()
            trial.piles[t.stock] = list(order)
            if _simple_rule_line(trial) is None:
                return None
    return _simple_rule_line(s.copy())


def _simple_rule_line(s: State) -> list[str] | None:
    """Play Klondike's simple rule on ``s`` (changed): a card to a foundation, else the
    waste's card to a column, else ``s`` / ``t``. The moves when it wins; None when it
    comes round to the same stock without a card placed."""
    t = s.t
    line: list[str] = []
    idle = 0
    while not s.is_won():
        moves = s.moves()
        to_foundation = [m for m in moves if m[0] >= 0 and t.kinds[m[1]] is PileKind.FOUNDATION]
        from_waste = [m for m in moves if m[0] == t.waste]
        if to_foundation or from_waste:
            m = (to_foundation or from_waste)[0]
            idle = 0
        elif moves and moves[-1][0] < 0:
            m = moves[-1]
            idle += 1
            # more than two passes through the stock and waste without a card placed:
            # every pass is the same from then on
            if idle > 2 * (len(s.piles[t.stock]) + len(s.piles[t.waste]) + 2):
                return None
        else:
            return None
        s.push(m)
        line.append(t.label_of(m))
    return line


def find_winnable_number(
    game_id: str,
    *,
    seconds_per_deal: float = 2.0,
    max_seconds: float = 60.0,
    rng: random.Random | None = None,
) -> int:
    """A game number the solver proves winnable now, tried at random; raises
    :class:`TimeoutError` if none is found within ``max_seconds``."""
    rng = rng or random.Random()
    deadline = time.perf_counter() + max_seconds
    while time.perf_counter() < deadline:
        number = rng.randrange(1, 10**9)
        left = deadline - time.perf_counter()
        result = solve(game_id, number, budget=Budget(seconds=min(seconds_per_deal, left)))
        if result.outcome == "solved":
            return number
    raise TimeoutError(f"no winnable deal of {game_id} found in {max_seconds:g} s")


def winnable_number(game_id: str) -> int:
    """A game number proved winnable: a shipped one at random
    (:func:`patiencekit.winnable_number`), else one the solver proves now
    (:func:`find_winnable_number`).

    >>> from patiencekit.games.winnable_numbers import WINNABLE
    >>> winnable_number("klondike") in WINNABLE["klondike"]
    True
    """
    from patiencekit.games.winnable_numbers import WINNABLE

    rules = get_rules(game_id)
    proved = WINNABLE.get(rules.id, ())
    if proved:
        return random.choice(proved)
    return find_winnable_number(rules.id)
