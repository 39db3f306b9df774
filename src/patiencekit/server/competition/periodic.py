"""The app's periodic task: end tournaments past their deadline, close the UTC days that are over
(the day's medals, and the daily deals: their open plays end, their deals are published), and
sweep what nobody can use any more (:mod:`patiencekit.server.housekeeping`).

:func:`tick` does one round of both with the time it is given (tests call it
with their own clock); :func:`run_periodically` calls it at start-up and then
every ``competition_tick_seconds`` while the app runs. Both jobs are
idempotent and transactional, so several server processes may run them at
once, and a server that was stopped catches up when it starts again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.concurrency import run_in_threadpool

from patiencekit.server.competition import daily
from patiencekit.server.competition.standings import close_due_days
from patiencekit.server.competition.tournaments import close_expired
from patiencekit.server.db import Database
from patiencekit.server.housekeeping import Swept, housekeeping

__all__ = ["Tick", "run_periodically", "tick"]

log = logging.getLogger("patiencekit.server")


@dataclass(slots=True)
class Tick:
    """What one tick did."""

    tournaments: list[int] = field(default_factory=list)
    days: list[tuple[str, str, int]] = field(default_factory=list)
    #: daily deals closed: (game, day)
    daily: list[tuple[str, str]] = field(default_factory=list)
    swept: Swept | None = None


def tick(db: Database, now: float) -> Tick:
    """End the tournaments whose deadline has passed; award the medals of the closed days;
    close the daily deals whose day is over; delete expired sessions, stale sign-in
    failures and unreachable guests."""
    return Tick(
        tournaments=close_expired(db, now),
        days=close_due_days(db, now),
        daily=daily.close_due_days(db, now),
        swept=housekeeping(db, now),
    )


async def run_periodically(
    db: Database,
    clock: Callable[[], float],
    seconds: float,
    stop: asyncio.Event | None = None,
) -> None:
    """Run :func:`tick` now and then every ``seconds`` (in a worker thread) until ``stop`` is
    set. A tick under way when it is set ends first, so the app never closes the database
    under it (a cancelled task would leave its thread running)."""
    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            done = await run_in_threadpool(tick, db, clock())
            if done.tournaments or done.days or done.daily:
                log.info(
                    "competition: ended %s, closed %s, daily deals closed %s",
                    done.tournaments,
                    done.days,
                    done.daily,
                )
            if done.swept is not None and done.swept.guests:
                log.info("housekeeping: %s", done.swept)
        except Exception:
            log.exception("competition: the periodic task failed; it runs again later")
        await _pause(stop, seconds)


async def _pause(stop: asyncio.Event, seconds: float) -> None:
    """Wait ``seconds``, or less if ``stop`` is set meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
