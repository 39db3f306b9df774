"""Tournaments: create or join one, play its three rounds, its end, its places and cups.

A tournament of a scored variant (Klondike draw 3 or draw 1) has a size (2 to
10 entrants, 4 by default) and starts when full: at that moment a random secret
is made for it (256 bits from :mod:`secrets`, kept in ``tournaments.secret``),
its three deals are drawn from that secret (:func:`~.scoring.tournament_deals`:
uniform over 1..10**20 - 1, not derived from the server's key, so neither the
key nor another database under it tells them), and its deadline is set
(``deadline_seconds`` after the start, 24 hours unless the server is configured
otherwise). Until the tournament has ended no answer carries a deal number, nor
the secret, nor anything else from which the hidden cards follow: not the
tournament, the list, a round's play (its entrant sees the cards as they turn
up, never the number) nor a given-up round; the deals are published with the
replays once it is over. A player waits in at most :data:`MAX_OPEN` open
tournaments; making and joining take a per-player lock first (PostgreSQL), so
parallel requests cannot pass the count together.

Each entrant plays the rounds one after another, each one attempt: opening
round *r* makes a ranked play (no undo, redo or restart; the server has no
hints) of the round's deal, tied to the tournament by ``plays.tournament_id``
and ``round_id``; opening it again only resumes that play, and once it has
ended it cannot be played again. A round ends when it is won, when no move is
left, or when the entrant gives it up (``POST /api/plays/{id}/finish``: the
final score of a given-up game is its running score, without time bonus). Its
final score is the server's, from its replay of the play's events.

The tournament ends when every entrant has finished every round, or at the
deadline, whichever comes first. A round not finished by the deadline counts
0 (an open round's play is ended then; a round finished after the deadline,
before the server noticed, counts 0 too). The tournament score is the sum of
the three final scores; the total time is the sum of the rounds' times, a round
that counts 0 because of the deadline counting the whole time allowed. Places
go by score (higher first), then total time (shorter first); an exact tie
shares the place. Places 1 to 4 add a cup of that place to the entrant's
standing, in the same transaction that ends the tournament.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import (
    Connection,
    Row,
    case,
    delete,
    exists,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from patiencekit.game import Game
from patiencekit.games import get_rules
from patiencekit.i18n import N_
from patiencekit.server.accounts import User, current_user
from patiencekit.server.competition import daily
from patiencekit.server.competition.replays import published_play, replay_answer, result_json
from patiencekit.server.competition.scoring import (
    CUP_PLACES,
    ROUNDS,
    SECRET_BYTES,
    VARIANTS,
    places,
    tournament_deals,
)
from patiencekit.server.competition.standings import Delta, apply_deltas, insert_result
from patiencekit.server.competition.tables import results, tournament_entries, tournaments
from patiencekit.server.db import Database, users
from patiencekit.server.deps import Client
from patiencekit.server.errors import ApiError
from patiencekit.server.play.models import play_json, revealed
from patiencekit.server.play.replay import rebuild, replay_row
from patiencekit.server.play.storage import (
    PLAY_ID,
    insert_play,
    mark_ended,
    play_status,
    read_play,
)
from patiencekit.server.play.tables import plays

__all__ = [
    "close_expired",
    "close_tournament",
    "complete_play",
    "create_tournament",
    "deal_in_play",
    "finish_play",
    "join_tournament",
    "leave_tournament",
    "list_tournaments",
    "new_secret",
    "on_ranked_end",
    "on_ranked_give_up",
    "open_round",
    "replay",
    "tournament_json",
    "tournaments_of",
]

LIST_LIMIT = 50
#: open tournaments a player may wait in at once (they can leave one to join another)
MAX_OPEN = 5
#: a transaction lock on a player's tournament entries (PostgreSQL advisory lock: class 1886,
#: the user id; :mod:`patiencekit.server.play.storage` locks a player's new ranked plays with 1885)
_LOCK_PLAYER_ENTRIES = text("SELECT pg_advisory_xact_lock(1886, :user_id)")


# -- completing a ranked game ---------------------------------------------------------------


def _lock_tournament(conn: Connection, tournament_id: int) -> Row[Any] | None:
    """The tournament's row, locked until the transaction ends (PostgreSQL; SQLite's write
    transactions hold the whole database already). Every transaction that changes a
    tournament's plays or results takes this lock first, so they never deadlock."""
    return conn.execute(
        select(tournaments).where(tournaments.c.id == tournament_id).with_for_update()
    ).first()


def complete_play(conn: Connection, row: Row[Any], game: Game, outcome: str, now: float) -> None:
    """Record the result of the ranked play ``row`` that ends now, in the caller's transaction.

    ``game`` is the server's replay of the play at its end. The final score is
    the game's (time bonus included on a win); a tournament round ended after
    its deadline (or after its tournament ended) counts 0. The player's
    standing gets the points; the round that completes a tournament ends it.
    Plays of unscored games have no results. A daily deal's play goes to its day's
    table only (:func:`~.daily.record_result`): no points, no medals.
    """
    if row.daily is not None:
        daily.record_result(conn, row, game, outcome, now)
        return
    if row.game_id not in VARIANTS:
        return
    score = int(game.score or 0)
    deltas: dict[int, Delta] = {}
    t = _lock_tournament(conn, row.tournament_id) if row.tournament_id is not None else None
    if t is not None and (t.status != "running" or now > t.deadline):
        outcome, score = "expired", 0
    insert_result(
        conn,
        play_id=row.id,
        user_id=row.user_id,
        game_id=row.game_id,
        tournament_id=row.tournament_id,
        round_number=row.round_id,
        outcome=outcome,
        score=score,
        elapsed=game.elapsed,
        now=now,
    )
    deltas[row.user_id] = Delta(points=score, games=1)
    if t is not None and t.status == "running":
        done = conn.execute(
            select(func.count()).where(results.c.tournament_id == t.id)
        ).scalar_one()
        if now > t.deadline or done >= t.size * ROUNDS:
            _end(conn, t, now, deltas)
    apply_deltas(conn, row.game_id, deltas, now)


def on_ranked_end(conn: Connection, row: Row[Any], game: Game, now: float) -> None:
    """The hook :mod:`patiencekit.server.play.service` calls when a move ends a ranked play."""
    complete_play(conn, row, game, play_status(game.is_won(), over=True), now)


def _given_up(game: Game) -> str:
    """The outcome of a ranked play ended by its player: ``over`` if no move was left
    anyway, else ``gave_up``."""
    return "over" if game.is_over() else "gave_up"


def on_ranked_give_up(conn: Connection, row: Row[Any], game: Game, now: float) -> None:
    """The hook :mod:`patiencekit.server.play.service` calls when a ranked play ends as given up
    (another ranked game started, or a day without a move): it counts its running score."""
    complete_play(conn, row, game, _given_up(game), now)


def _end(conn: Connection, t: Row[Any], now: float, deltas: dict[int, Delta]) -> None:
    """End the running tournament ``t`` (locked): expire open rounds, set places, give cups."""
    if (
        conn.execute(
            update(tournaments)
            .where(tournaments.c.id == t.id, tournaments.c.status == "running")
            .values(status="finished", finished_at=now)
        ).rowcount
        != 1
    ):
        return
    # Rounds still open at the end (the deadline passed): they end now and count 0.
    pending = conn.execute(
        select(plays.c.id, plays.c.user_id, plays.c.round_id, plays.c.created_at).where(
            plays.c.tournament_id == t.id,
            plays.c.ended_at.is_(None),
            ~exists().where(results.c.play_id == plays.c.id),
        )
    ).all()
    for p in pending:
        insert_result(
            conn,
            play_id=p.id,
            user_id=p.user_id,
            game_id=t.game_id,
            tournament_id=t.id,
            round_number=p.round_id,
            outcome="expired",
            score=0,
            elapsed=now - p.created_at,
            now=now,
        )
        conn.execute(update(plays).where(plays.c.id == p.id).values(ended_at=now, status="over"))
        deltas.setdefault(p.user_id, Delta()).games += 1
    standing = _totals(conn, t)
    placed = places([(uid, score, seconds) for uid, (score, seconds, _n) in standing.items()])
    for uid, place in placed.items():
        score, seconds, _n = standing[uid]
        conn.execute(
            update(tournament_entries)
            .where(tournament_entries.c.tournament_id == t.id, tournament_entries.c.user_id == uid)
            .values(score=score, time=round(seconds, 3), place=place)
        )
        if place <= CUP_PLACES:
            deltas.setdefault(uid, Delta()).cups[place - 1] += 1


def _totals(conn: Connection, t: Row[Any]) -> dict[int, tuple[int, float, int]]:
    """Each entrant's (score, total time, rounds that count) from the results.

    A round that counts 0 by the deadline, or that was never played, counts
    the whole time allowed (``deadline_seconds``).
    """
    entrants = conn.execute(
        select(tournament_entries.c.user_id).where(tournament_entries.c.tournament_id == t.id)
    ).scalars()
    totals: dict[int, tuple[int, float, int]] = {uid: (0, 0.0, 0) for uid in entrants}
    rows = conn.execute(
        select(results.c.user_id, results.c.outcome, results.c.score, results.c.elapsed).where(
            results.c.tournament_id == t.id
        )
    ).all()
    for r in rows:
        if r.user_id not in totals or r.outcome == "expired":
            continue
        score, seconds, n = totals[r.user_id]
        totals[r.user_id] = (score + r.score, seconds + r.elapsed, n + 1)
    allowed = float(t.deadline_seconds)
    return {
        uid: (score, seconds + allowed * (ROUNDS - n), n)
        for uid, (score, seconds, n) in totals.items()
    }


def close_tournament(db: Database, tournament_id: int, now: float) -> bool:
    """End a running tournament whose deadline has passed; True if this call ended it."""
    with db.write() as conn:
        t = _lock_tournament(conn, tournament_id)
        if t is None or t.status != "running" or now < t.deadline:
            return False
        deltas: dict[int, Delta] = {}
        _end(conn, t, now, deltas)
        apply_deltas(conn, t.game_id, deltas, now)
    return True


def close_expired(db: Database, now: float) -> list[int]:
    """End every running tournament past its deadline (the periodic task calls this)."""
    with db.read() as conn:
        due = (
            conn.execute(
                select(tournaments.c.id).where(
                    tournaments.c.status == "running", tournaments.c.deadline <= now
                )
            )
            .scalars()
            .all()
        )
    return [tid for tid in due if close_tournament(db, tid, now)]


# -- giving up ----------------------------------------------------------------------------------


def finish_play(db: Database, client: Client, play_id: str, n: int) -> dict[str, Any]:
    """Give up (finish) the session's ranked play: its result is recorded, no move follows.

    The final score is the server's running score of the play as its events
    replay (no time bonus: the game is not won). ``n`` is the number of moves
    the client has seen, as for a move.
    """
    if not PLAY_ID.fullmatch(play_id):
        raise ApiError(404, "not_found", N_("no play has this id"))
    now = client.now()
    try:
        return _finish(db, client, play_id, n, now)
    except IntegrityError:
        # The play ended meanwhile (its winning move, or its tournament's deadline).
        raise ApiError(409, "conflict", N_("the play has ended meanwhile: reload it")) from None


def _finish(db: Database, client: Client, play_id: str, n: int, now: float) -> dict[str, Any]:
    with db.write() as conn:
        user = current_user(conn, client)
        row = read_play(conn, play_id)
        if row is None:
            raise ApiError(404, "not_found", N_("no play has this id"))
        if user is None or user.id != row.user_id:
            raise ApiError(403, "forbidden", N_("this play belongs to another player"))
        if row.tournament_id is not None:
            # The tournament's lock first (as every writer of its plays takes it), then the
            # play as it is now: the deadline may have ended it meanwhile.
            _lock_tournament(conn, row.tournament_id)
            row = read_play(conn, play_id)
            assert row is not None
        if not row.ranked:
            raise ApiError(
                403, "forbidden", N_("only a ranked game is given up: a casual one just stays")
            )
        if row.ended_at is not None:
            raise ApiError(409, "game_over", N_("this ranked game is finished already"))
        game = replay_row(conn, row, now)[0]
        if n != game.state.history_length:
            raise ApiError(
                409,
                "conflict",
                N_("the play has moved on: it is at move {current}, not {n}; reload it"),
                params={"current": game.state.history_length, "n": n},
            )
        complete_play(conn, row, game, _given_up(game), now)
        if not mark_ended(conn, row, now):
            raise ApiError(409, "conflict", N_("another move was stored first: reload the play"))
        if row.daily is not None:
            result = daily.result_of(conn, row.id)
        else:
            result = conn.execute(select(results).where(results.c.play_id == row.id)).first()
    # A single ranked game's number is shown once it has ended; a tournament round's only
    # with its tournament's deals, once the tournament is over (every entrant has the deal),
    # and a daily deal's with its day's, once the day is over.
    answer = play_json(play_id, True, game, over=True, reveal=revealed(row, True), daily=row.daily)
    answer["result"] = result_json(result)
    return answer


# -- making and joining -------------------------------------------------------------------------


def _account(conn: Connection, client: Client) -> User:
    user = current_user(conn, client)
    if user is None or user.guest:
        raise ApiError(401, "unauthorized", N_("sign in to play tournaments"))
    return user


def _variant(game_id: str) -> str:
    if game_id not in VARIANTS:
        raise ApiError(
            404,
            "unknown_game",
            N_("tournaments are played in {games}, not {game!r}"),
            params={"games": ", ".join(VARIANTS), "game": game_id},
        )
    return game_id


def create_tournament(db: Database, client: Client, game_id: str, size: int) -> int:
    """A new open tournament of ``size`` entrants, the session's player its first; its id."""
    _variant(game_id)
    now = client.now()
    with db.write() as conn:
        user = _account(conn, client)
        _lock_player(conn, user.id)
        _not_too_many(conn, user.id)
        tid = conn.execute(
            insert(tournaments)
            .values(
                game_id=game_id,
                size=size,
                status="open",
                created_by=user.id,
                created_at=now,
                deadline_seconds=client.settings.tournament_deadline_seconds,
            )
            .returning(tournaments.c.id)
        ).scalar_one()
        conn.execute(
            insert(tournament_entries).values(
                tournament_id=tid, user_id=user.id, seat=1, joined_at=now
            )
        )
    return int(tid)


def _lock_player(conn: Connection, user_id: int) -> None:
    """Make the player's new tournaments and joins one at a time, until the transaction ends,
    so that two sent at once cannot both find fewer than :data:`MAX_OPEN` open ones and
    both be stored (SQLite's writer lock does this already; PostgreSQL's READ COMMITTED
    transactions would each count without the other). Taken before any tournament's row
    lock: every transaction that holds both took them in this order."""
    if conn.dialect.name == "postgresql":
        conn.execute(_LOCK_PLAYER_ENTRIES, {"user_id": user_id})


def _not_too_many(conn: Connection, user_id: int) -> None:
    """Refuse a player who waits in :data:`MAX_OPEN` open tournaments (under
    :func:`_lock_player`)."""
    waiting = conn.execute(
        select(func.count())
        .select_from(tournament_entries.join(tournaments))
        .where(tournament_entries.c.user_id == user_id, tournaments.c.status == "open")
    ).scalar_one()
    if waiting >= MAX_OPEN:
        raise ApiError(
            409,
            "conflict",
            N_("you are waiting in {count} open tournaments already: leave one to join another"),
            params={"count": MAX_OPEN},
        )


def _found(conn: Connection, tournament_id: int) -> Row[Any]:
    t = _lock_tournament(conn, tournament_id)
    if t is None:
        raise ApiError(404, "not_found", N_("there is no such tournament"))
    return t


def _entrant(conn: Connection, tournament_id: int, user_id: int) -> bool:
    return (
        conn.execute(
            select(tournament_entries.c.seat).where(
                tournament_entries.c.tournament_id == tournament_id,
                tournament_entries.c.user_id == user_id,
            )
        ).first()
        is not None
    )


def join_tournament(db: Database, client: Client, tournament_id: int) -> None:
    """Join an open tournament; the entrant who fills it starts it (the deals are drawn)."""
    now = client.now()
    try:
        with db.write() as conn:
            user = _account(conn, client)
            _lock_player(conn, user.id)
            t = _found(conn, tournament_id)
            if t.status != "open":
                raise ApiError(409, "conflict", N_("this tournament has started: join an open one"))
            if _entrant(conn, t.id, user.id):
                raise ApiError(409, "conflict", N_("you are in this tournament already"))
            _not_too_many(conn, user.id)
            seats = conn.execute(
                select(func.count(), func.max(tournament_entries.c.seat)).where(
                    tournament_entries.c.tournament_id == t.id
                )
            ).one()
            conn.execute(
                insert(tournament_entries).values(
                    tournament_id=t.id,
                    user_id=user.id,
                    seat=int(seats[1] or 0) + 1,
                    joined_at=now,
                )
            )
            if int(seats[0]) + 1 >= t.size:
                _start(conn, t, now)
    except IntegrityError:
        # Two players took the last seat at once (PostgreSQL): the other one has it.
        raise ApiError(
            409, "conflict", N_("this tournament has just filled up: join another")
        ) from None


def new_secret() -> str:
    """A new tournament's secret: SECRET_BYTES random bytes (256 bits) from :mod:`secrets`, as
    hexadecimal digits."""
    return secrets.token_hex(SECRET_BYTES)


def _start(conn: Connection, t: Row[Any], now: float) -> None:
    """Start the full tournament ``t`` (locked): its own secret, its deals, its deadline."""
    secret = new_secret()
    conn.execute(
        update(tournaments)
        .where(tournaments.c.id == t.id, tournaments.c.status == "open")
        .values(
            status="running",
            started_at=now,
            deadline=now + t.deadline_seconds,
            secret=secret,
            deals=" ".join(str(n) for n in tournament_deals(secret)),
        )
    )


def leave_tournament(db: Database, client: Client, tournament_id: int) -> bool:
    """Leave a tournament that has not started; True if that removed it (nobody was left)."""
    with db.write() as conn:
        user = _account(conn, client)
        t = _found(conn, tournament_id)
        if t.status != "open":
            raise ApiError(409, "conflict", N_("a tournament that has started cannot be left"))
        if not _entrant(conn, t.id, user.id):
            raise ApiError(409, "conflict", N_("you are not in this tournament"))
        conn.execute(
            delete(tournament_entries).where(
                tournament_entries.c.tournament_id == t.id,
                tournament_entries.c.user_id == user.id,
            )
        )
        left = conn.execute(
            select(func.count()).where(tournament_entries.c.tournament_id == t.id)
        ).scalar_one()
        if left == 0:
            conn.execute(delete(tournaments).where(tournaments.c.id == t.id))
            return True
    return False


# -- playing a round ----------------------------------------------------------------------------


def open_round(
    db: Database, client: Client, tournament_id: int, round_number: int
) -> tuple[dict[str, Any], bool]:
    """The session's play of a round: made now (True) or resumed (False).

    Refused before the start, after the end or the deadline, for a round whose
    previous round is not finished, and for a round already finished (one
    attempt per round).
    """
    now = client.now()
    if not 1 <= round_number <= ROUNDS:
        raise ApiError(
            404, "not_found", N_("a tournament has rounds 1 to {most}"), params={"most": ROUNDS}
        )
    if _due(db, tournament_id, now):
        close_tournament(db, tournament_id, now)
    with db.write() as conn:
        user = _account(conn, client)
        t = _found(conn, tournament_id)
        if not _entrant(conn, t.id, user.id):
            raise ApiError(403, "forbidden", N_("you are not in this tournament"))
        if t.status == "open":
            raise ApiError(
                409,
                "not_started",
                N_("the tournament has not started: its deals are drawn when it is full"),
            )
        if t.status == "finished":
            raise ApiError(409, "tournament_over", N_("the tournament is over"))
        mine = {
            r.round_id: r
            for r in conn.execute(
                select(plays.c.id, plays.c.round_id, plays.c.ended_at).where(
                    plays.c.tournament_id == t.id, plays.c.user_id == user.id
                )
            )
        }
        for earlier in range(1, round_number):
            if earlier not in mine or mine[earlier].ended_at is None:
                raise ApiError(
                    409,
                    "conflict",
                    N_("finish round {round} first: rounds are played in order"),
                    params={"round": earlier},
                )
        own = mine.get(round_number)
        if own is not None and own.ended_at is not None:
            raise ApiError(
                409,
                "conflict",
                N_("you have played round {round}: one attempt per round"),
                params={"round": round_number},
            )
        if own is None:
            number = int(t.deals.split()[round_number - 1])
            play_id = insert_play(
                conn,
                user_id=user.id,
                game_id=t.game_id,
                number=number,
                ranked=True,
                now=now,
                tournament_id=t.id,
                round_id=round_number,
            )
            game, _clock = rebuild(t.game_id, number, True, now, [])
            return _round_play(play_id, game), True
        row = read_play(conn, own.id)
        assert row is not None
        game = replay_row(conn, row, now)[0]
    return _round_play(row.id, game), False


def _round_play(play_id: str, game: Game) -> dict[str, Any]:
    """A round's play as its entrant sees it: the cards in view, never the deal's number
    (the tournament publishes its deals once it is over)."""
    return play_json(play_id, True, game, reveal=False)


def deal_in_play(conn: Connection, game_id: str, number: int) -> bool:
    """True if ``number`` is a deal of a running tournament of ``game_id``: the hook
    :mod:`patiencekit.server.play.service` asks before a casual play of a chosen number, so that
    nobody practises a running round (the deals become playable when the tournament ends)."""
    digits = str(number)
    candidates = conn.execute(
        select(tournaments.c.deals).where(
            tournaments.c.status == "running",
            tournaments.c.game_id == game_id,
            tournaments.c.deals.contains(digits),
        )
    ).scalars()
    return any(digits in (deals or "").split() for deals in candidates)


def _due(db: Database, tournament_id: int, now: float) -> bool:
    with db.read() as conn:
        t = conn.execute(
            select(tournaments.c.status, tournaments.c.deadline).where(
                tournaments.c.id == tournament_id
            )
        ).first()
    return t is not None and t.status == "running" and now >= t.deadline


# -- reading ------------------------------------------------------------------------------------


def _round_json(n: int, r: Any) -> dict[str, Any]:
    """An entrant's round: waiting (not opened), playing, finished, or expired (counts 0)."""
    if r is None or r.outcome is None:
        status = "waiting" if r is None else "playing"
        return {"round": n, "status": status, "score": None, "time": None}
    if r.outcome == "expired":
        return {"round": n, "status": "expired", "score": 0, "time": None}
    return {"round": n, "status": "finished", "score": r.score, "time": r.elapsed}


def tournament_exists(db: Database, tournament_id: int) -> bool:
    """Whether there is a tournament ``tournament_id`` (its page's question)."""
    with db.read() as conn:
        found = conn.execute(select(tournaments.c.id).where(tournaments.c.id == tournament_id))
        return found.first() is not None


def tournament_json(db: Database, client: Client, tournament_id: int) -> dict[str, Any]:
    """A tournament as anyone sees it: entrants, rounds played, scores; once it is over the
    places and the deals. The session's entrant also sees their own plays' ids."""
    now = client.now()
    if _due(db, tournament_id, now):
        close_tournament(db, tournament_id, now)
    with db.read() as conn:
        t = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
        if t is None:
            raise ApiError(404, "not_found", N_("there is no such tournament"))
        viewer = current_user(conn, client)
        entrants = conn.execute(
            select(tournament_entries, users.c.name)
            .join(users, users.c.id == tournament_entries.c.user_id)
            .where(tournament_entries.c.tournament_id == t.id)
            .order_by(tournament_entries.c.seat)
        ).all()
        rounds = conn.execute(
            select(
                plays.c.id,
                plays.c.user_id,
                plays.c.round_id,
                results.c.outcome,
                results.c.score,
                results.c.elapsed,
            )
            .outerjoin(results, results.c.play_id == plays.c.id)
            .where(plays.c.tournament_id == t.id)
        ).all()
    by_user: dict[int, dict[int, Any]] = {}
    for r in rounds:
        by_user.setdefault(r.user_id, {})[r.round_id] = r
    lines: list[dict[str, Any]] = []
    for e in entrants:
        mine = by_user.get(e.user_id, {})
        shown = [_round_json(n, mine.get(n)) for n in range(1, ROUNDS + 1)]
        ended = [s for s in shown if s["status"] in ("finished", "expired")]
        score = sum(int(s["score"]) for s in ended)
        seconds = round(sum(float(s["time"] or 0.0) for s in ended), 3)
        lines.append(
            {
                "name": e.name,
                "seat": e.seat,
                "rounds": shown,
                "rounds_played": len(ended),
                "score": e.score if e.score is not None else score,
                "time": e.time if e.time is not None else seconds,
                "place": e.place,
            }
        )
    if t.status == "finished":
        lines.sort(key=lambda x: (x["place"], x["seat"]))
    else:
        lines.sort(key=lambda x: (-x["score"], x["time"], x["seat"]))
    me = None
    if viewer is not None:
        entrant = any(e.user_id == viewer.id for e in entrants)
        own = by_user.get(viewer.id, {})
        next_round = None
        if entrant and t.status == "running":
            next_round = next(
                (n for n in range(1, ROUNDS + 1) if own.get(n) is None or own[n].outcome is None),
                None,
            )
        me = {
            "name": viewer.name,
            "entrant": entrant,
            "next_round": next_round,
            "plays": {str(n): r.id for n, r in sorted(own.items())},
        }
    # The deals only once it is over: until then every entrant may still be playing them.
    deals = t.deals.split() if t.status == "finished" else None
    return {
        **_summary(t, len(entrants)),
        "rounds": ROUNDS,
        "entrants": lines,
        "deals": [int(n) for n in deals] if deals is not None else None,
        # the digits too: a browser's JSON numbers keep 15 or 16 of a deal number's 20
        "deals_text": deals,
        "me": me,
        "now": now,
    }


def _summary(t: Row[Any], entrants: int) -> dict[str, Any]:
    return {
        "id": t.id,
        "game": t.game_id,
        "name": get_rules(t.game_id).name,
        "size": t.size,
        "entrants_count": entrants,
        "status": t.status,
        "created_at": t.created_at,
        "started_at": t.started_at,
        "deadline": t.deadline,
        "deadline_seconds": t.deadline_seconds,
        "finished_at": t.finished_at,
    }


def list_tournaments(
    db: Database, client: Client, game_id: str | None, status: str | None
) -> list[dict[str, Any]]:
    """The newest tournaments (open ones first when no status is asked), with entrant counts."""
    counts = (
        select(tournament_entries.c.tournament_id, func.count().label("n"))
        .group_by(tournament_entries.c.tournament_id)
        .subquery()
    )
    query = select(tournaments, counts.c.n).join(counts, counts.c.tournament_id == tournaments.c.id)
    if game_id is not None:
        query = query.where(tournaments.c.game_id == _variant(game_id))
    if status is not None:
        query = query.where(tournaments.c.status == status)
    opened_first = case(
        (tournaments.c.status == "open", 0), (tournaments.c.status == "running", 1), else_=2
    )
    query = query.order_by(
        opened_first, tournaments.c.created_at.desc(), tournaments.c.id.desc()
    ).limit(LIST_LIMIT)
    with db.read() as conn:
        rows = conn.execute(query).all()
        viewer = current_user(conn, client)
        joined: set[int] = set()
        if viewer is not None and rows:
            joined = set(
                conn.execute(
                    select(tournament_entries.c.tournament_id).where(
                        tournament_entries.c.user_id == viewer.id,
                        tournament_entries.c.tournament_id.in_([r.id for r in rows]),
                    )
                ).scalars()
            )
    return [{**_summary(r, int(r.n)), "joined": r.id in joined} for r in rows]


def tournaments_of(conn: Connection, user_id: int) -> list[dict[str, Any]]:
    """A player's tournaments, newest first, with their places once over."""
    rows = conn.execute(
        select(tournaments, tournament_entries.c.place, tournament_entries.c.score.label("mine"))
        .join(tournament_entries, tournament_entries.c.tournament_id == tournaments.c.id)
        .where(tournament_entries.c.user_id == user_id)
        .order_by(tournament_entries.c.joined_at.desc())
        .limit(LIST_LIMIT)
    ).all()
    return [
        {
            "id": r.id,
            "game": r.game_id,
            "name": get_rules(r.game_id).name,
            "size": r.size,
            "status": r.status,
            "started_at": r.started_at,
            "finished_at": r.finished_at,
            "place": r.place,
            "score": r.mine,
        }
        for r in rows
    ]


def replay(
    db: Database, tournament_id: int, name: str, round_number: int, step: int | None
) -> dict[str, Any]:
    """An entrant's round once the tournament is over: the game record, or the view at a step.

    The record is the engine's (``{"game", "number", "moves"}``, replayable by
    ``patiencekit replay``), with the player, the tournament and the round, the result and
    each move's time in seconds from the deal (``times``): :func:`.replays.replay_answer`.
    """
    with db.read() as conn:
        t = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
        if t is None:
            raise ApiError(404, "not_found", N_("there is no such tournament"))
        if t.status != "finished":
            raise ApiError(
                403, "forbidden", N_("the replays are published once the tournament is over")
            )
        play = published_play(
            conn,
            name,
            results,
            plays.c.tournament_id == t.id,
            plays.c.round_id == round_number,
            missing=(
                N_("{name} did not play round {round}"),
                {"name": name, "round": round_number},
            ),
        )
    return replay_answer(play, {"tournament": t.id, "round": round_number}, step)
