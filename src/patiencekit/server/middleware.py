"""ASGI middleware: the body size limit, the CSRF check and security headers.

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

from patiencekit.server.errors import error_body
from patiencekit.server.security import csrf_token_valid

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "BodyLimitMiddleware",
    "CsrfMiddleware",
    "SecurityHeadersMiddleware",
]

CSRF_COOKIE = "pk_csrf"
CSRF_HEADER = "x-csrf-token"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def _send_error(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps(error_body(code, message)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                # The rest of the request body was not read: don't reuse the connection.
                *([(b"connection", b"close")] if status == 413 else []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


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
        too_large = f"the request body is larger than {self.max_bytes} bytes"
        declared = Headers(scope=scope).get("content-length")
        if declared is not None:
            try:
                length = int(declared)
            except ValueError:
                await _send_error(send, 400, "bad_request", "Content-Length is not a number")
                return
            if length > self.max_bytes:
                await _send_error(send, 413, "too_large", too_large)
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
                await _send_error(send, 413, "too_large", too_large)
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
                    "the X-CSRF-Token header must repeat the pk_csrf cookie "
                    "(GET /api/session gives one)",
                )
                return
            if not csrf_token_valid(cookie, self.secret_key):
                await _send_error(
                    send, 403, "forbidden", "the CSRF token is not valid: GET /api/session again"
                )
                return
        await self.app(scope, receive, send)


_SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


class SecurityHeadersMiddleware:
    """Headers every answer carries: no sniffing, no framing, no referrer to other sites;
    and ``Server-Timing: app;dur=MS``, the milliseconds the app took to answer (without
    the time the request waited to be read), which the load bench reads to tell the
    server's own time from queueing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = list(message.get("headers", []))
                headers.extend(_SECURITY_HEADERS)
                took = (time.perf_counter() - started) * 1000
                headers.append((b"server-timing", f"app;dur={took:.3f}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
