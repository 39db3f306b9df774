"""The Klondike search's depth-first search in C (``solver/klondike_native.c``, issue 14).

It must be the Python search (:meth:`KlondikeSearch.search`) move for move: on fresh deals,
mid-game positions, searches cut by a positions budget or by a first phase that stops
part-way, and hint searches with forbidden positions, the two enter the same number of
positions, keep the same keys, reach the same depth and find the same line; and its key
table (``KeySet``) is a set of keys. Bad input is refused with an error that names it.

Bounded by positions only, so the result is the same on any machine. The tests need the
C module built (``make`` builds it before it tests); with ``PATIENCEKIT_PURE_PYTHON`` set
only the Python search runs and they say so.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from patiencekit import new_game
from patiencekit.compiled import native_module
from patiencekit.solver import _KLONDIKE
from patiencekit.solver import klondike as pure
from patiencekit.solver.limits import SearchLimit
from test_solver_klondike_ab import random_labels

SOURCE = Path(pure.__file__).with_name("klondike_native.c")
NATIVE = pure._NATIVE

needs_native = pytest.mark.skipif(
    NATIVE is None and bool(os.environ.get("PATIENCEKIT_PURE_PYTHON")),
    reason="PATIENCEKIT_PURE_PYTHON is set: only the Python search runs",
)


@pytest.fixture(autouse=True)
def _built() -> None:
    if NATIVE is None and not os.environ.get("PATIENCEKIT_PURE_PYTHON"):
        pytest.fail("the C search is not built: run make (python tools/build_fast.py native)")


def _both(state: Any, **kw: Any) -> list[tuple[Any, ...]]:
    """The same search, Python and C: what each reports."""
    out = []
    for native in (False, True):
        search = _KLONDIKE.KlondikeSearch(state, native=native, **kw)
        verdict = search.run()
        out.append((verdict, search.phase, search.nodes, len(search.seen), search.max_depth,
                    tuple(search.path) if verdict[0] else ()))
    return out


@needs_native
@pytest.mark.parametrize("game_id", ["klondike", "klondike-draw1"])
def test_the_c_search_is_the_python_search_on_fresh_deals(game_id: str) -> None:
    verdicts = set()
    for number in range(1, 41):
        state = new_game(game_id, number).state
        python, c = _both(state, max_states=20_000)
        assert python == c, (game_id, number)
        verdicts.add(c[0])
    # the deals cover every outcome: solved, proved lost, stopped by the budget
    assert verdicts == {(True, None), (False, None), (None, "states")}


@needs_native
@pytest.mark.parametrize("game_id", ["klondike", "klondike-draw1"])
def test_the_c_search_is_the_python_search_in_mid_game(game_id: str) -> None:
    for number in range(1, 31):
        game = new_game(game_id, number)
        for label in random_labels(game_id, number):
            game.play(label)
        python, c = _both(game.state, max_states=10_000)
        assert python == c, (game_id, number)


@needs_native
@pytest.mark.parametrize(("game_id", "number"), [("klondike", 31), ("klondike", 61),
                                               ("klondike-draw1", 73)])
def test_a_first_phase_stopped_anywhere_leaves_the_same_line(game_id: str, number: int) -> None:
    """The first phase stops at a positions cap; its line is dropped from the table and the
    last phase runs with the draw-position dominance kept off that line (``old_line``):
    the C search must hand back the same line and use it the same way."""
    state = new_game(game_id, number).state
    for cap in (0, 100, 700, 1500):
        python, c = _both(state, first_dfs_nodes=cap, greedy_passes=())
        assert python == c, cap


@needs_native
def test_the_c_search_never_enters_a_forbidden_position() -> None:
    """A hint's search forbids the game's history: both searches avoid the same positions
    (and the dominance is off, as it is in Python)."""
    for number in (3, 8, 12):
        game = new_game("klondike", number)
        history = [game.state.copy()]
        for label in random_labels("klondike", number)[:12]:
            game.play(label)
            history.append(game.state.copy())
        runs = []
        for native in (False, True):
            search = _KLONDIKE.KlondikeSearch(game.state, native=native, max_states=5_000)
            search.forbid(history[:-1])
            verdict = search.run()
            runs.append((verdict, search.nodes, len(search.seen),
                         tuple(search.path) if verdict[0] else ()))
        assert runs[0] == runs[1], number
        assert search.dead and all(k in search.seen for k in search.dead)


@needs_native
def test_the_c_search_keeps_the_same_keys() -> None:
    state = new_game("klondike", 31).state  # proved lost in about 1,600 positions
    tables = []
    for native in (False, True):
        search = _KLONDIKE.KlondikeSearch(state, native=native)
        assert search.run() == (False, None)
        tables.append(set(search.seen))
    assert tables[0] == tables[1] and len(tables[0]) > 1000


@needs_native
def test_a_won_line_from_the_c_search_replays_to_a_win() -> None:
    for game_id, number in (("klondike", 1), ("klondike-draw1", 2), ("klondike", 6)):
        state = new_game(game_id, number).state
        search = _KLONDIKE.KlondikeSearch(state, first_dfs_nodes=-1, max_states=200_000)
        assert search.run() == (True, None)
        game = new_game(game_id, number)
        for move in search.move_texts(state):
            game.play(move)
        assert game.is_won()


@needs_native
def test_the_budget_check_is_called_back_and_its_errors_come_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (the Python class: the compiled one's methods cannot be replaced)
    state = new_game("klondike", 31).state
    calls: list[tuple[int, int]] = []
    search = pure.KlondikeSearch(state, native=True)
    original = search._native_check

    def check(nodes: int, kept: int) -> str | None:
        calls.append((nodes, kept))
        return original(nodes, kept)

    search._native_check = check  # type: ignore[method-assign]
    assert search.run() == (False, None)
    assert calls and all(n % 1024 == 0 for n, _ in calls)
    # a limit named by the check stops the search with that limit
    search = pure.KlondikeSearch(state, native=True)
    search._native_check = lambda nodes, kept: "time"  # type: ignore[method-assign]
    assert search.run() == (None, "time")
    assert search.line, "the line being searched comes back"
    # an error in the check is raised, not swallowed
    search = pure.KlondikeSearch(state, native=True)

    def broken(nodes: int, kept: int) -> str | None:
        raise ZeroDivisionError("broken check")

    search._native_check = broken  # type: ignore[method-assign]
    with pytest.raises(ZeroDivisionError, match="broken check"):
        search._dfs()
    with pytest.raises(SearchLimit):
        _KLONDIKE.KlondikeSearch(state, native=True, max_states=10)._dfs()


@needs_native
def test_the_c_deadlock_test_is_the_python_one() -> None:
    """``blocked`` on many face-down layouts: every deal's, and random ones where few cards
    are face down (so that both answers occur)."""
    rng = random.Random(7)
    answers = set()
    layouts = [new_game("klondike", n).state for n in range(1, 200)]
    for state in layouts:
        search = _KLONDIKE.KlondikeSearch(state, native=False)
        for trial in range(4):
            if trial:
                # deeper columns of face-down cards than a deal's, often deadlocked
                cards = rng.sample(range(52), 49)
                search.hidden = [cards[7 * i: 7 * i + rng.randrange(3, 8)] for i in range(7)]
            python = search.blocked()
            search.native = NATIVE
            c = search.blocked()
            search.native = None
            assert python == c, search.hidden
            answers.add(c)
    assert answers == {True, False}
    with pytest.raises(ValueError, match="face down twice"):
        NATIVE.blocked([[1], [1], [], [], [], [], []])


@needs_native
def test_the_key_table_is_a_set_of_keys() -> None:
    rng = random.Random(14)
    table = NATIVE.KeySet()
    model: set[int] = set()
    added: list[int] = []
    for step in range(60_000):  # past several growths, with tombstones
        k = rng.getrandbits(62) if rng.random() < 0.7 else rng.choice([0, 1, 2**62 - 1, 5])
        if rng.random() < 0.2 and added:
            k = rng.choice(added[-50:])
            table.discard(k)
            model.discard(k)
        else:
            table.add(k)
            model.add(k)
            added.append(k)
        if step % 5000 == 0:
            assert len(table) == len(model)
    assert len(table) == len(model)
    assert table == model and table.to_set() == model and set(table) == model
    assert all(k in table for k in list(model)[:1000])
    assert -1 not in table and 2**70 not in table and "x" not in table
    assert NATIVE.KeySet([1, 2, 3]) == {1, 2, 3} != NATIVE.KeySet([1, 2])
    assert table.nbytes() >= 8 * len(table)


@needs_native
def test_bad_input_to_the_c_module_is_refused_by_name() -> None:
    table = NATIVE.KeySet()
    with pytest.raises(TypeError, match="must be an int"):
        table.add("1")
    with pytest.raises(OverflowError):
        table.add(-1)
    with pytest.raises(ValueError, match="out of range"):
        table.add(2**64 - 1)
    with pytest.raises(TypeError, match="must be an int"):
        NATIVE.KeySet([1, None])
    state = new_game("klondike", 1).state
    search = _KLONDIKE.KlondikeSearch(state, native=True)
    args = [search.hidden, search.up, search.found, search.talon, search.p, search.draw,
            search.loc, search.hash, search.seen, None, True, 0, 1023, search._native_check]
    for where, value, error, words in [
        (0, [[60], [], [], [], [], [], []], ValueError, "face-down cards holds 60"),
        (5, 4, ValueError, "draw 4"),
        (8, set(), TypeError, "KeySets"),
        (4, 99, ValueError, "draw position 99"),
    ]:
        bad = list(args)
        bad[where] = value
        with pytest.raises(error, match=words):
            NATIVE.dfs(*bad)
    # nothing was searched or kept by the refused calls
    assert len(search.seen) == 0
    assert NATIVE.dfs(*args)[0] is True


def test_the_talon_keys_are_the_python_searchs() -> None:
    if NATIVE is None:
        pytest.skip("PATIENCEKIT_PURE_PYTHON is set")
    for draw in (1, 2, 3):
        for n in (0, 1, 5, 24, 52):
            assert NATIVE.talon_keys(draw, n) == pure._reach_row(n, draw)


def test_the_c_module_in_use_is_built_from_the_current_source() -> None:
    if NATIVE is None:
        assert pure.NATIVE_BUILD == "python"
        return
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    assert NATIVE.SOURCE_SHA256 == digest == pure.NATIVE_BUILD


def test_a_c_module_built_from_another_source_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loader hashes the C file beside the built module: a copy of the module with an
    edited source beside it is refused, with a warning; one never built is no news."""
    if NATIVE is None:
        pytest.skip("PATIENCEKIT_PURE_PYTHON is set")
    so = Path(NATIVE.__file__)
    shutil.copy(so, tmp_path / so.name)
    (tmp_path / "klondike_native.c").write_bytes(SOURCE.read_bytes() + b"/* edited */\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "klondike_native", raising=False)
    with pytest.warns(RuntimeWarning, match="not compiled from"):
        assert native_module("klondike_native", "klondike_native.c", "x") is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert native_module("pk_never_built", "klondike_native.c", "x") is None
        assert native_module("patiencekit.solver.klondike_native", "klondike_native.c",
                             "x") is NATIVE


def test_patiencekit_pure_python_turns_the_c_search_off() -> None:
    env = {**os.environ, "PATIENCEKIT_PURE_PYTHON": "1"}
    code = "from patiencekit.solver import klondike as k; print(k.NATIVE_BUILD)"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    assert proc.stdout.split() == ["python"]
