"""``patiencekit serve``: run the web app with uvicorn.

The function is plain Typer: the main command line adds it with
``app.command()(serve)``, and ``python -m patiencekit.server`` runs it alone.
Nothing here imports the server's dependencies until the command runs, so
the rest of the command line works without them.
"""

from __future__ import annotations

from typing import Annotated

import typer

from patiencekit.server.config import Settings, SettingsError

__all__ = ["main", "serve"]


def serve(
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            help="Server processes (they share the database; no game lives in one process).",
        ),
    ] = 1,
) -> None:
    """Start the web app: the lobby at http://HOST:PORT/.

    The database is an SQLite file in ./data (PATIENCEKIT_DATA_DIR), or the
    PostgreSQL at PATIENCEKIT_DATABASE_URL; it is created and migrated first. A database
    that cannot be used (a file that is not a database or is damaged, a PostgreSQL out
    of reach) stops it with one line naming it, exit status 2.
    """
    try:
        settings = Settings.from_env()
    except SettingsError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    try:
        import uvicorn

        from patiencekit.server.db import DatabaseUnusable, database_name, open_database
    except ImportError as e:
        typer.echo(
            f"error: the web app needs the server extra ({e.name} is missing): "
            "pip install 'patiencekit[server]'",
            err=True,
        )
        raise typer.Exit(2) from None
    try:
        db = open_database(settings)  # migrated once here, before the workers start
    except DatabaseUnusable as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    db.dispose()
    typer.echo(f"PatienceKit on http://{host}:{port}/ ({database_name(settings)})")
    proxies = settings.trusted_proxies.strip()
    uvicorn.run(
        "patiencekit.server.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        # The client's address and scheme are the socket's, unless the request came through
        # a trusted proxy (PATIENCEKIT_TRUSTED_PROXIES): the sign-in limit counts per address.
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        server_header=False,
        log_level="warning",
    )


def main() -> None:
    """Run ``serve`` as a command of its own."""
    typer.run(serve)
