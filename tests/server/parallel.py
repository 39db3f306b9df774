"""Requests sent at once, for the tests of races (parallel sign-ins, joins, new plays)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
