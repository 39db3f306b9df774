"""A published replay of a competition play: a finished tournament's round (:mod:`.tournaments`)
or a closed day's daily deal (:mod:`.daily`), once the caller has checked that it may be shown.

Both answer alike: the engine's game record (``{"game", "number", "moves"}``, replayable by
``patiencekit replay``) with the player, what the play was (the caller's keys: its
tournament and round, or its day), its result (``null`` for an unscored play) and each move's
time in seconds from the deal (``times``); or, with a step, the board the player saw after that
many moves (:func:`~patiencekit.server.play.replay.view_at`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, Connection, Row, Table, select

from patiencekit.i18n import N_
from patiencekit.notation import Record
from patiencekit.server.accounts import name_key
from patiencekit.server.db import users
from patiencekit.server.errors import ApiError
from patiencekit.server.play.replay import rebuild, view_at
from patiencekit.server.play.storage import Event, load_events
from patiencekit.server.play.tables import plays

__all__ = ["PublishedPlay", "published_play", "replay_answer", "result_json"]


class PublishedPlay(NamedTuple):
    """A competition play as its replay needs it, read in one transaction."""

    #: the play's row of ``plays``, with its player's name as they spell it (``player``)
    row: Row[Any]
    #: its stored events, up to the row's ``seq``
    events: list[Event]
    #: its row of the results table (the tournaments' or the daily deals'), if it has one
    result: Row[Any] | None


def published_play(
    conn: Connection,
    name: str,
    result_table: Table,
    *where: ColumnElement[bool],
    missing: tuple[str, Mapping[str, Any]],
) -> PublishedPlay:
    """The play that ``where`` picks (a tournament's round, a day's daily deal) of the player
    called ``name`` (in any case), with its events and its row of ``result_table``; 404 with
    the words ``missing`` (a message and its placeholders' values) if that player has no
    such play."""
    row = conn.execute(
        select(plays, users.c.name.label("player"))
        .join(users, users.c.id == plays.c.user_id)
        .where(*where, users.c.name_key == name_key(name))
    ).first()
    if row is None:
        message, params = missing
        raise ApiError(404, "not_found", message, params=params)
    events = load_events(conn, row.id, row.seq)
    result = conn.execute(select(result_table).where(result_table.c.play_id == row.id)).first()
    return PublishedPlay(row, events, result)


def result_json(r: Row[Any] | None) -> dict[str, Any] | None:
    """A play's result row as the answers show it; None for a play with no result."""
    if r is None:
        return None  # an unscored game: no result
    return {"outcome": r.outcome, "score": r.score, "time": r.elapsed, "finished_at": r.finished_at}


def replay_answer(
    play: PublishedPlay, about: Mapping[str, Any], step: int | None
) -> dict[str, Any]:
    """The replay of ``play``: its game record with the player, ``about`` (what the play was),
    its result and its moves' times; or with ``step`` the board at that step (404 for a step
    the replay has not)."""
    row = play.row
    number = int(row.number)
    game, _clock = rebuild(row.game_id, number, True, row.created_at, play.events)
    moves = [str(m) for m in game.moves]
    if step is not None:
        if not 0 <= step <= len(moves):
            raise ApiError(
                404,
                "not_found",
                N_("the replay has steps 0 to {most}"),
                params={"most": len(moves)},
            )
        return view_at(row.game_id, number, moves[:step], len(moves))
    times = [round(at - row.created_at, 3) for kind, _move, at in play.events if kind == "move"]
    extra = {"player": row.player, **about, "result": result_json(play.result), "times": times}
    return Record(row.game_id, number, tuple(moves), extra).to_json()
