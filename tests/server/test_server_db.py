"""The database: migrations, settings, several app processes on one database, concurrency."""

from __future__ import annotations

import functools
import threading
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from parallel import at_once
from sqlalchemy import create_engine, func, select

from patiencekit.server.app import create_app
from patiencekit.server.config import DEV_SECRET_KEY, Settings, SettingsError
from patiencekit.server.db import metadata
from patiencekit.server.play.tables import play_events, plays


def test_the_migrations_make_exactly_the_tables_the_code_uses(app, settings):
    engine = create_engine(settings.database_url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn)
        assert context.get_current_revision() is not None
        diff = compare_metadata(context, metadata)
    engine.dispose()
    assert diff == []


def test_starting_again_on_a_migrated_database_keeps_the_data(api, settings, clock):
    play = api.play_ok(api.new_play("klondike", 24), "s")
    again = create_app(settings, clock=clock)  # migrates again: nothing to do
    try:
        client = TestClient(again, cookies=dict(api.client.cookies))
        assert client.get(f"/api/plays/{play['id']}").json()["n"] == 1
    finally:
        again.state.db.dispose()


def test_two_app_processes_share_the_database(api, settings, clock):
    """No game lives in one process: a play made on one app is played on another."""
    second = create_app(settings, clock=clock)
    try:
        play = api.new_play("klondike", 24)
        other = TestClient(second, cookies=dict(api.client.cookies))
        headers = {"X-CSRF-Token": api.csrf}
        moves = ["c3 f", "s", "c4 c2", "s"]
        for i, move in enumerate(moves):
            client = other if i % 2 else api.client
            r = client.post(
                f"/api/plays/{play['id']}/moves", json={"move": move, "n": i}, headers=headers
            )
            assert r.status_code == 200, r.text
        assert api.get(f"/api/plays/{play['id']}").json()["n"] == 4
        assert other.get(f"/api/plays/{play['id']}").json()["last"] == "s"
    finally:
        second.state.db.dispose()


def test_the_event_log_keeps_every_action_with_its_time(api, settings, clock):
    play = api.new_play("klondike", 24)
    for i, move in enumerate(["s", "c3 f"]):
        clock.advance(2)
        assert api.move({**play, "n": i}, move).status_code == 200
    clock.advance(2)
    assert api.post(f"/api/plays/{play['id']}/undo", {"n": 2}).status_code == 200
    assert api.move({**play, "n": 2}, "s").status_code == 409  # refused: not stored
    engine = create_engine(settings.database_url)
    with engine.connect() as conn:
        events = conn.execute(
            select(play_events.c.seq, play_events.c.kind, play_events.c.move, play_events.c.at)
            .where(play_events.c.play_id == play["id"])
            .order_by(play_events.c.seq)
        ).all()
        row = conn.execute(select(plays).where(plays.c.id == play["id"])).one()
    engine.dispose()
    t0 = clock.now - 6
    assert [tuple(e) for e in events] == [
        (1, "move", "s", t0 + 2),
        (2, "move", "c3 f1", t0 + 4),
        (3, "undo", None, t0 + 6),
    ]
    assert (row.seq, row.moves, row.status, row.number) == (3, 1, "playing", "24")


@pytest.mark.parametrize("rounds", [6])
def test_two_submissions_of_the_same_move_number_at_once(api, settings, clock, rounds):
    """Exactly one is stored; the other gets a conflict (and nothing is stored twice)."""
    play = api.new_play("klondike-draw1", 24)
    path = f"/api/plays/{play['id']}/moves"
    # Two app instances: two connection pools, as two processes would have.
    second = create_app(settings, clock=clock)
    try:
        clients = [api.client, TestClient(second, cookies=dict(api.client.cookies))]
        headers = {"X-CSRF-Token": api.csrf}
        for n in range(rounds):
            barrier = threading.Barrier(2)
            answers: list[Any] = [None, None]

            def submit(i: int, n: int, barrier: threading.Barrier, answers: list[Any]) -> None:
                barrier.wait()
                answers[i] = clients[i].post(path, json={"move": "s", "n": n}, headers=headers)

            threads = [
                threading.Thread(target=submit, args=(i, n, barrier, answers)) for i in (0, 1)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
            assert next(r for r in answers if r.status_code == 409).json()["error"]["code"] == (
                "conflict"
            )
    finally:
        second.state.db.dispose()
    engine = create_engine(settings.database_url)
    with engine.connect() as conn:
        stored = conn.execute(
            select(func.count()).where(play_events.c.play_id == play["id"])
        ).scalar_one()
    engine.dispose()
    assert stored == rounds
    assert api.get(f"/api/plays/{play['id']}").json()["n"] == rounds


# -- settings -----------------------------------------------------------------------------------


def test_settings_default_to_an_sqlite_file_in_the_data_folder(tmp_path):
    s = Settings.from_env({"PATIENCEKIT_DATA_DIR": str(tmp_path / "d")})
    assert s.env == "development" and s.secret_key == DEV_SECRET_KEY
    assert s.database_url == f"sqlite:///{tmp_path / 'd' / 'patiencekit.sqlite3'}"
    default = Settings.from_env({}).database_url
    assert default == f"sqlite:///{Path('data').absolute()}/patiencekit.sqlite3"


def test_settings_take_a_postgresql_url():
    s = Settings.from_env({"PATIENCEKIT_DATABASE_URL": "postgresql://u:p@db:5432/pk"})
    assert s.database_url == "postgresql+psycopg://u:p@db:5432/pk" and not s.is_sqlite


def test_settings_take_trusted_proxies_and_refuse_a_bad_one():
    s = Settings.from_env({"PATIENCEKIT_TRUSTED_PROXIES": "10.0.0.1, 192.168.0.0/16"})
    assert s.trusted_proxies == "10.0.0.1, 192.168.0.0/16"
    assert Settings.from_env({}).trusted_proxies == ""
    with pytest.raises(SettingsError, match="'nginx' is not an address"):
        Settings.from_env({"PATIENCEKIT_TRUSTED_PROXIES": "10.0.0.1,nginx"})


def test_settings_take_the_postgresql_loop_connections():
    assert Settings.from_env({}).pg_loop_connections == 32
    assert Settings.from_env({"PATIENCEKIT_PG_LOOP_CONNECTIONS": "0"}).pg_loop_connections == 0
    with pytest.raises(SettingsError, match="PATIENCEKIT_PG_LOOP_CONNECTIONS"):
        Settings.from_env({"PATIENCEKIT_PG_LOOP_CONNECTIONS": "many"})


def test_settings_need_a_secret_outside_development():
    for env in ("test", "production"):
        with pytest.raises(SettingsError, match="PATIENCEKIT_SECRET_KEY must be set"):
            Settings.from_env({"PATIENCEKIT_ENV": env})
    with pytest.raises(SettingsError, match="in production"):
        Settings.from_env(
            {"PATIENCEKIT_ENV": "production", "PATIENCEKIT_SECRET_KEY": DEV_SECRET_KEY}
        )
    with pytest.raises(SettingsError, match="at least 16"):
        Settings.from_env({"PATIENCEKIT_ENV": "production", "PATIENCEKIT_SECRET_KEY": "short"})
    with pytest.raises(SettingsError, match="PATIENCEKIT_ENV must be one of"):
        Settings.from_env({"PATIENCEKIT_ENV": "staging"})
    s = Settings.from_env({"PATIENCEKIT_ENV": "production", "PATIENCEKIT_SECRET_KEY": "s" * 40})
    assert s.secret_key == "s" * 40


def test_a_new_secret_invalidates_old_csrf_tokens(api, settings, clock):
    token = api.session()["csrf"]
    other = Settings(
        env="test",
        secret_key="another-secret-key-0123456789",
        data_dir=settings.data_dir,
        database_url=settings.database_url,
    )
    app2 = create_app(other, clock=clock)
    try:
        client = TestClient(app2, cookies={"pk_csrf": token})
        r = client.post("/api/games/klondike/play", json={}, headers={"X-CSRF-Token": token})
        assert r.status_code == 403
    finally:
        app2.state.db.dispose()


def test_the_game_cache_answers_exactly_as_replaying_the_log(settings, clock):
    """The same actions on an app that caches rebuilt games and on one that replays every time:
    the same answers, byte for byte (apart from the play id)."""
    import dataclasses
    import random

    answers = []
    for size in (2000, 0):
        app = create_app(dataclasses.replace(settings, game_cache_size=size), clock=clock)
        try:
            client = TestClient(app)
            headers = {"X-CSRF-Token": client.get("/api/session").json()["csrf"]}
            rng = random.Random(7)
            clock.advance(1)
            play = client.post("/api/games/klondike/play", json={"number": 3}, headers=headers)
            play = play.json()
            pid, log = play["id"], []
            for _ in range(60):
                clock.advance(rng.random())
                roll = rng.random()
                if roll < 0.15:
                    r = client.post(
                        f"/api/plays/{pid}/undo", json={"n": play["n"]}, headers=headers
                    )
                elif roll < 0.25:
                    r = client.post(
                        f"/api/plays/{pid}/redo", json={"n": play["n"]}, headers=headers
                    )
                elif roll < 0.28:
                    r = client.post(
                        f"/api/plays/{pid}/restart", json={"n": play["n"]}, headers=headers
                    )
                elif roll < 0.33:
                    r = client.post(
                        f"/api/plays/{pid}/moves", json={"move": "c1 c2", "n": play["n"]},
                        headers=headers,
                    )  # fmt: skip
                elif roll < 0.36:
                    r = client.post(
                        f"/api/plays/{pid}/moves", json={"move": "s", "n": play["n"] + 1},
                        headers=headers,
                    )  # fmt: skip
                elif play["legal_moves"]:
                    move = rng.choice(play["legal_moves"])
                    r = client.post(
                        f"/api/plays/{pid}/moves", json={"move": move, "n": play["n"]},
                        headers=headers,
                    )  # fmt: skip
                else:
                    r = client.get(f"/api/plays/{pid}")
                if r.status_code == 200:
                    play = r.json()
                log.append((r.status_code, r.text.replace(pid, "ID")))
            log.append((0, client.get(f"/api/plays/{pid}").text.replace(pid, "ID")))
            answers.append(log)
        finally:
            app.state.db.dispose()
    assert sum(1 for status, _ in answers[0] if status == 200) > 30
    assert answers[0] == answers[1]


def test_two_ranked_deals_sent_at_once_give_one_open_ranked_game(api, settings, clock):
    """At most one open ranked game per variant: of two new ranked games sent at once (two
    app instances, one database), one is dealt and the other is refused (409
    ``ranked_open``); with ``give_up``, the second ends the first (each time, one open)."""
    api.signup("racer")
    second = create_app(settings, clock=clock)
    try:
        clients = [api.client, TestClient(second, cookies=dict(api.client.cookies))]
        headers = {"X-CSRF-Token": api.csrf}
        for attempt in range(4):
            give_up = attempt % 2 == 1  # the second browser's, every other time
            answers = at_once(
                [
                    functools.partial(
                        clients[i].post,
                        "/api/games/klondike/play",
                        json={"ranked": True, "give_up": i == 1 and give_up},
                        headers=headers,
                    )
                    for i in (0, 1)
                ]
            )
            codes = sorted(r.status_code for r in answers)
            assert codes in ([201, 409], [201, 201]), [r.text for r in answers]
            for r in answers:
                if r.status_code == 409:
                    assert r.json()["error"]["code"] == "ranked_open"
            engine = create_engine(settings.database_url)
            with engine.connect() as conn:
                open_ranked = conn.execute(
                    select(func.count()).where(
                        plays.c.ranked.is_(True), plays.c.ended_at.is_(None)
                    )
                ).scalar_one()
            engine.dispose()
            assert open_ranked == 1
            # The next attempt starts from none open.
            clients[0].post(
                f"/api/plays/{_open_ranked_id(settings)}/finish", json={"n": 0}, headers=headers
            )
    finally:
        second.state.db.dispose()


def _open_ranked_id(settings: Any) -> str:
    engine = create_engine(settings.database_url)
    with engine.connect() as conn:
        play_id = conn.execute(
            select(plays.c.id).where(plays.c.ranked.is_(True), plays.c.ended_at.is_(None))
        ).scalar_one()
    engine.dispose()
    return str(play_id)
