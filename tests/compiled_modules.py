"""The check each mypyc-compiled solver module's tests share: after ``make`` (which builds
before it tests), a compiled module beside its pure source is built from that source as it
is now and is the one in use; without one (or with ``PATIENCEKIT_PURE_PYTHON``), the pure
module runs."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

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
