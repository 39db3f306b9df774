"""The fast path of a move: the game this process kept, stored with one write and no read.

Every answer must be the one the full path (read the play, check who asks, replay or
take the kept game, write) would give; these tests change what the kept game does not
know (another process's move, the session, the owner, the end of a ranked play) and
check that nothing the full path would refuse is stored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select, update

from patiencekit.server.app import create_app
from patiencekit.server.play.tables import play_events, plays


def _events(app: Any, play_id: str) -> int:
    with app.state.db.engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count())
                .select_from(play_events)
                .where(play_events.c.play_id == play_id)
            ).scalar_one()
        )


class _Statements:
    """The SQL statements the app's database engines run."""

    def __init__(self, app: Any) -> None:
        db = app.state.db
        self.engines = [e for e in (db.engine, db._autocommit) if e is not None]
        self.seen: list[str] = []

    def _record(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.seen.append(" ".join(statement.split()))

    def __enter__(self) -> list[str]:
        for engine in self.engines:
            event.listen(engine, "before_cursor_execute", self._record)
        return self.seen

    def __exit__(self, *_exc: object) -> None:
        for engine in self.engines:
            event.remove(engine, "before_cursor_execute", self._record)


@pytest.fixture
def app(settings: Any, clock: Any) -> Iterator[Any]:
    """The app, without its periodic task: the statements seen are the requests' own."""
    application = create_app(dataclasses.replace(settings, competition_tick_seconds=0), clock=clock)
    yield application
    application.state.db.dispose()


@pytest.fixture
def second_app(settings: Any, clock: Any) -> Iterator[Any]:
    """Another server process on the same database."""
    application = create_app(settings, clock=clock)
    yield application
    application.state.db.dispose()


def test_a_kept_game_is_moved_with_one_write_and_no_read(api, app, monkeypatch):
    play = api.play_ok(api.new_play("klondike", 24), "c3 f")
    loop_sql: list[str] = []
    statements = app.state.db.loop_statements
    if statements is not None:  # PostgreSQL: the event loop's own connections
        fetch_one = statements.fetch_one

        async def spy(sql: str, params: Any) -> Any:
            loop_sql.append(" ".join(sql.split()))
            return await fetch_one(sql, params)

        monkeypatch.setattr(statements, "fetch_one", spy)
    with _Statements(app) as seen:
        play = api.play_ok(play, "s")
    writes = [s for s in seen if not s.startswith(("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA"))]
    if app.state.db.is_sqlite:
        assert [s.split()[0] for s in writes] == ["UPDATE", "INSERT"], writes
    else:
        assert writes == [], writes
        assert len(loop_sql) == 1 and loop_sql[0].startswith("WITH"), loop_sql
        writes = loop_sql
    assert "sessions" in writes[0]  # the owner is checked by the write itself
    assert play["n"] == 2 and _events(app, play["id"]) == 2


def test_another_players_move_on_a_kept_game_is_refused_and_stores_nothing(api, other_api, app):
    play = api.play_ok(api.new_play("klondike", 24), "c3 f")
    other_api.new_play("klondike", 5)  # a guest with a session of their own
    r = other_api.move(play, "s")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert _events(app, play["id"]) == 1
    # The owner goes on where they were.
    play = api.play_ok(play, "s")
    assert play["n"] == 2 and play["last"] == "s" and _events(app, play["id"]) == 2


def test_a_signed_out_session_cannot_move_a_kept_game(api, app):
    assert api.signup("Olga").status_code == 201
    play = api.play_ok(api.new_play("klondike", 24), "c3 f")
    cookies = dict(api.client.cookies)
    assert api.post("/api/auth/signout").status_code == 200
    with TestClient(app, cookies=cookies) as thief:
        r = thief.post(
            f"/api/plays/{play['id']}/moves",
            json={"move": "s", "n": play["n"]},
            headers={"X-CSRF-Token": cookies["pk_csrf"]},
        )
    assert r.status_code == 403, r.text
    assert _events(app, play["id"]) == 1


def test_an_expired_session_cannot_move_a_kept_game(api, app, settings, clock):
    play = api.play_ok(api.new_play("klondike", 24), "c3 f")
    clock.advance(settings.session_seconds + 1)
    r = api.move(play, "s")
    assert r.status_code == 403, r.text
    assert _events(app, play["id"]) == 1


def test_a_kept_game_behind_another_process_is_not_used(api, app, second_app):
    """Process A keeps the play at move 1; B stores move 2; A's next move is at move 3."""
    play = api.play_ok(api.new_play("klondike", 24), "c3 f")
    other = TestClient(second_app, cookies=dict(api.client.cookies))
    headers = {"X-CSRF-Token": api.csrf}
    r = other.post(f"/api/plays/{play['id']}/moves", json={"move": "s", "n": 1}, headers=headers)
    assert r.status_code == 200, r.text
    # A's kept game is at move 1: the client that saw move 1 is refused...
    r = api.move(play, "s")
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict", r.text
    # ... and the one that saw move 2 is accepted, on the play as stored.
    current = other.get(f"/api/plays/{play['id']}").json()
    after = api.play_ok(current, "s")
    assert after["n"] == 3 and _events(app, play["id"]) == 3
    # The answer is the one a process replaying the log gives.
    fresh = TestClient(second_app, cookies=dict(api.client.cookies))
    second_app.state.db.memo.take_any(play["id"])
    assert fresh.get(f"/api/plays/{play['id']}").json() == after


def test_a_ranked_play_ended_meanwhile_is_not_moved_from_the_kept_game(api, app, clock):
    """A tournament's deadline ends a play without a move (``ended_at``, no new ``seq``)."""
    assert api.signup("Paula").status_code == 201
    play = api.play_ok(api.new_play("klondike", 24, ranked=True), "c3 f")
    with app.state.db.engine.begin() as conn:
        conn.execute(
            update(plays).where(plays.c.id == play["id"]).values(ended_at=clock(), status="over")
        )
    r = api.move(play, "s")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over", r.text
    assert _events(app, play["id"]) == 1


def test_a_refused_move_on_a_kept_game_keeps_it(api, app):
    """An illegal move and a stale move number are refused (after the owner is checked) and
    the kept game is still used for the next move."""
    play = api.play_ok(api.new_play("klondike", 24), "c3 f")
    r = api.move(play, "c1 c2")
    assert r.status_code == 400 and r.json()["error"]["code"] == "illegal_move"
    r = api.post(f"/api/plays/{play['id']}/moves", {"move": "s", "n": 0})
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    with _Statements(app) as seen:
        play = api.play_ok(play, "s")
    assert not [s for s in seen if s.startswith("SELECT")], seen
    assert _events(app, play["id"]) == 2


def test_a_kept_game_is_moved_through_the_threads_when_the_loops_connections_are_busy(
    api, app, monkeypatch
):
    statements = app.state.db.loop_statements
    if statements is None:  # SQLite: every statement runs on the event loop already
        assert app.state.db.inline
        return
    play = api.play_ok(api.new_play("klondike", 24), "c3 f")
    statements.close()
    monkeypatch.setattr(statements, "size", 0)  # every connection busy
    with _Statements(app) as seen:
        play = api.play_ok(play, "s")
    writes = [s for s in seen if not s.startswith(("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA"))]
    assert len(writes) == 1 and writes[0].startswith("WITH") and "sessions" in writes[0], writes
    assert play["n"] == 2 and _events(app, play["id"]) == 2


def test_a_move_whose_loop_connection_died_is_played_through_the_full_path(api, app):
    """PostgreSQL restarts or drops the connection: the move is not lost, nor stored twice."""
    statements = app.state.db.loop_statements
    if statements is None:  # SQLite: no connection to lose
        assert app.state.db.is_sqlite
        return
    play = api.play_ok(api.play_ok(api.new_play("klondike", 24), "c3 f"), "s")
    # This app's idle loop connection (only its own: other tests run beside this one).
    pids = [conn.info.backend_pid for conn in statements._idle]
    assert pids
    with app.state.db.engine.connect() as conn:
        for pid in pids:
            assert conn.exec_driver_sql(f"SELECT pg_terminate_backend({pid})").scalar()
    play = api.play_ok(play, "s")
    assert play["n"] == 3 and _events(app, play["id"]) == 3
    assert api.play_ok(play, "s")["n"] == 4  # and a new connection takes over


def test_without_loop_connections_a_kept_game_is_moved_in_the_threads(settings, clock):
    """``PATIENCEKIT_PG_LOOP_CONNECTIONS=0``: the same one write, from a database thread."""
    # (no periodic task: its statements would mix with the move's)
    app = create_app(
        dataclasses.replace(settings, pg_loop_connections=0, competition_tick_seconds=0),
        clock=clock,
    )
    try:
        assert app.state.db.loop_statements is None
        with TestClient(app) as client:
            headers = {"X-CSRF-Token": client.get("/api/session").json()["csrf"]}
            play = client.post("/api/games/klondike/play", json={"number": 24}, headers=headers)
            pid = play.json()["id"]
            r = client.post(
                f"/api/plays/{pid}/moves", json={"move": "c3 f", "n": 0}, headers=headers
            )
            assert r.status_code == 200, r.text
            with _Statements(app) as seen:
                r = client.post(
                    f"/api/plays/{pid}/moves", json={"move": "s", "n": 1}, headers=headers
                )
            assert r.status_code == 200 and r.json()["n"] == 2, r.text
        writes = [s for s in seen if not s.startswith(("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA"))]
        assert not [s for s in writes if s.startswith("SELECT")], writes
        assert "sessions" in writes[0] and _events(app, pid) == 2
    finally:
        app.state.db.dispose()


def test_a_move_waiting_for_sqlites_write_lock_does_not_hold_up_the_event_loop(api, app, settings):
    """Another process holds SQLite's write lock (a ``close-day`` run, say): the move waits
    for it in a thread, and meanwhile the same server still answers other requests."""
    if not app.state.db.inline:  # PostgreSQL: no statement waits on the event loop
        assert not app.state.db.is_sqlite
        return
    import sqlite3
    import threading
    import time

    play = api.play_ok(api.new_play("klondike", 24), "c3 f")
    other_process = sqlite3.connect(settings.database_url.removeprefix("sqlite:///"))
    other_process.isolation_level = None
    other_process.execute("BEGIN IMMEDIATE")  # the write lock
    moved: list[Any] = []
    mover = threading.Thread(target=lambda: moved.append(api.move(play, "s")))
    try:
        mover.start()
        time.sleep(0.5)  # the move reaches its write, and waits
        answered: list[Any] = []
        health = threading.Thread(target=lambda: answered.append(api.get("/api/health")))
        health.start()
        health.join(timeout=10)
        assert answered and answered[0].status_code == 200  # while the lock is still held
        assert mover.is_alive() and not moved  # the move is still waiting for the lock
    finally:
        other_process.execute("ROLLBACK")
        other_process.close()
        mover.join(timeout=30)
    assert moved and moved[0].status_code == 200, moved
    assert moved[0].json()["n"] == 2 and _events(app, play["id"]) == 2
