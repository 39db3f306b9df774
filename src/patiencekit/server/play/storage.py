"""Every statement that reads or writes a play: its row (``plays``) and its append-only
event log (``play_events``; the tables are in ``tables``).

A play is stored as its deal (game id and number) plus the log of accepted events (move,
undo, redo, restart), each with the server's time. Events are appended only by a
conditional ``UPDATE plays ... WHERE seq = <seq read> AND ended_at IS NULL`` plus the
primary key on ``(play_id, seq)``, so two requests on the same play are serialised
whichever process serves them.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    Row,
    and_,
    bindparam,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg

from patiencekit.game import Game
from patiencekit.server.db import Database, sessions
from patiencekit.server.play.tables import play_events, plays

__all__ = [
    "OWNED_ADVANCE_AND_INSERT_SQL",
    "PLAY_ID",
    "Event",
    "RankedEndHook",
    "advance",
    "advance_params",
    "idle_ranked",
    "insert_play",
    "load_events",
    "lock_player_deals",
    "mark_ended",
    "open_ranked",
    "play_deadline",
    "play_status",
    "ranked_deal_open",
    "read_idle",
    "read_play",
    "read_play_and_session",
    "store_last",
]

#: a play's id: 32 random hexadecimal digits (not guessable)
PLAY_ID = re.compile(r"[0-9a-f]{32}")

#: a stored event: its kind, its move (``move`` events only) and its time
Event = tuple[str, str | None, float]

#: Called in the transaction that ends a ranked play: ``hook(conn, play row as read, game,
#: now)`` (see ``service.ranked_end_hooks``).
RankedEndHook = Callable[[Connection, Row[Any], Game, float], None]


def play_status(won: bool, over: bool) -> str:
    """A play's status: ``won`` once it has been won (an undo does not take that back),
    else ``over`` when no move is left, else ``playing``."""
    return "won" if won else "over" if over else "playing"


def play_deadline(daily: str | None) -> float | None:
    """When a play stops taking moves, for the ``daily`` column of its row: a daily deal's
    play at the end of its UTC day (the next day reveals the deal), any other never (None).

    >>> play_deadline("1970-01-02"), play_deadline(None)
    (172800.0, None)
    """
    if daily is None:
        return None
    day = dt.date.fromisoformat(daily)
    start = dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp()
    return start + 86_400.0


# -- rows ------------------------------------------------------------------------------


def insert_play(
    conn: Connection,
    *,
    user_id: int,
    game_id: str,
    number: int,
    ranked: bool,
    now: float,
    tournament_id: int | None = None,
    round_id: int | None = None,
    daily: str | None = None,
) -> str:
    """Insert a new play at its deal (no event yet), in the caller's transaction; its id.

    ``daily``: the UTC day of a daily deal's play (one per player, game and day: a unique
    index, so a second insert raises ``IntegrityError``)."""
    play_id = secrets.token_hex(16)
    conn.execute(
        insert(plays).values(
            id=play_id,
            user_id=user_id,
            game_id=game_id,
            number=str(number),
            ranked=ranked,
            created_at=now,
            updated_at=now,
            seq=0,
            moves=0,
            status="playing",
            tournament_id=tournament_id,
            round_id=round_id,
            daily=daily,
        )
    )
    return play_id


def read_play(conn: Connection, play_id: str) -> Row[Any] | None:
    """The play's row, if there is one."""
    return conn.execute(select(plays).where(plays.c.id == play_id)).first()


#: a play with the user of the asking session, if that session is live: one query for both
_PLAY_AND_SESSION = (
    select(plays, sessions.c.user_id.label("session_user"))
    .outerjoin(
        sessions,
        and_(
            sessions.c.token_hash == bindparam("token_hash"),
            sessions.c.expires_at > bindparam("now"),
        ),
    )
    .where(plays.c.id == bindparam("play_id"))
)


def read_play_and_session(
    conn: Connection, play_id: str, token_hash: str, now: float
) -> Row[Any] | None:
    """The play's row with ``session_user``: the user of the live session whose token hashes
    to ``token_hash`` (None when there is no such session)."""
    return conn.execute(
        _PLAY_AND_SESSION, {"token_hash": token_hash, "now": now, "play_id": play_id}
    ).first()


def load_events(conn: Connection, play_id: str, seq: int) -> list[Event]:
    """The play's events up to ``seq`` (later ones, committed since under READ COMMITTED,
    belong to another request's answer), oldest first."""
    rows = conn.execute(
        select(play_events.c.kind, play_events.c.move, play_events.c.at)
        .where(play_events.c.play_id == play_id, play_events.c.seq <= seq)
        .order_by(play_events.c.seq)
    ).all()
    if len(rows) != seq:
        raise RuntimeError(f"play {play_id}: {len(rows)} events stored, seq is {seq}")
    return [(r.kind, r.move, r.at) for r in rows]


def mark_ended(conn: Connection, row: Row[Any], now: float) -> bool:
    """Mark the play ``row`` ended now, in the caller's transaction, if it is still where
    it was read (the same ``seq``, not ended): False, and nothing changed, otherwise."""
    ended = conn.execute(
        update(plays)
        .where(plays.c.id == row.id, plays.c.seq == row.seq, plays.c.ended_at.is_(None))
        .values(
            ended_at=now,
            updated_at=max(now, row.updated_at),
            status=play_status(row.status == "won", over=True),
        )
    ).rowcount
    return ended == 1


#: a transaction lock on the player's new ranked plays (PostgreSQL advisory lock: class
#: 1885, the user id)
_LOCK_PLAYER_DEALS = text("SELECT pg_advisory_xact_lock(1885, :user_id)")


def lock_player_deals(conn: Connection, user_id: int) -> None:
    """PostgreSQL: make the player's new ranked plays one at a time until the transaction
    ends (SQLite's writer lock does this already)."""
    conn.execute(_LOCK_PLAYER_DEALS, {"user_id": user_id})


def open_ranked(conn: Connection, user_id: int, game_id: str) -> Sequence[Row[Any]]:
    """The player's open ranked single games of a variant (at most one, but all are ended
    if ever there were more); a daily deal's play is not one (it ends with its day)."""
    return conn.execute(
        select(plays).where(
            plays.c.user_id == user_id,
            plays.c.game_id == game_id,
            plays.c.ranked.is_(True),
            plays.c.tournament_id.is_(None),
            plays.c.daily.is_(None),
            plays.c.ended_at.is_(None),
        )
    ).all()


def ranked_deal_open(conn: Connection, game_id: str, number: int) -> bool:
    """True if some open ranked play (a single game or a round) is of this deal."""
    open_play = conn.execute(
        select(plays.c.id)
        .where(
            plays.c.game_id == game_id,
            plays.c.number == str(number),
            plays.c.ranked.is_(True),
            plays.c.ended_at.is_(None),
        )
        .limit(1)
    ).first()
    return open_play is not None


def idle_ranked(conn: Connection, since: float) -> list[str]:
    """The ids of the open ranked single games with no event after ``since`` (a daily deal's
    play ends with its day instead)."""
    return list(
        conn.execute(
            select(plays.c.id).where(
                plays.c.ranked.is_(True),
                plays.c.tournament_id.is_(None),
                plays.c.daily.is_(None),
                plays.c.ended_at.is_(None),
                plays.c.updated_at <= since,
            )
        ).scalars()
    )


def read_idle(conn: Connection, play_id: str, since: float) -> Row[Any] | None:
    """The play's row if it is open with no event after ``since``."""
    return conn.execute(
        select(plays).where(
            plays.c.id == play_id,
            plays.c.ended_at.is_(None),
            plays.c.updated_at <= since,
        )
    ).first()


# -- appending an event ------------------------------------------------------------------

#: The play moves on by one event, if it is still where it was read (``b_``: as read,
#: ``v_``: the new values).
_ADVANCE = (
    update(plays)
    .where(
        plays.c.id == bindparam("b_id"),
        plays.c.seq == bindparam("b_seq"),
        plays.c.ended_at.is_(None),
    )
    .values(
        seq=bindparam("v_seq"),
        moves=bindparam("v_moves"),
        updated_at=bindparam("v_updated_at"),
        status=bindparam("v_status"),
    )
)
#: ... and if it belongs to the user of the live session with this token (``s_``)
_OWNED_ADVANCE = _ADVANCE.where(
    plays.c.user_id
    == select(sessions.c.user_id)
    .where(
        sessions.c.token_hash == bindparam("s_token_hash"),
        sessions.c.expires_at > bindparam("s_now"),
    )
    .scalar_subquery()
)
_EVENT_COLUMNS = ("play_id", "seq", "kind", "move", "at")
#: the event (``e_``)
_INSERT_EVENT = insert(play_events).values(
    {name: bindparam(f"e_{name}") for name in _EVENT_COLUMNS}
)


def _and_insert(advance: Any, name: str) -> Any:
    """PostgreSQL: ``advance`` and the event in one statement (an ``UPDATE ... RETURNING``
    feeding the ``INSERT``), returning the event's ``seq`` if it went in."""
    advanced = advance.returning(plays.c.id).cte(name)
    return (
        insert(play_events)
        .from_select(
            list(_EVENT_COLUMNS),
            select(
                advanced.c.id,
                *(
                    bindparam(f"e_{column}", type_=play_events.c[column].type)
                    for column in _EVENT_COLUMNS[1:]
                ),
            ),
        )
        .returning(play_events.c.seq)
    )


_ADVANCE_AND_INSERT = _and_insert(_ADVANCE, "advanced")
_OWNED_ADVANCE_AND_INSERT = _and_insert(_OWNED_ADVANCE, "advanced")
#: ... as SQL for psycopg (``%(name)s`` parameters), for the event loop's connections
OWNED_ADVANCE_AND_INSERT_SQL = str(
    _OWNED_ADVANCE_AND_INSERT.compile(dialect=PGDialect_psycopg())  # type: ignore[no-untyped-call]
)


def advance_params(
    play_id: str, seq: int, game: Game, kind: str, move: str | None, now: float, status: str
) -> dict[str, Any]:
    """The parameters of :func:`advance` for the play at ``seq``."""
    return {
        "b_id": play_id,
        "b_seq": seq,
        "v_seq": seq + 1,
        "v_moves": game.state.history_length,
        "v_updated_at": now,
        "v_status": status,
        "e_play_id": play_id,
        "e_seq": seq + 1,
        "e_kind": kind,
        "e_move": move,
        "e_at": now,
    }


def advance(db: Database, params: dict[str, Any], owner_checked: bool = False) -> bool:
    """Store the common event (not a play's last move): True if stored, False if the play
    was not where it was read (or, ``owner_checked``, not the live session's user's:
    ``params`` has ``s_token_hash`` and ``s_now`` then).

    On SQLite, two statements under the write lock; on PostgreSQL one statement (an
    ``UPDATE ... RETURNING`` feeding the ``INSERT``), atomic by itself, so a move costs
    one round trip to write. A concurrent request that advanced the play first makes the
    ``UPDATE`` match nothing, and so the insert too. The statements are built once, so
    the database layer reuses their compiled form.
    """
    if db.is_sqlite:
        with db.write() as conn:
            if conn.execute(_OWNED_ADVANCE if owner_checked else _ADVANCE, params).rowcount != 1:
                return False
            conn.execute(_INSERT_EVENT, params)
        return True
    statement = _OWNED_ADVANCE_AND_INSERT if owner_checked else _ADVANCE_AND_INSERT
    with db.statement() as conn:
        # RETURNING says whether a row went in (rowcount is not reliable for INSERT ... SELECT).
        return conn.execute(statement, params).first() is not None


def store_last(
    db: Database,
    row: Row[Any],
    game: Game,
    event: Event,
    status: str,
    *,
    won_now: bool,
    ends: bool,
    end_hooks: Sequence[RankedEndHook] = (),
) -> bool:
    """Store a play's rare last moves (its first win, the end of a ranked play) in one write
    transaction on either database: the ``end_hooks`` run first (when it ``ends``), then
    the row moves on (with the win, and ``ended_at`` when it ends) and the event goes in.
    False, and the transaction rolled back, if the play was not where it was read."""
    kind, move, now = event
    seq = row.seq + 1
    values: dict[str, Any] = {
        "seq": seq,
        "moves": game.state.history_length,
        "updated_at": now,
        "status": status,
    }
    if won_now:
        values.update(
            won_at=game.won_at,
            win_elapsed=game.elapsed,
            win_score=game.score,
            win_moves=game.state.history_length,
        )
    if ends:
        values["ended_at"] = now
    moved_on = (
        update(plays)
        .where(plays.c.id == row.id, plays.c.seq == row.seq, plays.c.ended_at.is_(None))
        .values(**values)
    )
    try:
        with db.write() as conn:
            for hook in end_hooks if ends else ():
                hook(conn, row, game, now)
            if conn.execute(moved_on).rowcount != 1:
                raise _MovedOn  # rolls the hooks' writes back
            conn.execute(
                insert(play_events).values(play_id=row.id, seq=seq, kind=kind, move=move, at=now)
            )
    except _MovedOn:
        return False
    return True


class _MovedOn(Exception):
    """The play was not where it was read."""
