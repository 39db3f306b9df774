"""The compact search of PatienceMax (:mod:`patiencekit.solver.patiencemax`): its lines must
win on the engine, its verdicts must agree with the generic exact search, the cards it
settles at once must never lose a win, and the compiled search must search as the pure
one. Budgets are positions, never seconds."""

from __future__ import annotations

import random

import pytest

from compiled_modules import (
    assert_current_in_use,
    assert_native_check_contract,
    assert_native_current,
)
from compiled_modules import needs_native as needs_native_of
from patiencekit import new_game
from patiencekit.games.winnable_numbers import WINNABLE
from patiencekit.solver import Budget, solve_state
from patiencekit.solver import patiencemax as pure
from patiencekit.solver.patiencemax import PatienceMaxSearch, pack, unpack
from patiencekit.state import State
from test_solver_waste_only import generic_verdict

GAMES = ["patiencemax-all-to-piles", "patiencemax"]


def late_position(
    game_id: str, number: int, rng: random.Random, low: int, full: tuple[int, ...] = ()
) -> State:
    """Deal ``number`` of ``game_id`` with each foundation built from the ace to a height
    drawn from ``low`` to ``low + 4`` (the foundations ``full`` to the king), those cards
    taken out of the deal where they lie (for a height held by one foundation of a suit
    only, the first copy found); the rest of the deal as it lies."""
    state = new_game(game_id, number).state
    t = state.t
    heights = [13 if f in full else rng.randint(low, low + 4) for f in range(8)]
    for f, fi in enumerate(t.foundations):
        state.piles[fi] = [f // 2 * 13 + r for r in range(heights[f])]
    for s in range(4):
        for r in range(max(heights[2 * s], heights[2 * s + 1])):
            copies = (r < heights[2 * s]) + (r < heights[2 * s + 1])
            for pi in [*t.columns, *t.hand]:
                while copies and s * 13 + r in state.piles[pi]:
                    state.piles[pi].remove(s * 13 + r)
                    copies -= 1
    return state


@pytest.mark.parametrize("kings", [False, True])
def test_settled_cards_are_exactly_those_nothing_can_be_built_on(kings: bool) -> None:
    """For random foundation heights: a card is settled (safe_cards) exactly when it fits
    a foundation, both copies of both cards of the rank below in the other colour are on
    the foundations (or it is an ace or a two), and it is no king whose place is a
    column top."""
    game_id = "patiencemax" if kings else "patiencemax-all-to-piles"
    search = PatienceMaxSearch(new_game(game_id, 1).state)
    rng = random.Random(f"safe-{kings}")
    for _ in range(2000):
        h = [rng.randint(0, 13) for _ in range(8)]
        for s in range(4):
            h[2 * s : 2 * s + 2] = sorted(h[2 * s : 2 * s + 2])
        expected = set()
        for s in range(4):
            for r in set(h[2 * s : 2 * s + 2]):
                if r > 12 or (kings and r == 12):
                    continue
                others = (2, 3) if s < 2 else (0, 1)  # (the suits of the other colour)
                below_placed = all(min(h[2 * o], h[2 * o + 1]) >= r for o in others)
                if r <= 1 or below_placed:
                    expected.add(s * 13 + r)
        assert set(search.safe_cards(bytes(h))) == expected, h


@pytest.mark.parametrize("game_id", GAMES)
def test_it_wins_shipped_deals_and_the_lines_replay(game_id: str) -> None:
    """The first shipped winnable deals: each is won within 400,000 positions, and each
    line wins on the engine (engine_moves checks every move and the end), also when the
    notation's moves are played through a game."""
    import patiencekit.solver as solver_mod

    won = 0
    for number in WINNABLE[game_id][:4]:
        search = solver_mod.PatienceMaxSearch(new_game(game_id, number).state, max_states=150_000)
        if search.run() != (True, None):
            continue
        won += 1
        game = new_game(game_id, number)
        for move in search.move_texts():
            game.play(move)
        assert game.is_won(), number
    assert won >= 3, won


@pytest.mark.parametrize("native", [False, True])
def test_a_line_replays_when_two_alike_safe_cards_could_settle(native: bool) -> None:
    """Deal #1981 (kings): a king's string moved to an empty column ends on a 2 of
    diamonds while another column ends on the other one, and the ace going up makes both
    safe. The search settles the copy its columns' order (before sorting) meets first;
    the line on the engine must take the same copy, or its next move (a string of this
    column) has no engine move. Failed before the replay settled as the search does
    (study of deals 1,001-2,000)."""
    import patiencekit.solver as solver_mod

    for search in (
        solver_mod.PatienceMaxSearch(
            new_game("patiencemax", 1981).state, max_states=5_000, native=native
        ),
        pure.PatienceMaxSearch(new_game("patiencemax", 1981).state, max_states=5_000,
                               native=False),
    ):
        assert search.run() == (True, None)
        game = new_game("patiencemax", 1981)
        for move in search.move_texts():
            game.play(move)
        assert game.is_won()


@pytest.mark.parametrize("game_id", GAMES)
def test_it_agrees_with_the_generic_exact_search(game_id: str) -> None:
    """Wherever the generic exact search decides (within a few thousand positions) a
    deal of 1-30 (those are deals lost at once) or a late position of deals 1-12, this
    search gives the same verdict, and both kinds occur."""
    import patiencekit.solver as solver_mod

    rng = random.Random(f"patiencemax-{game_id}")
    states = [new_game(game_id, n).state for n in range(1, 31)]
    states += [late_position(game_id, n, rng, 2) for n in range(1, 13)]
    kinds: list[bool] = []
    for state in states:
        expected = generic_verdict(state, 10_000)
        if expected is None:
            continue
        search = solver_mod.PatienceMaxSearch(state, max_states=50_000)
        won, _ = search.run()
        assert won == expected, state.piles
        if won:
            search.engine_moves()  # (raises unless the line wins on the engine)
        kinds.append(won)
    assert kinds.count(True) >= 5 and kinds.count(False) >= 3, kinds


def test_the_kings_never_go_to_a_foundation() -> None:
    """With the kings to end at the column tops, no move and no settling puts a king on a
    foundation, even when it fits; with all to the piles, a settled king goes up."""
    rng = random.Random("kings")
    for number in (1, 2, 3):
        search = PatienceMaxSearch(new_game("patiencemax", number).state)
        todo, seen = [search.root], {search.root}
        while todo and len(seen) < 2_000:
            for _, child, _, _ in search.children(todo.pop()):
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
        assert len(seen) >= 2_000
        for pos in seen:
            heights, _, _ = unpack(pos)
            assert max(heights) <= 12
    state = late_position("patiencemax-all-to-piles", 1, rng, 8)
    search = PatienceMaxSearch(state)
    assert search.run() == (True, None)
    assert any(c % 13 == 12 for c in search.safe_cards(bytes([12] * 8)))


def test_pack_and_unpack_are_a_pair() -> None:
    """A packed position unpacks to its parts, the columns sorted; packing those again
    gives the same bytes."""
    rng = random.Random(5)
    for _ in range(50):
        cols = [bytes(rng.randrange(52) for _ in range(rng.randint(0, 12))) for _ in range(10)]
        hand = bytes(rng.randrange(52) for _ in range(rng.randint(0, 4)))
        heights = bytes(rng.randint(0, 13) for _ in range(8))
        pos = pack(heights, hand, cols)
        h, hd, cs = unpack(pos)
        assert (h, hd, cs) == (heights, bytes(sorted(hand)), sorted(cols))
        assert pack(h, hd, cs) == pos


def test_it_refuses_other_games() -> None:
    for game_id in ("klondike", "odd-and-even", "contradance", "senior-wrangler"):
        state = new_game(game_id, 1).state
        assert not PatienceMaxSearch.applies(state)
        with pytest.raises(ValueError, match=game_id):
            PatienceMaxSearch(state)


def test_the_same_budget_gives_the_same_search() -> None:
    """A positions budget: the same positions, runs and verdict every time."""
    import patiencekit.solver as solver_mod

    state = new_game("patiencemax", 3).state
    results = set()
    for _ in range(2):
        search = solver_mod.PatienceMaxSearch(state, max_states=30_000)
        results.add((search.run(), search.nodes, search.runs, search.kept))
    assert len(results) == 1, results


def test_solve_runs_it_first() -> None:
    """solve_state on PatienceMax runs this search first: a shipped deal is solved with
    its line, and a dead deal (#4, stuck at once) is proved lost by it."""
    number = WINNABLE["patiencemax-all-to-piles"][0]
    state = new_game("patiencemax-all-to-piles", number).state
    result = solve_state(state, Budget(seconds=None, states=400_000))
    assert result.outcome == "solved"
    game = new_game("patiencemax-all-to-piles", number)
    for move in result.moves:
        game.play(move)
    assert game.is_won()
    lost = solve_state(new_game("patiencemax", 4).state, Budget(seconds=None, states=10_000))
    assert lost.outcome == "unsolvable"
    assert lost.states < 100  # (the compact search's positions: the generic one never ran)


def test_the_search_in_use_is_built_from_the_current_source() -> None:
    import patiencekit.solver as solver_mod

    assert_current_in_use(
        pure,
        "patiencemax_fast",
        solver_mod.PATIENCEMAX_BUILD,
        solver_mod.PatienceMaxSearch,
        PatienceMaxSearch,
        "patiencemax",
    )


def test_the_search_in_use_searches_as_the_pure_one() -> None:
    """The search solve() uses (compiled, after ``make``, with its run in C) and the pure
    one in Python: the same verdicts, positions and lines at 20,000 positions; and so
    the compiled one without the C run."""
    import patiencekit.solver as solver_mod

    for game_id in GAMES:
        for number in (1, 2, 4):
            state = new_game(game_id, number).state
            b = pure.PatienceMaxSearch(state, max_states=20_000, native=False)
            expected = (b.run(), b.nodes, b.runs, b.path)
            for native in (True, False):
                a = solver_mod.PatienceMaxSearch(state, max_states=20_000, native=native)
                assert (a.run(), a.nodes, a.runs, a.path) == expected, (game_id, number)


# -- the best-first run in C (patiencemax_native.c) ------------------------------------------

NATIVE = pure._NATIVE
needs_native = needs_native_of(NATIVE)


def test_the_c_run_is_built_from_the_current_source() -> None:
    """After ``make`` the C run is built from patiencemax_native.c as it is now and used;
    with PATIENCEKIT_PURE_PYTHON the Python run is."""
    used = PatienceMaxSearch(new_game("patiencemax", 1).state).native
    assert_native_current(pure, "patiencemax_native.c", "patiencemax_native", NATIVE, used)


@needs_native
def test_the_c_run_is_the_python_run() -> None:
    """The C run and the Python one (compiled, native=False): the same verdict, positions
    expanded, positions kept, depth, runs and line on deals 1-10 of both variants at 10,000
    positions, which end in all three ways."""
    import patiencekit.solver as solver_mod

    verdicts = set()
    for game_id in GAMES:
        for number in range(1, 11):
            state = new_game(game_id, number).state
            seen = []
            for native in (False, True):
                search = solver_mod.PatienceMaxSearch(state, max_states=10_000, native=native)
                verdict = search.run()
                seen.append((verdict, search.nodes, search.kept, search.max_depth,
                             search.runs, search.path))
            assert seen[0] == seen[1], (game_id, number)
            verdicts.add(seen[1][0])
    assert verdicts == {(True, None), (False, None), (None, "states")}


@needs_native
def test_the_c_runs_budget_check_is_called_back_and_its_errors_come_through() -> None:
    state = new_game("patiencemax", 3).state
    assert_native_check_contract(
        lambda states: pure.PatienceMaxSearch(state, max_states=states), 5_000
    )


@needs_native
def test_a_second_run_while_one_is_going_keeps_to_its_own_state() -> None:
    """Each C run keeps its state apart: a run started while one is going (here from the
    budget check, as another thread could while the check runs Python code) searches as
    it would alone, and the run it interrupted goes on as it would have."""
    inner: list[tuple[object, ...]] = []
    small = new_game("patiencemax-all-to-piles", 5).state
    expected = PatienceMaxSearch(small, max_states=5_000, native=False)
    expected_verdict = expected.run()
    outer_state = new_game("patiencemax", 3).state
    alone = pure.PatienceMaxSearch(outer_state, max_states=3_000)
    alone_verdict = alone.run()

    search = pure.PatienceMaxSearch(outer_state, max_states=3_000)
    original = search._native_check

    def check(nodes: int) -> str | None:
        if not inner:
            other = PatienceMaxSearch(small, max_states=5_000)
            inner.append((other.run(), other.nodes, other.path))
        return original(nodes)

    search._native_check = check  # type: ignore[method-assign]
    assert search.run() == alone_verdict == (None, "states")
    assert (search.nodes, search.kept, search.max_depth) == (
        alone.nodes, alone.kept, alone.max_depth
    )
    assert inner == [(expected_verdict, expected.nodes, expected.path)]


@pytest.mark.parametrize("native", [False, True])
def test_the_long_run_goes_on_where_it_stopped(native: bool) -> None:
    """A run that goes on in pieces (_Run.go, in C: start and resume) expands the same
    positions and ends the same way as in one piece (won, lost, or stopped at its end);
    it refuses to go on once over, and in C while it is going (from its own budget
    check)."""
    import patiencekit.solver as solver_mod

    if native and NATIVE is None:
        pytest.skip("PATIENCEKIT_PURE_PYTHON is set: only the Python run is used")
    module = solver_mod._PATIENCEMAX
    outcomes = set()
    for game_id, number, step in (
        ("patiencemax", 5, 125), ("patiencemax", 4, 4), ("patiencemax-all-to-piles", 10, 625),
        ("patiencemax", 2, 625),
    ):
        state = new_game(game_id, number).state
        ends = []
        for piece in (20_000, step):
            search = module.PatienceMaxSearch(state, native=native)
            run = module._Run(search, 3, 1, 2)
            end = 0
            while True:
                end += piece
                won = run.go(end)
                if won is not None or end >= 20_000:
                    break
            ends.append((won, search.nodes, search.kept, search.max_depth, search.path))
        assert ends[0] == ends[1], (game_id, number)
        outcomes.add(ends[0][0])
        assert run.over == (ends[0][0] is not None)  # (kings runs all to the piles read it)
        if ends[0][0] is not None:
            with pytest.raises(ValueError, match="this run is over"):
                run.go(40_000)
    assert outcomes == {True, False, None}
    if native:
        search = pure.PatienceMaxSearch(new_game("patiencemax", 3).state)
        run = pure._Run(search, 1, 0, 0)
        search._native_check = lambda nodes: run.go(nodes + 10)  # type: ignore[method-assign,assignment,return-value]
        with pytest.raises(RuntimeError, match="this run is going"):
            run.go(5_000)


def test_the_long_run_in_c_is_the_long_run_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """With rounds of 256 positions a run, the long run (LONG_RUN) goes on twice within
    20,000 positions (and makes a difference): the compiled search with its run in C,
    without it, and the pure one search the same (verdict, positions, kept, depth, runs,
    line) on deals 1-6 of both variants, which end in all three ways."""
    import patiencekit.solver as solver_mod

    compiled = solver_mod._PATIENCEMAX
    for module in {pure, compiled}:
        monkeypatch.setattr(module, "FIRST_RUN", 256)
    verdicts = set()
    results = []
    for game_id in GAMES:
        for number in range(1, 7):
            state = new_game(game_id, number).state
            seen = []
            for module, native in ((pure, False), (compiled, False), (compiled, True)):
                search = module.PatienceMaxSearch(state, max_states=20_000, native=native)
                verdict = search.run()
                seen.append((verdict, search.nodes, search.kept, search.max_depth,
                             search.runs, search.path))
            assert seen[0] == seen[1] == seen[2], (game_id, number)
            verdicts.add(seen[0][0])
            results.append(seen[0])
    assert verdicts == {(True, None), (False, None), (None, "states")}
    # and the long run made a difference to them
    monkeypatch.setattr(compiled, "LONG_ROOM", 0)
    without = []
    for game_id in GAMES:
        for number in range(1, 7):
            search = compiled.PatienceMaxSearch(new_game(game_id, number).state, max_states=20_000)
            verdict = search.run()
            without.append((verdict, search.nodes, search.kept, search.max_depth, search.runs,
                            search.path))
    assert without != results


@needs_native
def test_the_c_run_refuses_what_is_not_a_position() -> None:
    for root in (b"", b"\x00" * 7, bytes(8) + b"\x01" * 9 + b"\xff"):
        with pytest.raises(ValueError, match="not a PatienceMax position"):
            NATIVE.start(root, False, 4, 1, 1, 0)
    with pytest.raises(ValueError, match="not a PatienceMax position"):  # (a hand of 9)
        NATIVE.start(bytes(8), False, 9, 1, 1, 0)
    for kings in (-1, 3):  # (0 all to the piles, 1 the kings at the tops, 2 all but them)
        with pytest.raises(ValueError, match="not a PatienceMax position"):
            NATIVE.start(bytes(8) + b"\xff\x33", kings, 4, 1, 1, 0)
    # the run keeps positions in 6 bits a card and 4 a height: a card above 51, a height
    # above 15 or more than 255 bytes is refused, and the same position with a fitting
    # card is not
    NATIVE.start(bytes(8) + b"\xff\x33", False, 4, 1, 1, 0)
    for root in (bytes(8) + b"\xff\x34", bytes([16]) + bytes(7) + b"\xff\x00",
                 bytes(8) + (b"\xff" + bytes(15)) * 16):
        with pytest.raises(ValueError, match="not a PatienceMax position"):
            NATIVE.start(root, False, 4, 1, 1, 0)


# -- all to the piles by way of the kings at the column tops ---------------------------------

#: deals all to the piles that the search wins by way of the kings at the tops (deals of
#: 1-1,000 a 10 s study left undecided before the kings runs)
BY_THE_KINGS = (351, 383, 803)
#: deals with the kings at the tops that the search wins by way of every other card on the
#: foundations (deals of 1-1,000 a 10 s study left undecided before those runs)
BY_THE_FOUNDATIONS = (689, 885)


@pytest.mark.parametrize(
    ("game_id", "numbers"),
    [("patiencemax-all-to-piles", BY_THE_KINGS), ("patiencemax", BY_THE_FOUNDATIONS)],
)
def test_it_wins_by_way_of_a_position_on_the_way(game_id: str, numbers: tuple[int, ...]) -> None:
    """On deals the search left undecided before, a run that looks for a position on the
    way (all to the piles: the kings at the column tops; with the kings at the tops: every
    other card on the foundations) reaches it and the finishing search wins from there,
    within 60,000 positions; the line (that run's moves, then the finisher's, cut where
    the game is won) wins on the engine through the notation, its last move the winning
    one; without those runs the same budget does not win them."""
    import patiencekit.solver as solver_mod

    for number in numbers:
        state = new_game(game_id, number).state
        search = solver_mod.PatienceMaxSearch(state, max_states=60_000)
        assert search.run() == (True, None), number
        assert search.finisher is not None and search.prefix, number
        game = new_game(game_id, number)
        texts = search.move_texts()
        for i, move in enumerate(texts):
            assert not game.is_won(), (number, i, len(texts))
            game.play(move)
        assert game.is_won(), number
        alone = solver_mod.PatienceMaxSearch(state, max_states=60_000)
        alone.by_way = False
        assert alone.run()[0] is not True, number


@pytest.mark.parametrize(
    ("game_id", "number"),
    [("patiencemax-all-to-piles", BY_THE_KINGS[0]), ("patiencemax", BY_THE_FOUNDATIONS[0])],
)
def test_the_runs_on_the_way_are_the_same_in_c_and_python(game_id: str, number: int) -> None:
    """A win by way of a position on the way is the same search in pure Python, compiled
    and with the runs in C (verdict, positions, kept, depth, runs, line)."""
    import patiencekit.solver as solver_mod

    compiled = solver_mod._PATIENCEMAX
    state = new_game(game_id, number).state
    seen = []
    for module, native in ((pure, False), (compiled, False), (compiled, True)):
        search = module.PatienceMaxSearch(state, max_states=60_000, native=native)
        verdict = search.run()
        seen.append((verdict, search.nodes, search.kept, search.max_depth, search.runs,
                     search.path, search.finisher is not None))
    assert seen[0] == seen[1] == seen[2]
    assert seen[0][0] == (True, None) and seen[0][-1]


def test_runs_on_the_way_that_end_without_getting_there_prove_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When every run on the way (all to the piles: to the kings at the tops; with the
    kings at the tops: to every other card on the foundations) ends at once as if it had
    expanded every position it can reach without getting there (rounds of 256 positions
    a run, so that they get their turn), the search goes on as without
    them: the same verdict and line as with none, on won and lost deals; and on
    late positions with a king on a foundation (the kings can never all be at the tops)
    the verdict is the generic exact search's."""
    go = pure._Run.go
    ended = []

    def kings_end_at_once(run: pure._Run, end: int) -> bool | None:
        if run.search.waypoint:
            run.over = True
            ended.append(run)
            return False
        return go(run, end)

    def verdicts(numbers: range, by_way: bool) -> list[tuple[object, ...]]:
        out = []
        for game_id in GAMES:
            for number in numbers:
                search = pure.PatienceMaxSearch(
                    new_game(game_id, number).state, max_states=20_000
                )
                search.by_way = by_way
                out.append((search.run(), search.path))
        return out

    monkeypatch.setattr(pure, "FIRST_RUN", 256)
    alone = verdicts(range(1, 7), False)
    monkeypatch.setattr(pure._Run, "go", kings_end_at_once)
    assert verdicts(range(1, 7), True) == alone
    assert {run.search.kings_goal for run in ended} == {True, False}  # (both games' runs)
    assert {v for v, _ in alone} >= {(True, None), (False, None)}
    rng = random.Random("kings-gone")
    won = 0
    for number in range(1, 7):
        state = late_position("patiencemax-all-to-piles", number, rng, 4, (number % 8,))
        expected = generic_verdict(state, 10_000)
        search = pure.PatienceMaxSearch(state, max_states=20_000)
        assert search.run()[0] == expected, number
        won += expected is True
    assert won >= 3


def test_a_kings_run_whose_finisher_fails_stops_and_the_search_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the finishing search from the kings at the tops does not win, the kings run
    that got there is over (a run in C refuses to go on) and the search goes on with the
    others to its budget."""
    run = pure.PatienceMaxSearch.run
    finishers: list[pure.PatienceMaxSearch] = []

    def finisher_fails(search: pure.PatienceMaxSearch) -> tuple[bool | None, str | None]:
        if not search.kings and not search.by_way:  # (a finisher)
            finishers.append(search)
            return None, "states"
        return run(search)

    monkeypatch.setattr(pure.PatienceMaxSearch, "run", finisher_fails)
    search = pure.PatienceMaxSearch(
        new_game("patiencemax-all-to-piles", BY_THE_KINGS[0]).state, max_states=400_000
    )
    # (four kings runs get there, in several rounds: a run in C that went on after it
    # got there would raise ValueError)
    assert search.run() == (None, "states")
    assert len(finishers) >= 2 and search.finisher is None


def test_the_finishing_search_keeps_to_the_budget() -> None:
    """A search all to the piles stopped by its positions budget, kings runs and finishing
    searches included, expands at most a budget check's stride (1,024) past it."""
    import patiencekit.solver as solver_mod

    for number in (36, 43):
        search = solver_mod.PatienceMaxSearch(
            new_game("patiencemax-all-to-piles", number).state, max_states=30_000
        )
        assert search.run() == (None, "states")
        assert search.nodes <= 30_000 + 1024
