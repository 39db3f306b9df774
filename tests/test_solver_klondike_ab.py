"""A/B: the Klondike search against the verdicts of the search it replaced (issue 14).

``tests/data/klondike_ab.json`` holds, per game, deals 7,000,000 on that the search before
issue 14 (git f90e1c3: a position's key told which card each card lay on, strings moved
in part, no talon filter, a narrower safe-move rule) decided within 20,000 positions, with
its verdict and the positions it kept (``bench/klondike_ab.py`` made them at 200,000).
The search of today must give the same verdict on each within the budget here, and its
wins must replay. Bounded by positions only (tests/solver_budgets.py), so the result is
the same on any machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patiencekit import new_game
from patiencekit.solver import _KLONDIKE

AB = json.loads((Path(__file__).parent / "data" / "klondike_ab.json").read_text())
#: positions each deal may keep: the old search needed at most 20,000 on each of them
#: (the new one far fewer, see the data)
AB_STATES = 40_000


@pytest.mark.parametrize(
    ("game_id", "number", "verdict"),
    [(g, n, v) for g, deals in AB["deals"].items() for n, v, _ in deals],
)
def test_the_search_gives_the_old_searchs_verdict(game_id: str, number: int, verdict: str) -> None:
    state = new_game(game_id, number).state
    search = _KLONDIKE.KlondikeSearch(state, max_states=AB_STATES, max_memory_mb=None)
    won, limit = search.run()
    assert limit is None, (game_id, number, len(search.seen))
    assert ("solved" if won else "unsolvable") == verdict
    if won:
        game = new_game(game_id, number)
        for move in search.move_texts(state):
            game.play(move)
        assert game.is_won()
