"""The Klondike search's shortcuts and its draw-position dominance (issue 14): none may change
a verdict.

- :meth:`KlondikeSearch.child_key` gives the key a move leads to without playing it, so
  that the search skips a move into a known position without the move and its undo. It
  must be exactly the key :meth:`KlondikeSearch.apply` makes: checked on every move of
  many positions (fresh deals, positions after seeded random moves, both draws), in the
  pure and the compiled search; a deliberately wrong variant is caught.
- Whole searches with and without it keep the same positions, in the same order.
- The draw-position dominance (:meth:`KlondikeSearch._dominated`) cuts a position when the
  same position with an earlier draw position of the same pass rhythm (neither at a turn
  the next pass meets) is in the table. Its premise is checked on many positions: the
  earlier draw position has every move of the later one, each leading to the same
  position or to the same pair again (alike but for those draw positions); the premise
  fails for pairs the dominance must not take (another rhythm, or a "pure" draw
  position), which is what a careless variant would cut on. And whole searches with and
  without it agree on every verdict both reach (fresh deals and mid-game positions),
  the dominance never keeping more positions on a deal proved lost.

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
from test_solver_klondike_ab import random_labels

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


# -- the draw-position dominance ------------------------------------------------------


def _outcomes(search: Any, p: int) -> dict[Any, tuple[int, int, int]] | None:
    """With the draw position set to ``p``: each move's (key, talon size, draw position)
    after it and its safe moves, or None when the safe moves at ``p`` itself play any."""
    search.p = p
    search._rehash()
    pending = search._auto()
    if pending:
        for am, ai in reversed(pending):
            search.undo(am, ai)
        return None
    out = {}
    for m in search.moves():
        info = search.apply(m)
        autos = search._auto()
        out[m] = (search.hash, len(search.talon), search.p)
        for am, ai in reversed(autos):
            search.undo(am, ai)
        search.undo(m, info)
    return out


def _premise(search: Any, p: int, q: int) -> bool:
    """Does the position with draw position ``q`` have every move of the one with ``p``,
    each leading to the same position, or to positions alike but for the draw positions
    ``q`` and ``p`` again?"""
    later = _outcomes(search, p)
    earlier = _outcomes(search, q)
    if later is None or earlier is None:
        return later is None and earlier is None
    rows = search.reach_keys
    for m, (key, n, at) in later.items():
        if m not in earlier:
            return False
        key_q, n_q, at_q = earlier[m]
        if m[0] <= pure._TALON_TO_COLUMN:
            if (key_q, n_q, at_q) != (key, n, at):
                return False
        elif (n_q, at_q, at) != (n, q, p) or key_q ^ rows[n][q] != key ^ rows[n][p]:
            return False
    return True


def _premise_pairs(sound: bool) -> tuple[int, int]:
    """Check the premise on pairs of draw positions of mid-game draw-3 positions: the pairs
    the dominance takes (``sound``) or pairs it must not take (another rhythm, or a pure
    earlier position). Returns (pairs checked, pairs where the premise fails)."""
    checked = failed = 0
    for number in range(1, 31):
        rng = random.Random(number)
        search = pure.KlondikeSearch(new_game("klondike", number).state)
        for step in range(40):
            search._auto()
            moves = search.moves()
            if not moves:
                break
            search.apply(rng.choice(moves))
            n = len(search.talon)
            if step % 4 or n < 5:
                continue
            p0 = search.p
            for p in range(1, n):
                if p % 3 == 0:
                    continue
                qs = ([q for q in range(p - 3, 0, -3)] if sound
                      else [q for q in range(0, p) if q % 3 != p % 3 or q % 3 == 0])
                for q in qs:
                    checked += 1
                    failed += not _premise(search, p, q)
            search.p = p0
            search._rehash()
    return checked, failed


def test_the_earlier_draw_position_has_every_move_of_the_later_one() -> None:
    checked, failed = _premise_pairs(sound=True)
    assert checked > 1000
    assert failed == 0


def test_the_premise_fails_for_pairs_the_dominance_must_not_take() -> None:
    """A dominance that took any earlier draw position (a careless variant) would rest on
    a premise that is false for many positions: the check catches it."""
    checked, failed = _premise_pairs(sound=False)
    assert checked > 1000
    assert failed > checked // 20


def _verdicts(game_id: str, number: int, before: list[str], states: int) -> list[Any]:
    out = []
    for dominance in (True, False):
        game = new_game(game_id, number)
        for text in before:
            game.play(text)
        state = game.state.copy()
        search = _KLONDIKE.KlondikeSearch(state, max_states=states, max_memory_mb=None)
        search.draw_dominance = dominance
        won, limit = search.run()
        if won:
            replay = new_game(game_id, number)
            for text in before + search.move_texts(state):
                replay.play(text)
            assert replay.is_won()
        out.append((won, limit, len(search.seen)))
    return out


def test_searches_with_and_without_the_dominance_agree() -> None:
    """Draw 3 deals 1-150, and 60 mid-game positions (after 10-59 seeded random moves, as
    bench/klondike_ab.py --midgame), each searched with and without the dominance within
    20,000 positions: the same verdict wherever both decide, and on a deal proved lost
    never more positions kept with it (it only cuts)."""
    both = fewer = 0
    cases = [(n, []) for n in range(1, 151)]
    cases += [(n, random_labels("klondike", n)) for n in range(1, 61)]
    for number, before in cases:
        (won, limit, seen), (won0, limit0, seen0) = _verdicts("klondike", number, before,
                                                              20_000)
        if limit is None and limit0 is None:
            both += 1
            assert won == won0, (number, before)
            if won is False:
                assert seen <= seen0, number
                fewer += seen < seen0
    assert both > 150
    assert fewer > 5
