"""Ranked results, the per-player aggregates, the Top 100 and the day's medals.

A ranked game of a scored variant *completes* when it is won, when no move is
left, when its player gives it up, or at its tournament's deadline. Its final
score is computed by the server from its own replay of the play's event log
(time bonus included on a win; the running score otherwise); the client never
sends a score. The completion inserts a ``results`` row (keyed by the play, so
a game completes once) and adds to the player's ``standings`` row in the same
transaction.

**Points, positions and ties.** points = the sum of the final scores of the
player's completed ranked games of the variant (tournament rounds included).
The Top 100 lists the players by points (more first); players with equal
points share a position (the seed's "35. 35. 35. 38."): position = 1 + the
number of players with more points. Among equal points, the one who reached
that total first is listed first (``reached_at``: when the points last went
up), then the older account.

**Medals** are awarded when a UTC day closes (see :func:`close_day`): each
player's best game of the day (highest score, then shorter time, then earlier
finish) competes with the other players' best; places 1 to 5 win a medal.
Games that count 0 because a tournament's deadline passed do not compete. A
day is closed once: the ``closed_days`` key and the ``medals`` keys make a
second run (or a second server process) change nothing; days are closed in
order, so a server that was down closes the days it missed when it starts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, case, func, insert, select
from sqlalchemy.exc import IntegrityError

from patiencekit.server.competition.scoring import (
    CUP_PLACES,
    MEDAL_PLACES,
    VARIANTS,
    day_start,
    medal_order,
    next_day,
    rank,
    utc_day,
)
from patiencekit.server.competition.tables import closed_days, medals, results, standings
from patiencekit.server.db import Database, users

__all__ = [
    "DAY_CLOSE_GRACE",
    "Delta",
    "apply_deltas",
    "close_day",
    "close_due_days",
    "dialect_insert",
    "insert_result",
    "last_due_day",
    "leaderboard",
    "standing_json",
    "standing_of",
    "top100",
]

#: a UTC day is closed this many seconds after it ends, so that a game finished at
#: 23:59:59 whose transaction commits a moment later is still counted
DAY_CLOSE_GRACE = 300.0
DAY = 86_400.0


@dataclass(slots=True)
class Delta:
    """What a transaction adds to one player's standing in one variant."""

    points: int = 0
    games: int = 0
    cups: list[int] = field(default_factory=lambda: [0] * CUP_PLACES)
    medals: list[int] = field(default_factory=lambda: [0] * MEDAL_PLACES)


def dialect_insert(conn: Connection) -> Any:
    """The ``insert`` of the connection's dialect (PostgreSQL's or SQLite's), which has
    ``on_conflict_do_update`` and ``on_conflict_do_nothing``."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert


def apply_deltas(conn: Connection, game_id: str, deltas: Mapping[int, Delta], now: float) -> None:
    """Add each player's delta to their standing (made when missing), in user-id order.

    One ``INSERT ... ON CONFLICT DO UPDATE`` per player; taking the rows in a
    fixed order keeps two transactions from waiting on each other in a circle.
    """
    upsert = dialect_insert(conn)
    for user_id in sorted(deltas):
        d = deltas[user_id]
        row: dict[str, Any] = {
            "game_id": game_id,
            "user_id": user_id,
            "points": d.points,
            "reached_at": now,
            "games": d.games,
            **{f"cups{i + 1}": n for i, n in enumerate(d.cups)},
            **{f"medals{i + 1}": n for i, n in enumerate(d.medals)},
        }
        statement = upsert(standings).values(**row)
        excluded = statement.excluded
        counters = ["points", "games", *(k for k in row if k.startswith(("cups", "medals")))]
        updates: dict[str, Any] = {c: standings.c[c] + excluded[c] for c in counters}
        updates["reached_at"] = case(
            (excluded.points > 0, excluded.reached_at), else_=standings.c.reached_at
        )
        conn.execute(
            statement.on_conflict_do_update(
                index_elements=[standings.c.game_id, standings.c.user_id], set_=updates
            )
        )


def insert_result(
    conn: Connection,
    *,
    play_id: str,
    user_id: int,
    game_id: str,
    tournament_id: int | None,
    round_number: int | None,
    outcome: str,
    score: int,
    elapsed: float,
    now: float,
) -> None:
    """Record a completed ranked game (the caller adds its points to the standing)."""
    conn.execute(
        insert(results).values(
            play_id=play_id,
            user_id=user_id,
            game_id=game_id,
            tournament_id=tournament_id,
            round=round_number,
            outcome=outcome,
            score=score,
            elapsed=round(elapsed, 3),
            finished_at=now,
            day=utc_day(now),
        )
    )


# -- reading ---------------------------------------------------------------------------


def standing_json(row: Any, position: int) -> dict[str, Any]:
    """A player's line of the Top 100."""
    return {
        "position": position,
        "rank": rank(int(row.points)),
        "name": row.name,
        "points": int(row.points),
        "games": row.games,
        "cups": [row.cups1, row.cups2, row.cups3, row.cups4],
        "medals": [row.medals1, row.medals2, row.medals3, row.medals4, row.medals5],
    }


_ORDER = (standings.c.points.desc(), standings.c.reached_at, standings.c.user_id)


def top100(conn: Connection, game_id: str, limit: int = 100) -> list[dict[str, Any]]:
    """The first ``limit`` players of a variant, in order, with their shared positions.

    One query, along the index ``ix_standings_points``. Every player with more
    points than a listed one is listed before them, so the positions follow
    from the list itself.
    """
    rows = conn.execute(
        select(standings, users.c.name)
        .join(users, users.c.id == standings.c.user_id)
        .where(standings.c.game_id == game_id)
        .order_by(*_ORDER)
        .limit(limit)
    ).all()
    lines: list[dict[str, Any]] = []
    position = 0
    for i, row in enumerate(rows):
        if i == 0 or row.points != rows[i - 1].points:
            position = i + 1
        lines.append(standing_json(row, position))
    return lines


def standing_of(conn: Connection, game_id: str, user_id: int) -> dict[str, Any] | None:
    """A player's line and position (1 + the players with more points), in one query.

    None when the player has no standing in the variant yet.
    """
    better = standings.alias("better")
    ahead = (
        select(func.count())
        .select_from(better)
        .where(better.c.game_id == standings.c.game_id, better.c.points > standings.c.points)
        .scalar_subquery()
    )
    row = conn.execute(
        select(standings, users.c.name, ahead.label("ahead"))
        .join(users, users.c.id == standings.c.user_id)
        .where(standings.c.game_id == game_id, standings.c.user_id == user_id)
    ).first()
    if row is None:
        return None
    return standing_json(row, int(row.ahead) + 1)


def leaderboard(db: Database, game_id: str, user_id: int | None) -> dict[str, Any]:
    """The Top 100 of a variant, and the given player's own line (wherever they stand)."""
    with db.read() as conn:
        players = top100(conn, game_id)
        me = standing_of(conn, game_id, user_id) if user_id is not None else None
    return {"game": game_id, "players": players, "me": me}


# -- the day's medals ------------------------------------------------------------------


def _best_of_day(conn: Connection, game_id: str, day: str) -> list[Any]:
    """Every player's best game of the day (deadline zeros excluded), best first."""
    rows = conn.execute(
        select(
            results.c.user_id,
            results.c.play_id,
            results.c.score,
            results.c.elapsed,
            results.c.finished_at,
        ).where(
            results.c.game_id == game_id,
            results.c.day == day,
            results.c.outcome != "expired",
        )
    ).all()
    best: dict[int, Any] = {}
    for r in rows:
        key = medal_order(r.score, r.elapsed, r.finished_at, r.user_id)
        kept = best.get(r.user_id)
        if kept is None or key < medal_order(
            kept.score, kept.elapsed, kept.finished_at, kept.user_id
        ):
            best[r.user_id] = r
    return sorted(
        best.values(), key=lambda r: medal_order(r.score, r.elapsed, r.finished_at, r.user_id)
    )


def last_due_day(now: float) -> str:
    """The last UTC day that may be closed at ``now`` (it ended DAY_CLOSE_GRACE ago)."""
    return utc_day(now - DAY_CLOSE_GRACE - DAY)


def close_day(db: Database, game_id: str, day: str, now: float) -> int | None:
    """Award a variant's medals of a UTC day; the number awarded, None if it was closed already.

    One transaction: the ``closed_days`` row, the ``medals`` rows and the
    standings' medal counts are written together or not at all. Run twice (or
    by two processes at once) the second run finds the day closed, or fails on
    the keys and rolls back: nothing changes.
    """
    if game_id not in VARIANTS:
        raise ValueError(f"medals are for {', '.join(VARIANTS)}, not {game_id!r}")
    if day_start(day) + DAY + DAY_CLOSE_GRACE > now:
        raise ValueError(f"the UTC day {day} is not over yet (or ended less than 5 minutes ago)")
    try:
        with db.write() as conn:
            done = conn.execute(
                select(closed_days.c.day).where(
                    closed_days.c.game_id == game_id, closed_days.c.day == day
                )
            ).first()
            if done is not None:
                return None
            best = _best_of_day(conn, game_id, day)[:MEDAL_PLACES]
            conn.execute(
                insert(closed_days).values(
                    game_id=game_id, day=day, closed_at=now, medals=len(best)
                )
            )
            deltas: dict[int, Delta] = {}
            for place, r in enumerate(best, start=1):
                conn.execute(
                    insert(medals).values(
                        game_id=game_id,
                        day=day,
                        place=place,
                        user_id=r.user_id,
                        play_id=r.play_id,
                        score=r.score,
                        elapsed=r.elapsed,
                    )
                )
                delta = deltas.setdefault(r.user_id, Delta())
                delta.medals[place - 1] += 1
            apply_deltas(conn, game_id, deltas, now)
    except IntegrityError:
        return None  # another process closed the day at the same moment
    return len(best)


def _first_open_day(db: Database, game_id: str) -> str | None:
    """The day after the last closed one; before any, the day of the first result."""
    with db.read() as conn:
        last = conn.execute(
            select(func.max(closed_days.c.day)).where(closed_days.c.game_id == game_id)
        ).scalar()
        if last is not None:
            return next_day(str(last))
        first = conn.execute(
            select(func.min(results.c.day)).where(results.c.game_id == game_id)
        ).scalar()
    return None if first is None else str(first)


def close_due_days(
    db: Database, now: float, until: str | None = None, games: Iterable[str] = VARIANTS
) -> list[tuple[str, str, int]]:
    """Close, in order, every day that is over and not closed yet (up to ``until``).

    Days are closed one after another from the day after the last closed one,
    so the closed days never leave a gap, and a server that was stopped for a
    while closes the days it missed. Returns ``(game, day, medals)`` for each
    day this call closed.
    """
    last = last_due_day(now)
    if until is not None:
        day_start(until)  # checks the text
        if until > last:
            raise ValueError(
                f"the UTC day {until} is not over yet (or ended less than 5 minutes ago)"
            )
        last = until
    closed: list[tuple[str, str, int]] = []
    for game_id in games:
        day = _first_open_day(db, game_id)
        while day is not None and day <= last:
            awarded = close_day(db, game_id, day, now)
            if awarded is not None:
                closed.append((game_id, day, awarded))
            day = next_day(day)
    return closed


def medals_of(conn: Connection, user_id: int, limit: int = 50) -> Sequence[Any]:
    """A player's latest medals (game, day, place, score)."""
    return conn.execute(
        select(medals.c.game_id, medals.c.day, medals.c.place, medals.c.score, medals.c.elapsed)
        .where(medals.c.user_id == user_id)
        .order_by(medals.c.day.desc(), medals.c.game_id)
        .limit(limit)
    ).all()
