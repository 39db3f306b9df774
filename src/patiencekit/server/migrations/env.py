"""Alembic's environment: runs the migrations on the connection the app hands over.

The app calls :func:`patiencekit.server.db.migrate` at start-up. By hand:
``alembic -c src/patiencekit/server/alembic.ini upgrade head`` (the database
URL comes from the same environment variables as the server's).
"""

from __future__ import annotations

import dataclasses

from alembic import context
from sqlalchemy import Connection

from patiencekit.server.config import Settings
from patiencekit.server.db import create_db_engine, metadata

#: an arbitrary number naming PatienceKit's migration lock on PostgreSQL
PG_MIGRATION_LOCK = 7_463_925_001


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Several app processes may start together: one migrates, the others wait.
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_MIGRATION_LOCK})")
        context.run_migrations()


def run_migrations() -> None:
    """Migrate the connection given in ``config.attributes``, or the configured URL."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    settings = Settings.from_env()
    url = config.get_main_option("sqlalchemy.url")
    if url:
        settings = dataclasses.replace(settings, database_url=url)
    engine = create_db_engine(settings)  # makes the data folder for SQLite
    with engine.begin() as conn:
        _run(conn)
    engine.dispose()


# Alembic executes this file with its context set up; pytest's doctest collection
# merely imports it, and must not run anything.
if hasattr(context, "config"):
    run_migrations()
