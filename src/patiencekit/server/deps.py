"""What routes need from a request: the database, the settings, who is asking."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import orjson
from fastapi import Depends, Request, Response

from patiencekit.server.config import Settings
from patiencekit.server.db import Database
from patiencekit.server.middleware import CSRF_COOKIE
from patiencekit.server.security import csrf_token_valid, new_csrf_token

__all__ = [
    "DEVICE_COOKIE",
    "SESSION_COOKIE",
    "Client",
    "ClientDep",
    "DbDep",
    "SettingsDep",
    "clear_session_cookie",
    "ensure_csrf_cookie",
    "json_response",
    "set_device_cookie",
    "set_session_cookie",
]

SESSION_COOKIE = "pk_session"
#: the device cookie (``security.new_device_token``): sent to the sign-in only
DEVICE_COOKIE = "pk_device"
DEVICE_COOKIE_PATH = "/api/auth/"
#: a device cookie lives this long (seconds): a year
DEVICE_SECONDS = 365 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Client:
    """The browser asking: its session token (if any), its address, whether over https."""

    token: str | None
    ip: str
    https: bool
    settings: Settings
    clock: Callable[[], float]

    def now(self) -> float:
        """The server's clock (seconds since the epoch)."""
        return self.clock()


# The dependencies are ``async``: they only read the request, and FastAPI would run
# plain functions in its thread pool, one hop each.


async def _db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def _settings(request: Request) -> Settings:
    return _app_settings(request)


def _app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def _client(request: Request) -> Client:
    return Client(
        token=request.cookies.get(SESSION_COOKIE) or None,
        ip=request.client.host if request.client else "unknown",
        https=request.url.scheme == "https",
        settings=_app_settings(request),
        clock=request.app.state.clock,
    )


DbDep = Annotated[Database, Depends(_db)]
SettingsDep = Annotated[Settings, Depends(_settings)]
ClientDep = Annotated[Client, Depends(_client)]


def set_session_cookie(response: Response, token: str, client: Client) -> None:
    """Give the browser its session: HttpOnly, SameSite=Lax, Secure over https."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=client.settings.session_seconds,
        path="/",
        httponly=True,
        samesite="lax",
        secure=client.https,
    )


def set_device_cookie(response: Response, token: str, client: Client) -> None:
    """Tell the browser it is trusted by the account it signed in to (its device token):
    HttpOnly, SameSite=Strict, sent to ``/api/auth/`` only, Secure over https."""
    response.set_cookie(
        DEVICE_COOKIE,
        token,
        max_age=DEVICE_SECONDS,
        path=DEVICE_COOKIE_PATH,
        httponly=True,
        samesite="strict",
        secure=client.https,
    )


def json_response(content: Any, status: int = 200) -> Response:
    """A JSON answer, encoded directly by orjson (FastAPI's generic encoder is ten times
    slower, the standard library's five); what orjson refuses (an integer over 64 bits,
    such as a deal number from 2**64 on) goes to the standard library.

    >>> json_response({"n": 2**64, "name": "Solitaire"}).body
    b'{"n":18446744073709551616,"name":"Solitaire"}'
    """
    try:
        body = orjson.dumps(content)
    except TypeError:  # orjson.JSONEncodeError
        body = json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(body, status_code=status, media_type="application/json")


def clear_session_cookie(response: Response, client: Client) -> None:
    """Forget the session cookie."""
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=client.https
    )


def ensure_csrf_cookie(request: Request, response: Response) -> str:
    """The request's valid CSRF token, or a new one set as the ``pk_csrf`` cookie."""
    settings = _app_settings(request)
    token = request.cookies.get(CSRF_COOKIE)
    if token and csrf_token_valid(token, settings.secret_key):
        return token
    token = new_csrf_token(settings.secret_key)
    response.set_cookie(
        CSRF_COOKIE,
        token,
        max_age=settings.session_seconds,
        path="/",
        httponly=False,  # the page's script reads it and repeats it in X-CSRF-Token
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return token
