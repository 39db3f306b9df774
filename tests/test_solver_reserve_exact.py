"""The pruned exact search of Picture Patience and Royal Cotillion
(:class:`patiencekit.solver.reserve.ReserveExact`): its bound must never lose a win.

The bound is A/B-tested as the dead-end analysis is: whole exact searches with and
without it, on random last cards of each game, must give the same verdicts, and a
deliberately unsound variant of it must be caught by the same comparison. And no position
of the shipped winning lines may be called lost. Budgets are positions, never seconds.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from compiled_modules import assert_native_check_contract, assert_native_current
from compiled_modules import needs_native as needs_native_of
from patiencekit import new_game
from patiencekit.games.winnable_numbers import WINNABLE
from patiencekit.moves import DRAW
from patiencekit.solver import Budget, solve
from patiencekit.solver import reserve as pure
from patiencekit.solver.reserve import RESTART_STATES, ReserveExact, ReserveRestarts
from patiencekit.state import State

WINS = Path(__file__).parent / "data" / "picture_patience_wins.json"


class Unbounded(ReserveExact):
    """The same search without the bound."""

    def lost(self, pos: object) -> bool:  # type: ignore[override]
        return False


class BothCopies(ReserveExact):
    """Unsound: a foundation passes a card only when both its copies are free."""

    ONE_COPY = 2


def verdict(state: State, search: type[ReserveExact], states: int) -> bool | None:
    return search(state, max_states=states).run()[0]


def test_a_variant_of_the_bound_searches_in_python() -> None:
    """The C search knows only the bound (and ``ONE_COPY``): a subclass with a bound of
    its own runs the Python search, so the A/B tests below compare what they say."""
    state = new_game("picture-patience", 1).state
    assert Unbounded(state).native is None
    assert BothCopies(state).native is ReserveExact(state).native


def playout(game_id: str, number: int, rng: random.Random, stock_left: int) -> State:
    """Deal ``number`` and play at random (mostly to the foundations) until the stock
    holds ``stock_left`` cards: nearly always a lost position."""
    game = new_game(game_id, number)
    s = game.state
    t = s.t
    while len(s.piles[t.stock]) > stock_left:
        moves = s.moves()
        plays = [m for m in moves if m[1] in t.foundations]
        if plays and rng.random() < 0.8:
            s.push(rng.choice(plays))
        else:
            s.push(DRAW)
    return s.copy()


def on_a_winning_line(number: int, moves: list[str], stock_left: int) -> State:
    """The position of a shipped Picture Patience line where the stock holds
    ``stock_left`` cards: a won position."""
    game = new_game("picture-patience", number)
    t = game.state.t
    for move in moves:
        if len(game.state.piles[t.stock]) <= stock_left:
            break
        game.play(move)
    return game.state.copy()


def test_the_bound_never_loses_a_win() -> None:
    """Whole exact searches with and without the bound agree on positions near the end
    of Picture Patience's shipped winning lines (won) and of random play (lost) and of
    random play of Royal Cotillion; the bound cuts lines in many of them; and asking both
    copies of every card (unsound) calls some won positions lost."""
    rng = random.Random("reserve-exact")
    lines = json.loads(WINS.read_text())
    states = [
        on_a_winning_line(int(n), moves, rng.randint(5, 25))
        for n, moves in list(lines.items())[:30]
    ]
    states += [playout("picture-patience", n, rng, rng.randint(5, 15)) for n in range(1, 31)]
    states += [playout("royal-cotillion", n, rng, rng.randint(3, 10)) for n in range(1, 31)]
    compared = cut = caught = 0
    outcomes: set[bool] = set()
    for state in states:
        plain = verdict(state, Unbounded, 50_000)
        if plain is None:
            continue
        bounded = ReserveExact(state, max_states=50_000)
        assert bounded.run()[0] == plain, state
        compared += 1
        outcomes.add(plain)
        cut += bounded.pruned > 0 or bounded.lost(bounded.beam.root)
        caught += verdict(state, BothCopies, 50_000) != plain
    assert compared >= 80, compared
    assert outcomes == {True, False}
    assert cut >= 40 and caught >= 3, (cut, caught)


def test_no_position_of_a_shipped_winning_line_is_lost() -> None:
    """Every position of the first 12 shipped Picture Patience lines (each replays to a
    win) and of the lines the solver finds for the first 8 shipped Royal Cotillion deals
    is winnable in the bound's relaxed game."""
    lines = json.loads(WINS.read_text())
    games = [("picture-patience", int(n), moves) for n, moves in list(lines.items())[:12]]
    for number in sorted(WINNABLE["royal-cotillion"])[:8]:
        result = solve("royal-cotillion", number, budget=Budget(states=300_000))
        games.append(("royal-cotillion", number, list(result.moves)))
    for game_id, number, moves in games:
        game = new_game(game_id, number)
        for k, move in enumerate([None, *moves]):
            if move is not None:
                game.play(move)
            if game.is_won():
                break
            search = ReserveExact(game.state)
            assert not search.lost(search.beam.root), (game_id, number, k)
        assert game.is_won()


def test_it_decides_picture_patience_deals() -> None:
    """Picture Patience #1-10 are proved lost within a few thousand positions each (the
    beam and the generic search decided none of them at 10 s), #461 is won (a line that
    replays to a win), and solve() gives the verdicts with a positions budget."""
    for number in range(1, 11):
        search = ReserveExact(new_game("picture-patience", number).state, max_states=20_000)
        assert search.run() == (False, None), number
    result = solve("picture-patience", 461, budget=Budget(states=40_000))
    assert result.outcome == "solved"
    game = new_game("picture-patience", 461)
    for move in result.moves:
        game.play(move)
    assert game.is_won()
    assert solve("picture-patience", 2, budget=Budget(states=40_000)).outcome == "unsolvable"


def test_royal_cotillion_761_is_lost_by_the_bound_alone() -> None:
    """Royal Cotillion #761: the dead-end analysis does not prove it lost (its generic
    exact search is still open at 50,000 positions); the bound does within 2,000."""
    from patiencekit.solver.generic import GenericSearch

    state = new_game("royal-cotillion", 761).state
    assert ReserveExact(state, max_states=2_000).run() == (False, None)
    assert GenericSearch(state, max_states=50_000).run()[0] is None


def test_only_for_the_games_without_a_redeal() -> None:
    """Odd and Even has a redeal (its waste is turned once): not for it; nor for games
    without a reserve refilled from the waste."""
    assert ReserveExact.applies(new_game("picture-patience", 1).state)
    assert ReserveExact.applies(new_game("royal-cotillion", 1).state)
    for game_id in ("odd-and-even", "patriarchs", "contradance", "solitaire"):
        assert not ReserveExact.applies(new_game(game_id, 1).state), game_id
    with pytest.raises(ValueError, match="odd-and-even"):
        ReserveExact(new_game("odd-and-even", 1).state)


def test_the_compiled_search_is_the_pure_one() -> None:
    """The Python search in use (compiled with mypyc with the rest of ``reserve.py``
    after ``make``) gives the pure one's verdicts, positions and cuts."""
    import patiencekit.solver as solver_mod

    for game_id, number in [("picture-patience", n) for n in (1, 3, 4, 8)] + [
        ("royal-cotillion", 761),
        ("royal-cotillion", 2),
    ]:
        state = new_game(game_id, number).state
        runs = []
        for search_class in (solver_mod.ReserveExact, ReserveExact):
            search = search_class(state, max_states=3_000, native=False)
            runs.append((search.run(), search.nodes, search.pruned))
        assert runs[0] == runs[1], (game_id, number, runs)


# -- the search in C (reserve_native.c) ------------------------------------------------------

NATIVE = pure._NATIVE
needs_native = needs_native_of(NATIVE)


def test_the_c_search_is_built_from_the_current_source() -> None:
    """After ``make`` the C search is built from reserve_native.c as it is now and used;
    with PATIENCEKIT_PURE_PYTHON the Python search is."""
    used = ReserveExact(new_game("picture-patience", 1).state).native
    assert_native_current(pure, "reserve_native.c", "reserve_native", NATIVE, used)


def runs_both_ways(
    state: State, states: int, bury: int = 0, seed: int | None = None
) -> list[tuple[object, ...]]:
    import patiencekit.solver as solver_mod

    seen = []
    for native in (False, True):
        search = solver_mod.ReserveExact(state, max_states=states, native=native)
        search._bury, search._seed = bury, seed
        verdict = search.run()
        seen.append(
            (verdict, search.nodes, search.kept, search.pruned, search.max_depth,
             search.beam.path if verdict[0] else None)
        )
    return seen


@needs_native
def test_the_c_search_is_the_python_search() -> None:
    """The C search and the Python one (compiled, native=False): the same verdict,
    positions, positions kept, cuts, depth and line, from deals of both games and from
    positions with a waste (random play, and near the end of winning lines), ending in
    all three ways."""
    rng = random.Random("reserve-native")
    lines = json.loads(WINS.read_text())
    states = [new_game("picture-patience", n).state for n in (1, 3, 4, 6, 8, 12)]
    states += [new_game("royal-cotillion", n).state for n in (2, 761, 994)]
    states += [
        on_a_winning_line(int(n), moves, rng.randint(8, 20))
        for n, moves in list(lines.items())[:6]
    ]
    states += [playout("picture-patience", n, rng, rng.randint(10, 30)) for n in range(1, 5)]
    states += [playout("royal-cotillion", n, rng, rng.randint(10, 30)) for n in range(1, 5)]
    verdicts = set()
    for state in states:
        seen = runs_both_ways(state, 4_000)
        assert seen[0] == seen[1], state
        verdicts.add(seen[1][0])
    assert verdicts == {(True, None), (False, None), (None, "states")}


@needs_native
def test_the_c_searchs_budget_check_is_called_back_and_its_errors_come_through() -> None:
    state = new_game("picture-patience", 12).state
    assert_native_check_contract(lambda states: ReserveExact(state, max_states=states), 5_000)


@needs_native
def test_a_position_too_large_for_the_c_search_runs_in_python() -> None:
    """The C search refuses what it cannot hold with OverflowError (here nine
    foundations); ReserveExact then searches in Python, with the same answer."""
    search = ReserveExact(new_game("picture-patience", 3).state, max_states=5_000)
    model = (tuple(bytes(13) for _ in range(9)), (), False, b"", b"", b"")
    with pytest.raises(OverflowError, match="too many foundations"):
        NATIVE.search(model, search.beam.root, 1, 0, -1, search._native_check)

    class Refusing:
        @staticmethod
        def search(*args: object) -> object:
            raise OverflowError("reserve_native: too big")

    search.native = Refusing()
    assert search.run() == (False, None)
    python = ReserveExact(new_game("picture-patience", 3).state, max_states=5_000, native=False)
    assert python.run() == (False, None)
    assert (search.nodes, search.pruned) == (python.nodes, python.pruned) and search.nodes > 0


@needs_native
def test_the_restarts_knobs_search_alike_in_c_and_python() -> None:
    """With ReserveRestarts' knobs (the unsound cuts *bury* 1 and 2, children in an
    order drawn from a seed) the C and Python searches still visit the same positions in
    the same order and find the same line; a seed changes the order (other positions
    cut), cut 2 wins #589, which cut 1 does not within the budget, and the cuts prove
    nothing: they call Royal Cotillion #714's root lost, which the exact search does not
    (and #714 is winnable: a rollout beam at width 80,000 wins it, stop 47)."""
    seen = {}
    for number in (171, 110, 2, 589):
        state = new_game("royal-cotillion", number).state
        for bury, seed in [(1, None), (1, 3), (0, 5), (2, None), (2, 4)]:
            both = runs_both_ways(state, 4_000, bury, seed)
            assert both[0] == both[1], (number, bury, seed)
            seen[number, bury, seed] = both[1]
    assert seen[171, 1, None][0] == (True, None)  # (the cut's line: 188 positions)
    assert seen[110, 1, None][3] != seen[110, 1, 3][3]  # (other cuts)
    assert seen[589, 2, None][0] == (True, None) and seen[589, 1, None][0] == (None, "states")
    exact = runs_both_ways(new_game("royal-cotillion", 714).state, 2_000)
    for bury in (1, 2):
        cut = runs_both_ways(new_game("royal-cotillion", 714).state, 2_000, bury, None)
        assert exact[1][0] == (None, "states") and cut[1][:2] == ((False, None), 0)


def test_the_restarts_win_deals_the_exact_search_leaves_and_never_say_lost() -> None:
    """Royal Cotillion #190 (which the 10 s exact search, and every study before stop 44,
    left undecided) is won by the 7th restart (cut 1, seed 6), #589 (which no search but
    cut 2 had won) by the 2nd (cut 2, the search's own order), and their lines replay to
    a win; the restarts say nothing of #994 (lost: the exact search proves it) nor of #714
    (winnable, stop 47): both cuts call their roots lost, and a cut is no proof, so they
    give up as out of positions. Budgets in positions."""
    for number, restarts in ((190, 7), (589, 2)):
        search = ReserveRestarts(new_game("royal-cotillion", number).state, max_states=200_000)
        assert search.run() == (True, None)
        assert search.restarts == restarts
        assert (restarts - 1) * RESTART_STATES < search.nodes < restarts * RESTART_STATES
        game = new_game("royal-cotillion", number)
        for move in search.move_texts():
            game.play(move)
        assert game.is_won()
    assert ReserveExact(new_game("royal-cotillion", 994).state).run() == (False, None)
    for number in (994, 714):
        lost = ReserveRestarts(new_game("royal-cotillion", number).state, max_states=50_000)
        assert lost.run() == (None, "states") and lost.found is None
        assert lost.restarts == 2 and lost.nodes == 0
        with pytest.raises(ValueError, match="no line found"):
            lost.move_texts()
    with pytest.raises(ValueError, match="without a redeal"):
        ReserveRestarts(new_game("odd-and-even", 1).state)


def test_solve_runs_the_restarts_after_the_exact_search() -> None:
    """solve() on Royal Cotillion #190 with a positions budget: the rollout beam, the
    beam and the exact search find no win within it, the restarts do (their positions
    counted in)."""
    result = solve("royal-cotillion", 190, budget=Budget(seconds=None, states=130_000))
    assert result.outcome == "solved" and result.states > 3 * 130_000
    game = new_game("royal-cotillion", 190)
    for move in result.moves:
        game.play(move)
    assert game.is_won()


def test_the_models_crossed_is_the_dead_ends_one() -> None:
    """ReserveBeam.crossed (on the compact model, asked by the exact search's bound and
    by the rollout beam at every position) answers as DeadEnds.left_piles_crossed on the
    engine's position: at the roots of Royal Cotillion deals, and along random play,
    where a line that puts on a foundation the copy a left pile needed makes a deal that
    was not crossed crossed."""
    from patiencekit.solver.dead_ends import DeadEnds

    rng = random.Random("crossed-model")
    analysis = DeadEnds(new_game("royal-cotillion", 1).state.t)
    roots = became = 0
    for number in range(1, 201):
        state = new_game("royal-cotillion", number).state
        root = analysis.left_piles_crossed(state)
        assert pure.ReserveBeam(state).crossed(pure.ReserveBeam(state).root) == root, number
        roots += root
        for _ in range(2):
            s = playout("royal-cotillion", number, rng, rng.randint(20, 60))
            crossed = analysis.left_piles_crossed(s)
            assert pure.ReserveBeam(s).crossed(pure.ReserveBeam(s).root) == crossed, number
            became += crossed and not root
    assert roots >= 3 and became >= 5, (roots, became)
