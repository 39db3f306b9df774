"""A position, its legal moves, and unchecked apply/undo: the fast path.

This is the layer a solver searches. A position is a list of piles, each a
list of card indexes (``suit * 13 + rank``) bottom to top, plus the number of
face-down cards at the bottom of each pile, the redeals used and the score.
A move is a plain tuple ``(source, destination, count)`` of pile positions
in :attr:`Tables.labels` order, or :data:`DRAW` / :data:`TURN`.

``push`` applies a move without checking it and ``pop`` takes the last one
back exactly; ``moves()`` lists the legal moves and ``check(move)`` says which
rule a move breaks (a :class:`Refusal`), both from the same compiled rules
(:class:`Tables`), so that a move is refused exactly when it is not listed.
:class:`patiencekit.game.Game` is the checked, friendly layer over this one.

The moves and refusals (:data:`EngineMove`, :data:`DRAW`, :data:`TURN`, :class:`Why`,
:class:`Refusal`) are defined in :mod:`patiencekit.moves`; the position (:class:`Tables`,
:func:`tables_for`, :class:`State`) in pure Python in :mod:`patiencekit.state_pure`, the
reference. ``tools/build_fast.py`` (run by ``make``) compiles that file with mypyc into
``patiencekit.state_fast``, which this module hands out instead when it was built from
``state_pure.py`` as it is now (:func:`patiencekit.compiled.compiled_or_pure`; else a
warning and the pure classes) and ``PATIENCEKIT_PURE_PYTHON`` is not set. Only the classes
chosen here are used in a process: import them from here, never from ``state_pure`` or
``state_fast``. :data:`COMPILED` says which runs.

>>> from patiencekit.games import get_rules
>>> s = State.deal(get_rules("klondike-draw1"), 24)
>>> len(s.moves()) > 0
True
>>> key = s.key(); s.push(DRAW); s.key() == key
False
>>> s.pop()
(-1, -1, 0)
>>> s.key() == key
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patiencekit import state_pure as _pure
from patiencekit.compiled import HASH_NAME, compiled_or_pure
from patiencekit.moves import DRAW, TURN, EngineMove, Refusal, Why

__all__ = [
    "COMPILED",
    "DRAW",
    "STATE_BUILD",
    "TURN",
    "EngineMove",
    "Refusal",
    "State",
    "Tables",
    "Why",
    "tables_for",
]

_IMPL = compiled_or_pure("patiencekit.state_fast", _pure, "position (state_pure)")
#: True when the compiled position (``patiencekit.state_fast``) is in use
COMPILED: bool = _IMPL is not _pure
#: which position runs: the sha256 of the source the compiled module was built from (that
#: of ``state_pure.py``), or ``"pure"``
STATE_BUILD: str = str(getattr(_IMPL, HASH_NAME)) if COMPILED else "pure"

if TYPE_CHECKING:  # the compiled classes are the same code: type-check against the source
    from patiencekit.state_pure import State, Tables, tables_for
else:
    State = _IMPL.State
    Tables = _IMPL.Tables
    tables_for = _IMPL.tables_for
