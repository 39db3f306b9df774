"""The budgets of a search: wall time, positions kept, memory.

The memory budget caps the process's resident memory *now* (:func:`resident_kb`), not
its lifetime peak: a process that once held a big search (a web server answering hints,
a study's worker, a test runner) can search again with the same budget.

>>> limits = Limits(max_states=10)
>>> limits.check(5)
>>> limits.check(11)
Traceback (most recent call last):
...
patiencekit.solver.limits.SearchLimit: states
"""

from __future__ import annotations

import os
import resource
import time

__all__ = ["LIMIT_MEMORY", "LIMIT_STATES", "LIMIT_TIME", "Limits", "SearchLimit", "resident_kb"]

LIMIT_TIME = "time"
LIMIT_STATES = "states"
LIMIT_MEMORY = "memory"


_STATM = "/proc/self/statm"
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4


def resident_kb() -> int:
    """The process's resident memory now, in KiB: from ``/proc/self/statm`` (Linux);
    where there is no such file, the peak the OS reports (``ru_maxrss``), which only
    grows.

    >>> 0 < resident_kb() <= resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    True
    """
    try:
        with open(_STATM, "rb") as f:
            return int(f.read().split()[1]) * _PAGE_KB
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class SearchLimit(Exception):
    """A budget ran out during the search; ``which`` names it."""

    def __init__(self, which: str) -> None:
        super().__init__(which)
        self.which = which


class Limits:
    """Checks a search's budgets; ``check`` raises :class:`SearchLimit`."""

    def __init__(
        self,
        *,
        max_seconds: float | None = None,
        max_states: int | None = None,
        max_memory_mb: int | None = None,
    ) -> None:
        self.deadline = time.perf_counter() + max_seconds if max_seconds is not None else None
        self.max_states = max_states
        self.max_memory_kb = max_memory_mb * 1024 if max_memory_mb is not None else None

    def reached(self, states: int) -> str | None:
        """The name of the budget run out (time is up, ``states`` is over the cap, or the
        process's resident memory, :func:`resident_kb`, is over its cap), else None: the
        answer the C searches' budget callbacks give.

        >>> Limits(max_states=10).reached(11)
        'states'
        >>> Limits(max_seconds=60).reached(10**9) is None
        True
        """
        if self.deadline is not None and time.perf_counter() > self.deadline:
            return LIMIT_TIME
        if self.max_states is not None and states > self.max_states:
            return LIMIT_STATES
        if self.max_memory_kb is not None and resident_kb() > self.max_memory_kb:
            return LIMIT_MEMORY
        return None

    def check(self, states: int) -> None:
        """Raise :class:`SearchLimit` naming the budget run out (:meth:`reached`)."""
        which = self.reached(states)
        if which is not None:
            raise SearchLimit(which)
