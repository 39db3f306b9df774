"""Budgets for the solver tests: positions, never seconds (issue 10).

A test's verdict must not depend on the machine's speed, so every search in the tests
is bounded by positions only: no time budget (``seconds=None``), and no memory budget
either (the memory budget is the process's *peak* memory, which depends on the tests
the same pytest worker ran before; the positions budget bounds the memory anyway).

The budgets were chosen from measurement: each is several times (3-8x) what the test's
searches need (the numbers are in the tests' comments). With only a positions budget
the solver is deterministic: the same budget gives the same verdict and the same
positions on any machine.

``solve()`` with a positions budget only does not run every search it runs under a time
budget: its phases are split by time (see the report on issue 10). In PatienceMax it runs
the depth-first search alone, never the best-first search that finds the wins there;
:func:`solve_by_positions` runs that search too, by positions.
"""

from __future__ import annotations

from patiencekit import Game, new_game
from patiencekit.solver import Budget, SolveResult, solve
from patiencekit.solver.generic import GenericSearch, prefers_best_first

__all__ = ["positions", "solve_by_positions"]


def positions(states: int) -> Budget:
    """A budget of ``states`` positions, nothing else."""
    return Budget(seconds=None, states=states, memory_mb=None)


def solve_by_positions(game: Game | str, number: int | None = None, *, states: int) -> SolveResult:
    """``solve`` within ``states`` positions; where the win is looked for best first
    (PatienceMax), the depth-first search gets an eighth of them first (as ``solve``
    gives it a share of its time first), then the best-first search all of them."""
    if isinstance(game, str):
        assert number is not None
        game = new_game(game, number)
    if not prefers_best_first(game.state):
        return solve(game, budget=positions(states))
    result = solve(game, budget=positions(states // 8))
    if result.outcome != "limit":
        return result
    search = GenericSearch(game.state, greedy=True, max_states=states)
    won, limit = search.run()
    if won is None:
        return SolveResult(
            outcome="limit",
            limit=limit,
            states=result.states + search.nodes,
            unique_states=len(search.seen),
            depth=max(result.depth, search.max_depth),
            game=game.id,
            number=game.number,
        )
    return SolveResult(
        outcome="solved" if won else "unsolvable",
        moves=tuple(search.move_texts()) if won else (),
        states=result.states + search.nodes,
        unique_states=len(search.seen),
        depth=max(result.depth, search.max_depth),
        game=game.id,
        number=game.number,
    )
