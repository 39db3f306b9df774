"""The compiled Klondike search runs only when it was built from ``klondike.py`` as it is now.

``tools/build_fast.py`` compiles ``klondike.py`` with the constant ``SOURCE_SHA256`` (the
sha256 of the exact source compiled) appended; the solver's loader compares it with the
hash of ``klondike.py`` now and refuses, with a warning, a module built from another
source. These tests need no compiler: the module the build would compile is imported as
plain Python (the same code, with the same constant) under a name of its own. The one
test that really compiles takes minutes and runs only with ``PATIENCEKIT_TEST_MYPYC=1``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

from patiencekit import solver
from patiencekit.solver import klondike as pure
from patiencekit.solver.study import solver_fingerprint

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(pure.__file__).read_bytes()
SOURCE_SHA256 = hashlib.sha256(SOURCE).hexdigest()


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
        name = f"pk_klondike_fast_test_{len(names)}"
        (tmp_path / f"{name}.py").write_bytes(
            text if text is not None else BUILD.compiled_source(source)
        )
        importlib.invalidate_caches()
        names.append(name)
        return name

    yield write
    for name in names:
        sys.modules.pop(name, None)


def test_the_build_compiles_the_file_the_loader_hashes_and_names_its_hash(as_built) -> None:
    assert BUILD.SOURCE.resolve() == Path(pure.__file__).resolve()
    compiled = BUILD.compiled_source(SOURCE)
    assert compiled.startswith(SOURCE)
    module = importlib.import_module(as_built(SOURCE))
    assert module.SOURCE_SHA256 == SOURCE_SHA256
    # another source, another hash
    assert BUILD.compiled_source(SOURCE + b"# edited\n") != compiled


def test_a_module_built_from_the_current_source_is_used(as_built) -> None:
    name = as_built(SOURCE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chosen = solver._klondike_module(name)
    assert chosen is sys.modules[name]
    assert chosen is not pure
    assert chosen.KlondikeSearch is not pure.KlondikeSearch


def test_a_module_built_from_another_source_is_refused_with_a_warning(as_built) -> None:
    name = as_built(SOURCE + b"\n# an edit made after the build\n")
    with pytest.warns(RuntimeWarning, match=r"not compiled from .*klondike\.py as it is now"):
        chosen = solver._klondike_module(name)
    assert chosen is pure


def test_a_module_that_names_no_source_is_refused(as_built) -> None:
    """As built before the hash was embedded: it cannot be told fresh, so it is not used."""
    name = as_built(SOURCE, text=SOURCE)
    with pytest.warns(RuntimeWarning, match="pure-Python Klondike search is used"):
        chosen = solver._klondike_module(name)
    assert chosen is pure


def test_no_compiled_module_means_the_pure_search_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert solver._klondike_module("pk_klondike_fast_never_built") is pure


def test_patiencekit_pure_python_forces_the_pure_search(
    as_built, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = as_built(SOURCE)
    monkeypatch.setenv("PATIENCEKIT_PURE_PYTHON", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert solver._klondike_module(name) is pure
    # and in a new process, whatever is built
    env = {**os.environ, "PATIENCEKIT_PURE_PYTHON": "1"}
    code = "import patiencekit.solver as s; print(s.COMPILED, s.KLONDIKE_BUILD)"
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert proc.stdout.split() == ["False", "pure"]


def test_the_search_in_use_is_built_from_the_current_source() -> None:
    """After ``make`` (which builds before it tests), a compiled module beside the source is
    the current one and is in use; without one, the pure search runs."""
    built = list(Path(pure.__file__).parent.glob("klondike_fast*.so"))
    if built and not os.environ.get("PATIENCEKIT_PURE_PYTHON"):
        assert solver.COMPILED, f"{built[0].name} is stale: run make (tools/build_fast.py)"
    if solver.COMPILED:
        assert solver._KLONDIKE.SOURCE_SHA256 == SOURCE_SHA256
        assert solver.KLONDIKE_BUILD == SOURCE_SHA256
    else:
        assert solver._KLONDIKE is pure
        assert solver.KLONDIKE_BUILD == "pure"


def test_the_fingerprint_tells_which_search_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "KLONDIKE_BUILD", "pure")
    pure_print = solver_fingerprint()
    assert solver_fingerprint() == pure_print
    monkeypatch.setattr(solver, "KLONDIKE_BUILD", SOURCE_SHA256)
    assert solver_fingerprint() != pure_print


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_rebuilds_the_compiled_search_when_its_source_changes() -> None:
    """``make -n -W klondike.py test``: what make would run were klondike.py just edited."""
    # not the flags of a make that runs this suite (make test)
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    proc = subprocess.run(
        ["make", "-n", "-W", "src/patiencekit/solver/klondike.py", "test"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )
    lines = proc.stdout.splitlines()
    build = [i for i, line in enumerate(lines) if "tools/build_fast.py" in line]
    tests = [i for i, line in enumerate(lines) if "-m pytest" in line]
    assert build and tests and build[0] < tests[0], proc.stdout


def test_every_built_module_is_ignored_by_git() -> None:
    """Each module tools/build_fast.py builds (mypyc and C) lands beside its source as a
    ``.so`` that .gitignore names, so a ``git add -A`` never commits a build (one did, in
    stop 43: the C module added then had no line)."""
    ignored = set((ROOT / ".gitignore").read_text(encoding="utf-8").splitlines())
    targets = {**BUILD.TARGETS, **BUILD.NATIVES}
    assert len(targets) >= 9
    for target in targets.values():
        folder = Path("src/patiencekit") / target.source
        line = f"{folder.parent.as_posix()}/{target.fast}*.so"
        assert line in ignored, f".gitignore lacks {line}"
