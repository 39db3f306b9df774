"""Compile the Klondike solver with mypyc (optional; about 2x faster).

The compiled module is ``patiencekit.solver.klondike_fast``, built from the very
source of ``patiencekit/solver/klondike.py`` and placed beside it. The source it was
compiled from is named in the module itself: the build appends
``SOURCE_SHA256 = "<sha256 of klondike.py>"`` to the copy it compiles. The solver
(``patiencekit.solver``) uses the compiled module only when that hash is the hash of
``klondike.py`` as it is now, and otherwise warns and uses the pure-Python search, so
an edit of ``klondike.py`` never leaves the old search running; ``make`` rebuilds the
module whenever ``klondike.py`` changes. ``PATIENCEKIT_PURE_PYTHON=1`` forces the
pure-Python path (the tests also check it). A failed build leaves the pure path.

    python tools/build_fast.py [--clean]
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "src" / "patiencekit" / "solver"
SOURCE = SOLVER / "klondike.py"
#: the module constant that names the source a compiled module was built from
HASH_NAME = "SOURCE_SHA256"


def source_sha256(source: bytes) -> str:
    """The hash the solver compares: the sha256 of the source file's exact bytes."""
    return hashlib.sha256(source).hexdigest()


def compiled_source(source: bytes) -> bytes:
    """What is compiled: ``source`` (``klondike.py``'s bytes) with the constant that names
    its hash appended."""
    end = b"" if source.endswith(b"\n") else b"\n"
    return source + end + (
        b"\n\n#: the sha256 of the source this module was compiled from (tools/build_fast.py)\n"
        + f'{HASH_NAME} = "{source_sha256(source)}"\n'.encode()
    )


def clean(dest: Path = SOLVER) -> None:
    for so in dest.glob("klondike_fast*.so"):
        so.unlink()


def build(dest: Path = SOLVER) -> int:
    """Compile ``klondike.py`` as it is now into ``dest`` (by default beside it)."""
    clean(dest)
    source = SOURCE.read_bytes()  # read once: the hash is of exactly what is compiled
    with tempfile.TemporaryDirectory(prefix="pk-mypyc-") as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "src" / "patiencekit", work / "patiencekit",
                        ignore=shutil.ignore_patterns("*.so", "__pycache__", "static"))
        (work / "patiencekit" / "solver" / "klondike_fast.py").write_bytes(
            compiled_source(source)
        )
        proc = subprocess.run(
            [sys.executable, "-m", "mypyc", "patiencekit/solver/klondike_fast.py"],
            cwd=work, capture_output=True, text=True,
        )
        if proc.returncode != 0:
            print(proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
            return proc.returncode
        built = list((work / "patiencekit" / "solver").glob("klondike_fast*.so"))
        dest.mkdir(parents=True, exist_ok=True)
        for so in built:
            shutil.copy(so, dest / so.name)
    print(f"built {', '.join(so.name for so in built)} "
          f"from klondike.py (sha256 {source_sha256(source)[:12]})")
    return 0


if __name__ == "__main__":
    if "--clean" in sys.argv:
        clean()
        raise SystemExit(0)
    raise SystemExit(build())
