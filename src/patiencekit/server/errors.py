"""API errors: one exception type, mapped to ``{"error": {"code", "message"}}`` in one place.

What no route handles is answered by :func:`unexpected_error` (through
``middleware.UnexpectedErrorMiddleware``): 503 ``unavailable`` when the database cannot
be reached or read, else 500 ``internal``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = ["ApiError", "error_body", "install_error_handlers", "unexpected_error"]

log = logging.getLogger("patiencekit.server")


class ApiError(Exception):
    """A refused request: HTTP status, a stable code and a sentence for the player."""

    def __init__(
        self, status: int, code: str, message: str, *, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        #: extra headers of the answer (``Retry-After`` on 429 and 503)
        self.headers = dict(headers or {})


def error_body(code: str, message: str) -> dict[str, Any]:
    """The JSON body of every error answer."""
    return {"error": {"code": code, "message": message}}


def _field(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return ".".join(parts) or "the body"


async def _api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse(
        error_body(exc.code, exc.message), status_code=exc.status, headers=exc.headers or None
    )


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return JSONResponse(
            error_body("bad_request", "the request body is not valid JSON"), status_code=400
        )
    first = errors[0] if errors else {}
    where = _field(first.get("loc", ()))
    what = str(first.get("msg", "is not valid"))
    if first.get("type") == "missing":
        message = f"{where} is missing"
    elif first.get("type") == "model_attributes_type":
        message = "the request body must be a JSON object"
    else:
        message = f"{where}: {what[:1].lower()}{what[1:]}"
    return JSONResponse(error_body("bad_request", message), status_code=422)


_HTTP_CODES = {
    401: ("unauthorized", "sign in first"),
    403: ("forbidden", "this is not allowed"),
    404: ("not_found", "there is nothing at this address"),
    405: ("bad_request", "this address does not take that method"),
    413: ("too_large", "the request body is too large"),
}


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code, message = _HTTP_CODES.get(exc.status_code, ("bad_request", str(exc.detail)))
    return JSONResponse(error_body(code, message), status_code=exc.status_code, headers=exc.headers)


#: seconds a client is asked to wait (``Retry-After``) when the database is unavailable
UNAVAILABLE_RETRY_SECONDS = 5


#: failures of the database itself, raised without a DB-API error: the pool has no connection
#: to give; psycopg's own (the statements run on the event loop)
_UNAVAILABLE = (
    sa_exc.TimeoutError,
    sa_exc.DisconnectionError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)


def _database_unavailable(exc: BaseException) -> bool:
    """True for a database that cannot be reached or read (a lost connection, a damaged
    SQLite file, a lock held too long), not for a mistake of the app's own (a constraint,
    a bad statement)."""
    if isinstance(exc, sa_exc.DBAPIError):
        # exactly DatabaseError: SQLite's "database disk image is malformed", "file is not
        # a database"; its subclasses IntegrityError, ProgrammingError... are the app's
        return (
            exc.connection_invalidated
            or isinstance(exc, sa_exc.OperationalError | sa_exc.InterfaceError)
            or type(exc) is sa_exc.DatabaseError
        )
    return isinstance(exc, _UNAVAILABLE)


def unexpected_error(exc: BaseException) -> tuple[int, str, str, dict[str, str]]:
    """The answer to an exception no route handled: status, code, message and extra
    headers; logged here (the database's failures in one line, anything else with its
    traceback).

    A 500 closes its connection (``Connection: close``): whatever went wrong, the next
    request starts afresh on a new one.
    """
    if _database_unavailable(exc):
        log.error("database unavailable: %s", (str(exc).strip().splitlines() or ["?"])[0])
        return (
            503,
            "unavailable",
            "the database cannot be used just now: try again in a moment",
            {"retry-after": str(UNAVAILABLE_RETRY_SECONDS)},
        )
    log.error("unexpected error", exc_info=exc)
    return (
        500,
        "internal",
        "something went wrong on the server; nothing was changed",
        {"connection": "close"},
    )


def install_error_handlers(app: FastAPI) -> None:
    """Map every error a route raises to the API's JSON error shape (the rest:
    :func:`unexpected_error`)."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
