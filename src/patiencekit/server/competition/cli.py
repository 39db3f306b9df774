"""``patiencekit close-day [DATE]``: award the medals of the UTC days that are over.

The app does this itself every minute (``PATIENCEKIT_COMPETITION_TICK_SECONDS``);
the command is for an operator, or for a cron job when the app's periodic task
is turned off. It is idempotent: a day closed already is left as it is. It also
ends the tournaments whose deadline has passed, and closes the daily deals whose day is
over (their open plays end; their deals and replays are published). Like ``serve``, nothing here
imports the server's dependencies until the command runs.
"""

from __future__ import annotations

import time
from typing import Annotated

import typer

from patiencekit.server.config import Settings, SettingsError

__all__ = ["close_day"]


def close_day(
    date: Annotated[
        str | None,
        typer.Argument(
            help="The UTC day to close, YYYY-MM-DD (the days before it that are still open "
            "are closed first). Default: every day that is over.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Award the day's medals (Klondike draw 3 and draw 1) for the UTC days that are over.

    Days close in order from the day after the last closed one, so closing a
    day also closes the open days before it. A day can be closed once it has
    ended (plus 5 minutes); closing it again changes nothing.
    """
    try:
        settings = Settings.from_env()
    except SettingsError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    try:
        from patiencekit.server.competition import daily
        from patiencekit.server.competition.standings import close_due_days
        from patiencekit.server.competition.tournaments import close_expired
        from patiencekit.server.db import Database, migrate
    except ImportError as e:
        typer.echo(
            f"error: closing days needs the server extra ({e.name} is missing): "
            "pip install 'patiencekit[server]'",
            err=True,
        )
        raise typer.Exit(2) from None
    db = Database(settings)
    try:
        migrate(db)
        now = time.time()
        try:
            closed = close_due_days(db, now, until=date)
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
        ended = close_expired(db, now)
        published = daily.close_due_days(db, now)
    finally:
        db.dispose()
    for game_id, day, awarded in closed:
        typer.echo(f"{day} {game_id}: {awarded} medal{'' if awarded == 1 else 's'} awarded")
    for game_id, day in published:
        typer.echo(f"{day} {game_id}: the daily deal is closed and published")
    if not closed and not published:
        typer.echo("nothing to close: every day that is over was closed already")
    for tid in ended:
        typer.echo(f"tournament {tid} ended (its deadline had passed)")


def main() -> None:
    """Run ``close-day`` as a command of its own."""
    typer.run(close_day)
