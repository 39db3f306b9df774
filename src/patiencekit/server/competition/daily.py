"""The daily deal: one deal per game and UTC day, the same for every player that day, with its
own table of the day's best; played as a ranked game, for no points.

**The deal.** The first player to start a game's daily deal on a UTC day makes it: the
server draws it as it draws a ranked deal (:func:`~patiencekit.server.play.service.
draw_ranked_number`: uniform over 2**64 numbers, from the operating system's randomness)
and keeps it in ``daily_deals`` under ``(game, day)``; whoever starts it after that day,
in any process, reads the same row (``INSERT ... ON CONFLICT DO NOTHING``, then a read).
It is not derived from the server's key (public in development, shared by every database
under it, changed by a rotation in the middle of a day), as a tournament's deals are not
(RULES.md, "Fair competition").

**Playing it.** A daily deal's play is a ranked row of ``plays`` with ``daily`` (its day):
no undo, redo, restart or hint, its number never in the play's answers, auto-complete only
where the view proves the win, as every ranked play. One attempt per player, game and day
(a unique index on ``plays``): starting it again resumes the open play; once it has ended,
another start is refused (409 ``daily_played``). It needs an account. It is not the
player's open ranked game of the variant (``storage.open_ranked``), and it takes no move
once its day is over (``storage.play_deadline``), on the full path and the fast path alike.

**Its end** is a ranked play's (won, no move left, given up) or the end of its day: the
day is *closed* after it ends (:func:`close_day`: by the periodic task, or by the first
request about that day), which ends the day's plays still open (outcome ``expired``, the
running score at the day's end). Each ended play gets a row of ``daily_results`` (the
server's replay: score with the time bonus for a win, else the running score; time from
the deal to the win, the last move, giving up or the day's end), in the transaction that
ends it. Nothing goes to ``results`` or ``standings``: no points, rank, cups or medals.

**The table** of a day is public while it runs: the ended plays, by higher score, then
shorter time, then earlier finish (in a game without a score, wins first:
:func:`~.scoring.daily_order`), one place each. The deal's number and the day's replays
are published once the day is closed, never before (403 for a replay, ``null`` for the
number).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Connection, Row, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from patiencekit.game import Game
from patiencekit.games import GAMES
from patiencekit.i18n import N_
from patiencekit.rules import GameRules
from patiencekit.server.accounts import User, current_user
from patiencekit.server.competition.replays import published_play, replay_answer
from patiencekit.server.competition.scoring import daily_order, day_start, utc_day
from patiencekit.server.competition.standings import dialect_insert
from patiencekit.server.competition.tables import daily_deals, daily_results
from patiencekit.server.db import Database, users
from patiencekit.server.deps import Client
from patiencekit.server.errors import ApiError, game_rules
from patiencekit.server.play import fastpath
from patiencekit.server.play import service as plays_service
from patiencekit.server.play.fastpath import KeptGame
from patiencekit.server.play.models import play_json
from patiencekit.server.play.replay import rebuild, replay_row
from patiencekit.server.play.storage import (
    insert_play,
    mark_ended,
    play_deadline,
)
from patiencekit.server.play.tables import plays

__all__ = [
    "DAY",
    "TABLE_LIMIT",
    "close_day",
    "close_due_days",
    "day_json",
    "deal_in_play",
    "overview",
    "record_result",
    "replay",
    "result_of",
    "start",
]

DAY = 86_400.0
#: lines of a day's table sent (the session's own line comes as ``me``, wherever it stands)
TABLE_LIMIT = 100


#: the first day a daily deal may have (a day before is asked for nothing)
FIRST_DAY = "1970-01-01"


def _day(day: str) -> str:
    """``day`` checked: a real date written YYYY-MM-DD (422 otherwise), from
    :data:`FIRST_DAY` (404 before)."""
    try:
        day_start(day)
    except ValueError:
        raise ApiError(
            422,
            "bad_request",
            N_("{field}: {day!r} is not a date (YYYY-MM-DD)"),
            params={"field": "day", "day": day},
        ) from None
    if day < FIRST_DAY:
        raise ApiError(
            404,
            "not_found",
            N_("there is no daily deal before {first}"),
            params={"first": FIRST_DAY},
        )
    return day


def _previous(day: str) -> str:
    return (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()


def _account(conn: Connection, client: Client) -> User:
    user = current_user(conn, client)
    if user is None or user.guest:
        raise ApiError(401, "unauthorized", N_("sign in to play the daily deal"))
    return user


# -- the deal ---------------------------------------------------------------------------------


def _deal(conn: Connection, game_id: str, day: str, now: float) -> int:
    """The day's deal of a game, drawn now if nobody has started it yet (in the caller's
    write transaction: two processes drawing at once keep the first one committed)."""
    insert = dialect_insert(conn)
    conn.execute(
        insert(daily_deals)
        .values(
            game_id=game_id,
            day=day,
            number=str(plays_service.draw_ranked_number()),
            created_at=now,
        )
        .on_conflict_do_nothing(index_elements=[daily_deals.c.game_id, daily_deals.c.day])
    )
    number = conn.execute(
        select(daily_deals.c.number).where(
            daily_deals.c.game_id == game_id, daily_deals.c.day == day
        )
    ).scalar_one()
    return int(number)


def deal_in_play(conn: Connection, game_id: str, number: int) -> bool:
    """True if ``number`` is a daily deal not published yet (its day not closed): the hook
    :mod:`patiencekit.server.play.service` asks before a casual play of a chosen number, so
    that nobody practises the day's deal (it can be played casually once published)."""
    found = conn.execute(
        select(daily_deals.c.day)
        .where(
            daily_deals.c.game_id == game_id,
            daily_deals.c.number == str(number),
            daily_deals.c.closed_at.is_(None),
        )
        .limit(1)
    ).first()
    return found is not None


# -- starting ---------------------------------------------------------------------------------


def start(db: Database, client: Client, game_id: str) -> tuple[dict[str, Any], bool]:
    """The session's play of today's daily deal of a game: made now (True) or its open play
    resumed (False). Refused for a guest (401) and once the player's play of today has
    ended (409 ``daily_played``: one attempt a day)."""
    rules = game_rules(game_id)
    try:
        return _start(db, client, rules)
    except IntegrityError:
        # Two starts at once (PostgreSQL): the other one made the play; this one resumes it.
        return _start(db, client, rules)


def _start(db: Database, client: Client, rules: GameRules) -> tuple[dict[str, Any], bool]:
    now = client.now()
    day = utc_day(now)
    with db.write() as conn:
        user = _account(conn, client)
        mine = conn.execute(
            select(plays.c.id, plays.c.ended_at).where(
                plays.c.daily == day, plays.c.game_id == rules.id, plays.c.user_id == user.id
            )
        ).first()
        if mine is not None and mine.ended_at is not None:
            raise ApiError(
                409,
                "daily_played",
                N_(
                    "you have played today's daily deal of {game}: one attempt a day "
                    "(the next deal comes at 00:00 UTC)"
                ),
                params={"game": rules.name},
            )
        if mine is None:
            number = _deal(conn, rules.id, day, now)
            play_id = insert_play(
                conn,
                user_id=user.id,
                game_id=rules.id,
                number=number,
                ranked=True,
                now=now,
                daily=day,
            )
    if mine is not None:
        return plays_service.get_play(db, client, mine.id), False
    game, clock = rebuild(rules.id, number, True, now, [])
    kept = KeptGame(game, clock, True, "playing", False, now, False, play_deadline(day), day)
    answer = play_json(play_id, True, game, daily=day)
    fastpath.keep(db, play_id, 0, kept)
    return answer, True


# -- the end of a play ------------------------------------------------------------------------


def record_result(conn: Connection, row: Row[Any], game: Game, outcome: str, now: float) -> None:
    """Record the end of the daily deal's play ``row`` in its day's table, in the caller's
    transaction (``competition.tournaments.complete_play`` calls this for every ranked play
    that ends with ``daily`` set). ``game`` is the server's replay of the play now.

    The score is the game's (time bonus included on a win; null for a game without one);
    the time is the won game's, else from the deal to now, but never past the day's end: a
    play given up after it (before its day was closed) is ``expired`` as the day left it.
    """
    deadline = play_deadline(row.daily)
    assert deadline is not None, "a daily deal's play has its day"
    end = min(now, deadline)
    if now >= deadline and outcome == "gave_up":
        outcome = "expired"
    won = game.is_won()
    conn.execute(
        insert(daily_results).values(
            play_id=row.id,
            user_id=row.user_id,
            game_id=row.game_id,
            day=row.daily,
            outcome=outcome,
            score=int(game.score) if game.score is not None else None,
            elapsed=round(game.elapsed if won else end - row.created_at, 3),
            moves=game.state.history_length,
            finished_at=end,
        )
    )


def result_of(conn: Connection, play_id: str) -> Row[Any] | None:
    """A daily deal's play's result (outcome, score, elapsed, finished_at), for the answer to
    giving it up; None for a game without a score (as the ranked results)."""
    row = conn.execute(select(daily_results).where(daily_results.c.play_id == play_id)).first()
    return row if row is not None and row.score is not None else None


def close_day(db: Database, game_id: str, day: str, now: float) -> bool:
    """Close a game's daily deal of a day that is over: end its plays still open (outcome
    ``expired``, each with its running score), then publish the deal (``closed_at``). True
    if this call closed it; False if it was closed already, has no deal, is not over, or a
    play moved on meanwhile (then nothing changed: the next try closes it).

    One transaction, the deal's row locked first (PostgreSQL), so two processes closing the
    same day change it once. Each play's result goes in before its row is marked ended, as a
    move's end does (``storage.store_last``): of a close and a play's last move at once, one
    waits for the other and then fails on the result's key, never on a circle of locks.
    """
    if now < day_start(day) + DAY:
        return False
    with db.read() as conn:
        deal = conn.execute(
            select(daily_deals.c.closed_at).where(
                daily_deals.c.game_id == game_id, daily_deals.c.day == day
            )
        ).first()
    if deal is None or deal.closed_at is not None:
        return False
    ended: list[str] = []
    try:
        with db.write() as conn:
            deal = conn.execute(
                select(daily_deals.c.closed_at)
                .where(daily_deals.c.game_id == game_id, daily_deals.c.day == day)
                .with_for_update()
            ).first()
            if deal is None or deal.closed_at is not None:
                return False
            open_plays = conn.execute(
                select(plays).where(
                    plays.c.daily == day, plays.c.game_id == game_id, plays.c.ended_at.is_(None)
                )
            ).all()
            for row in open_plays:
                game, _clock = replay_row(conn, row, now)
                record_result(conn, row, game, "expired", now)
                if not mark_ended(conn, row, now):
                    raise _MovedOn
                ended.append(row.id)
            conn.execute(
                update(daily_deals)
                .where(daily_deals.c.game_id == game_id, daily_deals.c.day == day)
                .values(closed_at=now)
            )
    except (_MovedOn, IntegrityError):
        return False  # a play ended meanwhile: the next try closes the day
    for play_id in ended:
        fastpath.forget(db, play_id)
    return True


class _MovedOn(Exception):
    """A play of the day moved on while the day was being closed."""


def close_due_days(db: Database, now: float) -> list[tuple[str, str]]:
    """Close every daily deal whose day is over and not closed yet (the periodic task calls
    this); ``(game, day)`` of each this call closed."""
    today = utc_day(now)
    with db.read() as conn:
        due = conn.execute(
            select(daily_deals.c.game_id, daily_deals.c.day)
            .where(daily_deals.c.closed_at.is_(None), daily_deals.c.day < today)
            .order_by(daily_deals.c.day, daily_deals.c.game_id)
        ).all()
    return [(g, d) for g, d in due if close_day(db, g, d, now)]


# -- reading ----------------------------------------------------------------------------------


def _line(place: int, r: Any) -> dict[str, Any]:
    return {
        "place": place,
        "name": r.name,
        "outcome": r.outcome,
        "score": r.score,
        "time": r.elapsed,
        "moves": r.moves,
        "finished_at": r.finished_at,
    }


def _ordered(rows: Any) -> list[Any]:
    return sorted(
        rows,
        key=lambda r: daily_order(
            r.score, r.outcome == "won", r.elapsed, r.finished_at, r.user_id
        ),
    )


def _mine(row: Any, line: dict[str, Any] | None) -> dict[str, Any]:
    """The session's own play of a day: its id, whether it runs, its line once ended."""
    if row is None:
        return {"play": None, "status": "none", "line": None}
    return {
        "play": row.id,
        "status": "playing" if row.ended_at is None else "ended",
        "line": line,
    }


def day_json(db: Database, client: Client, game_id: str, day: str | None) -> dict[str, Any]:
    """A game's daily deal of a day (today when ``day`` is None): its table, the session's
    own play, and, once the day is closed, its deal. A day that is over is closed first
    (its open plays end); a day to come is 404."""
    rules = game_rules(game_id)
    now = client.now()
    today = utc_day(now)
    day = today if day is None else _day(day)
    if day > today:
        raise ApiError(
            404, "not_found", N_("the daily deal of {day} is not dealt yet"), params={"day": day}
        )
    if day < today:
        close_day(db, rules.id, day, now)
    with db.read() as conn:
        deal = conn.execute(
            select(daily_deals).where(
                daily_deals.c.game_id == rules.id, daily_deals.c.day == day
            )
        ).first()
        rows = conn.execute(
            select(daily_results, users.c.name)
            .join(users, users.c.id == daily_results.c.user_id)
            .where(daily_results.c.game_id == rules.id, daily_results.c.day == day)
        ).all()
        playing = conn.execute(
            select(func.count()).where(
                plays.c.daily == day, plays.c.game_id == rules.id, plays.c.ended_at.is_(None)
            )
        ).scalar_one()
        viewer = current_user(conn, client)
        own = None
        if viewer is not None:
            own = conn.execute(
                select(plays.c.id, plays.c.ended_at).where(
                    plays.c.daily == day,
                    plays.c.game_id == rules.id,
                    plays.c.user_id == viewer.id,
                )
            ).first()
    ordered = _ordered(rows)
    lines = [_line(i, r) for i, r in enumerate(ordered, start=1)]
    number = deal.number if deal is not None and deal.closed_at is not None else None
    me = None
    if viewer is not None:
        mine = (x for x, r in zip(lines, ordered, strict=True) if r.user_id == viewer.id)
        line = next(mine, None)
        me = {"name": viewer.name, **_mine(own, line)}
    return {
        "game": rules.id,
        "name": rules.name,
        "day": day,
        "previous": _previous(day),
        "starts_at": day_start(day),
        "ends_at": day_start(day) + DAY,
        "over": day < today,
        # The deal only once the day is closed: until then anyone may still be playing it.
        "number": int(number) if number is not None else None,
        "number_text": number,
        "dealt": deal is not None,  # false: nobody has started the day's deal (no deal yet)
        "players": len(lines),
        "playing": int(playing),
        "table": lines[:TABLE_LIMIT],
        "me": me,
        "now": now,
    }


def overview(db: Database, client: Client) -> dict[str, Any]:
    """Today's daily deal of every game: how many have ended it and play it now, and the
    session's own play of each."""
    now = client.now()
    day = utc_day(now)
    with db.read() as conn:
        counts = {
            (g, ended): int(n)
            for g, ended, n in conn.execute(
                select(plays.c.game_id, plays.c.ended_at.is_not(None), func.count())
                .where(plays.c.daily == day)
                .group_by(plays.c.game_id, plays.c.ended_at.is_not(None))
            ).all()
        }
        viewer = current_user(conn, client)
        own: dict[str, Any] = {}
        if viewer is not None:
            own = {
                r.game_id: r
                for r in conn.execute(
                    select(plays.c.id, plays.c.game_id, plays.c.ended_at).where(
                        plays.c.daily == day, plays.c.user_id == viewer.id
                    )
                )
            }
    games = []
    for game_id, rules in GAMES.items():
        mine = own.get(game_id)
        games.append(
            {
                "game": game_id,
                "name": rules.name,
                "players": counts.get((game_id, True), 0),
                "playing": counts.get((game_id, False), 0),
                "me": None if viewer is None else _mine(mine, None),
            }
        )
    return {
        "day": day,
        "starts_at": day_start(day),
        "ends_at": day_start(day) + DAY,
        "games": games,
        "now": now,
    }


def replay(
    db: Database, game_id: str, day: str, name: str, step: int | None, now: float
) -> dict[str, Any]:
    """A player's play of a closed day's daily deal: the game record (with the day), or the
    board at ``step`` (:func:`.replays.replay_answer`); 403 before the day is closed (a day
    that is over is closed first)."""
    rules = game_rules(game_id)
    day = _day(day)
    if day < utc_day(now):
        close_day(db, rules.id, day, now)
    with db.read() as conn:
        deal = conn.execute(
            select(daily_deals.c.closed_at).where(
                daily_deals.c.game_id == rules.id, daily_deals.c.day == day
            )
        ).first()
        if deal is None and day < utc_day(now):  # a day over that nobody played
            raise ApiError(
                404,
                "not_found",
                N_("{name} did not play the daily deal of {day}"),
                params={"name": name, "day": day},
            )
        if deal is None or deal.closed_at is None:
            raise ApiError(
                403,
                "forbidden",
                N_("the replays of a daily deal are published once its day is over"),
            )
        play = published_play(
            conn,
            name,
            daily_results,
            plays.c.daily == day,
            plays.c.game_id == rules.id,
            missing=(N_("{name} did not play the daily deal of {day}"), {"name": name, "day": day}),
        )
    return replay_answer(play, {"day": day}, step)
