"""Abuse: what a player, a guest or an outsider can throw at the server, and the limits that hold.

- sign-in attempts counted before the password is checked, per account, per address and per
  trusted browser (device cookie): parallel guesses check at most the limit, and the real
  player's browser signs in while the account is under attack;
- new guests and sign-ups per address; hints per player, worked out in worker processes with
  a bounded queue;
- the sign-in's ``next`` stays on the site;
- a database that cannot be used: one line and exit status 2 at start-up, 503 later;
- a 500 closes its connection cleanly; Content-Security-Policy on pages, no-store on the API.

Every limit is tested on SQLite and PostgreSQL (the ``app`` / ``database_url`` fixtures), by
counts (argon2 checks, rows, answers) and the fake clock, never by wall-clock time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import html.parser
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from parallel import at_once
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from patiencekit import new_game
from patiencekit.server import hints, security
from patiencekit.server.app import create_app
from patiencekit.server.db import open_database, users
from patiencekit.server.middleware import CONTENT_SECURITY_POLICY
from patiencekit.server.pages import STATIC_DIR, safe_next

SRC = Path(__file__).resolve().parents[2] / "src"
RIGHT = "the real password"


# -- helpers ---------------------------------------------------------------------------------


class CountingHasher:
    """The app's argon2 hasher, counting the passwords it checks and hashes."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.verified = 0
        self.hashed = 0
        self._lock = threading.Lock()

    def verify(self, password_hash: str, password: str) -> Any:
        with self._lock:
            self.verified += 1
        return self.real.verify(password_hash, password)

    def hash(self, password: str) -> str:
        with self._lock:
            self.hashed += 1
        return str(self.real.hash(password))

    def check_needs_rehash(self, password_hash: str) -> bool:
        return bool(self.real.check_needs_rehash(password_hash))


@pytest.fixture
def hasher(monkeypatch: pytest.MonkeyPatch) -> CountingHasher:
    security._dummy_hash()  # made once per process, before counting starts
    counting = CountingHasher(security._hasher)
    monkeypatch.setattr(security, "_hasher", counting)
    return counting


@pytest.fixture
def make_app(settings: Any, clock: Any) -> Iterator[Callable[..., FastAPI]]:
    """Apps on the test's database with some settings changed: ``make_app(hint_queue=1)``."""
    made: list[FastAPI] = []

    def make(**changes: Any) -> FastAPI:
        application = create_app(dataclasses.replace(settings, **changes), clock=clock)
        made.append(application)
        return application

    yield make
    for application in made:
        application.state.db.dispose()


def _browser(app: FastAPI, ip: str, cookies: dict[str, str] | None = None) -> TestClient:
    """A browser at address ``ip`` with a good CSRF token (the token is the server's
    signature, not tied to a session: one serves every browser)."""
    csrf = security.new_csrf_token(app.state.settings.secret_key)
    client = TestClient(app, client=(ip, 50000), cookies={"pk_csrf": csrf, **(cookies or {})})
    client.headers["X-CSRF-Token"] = csrf
    return client


def _signin(client: TestClient, name: str, password: str) -> Any:
    return client.post("/api/auth/signin", json={"name": name, "password": password})


def _statuses(answers: list[Any]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for r in answers:
        counts[r.status_code] = counts.get(r.status_code, 0) + 1
    return counts


def _assert_rate_limited(r: Any) -> int:
    """A 429 in the API's error shape with a Retry-After in whole seconds; returns them."""
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == "rate_limited"
    assert r.headers["cache-control"] == "no-store"
    wait = r.headers["retry-after"]
    assert wait.isdigit() and int(wait) >= 1, wait
    return int(wait)


def _count_users(app: FastAPI, *where: Any) -> int:
    with app.state.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(users).where(*where)).scalar())


# -- sign-in ---------------------------------------------------------------------------------


def test_parallel_wrong_passwords_for_one_name_check_at_most_the_limit(app, api, hasher):
    """24 guesses at once for one account, from 24 addresses: 5 are checked, 19 refused
    before any password check (the attempt is counted first, atomically)."""
    assert api.signup("victim", RIGHT).status_code == 201
    hasher.verified = 0
    limit = app.state.settings.signin_max_failures
    calls = [
        functools.partial(_signin, _browser(app, f"203.0.113.{i}"), "victim", f"guess {i:04}")
        for i in range(24)
    ]
    answers = at_once(calls)
    assert hasher.verified == limit == 5
    assert _statuses(answers) == {401: limit, 429: 24 - limit}
    for r in answers:
        if r.status_code == 429:
            _assert_rate_limited(r)
    # Even the right password is refused now (from a browser the account does not trust).
    _assert_rate_limited(_signin(_browser(app, "192.0.2.1"), "victim", RIGHT))
    assert hasher.verified == limit


def test_parallel_wrong_passwords_from_one_address_across_names(make_app, hasher):
    """One address guessing at 24 names at once (known or not): 6 are checked."""
    app = make_app(signin_address_failures=6)
    calls = [
        functools.partial(_signin, _browser(app, "198.51.100.9"), f"name{i}", "a wrong password")
        for i in range(24)
    ]
    answers = at_once(calls)
    assert hasher.verified == 6
    assert _statuses(answers) == {401: 6, 429: 18}
    # Another address is not concerned.
    assert _signin(_browser(app, "198.51.100.10"), "name0", "a wrong password").status_code == 401


def test_the_real_player_signs_in_on_a_trusted_browser_while_the_account_is_attacked(
    app, make_api, hasher, clock
):
    """OWASP's device cookies: the browser the player signed in on is counted on its own,
    so an attacker who spends the account's allowance locks out only untrusted browsers."""
    settings = app.state.settings
    player = make_api(client=("192.0.2.10", 1000))
    assert player.signup("victim", RIGHT).status_code == 201
    assert player.client.cookies.get("pk_device")
    assert player.post("/api/auth/signout").status_code == 200

    # The attack: 40 guesses at once from 40 addresses, then one more for good measure.
    attack = [
        functools.partial(_signin, _browser(app, f"203.0.113.{i}"), "victim", f"guess {i:04}")
        for i in range(40)
    ]
    assert _statuses(at_once(attack)) == {401: 5, 429: 35}
    _assert_rate_limited(_signin(_browser(app, "203.0.113.200"), "victim", RIGHT))

    # The player, on their own browser, signs in at once.
    r = player.post("/api/auth/signin", {"name": "victim", "password": RIGHT})
    assert r.status_code == 200, r.text
    assert r.json() == {"user": {"name": "victim", "guest": False}}
    assert player.session()["user"]["name"] == "victim"

    # Their own typing mistakes count in their browser's allowance only...
    player.post("/api/auth/signout")
    hasher.verified = 0
    for _ in range(settings.signin_device_failures):
        r = player.post("/api/auth/signin", {"name": "victim", "password": "mistyped!"})
        assert r.status_code == 401, r.text
    assert hasher.verified == settings.signin_device_failures
    # ... and once it is spent, the browser is one like any other: locked out with them.
    _assert_rate_limited(player.post("/api/auth/signin", {"name": "victim", "password": RIGHT}))
    # Time passes: the allowance comes back.
    clock.advance(settings.signin_window_seconds)
    r = player.post("/api/auth/signin", {"name": "victim", "password": RIGHT})
    assert r.status_code == 200, r.text


def test_a_device_cookie_helps_only_its_own_account(app, make_api, other_api):
    """A device cookie is signed with the account's name: the attacker's own one, or one
    made up, counts as no cookie at all."""
    assert other_api.signup("victim", RIGHT).status_code == 201
    mallory = make_api(client=("203.0.113.66", 1000))
    assert mallory.signup("mallory", "mallory's password").status_code == 201
    own_cookie = mallory.client.cookies["pk_device"]
    for _ in range(5):
        r = mallory.post("/api/auth/signin", {"name": "victim", "password": "a guess!"})
        assert r.status_code == 401
    _assert_rate_limited(mallory.post("/api/auth/signin", {"name": "victim", "password": RIGHT}))
    nonce, mac = own_cookie.split(".")
    for forged in (own_cookie, f"{nonce}.{'0' * len(mac)}", "made.up", "nothing"):
        browser = _browser(app, "198.51.100.77", cookies={"pk_device": forged})
        _assert_rate_limited(_signin(browser, "victim", RIGHT))


def test_unknown_names_are_limited_as_known_ones(app, other_api):
    """The limit tells nobody which names exist."""
    assert other_api.signup("known", RIGHT).status_code == 201
    answers = {}
    for name in ("known", "unknown"):
        browser = _browser(app, "192.0.2.50" if name == "known" else "192.0.2.51")
        statuses = [_signin(browser, name, "a wrong one").status_code for _ in range(6)]
        answers[name] = statuses
    assert answers["known"] == answers["unknown"] == [401] * 5 + [429]


# -- sign-ups and guests -------------------------------------------------------------------


def _new_guest(client: TestClient) -> Any:
    return client.post("/api/games/klondike/play", json={"number": 24})


def test_new_guests_are_limited_per_address(app, clock):
    """The default limit: 60 new guests per address in 10 minutes, then one every 10 s."""
    settings = app.state.settings
    count = settings.guests_per_address
    assert count == 60
    for _ in range(count):
        assert _new_guest(_browser(app, "203.0.113.5")).status_code == 201
    r = _new_guest(_browser(app, "203.0.113.5"))
    wait = _assert_rate_limited(r)
    assert wait == settings.guest_window_seconds // count
    assert "guest" in r.json()["error"]["message"]
    assert _count_users(app, users.c.guest.is_(True)) == count  # the refused one left nothing
    # Another address; an existing guest (a session) plays on.
    assert _new_guest(_browser(app, "203.0.113.6")).status_code == 201
    # After the interval, one more.
    clock.advance(wait)
    assert _new_guest(_browser(app, "203.0.113.5")).status_code == 201
    _assert_rate_limited(_new_guest(_browser(app, "203.0.113.5")))


def test_a_guest_already_made_is_not_limited(make_app):
    app = make_app(guests_per_address=1)
    browser = _browser(app, "203.0.113.5")
    for _ in range(5):
        assert _new_guest(browser).status_code == 201  # the same guest's plays
    _assert_rate_limited(_new_guest(_browser(app, "203.0.113.5")))


def test_parallel_new_guests_from_one_address(make_app):
    app = make_app(guests_per_address=5)
    answers = at_once(
        [functools.partial(_new_guest, _browser(app, "203.0.113.8")) for _ in range(24)]
    )
    assert _statuses(answers) == {201: 5, 429: 19}
    assert _count_users(app, users.c.guest.is_(True)) == 5


def test_sign_ups_are_limited_per_address_before_any_hashing(make_app, hasher):
    app = make_app(signups_per_address=3)

    def signup(i: int) -> Any:
        body = {"name": f"newcomer{i}", "password": "long enough"}
        return _browser(app, "198.51.100.20").post("/api/auth/signup", json=body)

    answers = at_once([functools.partial(signup, i) for i in range(12)])
    assert _statuses(answers) == {201: 3, 429: 9}
    assert hasher.hashed == 3  # the refused ones cost no argon2 hash
    refused = next(r for r in answers if r.status_code == 429)
    assert _assert_rate_limited(refused) == 3600 // 3
    assert _count_users(app, users.c.guest.is_(False)) == 3
    body = {"name": "elsewhere", "password": "long enough"}
    r = _browser(app, "198.51.100.21").post("/api/auth/signup", json=body)
    assert r.status_code == 201


# -- hints ---------------------------------------------------------------------------------


def _hint(client: TestClient, play: dict[str, Any]) -> Any:
    return client.post(f"/api/plays/{play['id']}/hint")


def test_hints_are_limited_per_player(make_app, clock):
    app = make_app(hints_per_player=3)
    player = _browser(app, "192.0.2.30")
    play = _new_guest(player).json()
    for _ in range(3):
        r = _hint(player, play)
        assert r.status_code == 200, r.text
        assert r.json()["hint"] in play["legal_moves"]
    wait = _assert_rate_limited(_hint(player, play))
    assert wait == 60 // 3
    # Another player (a guest at the same address) has their own.
    other = _browser(app, "192.0.2.30")
    other_play = _new_guest(other).json()
    assert _hint(other, other_play).status_code == 200
    # The player's next hint comes after the interval.
    clock.advance(wait)
    assert _hint(player, play).status_code == 200
    _assert_rate_limited(_hint(player, play))


def test_a_hint_beyond_the_queue_is_refusedat_once(make_app):
    """With ``hint_queue`` hints asked already, one more is a 503 at once (no thread waits)."""
    app = make_app(hint_queue=1)
    player = _browser(app, "192.0.2.31")
    play = _new_guest(player).json()
    hints._workers.reserve(app.state.settings)  # a hint under way
    try:
        r = _hint(player, play)
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "unavailable"
        assert r.headers["retry-after"] == "1"
    finally:
        hints._workers.release()
    assert _hint(player, play).status_code == 200


def test_hints_are_worked_out_in_another_process(api, monkeypatch):
    """The solver never runs in the server's process: broken here, hints still work."""
    import patiencekit.solver

    expected = patiencekit.solver.hint(new_game("klondike", 24), seconds=None)

    def not_here(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a hint was worked out in the server's process")

    monkeypatch.setattr(patiencekit.solver, "hint", not_here)
    play = api.new_play("klondike", 24)
    play = api.play_ok(play, expected)
    r = api.post(f"/api/plays/{play['id']}/hint")
    assert r.status_code == 200, r.text
    assert r.json()["n"] == 1
    assert r.json()["hint"] in play["legal_moves"]


# -- redirects -----------------------------------------------------------------------------

EVIL_NEXT = [
    "//evil.example",
    "///evil.example",
    "//evil.example/path",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/\x00/evil.example",
    "/\x7f/evil.example",
    "https://evil.example",
    "http:evil.example",
    "HTTPS://evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "evil.example",
    "@evil.example",
    "",
]
GOOD_NEXT = ["/", "/play/klondike?number=3", "/top100/klondike#me", "/a//b", "/%2F%2Fevil.example"]


@pytest.mark.parametrize("value", EVIL_NEXT)
def test_an_evil_next_is_refused(value):
    assert safe_next(value) == "/"


@pytest.mark.parametrize("value", GOOD_NEXT)
def test_a_path_of_the_site_is_kept(value):
    assert safe_next(value) == value


def test_the_sign_in_pages_never_serve_an_evil_next(api):
    for page in ("/signin", "/signup"):
        for value in EVIL_NEXT:
            r = api.client.get(f"{page}?next={quote(value, safe='')}", follow_redirects=False)
            assert r.status_code == 303, (page, value)
            assert r.headers["location"] == page
        # The case of issue 10, exactly as it was sent.
        r = api.client.get(f"{page}?next=%2F%09%2Fhost", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == page
        for value in GOOD_NEXT:
            r = api.client.get(f"{page}?next={quote(value, safe='')}", follow_redirects=False)
            assert r.status_code == 200, (page, value)


# -- database failures ---------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _damage(kind: str, path: Path) -> None:
    """Make ``path`` an SQLite database that cannot be used."""
    if kind == "not a database":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"these are not the pages of a database\n" * 200)
    elif kind == "malformed":
        from patiencekit.server.config import Settings

        settings = Settings(
            env="test", secret_key="startup-secret-0123456789", data_dir=path.parent
        )
        open_database(settings).dispose()
        data = bytearray(path.read_bytes())
        for i in range(4096, len(data)):  # every page but the first (the header)
            data[i] = (i * 7) % 256
        path.write_bytes(bytes(data))
        for extra in ("-wal", "-shm"):
            Path(str(path) + extra).unlink(missing_ok=True)
    elif kind == "unreadable":
        path.mkdir(parents=True)  # a folder where the file should be: cannot be opened
    else:
        raise ValueError(kind)


def _run_server(how: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    port = str(_free_port())
    if how == "serve":
        command = [sys.executable, "-m", "patiencekit.server", "--port", port]
    else:
        command = [sys.executable, "-m", "uvicorn", "--factory", "--port", port]
        command.append("patiencekit.server.app:create_app")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        "PATIENCEKIT_ENV": "test",
        "PATIENCEKIT_SECRET_KEY": "startup-secret-0123456789",
        **env,
    }
    # A server that starts would run until killed: the timeout only ends such a failure.
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("how", ["serve", "factory"])
@pytest.mark.parametrize("kind", ["not a database", "malformed", "unreadable"])
def test_an_sqlite_file_that_cannot_be_used_stops_the_start_with_one_line(tmp_path, how, kind):
    data = tmp_path / "data"
    path = data / "patiencekit.sqlite3"
    _damage(kind, path)
    env = {"PATIENCEKIT_DATA_DIR": str(data)}
    if "PATIENCEKIT_DATABASE_URL" in os.environ:
        env["PATIENCEKIT_DATABASE_URL"] = ""
    done = _run_server(how, env)
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, done.stderr
    assert str(path) in lines[0] and "cannot be used" in lines[0], lines[0]
    if how == "serve":
        assert done.stderr.strip() == lines[0]  # nothing else at all
    reason = {
        "not a database": "file is not a database",
        "malformed": "malformed",
        "unreadable": "unable to open",
    }
    assert reason[kind] in lines[0]


def test_a_postgresql_out_of_reach_stops_the_start_with_one_line():
    url = f"postgresql+psycopg://pk:secret@127.0.0.1:{_free_port()}/patiencekit"
    done = _run_server("serve", {"PATIENCEKIT_DATABASE_URL": url})
    assert done.returncode == 2, done
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("error: the PostgreSQL database patiencekit on ")
    assert "secret" not in line


def _terminate(database_url: str, application_name: str) -> int:
    """End every PostgreSQL connection of ``application_name`` (another test's are safe)."""
    engine = create_engine(database_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            ended = conn.execute(
                text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = :name AND pid <> pg_backend_pid()"
                ),
                {"name": application_name},
            ).scalar()
    finally:
        engine.dispose()
    return int(ended or 0)


def test_a_database_that_fails_later_answers_503(backend, database_url, settings, clock, tmp_path):
    """SQLite: the file damaged under the running server. PostgreSQL: its connections ended
    (a restart, a failover): 503 ``unavailable`` in the API's error shape, never a 500; the
    server goes on, and on PostgreSQL recovers by itself."""
    name = "pk_abuse_" + secrets.token_hex(4)
    url = database_url
    if backend == "postgres":
        url = make_url(url).update_query_dict({"application_name": name})
        url = url.render_as_string(hide_password=False)
    app = create_app(dataclasses.replace(settings, database_url=url), clock=clock)
    try:
        with TestClient(app) as client:
            csrf = client.get("/api/session").json()["csrf"]
            headers = {"X-CSRF-Token": csrf}
            play = client.post("/api/games/klondike/play", json={"number": 24}, headers=headers)
            assert play.status_code == 201
            play_id = play.json()["id"]
            if backend == "sqlite":
                app.state.db.engine.dispose()
                _damage("malformed", Path(make_url(url).database or ""))
            else:
                assert _terminate(database_url, name) >= 1
            answers = [
                client.get("/api/session"),
                client.get(f"/api/plays/{play_id}"),
                client.post(f"/api/plays/{play_id}/moves", json={"move": "s", "n": 0},
                            headers=headers),
            ]  # fmt: skip
            first = answers[0]
            assert first.status_code == 503, first.text
            assert first.json() == {
                "error": {
                    "code": "unavailable",
                    "message": "the database cannot be used just now: try again in a moment",
                }
            }
            assert first.headers["retry-after"].isdigit()
            assert client.get("/api/health").status_code == 200  # the server goes on
            if backend == "sqlite":
                assert {r.status_code for r in answers} == {503}
            else:  # each pool saw its connections lost and made new ones
                assert {r.status_code for r in answers} <= {200, 503}
                assert client.get("/api/session").status_code == 200
                assert client.get(f"/api/plays/{play_id}").status_code == 200
                r = client.post(
                    f"/api/plays/{play_id}/moves", json={"move": "s", "n": 0}, headers=headers
                )
                assert r.status_code in (200, 409), r.text  # 409: stored before the loss
    finally:
        app.state.db.dispose()


# -- a 500 ---------------------------------------------------------------------------------


def _with_a_failing_route(app: FastAPI) -> FastAPI:
    """The app plus a test-only route that fails (never in the production code)."""

    def boom() -> None:
        raise RuntimeError("a bug in a route")

    app.add_api_route("/api/test-boom", boom)
    return app


@contextlib.contextmanager
def _uvicorn(app: FastAPI) -> Iterator[int]:
    """The app served by a real uvicorn, in a thread of this process; yields its port."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:  # until it listens (or fails): no verdict from the time
            assert thread.is_alive(), "uvicorn did not start"
            thread.join(0.05)
        yield port
    finally:
        server.should_exit = True
        thread.join(30)


def _raw_get(port: int, path: str) -> tuple[str, dict[str, str], bytes]:
    """One GET on a connection of its own, read until the server closes it (cleanly: a
    reset raises)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status, *lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return status, {k.lower(): v for k, v in headers.items()}, body


def test_a_500_is_json_and_closes_its_connection(app):
    _with_a_failing_route(app)
    client = TestClient(app)
    r = client.get("/api/test-boom")
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "internal"
    assert r.headers["connection"] == "close"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["cache-control"] == "no-store"
    assert client.get("/api/health").json() == {"ok": True}
    # On a real server: the whole answer, then the server closes the connection itself.
    with _uvicorn(app) as port:
        status, headers, body = _raw_get(port, "/api/test-boom")
        assert status == "HTTP/1.1 500 Internal Server Error"
        assert headers["connection"] == "close"
        assert int(headers["content-length"]) == len(body)
        assert json.loads(body)["error"]["code"] == "internal"
        # And it goes on serving, keep-alive as usual.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            for _ in range(2):
                s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                answer = b""
                while not answer.endswith(b'{"ok":true}'):
                    chunk = s.recv(65536)
                    assert chunk, "the connection was closed"
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 200 OK")
        status, _, _ = _raw_get(port, "/api/test-boom")
        assert status.startswith("HTTP/1.1 500")


# -- headers -------------------------------------------------------------------------------

PAGES = [
    "/",
    "/rules/klondike",
    "/play/klondike",
    "/play/senior-wrangler?number=3",
    "/p/" + "0" * 32,
    "/stats/somebody",
    "/signin",
    "/signup?next=/top100/klondike",
    "/tournaments",
    "/tournaments/1",
    "/top100",
    "/top100/klondike",
    "/players/somebody",
    "/play/no-such-game",  # the 404 page
    "/rules/no-such-game",
]


def test_every_page_has_a_content_security_policy(api):
    for path in PAGES:
        r = api.get(path)
        assert r.headers["content-type"].startswith("text/html"), path
        assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
    policy = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    # JSON has no policy to carry (nothing runs in it), and is not sniffed.
    assert "content-security-policy" not in api.get("/api/health").headers


class _Inline(html.parser.HTMLParser):
    """What a policy without 'unsafe-inline' would block: inline scripts and styles, event
    handler attributes, javascript: links."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k: v or "" for k, v in attrs}
        if tag == "script":
            self._script = "src" not in names
        if tag == "style":
            self.found.append("<style>")
        for name, value in names.items():
            if name.startswith("on") or name == "style":
                self.found.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action") and value.lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")

    def handle_data(self, data: str) -> None:
        if self._script and data.strip():
            self.found.append(f"inline script: {data.strip()[:40]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = False


def test_the_pages_have_no_inline_script_or_style(api):
    """The policy allows no inline code, so the pages must have none (as served: their
    shared fragments put in)."""
    for path in PAGES:
        parser = _Inline()
        parser.feed(api.get(path).text)
        assert parser.found == [], (path, parser.found)
    for page in sorted(STATIC_DIR.glob("*.html")):
        parser = _Inline()
        parser.feed(page.read_text(encoding="utf-8"))
        assert parser.found == [], (page.name, parser.found)
    for script in sorted(STATIC_DIR.glob("js/*.js")):
        source = script.read_text(encoding="utf-8")
        assert not re.search(r"""\son[a-z]+=["']|\sstyle=["']|\beval\(|new Function\(""",
                             source), script.name  # fmt: skip


def _api_gets(app: FastAPI) -> list[str]:
    """Every GET of the API (from its OpenAPI schema), with its parameters filled in."""
    values = {"game_id": "klondike", "name": "somebody", "play_id": "0" * 32}
    paths = []
    for path, item in app.openapi()["paths"].items():
        if "get" in item:
            paths.append(re.sub(r"\{(\w+)\}", lambda m: values.get(m[1], "1"), path))
    return paths


def test_every_api_answer_is_no_store(app, api):
    """Answers of the API depend on the session (who is signed in, whose plays): no cache
    may keep them, whatever their status."""
    assert api.signup("storer").status_code == 201
    play = api.new_play("klondike", 24)
    answers = [api.get(path) for path in _api_gets(app)]
    assert len(answers) >= 10
    answers += [
        api.post(f"/api/plays/{play['id']}/moves", {"move": "s", "n": 0}),
        api.post(f"/api/plays/{play['id']}/hint"),
        api.post(f"/api/plays/{play['id']}/moves", {"move": "nonsense", "n": 1}),  # 400
        api.get(f"/api/plays/{'f' * 32}"),  # 404
        api.client.post("/api/games/klondike/play", json={}),  # 403 from the CSRF check
        api.post("/api/auth/signin", {"name": "storer", "password": "wrong password"}),  # 401
        api.post("/api/games/klondike/play", content=b"x" * 20000),  # 413
        api.get("/api/no-such-thing"),  # 404
        api.post("/api/auth/signout"),
        api.get("/api/session"),
    ]
    for r in answers:
        assert r.headers.get("cache-control") == "no-store", (r.request.url, r.status_code)
    # The pages are revalidated (no-cache), the static files cached as usual.
    assert api.get("/").headers["cache-control"] == "no-cache"
    assert api.get("/static/js/next.js").headers.get("cache-control") != "no-store"
