"""The Klondike search's phases: the greedy best-first passes find wins that replay, never
claim a deal unsolvable, and the exhaustive phase after them still proves lost deals lost;
the talon move cost the greedy passes use is the engine's count of draws.

No search here has a time budget: the phases are cut by positions (``first_dfs_nodes``),
so that the same phases run on any machine (with ``max_seconds`` each phase also has a
share of the time, which a slow or busy machine uses up sooner)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from patiencekit import new_game
from patiencekit.solver import COMPILED
from patiencekit.solver import klondike as pure
from patiencekit.state import DRAW, TURN

VERDICTS = json.loads((Path(__file__).parent / "data" / "solver_verdicts.json").read_text())


def _replays(game_id: str, number: int, search: pure.KlondikeSearch) -> bool:
    state = new_game(game_id, number).state
    game = new_game(game_id, number)
    for move in search.move_texts(state):
        game.play(move)
    return game.is_won()


@pytest.mark.parametrize(("game_id", "number"), [("klondike", 1), ("klondike-draw1", 2)])
def test_a_greedy_pass_finds_a_win_that_replays(game_id: str, number: int) -> None:
    search = pure.KlondikeSearch(new_game(game_id, number).state)
    assert search.greedy(20_000, 1, 4) is True
    assert search.path and _replays(game_id, number, search)


@pytest.mark.parametrize("number", [7, 10, 23])
def test_a_greedy_pass_on_a_lost_deal_gives_up_without_a_line(number: int) -> None:
    search = pure.KlondikeSearch(new_game("klondike", number).state)
    assert search.greedy(5_000, 0, 0) is False
    assert search.nodes > 0


def test_the_exhaustive_phase_after_the_greedy_passes_still_proves_a_lost_deal() -> None:
    # draw 3 #31 needs about 1,600 positions: with a first phase of 100 positions it is
    # decided only by the exhaustive phase, after the greedy passes failed on it
    state = new_game("klondike", 31).state
    search = pure.KlondikeSearch(state, first_dfs_nodes=100,
                                 greedy_passes=((1, 4),))
    won, limit = search.run()
    assert (won, limit) == (False, None)
    assert search.phase == "exhaustive"
    plain = pure.KlondikeSearch(state, first_dfs_nodes=-1)
    assert plain.run() == (False, None) and plain.phase == "dfs"
    # the two phases searched the same positions as the plain search, each once: the
    # last phase kept the first one's finished positions
    assert search.seen == plain.seen


@pytest.mark.parametrize(("game_id", "number"), [("klondike", 31), ("klondike", 61),
                                               ("klondike", 66), ("klondike-draw1", 73)])
def test_stopping_the_first_phase_anywhere_never_loses_the_verdict(
    game_id: str, number: int
) -> None:
    """The last phase keeps the positions the first one finished: wherever the first phase
    stops, the verdict is the plain search's, and each position is searched once."""
    state = new_game(game_id, number).state
    plain = pure.KlondikeSearch(state, first_dfs_nodes=-1)
    verdict = plain.run()
    assert verdict == (False, None)
    stops = 0
    for cap in range(0, plain.nodes, 1024):
        search = pure.KlondikeSearch(state, first_dfs_nodes=cap,
                                     greedy_passes=())
        assert search.run() == verdict, cap
        if search.phase == "exhaustive":
            stops += 1
            # no position of the first phase was searched twice, beyond its last line
            assert search.nodes <= plain.nodes + 2 * search.max_depth
    assert stops >= 1


def test_a_deal_the_first_phase_leaves_open_is_solved_by_a_later_phase() -> None:
    # draw 3 #6: about 7,400 positions for the plain depth-first search, about 1,000 for
    # the narrowest greedy pass
    state = new_game("klondike", 6).state
    search = pure.KlondikeSearch(state, first_dfs_nodes=0,
                                 greedy_passes=((1, 4),))
    assert search.run() == (True, None)
    assert search.phase == "greedy"
    assert _replays("klondike", 6, search)
    # with no greedy pass, the exhaustive phase finds it
    search = pure.KlondikeSearch(state, first_dfs_nodes=0, greedy_passes=())
    assert search.run() == (True, None)
    assert search.phase == "exhaustive"
    assert _replays("klondike", 6, search)


@pytest.mark.parametrize("draw_game", ["klondike", "klondike-draw1"])
def test_the_talon_move_cost_is_the_engines_count_of_draws_and_turns(draw_game: str) -> None:
    rng = random.Random(3)
    for number in (1, 5, 9):
        state = new_game(draw_game, number).state
        # some draws first, so that part of the talon is already on the waste
        for _ in range(rng.randrange(0, 9)):
            state.push(DRAW if state.piles[state.t.stock] else TURN)
        search = pure.KlondikeSearch(state)
        for idx in search.reachable():
            card = search.talon[idx]
            s = state.copy()
            draws = 0
            while not (s.piles[s.t.waste] and s.piles[s.t.waste][-1] == card):
                s.push(DRAW if s.piles[s.t.stock] else TURN)
                draws += 1
            assert search._draws(idx) == draws, (number, idx)


def test_the_compiled_search_uses_the_same_phases() -> None:
    from patiencekit.solver import _KLONDIKE

    runs = set()
    for module in (pure, _KLONDIKE):
        state = new_game("klondike", 6).state
        search = module.KlondikeSearch(state, first_dfs_nodes=0,
                                       greedy_passes=((1, 4),))
        runs.add((search.run(), search.phase, search.nodes, tuple(search.path)))
    assert len(runs) == 1
    assert next(iter(runs))[:2] == ((True, None), "greedy")


@pytest.mark.skipif(not COMPILED, reason="needs the compiled search (tools/build_fast.py)")
def test_draw3_87_is_solved_by_the_narrowest_greedy_pass() -> None:
    """Draw 3 #87 (solved by Klondike-Solver's fast mode) takes the plain
    depth-first search some 2.1 M positions (1.3 M kept); the first greedy pass solves it in
    about 46,000.
    Bounded by positions, not time, so that a busy machine cannot make it fail."""
    from patiencekit.solver import _KLONDIKE

    state = new_game("klondike", 87).state
    search = _KLONDIKE.KlondikeSearch(state)
    two_shift, three_shift = pure.GREEDY_PASSES[0]
    assert search.greedy(pure.GREEDY_CLOSED, two_shift, three_shift) is True
    assert _replays("klondike", 87, search)


def test_reachable_talon_positions_are_exactly_those_the_stock_can_bring_up() -> None:
    """Brute force: draw and turn over (unlimited) from every talon size and waste count,
    and collect every talon position that comes to the waste's top. A missed position is
    a card the search never plays (draw 3 #132 and #176 were called unsolvable that way)."""
    from patiencekit.solver.klondike import reachable_positions

    for draw in (1, 3):
        for n in range(0, 30):
            for p in range(0, n + 1):
                seen: set[int] = set()
                waste = p  # cards on the waste: talon positions 0..waste-1
                for _ in range(3 * (n + 1)):  # enough draws for three whole passes
                    if waste > 0:
                        seen.add(waste - 1)
                    # a whole waste is turned over, else draw
                    waste = 0 if waste == n else min(n, waste + draw)
                assert sorted(reachable_positions(n, p, draw)) == sorted(seen), (draw, n, p)
