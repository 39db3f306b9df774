"""API errors: one exception type, mapped to ``{"error": {"code", "message"}}`` in one place."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = ["ApiError", "error_body", "install_error_handlers"]

log = logging.getLogger("patiencekit.server")


class ApiError(Exception):
    """A refused request: HTTP status, a stable code and a sentence for the player."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_body(code: str, message: str) -> dict[str, Any]:
    """The JSON body of every error answer."""
    return {"error": {"code": code, "message": message}}


def _field(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return ".".join(parts) or "the body"


async def _api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse(error_body(exc.code, exc.message), status_code=exc.status)


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


async def _internal_error(_request: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error", exc_info=exc)
    return JSONResponse(
        error_body("internal", "something went wrong on the server; nothing was changed"),
        status_code=500,
    )


def install_error_handlers(app: FastAPI) -> None:
    """Map every error to the API's JSON error shape."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)
