"""Hints on a budget: limited per player, and worked out away from the app's threads.

A hint is the solver's work: a few hundred milliseconds of CPU (bounded by positions,
``solver.hint_settings``, with time only as a safety net). Run on the app's own threads,
it would hold the interpreter (the GIL) from the event loop that answers every other
player. So here:

- each player (account or guest) may ask ``hints_per_player`` hints per
  ``hint_window_seconds`` (``limits``; else 429 with ``Retry-After``);
- the solver runs in ``hint_workers`` processes of their own (one by default: at most
  one core), which are handed the game's record (game, number, moves) and replay it,
  at a lower CPU priority than the app (``nice`` 10: when cores are short, the kernel
  runs the event loop first);
- auto-complete's line (``autocomplete_line``), which may search too, runs in the same
  workers and takes a place in the same queue, but is not counted in the player's limit;
- at most ``hint_queue`` hints are asked at once in this process (worked out or waiting
  for a worker); one more is refused at once with 503 ``unavailable`` and
  ``Retry-After: 1``, so that a burst of hints holds neither the request threads nor
  the memory.

The workers are made when the first hint is asked (forked from a ``forkserver`` that has
the solver imported already), and stopped by :func:`shutdown` (the app's shutdown).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from patiencekit.game import Game
from patiencekit.i18n import N_
from patiencekit.notation import Record
from patiencekit.server import limits
from patiencekit.server.config import Settings
from patiencekit.server.db import Database
from patiencekit.server.errors import ApiError
from patiencekit.server.limits import Limit

__all__ = ["HINT_TIMEOUT_SECONDS", "autocomplete_line", "hint", "shutdown"]

T = TypeVar("T")

#: the longest a request waits for its hint (a worker that hangs: 503)
HINT_TIMEOUT_SECONDS = 60.0


def _busy() -> ApiError:
    return ApiError(
        503,
        "unavailable",
        N_("hints are busy just now: ask again in a moment"),
        headers={"Retry-After": "1"},
    )


#: how much lower the workers' CPU priority is than the server's (``nice``): when cores are
#: short, the kernel runs the app's event loop first
WORKER_NICENESS = 10


def _start_worker() -> None:
    """In a new worker: give way to the app's own process on the CPU."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


def _hint_of(record: Record, seconds: float) -> str | None:
    """In a worker: the hint for the game after ``record`` (the solver's ``hint``)."""
    from patiencekit.solver import hint as solver_hint

    return solver_hint(Game.from_record(record), seconds=seconds)


def _autocomplete_of(record: Record) -> list[str] | None:
    """In a worker: the auto-complete line of the game after ``record`` (the solver's
    ``autocomplete_line``)."""
    from patiencekit.solver import autocomplete_line as solver_line

    return solver_line(Game.from_record(record))


class _Workers:
    """This process's hint workers and the count of hints asked of them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._size = 0
        #: hints asked and not answered yet (worked out or waiting)
        self.pending = 0

    def reserve(self, settings: Settings) -> ProcessPoolExecutor:
        """A place for one more hint, and the pool to ask; 503 when ``hint_queue`` are
        asked already. The caller calls :meth:`release` once (or hands it to the future)."""
        with self._lock:
            if self.pending >= settings.hint_queue:
                raise _busy()
            if self._pool is None or (self._size != settings.hint_workers and not self.pending):
                if self._pool is not None:
                    self._pool.shutdown(wait=False, cancel_futures=True)
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["patiencekit.solver", "patiencekit.game"])
                self._pool = ProcessPoolExecutor(
                    settings.hint_workers, mp_context=context, initializer=_start_worker
                )
                self._size = settings.hint_workers
            self.pending += 1
            return self._pool

    def release(self, _future: object = None) -> None:
        """One hint less asked."""
        with self._lock:
            self.pending -= 1

    def broken(self, pool: ProcessPoolExecutor) -> None:
        """``pool`` lost a worker (killed, out of memory): the next hint makes a new one."""
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop the workers (the hints under way are dropped)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


_workers = _Workers()


def hint(
    db: Database, settings: Settings, user_id: int, record: Record, now: float, seconds: float
) -> str | None:
    """The hint for the game after ``record``, asked by player ``user_id`` (the solver's
    ``hint(game, seconds=seconds)``: a move in the notation, from what the player sees;
    None when no move is left).

    429 past the player's limit, 503 when ``hint_queue`` hints are asked already or the
    worker does not answer within :data:`HINT_TIMEOUT_SECONDS`.
    """

    def within_the_limit() -> None:
        per_player = Limit("hint-player", settings.hints_per_player, settings.hint_window_seconds)
        with db.write() as conn:
            wait = limits.take(conn, per_player, str(user_id), now)
        if wait is not None:
            raise limits.refused(N_("too many hints: think a little, then ask again"), wait)

    return _in_a_worker(settings, within_the_limit, _hint_of, record, seconds)


def autocomplete_line(settings: Settings, record: Record) -> list[str] | None:
    """The moves auto-complete would play from the game after ``record`` (the solver's
    ``autocomplete_line``: ``[]`` when it is won already, None when what the player sees
    does not prove a win), worked out in the hint workers: it may search.

    Not counted against the player's hint limit; 503 as for :func:`hint` when the workers
    are busy or do not answer.
    """
    return _in_a_worker(settings, None, _autocomplete_of, record)


def _in_a_worker(
    settings: Settings,
    first: Callable[[], None] | None,
    work: Callable[..., T],
    *args: object,
) -> T:
    """``work(*args)`` run in a hint worker, once ``first()`` (a check that may refuse)
    has passed, holding one of the ``hint_queue`` places meanwhile."""
    pool = _workers.reserve(settings)
    future: Future[T] | None = None
    try:
        if first is not None:
            first()
        future = pool.submit(work, *args)
        future.add_done_callback(_workers.release)
    except BrokenProcessPool:
        _workers.broken(pool)
        raise _busy() from None
    finally:
        if future is None:
            _workers.release()
    try:
        return future.result(timeout=HINT_TIMEOUT_SECONDS)
    except BrokenProcessPool:
        _workers.broken(pool)
        raise _busy() from None
    except concurrent.futures.TimeoutError:
        raise _busy() from None


def shutdown() -> None:
    """Stop this process's hint workers (a later hint starts them again)."""
    _workers.shutdown()
