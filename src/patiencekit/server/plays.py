"""Playing: deals, moves, undo/redo/restart, all checked by the engine on the server.

A play is stored as its deal (game id and number) plus the append-only log of
accepted events (move, undo, redo, restart), each with the server's time.
Every request rebuilds the game by replaying the log with the clock set to
each event's time, so the elapsed time and Klondike's time bonus are the
server's, and any process serving the database can answer. A process keeps the
games it rebuilt, each valid at the ``seq`` it was kept at; a move on a kept
game is stored with one conditional write that also checks, in the database,
that the play has not moved on and belongs to the asking session's user (see
:func:`_fast_prepare`).

The client is sent only :meth:`Game.view` data: hidden cards are ``null``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import psycopg
from fastapi import APIRouter, Body, Response
from pydantic import BaseModel, ConfigDict, Field
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
from sqlalchemy.exc import IntegrityError

from patiencekit import winnable_number
from patiencekit.cards import card_text, parse_card_index
from patiencekit.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    UnknownGameError,
)
from patiencekit.game import Game, new_game
from patiencekit.games import GAMES, get_rules
from patiencekit.games.winnable_numbers import WINNABLE
from patiencekit.server import hints
from patiencekit.server.accounts import user_for_write
from patiencekit.server.db import (
    BUSY,
    Database,
    VersionedCache,
    play_events,
    plays,
    sessions,
)
from patiencekit.server.deps import (
    Client,
    ClientDep,
    DbDep,
    json_response,
    set_session_cookie,
)
from patiencekit.server.errors import ApiError
from patiencekit.server.security import hash_token

#: how long the solver may think about a hint
HINT_SECONDS = 1.0

__all__ = [
    "MAX_NUMBER",
    "RANKED_FIRST",
    "RANKED_IDLE_SECONDS",
    "RANKED_NUMBERS",
    "create_play",
    "deal_in_play_hooks",
    "draw_ranked_number",
    "end_idle_ranked",
    "get_play",
    "mark_ended",
    "play_action",
    "play_status",
    "ranked_end_hooks",
    "ranked_give_up_hooks",
    "rebuild",
    "replay_row",
    "router",
]

#: deal numbers run from 0 to 10**20 - 1
MAX_NUMBER = 10**20 - 1
#: a random casual deal is drawn from 1..RANDOM_NUMBERS
RANDOM_NUMBERS = 10**9 - 1
#: a ranked deal is drawn uniformly from RANKED_FIRST .. RANKED_FIRST + RANKED_NUMBERS - 1
#: (RULES.md, "Fair competition": at least 2**64 numbers, so that its face-up cards cannot be
#: looked up among precomputed deals); all of them are 20-digit numbers
RANKED_FIRST = 10**19
RANKED_NUMBERS = 2**64
#: a ranked single game with no move for this long ends as given up (and counts)
RANKED_IDLE_SECONDS = 24 * 3600
PLAY_ID = re.compile(r"[0-9a-f]{32}")

#: Called in the transaction that stores the move ending a ranked play (a win, or no move
#: left), before the play row moves on: ``hook(conn, play row as read, game, now)``. The
#: competition (patiencekit.server.competition) records the play's result there; if the
#: move is not stored after all, the transaction and so the result are rolled back.
RankedEndHook = Callable[[Connection, Row[Any], Game, float], None]
ranked_end_hooks: list[RankedEndHook] = []
#: Called in the transaction that ends a ranked play without a last move, as given up (the
#: player started another ranked game of the variant, or made no move for
#: :data:`RANKED_IDLE_SECONDS`), once the play row is marked ended; same arguments.
ranked_give_up_hooks: list[RankedEndHook] = []
#: Asked before a casual play of a chosen number is dealt: ``hook(conn, game id, number)`` is
#: True when that deal is in ranked play elsewhere (the competition: a running
#: tournament's deals), so that casual play cannot reach it.
deal_in_play_hooks: list[Callable[[Connection, str, int], bool]] = []


class _Clock:
    """A clock that says what it is told: the time of the event being replayed."""

    __slots__ = ("now",)

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass(slots=True)
class _Loaded:
    row: Row[Any]
    game: Game
    clock: _Clock


@dataclass(slots=True)
class _Memo:
    """What this process keeps of a play between its requests (in ``db.memo``, at the
    play's ``seq``): the rebuilt game and what the next move needs of the play row.

    Of the row's fields, only the owner (``user_id``) and ``ended_at`` change without
    ``seq`` moving on, and the fast path's write checks both in the database.
    """

    game: Game
    clock: _Clock
    ranked: bool
    status: str
    won: bool
    updated_at: float
    ended: bool

    @classmethod
    def of(cls, loaded: _Loaded) -> _Memo:
        row = loaded.row
        return cls(
            loaded.game,
            loaded.clock,
            row.ranked,
            row.status,
            row.won_at is not None,
            row.updated_at,
            row.ended_at is not None,
        )


def _apply(game: Game, kind: str, move: str | None) -> None:
    if kind == "move":
        if move is None:
            raise ValueError("a move event without its move")
        game.play(move)
    elif kind == "undo":
        game.undo()
    elif kind == "redo":
        game.redo()
    elif kind == "restart":
        game.restart()
    else:
        raise ValueError(f"unknown event kind {kind!r}")


def rebuild(
    game_id: str,
    number: int,
    ranked: bool,
    created_at: float,
    events: Sequence[tuple[str, str | None, float]],
) -> tuple[Game, _Clock]:
    """The game after replaying ``events`` (kind, move, time), with the server's times.

    The deal starts at ``created_at``; a winning move stops the clock at its own time.

    >>> g, clock = rebuild("klondike", 24, False, 100.0, [("move", "s", 103.5)])
    >>> clock.now = 110.0
    >>> g.moves, g.elapsed
    ([Move.parse('s')], 10.0)
    """
    clock = _Clock(created_at)
    game = new_game(game_id, number, clock=clock, undo=not ranked)
    for kind, move, at in events:
        clock.now = at
        _apply(game, kind, move)
    return game, clock


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


def _load(
    conn: Connection, cache: VersionedCache[Any], play_id: str, client: Client, now: float
) -> _Loaded:
    """The play's row and its game now, for its owner; the game is the caller's until it is
    put back in the cache."""
    if not PLAY_ID.fullmatch(play_id):
        raise ApiError(404, "not_found", "no play has this id")
    token_hash = hash_token(client.token) if client.token else ""
    row = conn.execute(
        _PLAY_AND_SESSION, {"token_hash": token_hash, "now": now, "play_id": play_id}
    ).first()
    if row is None:
        raise ApiError(404, "not_found", "no play has this id")
    if row.session_user is None or row.session_user != row.user_id:
        raise ApiError(403, "forbidden", "this play belongs to another player")
    # Replaying is needed only when this process has not the game at this seq already.
    cached: _Memo | None = cache.take(play_id, row.seq)
    if cached is not None:
        game, clock = cached.game, cached.clock
        # The wall clock may step back; the play's clock does not.
        clock.now = max(now, clock.now, row.updated_at)
    else:
        game, clock = replay_row(conn, row, now)
    return _Loaded(row, game, clock)


def play_json(
    play_id: str, ranked: bool, game: Game, over: bool | None = None, reveal: bool = False
) -> dict[str, Any]:
    """A play as the API sends it: only what the player may see.

    ``over`` is ``game.is_over()`` when the caller knows it already. A ranked play's
    deal number is ``null`` unless ``reveal`` (its play has ended: RULES.md, "Fair
    competition"); ``number_text`` is the number's digits (JSON numbers above 2**53 lose
    theirs in a browser).
    """
    view = game.view().to_json()
    won = game.is_won()
    if over is None:
        over = game.is_over()
    last = game.last_move
    scored = game.rules.scored
    shown = not ranked or reveal
    return {
        "id": play_id,
        "game": game.id,
        "name": game.rules.name,
        "number": game.number if shown else None,
        "number_text": str(game.number) if shown else None,
        "ranked": ranked,
        "n": game.state.history_length,
        "piles": view["piles"],
        "legal_moves": [] if over else game.legal_moves.texts(),
        "score": game.score,
        "time_bonus": game.time_bonus if scored else None,
        "elapsed": round(game.elapsed, 3),
        "won": won,
        "over": over,
        "can_undo": game.can_undo,
        "can_redo": game.can_redo,
        "redeals_left": view["redeals_left"],
        "last": None if last is None else str(last),
    }


def _revealed(row: Row[Any], ended: bool) -> bool:
    """Whether a play's number may be sent: a casual play's always, a ranked single game's
    once it has ended; a tournament round's never here (its tournament shows its deals once
    the tournament is over)."""
    return not row.ranked or (ended and row.tournament_id is None)


# -- service ---------------------------------------------------------------------


def create_play(
    db: Database,
    client: Client,
    game_id: str,
    number: int | None,
    ranked: bool,
    winnable: bool = False,
    give_up: bool = False,
) -> tuple[dict[str, Any], str | None]:
    """Deal a new play for the request's player (a guest if need be).

    A ranked deal is the server's: drawn with fresh randomness from
    :data:`RANKED_NUMBERS` numbers, never chosen (400 ``ranked_deal``). A player has at
    most one open ranked single game per variant: while one is open, a new one is
    refused (409 ``ranked_open``, naming it) unless ``give_up``, which ends the open one
    first, as given up (it counts). A casual play of a chosen number that is in ranked
    play (an open ranked game, a running tournament's deal) is refused (409
    ``deal_in_play``).

    Returns the play and the new guest's session token, if one was made.
    """
    try:
        rules = get_rules(game_id)
    except UnknownGameError:
        raise ApiError(404, "unknown_game", f"there is no game {game_id!r}") from None
    chosen = number is not None
    if ranked and (chosen or winnable):
        raise ApiError(
            400,
            "ranked_deal",
            "a ranked deal is drawn by the server: it cannot be chosen (send no number)",
        )
    if ranked:
        number = draw_ranked_number()
    elif number is None and winnable:
        try:
            number = winnable_number(rules.id)
        except TimeoutError:
            raise ApiError(
                503, "unavailable", f"no winnable deal of {rules.name} could be found just now"
            ) from None
    elif number is None:
        number = secrets.randbelow(RANDOM_NUMBERS) + 1
    elif not 0 <= number <= MAX_NUMBER:
        raise ApiError(400, "bad_number", f"a deal number runs from 0 to {MAX_NUMBER}")
    now = client.now()
    play_id = secrets.token_hex(16)
    with db.write() as conn:
        user, token = user_for_write(conn, client)
        if ranked and user.guest:
            raise ApiError(401, "unauthorized", "sign in to play ranked games")
        if chosen and _in_ranked_play(conn, rules.id, number):
            raise ApiError(
                409,
                "deal_in_play",
                "this deal is being played in a ranked game: try it once that has ended",
            )
        if ranked:
            if not db.is_sqlite:
                # A player's ranked plays are made one at a time, so two sent at once
                # cannot both find no open one (SQLite's writer lock does this already;
                # PostgreSQL reads committed data only).
                conn.execute(_LOCK_PLAYER_DEALS, {"user_id": user.id})
            for open_play in _open_ranked(conn, user.id, rules.id):
                if not give_up:
                    raise ApiError(
                        409,
                        "ranked_open",
                        f"your ranked game of {rules.name} is still open (/p/{open_play.id}): "
                        "finish it, or start a new one to give it up (it counts with its "
                        "score)",
                    )
                if not _give_up(conn, open_play, now):
                    raise _stored_first()
                db.memo.take_any(open_play.id)
        conn.execute(
            insert(plays).values(
                id=play_id,
                user_id=user.id,
                game_id=rules.id,
                number=str(number),
                ranked=ranked,
                created_at=now,
                updated_at=now,
                seq=0,
                moves=0,
                status="playing",
            )
        )
    game, clock = rebuild(rules.id, number, ranked, now, [])
    answer = play_json(play_id, ranked, game)
    db.memo.put(play_id, 0, _Memo(game, clock, ranked, "playing", False, now, False))
    return answer, token


def draw_ranked_number() -> int:
    """A ranked deal's number: uniform over :data:`RANKED_NUMBERS` numbers from
    :data:`RANKED_FIRST`, from the operating system's randomness (``secrets``).

    >>> RANKED_FIRST <= draw_ranked_number() < RANKED_FIRST + RANKED_NUMBERS
    True
    """
    return RANKED_FIRST + secrets.randbelow(RANKED_NUMBERS)


#: a transaction lock on the player's new ranked plays (PostgreSQL advisory lock: class
#: 1885, the user id)
_LOCK_PLAYER_DEALS = text("SELECT pg_advisory_xact_lock(1885, :user_id)")


def _open_ranked(conn: Connection, user_id: int, game_id: str) -> Sequence[Row[Any]]:
    """The player's open ranked single games of a variant (at most one, but all are ended
    if ever there were more)."""
    return conn.execute(
        select(plays).where(
            plays.c.user_id == user_id,
            plays.c.game_id == game_id,
            plays.c.ranked.is_(True),
            plays.c.tournament_id.is_(None),
            plays.c.ended_at.is_(None),
        )
    ).all()


def _in_ranked_play(conn: Connection, game_id: str, number: int) -> bool:
    """True if the deal is in ranked play now: an open ranked play of it, or (the hooks) a
    running tournament's deal."""
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
    return open_play is not None or any(hook(conn, game_id, number) for hook in deal_in_play_hooks)


def replay_row(conn: Connection, row: Row[Any], now: float) -> tuple[Game, _Clock]:
    """The play ``row`` as its stored events replay (the events up to the row's ``seq``:
    later ones, committed since under READ COMMITTED, belong to another request's answer),
    and its clock, at ``now`` or later if the play is (the wall clock may step back; the
    play's clock does not)."""
    events = conn.execute(
        select(play_events.c.kind, play_events.c.move, play_events.c.at)
        .where(play_events.c.play_id == row.id, play_events.c.seq <= row.seq)
        .order_by(play_events.c.seq)
    ).all()
    if len(events) != row.seq:
        raise RuntimeError(f"play {row.id}: {len(events)} events stored, seq is {row.seq}")
    game, clock = rebuild(
        row.game_id,
        int(row.number),
        row.ranked,
        row.created_at,
        [(e.kind, e.move, e.at) for e in events],
    )
    clock.now = max(now, clock.now, row.updated_at)
    return game, clock


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


def _give_up(conn: Connection, row: Row[Any], now: float) -> bool:
    """End the open ranked play ``row`` as given up, in the caller's write transaction: the
    row is marked ended, then the :data:`ranked_give_up_hooks` record its result (its
    running score, no time bonus). False, and nothing done, if the play was not where it
    was read (it moved on or ended meanwhile)."""
    if not mark_ended(conn, row, now):
        return False
    game, _ = replay_row(conn, row, now)
    for hook in ranked_give_up_hooks:
        hook(conn, row, game, now)
    return True


def end_idle_ranked(db: Database, now: float) -> int:
    """End, as given up, every ranked single game with no move for
    :data:`RANKED_IDLE_SECONDS` (RULES.md, "Fair competition"; tournament rounds end at
    their tournament's deadline instead); returns how many. Each play ends in its own
    transaction, and only if it is still idle then, so several processes may run this."""
    with db.read() as conn:
        idle = conn.execute(
            select(plays.c.id).where(
                plays.c.ranked.is_(True),
                plays.c.tournament_id.is_(None),
                plays.c.ended_at.is_(None),
                plays.c.updated_at <= now - RANKED_IDLE_SECONDS,
            )
        ).all()
    ended = 0
    for (play_id,) in idle:
        with db.write() as conn:
            row = conn.execute(
                select(plays).where(
                    plays.c.id == play_id,
                    plays.c.ended_at.is_(None),
                    plays.c.updated_at <= now - RANKED_IDLE_SECONDS,
                )
            ).first()
            if row is None or not _give_up(conn, row, now):
                continue
        db.memo.take_any(play_id)
        ended += 1
    return ended


def get_play(db: Database, client: Client, play_id: str) -> dict[str, Any]:
    """The play, for its owner."""
    cache = db.memo
    with db.read() as conn:
        loaded = _load(conn, cache, play_id, client, client.now())
    row = loaded.row
    ended = row.ended_at is not None
    result = play_json(
        play_id, row.ranked, loaded.game, True if ended else None, _revealed(row, ended)
    )
    cache.put(play_id, loaded.row.seq, _Memo.of(loaded))
    return result


def play_hint(db: Database, client: Client, play_id: str) -> dict[str, Any]:
    """A hint for the owner's casual play: the solver's move, from what the player sees.

    Worked out by the hint workers, within the player's hint limit (``server.hints``).
    """
    now = client.now()
    with db.read() as conn:
        loaded = _load(conn, db.memo, play_id, client, now)
    if loaded.row.ranked:
        raise ApiError(403, "forbidden", "no hints in a ranked game")
    game = loaded.game
    n, record, ended = game.state.history_length, game.record(), loaded.row.ended_at is not None
    db.memo.put(play_id, loaded.row.seq, _Memo.of(loaded))  # the game is no longer ours
    if ended:
        return {"hint": None, "n": n}
    user_id = loaded.row.user_id
    move = hints.hint(db, client.settings, user_id, record, now, seconds=HINT_SECONDS)
    return {"hint": move, "n": n}


def _foundation_move(game: Game, pile: str | None, card: str | None) -> str:
    """The move a double-click makes: the card (or the pile's top card) to its foundation."""
    if pile is not None:
        label = pile.strip().lower()
        if label not in game.tables.by_label:
            raise ApiError(400, "illegal_move", f"this game has no pile {pile!r}")
        labels = [label]
        what = f"the top card of {label}"
    else:
        assert card is not None
        try:
            text = card_text(parse_card_index(card))
        except InvalidCardError as e:
            raise ApiError(400, "bad_request", str(e)) from None
        # Only cards the player can see on top of a pile: never a face-down card.
        labels = [p.label for p in game.view().piles if p.cards and str(p.cards[-1]) == text]
        what = text
    for label in labels:
        move = game.foundation_move(label)
        if move is not None:
            return str(move)
    raise ApiError(400, "illegal_move", f"no foundation takes {what} now")


def play_action(
    db: Database,
    client: Client,
    play_id: str,
    n: int,
    kind: str,
    move: str | None = None,
    pile: str | None = None,
    card: str | None = None,
    fast: bool = True,
) -> dict[str, Any]:
    """Apply one action (``move``, ``foundation``, ``undo``, ``redo``, ``restart``) for the owner.

    ``n`` is the number of moves the client has seen; a stale ``n`` is a
    conflict. The event is committed before this returns; a refused action
    stores nothing.

    Concurrency is optimistic: the play is read and the action checked without
    holding a lock; the write then stores the event only if no other event was
    stored meanwhile (``UPDATE plays ... WHERE seq = <the seq read>``, and the
    primary key on ``(play_id, seq)``). Of two submissions of the same move
    number, one is stored and the other gets 409 ``conflict``.

    When this process answered the play's last request, the action is first tried
    on the game it kept (:func:`_fast_prepare`), unless ``fast`` is false (the caller
    tried already): one write, no read.
    """
    now = client.now()
    prepared = _fast_prepare(db, client, play_id, n, kind, move, pile, card, now) if fast else None
    if prepared is not None:
        answer = _fast_done(db, prepared, _fast_write(db, prepared))
        if answer is not None:
            return answer
    cache = db.memo
    with db.read() as conn:
        loaded = _load(conn, cache, play_id, client, now)
    row, game = loaded.row, loaded.game
    memo = _Memo.of(loaded)
    try:
        stored = _act(game, row.ranked, row.ended_at is not None, n, kind, move, pile, card)
    except (ApiError, _Unchanged) as e:
        # Refused (or nothing to do): the engine left the game as it was.
        cache.put(play_id, row.seq, memo)
        if isinstance(e, _Unchanged):
            return play_json(play_id, row.ranked, game, None, _revealed(row, memo.ended))
        raise
    over = game.is_over()
    ends = row.ranked and over
    try:
        memo.status = _store(db, row, game, _event_kind(kind), stored, now, over, ends=ends)
    except IntegrityError:
        raise _stored_first() from None
    memo.won = memo.won or game.is_won()
    memo.updated_at, memo.ended = now, ends
    cache.put(play_id, row.seq + 1, memo)
    return play_json(play_id, row.ranked, game, over, _revealed(row, memo.ended))


@dataclass(slots=True)
class _FastMove:
    """An action applied to a kept game, to be stored by :func:`_fast_write`."""

    play_id: str
    seq: int
    memo: _Memo
    params: dict[str, Any]
    status: str
    over: bool


def _fast_prepare(
    db: Database,
    client: Client,
    play_id: str,
    n: int,
    kind: str,
    move: str | None,
    pile: str | None,
    card: str | None,
    now: float,
) -> _FastMove | None:
    """The action applied to the game this process kept, ready to be stored with one
    write and no read; None when it must take the full path (:func:`play_action`).

    The kept game is the play at the ``seq`` it was kept at, if nothing was stored since.
    The write says so: it advances the play only ``WHERE seq = <kept seq> AND ended_at
    IS NULL AND user_id = <the user of the request's live session>``, the same checks
    the full path makes on a fresh read (see :class:`_Memo`). So a move stored this way
    is one the full path would accept, with the same answer.

    Nothing is refused here: a refusal must come after the full path has checked who is
    asking, so any action that would be refused, any write that matches nothing (another
    process moved the play on, the session ended, the play is not the asker's), and the
    rare last move of a play (a first win, a ranked play's end: its hooks need the row)
    go to the full path. A refused action leaves the kept game as it was; a game that
    went on but was not stored is dropped, and the full path replays the log.
    """
    if client.token is None:
        return None
    taken: tuple[int, _Memo] | None = db.memo.take_any(play_id)
    if taken is None:
        return None
    seq, memo = taken
    game = memo.game
    memo.clock.now = max(now, memo.clock.now, memo.updated_at)
    try:
        stored = _act(game, memo.ranked, memo.ended, n, kind, move, pile, card)
    except (ApiError, _Unchanged):
        db.memo.put(play_id, seq, memo)
        return None
    over = game.is_over()
    if (game.is_won() and not memo.won) or (memo.ranked and over):
        return None
    status = play_status(memo.status == "won", over)
    params = _advance_params(play_id, seq, game, _event_kind(kind), stored, now, status)
    params["s_token_hash"], params["s_now"] = hash_token(client.token), now
    return _FastMove(play_id, seq, memo, params, status, over)


def _fast_write(db: Database, fast: _FastMove) -> bool:
    """Store a prepared action (on the calling thread); False if the write matched nothing."""
    try:
        return _advance(db, fast.params, owner_checked=True)
    except IntegrityError:
        return False


def _fast_done(db: Database, fast: _FastMove, stored: bool) -> dict[str, Any] | None:
    """The answer to a stored prepared action, the game kept again; None if not stored."""
    if not stored:
        return None
    fast.memo.status, fast.memo.updated_at = fast.status, fast.params["v_updated_at"]
    db.memo.put(fast.play_id, fast.seq + 1, fast.memo)
    return play_json(fast.play_id, fast.memo.ranked, fast.memo.game, fast.over)


async def act(
    db: Database,
    client: Client,
    play_id: str,
    n: int,
    kind: str,
    move: str | None = None,
    pile: str | None = None,
    card: str | None = None,
) -> dict[str, Any]:
    """:func:`play_action` for the ``async`` routes.

    On SQLite (``db.inline``) all of it runs on the event loop (unless the write lock is
    taken: see :meth:`~patiencekit.server.db.Database.run`). On PostgreSQL a move on a
    kept game is prepared on the loop and its one statement sent on the loop's own
    connections (:class:`~patiencekit.server.db.LoopStatements`); everything else, and
    everything when those connections are busy, runs in the database threads.
    """
    loop = db.loop_statements
    if loop is not None:
        fast = _fast_prepare(db, client, play_id, n, kind, move, pile, card, client.now())
        if fast is not None:
            try:
                row = await loop.fetch_one(_OWNED_ADVANCE_AND_INSERT_SQL, fast.params)
            except psycopg.Error:
                # Not stored: another request stored this event first (a unique key), or
                # the connection failed; the full path reads what the database has.
                row = None
            if row is BUSY:
                stored = await db.run(_fast_write, db, fast)
            else:
                stored = row is not None
            answer = _fast_done(db, fast, stored)
            if answer is not None:
                return answer
    # (with the loop's connections, the fast path was tried above)
    return await db.run(
        play_action, db, client, play_id, n, kind, move, pile, card, fast=loop is None
    )


class _Unchanged(Exception):
    """The action has nothing to do (a restart at the deal)."""


def _act(
    game: Game,
    ranked: bool,
    ended: bool,
    n: int,
    kind: str,
    move: str | None,
    pile: str | None,
    card: str | None,
) -> str | None:
    """Check and apply the action to ``game``; the move as played (None for the others)."""
    if kind in ("undo", "redo", "restart") and ranked:
        raise ApiError(403, "forbidden", f"a ranked game has no {kind}")
    current = game.state.history_length
    if n != current:
        raise ApiError(
            409, "conflict", f"the play has moved on: it is at move {current}, not {n}; reload it"
        )
    if kind in ("move", "foundation") and ended and not game.is_won():
        raise ApiError(409, "game_over", "this ranked game is finished: no more moves")
    if kind in ("move", "foundation") and game.is_over():
        if game.is_won():
            raise ApiError(409, "game_over", "the game is won: no more moves")
        raise ApiError(409, "game_over", "no move is left: the game is over")
    try:
        if kind == "foundation":
            return str(game.play(_foundation_move(game, pile, card)))
        if kind == "move":
            assert move is not None
            return str(game.play(move))
        if kind == "undo":
            game.undo()
        elif kind == "redo":
            game.redo()
        elif kind == "restart":
            if not game.can_undo:
                raise _Unchanged
            game.restart()
        else:
            raise ValueError(f"unknown action {kind!r}")
    except InvalidMoveError as e:
        raise ApiError(400, "bad_request", str(e)) from None
    except IllegalMoveError as e:
        # The engine's reasons name no card the player cannot see (Game.refusal).
        raise ApiError(400, "illegal_move", f"{e.move}: {e.reason}") from None
    return None


def play_status(won: bool, over: bool) -> str:
    """A play's status: ``won`` once it has been won (an undo does not take that back),
    else ``over`` when no move is left, else ``playing``."""
    return "won" if won else "over" if over else "playing"


def _event_kind(action: str) -> str:
    """The event an accepted action is stored as (a double-click is a move)."""
    return "move" if action == "foundation" else action


def _stored_first() -> ApiError:
    return ApiError(409, "conflict", "another move was stored first: reload the play")


def _advance_params(
    play_id: str, seq: int, game: Game, kind: str, move: str | None, now: float, status: str
) -> dict[str, Any]:
    """The parameters of :data:`_ADVANCE` and :data:`_INSERT_EVENT` for the play at ``seq``."""
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


def _advance(db: Database, params: dict[str, Any], owner_checked: bool = False) -> bool:
    """Store the common event (not a play's last move): True if stored, False if the play
    was not where it was read (or, ``owner_checked``, not the live session's user's).

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


def _store(
    db: Database,
    row: Row[Any],
    game: Game,
    kind: str,
    move: str | None,
    now: float,
    over: bool,
    ends: bool = False,
) -> str:
    """Append the event, if the play still is where it was read (else 409 ``conflict``);
    the play's new status.

    The play row's ``seq`` moves on and the event is inserted in one transaction
    (:func:`_advance` for every move but the last).

    A move that ``ends`` a ranked play also marks it ended and runs the
    :data:`ranked_end_hooks` in the same transaction (before the play row is
    updated), so that its result is stored with it or not at all. No event is
    stored on an ended play.
    """
    seq = row.seq + 1
    won_now = game.is_won() and row.won_at is None
    status = play_status(won_now or row.status == "won", over)
    if not won_now and not ends:
        if not _advance(db, _advance_params(row.id, row.seq, game, kind, move, now, status)):
            raise _stored_first()
        return status
    event = {"play_id": row.id, "seq": seq, "kind": kind, "move": move, "at": now}
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
    advance = (
        update(plays)
        .where(plays.c.id == row.id, plays.c.seq == row.seq, plays.c.ended_at.is_(None))
        .values(**values)
    )
    # The last moves (a first win, the end of a ranked play) are rare: one write
    # transaction on either database, with the hooks.
    with db.write() as conn:
        for hook in ranked_end_hooks if ends else ():
            hook(conn, row, game, now)
        if conn.execute(advance).rowcount != 1:
            raise _stored_first()
        conn.execute(insert(play_events).values(**event))
    return status


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
_OWNED_ADVANCE_AND_INSERT_SQL = str(
    _OWNED_ADVANCE_AND_INSERT.compile(dialect=PGDialect_psycopg())  # type: ignore[no-untyped-call]
)


# -- routes ----------------------------------------------------------------------


class NewPlay(BaseModel):
    """The body of ``POST /api/games/{game_id}/play``."""

    model_config = ConfigDict(strict=True)

    number: int | None = None
    ranked: bool = False
    #: deal a game the solver has proved winnable (with no number)
    winnable: bool = False
    #: (ranked) end the player's open ranked game of this variant first, as given up
    give_up: bool = False


class _Seen(BaseModel):
    model_config = ConfigDict(strict=True)

    #: moves the client has seen (the play's ``n``)
    n: int = Field(ge=0)


class MoveBody(_Seen):
    """The body of ``POST /api/plays/{id}/moves``."""

    move: str = Field(min_length=1, max_length=64)


class FoundationBody(_Seen):
    """The body of ``POST /api/plays/{id}/foundation``: a pile label or a card."""

    pile: str | None = Field(default=None, min_length=1, max_length=8)
    card: str | None = Field(default=None, min_length=1, max_length=8)


router = APIRouter()


@router.get("/games")
def list_games() -> Any:
    """Every game, in the registry's order, with how many of its deals the solver has
    proved winnable (those "winnable deals only" draws from)."""
    return [
        {
            "id": r.id,
            "name": r.name,
            "decks": r.decks,
            "rules_text": r.rules_text,
            "winnable_deals": len(WINNABLE.get(r.id, ())),
        }
        for r in GAMES.values()
    ]


@router.post("/games/{game_id}/play", status_code=201)
def post_play(
    game_id: str,
    db: DbDep,
    client: ClientDep,
    body: Annotated[NewPlay | None, Body()] = None,
) -> Response:
    """Deal a new play (a random number when ``number`` is null; always, for a ranked
    play, and ``give_up`` ends the player's open ranked game of the variant first)."""
    body = body or NewPlay()
    play, token = create_play(
        db, client, game_id, body.number, body.ranked, body.winnable, body.give_up
    )
    response = json_response(play, 201)
    if token is not None:
        set_session_cookie(response, token, client)
    return response


@router.post("/plays/{play_id}/hint")
def post_hint(play_id: str, db: DbDep, client: ClientDep) -> Response:
    """A hint (casual plays only): ``{"hint": "c3 f1" or null, "n": moves}``. The solver
    sees only what the player sees, so a hint reveals no hidden card."""
    return json_response(play_hint(db, client, play_id))


# The routes of playing are ``async``: their database work goes through ``db.run`` (on the
# event loop with SQLite, in the thread pool with PostgreSQL; see Database.run).


@router.get("/plays/{play_id}")
async def read_play(play_id: str, db: DbDep, client: ClientDep) -> Response:
    """The play as its owner sees it."""
    return json_response(await db.run(get_play, db, client, play_id))


@router.post("/plays/{play_id}/moves")
async def post_move(play_id: str, body: MoveBody, db: DbDep, client: ClientDep) -> Response:
    """Play a move in the notation (``c3 f``, ``w c5``, ``c1 c4 3``, ``s``, ``t``)."""
    return json_response(await act(db, client, play_id, body.n, "move", move=body.move))


@router.post("/plays/{play_id}/foundation")
async def post_foundation(
    play_id: str, body: FoundationBody, db: DbDep, client: ClientDep
) -> Response:
    """Send a card (or a pile's top card) to the foundation that takes it."""
    if (body.pile is None) == (body.card is None):
        raise ApiError(422, "bad_request", "send either pile or card")
    return json_response(
        await act(db, client, play_id, body.n, "foundation", pile=body.pile, card=body.card)
    )


@router.post("/plays/{play_id}/undo")
async def post_undo(play_id: str, body: _Seen, db: DbDep, client: ClientDep) -> Response:
    """Take back the last move (casual games)."""
    return json_response(await act(db, client, play_id, body.n, "undo"))


@router.post("/plays/{play_id}/redo")
async def post_redo(play_id: str, body: _Seen, db: DbDep, client: ClientDep) -> Response:
    """Play again the last move taken back (casual games)."""
    return json_response(await act(db, client, play_id, body.n, "redo"))


@router.post("/plays/{play_id}/restart")
async def post_restart(play_id: str, body: _Seen, db: DbDep, client: ClientDep) -> Response:
    """The same deal from the start (casual games); the moves can be redone."""
    return json_response(await act(db, client, play_id, body.n, "restart"))
