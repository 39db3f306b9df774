"""Accounts: guests, sign-up, sign-in (rate limited), sign-out and the session.

A visitor without an account gets a guest user on their first state-changing
request; the guest keeps their plays across reloads (the session cookie), and
keeps them when they sign up or sign in.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from patiencekit.server.db import Database, plays, sessions, signin_failures, users
from patiencekit.server.deps import (
    Client,
    ClientDep,
    DbDep,
    clear_session_cookie,
    ensure_csrf_cookie,
    set_session_cookie,
)
from patiencekit.server.errors import ApiError
from patiencekit.server.security import (
    hash_password,
    hash_token,
    needs_rehash,
    new_token,
    verify_password,
)

__all__ = ["User", "current_user", "router", "user_for_write"]

NAME_RE = re.compile(r"[A-Za-z0-9_-]{3,32}")
PASSWORD_MIN, PASSWORD_MAX = 8, 256
GUEST_PREFIX = "guest-"


@dataclass(frozen=True, slots=True)
class User:
    """A player: an account or a guest."""

    id: int
    name: str
    guest: bool

    def to_json(self) -> dict[str, Any]:
        """The ``user`` object of the API."""
        return {"name": self.name, "guest": self.guest}


# -- service ---------------------------------------------------------------------


def current_user(conn: Connection, client: Client) -> User | None:
    """The user of the request's session, if it has a live one."""
    if not client.token:
        return None
    row = conn.execute(
        select(users.c.id, users.c.name, users.c.guest)
        .join(sessions, sessions.c.user_id == users.c.id)
        .where(
            sessions.c.token_hash == hash_token(client.token),
            sessions.c.expires_at > client.now(),
        )
    ).first()
    return User(row.id, row.name, row.guest) if row is not None else None


def _start_session(conn: Connection, user_id: int, client: Client) -> str:
    token = new_token()
    now = client.now()
    conn.execute(
        insert(sessions).values(
            token_hash=hash_token(token),
            user_id=user_id,
            created_at=now,
            expires_at=now + client.settings.session_seconds,
        )
    )
    return token


def _end_session(conn: Connection, client: Client) -> None:
    if client.token:
        conn.execute(delete(sessions).where(sessions.c.token_hash == hash_token(client.token)))


def user_for_write(conn: Connection, client: Client) -> tuple[User, str | None]:
    """The request's user, making a guest (and a session) when there is none.

    Returns the user and the new session token to set as a cookie (None when
    the session already existed).
    """
    user = current_user(conn, client)
    if user is not None:
        return user, None
    now = client.now()
    name = GUEST_PREFIX + secrets.token_hex(5)
    user_id = conn.execute(
        insert(users)
        .values(name=name, name_key=name, password_hash=None, guest=True, created_at=now)
        .returning(users.c.id)
    ).scalar_one()
    return User(user_id, name, True), _start_session(conn, user_id, client)


def _check_credentials(name: str, password: str) -> None:
    if not NAME_RE.fullmatch(name):
        raise ApiError(
            400,
            "bad_request",
            "a name has 3 to 32 characters, each a letter, a digit, _ or -",
        )
    if name.lower().startswith(GUEST_PREFIX):
        raise ApiError(400, "bad_request", f"names starting with {GUEST_PREFIX!r} are for guests")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            400,
            "bad_request",
            f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
        )


def signup(db: Database, client: Client, name: str, password: str) -> tuple[User, str]:
    """Create an account (a guest's own user becomes the account); returns it and its session."""
    _check_credentials(name, password)
    password_hash = hash_password(password)  # slow on purpose: outside the transaction
    taken = ApiError(409, "conflict", f"the name {name!r} is taken")
    try:
        with db.write() as conn:
            if conn.execute(select(users.c.id).where(users.c.name_key == name.lower())).first():
                raise taken
            user = current_user(conn, client)
            values = {"name": name, "name_key": name.lower(), "password_hash": password_hash}
            if user is not None and user.guest:
                conn.execute(
                    update(users).where(users.c.id == user.id).values(guest=False, **values)
                )
                user_id = user.id
            else:
                user_id = conn.execute(
                    insert(users)
                    .values(guest=False, created_at=client.now(), **values)
                    .returning(users.c.id)
                ).scalar_one()
            _end_session(conn, client)
            token = _start_session(conn, user_id, client)
    except IntegrityError:
        raise taken from None
    return User(user_id, name, False), token


def _failures(conn: Connection, name_key: str, client: Client) -> int:
    since = client.now() - client.settings.signin_window_seconds
    count = conn.execute(
        select(func.count())
        .select_from(signin_failures)
        .where(
            signin_failures.c.name_key == name_key,
            signin_failures.c.ip == client.ip,
            signin_failures.c.at > since,
        )
    ).scalar_one()
    return int(count)


def signin(db: Database, client: Client, name: str, password: str) -> tuple[User, str]:
    """Check a name and password; returns the user and a new session.

    After ``signin_max_failures`` failures for this name from this address
    within the window, every attempt is refused (429) until the window passes.
    A guest signing in hands their plays to the account.
    """
    key = name.lower()[:64]
    with db.read() as conn:
        if _failures(conn, key, client) >= client.settings.signin_max_failures:
            raise ApiError(
                429,
                "rate_limited",
                "too many failed sign-ins for this name: wait a few minutes and try again",
            )
        row = conn.execute(
            select(users.c.id, users.c.name, users.c.password_hash).where(
                users.c.name_key == key, users.c.guest.is_(False)
            )
        ).first()
    ok = verify_password(row.password_hash if row is not None else None, password)
    # Hashing is slow on purpose: never inside the write transaction (it holds the writer).
    stale = row is not None and ok and needs_rehash(row.password_hash)
    rehashed = hash_password(password) if stale else None
    with db.write() as conn:
        if row is None or not ok:
            conn.execute(
                insert(signin_failures).values(name_key=key, ip=client.ip, at=client.now())
            )
            conn.commit()
            raise ApiError(401, "unauthorized", "the name or the password is wrong")
        previous = current_user(conn, client)
        if previous is not None and previous.guest:
            conn.execute(update(plays).where(plays.c.user_id == previous.id).values(user_id=row.id))
        _end_session(conn, client)
        token = _start_session(conn, row.id, client)
        conn.execute(
            delete(signin_failures).where(
                signin_failures.c.name_key == key, signin_failures.c.ip == client.ip
            )
        )
        if rehashed is not None:
            conn.execute(update(users).where(users.c.id == row.id).values(password_hash=rehashed))
    return User(row.id, row.name, False), token


def signout(db: Database, client: Client) -> None:
    """End the request's session (if any)."""
    with db.write() as conn:
        _end_session(conn, client)


# -- routes ----------------------------------------------------------------------


class Credentials(BaseModel):
    """The body of sign-up and sign-in."""

    model_config = ConfigDict(strict=True)

    name: str
    password: str


router = APIRouter()


@router.get("/session")
def get_session(request: Request, response: Response, db: DbDep, client: ClientDep) -> Any:
    """Who is signed in, and the CSRF token to repeat in ``X-CSRF-Token``."""
    csrf = ensure_csrf_cookie(request, response)
    with db.read() as conn:
        user = current_user(conn, client)
    return {"user": user.to_json() if user else None, "csrf": csrf}


@router.post("/auth/signup", status_code=201)
def post_signup(body: Credentials, response: Response, db: DbDep, client: ClientDep) -> Any:
    """Create an account and sign in to it."""
    user, token = signup(db, client, body.name, body.password)
    set_session_cookie(response, token, client)
    return {"user": user.to_json()}


@router.post("/auth/signin")
def post_signin(body: Credentials, response: Response, db: DbDep, client: ClientDep) -> Any:
    """Sign in with a name and a password."""
    user, token = signin(db, client, body.name, body.password)
    set_session_cookie(response, token, client)
    return {"user": user.to_json()}


@router.post("/auth/signout")
def post_signout(response: Response, db: DbDep, client: ClientDep) -> Any:
    """Sign out (a guest loses access to their plays)."""
    signout(db, client)
    clear_session_cookie(response, client)
    return {"user": None}
