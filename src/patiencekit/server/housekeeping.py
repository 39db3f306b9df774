"""Housekeeping: forget what nobody can use any more, and end what nobody plays.

- ranked single games with no move for 24 hours: they end as given up and count
  (RULES.md, "Fair competition"; :func:`patiencekit.server.play.service.end_idle_ranked`);

- sessions past their expiry (their cookie is refused already);
- sign-in failures older than the rate limit's window (they no longer count);
- guests nobody can reach: a guest is a browser without an account, reachable only
  through its session cookie, so once every session of a guest has expired (and the
  guest is older than a session's life), its plays can never be opened again and
  the guest goes with them. A guest who signed up or signed in meanwhile is an
  account, or handed its plays to one: neither is touched.

The app runs :func:`housekeeping` in its periodic task (see
``competition.periodic``); every step is one idempotent statement, so several
processes may run it at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, exists, select

from patiencekit.server.db import Database, sessions, signin_failures, users
from patiencekit.server.play.service import end_idle_ranked
from patiencekit.server.play.tables import play_events, plays

__all__ = ["Swept", "housekeeping"]


@dataclass(frozen=True, slots=True)
class Swept:
    """How many rows one round of housekeeping deleted (and ranked games it ended)."""

    sessions: int
    signin_failures: int
    guests: int
    ranked_ended: int = 0


def housekeeping(db: Database, now: float) -> Swept:
    """End idle ranked games; delete expired sessions, stale sign-in failures and
    unreachable guests (with their plays); returns the counts."""
    settings = db.settings
    ranked_ended = end_idle_ranked(db, now)
    with db.write() as conn:
        expired = conn.execute(delete(sessions).where(sessions.c.expires_at <= now)).rowcount
        stale = conn.execute(
            delete(signin_failures).where(
                signin_failures.c.at < now - settings.signin_window_seconds
            )
        ).rowcount
        lost = (
            select(users.c.id)
            .where(
                users.c.guest.is_(True),
                users.c.created_at < now - settings.session_seconds,
                ~exists().where(sessions.c.user_id == users.c.id),
            )
            .scalar_subquery()
        )
        lost_plays = select(plays.c.id).where(plays.c.user_id.in_(lost)).scalar_subquery()
        # Explicitly, children first (the foreign keys cascade too).
        conn.execute(delete(play_events).where(play_events.c.play_id.in_(lost_plays)))
        conn.execute(delete(plays).where(plays.c.user_id.in_(lost)))
        guests = conn.execute(delete(users).where(users.c.id.in_(lost))).rowcount
    return Swept(
        sessions=expired, signin_failures=stale, guests=guests, ranked_ended=ranked_ended
    )
