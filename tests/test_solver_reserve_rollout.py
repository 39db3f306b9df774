"""The beam scored by greedy rollouts (:class:`patiencekit.solver.reserve.ReserveRollout`),
Royal Cotillion's first finder of wins: the C passes are the Python ones, its wins replay
on the engine, and it says "lost" only after a pass that left no position out. Budgets
are positions, never seconds."""

from __future__ import annotations

import json
import random

import pytest

from compiled_modules import assert_native_check_contract, needs_native
from patiencekit import new_game
from patiencekit.solver import Budget, solve
from patiencekit.solver import reserve as pure
from patiencekit.solver.reserve import ROLLOUT_WIDTHS, ReserveExact, ReserveRollout
from patiencekit.solver.study import _replays
from patiencekit.state import State
from test_solver_reserve_exact import WINS, on_a_winning_line, playout

NATIVE = pure._NATIVE
needs_c = needs_native(NATIVE)


def both_ways(state: State, states: int) -> list[tuple[object, ...]]:
    import patiencekit.solver as solver_mod

    seen = []
    for native in (False, True):
        search = solver_mod.ReserveRollout(state, max_states=states, native=native)
        verdict = search.run()
        seen.append(
            (verdict, search.nodes, search.kept, search.max_depth, search.width,
             search.left_last, search.beam.path if verdict[0] else None)
        )
    return seen


@needs_c
def test_the_c_passes_are_the_python_passes() -> None:
    """The same verdict, positions, candidates, depth, last pass and line in C and in
    Python (compiled, native=False), from deals of both games, won, left at the budget
    and lost at the root, with both rollouts (#3 is won by the second)."""
    verdicts = set()
    seen = {}
    for game, number in [("royal-cotillion", 2), ("royal-cotillion", 3),
                         ("royal-cotillion", 7), ("royal-cotillion", 30),
                         ("picture-patience", 2), ("picture-patience", 5)]:
        both = both_ways(new_game(game, number).state, 6_000)
        assert both[0] == both[1], (game, number)
        verdicts.add(both[1][0])
        seen[game, number] = both[1]
    assert verdicts == {(True, None), (False, None), (None, "states")}
    assert seen["royal-cotillion", 3][4:6] == (16, 1)


def test_its_wins_replay_and_its_budget_is_positions() -> None:
    """Royal Cotillion #30, which no search won before this one (stop 46), is won by a
    pass of 1,024 or less; the line plays to a win on the engine. The same search with
    fewer positions than it took stops at the budget, having found nothing."""
    search = ReserveRollout(new_game("royal-cotillion", 30).state, max_states=500_000)
    assert search.run() == (True, None)
    assert search.width <= 1024 and search.nodes > 1_000
    assert _replays("royal-cotillion", 30, search.move_texts())
    short = ReserveRollout(new_game("royal-cotillion", 30).state, max_states=search.nodes // 2)
    assert short.run() == (None, "states") and short.beam.path == []


def test_lost_only_when_a_pass_left_nothing_out() -> None:
    """Royal Cotillion #7 (its left piles lose it) is lost at once; positions of random
    play near the end of the stock (nearly always lost, with few positions left) are
    proved lost by a pass that kept every position, always where the exact search proves
    them lost too; positions near the end of Picture Patience's shipped winning lines
    are won."""
    assert ReserveRollout(new_game("royal-cotillion", 7).state).run() == (False, None)
    rng = random.Random("rollout-lost")
    verdicts = []
    for game in ("royal-cotillion", "picture-patience"):
        for number in range(1, 9):
            state = playout(game, number, rng, rng.randint(4, 12))
            rollout = ReserveRollout(state, max_states=200_000)
            verdict = rollout.run()
            exact = ReserveExact(state, max_states=2_000_000).run()
            if verdict[0] is not None:
                assert verdict == exact, (game, number)
            else:
                assert exact[0] is not False or rollout.kept > ROLLOUT_WIDTHS[-1]
            verdicts.append(verdict)
    lines = json.loads(WINS.read_text())
    for n, moves in list(lines.items())[:4]:
        state = on_a_winning_line(int(n), moves, rng.randint(8, 20))
        assert ReserveExact(state, max_states=2_000_000).run() == (True, None)
        verdicts.append(ReserveRollout(state, max_states=200_000).run())
    assert (False, None) in verdicts and verdicts[-4:] == [(True, None)] * 4


def test_the_rollout_score() -> None:
    """The rollout counts the cards a greedy line places: never fewer than are placed,
    never all of #714's from its root (a deal the greedy line loses and only a beam 80,000
    wide wins), and every card from the positions near the end of a winning line, where
    what is left plays out greedily."""
    search = ReserveRollout(new_game("royal-cotillion", 714).state)
    root = search.beam.root
    for left_last in (0, 1):
        assert sum(root[5]) <= search.rollout(root, left_last) < search.beam.total
    won = ReserveRollout(new_game("royal-cotillion", 2).state, max_states=100_000)
    assert won.run() == (True, None)
    beam = won.beam
    pos = beam.root
    line = []
    for move in beam.path:
        line.append(pos)
        pos = dict(beam.children(pos))[move]
    assert sum(pos[5]) == beam.total
    for before in line[-3:]:
        assert won.rollout(before, 0) == won.rollout(before, 1) == beam.total


def test_only_for_the_games_without_a_redeal() -> None:
    with pytest.raises(ValueError, match="without a redeal"):
        ReserveRollout(new_game("odd-and-even", 1).state)


@needs_c
def test_the_c_passes_budget_check_is_called_back_and_its_errors_come_through() -> None:
    state = new_game("royal-cotillion", 714).state
    assert_native_check_contract(lambda states: ReserveRollout(state, max_states=states), 5_000)


def test_solve_runs_it_first_in_royal_cotillion() -> None:
    """solve() wins Royal Cotillion #30 within the rollout beam's positions: the same
    positions as the beam alone."""
    alone = ReserveRollout(new_game("royal-cotillion", 30).state, max_states=500_000)
    assert alone.run() == (True, None)
    result = solve("royal-cotillion", 30, budget=Budget(seconds=None, states=500_000))
    assert result.outcome == "solved" and result.states == alone.nodes
    assert _replays("royal-cotillion", 30, list(result.moves))
