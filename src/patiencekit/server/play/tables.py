"""The play tables, in the app's one ``metadata`` (``server.db``; migration ``r0001`` makes
them, later ones add columns): ``plays``, one row per deal a player plays, and
``play_events``, its append-only log.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, String, Table

from patiencekit.server.db import metadata

__all__ = ["play_events", "plays"]

#: one row per deal a player plays; the moves are in ``play_events``
plays = Table(
    "plays",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("game_id", String(40), nullable=False),
    Column("number", String(24), nullable=False),
    Column("ranked", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    #: events stored so far (the last event's seq)
    Column("seq", Integer, nullable=False),
    #: moves in the current line (the play's ``n``)
    Column("moves", Integer, nullable=False),
    #: playing / won (reached a win at least once) / over (no move left, not won)
    Column("status", String(8), nullable=False),
    #: the first win: when, how long it took, its score (Klondike) and its number of moves
    Column("won_at", Float, nullable=True),
    Column("win_elapsed", Float, nullable=True),
    Column("win_score", Integer, nullable=True),
    Column("win_moves", Integer, nullable=True),
    #: competitions (tournaments) come later: a ranked play may belong to a round
    Column("tournament_id", Integer, nullable=True),
    Column("round_id", Integer, nullable=True),
    #: a ranked play's end (won, no move left, given up, or its tournament's deadline):
    #: its result is recorded then, and no event is stored after it
    Column("ended_at", Float, nullable=True),
    #: a daily deal's play (competition ``daily``): its UTC day, ``YYYY-MM-DD``; it takes
    #: no move once that day is over (migration ``r0005``)
    Column("daily", String(10), nullable=True),
    Index("ix_plays_user_game", "user_id", "game_id", "created_at"),
)

#: the append-only log of a play: each accepted move, undo, redo and restart
play_events = Table(
    "play_events",
    metadata,
    Column(
        "play_id",
        String(32),
        ForeignKey("plays.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("seq", Integer, primary_key=True),
    #: move / undo / redo / restart
    Column("kind", String(8), nullable=False),
    #: the move as played, with concrete piles (``c3 f1``); null for the others
    Column("move", String(32), nullable=True),
    Column("at", Float, nullable=False),
)
