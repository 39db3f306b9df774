"""The web app: ``create_app()`` builds it from the settings (and migrates the database).

Run it with ``patiencekit serve``, or ``uvicorn --factory patiencekit.server.app:create_app``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any, get_args

import fastapi.routing
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import BaseModel

from patiencekit import __version__
from patiencekit.server import accounts, hints, pages, stats
from patiencekit.server.catalogue import router as catalogue_router
from patiencekit.server.competition import daily_routes
from patiencekit.server.competition import routes as competition
from patiencekit.server.competition.periodic import run_periodically
from patiencekit.server.config import Settings, SettingsError
from patiencekit.server.db import Database, DatabaseUnusable, migrate, open_database
from patiencekit.server.deps import DbDep
from patiencekit.server.errors import ErrorBody, error_responses, install_error_handlers
from patiencekit.server.middleware import (
    UNSAFE_METHODS,
    BodyLimitMiddleware,
    CsrfMiddleware,
    SecurityHeadersMiddleware,
    UnexpectedErrorMiddleware,
)
from patiencekit.server.play.routes import router as play_router

__all__ = ["create_app"]

#: how long the shutdown waits for the periodic task's tick under way
SHUTDOWN_TICK_SECONDS = 30.0


def create_app(
    settings: Settings | None = None,
    *,
    database: Database | None = None,
    clock: Callable[[], float] = time.time,
) -> FastAPI:
    """The app for ``settings`` (default: from the environment), its database migrated.

    ``clock`` is the server's time in seconds since the epoch (tests set their own).

    Called with neither settings nor database (as uvicorn's factory), settings that cannot
    be used or a database that cannot be opened (an SQLite file that is not a database or
    is damaged, a PostgreSQL out of reach) end the process with one line on stderr and
    exit status 2; otherwise they raise :class:`SettingsError` or
    :class:`~patiencekit.server.db.DatabaseUnusable`.
    """
    if settings is None and database is None:
        try:
            settings = Settings.from_env()
            db = open_database(settings)
        except (SettingsError, DatabaseUnusable) as e:
            print(f"error: {e}", file=sys.stderr, flush=True)
            raise SystemExit(2) from None
    elif database is None:
        assert settings is not None
        db = open_database(settings)
    else:
        settings = settings or database.settings
        db = database
        migrate(db)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Tournament deadlines and the close of UTC days (medals): now, then periodically.
        stop = asyncio.Event()
        periodic = (
            asyncio.create_task(
                run_periodically(db, clock, settings.competition_tick_seconds, stop)
            )
            if settings.competition_tick_seconds
            else None
        )
        yield
        if periodic is not None:
            stop.set()
            # its tick under way ends first (bounded: a database that hangs does not hold
            # the shutdown forever)
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(periodic, SHUTDOWN_TICK_SECONDS)
        hints.shutdown()
        db.dispose()

    app = FastAPI(
        title="PatienceKit",
        version=__version__,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
        # No OpenTelemetry here: FastAPI need not ask on every request whether it is set up.
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.settings = settings
    app.state.db = db
    app.state.clock = clock
    install_error_handlers(app)
    pages.install_error_pages(app)  # an address that is not a page: the HTML error page

    @app.get("/api/health", responses={200: {"model": Health}})
    async def health() -> Any:
        """The trivial endpoint (no database): the load bench's yardstick."""
        return {"ok": True}

    # Routes are matched in order: playing (the most frequent requests) first.
    app.include_router(catalogue_router, prefix="/api")  # GET /api/games: the registry
    app.include_router(play_router, prefix="/api")
    app.include_router(accounts.router, prefix="/api")
    app.include_router(stats.router, prefix="/api")
    competition.install(app)  # tournaments, Top 100, profiles: API, pages, ranked-play hook
    daily_routes.install(app)  # the daily deal: API, pages, casual-play hook
    app.include_router(pages.router)
    app.mount(
        "/static", pages.StaticDir(directory=pages.STATIC_DIR, check_dir=False), name="static"
    )
    # The last added runs first: headers on every answer, then the answers to unexpected
    # errors (which then carry the headers too), then the size limit, then CSRF.
    app.add_middleware(CsrfMiddleware, secret_key=settings.secret_key)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(UnexpectedErrorMiddleware)
    app.add_middleware(SecurityHeadersMiddleware, server_timing=settings.server_timing)
    _describe_refusals(app)
    return app


class Health(BaseModel):
    """The answer of ``GET /api/health``."""

    ok: bool


# -- the OpenAPI schema: the refusals every route shares ---------------------------------

_ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorBody"}
#: the database's dependency (``deps.DbDep``): a route that has it can answer 503
_DB_DEPENDENCY = get_args(DbDep)[1].dependency


def _dependencies(dependant: Dependant) -> Iterator[Dependant]:
    for sub in dependant.dependencies:
        yield sub
        yield from _dependencies(sub)


def _api_routes(app: FastAPI) -> Iterator[tuple[str, APIRoute]]:
    """The app's routes with their full paths (since FastAPI 0.16x an included router's
    routes are no longer copied into ``app.routes``)."""
    contexts = getattr(fastapi.routing, "iter_route_contexts", None)
    if contexts is None:
        for route in app.routes:
            if isinstance(route, APIRoute):
                yield route.path_format, route
        return
    for context in contexts(app.routes):
        if isinstance(context.original_route, APIRoute) and context.path_format:
            yield context.path_format, context.original_route


def _can_fail_validation(operation: dict[str, Any]) -> bool:
    """Whether a request to ``operation`` can be refused by the field checks (422): it has
    a body, a parameter that is more than any text (a number, a length, a pattern), or a
    required query parameter (it may be missing)."""
    if "requestBody" in operation:
        return True
    for parameter in operation.get("parameters", []):
        schema = parameter.get("schema", {})
        for kind in schema.get("anyOf", [schema]):
            if {k: v for k, v in kind.items() if k != "title"} not in (
                {"type": "string"},
                {"type": "null"},
            ):
                return True
        if parameter.get("in") != "path" and parameter.get("required"):
            return True
    return False


def _declare(responses: dict[str, Any], status: int) -> None:
    """Add the error answer ``status`` to ``responses`` unless the route declares it."""
    declared = error_responses(status)[status]
    responses.setdefault(
        str(status),
        {
            "description": declared["description"],
            **({"headers": declared["headers"]} if "headers" in declared else {}),
            "content": {"application/json": {"schema": _ERROR_SCHEMA}},
        },
    )


def _describe_refusals(app: FastAPI) -> None:
    """Make ``/api/openapi.json`` list the refusals no route writes itself, as the server
    really answers them, each with the :class:`~patiencekit.server.errors.ErrorBody`:

    - FastAPI's 422 ``HTTPValidationError`` (a body the server never sends) becomes the
      API's 422 ``bad_request`` where the field checks can refuse the request, and goes
      where they cannot (a path's plain text);
    - a route with a body: 400 ``bad_request`` (the body is not JSON);
    - every state-changing method: 403 ``forbidden`` (CSRF) and 413 ``too_large``
      (``middleware``, before routing);
    - every route on the database (``DbDep``): 503 ``unavailable`` (it cannot be used).

    Each route's own refusals are its ``responses=`` (:func:`errors.error_responses`).
    """
    generate = app.openapi  # FastAPI's: the same dict until the routes change
    described: list[dict[str, Any]] = []

    def openapi() -> dict[str, Any]:
        schema = generate()
        if not described or described[0] is not schema:
            _describe(app, schema)
            described[:] = [schema]
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _describe(app: FastAPI, schema: dict[str, Any]) -> None:
    """:func:`_describe_refusals` on the schema FastAPI made (in place)."""
    paths = schema.get("paths", {})
    for path, route in _api_routes(app):
        for method in route.methods or ():
            operation = paths.get(path, {}).get(method.lower())
            if operation is None:
                continue
            responses = operation.setdefault("responses", {})
            default = responses.get("422", {}).get("content", {}).get("application/json")
            if default == {"schema": {"$ref": "#/components/schemas/HTTPValidationError"}}:
                del responses["422"]
            if _can_fail_validation(operation):
                _declare(responses, 422)
            if "requestBody" in operation:
                _declare(responses, 400)
            if method in UNSAFE_METHODS and path.startswith("/api/"):
                _declare(responses, 403)
                _declare(responses, 413)
            if any(d.call is _DB_DEPENDENCY for d in _dependencies(route.dependant)):
                _declare(responses, 503)
            operation["responses"] = dict(sorted(responses.items()))
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    error_schema = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    components.update(error_schema.pop("$defs", {}))
    components["ErrorBody"] = error_schema
    schema["components"]["schemas"] = dict(sorted(components.items()))
