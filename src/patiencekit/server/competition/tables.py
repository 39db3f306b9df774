"""The competition's tables, in the app's one ``metadata`` (migration ``r0002`` makes them,
``r0003`` adds the tournaments' secrets, ``r0005`` the daily deal's).

- ``tournaments`` and ``tournament_entries``: who plays which tournament, and how it ended;
  a tournament's deals come from its own ``secret``, made when it starts;
  a round's play is a ranked row of ``plays`` with ``tournament_id`` and ``round_id`` (the
  round's number, 1 to 3), one per entrant and round (a unique index);
- ``results``: one row per completed ranked game of a scored variant, with its final score
  as the server's replay computed it (the play's id is the key: a game completes once);
- ``standings``: per player and variant, points, cups and medals kept up to date in the
  same transaction as the result, the tournament's end or the day's close that changes them;
  the index on ``(game_id, points DESC, reached_at, user_id)`` serves the Top 100 and a
  player's position;
- ``medals`` and ``closed_days``: the day close, idempotent by their keys;
- ``daily_deals`` and ``daily_results``: the daily deal of each game and UTC day, and the
  day's table (no points: nothing there reaches ``results`` or ``standings``); a daily
  deal's play is a ranked row of ``plays`` with ``daily``, its day, one per player, game
  and day (a unique index).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
)

from patiencekit.server.db import metadata
from patiencekit.server.play.tables import plays

__all__ = [
    "closed_days",
    "daily_deals",
    "daily_results",
    "medals",
    "results",
    "standings",
    "tournament_entries",
    "tournaments",
]

#: a tournament: open (waiting for entrants), running (deals drawn), finished
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(40), nullable=False),
    Column("size", Integer, nullable=False),
    #: open / running / finished
    Column("status", String(8), nullable=False),
    Column("created_by", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    #: the time allowed from the start (the server's setting when the tournament was made)
    Column("deadline_seconds", Integer, nullable=False),
    Column("started_at", Float, nullable=True),
    Column("deadline", Float, nullable=True),
    Column("finished_at", Float, nullable=True),
    #: the three deal numbers, space-separated; null until the start
    Column("deals", String(80), nullable=True),
    #: the random secret the deals come from (64 hexadecimal digits, 256 bits), made at the
    #: start (:func:`~.scoring.tournament_deals`); null until then. Never sent to anyone.
    Column("secret", String(64), nullable=True),
    Index("ix_tournaments_status", "status", "game_id", "created_at"),
)

#: the entrants of a tournament; score, time and place are set when it ends
tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column(
        "tournament_id",
        Integer,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    #: 1, 2, ... in the order of joining: unique, so a tournament never takes too many
    Column("seat", Integer, nullable=False),
    Column("joined_at", Float, nullable=False),
    Column("score", Integer, nullable=True),
    Column("time", Float, nullable=True),
    Column("place", Integer, nullable=True),
    UniqueConstraint("tournament_id", "seat"),
    Index("ix_tournament_entries_user", "user_id", "joined_at"),
)

#: completed ranked games of the scored variants: what points, medals and tournaments count
results = Table(
    "results",
    metadata,
    Column(
        "play_id",
        String(32),
        ForeignKey("plays.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("game_id", String(40), nullable=False),
    Column("tournament_id", Integer, nullable=True),
    Column("round", Integer, nullable=True),
    #: won / over (no move left) / gave_up / expired (after a tournament's deadline: 0)
    Column("outcome", String(8), nullable=False),
    #: the final score: time bonus included for a win, the running score otherwise
    Column("score", Integer, nullable=False),
    #: seconds from the deal to the end (the win, the last move, or giving up)
    Column("elapsed", Float, nullable=False),
    Column("finished_at", Float, nullable=False),
    #: the UTC day of finished_at (YYYY-MM-DD): the day whose medals the game competes for
    Column("day", String(10), nullable=False),
    Index("ix_results_day", "game_id", "day"),
    Index("ix_results_tournament", "tournament_id", "user_id"),
)

#: per player and variant: the aggregates the Top 100 reads
standings = Table(
    "standings",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("points", BigInteger, nullable=False),
    #: when the points last went up (the earlier of two equal totals is listed first)
    Column("reached_at", Float, nullable=False),
    #: completed ranked games
    Column("games", Integer, nullable=False),
    Column("cups1", Integer, nullable=False),
    Column("cups2", Integer, nullable=False),
    Column("cups3", Integer, nullable=False),
    Column("cups4", Integer, nullable=False),
    Column("medals1", Integer, nullable=False),
    Column("medals2", Integer, nullable=False),
    Column("medals3", Integer, nullable=False),
    Column("medals4", Integer, nullable=False),
    Column("medals5", Integer, nullable=False),
)
Index(
    "ix_standings_points",
    standings.c.game_id,
    standings.c.points.desc(),
    standings.c.reached_at,
    standings.c.user_id,
)

#: the day's medals: one owner per place, one medal per player and day
medals = Table(
    "medals",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("place", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("play_id", String(32), nullable=False),
    Column("score", Integer, nullable=False),
    Column("elapsed", Float, nullable=False),
    UniqueConstraint("game_id", "day", "user_id"),
)

#: UTC days whose medals were awarded (a row per variant and day, even without games)
closed_days = Table(
    "closed_days",
    metadata,
    Column("game_id", String(40), primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("closed_at", Float, nullable=False),
    Column("medals", Integer, nullable=False),
)

#: a tournament's plays: one per entrant and round (one attempt), found by the tournament
Index(
    "ix_plays_tournament",
    plays.c.tournament_id,
    plays.c.user_id,
    plays.c.round_id,
    unique=True,
)

#: the daily deal of a game and a UTC day: drawn by the server from 2**64 numbers with fresh
#: randomness when the day's first player starts it (never from the server's key), the
#: same for everyone that day; never sent before the day is closed
daily_deals = Table(
    "daily_deals",
    metadata,
    Column("game_id", String(40), primary_key=True),
    #: YYYY-MM-DD (UTC)
    Column("day", String(10), primary_key=True),
    Column("number", String(24), nullable=False),
    Column("created_at", Float, nullable=False),
    #: when the day was closed (after it ended: every play of it still open was ended then);
    #: the deal and the day's replays are published from then on
    Column("closed_at", Float, nullable=True),
)

#: the day's table of a daily deal: one row per ended play, with its result as the server's
#: replay computed it (the play's id is the key: a play ends once)
daily_results = Table(
    "daily_results",
    metadata,
    Column(
        "play_id",
        String(32),
        ForeignKey("plays.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("game_id", String(40), nullable=False),
    Column("day", String(10), nullable=False),
    #: won / over (no move left) / gave_up / expired (still open when the day ended)
    Column("outcome", String(8), nullable=False),
    #: the final score (time bonus included for a win); null for a game without a score
    Column("score", Integer, nullable=True),
    #: seconds from the deal to the end (the win, the last move, giving up, the day's end)
    Column("elapsed", Float, nullable=False),
    Column("moves", Integer, nullable=False),
    Column("finished_at", Float, nullable=False),
    Index("ix_daily_results_day", "game_id", "day"),
)

#: a daily deal's plays: one per player, game and day (one attempt), found by the day
Index("ix_plays_daily", plays.c.daily, plays.c.game_id, plays.c.user_id, unique=True)
