"""The web app: ``create_app()`` builds it from the settings (and migrates the database).

Run it with ``patiencekit serve``, or ``uvicorn --factory patiencekit.server.app:create_app``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from patiencekit import __version__
from patiencekit.server import accounts, hints, pages, plays, stats
from patiencekit.server.competition import routes as competition
from patiencekit.server.competition.periodic import run_periodically
from patiencekit.server.config import Settings, SettingsError
from patiencekit.server.db import Database, DatabaseUnusable, migrate, open_database
from patiencekit.server.errors import install_error_handlers
from patiencekit.server.middleware import (
    BodyLimitMiddleware,
    CsrfMiddleware,
    SecurityHeadersMiddleware,
    UnexpectedErrorMiddleware,
)

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

    @app.get("/api/health")
    async def health() -> Any:
        """The trivial endpoint (no database): the load bench's yardstick."""
        return {"ok": True}

    # Routes are matched in order: playing (the most frequent requests) first.
    app.include_router(plays.router, prefix="/api")
    app.include_router(accounts.router, prefix="/api")
    app.include_router(stats.router, prefix="/api")
    competition.install(app)  # tournaments, Top 100, profiles: API, pages, ranked-play hook
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
    return app
