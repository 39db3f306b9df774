"""ASGI middleware: security headers, answers to unexpected errors, the body size limit and
the CSRF check.

They run before routing, so a refused request never reaches a route (and so
changes nothing).
"""

from __future__ import annotations

import json
import time
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from patiencekit.i18n import N_
from patiencekit.server.errors import error_body, unexpected_error
from patiencekit.server.language import say, scope_language
from patiencekit.server.security import csrf_token_valid

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "BodyLimitMiddleware",
    "CsrfMiddleware",
    "SecurityHeadersMiddleware",
    "UnexpectedErrorMiddleware",
]

CSRF_COOKIE = "pk_csrf"
CSRF_HEADER = "x-csrf-token"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def _send_error(
    send: Send,
    status: int,
    code: str,
    message: str,
    headers: dict[str, str] | None = None,
    *,
    scope: Scope,
    params: dict[str, Any] | None = None,
) -> None:
    """Answer with the API's error body, ``message`` (a msgid of the server's catalogue)
    said in the request's language."""
    text = say(scope_language(scope), message, params)
    body = json.dumps(error_body(code, text)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                # The rest of the request body was not read: don't reuse the connection.
                *([(b"connection", b"close")] if status == 413 else []),
                *((k.encode(), v.encode()) for k, v in (headers or {}).items()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class UnexpectedErrorMiddleware:
    """Answers for the exceptions no route handled, in the API's error shape
    (:func:`errors.unexpected_error`): 503 ``unavailable`` when the database cannot be
    used, else 500 ``internal`` with ``Connection: close``.

    The exception ends here: the server sees an answer sent in full, closes the
    connection as the answer says, and goes on serving (Starlette's own handler would
    raise it again, and uvicorn would then drop the connection under the client's feet).
    An exception after the answer started cannot be answered: it goes on up.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, send_watched)
        except Exception as exc:
            if started:
                raise
            status, code, message, headers = unexpected_error(exc)
            await _send_error(send, status, code, message, headers, scope=scope)


class BodyLimitMiddleware:
    """Refuse request bodies over ``max_bytes`` with 413 ``too_large``.

    A declared ``Content-Length`` over the limit is refused before anything is
    read; a body without one (chunked) is counted as it streams in and refused
    as soon as it passes the limit. The accepted body is handed on whole.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = N_("the request body is larger than {bytes} bytes")
        limit = {"bytes": self.max_bytes}
        declared = Headers(scope=scope).get("content-length")
        if declared is not None:
            try:
                length = int(declared)
            except ValueError:
                await _send_error(
                    send, 400, "bad_request", N_("Content-Length is not a number"), scope=scope
                )
                return
            if length > self.max_bytes:
                await _send_error(send, 413, "too_large", too_large, scope=scope, params=limit)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _send_error(send, 413, "too_large", too_large, scope=scope, params=limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class CsrfMiddleware:
    """Double-submit CSRF check on every state-changing ``/api`` request.

    The ``X-CSRF-Token`` header must equal the ``pk_csrf`` cookie, and the
    token must carry the server's signature (so a cookie planted by another
    site cannot be paired with a header of its choosing).
    """

    def __init__(self, app: ASGIApp, secret_key: str) -> None:
        self.app = app
        self.secret_key = secret_key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in UNSAFE_METHODS
            and scope["path"].startswith("/api/")
        ):
            headers = Headers(scope=scope)
            cookie = cookie_parser(headers.get("cookie", "")).get(CSRF_COOKIE)
            sent = headers.get(CSRF_HEADER)
            if not cookie or not sent or sent != cookie:
                await _send_error(
                    send,
                    403,
                    "forbidden",
                    N_(
                        "the X-CSRF-Token header must repeat the pk_csrf cookie "
                        "(GET /api/session gives one)"
                    ),
                    scope=scope,
                )
                return
            if not csrf_token_valid(cookie, self.secret_key):
                await _send_error(
                    send,
                    403,
                    "forbidden",
                    N_("the CSRF token is not valid: GET /api/session again"),
                    scope=scope,
                )
                return
        await self.app(scope, receive, send)


_SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]

#: the pages' policy: scripts, styles, fonts and requests from this site only (no inline
#: script or style attribute: the pages have none), images also as data: URLs (the icon);
#: no plugin, no <base>, forms post here only, no framing
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class SecurityHeadersMiddleware:
    """Headers every answer carries: no sniffing, no framing, no referrer to other sites;
    ``Content-Security-Policy`` on every HTML page; ``Cache-Control: no-store`` on every
    ``/api/`` answer that does not say otherwise (they depend on the session: no cache,
    shared or the browser's, may keep them).

    With ``server_timing`` (``PATIENCEKIT_SERVER_TIMING=1``, for the load bench only) also
    ``Server-Timing: app;dur=MS``, the milliseconds the app took to answer (without the
    time the request waited to be read). Off by default: how long a move takes to answer
    can depend on cards the player cannot see (the draws to the next playable stock card)."""

    def __init__(self, app: ASGIApp, server_timing: bool = False) -> None:
        self.app = app
        self.server_timing = server_timing

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = list(message.get("headers", []))
                headers.extend(_SECURITY_HEADERS)
                names = {bytes(k).lower(): bytes(v) for k, v in headers}
                if names.get(b"content-type", b"").startswith(b"text/html"):
                    headers.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
                if api and b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                if self.server_timing:
                    took = (time.perf_counter() - started) * 1000
                    headers.append((b"server-timing", f"app;dur={took:.3f}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
