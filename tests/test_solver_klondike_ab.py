"""A/B: the Klondike search against the verdicts of the search it replaced (issue 14).

``tests/data/klondike_ab.json`` holds, per game, positions on which the search before
issue 14 (git f90e1c3: a position's key told which card each card lay on, strings moved
in part, no talon filter, a narrower safe-move rule) was decided within 20,000 positions,
with its verdict and the positions it kept (``bench/klondike_ab.py`` made them): under
``deals``, deals 7,000,000 on (made at 200,000 positions); under ``midgame``, deals 1-250
after 10-59 seeded random moves (:func:`random_labels`, as ``--midgame``; made at 50,000),
where strings lie on either of two cards, which fresh deals rarely give. The search of
today must give the same verdict on each within the budget here, and its wins must
replay. Bounded by positions only (tests/solver_budgets.py), so the result is the same
on any machine.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from patiencekit import Game, new_game
from patiencekit.solver import _KLONDIKE

AB = json.loads((Path(__file__).parent / "data" / "klondike_ab.json").read_text())
#: positions each may keep: the old search needed at most 20,000 on each of them (the new
#: one fewer, but for a different move order it might need more on a solvable one)
AB_STATES = 40_000


def random_labels(game_id: str, number: int) -> list[str]:
    """bench/klondike_ab.py's mid-game moves: 10-59 seeded random legal moves, half of them
    (where there is one) between columns."""
    rng = random.Random(number * 7919)
    game = new_game(game_id, number)
    labels: list[str] = []
    for _ in range(rng.randrange(10, 60)):
        state = game.state
        moves = state.moves()
        if not moves:
            break
        t = state.t
        between = [m for m in moves if m[0] in t.columns and m[1] in t.columns]
        move = rng.choice(between) if between and rng.random() < 0.5 else rng.choice(moves)
        labels.append(t.label_of(move))
        game.play(labels[-1])
    return labels


def _check(game_id: str, number: int, before: list[str], verdict: str) -> None:
    def start() -> Game:
        game = new_game(game_id, number)
        for text in before:
            game.play(text)
        return game

    state = start().state.copy()
    search = _KLONDIKE.KlondikeSearch(state, max_states=AB_STATES, max_memory_mb=None)
    won, limit = search.run()
    assert limit is None, (game_id, number, len(search.seen))
    assert ("solved" if won else "unsolvable") == verdict
    if won:
        game = start()
        for move in search.move_texts(state):
            game.play(move)
        assert game.is_won()


@pytest.mark.parametrize(
    ("game_id", "number", "verdict"),
    [(g, n, v) for g, deals in AB["deals"].items() for n, v, _ in deals],
)
def test_the_search_gives_the_old_searchs_verdict(game_id: str, number: int, verdict: str) -> None:
    _check(game_id, number, [], verdict)


@pytest.mark.parametrize(
    ("game_id", "number", "verdict"),
    [(g, n, v) for g, deals in AB["midgame"].items() for n, v, _ in deals],
)
def test_the_search_gives_the_old_searchs_verdict_in_mid_game(
    game_id: str, number: int, verdict: str
) -> None:
    _check(game_id, number, random_labels(game_id, number), verdict)
