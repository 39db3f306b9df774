"""The checks each compiled solver module's tests share: after ``make`` (which builds
before it tests), a compiled module beside its pure source is built from that source as it
is now and is the one in use; without one (or with ``PATIENCEKIT_PURE_PYTHON``), the pure
module runs. The same for the C extensions, and their budget check's contract."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from patiencekit.compiled import source_sha256


def assert_current_in_use(
    pure: ModuleType, fast: str, build: str, used: object, pure_used: object, target: str
) -> None:
    """``pure``: the pure module; ``fast``: its compiled module's name (``dead_ends_fast``);
    ``build``: the source hash the solver reports for what it uses (or ``"pure"``);
    ``used`` / ``pure_used``: the class in use and the pure module's class; ``target``:
    ``tools/build_fast.py``'s name for it."""
    built = list(Path(str(pure.__file__)).parent.glob(f"{fast}*.so"))
    if built and not os.environ.get("PATIENCEKIT_PURE_PYTHON"):
        assert source_sha256(pure) == build, (
            f"{built[0].name} is stale: run make (tools/build_fast.py {target})"
        )
        assert used is not pure_used
    else:
        assert build == "pure" and used is pure_used


# -- the C extensions (tools/build_fast.py's NATIVES) ----------------------------------------


def needs_native(native: object) -> pytest.MarkDecorator:
    """Skip a test of a C search when PATIENCEKIT_PURE_PYTHON left it out (never when it
    was merely not built: the test then fails, as a missing build should)."""
    return pytest.mark.skipif(
        native is None and bool(os.environ.get("PATIENCEKIT_PURE_PYTHON")),
        reason="PATIENCEKIT_PURE_PYTHON is set: only the Python search is used",
    )


def assert_native_current(
    pure: ModuleType, c_file: str, target: str, native: object, used: object
) -> None:
    """After ``make`` the C extension ``native`` (``pure._NATIVE``) is built from the C file
    ``c_file`` beside ``pure`` as it is now (``pure.NATIVE_BUILD`` names its hash) and is the
    one a new search uses (``used``); with PATIENCEKIT_PURE_PYTHON the Python one is."""
    if os.environ.get("PATIENCEKIT_PURE_PYTHON"):
        assert native is None and pure.NATIVE_BUILD == "python"
        return
    source = Path(str(pure.__file__)).with_name(c_file)
    assert native is not None, f"not built: run make (tools/build_fast.py {target})"
    assert hashlib.sha256(source.read_bytes()).hexdigest() == pure.NATIVE_BUILD
    assert used is native


def assert_native_check_contract(make: Callable[[int | None], Any], states: int) -> None:
    """A C search's budget check: called back every 1,024 positions, a limit it names stops
    the search with that limit, and an error in it comes through. ``make(max_states)``
    builds a search (with ``_native_check`` and ``run``) that runs past ``states``."""
    calls: list[int] = []
    search = make(states)
    original = search._native_check

    def check(nodes: int) -> str | None:
        calls.append(nodes)
        result: str | None = original(nodes)
        return result

    search._native_check = check
    assert search.run() == (None, "states")
    first_past = (states // 1024 + 1) * 1024
    assert calls and all(n % 1024 == 0 for n in calls) and search.nodes == first_past
    search = make(None)
    search._native_check = lambda nodes: "time"
    assert search.run() == (None, "time") and search.nodes == 1024
    search = make(None)

    def broken(nodes: int) -> str | None:
        raise ZeroDivisionError("broken check")

    search._native_check = broken
    with pytest.raises(ZeroDivisionError, match="broken check"):
        search.run()
