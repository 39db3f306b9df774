"""The compact beam of the reserve games (:mod:`patiencekit.solver.reserve`): its lines
must win on the engine, a pass that leaves nothing out must agree with the generic exact
search, and the compiled beam must search as the pure one. Budgets are positions, never
seconds."""

from __future__ import annotations

import random

import pytest

from compiled_modules import assert_current_in_use
from patiencekit import new_game
from patiencekit.games.winnable_numbers import WINNABLE
from patiencekit.solver import Budget, solve
from patiencekit.solver.reserve import ReserveBeam
from test_solver_dead_ends import last_cards
from test_solver_waste_only import generic_verdict

GAMES = ["odd-and-even", "royal-cotillion", "picture-patience"]


@pytest.mark.parametrize(("game_id", "shipped", "least"), [
    ("odd-and-even", 8, 8),
    ("royal-cotillion", 8, 8),
    ("picture-patience", 4, 3),
])
def test_it_wins_shipped_deals_and_the_lines_replay(game_id: str, shipped: int,
                                                    least: int) -> None:
    """The first shipped winnable deals: at least ``least`` of ``shipped`` are won within
    300,000 positions (Odd and Even's and Royal Cotillion's all of them; Picture
    Patience's above 1,000 come from tools/picture_sweep.py's beam, and this one wins three
    of their first four: #5889, #11096, #30845, not #48890; those of 1-1,000 come from the
    studies' exact search, ReserveExact), and each line wins on the engine (engine_moves
    checks every move and the end), also when the notation's moves are played through a
    game."""
    won = 0
    swept = [n for n in WINNABLE[game_id] if game_id != "picture-patience" or n > 1_000]
    for number in swept[:shipped]:
        search = ReserveBeam(new_game(game_id, number).state, max_states=300_000)
        verdict = search.run()
        assert verdict in {(True, None), (None, "states")}, number
        if verdict[0]:
            won += 1
            game = new_game(game_id, number)
            for move in search.move_texts():
                game.play(move)
            assert game.is_won(), number
    assert won >= least


@pytest.mark.parametrize("game_id", ["odd-and-even", "royal-cotillion"])
def test_a_pass_that_leaves_nothing_out_agrees_with_the_exact_search(game_id: str) -> None:
    """Random late positions (up to 8 cards short of every foundation, on the last pass,
    the reserve mostly holding the cards the foundations take last):
    where the beam ends without a budget (a win, or a pass that left nothing out), its
    verdict is the generic exact search's, and both kinds occur."""
    import patiencekit.solver as solver_mod  # (the beam in use: compiled after make)

    rng = random.Random(f"reserve-{game_id}")
    kinds: set[bool] = set()
    compared = 0
    for _ in range(40):
        state = last_cards(game_id, rng, 8, 8, stock=0.5, late_share=80)
        expected = generic_verdict(state, 15_000)
        if expected is None:
            continue
        search = solver_mod.ReserveBeam(state, max_states=50_000)
        won, _ = search.run()
        if won is None:
            continue
        assert won == expected, state
        if won:
            search.engine_moves()  # (raises unless the line wins on the engine)
        compared += 1
        kinds.add(won)
    assert compared >= 25 and kinds == {True, False}, (compared, kinds)


@pytest.mark.parametrize("game_id", ["patriarchs", "contradance", "klondike", "patiencemax"])
def test_other_games_are_refused(game_id: str) -> None:
    """Patriarchs (cards move between foundations), the waste-only games, the games with
    columns to build on: not for this beam."""
    state = new_game(game_id, 1).state
    assert not ReserveBeam.applies(state)
    with pytest.raises(ValueError, match="reserve refilled from the waste"):
        ReserveBeam(state)


def test_solve_looks_for_a_win_with_it_first() -> None:
    """solve() on a reserve game runs the beam first: Odd and Even #1 is won by it, with
    its positions; a lost Royal Cotillion deal (#994) the beam cannot finish is handed on,
    and the generic search proves it lost; one lost in its left piles (#7) is answered
    by the beam at once."""
    search = ReserveBeam(new_game("odd-and-even", 1).state, max_states=100_000)
    assert search.run() == (True, None)
    won = solve("odd-and-even", 1, budget=Budget(states=100_000))
    assert won.outcome == "solved" and won.states == search.nodes
    lost = solve("royal-cotillion", 994, budget=Budget(states=20_000))
    assert lost.outcome == "unsolvable" and lost.states > 20_000
    stuck = ReserveBeam(new_game("royal-cotillion", 7).state, max_states=20_000)
    assert stuck.run() == (False, None) and stuck.nodes == 0


def test_the_widths_grow_and_a_budget_ends_the_search() -> None:
    """An undecided deal at a small positions budget: (None, "states"), after passes of
    growing width; the same budget gives the same positions and width again."""
    runs = []
    for _ in range(2):
        search = ReserveBeam(new_game("odd-and-even", 34).state, max_states=20_000)
        assert search.run() == (None, "states")
        runs.append((search.nodes, search.width))
    assert runs[0] == runs[1] and runs[0][1] >= 64


# -- the compiled beam ---------------------------------------------------------------------


def test_the_beam_in_use_is_built_from_the_current_source() -> None:
    """After ``make``, a compiled beam beside the source is the current one and is in use;
    without one, the pure beam runs."""
    import patiencekit.solver as solver_mod
    from patiencekit.solver import reserve

    assert_current_in_use(
        reserve,
        "reserve_fast",
        solver_mod.RESERVE_BUILD,
        solver_mod.ReserveBeam,
        ReserveBeam,
        "reserve",
    )


def test_the_beam_in_use_searches_as_the_pure_one() -> None:
    """The beam solve() uses (compiled, after ``make``) and the pure one: the same
    verdicts, positions and lines on deals of each game at 30,000 positions."""
    import patiencekit.solver as solver_mod

    kinds: set[bool | None] = set()
    for game_id, number in [
        ("odd-and-even", 1),
        ("odd-and-even", 34),
        ("royal-cotillion", 1),
        ("royal-cotillion", 7),
        ("picture-patience", 244196),
    ]:
        state = new_game(game_id, number).state
        pure = ReserveBeam(state, max_states=30_000)
        used = solver_mod.ReserveBeam(state, max_states=30_000)
        verdict = pure.run()
        assert used.run() == verdict, number
        assert (used.nodes, used.width, used.path) == (pure.nodes, pure.width, pure.path)
        kinds.add(verdict[0])
    assert {True, None} <= kinds
