"""The compiled position: used only when current, forced off on request, and the same as
the pure-Python one.

``tools/build_fast.py`` compiles ``patiencekit/state_pure.py`` (the position: ``Tables``,
``tables_for``, ``State``) with mypyc into ``patiencekit.state_fast``, with the constant
``SOURCE_SHA256`` (the sha256 of the exact source compiled) appended; ``patiencekit.state``
hands out the compiled classes only when that hash is the hash of ``state_pure.py`` now
(:func:`patiencekit.compiled.compiled_or_pure`), and ``PATIENCEKIT_PURE_PYTHON=1`` forces
the pure ones. The loader's tests need no compiler: what the build would compile is
imported as plain Python under a name of its own. The agreement tests play the same random
games on the pure and the compiled ``State`` and compare everything either says; without a
build (``make venv``) they are skipped.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import pickle
import random
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

from patiencekit import GAMES, new_game, state
from patiencekit import moves as engine_moves
from patiencekit import state_pure as pure
from patiencekit.compiled import compiled_or_pure
from patiencekit.solver.study import solver_fingerprint

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(pure.__file__).read_bytes()
SOURCE_SHA256 = hashlib.sha256(SOURCE).hexdigest()
GAME_IDS = list(GAMES)


def _build_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_fast", ROOT / "tools" / "build_fast.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BUILD = _build_tool()


@pytest.fixture
def as_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Write what the build compiles from a given source as a plain module; its name. (The
    loader is tested as it runs without PATIENCEKIT_PURE_PYTHON, whatever the suite's.)"""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("PATIENCEKIT_PURE_PYTHON", raising=False)
    names: list[str] = []

    def write(source: bytes, text: bytes | None = None) -> str:
        name = f"pk_state_fast_test_{len(names)}"
        (tmp_path / f"{name}.py").write_bytes(
            text if text is not None else BUILD.compiled_source(source)
        )
        importlib.invalidate_caches()
        names.append(name)
        return name

    yield write
    for name in names:
        sys.modules.pop(name, None)


def choose(name: str) -> ModuleType:
    return compiled_or_pure(name, pure, "position (state_pure)")


# -- the loader ---------------------------------------------------------------------------


def test_the_build_compiles_the_file_the_loader_hashes_and_names_its_hash(as_built) -> None:
    target = BUILD.TARGETS["state"]
    assert target.path.resolve() == Path(pure.__file__).resolve()
    assert target.fast == "state_fast"
    compiled = BUILD.compiled_source(SOURCE)
    assert compiled.startswith(SOURCE)
    module = importlib.import_module(as_built(SOURCE))
    assert module.SOURCE_SHA256 == SOURCE_SHA256
    assert BUILD.compiled_source(SOURCE + b"# edited\n") != compiled


def test_a_module_built_from_the_current_source_is_used(as_built) -> None:
    name = as_built(SOURCE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chosen = choose(name)
    assert chosen is sys.modules[name]
    assert chosen.State is not pure.State


def test_a_module_built_from_another_source_is_refused_with_a_warning(as_built) -> None:
    name = as_built(SOURCE + b"\n# an edit made after the build\n")
    with pytest.warns(RuntimeWarning, match=r"not compiled from .*state_pure\.py as it is now"):
        chosen = choose(name)
    assert chosen is pure


def test_a_module_that_names_no_source_is_refused(as_built) -> None:
    name = as_built(SOURCE, text=SOURCE)
    with pytest.warns(RuntimeWarning, match=r"pure-Python position \(state_pure\) is used"):
        assert choose(name) is pure


def test_no_compiled_module_means_the_pure_position_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert choose("pk_state_fast_never_built") is pure


def test_patiencekit_pure_python_forces_the_pure_position(
    as_built, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = as_built(SOURCE)
    monkeypatch.setenv("PATIENCEKIT_PURE_PYTHON", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert choose(name) is pure
    # and in a new process, whatever is built: the engine's game runs on the pure classes
    env = {**os.environ, "PATIENCEKIT_PURE_PYTHON": "1"}
    code = (
        "import patiencekit as p, patiencekit.state as s\n"
        "g = p.new_game('klondike', 1)\n"
        "print(s.COMPILED, s.STATE_BUILD, type(g.state).__module__, type(g.tables).__module__)"
    )
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        env=env, capture_output=True, text=True, check=True,
    )
    assert proc.stdout.split() == [
        "False", "pure", "patiencekit.state_pure", "patiencekit.state_pure"
    ]


def test_the_position_in_use_is_built_from_the_current_source() -> None:
    """After ``make`` (which builds before it tests), a compiled module beside the source is
    the current one and is in use; without one, the pure position runs."""
    built = list(Path(pure.__file__).parent.glob("state_fast*.so"))
    if built and not os.environ.get("PATIENCEKIT_PURE_PYTHON"):
        assert state.COMPILED, f"{built[0].name} is stale: run make (tools/build_fast.py)"
    if state.COMPILED:
        assert state._IMPL.SOURCE_SHA256 == SOURCE_SHA256
        assert state.STATE_BUILD == SOURCE_SHA256
        assert state.State.__module__ == "patiencekit.state_fast"
    else:
        assert state._IMPL is pure
        assert state.STATE_BUILD == "pure"
        assert state.State is pure.State


def test_the_fingerprint_tells_which_position_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state, "STATE_BUILD", "pure")
    pure_print = solver_fingerprint()
    monkeypatch.setattr(state, "STATE_BUILD", SOURCE_SHA256)
    assert solver_fingerprint() != pure_print


@pytest.mark.parametrize("game_id", ["klondike", "senior-wrangler", "royal-cotillion"])
def test_one_set_of_classes_runs_in_a_process(game_id: str) -> None:
    """The engine, its refusals and a pickled game all use the classes ``state`` chose, and
    the moves and refusals are the shared ones of ``patiencekit.moves``."""
    game = new_game(game_id, 3)
    assert type(game.state) is state.State
    assert type(game.tables) is state.Tables
    assert state.tables_for(game.rules) is game.tables
    assert state.Refusal is engine_moves.Refusal and state.Why is engine_moves.Why
    assert state.DRAW is engine_moves.DRAW and state.TURN is engine_moves.TURN
    refusal = game.state.check((0, 0, 1))
    assert type(refusal) is engine_moves.Refusal and refusal.code is state.Why.SAME_PILE
    game.play(next(iter(game.legal_moves)))
    again = pickle.loads(pickle.dumps(game))
    assert type(again.state) is state.State and again.state.t is game.tables
    assert again.state == game.state and again.state.history() == game.state.history()


# -- the compiled position is the pure one --------------------------------------------------

needs_build = pytest.mark.skipif(
    not state.COMPILED, reason="needs the compiled position (make venv / tools/build_fast.py)"
)
#: deals per game, and the most moves of each random game
DEALS = (1, 2, 7, 24, 31_999, 10**12 + 5)
STEPS = 250


def _moves_to_check(rng: random.Random, piles: int) -> list[tuple[int, int, int]]:
    """A few moves of any kind, legal or not, for ``check``."""
    out = [engine_moves.DRAW, engine_moves.TURN]
    for _ in range(6):
        out.append((rng.randrange(piles), rng.randrange(piles), rng.randrange(1, 5)))
    return out


def _same(a: pure.State, b: state.State, where: str) -> None:
    assert a.key() == b.key(), where
    assert a.piles == b.piles and a.down == b.down, where
    assert (a.redeals, a.score, a.redeals_left()) == (b.redeals, b.score, b.redeals_left()), where
    assert a.history() == b.history() and a.last() == b.last(), where
    assert a.history_length == b.history_length, where
    assert a.is_won() == b.is_won(), where
    assert a.foundation_wants() == b.foundation_wants(), where
    assert list(a.pile_texts()) == list(b.pile_texts()), where
    assert repr(a) == repr(b), where
    # the packed key, with half the piles fixed and the rest in two groups of interchangeable piles
    n = len(a.piles)
    fixed = list(range(n // 2))
    groups = [list(range(n // 2, 3 * n // 4)), list(range(3 * n // 4, n))]
    assert a.packed(fixed, groups) == b.packed(fixed, groups), where


@needs_build
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pure_and_compiled_positions_agree_over_random_games(game_id: str) -> None:
    """The same random games (fixed seeds) on both: the same moves in the same order, the
    same refusals of any move, the same keys, scores and texts after every push, and every
    pop takes back the same move to the same position."""
    rules = GAMES[game_id]
    pure_tables = pure.tables_for(rules)
    fast_tables = state.tables_for(rules)
    assert type(fast_tables) is not type(pure_tables)
    for name in ("labels", "kinds", "parents", "children", "empty_takes", "f_next", "leave",
                 "route_early", "route_late", "single_sources", "pair_delta"):
        assert getattr(pure_tables, name) == getattr(fast_tables, name), name
    for number in DEALS:
        rng = random.Random(number)
        a = pure.State.deal(rules, number)
        b = state.State.deal(rules, number)
        dealt = a.key()
        for step in range(STEPS):
            where = f"{game_id} #{number} after {a.history()}"
            _same(a, b, where)
            legal = a.moves()
            assert legal == b.moves(), where
            for move in [*legal, *_moves_to_check(rng, pure_tables.pile_count)]:
                assert a.check(move) == b.check(move), (where, move)
            if not legal or a.is_won():
                break
            move = legal[rng.randrange(len(legal))]
            a.push(move)
            b.push(move)
            if step % 50 == 0:  # a copy, and a pickled position, go on alike
                assert a.copy().key() == b.copy().key(), where
                assert pickle.loads(pickle.dumps(b)).history() == a.history(), where
        while a.history_length:
            assert a.pop() == b.pop()
            _same(a, b, f"{game_id} #{number} undone to {a.history()}")
        assert b.key() == dealt


@needs_build
def test_a_compiled_position_equals_only_its_own_kind() -> None:
    """Positions of the two classes never meet in the engine (one set of classes runs); were
    they compared, they would differ rather than raise."""
    rules = GAMES["klondike"]
    a = pure.State.deal(rules, 5)
    b = state.State.deal(rules, 5)
    assert b == b.copy() and hash(b) == hash(b.copy())
    assert a != b and b != a


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_rebuilds_the_compiled_position_when_its_source_changes() -> None:
    """``make -n -W state_pure.py test``: what make would run were the position just edited."""
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    proc = subprocess.run(
        ["make", "-n", "-W", "src/patiencekit/state_pure.py", "test"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )
    lines = proc.stdout.splitlines()
    build = [i for i, line in enumerate(lines) if "tools/build_fast.py" in line]
    tests = [i for i, line in enumerate(lines) if "-m pytest" in line]
    assert build and tests and build[0] < tests[0], proc.stdout
