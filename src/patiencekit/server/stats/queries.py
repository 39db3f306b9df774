"""What the statistics read: a player by name, and their plays with each ranked result and
tournament status (one query each).

A daily deal's play is none of them: it is a competition of its own, counted in its day's
table only (``competition.daily``), so it is in no figure, chart or history of the player's
games, nor does it leave a casual play abandoned (the player comes back to it after the
daily deal). Its deal stays hidden until its day is closed, as its table says.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from sqlalchemy import Connection, Row, select

from patiencekit.games import GAMES
from patiencekit.i18n import N_
from patiencekit.server.accounts import name_key
from patiencekit.server.competition.tables import results, tournaments
from patiencekit.server.db import users
from patiencekit.server.errors import ApiError
from patiencekit.server.play.storage import Event
from patiencekit.server.play.tables import play_events, plays

__all__ = ["by_game", "events_of", "play_rows", "player"]


def player(conn: Connection, name: str) -> Row[Any]:
    """The player called ``name`` (any case): ``id``, ``name``; 404 ``not_found`` if none."""
    row = conn.execute(
        select(users.c.id, users.c.name).where(users.c.name_key == name_key(name))
    ).first()
    if row is None:
        raise ApiError(404, "not_found", N_("no player is called {name!r}"), params={"name": name})
    return cast("Row[Any]", row)


def play_rows(conn: Connection, user_id: int, game_id: str | None = None) -> Sequence[Row[Any]]:
    """Every play of the player (of ``game_id`` only, if given) but the daily deal's, oldest
    first (the order they were dealt), with the ranked result's ``outcome``, ``result_score`` and
    ``result_elapsed`` and the tournament's ``tournament_status`` (``None`` without)."""
    query = (
        select(
            plays.c.id,
            plays.c.game_id,
            plays.c.number,
            plays.c.ranked,
            plays.c.created_at,
            plays.c.updated_at,
            plays.c.seq,
            plays.c.moves,
            plays.c.status,
            plays.c.won_at,
            plays.c.win_elapsed,
            plays.c.win_score,
            plays.c.win_moves,
            plays.c.tournament_id,
            plays.c.round_id,
            plays.c.ended_at,
            results.c.outcome,
            results.c.score.label("result_score"),
            results.c.elapsed.label("result_elapsed"),
            tournaments.c.status.label("tournament_status"),
        )
        .outerjoin(results, results.c.play_id == plays.c.id)
        .outerjoin(tournaments, tournaments.c.id == plays.c.tournament_id)
        .where(plays.c.user_id == user_id, plays.c.daily.is_(None))
        .order_by(plays.c.created_at, plays.c.id)
    )
    if game_id is not None:
        query = query.where(plays.c.game_id == game_id)
    return cast("Sequence[Row[Any]]", conn.execute(query).all())


def by_game(rows: Iterable[Row[Any]]) -> dict[str, list[Row[Any]]]:
    """The rows per game id: every game of the registry in its order (an empty list for a
    game not played), then any other game id the rows name."""
    grouped: dict[str, list[Row[Any]]] = {game_id: [] for game_id in GAMES}
    for row in rows:
        grouped.setdefault(row.game_id, []).append(row)
    return grouped


def events_of(conn: Connection, rows: Sequence[Row[Any]]) -> dict[str, list[Event]]:
    """The stored events of the plays ``rows`` (each up to its row's ``seq``), per play id,
    oldest first: one query."""
    found: dict[str, list[Event]] = {row.id: [] for row in rows}
    if not found:
        return found
    seq = {row.id: row.seq for row in rows}
    for e in conn.execute(
        select(
            play_events.c.play_id,
            play_events.c.seq,
            play_events.c.kind,
            play_events.c.move,
            play_events.c.at,
        )
        .where(play_events.c.play_id.in_(list(found)))
        .order_by(play_events.c.play_id, play_events.c.seq)
    ):
        if e.seq <= seq[e.play_id]:
            found[e.play_id].append((e.kind, e.move, e.at))
    return found
