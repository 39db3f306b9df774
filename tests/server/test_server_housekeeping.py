"""Housekeeping: expired sessions, stale sign-in failures and unreachable guests go; nothing
anyone can still reach is touched."""

from __future__ import annotations

from sqlalchemy import create_engine, func, select

from patiencekit.server.competition.periodic import tick
from patiencekit.server.db import sessions, signin_failures, users
from patiencekit.server.housekeeping import housekeeping
from patiencekit.server.play.tables import play_events, plays


def _count(settings, table, *where):
    engine = create_engine(settings.database_url)
    try:
        with engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(table).where(*where)).scalar()
    finally:
        engine.dispose()


def test_unreachable_guests_go_with_their_plays_and_nothing_else(
    api, other_api, make_api, app, settings, clock
):
    db = app.state.db
    # A guest who played and left; a guest who signed up; a guest still around later.
    gone = api.new_play("klondike", 24)
    api.play_ok(gone, "s")
    other_api.signup("stays")
    kept = other_api.new_play("klondike", 25)
    other_api.play_ok(kept, "s")
    later = make_api()
    assert later.post("/api/auth/signin", {"name": "stays", "password": "wrong"}).status_code == 401
    assert _count(settings, users, users.c.guest.is_(True)) >= 1

    # Within a session's life nothing goes.
    assert housekeeping(db, clock.now + 60).guests == 0
    assert api.get(f"/api/plays/{gone['id']}").status_code == 200

    # After it: the guest's session expired, so the guest (and its play) can't be reached.
    clock.advance(settings.session_seconds + 1)
    swept = housekeeping(db, clock.now)
    assert (swept.guests, swept.sessions, swept.signin_failures) == (1, 2, 1)
    assert _count(settings, plays, plays.c.id == gone["id"]) == 0
    assert _count(settings, play_events, play_events.c.play_id == gone["id"]) == 0
    assert _count(settings, signin_failures) == 0
    assert _count(settings, sessions, sessions.c.expires_at <= clock.now) == 0
    # The account and its play are there.
    assert _count(settings, users, users.c.name == "stays") == 1
    assert _count(settings, plays, plays.c.id == kept["id"]) == 1
    # A new guest now is kept by the app's periodic task (which runs housekeeping).
    fresh = make_api()
    fresh_play = fresh.new_play("klondike", 26)
    done = tick(db, clock.now)
    assert done.swept is not None and done.swept.guests == 0
    assert fresh.get(f"/api/plays/{fresh_play['id']}").status_code == 200
