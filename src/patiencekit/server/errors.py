"""API errors: one exception type, mapped to ``{"error": {"code", "message"}}`` in one place.

What no route handles is answered by :func:`unexpected_error` (through
``middleware.UnexpectedErrorMiddleware``): 503 ``unavailable`` when the database cannot
be reached or read, else 500 ``internal``.

:class:`ErrorBody` is that body for the OpenAPI schema, and :func:`error_responses` the
``responses=`` of a route that declares the errors it can answer with.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Literal, get_args

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

from patiencekit.errors import UnknownGameError
from patiencekit.games import get_rules
from patiencekit.i18n import N_
from patiencekit.rules import GameRules
from patiencekit.server.language import say, scope_language

__all__ = [
    "ERROR_CODES",
    "ApiError",
    "ErrorBody",
    "ErrorCode",
    "ErrorDetail",
    "error_body",
    "error_responses",
    "game_rules",
    "http_error",
    "install_error_handlers",
    "unexpected_error",
    "validation_message",
]

log = logging.getLogger("patiencekit.server")


class ApiError(Exception):
    """A refused request: HTTP status, a stable code and a sentence for the player.

    The sentence is a msgid of the server's catalogue (marked with ``N_``), its
    placeholders filled from ``params`` once it is said in the request's language
    (:meth:`text`); ``message`` is the English.

    >>> e = ApiError(409, "conflict", N_("the name {name!r} is taken"), params={"name": "ann"})
    >>> e.message, e.text("nl")
    ("the name 'ann' is taken", "de naam 'ann' is al bezet")
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.template = message
        self.params = dict(params or {})
        english = message.format(**self.params) if self.params else message
        super().__init__(english)
        self.status = status
        self.code = code
        self.message = english
        #: extra headers of the answer (``Retry-After`` on 429 and 503)
        self.headers = dict(headers or {})

    def text(self, lang: str) -> str:
        """The sentence for the player in ``lang``."""
        return say(lang, self.template, self.params)


def error_body(code: str, message: str) -> dict[str, Any]:
    """The JSON body of every error answer (:class:`ErrorBody`)."""
    return {"error": {"code": code, "message": message}}


# -- the error body in the OpenAPI schema -------------------------------------------

#: every ``code`` an error answer can carry (docs/api.md, "Conventions")
ErrorCode = Literal[
    "bad_request",
    "bad_number",
    "conflict",
    "daily_played",
    "deal_in_play",
    "forbidden",
    "game_over",
    "illegal_move",
    "internal",
    "no_autocomplete",
    "not_found",
    "not_started",
    "rate_limited",
    "ranked_deal",
    "ranked_open",
    "too_large",
    "tournament_over",
    "unauthorized",
    "unavailable",
    "unknown_game",
]
ERROR_CODES: frozenset[str] = frozenset(get_args(ErrorCode))


class ErrorDetail(BaseModel):
    """What was refused: a stable code for programs, a sentence for the player."""

    model_config = ConfigDict(extra="forbid")

    code: ErrorCode = Field(description="stable: clients may branch on it")
    message: str = Field(description="a sentence for the player (may change)")


class ErrorBody(BaseModel):
    """The body of every error answer: ``{"error": {"code", "message"}}``."""

    model_config = ConfigDict(extra="forbid")

    error: ErrorDetail


#: what each error status means, in every operation that declares it
_ERROR_DESCRIPTIONS: dict[int, str] = {
    400: "Malformed: the body is not JSON, or a value is refused (`bad_request`, ...)",
    401: "Sign in first (`unauthorized`)",
    403: "Not allowed: CSRF token missing or wrong, or not the player's (`forbidden`)",
    404: "Nothing at this address (`not_found`, `unknown_game`)",
    409: "In conflict with the current state (`conflict`, `game_over`, ...)",
    413: "The request body is too large (`too_large`)",
    422: "A field is missing or has the wrong type (`bad_request`)",
    429: "Too many requests: wait `Retry-After` seconds (`rate_limited`)",
    500: "A fault of the server (`internal`); nothing was changed",
    503: "Unavailable just now (`unavailable`): try again in a moment",
}

_RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "integer"},
    }
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that can answer with these error statuses, each with
    the :class:`ErrorBody`: ``responses={200: {"model": Answer}, **error_responses(404)}``.

    >>> sorted(error_responses(404, 409))
    [404, 409]
    >>> error_responses(429)[429]["headers"]["Retry-After"]["schema"]
    {'type': 'integer'}
    """
    responses: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        response: dict[str, Any] = {
            "model": ErrorBody,
            "description": _ERROR_DESCRIPTIONS.get(status, "Refused"),
        }
        if status in (429, 503):
            response["headers"] = _RETRY_AFTER
        responses[status] = response
    return responses


def _field(loc: tuple[Any, ...] | list[Any], lang: str) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return ".".join(parts) or say(lang, N_("the body"))


async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse(
        error_body(exc.code, exc.text(scope_language(request.scope))),
        status_code=exc.status,
        headers=exc.headers or None,
    )


#: pydantic's refusals in the catalogue's words (English keeps pydantic's own sentence)
_VALIDATION_WORDS: dict[str, str] = {
    "int_type": N_("{field}: a whole number is needed"),
    "int_parsing": N_("{field}: a whole number is needed"),
    "int_from_float": N_("{field}: a whole number is needed"),
    "string_type": N_("{field}: a text is needed"),
    "bool_type": N_("{field}: true or false is needed"),
    "bool_parsing": N_("{field}: true or false is needed"),
    "greater_than_equal": N_("{field}: at least {ge} is needed"),
    "greater_than": N_("{field}: more than {gt} is needed"),
    "less_than_equal": N_("{field}: at most {le} is needed"),
    "less_than": N_("{field}: less than {lt} is needed"),
    "string_too_short": N_("{field}: at least {min_length} characters are needed"),
    "string_too_long": N_("{field}: at most {max_length} characters are allowed"),
    "extra_forbidden": N_("{field}: this field is not taken"),
    "literal_error": N_("{field}: one of {expected} is needed"),
}


def validation_message(error: Mapping[str, Any], lang: str) -> str:
    """A field's refusal (one of pydantic's errors) as a sentence in ``lang``.

    >>> e = {"type": "int_type", "loc": ("body", "n"), "msg": "Input should be a valid integer"}
    >>> validation_message(e, "en"), validation_message(e, "nl")
    ('n: input should be a valid integer', 'n: hier hoort een geheel getal')
    >>> validation_message({"type": "missing", "loc": ("body", "n")}, "es")
    'falta n'
    """
    where = _field(error.get("loc", ()), lang)
    kind = error.get("type")
    if kind == "missing":
        return say(lang, N_("{field} is missing"), {"field": where})
    if kind == "model_attributes_type":
        return say(lang, N_("the request body must be a JSON object"))
    if lang == "en" or kind not in _VALIDATION_WORDS:
        if lang != "en":
            return say(lang, N_("{field} is not valid"), {"field": where})
        what = str(error.get("msg", "is not valid"))
        return f"{where}: {what[:1].lower()}{what[1:]}"
    context = {str(k): v for k, v in (error.get("ctx") or {}).items()}
    template = _VALIDATION_WORDS[kind]
    try:
        return say(lang, template, {**context, "field": where})
    except (KeyError, IndexError, ValueError):
        return say(lang, N_("{field} is not valid"), {"field": where})


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    lang = scope_language(request.scope)
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return JSONResponse(
            error_body("bad_request", say(lang, N_("the request body is not valid JSON"))),
            status_code=400,
        )
    message = validation_message(errors[0] if errors else {}, lang)
    return JSONResponse(error_body("bad_request", message), status_code=422)


_HTTP_CODES = {
    401: ("unauthorized", N_("sign in first")),
    403: ("forbidden", N_("this is not allowed")),
    404: ("not_found", N_("there is nothing at this address")),
    405: ("bad_request", N_("this address does not take that method")),
    413: ("too_large", N_("the request body is too large")),
}


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """An HTTP error of the framework (no such address, a method it does not take) in the
    API's JSON error shape."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code in _HTTP_CODES:
        code, template = _HTTP_CODES[exc.status_code]
        message = say(scope_language(request.scope), template)
    else:
        code, message = "bad_request", str(exc.detail)
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
    """The answer to an exception no route handled: status, code, message (a msgid of the
    server's catalogue) and extra headers; logged here (the database's failures in one
    line, anything else with its traceback).

    A 500 closes its connection (``Connection: close``): whatever went wrong, the next
    request starts afresh on a new one.
    """
    if _database_unavailable(exc):
        log.error("database unavailable: %s", (str(exc).strip().splitlines() or ["?"])[0])
        return (
            503,
            "unavailable",
            N_("the database cannot be used just now: try again in a moment"),
            {"retry-after": str(UNAVAILABLE_RETRY_SECONDS)},
        )
    log.error("unexpected error", exc_info=exc)
    return (
        500,
        "internal",
        N_("something went wrong on the server; nothing was changed"),
        {"connection": "close"},
    )


def install_error_handlers(app: FastAPI) -> None:
    """Map every error a route raises to the API's JSON error shape (the rest:
    :func:`unexpected_error`)."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)


def game_rules(game_id: str) -> GameRules:
    """The rules of ``game_id``; a 404 ``unknown_game`` for an id no game has."""
    try:
        return get_rules(game_id)
    except UnknownGameError:
        raise ApiError(
            404, "unknown_game", N_("there is no game {game!r}"), params={"game": game_id}
        ) from None
