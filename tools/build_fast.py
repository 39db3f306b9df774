"""Compile the position, the Klondike search, the dead-end analysis and the waste-only
search with mypyc (optional; each 2x or more faster).

Six modules are built, each from the very source of a pure-Python one and placed beside it:

* ``patiencekit.state_fast`` from ``patiencekit/state_pure.py`` (the position: its moves,
  push, pop, check and keys; ``patiencekit.state`` hands it out);
* ``patiencekit.solver.klondike_fast`` from ``patiencekit/solver/klondike.py`` (the Klondike
  search; ``patiencekit.solver`` uses it);
* ``patiencekit.solver.dead_ends_fast`` from ``patiencekit/solver/dead_ends.py`` (Patriarchs'
  family's dead ends; ``patiencekit.solver.generic`` uses it);
* ``patiencekit.solver.waste_only_fast`` from ``patiencekit/solver/waste_only.py`` (the
  exact search of Contradance and Captured Queens; ``patiencekit.solver`` uses it);
* ``patiencekit.solver.reserve_fast`` from ``patiencekit/solver/reserve.py`` (the compact
  beam of Odd and Even, Royal Cotillion and Picture Patience; ``patiencekit.solver`` uses
  it);
* ``patiencekit.solver.patiencemax_fast`` from ``patiencekit/solver/patiencemax.py`` (the
  compact search of PatienceMax; ``patiencekit.solver`` uses it).

The source a module was compiled from is named in the module itself: the build appends
``SOURCE_SHA256 = "<sha256 of the source>"`` to the copy it compiles. The loader
(:func:`patiencekit.compiled.compiled_or_pure`) uses the compiled module only when that
hash is the hash of the source as it is now, and otherwise warns and uses the pure-Python
module, so an edit never leaves old code running; ``make`` rebuilds the modules whenever
a source changes. ``PATIENCEKIT_PURE_PYTHON=1`` forces the pure-Python modules (the tests
also check it). A failed build leaves the pure path (that module's old build removed).

Three C extensions are built too: ``native``, ``patiencekit.solver.klondike_native`` from
``patiencekit/solver/klondike_native.c``, the Klondike search's depth-first search and its
key table; ``patiencemax_native``, ``patiencekit.solver.patiencemax_native`` from
``patiencekit/solver/patiencemax_native.c``, PatienceMax's best-first run; and
``reserve_native``, ``patiencekit.solver.reserve_native`` from
``patiencekit/solver/reserve_native.c``, the reserve games' pruned exact search
(``patiencekit.compiled.native_module`` loads them, with the same hash check; the
compiler and flags are Python's own, from ``sysconfig``).

    python tools/build_fast.py [--clean] [state|klondike|dead_ends|waste_only|reserve|
                                          patiencemax|native|patiencemax_native|
                                          reserve_native ...]
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "patiencekit"
#: the module constant that names the source a compiled module was built from
#: (``patiencekit.compiled.HASH_NAME``)
HASH_NAME = "SOURCE_SHA256"


class Target(NamedTuple):
    """One compiled module: its pure source and its name, both within the package."""

    #: the pure module's source, relative to the package (``state_pure.py``)
    source: str
    #: the compiled module's file name without ``.py`` (``state_fast``), beside the source
    fast: str

    @property
    def path(self) -> Path:
        return PACKAGE / self.source

    @property
    def folder(self) -> Path:
        return self.path.parent


TARGETS = {
    "state": Target("state_pure.py", "state_fast"),
    "klondike": Target("solver/klondike.py", "klondike_fast"),
    "dead_ends": Target("solver/dead_ends.py", "dead_ends_fast"),
    "waste_only": Target("solver/waste_only.py", "waste_only_fast"),
    "reserve": Target("solver/reserve.py", "reserve_fast"),
    "patiencemax": Target("solver/patiencemax.py", "patiencemax_fast"),
}
#: the Klondike search's source (as before the position was compiled too)
SOURCE = TARGETS["klondike"].path


def source_sha256(source: bytes) -> str:
    """The hash the loader compares: the sha256 of the source file's exact bytes."""
    return hashlib.sha256(source).hexdigest()


def compiled_source(source: bytes) -> bytes:
    """What is compiled: ``source`` (the pure module's bytes) with the constant that names
    its hash appended."""
    end = b"" if source.endswith(b"\n") else b"\n"
    return source + end + (
        b"\n\n#: the sha256 of the source this module was compiled from (tools/build_fast.py)\n"
        + f'{HASH_NAME} = "{source_sha256(source)}"\n'.encode()
    )


def clean(target: Target, dest: Path | None = None) -> None:
    for so in (dest or target.folder).glob(f"{target.fast}*.so"):
        so.unlink()


def build(target: Target = TARGETS["klondike"], dest: Path | None = None) -> int:
    """Compile ``target``'s source as it is now into ``dest`` (by default beside it)."""
    dest = dest or target.folder
    clean(target, dest)
    source = target.path.read_bytes()  # read once: the hash is of exactly what is compiled
    relative = Path("patiencekit") / target.source
    module = relative.with_name(f"{target.fast}.py")
    with tempfile.TemporaryDirectory(prefix="pk-mypyc-") as tmp:
        work = Path(tmp)
        shutil.copytree(PACKAGE, work / "patiencekit",
                        ignore=shutil.ignore_patterns("*.so", "__pycache__", "static"))
        (work / module).write_bytes(compiled_source(source))
        proc = subprocess.run(
            [sys.executable, "-m", "mypyc", str(module)],
            cwd=work, capture_output=True, text=True,
        )
        if proc.returncode != 0:
            print(proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
            return proc.returncode
        built = list((work / module.parent).glob(f"{target.fast}*.so"))
        dest.mkdir(parents=True, exist_ok=True)
        for so in built:
            shutil.copy(so, dest / so.name)
    print(f"built {', '.join(so.name for so in built)} "
          f"from {target.source} (sha256 {source_sha256(source)[:12]})")
    return 0


#: the C extension (not mypyc): the Klondike search's depth-first search
NATIVE = Target("solver/klondike_native.c", "klondike_native")
#: the C extensions by name: the Klondike one, PatienceMax's best-first run and the reserve
#: games' exact search
NATIVES = {
    "native": NATIVE,
    "patiencemax_native": Target("solver/patiencemax_native.c", "patiencemax_native"),
    "reserve_native": Target("solver/reserve_native.c", "reserve_native"),
}


def build_native(
    target: Target = NATIVE, dest: Path | None = None, source: bytes | None = None
) -> int:
    """Compile the C file ``target.source`` (or the C text ``source``: another version
    of it) into the extension module ``target.fast`` beside it (or in ``dest``), with
    the C compiler and flags Python itself was built with (``sysconfig``) and the
    file's sha256 as the module's ``SOURCE_SHA256``."""
    import sysconfig

    dest = dest or target.folder
    clean(target, dest)
    if source is None:
        source = target.path.read_bytes()
    digest = source_sha256(source)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    cflags = (sysconfig.get_config_var("CFLAGS") or "").split()
    ldshared = (sysconfig.get_config_var("LDSHARED") or "cc -shared").split()
    with tempfile.TemporaryDirectory(prefix="pk-native-") as tmp:
        work = Path(tmp)
        c_file = work / f"{target.fast}.c"
        c_file.write_bytes(source)  # exactly the bytes hashed
        obj = work / f"{target.fast}.o"
        so = work / f"{target.fast}{suffix}"
        steps = [
            [*cc, *cflags, "-O2", "-fPIC", "-Wall", "-Wno-unused-parameter",
             f'-DPK_SOURCE_SHA256="{digest}"',
             f"-I{sysconfig.get_paths()['include']}", "-c", str(c_file), "-o", str(obj)],
            [*ldshared, str(obj), "-o", str(so)],
        ]
        for step in steps:
            proc = subprocess.run(step, capture_output=True, text=True)
            if proc.returncode != 0:
                print(" ".join(step), proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
                return proc.returncode
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy(so, dest / so.name)
    print(f"built {so.name} from {target.source} (sha256 {digest[:12]})")
    return 0


def main(argv: list[str]) -> int:
    every = {**TARGETS, **NATIVES}
    names = [a for a in argv if not a.startswith("-")] or list(every)
    unknown = sorted(set(names) - set(every))
    if unknown:
        print(f"unknown module {', '.join(unknown)}: one of {', '.join(every)}",
              file=sys.stderr)
        return 2
    if "--clean" in argv:
        for name in names:
            clean(every[name])
        return 0
    # every module is tried; the first failure is the exit status
    failed = [rc for rc in (build_native(every[name]) if name in NATIVES
                            else build(every[name]) for name in names) if rc]
    return failed[0] if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
