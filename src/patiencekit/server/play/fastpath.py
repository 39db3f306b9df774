"""The kept-game fast path: a move on a game this process kept, stored with one write and
no read.

A process keeps the games it rebuilt (``db.memo``, a
:class:`~patiencekit.server.db.VersionedCache`), each valid at the ``seq`` it was kept
at. The full path (``service``) reads the play row, checks who is asking, then takes the
kept game instead of replaying when the ``seq`` matches. A move on a kept game needs no
read at all: it is stored with one conditional write that also checks, in the database,
that the play has not moved on and belongs to the asking session's user. So a move
stored this way is one the full path would accept, with the same answer.

The interface is this module's five functions: :func:`take`, :func:`keep` and
:func:`forget` for the full path, :func:`try_act` (on the calling thread) and
:func:`try_act_on_loop` (PostgreSQL, on the event loop's own connections:
:class:`~patiencekit.server.db.LoopStatements`) for a move. Both ``try_`` functions
return the answer, or None when the action must take the full path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy import Row
from sqlalchemy.exc import IntegrityError

from patiencekit.game import Game
from patiencekit.server.db import BUSY, Database
from patiencekit.server.deps import Client
from patiencekit.server.errors import ApiError
from patiencekit.server.play.actions import Action, Unchanged, apply_action
from patiencekit.server.play.models import play_json
from patiencekit.server.play.replay import Clock
from patiencekit.server.play.storage import (
    OWNED_ADVANCE_AND_INSERT_SQL,
    advance,
    advance_params,
    play_deadline,
    play_status,
)
from patiencekit.server.security import hash_token

__all__ = ["KeptGame", "forget", "keep", "take", "try_act", "try_act_on_loop"]


@dataclass(slots=True)
class KeptGame:
    """What this process keeps of a play between its requests (at the play's ``seq``):
    the rebuilt game and what the next move needs of the play row.

    Of the row's fields, only the owner (``user_id``) and ``ended_at`` change without
    ``seq`` moving on, and the fast path's write checks both in the database.
    ``deadline``: when the play stops taking moves without ending first (a daily deal's
    play, at the end of its day: :func:`~.storage.play_deadline`), None for the others;
    ``daily``: a daily deal's play's day (the row's ``daily``), None for the others.
    """

    game: Game
    clock: Clock
    ranked: bool
    status: str
    won: bool
    updated_at: float
    ended: bool
    deadline: float | None = None
    daily: str | None = None

    @classmethod
    def of(cls, row: Row[Any], game: Game, clock: Clock) -> KeptGame:
        """The play ``row`` with its game as of that row."""
        return cls(
            game,
            clock,
            row.ranked,
            row.status,
            row.won_at is not None,
            row.updated_at,
            row.ended_at is not None,
            play_deadline(row.daily),
            row.daily,
        )

    def closed(self, now: float) -> bool:
        """Whether the play takes no more moves at ``now``: it has ended, or its deadline
        has come."""
        return self.ended or (self.deadline is not None and now >= self.deadline)


def take(db: Database, play_id: str, seq: int) -> KeptGame | None:
    """The play's kept game, if this process kept it at ``seq``; it is the caller's until
    it is kept again."""
    kept: KeptGame | None = db.memo.take(play_id, seq)
    return kept


def keep(db: Database, play_id: str, seq: int, kept: KeptGame) -> None:
    """Keep the play's game as it is at ``seq``."""
    db.memo.put(play_id, seq, kept)


def forget(db: Database, play_id: str) -> None:
    """Keep the play's game no longer (the play changed without this process's game)."""
    db.memo.take_any(play_id)


@dataclass(slots=True)
class _Prepared:
    """An action applied to a kept game, to be stored with one write."""

    play_id: str
    seq: int
    kept: KeptGame
    params: dict[str, Any]
    status: str
    over: bool


def _prepare(
    db: Database, client: Client, play_id: str, action: Action, now: float
) -> _Prepared | None:
    """The action applied to the game this process kept, ready to be stored with one
    write and no read; None when it must take the full path.

    The write advances the play only ``WHERE seq = <kept seq> AND ended_at IS NULL AND
    user_id = <the user of the request's live session>``, the same checks the full path
    makes on a fresh read (see :class:`KeptGame`).

    Nothing is refused here: a refusal must come after the full path has checked who is
    asking, so any action that would be refused, any write that matches nothing (another
    process moved the play on, the session ended, the play is not the asker's), and the
    rare last move of a play (a first win, a ranked play's end: its hooks need the row)
    go to the full path. A refused action leaves the kept game as it was; a game that
    went on but was not stored is dropped, and the full path replays the log.
    """
    if client.token is None:
        return None
    taken: tuple[int, KeptGame] | None = db.memo.take_any(play_id)
    if taken is None:
        return None
    seq, kept = taken
    game = kept.game
    kept.clock.now = max(now, kept.clock.now, kept.updated_at)
    try:
        stored = apply_action(game, action, ranked=kept.ranked, ended=kept.closed(now))
    except (ApiError, Unchanged):
        db.memo.put(play_id, seq, kept)
        return None
    over = game.is_over()
    if (game.is_won() and not kept.won) or (kept.ranked and over):
        return None
    status = play_status(kept.status == "won", over)
    params = advance_params(play_id, seq, game, action.event_kind, stored, now, status)
    params["s_token_hash"], params["s_now"] = hash_token(client.token), now
    return _Prepared(play_id, seq, kept, params, status, over)


def _write(db: Database, prepared: _Prepared) -> bool:
    """Store a prepared action (on the calling thread); False if the write matched nothing."""
    try:
        return advance(db, prepared.params, owner_checked=True)
    except IntegrityError:
        return False


def _done(db: Database, prepared: _Prepared, stored: bool) -> dict[str, Any] | None:
    """The answer to a stored prepared action, the game kept again; None if not stored."""
    if not stored:
        return None
    kept = prepared.kept
    kept.status, kept.updated_at = prepared.status, prepared.params["v_updated_at"]
    db.memo.put(prepared.play_id, prepared.seq + 1, kept)
    return play_json(
        prepared.play_id, kept.ranked, kept.game, prepared.over, daily=kept.daily
    )


def try_act(
    db: Database, client: Client, play_id: str, action: Action, now: float
) -> dict[str, Any] | None:
    """The action on the kept game, stored on the calling thread: the answer, or None."""
    prepared = _prepare(db, client, play_id, action, now)
    if prepared is None:
        return None
    return _done(db, prepared, _write(db, prepared))


async def try_act_on_loop(
    db: Database, client: Client, play_id: str, action: Action
) -> dict[str, Any] | None:
    """The action on the kept game, prepared on the event loop and its one statement sent
    on the loop's own connections (``db.loop_statements``, which must be set); when they
    are all busy, the statement goes through the database threads. The answer, or None."""
    loop = db.loop_statements
    assert loop is not None
    prepared = _prepare(db, client, play_id, action, client.now())
    if prepared is None:
        return None
    try:
        row = await loop.fetch_one(OWNED_ADVANCE_AND_INSERT_SQL, prepared.params)
    except psycopg.Error:
        # Not stored: another request stored this event first (a unique key), or the
        # connection failed; the full path reads what the database has.
        row = None
    if row is BUSY:
        stored = await db.run(_write, db, prepared)
    else:
        stored = row is not None
    return _done(db, prepared, stored)
