"""The Klondike search's shortcuts past played moves (issue 14): each must change no verdict.

- :meth:`KlondikeSearch.child_key` gives the key a move leads to without playing it, so
  that the search skips a move into a known position without the move and its undo. It
  must be exactly the key :meth:`KlondikeSearch.apply` makes: checked on every move of
  many positions (fresh deals, positions after seeded random moves, both draws), in the
  pure and the compiled search; a deliberately wrong variant is caught.
- Whole searches with and without it keep the same positions, in the same order.

Bounded by positions only (tests/solver_budgets.py), so the result is the same on any
machine.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from patiencekit import new_game
from patiencekit.solver import _KLONDIKE
from patiencekit.solver import klondike as pure

GAMES = ("klondike", "klondike-draw1")


def _check_moves(search: Any, moves: list[Any], kinds: set[int] | None = None) -> int:
    checked = 0
    for m in moves:
        if kinds is not None:
            kinds.add(m[0])
        before = search.hash
        key = search.child_key(m)
        info = search.apply(m)
        assert search.hash == key, m
        search.undo(m, info)
        assert search.hash == before, m
        checked += 1
    return checked


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("module", [pure, _KLONDIKE], ids=["pure", "compiled"])
def test_the_child_key_is_the_key_the_move_makes(module: Any, game_id: str) -> None:
    checked = 0
    kinds: set[int] = set()
    for number in range(1, 41):
        rng = random.Random(number * 31 + len(game_id))
        search = module.KlondikeSearch(new_game(game_id, number).state)
        for _ in range(60):
            search._auto()
            moves = search.moves()
            checked += _check_moves(search, moves, kinds)
            if not moves:
                break
            search.apply(rng.choice(moves))
    # every kind of move was met, many times
    assert checked > 2000
    assert kinds == {pure._TALON_TO_FOUNDATION, pure._TALON_TO_COLUMN, pure._COLUMN_TO_FOUNDATION,
                     pure._COLUMN_TO_COLUMN, pure._FOUNDATION_TO_COLUMN,
                     pure._SWAP_TO_FOUNDATION}


def test_a_wrong_child_key_is_caught() -> None:
    """A child key that forgets the card turned up (a plausible slip) fails the check."""

    class Wrong(pure.KlondikeSearch):
        def _reveal_key(self, col: int) -> int:
            return 0

    caught = False
    for number in range(1, 11):
        rng = random.Random(number)
        search = Wrong(new_game("klondike", number).state)
        for _ in range(60):
            search._auto()
            moves = search.moves()
            try:
                _check_moves(search, moves)
            except AssertionError:
                caught = True
                break
            if not moves:
                break
            search.apply(rng.choice(moves))
        if caught:
            break
    assert caught


class _Played(pure.KlondikeSearch):
    """The search as before :meth:`child_key`: every move played, then its key looked up."""

    def child_key(self, m: Any) -> int:
        info = self.apply(m)
        key = self.hash
        self.undo(m, info)
        return key


@pytest.mark.parametrize(("game_id", "number"), [("klondike", n) for n in (31, 45, 61, 66)]
                         + [("klondike-draw1", n) for n in (2, 73, 88)])
def test_skipping_known_positions_unplayed_changes_no_search(game_id: str, number: int) -> None:
    state = new_game(game_id, number).state
    runs = []
    for cls in (pure.KlondikeSearch, _Played):
        search = cls(state, max_states=30_000, max_memory_mb=None)
        verdict = search.run()
        runs.append((verdict, search.nodes, len(search.seen), tuple(search.path)))
    assert runs[0] == runs[1]
