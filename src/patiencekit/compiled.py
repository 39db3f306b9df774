"""A pure-Python module or its mypyc-compiled copy, whichever may run.

``tools/build_fast.py`` compiles two modules with mypyc, each from the very source of a
pure-Python one: the position (``patiencekit.state_pure`` into ``patiencekit.state_fast``)
and the Klondike search (``patiencekit.solver.klondike`` into
``patiencekit.solver.klondike_fast``). The build appends ``SOURCE_SHA256 = "<sha256 of
the source>"`` to the copy it compiles; :func:`compiled_or_pure` hands out the compiled
module only when that hash is the hash of the pure module's file as it is now, and
otherwise warns and hands out the pure one, so an edit never leaves old code running.
``PATIENCEKIT_PURE_PYTHON=1`` (any non-empty value) forces the pure modules. The compiled
modules are an optional speed-up of a build: nothing here needs mypyc to run.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import warnings
from types import ModuleType

__all__ = ["HASH_NAME", "PURE_ENV", "compiled_or_pure", "native_module", "source_sha256"]

#: the module constant that names the source a compiled module was built from
HASH_NAME = "SOURCE_SHA256"
#: the environment variable that forces the pure-Python modules
PURE_ENV = "PATIENCEKIT_PURE_PYTHON"


def _file_sha256(path: str) -> str | None:
    """The sha256 of the file at ``path`` as it is now, or None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except OSError:
        return None


def source_sha256(module: ModuleType) -> str | None:
    """The sha256 of ``module``'s source file as it is now, or None when it cannot be read."""
    return _file_sha256(str(module.__file__))


def _built(name: str) -> ModuleType | None:
    """The built module ``name``, or None when :data:`PURE_ENV` is set or it was never
    built."""
    if os.environ.get(PURE_ENV):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _current(fast: ModuleType, source: str, what: str, stacklevel: int) -> bool:
    """Whether ``fast`` names the hash of ``source`` (a path) as it is now; if not, a
    :class:`RuntimeWarning` says that the pure-Python ``what`` is used (``stacklevel`` as
    :func:`warnings.warn` counts it from the caller of the public loader)."""
    if getattr(fast, HASH_NAME, None) == _file_sha256(source) is not None:
        return True
    warnings.warn(
        f"{fast.__name__} was not compiled from {source} as it is now (edited since?): "
        f"the pure-Python {what} is used; rebuild the compiled one with `make venv` or "
        "`python tools/build_fast.py`",
        RuntimeWarning,
        stacklevel=stacklevel + 2,
    )
    return False


def compiled_or_pure(name: str, pure: ModuleType, what: str, *, stacklevel: int = 1) -> ModuleType:
    """The compiled module ``name`` if it was built from ``pure``'s source as it is now and
    :data:`PURE_ENV` is not set; else ``pure``. A compiled module built from another source
    (or naming none) is refused with a :class:`RuntimeWarning` that says the pure-Python
    ``what`` is used; one that was never built is no news and passes without a word. The
    warning names the line that called this one (``stacklevel=1``) or, as
    :func:`warnings.warn` counts, one further out."""
    fast = _built(name)
    if fast is None or not _current(fast, str(pure.__file__), what, stacklevel):
        return pure
    return fast


def native_module(name: str, source: str, what: str, *, stacklevel: int = 1) -> ModuleType | None:
    """The C extension ``name`` if it was built from the C file ``source`` (a file name,
    beside the built module) as it is now and :data:`PURE_ENV` is not set; else None (the
    caller's Python code runs). ``tools/build_fast.py native`` compiles the file with its
    sha256 as the module's ``SOURCE_SHA256``; a module built from another source (or with
    no source beside it) is refused with a :class:`RuntimeWarning`, one never built passes
    without a word."""
    fast = _built(name)
    if fast is None:
        return None
    path = os.path.join(os.path.dirname(str(fast.__file__)), source)
    return fast if _current(fast, path, what, stacklevel) else None
