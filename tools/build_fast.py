"""Compile the Klondike solver with mypyc (optional; about 2x faster).

The compiled module is ``patiencekit.solver.klondike_fast``, built from the very
source of ``patiencekit/solver/klondike.py`` and placed beside it; the solver uses
it when present (``PATIENCEKIT_PURE_PYTHON=1`` forces the pure-Python path, which
the tests also check). Run by ``make venv``; a failed build leaves the pure path.

    python tools/build_fast.py [--clean]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "src" / "patiencekit" / "solver"


def clean() -> None:
    for so in SOLVER.glob("klondike_fast*.so"):
        so.unlink()


def build() -> int:
    clean()
    with tempfile.TemporaryDirectory(prefix="pk-mypyc-") as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "src" / "patiencekit", work / "patiencekit",
                        ignore=shutil.ignore_patterns("*.so", "__pycache__", "static"))
        src = work / "patiencekit" / "solver" / "klondike_fast.py"
        shutil.copy(SOLVER / "klondike.py", src)
        proc = subprocess.run(
            [sys.executable, "-m", "mypyc", "patiencekit/solver/klondike_fast.py"],
            cwd=work, capture_output=True, text=True,
        )
        if proc.returncode != 0:
            print(proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
            return proc.returncode
        built = list((work / "patiencekit" / "solver").glob("klondike_fast*.so"))
        for so in built:
            shutil.copy(so, SOLVER / so.name)
    print(f"built {', '.join(so.name for so in built)}")
    return 0


if __name__ == "__main__":
    if "--clean" in sys.argv:
        clean()
        raise SystemExit(0)
    raise SystemExit(build())
