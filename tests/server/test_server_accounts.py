"""Accounts: sign-up, sign-in (rate limited across processes), sign-out, sessions and cookies."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import create_engine, select

from patiencekit.server.app import create_app
from patiencekit.server.db import users


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["error"]["code"] == code, body
    return body


def _set_cookie(r: Any, name: str) -> str:
    """The Set-Cookie header the answer gives for cookie ``name``."""
    found = [h for h in r.headers.get_list("set-cookie") if h.startswith(name + "=")]
    assert len(found) == 1, r.headers.get_list("set-cookie")
    return str(found[0])


def test_a_visitor_has_no_user_and_gets_a_csrf_cookie(api):
    r = api.get("/api/session")
    assert r.status_code == 200
    assert r.json()["user"] is None
    cookie = _set_cookie(r, "pk_csrf")
    assert "httponly" not in cookie.lower() and "samesite=lax" in cookie.lower()
    assert r.json()["csrf"] == api.client.cookies["pk_csrf"]
    # The same token while the cookie is there.
    assert api.get("/api/session").json()["csrf"] == r.json()["csrf"]


def test_signup_signs_in_with_a_safe_session_cookie(api, settings):
    r = api.signup("Alice_1")
    assert r.status_code == 201, r.text
    assert r.json() == {"user": {"name": "Alice_1", "guest": False}}
    cookie = _set_cookie(r, "pk_session").lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # plain http here
    assert api.session()["user"] == {"name": "Alice_1", "guest": False}
    # The password is kept only as an argon2id hash.
    engine = create_engine(settings.database_url)
    with engine.connect() as conn:
        row = conn.execute(select(users).where(users.c.name == "Alice_1")).one()
    engine.dispose()
    assert row.password_hash.startswith("$argon2id$")
    assert "correct horse" not in row.password_hash
    assert row.guest is False


def test_cookies_are_secure_over_https(make_api):
    api = make_api(base_url="https://testserver")
    r = api.get("/api/session")
    assert "secure" in _set_cookie(r, "pk_csrf").lower()
    r = api.signup("secure_sam")
    assert r.status_code == 201, r.text
    assert "secure" in _set_cookie(r, "pk_session").lower()


def test_a_name_is_taken_whatever_its_case(api, other_api):
    assert api.signup("Bob").status_code == 201
    _error(other_api.signup("bob"), 409, "conflict")
    _error(other_api.signup("BOB", "another password"), 409, "conflict")
    assert other_api.session()["user"] is None


@pytest.mark.parametrize(
    ("name", "password"),
    [
        ("ab", "long enough"),
        ("x" * 33, "long enough"),
        ("with space", "long enough"),
        ("émile", "long enough"),
        ("guest-abc", "long enough"),
        ("Carol", "short"),
        ("Carol", "x" * 257),
    ],
)
def test_bad_names_and_passwords_are_refused(api, name, password):
    _error(api.signup(name, password), 400, "bad_request")
    assert api.session()["user"] is None


@pytest.mark.parametrize(
    "body", [{"name": "Dave"}, {"password": "long enough"}, {"name": 5, "password": "x" * 8}]
)
def test_signup_fields_are_required(api, body):
    _error(api.post("/api/auth/signup", body), 422, "bad_request")


def test_a_guest_who_signs_up_keeps_their_games(api, clock):
    play = api.new_play("klondike", 24)
    play = api.play_ok(play, "s")
    guest = api.session()["user"]
    assert guest["guest"] is True
    old_cookie = api.client.cookies["pk_session"]
    assert api.signup("Erin").status_code == 201
    assert api.client.cookies["pk_session"] != old_cookie  # a new session id
    r = api.get(f"/api/plays/{play['id']}")
    assert r.status_code == 200 and r.json()["n"] == 1
    clock.advance(1)
    api.new_play("klondike", 25)  # the guest's play, left for a new one, counts for Erin
    assert api.get("/api/stats/Erin").json()["klondike"]["played"] == 1
    # The guest name is gone: the user was turned into the account.
    assert api.get(f"/api/stats/{guest['name']}").status_code == 404


def test_signin_and_signout(api, other_api):
    assert api.signup("Frank", "frank's password").status_code == 201
    play = api.play_ok(api.new_play("klondike", 24), "s")
    r = api.post("/api/auth/signout")
    assert r.status_code == 200 and r.json() == {"user": None}
    assert api.session()["user"] is None
    _error(api.get(f"/api/plays/{play['id']}"), 403, "forbidden")
    # On another browser.
    r = other_api.post("/api/auth/signin", {"name": "frank", "password": "frank's password"})
    assert r.status_code == 200, r.text
    assert r.json() == {"user": {"name": "Frank", "guest": False}}
    assert "httponly" in _set_cookie(r, "pk_session").lower()
    assert other_api.get(f"/api/plays/{play['id']}").json()["n"] == 1


def test_the_old_session_is_useless_after_signout(api, app):
    from fastapi.testclient import TestClient

    assert api.signup("Gina").status_code == 201
    stolen = api.client.cookies["pk_session"]
    api.post("/api/auth/signout")
    thief = TestClient(app, cookies={"pk_session": stolen})
    assert thief.get("/api/session").json()["user"] is None


def test_a_guest_who_signs_in_brings_their_plays(api, other_api):
    assert other_api.signup("Hugo", "hugo's password").status_code == 201
    play = api.play_ok(api.new_play("klondike", 24), "s")
    assert api.session()["user"]["guest"] is True
    r = api.post("/api/auth/signin", {"name": "Hugo", "password": "hugo's password"})
    assert r.status_code == 200
    assert api.get(f"/api/plays/{play['id']}").status_code == 200
    assert other_api.get(f"/api/plays/{play['id']}").status_code == 200  # Hugo's other browser


def test_wrong_passwords_and_unknown_names(api, other_api):
    assert other_api.signup("Ivy", "ivy's password").status_code == 201
    body = _error(api.post("/api/auth/signin", {"name": "Ivy", "password": "wrong one"}), 401,
                  "unauthorized")  # fmt: skip
    unknown = _error(api.post("/api/auth/signin", {"name": "Nobody", "password": "whatever1"}),
                     401, "unauthorized")  # fmt: skip
    assert body == unknown  # the answer does not tell which names exist
    assert api.session()["user"] is None
    _error(api.post("/api/auth/signin", {"name": "Ivy"}), 422, "bad_request")


def test_sign_in_is_rate_limited_per_name_and_address(api, other_api, clock):
    assert other_api.signup("Jack", "jack's password").status_code == 201
    wrong = {"name": "Jack", "password": "not jack's"}
    for _ in range(5):
        _error(api.post("/api/auth/signin", wrong), 401, "unauthorized")
    # The sixth attempt is refused, even with the right password.
    right = {"name": "Jack", "password": "jack's password"}
    _error(api.post("/api/auth/signin", right), 429, "rate_limited")
    assert api.session()["user"] is None
    # Another name from the same address is not limited.
    assert other_api.signup("Kate", "kate's password").status_code == 201
    r = api.post("/api/auth/signin", {"name": "Kate", "password": "kate's password"})
    assert r.status_code == 200
    # The window passes.
    clock.advance(301)
    assert api.post("/api/auth/signin", right).status_code == 200


def test_the_rate_limit_holds_across_server_processes(api, other_api, settings, clock):
    """The failures are in the database: a second app on it sees them."""
    from fastapi.testclient import TestClient

    # Liam signs up on another browser: neither browser below is one he signed in on.
    assert other_api.signup("Liam", "liam's password").status_code == 201
    second = create_app(settings, clock=clock)
    try:
        other = TestClient(second)
        csrf = other.get("/api/session").json()["csrf"]
        wrong = {"name": "liam", "password": "not liam's"}
        for i in range(5):
            target = api if i % 2 else None
            if target is None:
                r = other.post("/api/auth/signin", json=wrong, headers={"X-CSRF-Token": csrf})
            else:
                r = api.post("/api/auth/signin", wrong)
            assert r.status_code == 401
        right = {"name": "Liam", "password": "liam's password"}
        r = other.post("/api/auth/signin", json=right, headers={"X-CSRF-Token": csrf})
        _error(r, 429, "rate_limited")
        _error(api.post("/api/auth/signin", right), 429, "rate_limited")
    finally:
        second.state.db.dispose()


def test_a_successful_signin_is_not_counted_and_trusts_the_browser(api, other_api):
    """A success gives its attempt back; and the browser it came from (its device cookie)
    has an allowance of its own from then on, which nobody else's failures use."""
    assert other_api.signup("Mia", "mia's password").status_code == 201
    for _ in range(4):
        api.post("/api/auth/signin", {"name": "Mia", "password": "wrong!!!"})
    r = api.post("/api/auth/signin", {"name": "Mia", "password": "mia's password"})
    assert r.status_code == 200
    cookie = _set_cookie(r, "pk_device").lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/api/auth/" in cookie
    for _ in range(4):
        _error(api.post("/api/auth/signin", {"name": "Mia", "password": "wrong!!!"}), 401,
               "unauthorized")  # fmt: skip


def test_sessions_expire(api, clock, settings):
    assert api.signup("Noah").status_code == 201
    clock.advance(settings.session_seconds - 10)
    assert api.session()["user"] is not None
    clock.advance(20)
    assert api.session()["user"] is None
