"""Accounts: guests, sign-up, sign-in (rate limited), sign-out and the session.

A visitor without an account gets a guest user on their first state-changing
request; the guest keeps their plays across reloads (the session cookie), and
keeps them when they sign up or sign in. New guests and sign-ups are limited per
address; sign-in attempts are limited as :func:`signin` says (``limits``).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from patiencekit.i18n import N_
from patiencekit.server import limits
from patiencekit.server.config import Settings
from patiencekit.server.db import Database, sessions, signin_failures, users
from patiencekit.server.deps import (
    DEVICE_COOKIE,
    Client,
    ClientDep,
    DbDep,
    clear_session_cookie,
    ensure_csrf_cookie,
    set_device_cookie,
    set_session_cookie,
)
from patiencekit.server.errors import ApiError, error_responses
from patiencekit.server.limits import Limit
from patiencekit.server.play.tables import plays
from patiencekit.server.security import (
    device_id,
    hash_password,
    hash_token,
    needs_rehash,
    new_device_token,
    new_token,
    verify_password,
)

__all__ = ["User", "current_user", "name_key", "router", "user_for_write"]

NAME_RE = re.compile(r"[A-Za-z0-9_-]{3,32}")
PASSWORD_MIN, PASSWORD_MAX = 8, 256
GUEST_PREFIX = "guest-"


def name_key(name: str) -> str:
    """The key a player's name is looked up by (``users.name_key``): case-blind, at most 64
    characters, and safe to send to any database. A NUL (which PostgreSQL's text refuses)
    becomes U+FFFD, so a name from the outside that holds one matches no account and
    errs nowhere: it is an unknown name like any other.

    >>> name_key("Ann"), name_key("a" + chr(0) + "b") == name_key("a" + chr(0xFFFD) + "b")
    ('ann', True)
    """
    return name.lower()[:64].replace("\x00", "\ufffd")


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
    the session already existed). At most ``guests_per_address`` new guests per
    address and ``guest_window_seconds`` (else 429, and the caller's transaction
    rolls back).
    """
    user = current_user(conn, client)
    if user is not None:
        return user, None
    now = client.now()
    settings = client.settings
    guests = Limit("guest-address", settings.guests_per_address, settings.guest_window_seconds)
    wait = limits.take(conn, guests, limits.address_key(client.ip), now)
    if wait is not None:  # raised in the caller's transaction: nothing is kept
        raise limits.refused(
            N_("too many new guests from this address: wait a little, or sign in"), wait
        )
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
            N_("a name has 3 to 32 characters, each a letter, a digit, _ or -"),
        )
    if name.lower().startswith(GUEST_PREFIX):
        raise ApiError(
            400,
            "bad_request",
            N_("names starting with {prefix!r} are for guests"),
            params={"prefix": GUEST_PREFIX},
        )
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            400,
            "bad_request",
            N_("a password has {least} to {most} characters"),
            params={"least": PASSWORD_MIN, "most": PASSWORD_MAX},
        )


def signup(db: Database, client: Client, name: str, password: str) -> tuple[User, str]:
    """Create an account (a guest's own user becomes the account); returns it and its session.

    At most ``signups_per_address`` attempts per address and ``signup_window_seconds``,
    counted before the password is hashed (else 429).
    """
    _check_credentials(name, password)
    settings = client.settings
    signups = Limit("signup-address", settings.signups_per_address, settings.signup_window_seconds)
    with db.write() as conn:
        wait = limits.take(conn, signups, limits.address_key(client.ip), client.now())
    if wait is not None:
        raise limits.refused(N_("too many sign-ups from this address: wait a little"), wait)
    password_hash = hash_password(password)  # slow on purpose: outside the transaction
    taken = ApiError(409, "conflict", N_("the name {name!r} is taken"), params={"name": name})
    try:
        with db.write() as conn:
            if conn.execute(select(users.c.id).where(users.c.name_key == name_key(name))).first():
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


def _signin_limits(settings: Settings) -> tuple[Limit, Limit, Limit]:
    """The sign-in's limits: per trusted browser, per account, per address."""
    window = settings.signin_window_seconds
    return (
        Limit("signin-device", settings.signin_device_failures, window),
        Limit("signin-account", settings.signin_max_failures, window),
        Limit("signin-address", settings.signin_address_failures, window),
    )


def _count_attempt(
    conn: Connection, client: Client, key: str, device: str | None
) -> list[tuple[Limit, str]]:
    """Count a sign-in attempt before its password is checked: the buckets it was counted
    in (to give back if it succeeds), or 429 (and, the transaction rolling back, nothing
    counted).

    A browser the account trusts (``device``: its device cookie's nonce) is counted in its
    own bucket only, so that nobody else's failures can lock it out; once it has spent
    that, it is counted as any other browser. Any other browser is counted per account
    (whatever its address: a spread-out attack on one account) and per address (whatever
    the account: one address trying many). The buckets are always taken in the same order
    (device, account, address), so that two attempts never wait for each other's.
    """
    now = client.now()
    per_device, per_account, per_address = _signin_limits(client.settings)
    if device is not None:
        own = (per_device, f"{key}:{device}")
        if limits.take(conn, *own, now) is None:
            return [own]
    buckets = [(per_account, key), (per_address, limits.address_key(client.ip))]
    for limit, bucket in buckets:
        wait = limits.take(conn, limit, bucket, now)
        if wait is not None:
            raise limits.refused(
                N_("too many failed sign-ins for this name: wait a few minutes and try again")
                if limit is per_account
                else N_(
                    "too many failed sign-ins from this address: wait a few minutes and try again"
                ),
                wait,
            )
    return buckets


def signin(
    db: Database, client: Client, name: str, password: str, device_token: str | None = None
) -> tuple[User, str, str]:
    """Check a name and password; returns the user, a new session and the browser's device
    token (the one it sent if it is still good for this account, else a new one).

    Every attempt is counted before the password is checked (:func:`_count_attempt`), in
    a transaction of its own: of attempts sent at once, no more than the limit are checked.
    A success gives its attempt back; a failure stays counted (and is recorded in
    ``signin_failures``). Unknown names are counted as known ones are, so that the limit
    tells nobody which names exist. A guest signing in hands their plays to the account.
    """
    key = name_key(name)
    secret = client.settings.secret_key
    device = device_id(device_token, key, secret)
    with db.write() as conn:
        counted = _count_attempt(conn, client, key, device)
        row = conn.execute(
            select(users.c.id, users.c.name, users.c.password_hash).where(
                users.c.name_key == key, users.c.guest.is_(False)
            )
        ).first()
    # Hashing is slow on purpose: never inside a write transaction (it holds the writer).
    ok = verify_password(row.password_hash if row is not None else None, password)
    if row is None or not ok:
        with db.write() as conn:
            conn.execute(
                insert(signin_failures).values(name_key=key, ip=client.ip, at=client.now())
            )
        raise ApiError(401, "unauthorized", N_("the name or the password is wrong"))
    stale = needs_rehash(row.password_hash)
    rehashed = hash_password(password) if stale else None
    with db.write() as conn:
        for limit, bucket in counted:
            limits.give_back(conn, limit, bucket)
        previous = current_user(conn, client)
        if previous is not None and previous.guest:
            conn.execute(update(plays).where(plays.c.user_id == previous.id).values(user_id=row.id))
        _end_session(conn, client)
        token = _start_session(conn, row.id, client)
        if rehashed is not None:
            conn.execute(update(users).where(users.c.id == row.id).values(password_hash=rehashed))
    trusted = device_token if device is not None and device_token else new_device_token(key, secret)
    return User(row.id, row.name, False), token, trusted


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


class UserInfo(BaseModel):
    """The ``user`` object of the API (:meth:`User.to_json`)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    guest: bool


class SessionInfo(BaseModel):
    """The answer of ``GET /api/session``."""

    model_config = ConfigDict(extra="forbid")

    user: UserInfo | None = Field(description="null without a session")
    csrf: str = Field(description="the token to repeat in the X-CSRF-Token header")


class SignedIn(BaseModel):
    """The answer of a sign-up or a sign-in: the account (never a guest)."""

    model_config = ConfigDict(extra="forbid")

    user: UserInfo


class SignedOut(BaseModel):
    """The answer of a sign-out."""

    model_config = ConfigDict(extra="forbid")

    user: None


# The models are the schema's only (``responses=``): the answers are built as dicts, and
# FastAPI does not check them on every request.
router = APIRouter()


@router.get("/session", responses={200: {"model": SessionInfo}})
def get_session(request: Request, response: Response, db: DbDep, client: ClientDep) -> Any:
    """Who is signed in, and the CSRF token to repeat in ``X-CSRF-Token``."""
    csrf = ensure_csrf_cookie(request, response)
    with db.read() as conn:
        user = current_user(conn, client)
    return {"user": user.to_json() if user else None, "csrf": csrf}


@router.post(
    "/auth/signup",
    status_code=201,
    responses={201: {"model": SignedIn}, **error_responses(400, 409, 429)},
)
def post_signup(body: Credentials, response: Response, db: DbDep, client: ClientDep) -> Any:
    """Create an account and sign in to it (this browser is then trusted by the account:
    its device cookie)."""
    user, token = signup(db, client, body.name, body.password)
    set_session_cookie(response, token, client)
    secret = client.settings.secret_key
    set_device_cookie(response, new_device_token(body.name.lower(), secret), client)
    return {"user": user.to_json()}


@router.post("/auth/signin", responses={200: {"model": SignedIn}, **error_responses(401, 429)})
def post_signin(
    body: Credentials, request: Request, response: Response, db: DbDep, client: ClientDep
) -> Any:
    """Sign in with a name and a password (429 with ``Retry-After`` after too many
    failures; a browser that signed in to the account before has an allowance of its
    own: its device cookie)."""
    device = request.cookies.get(DEVICE_COOKIE)
    user, token, trusted = signin(db, client, body.name, body.password, device)
    set_session_cookie(response, token, client)
    set_device_cookie(response, trusted, client)
    return {"user": user.to_json()}


@router.post("/auth/signout", responses={200: {"model": SignedOut}})
def post_signout(response: Response, db: DbDep, client: ClientDep) -> Any:
    """Sign out (a guest loses access to their plays)."""
    signout(db, client)
    clear_session_cookie(response, client)
    return {"user": None}
