"""Budgets for the solver tests: positions, never seconds (issue 10).

A test's verdict must not depend on the machine's speed, so every search in the tests
is bounded by positions only: no time budget (``seconds=None``), and no memory budget
either (the memory budget is the process's *peak* memory, which depends on the tests
the same pytest worker ran before; the positions budget bounds the memory anyway).

The budgets were chosen from measurement: each is several times (3-8x) what the test's
searches need (the numbers are in the tests' comments). With only a positions budget
the solver is deterministic: the same budget gives the same verdict and the same
positions on any machine.

A positions budget is split among the solver's parts as a time budget is (the
depth-first slice, the beam or best-first search, the depth-first search again), so
``solve(..., budget=positions(n))`` runs the same searches as a timed ``solve``.
"""

from __future__ import annotations

from patiencekit.solver import Budget

__all__ = ["positions"]


def positions(states: int) -> Budget:
    """A budget of ``states`` positions, nothing else."""
    return Budget(seconds=None, states=states, memory_mb=None)

