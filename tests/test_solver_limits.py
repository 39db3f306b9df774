"""The search budgets (solver/limits.py): the memory cap reads the resident memory now."""

from __future__ import annotations

import os
import resource

import pytest

from patiencekit.solver import Budget, solve
from patiencekit.solver.limits import LIMIT_MEMORY, Limits, SearchLimit, resident_kb

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/self/statm"), reason="needs Linux's /proc"
)

MIB = 1024


def _peak_then_free(mib: int) -> None:
    """Make the process hold ``mib`` MiB more for a moment (every page touched)."""
    block = bytearray(mib * 1024 * 1024)
    block[:: 4096] = b"\x01" * (len(block) // 4096)
    del block


def test_the_memory_cap_reads_the_memory_held_now_not_the_peak() -> None:
    """After the process held 300 MiB more and gave them back, a cap between what it holds
    now and its peak does not stop a search: the peak (``ru_maxrss``, which only grows)
    is over the cap, the memory held now is not. A cap under what it holds now still
    stops it, naming the memory."""
    _peak_then_free(300)
    now_mib = resident_kb() // MIB
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // MIB
    cap = now_mib + 100
    assert peak_mib > cap, (now_mib, peak_mib)  # else this test tests nothing
    Limits(max_memory_mb=cap).check(0)
    with pytest.raises(SearchLimit) as e:
        Limits(max_memory_mb=max(1, now_mib - 1)).check(0)
    assert e.value.which == LIMIT_MEMORY


def test_a_search_after_a_big_one_still_has_its_memory_budget() -> None:
    """solve() with a memory budget above what the process holds now but below its
    earlier peak gives a verdict (before: ``limit`` at once, the way a pytest worker that
    had run a big test failed four solver tests of a clean-clone run)."""
    _peak_then_free(300)
    cap = resident_kb() // MIB + 150
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // MIB > cap
    result = solve("odd-and-even", 1, budget=Budget(seconds=None, states=100_000, memory_mb=cap))
    assert (result.outcome, result.limit) == ("solved", None)
