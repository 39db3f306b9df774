"""The compact exact search of the waste-only games (:mod:`patiencekit.solver.waste_only`):
it must give the generic exact search's verdicts, and its lines must win on the engine.
Budgets are positions, never seconds."""

from __future__ import annotations

import random
import sys

import pytest

from compiled_modules import assert_current_in_use
from patiencekit import new_game
from patiencekit.games.winnable_numbers import WINNABLE
from patiencekit.solver import Budget, solve, solve_state
from patiencekit.solver.generic import GenericSearch
from patiencekit.solver.limits import SearchLimit
from patiencekit.solver.waste_only import WasteOnlySearch
from patiencekit.state import State
from test_solver_dead_ends import last_cards


def generic_verdict(state: State, states: int) -> bool | None:
    """The generic exact (depth-first) search's answer, None past ``states`` positions
    (its lines can be deep, PatienceMax's above all: the recursion limit is raised as its
    ``run`` does)."""
    gs = GenericSearch(state, max_states=states)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 50_000))
    try:
        return gs._dfs(gs.overall)
    except SearchLimit:
        return None
    finally:
        sys.setrecursionlimit(old)


def compact_verdict(state: State, states: int = 400_000) -> bool | None:
    search = WasteOnlySearch(state, max_states=states)
    won, _ = search.run()
    if won:
        search.engine_moves()  # (raises unless the line wins on the engine)
    return won


@pytest.mark.parametrize("redeal_to_come", [True, False])
def test_it_agrees_with_the_generic_search_on_random_positions(redeal_to_come: bool) -> None:
    """Contradance, random late positions (with the redeal to come, and on the last pass):
    the same verdict as the generic exact search wherever that one decides, both kinds."""
    rng = random.Random(f"waste-only-{redeal_to_come}")
    compared = 0
    kinds: set[bool] = set()
    for _ in range(80):
        state = last_cards("contradance", rng, 10, 6, stock=0.6)
        if redeal_to_come:
            state.redeals = 0
        expected = generic_verdict(state, 60_000)
        if expected is None:
            continue
        assert compact_verdict(state) == expected, state
        compared += 1
        kinds.add(expected)
    assert compared >= 70 and kinds == {True, False}


def test_it_decides_captured_queens_as_the_generic_search_does() -> None:
    """Captured Queens deals 1-80, whole games: the same verdicts both ways."""
    kinds: set[bool] = set()
    for number in range(1, 81):
        state = new_game("captured-queens", number).state
        expected = generic_verdict(state, 200_000)
        assert expected is not None
        assert compact_verdict(state) == expected, number
        kinds.add(expected)
    assert kinds == {True, False}


def test_it_wins_shipped_contradance_deals_and_the_lines_replay() -> None:
    """Shipped winnable deals are never called unsolvable; some are won within the
    positions budget, and each line found wins on the engine (engine_moves checks every
    move and the end)."""
    won = 0
    for number in WINNABLE["contradance"][:40]:
        verdict = compact_verdict(new_game("contradance", number).state, 50_000)
        assert verdict is not False, number
        won += bool(verdict)
    assert won >= 10, won


def test_solve_uses_it_where_the_waste_top_alone_plays() -> None:
    """Contradance #1 is lost in the relaxation: solved (proved unsolvable) at the first
    position. #10 is won in a few hundred positions of the search, after the partly
    relaxed games (92 of them, each won), and its line replays."""
    lost = solve("contradance", 1, budget=Budget(states=1_000))
    assert (lost.outcome, lost.states) == ("unsolvable", 1)
    search = WasteOnlySearch(new_game("contradance", 10).state)
    assert search.run() == (True, None) and search.proved_by is None
    assert search.nodes - search.partly < 1_000 and search.partly < 20_000
    won = solve("contradance", 10, budget=Budget(states=20_000))
    assert won.outcome == "solved" and won.states == search.nodes
    game = new_game("contradance", 10)
    for move in won.moves:
        game.play(move)
    assert game.is_won()
    # a deal the compact search leaves undecided is handed to the generic search for a win
    undecided = solve_state(new_game("contradance", 3).state, Budget(states=200))
    assert undecided.outcome == "limit" and undecided.states > 200


@pytest.mark.parametrize("game_id", ["picture-patience", "patriarchs", "klondike"])
def test_other_games_are_refused(game_id: str) -> None:
    state = new_game(game_id, 1).state
    assert not WasteOnlySearch.applies(state)
    with pytest.raises(ValueError, match="only the waste's top"):
        WasteOnlySearch(state)


# -- the compiled search -----------------------------------------------------------------


def test_the_search_in_use_is_built_from_the_current_source() -> None:
    """After ``make``, a compiled search beside the source is the current one and is in
    use; without one, the pure search runs."""
    import patiencekit.solver as solver_mod
    from patiencekit.solver import waste_only

    assert_current_in_use(
        waste_only, "waste_only_fast", solver_mod.WASTE_ONLY_BUILD,
        solver_mod.WasteOnlySearch, WasteOnlySearch, "waste_only",
    )


def test_the_search_in_use_searches_as_the_pure_one() -> None:
    """The search solve() uses (compiled, after ``make``) and the pure one: the same
    verdicts, positions and lines on Contradance deals 1-12 and #17 (undecided) at 20,000
    positions."""
    import patiencekit.solver as solver_mod

    kinds: set[bool | None] = set()
    for number in [*range(1, 13), 17]:
        state = new_game("contradance", number).state
        pure = WasteOnlySearch(state, max_states=20_000)
        used = solver_mod.WasteOnlySearch(state, max_states=20_000)
        verdict = pure.run()
        assert used.run() == verdict, number
        assert (used.nodes, used.path) == (pure.nodes, pure.path), number
        kinds.add(verdict[0])
    assert {True, False, None} <= kinds


# -- the partly relaxed games -------------------------------------------------------------


class _GreedyExact(WasteOnlySearch):
    """An unsound variant, for the test to catch: an exact group's card is played
    whenever it fits, as if every such play were safe."""

    def _play(self, waste: bytes, hs: bytes) -> tuple[bytes, bool] | None:
        played = super()._play(waste, hs)
        return None if played is None else (played[0], True)


def partly_verdicts(search: WasteOnlySearch) -> list[bool | None]:
    """The partly relaxed games with every one group and every two groups exact."""
    groups = [g for g, m in enumerate(search.members) if len(m) > 1]
    combos = [(g,) for g in groups] + [
        (a, b) for i, a in enumerate(groups) for b in groups[i + 1 :]
    ]
    return [search.partly_relaxed_lost(combo, 100_000) for combo in combos]


@pytest.mark.parametrize("redeal_to_come", [True, False])
def test_partly_relaxed_games_never_lose_a_won_position(redeal_to_come: bool) -> None:
    """Contradance, random late positions decided by the generic exact search: no partly
    relaxed game (one or two groups exact) of a won position is lost; some lost positions
    the relaxation leaves are proved lost by one; and the unsound variant that plays
    exact cards greedily is caught losing won positions."""
    rng = random.Random(f"partly-{redeal_to_come}")
    won = proved = unsound = 0
    for _ in range(80):
        state = last_cards("contradance", rng, 12, 6 if redeal_to_come else 3, stock=0.6)
        if redeal_to_come:
            state.redeals = 0
        expected = generic_verdict(state, 60_000)
        if expected is None:
            continue
        search = WasteOnlySearch(state)
        verdicts = partly_verdicts(search)
        if expected:
            won += 1
            assert True not in verdicts, state
            unsound += True in partly_verdicts(_GreedyExact(state))
        elif search.partly_relaxed_lost((), 100_000) is False:  # the relaxation leaves it
            proved += True in verdicts
    assert won >= 30 and proved >= 25 and unsound >= 3, (won, proved, unsound)


def test_partly_relaxed_games_never_lose_a_shipped_winnable_deal() -> None:
    """Every shipped winnable Contradance deal: no partly relaxed game with up to
    EXACT_GROUPS exact groups is lost (the search in use, compiled after ``make``)."""
    import patiencekit.solver as solver_mod

    for number in WINNABLE["contradance"]:
        search = solver_mod.WasteOnlySearch(new_game("contradance", number).state)
        assert not search._partly_lost(), (number, search.proved_by)


def test_partly_relaxed_games_prove_deals_the_relaxation_leaves() -> None:
    """Contradance 1-40: the deals the relaxation leaves that are not known winnable are
    proved lost by a partly relaxed game, with no more than 300,000 positions of them;
    all but #17, which no search has decided (docs/winnability.md)."""
    import patiencekit.solver as solver_mod

    proved = 0
    for number in range(1, 41):
        search = solver_mod.WasteOnlySearch(new_game("contradance", number).state)
        if search.partly_relaxed_lost((), 1_000) or number in WINNABLE["contradance"]:
            continue
        if number == 17:
            assert not search._partly_lost()
            continue
        assert search._partly_lost(), number
        assert search.proved_by is not None and search.partly < 300_000
        proved += 1
    assert proved >= 10, proved
