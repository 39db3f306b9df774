"""Playing: deals, actions (moves, undo, redo, restart), hints, auto-complete and the end
of ranked plays, all checked by the engine on the server.

Every request reads the play row and checks who is asking, then takes the game this
process kept at that row's ``seq`` (``fastpath``) or rebuilds it from the stored events
(``replay``); an accepted action is appended to the log (``storage``) before the answer
goes. A move on a kept game is first tried without the read (``fastpath``). The client
is sent only :meth:`Game.view` data: hidden cards are ``null``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Row
from sqlalchemy.exc import IntegrityError

from patiencekit.game import Game
from patiencekit.i18n import N_
from patiencekit.server import hints
from patiencekit.server.accounts import user_for_write
from patiencekit.server.db import Database
from patiencekit.server.deps import Client
from patiencekit.server.errors import ApiError, game_rules
from patiencekit.server.play import fastpath, storage
from patiencekit.server.play.actions import (
    Action,
    Unchanged,
    apply_action,
    check_action,
    stored_first,
)
from patiencekit.server.play.fastpath import KeptGame
from patiencekit.server.play.models import play_json, revealed
from patiencekit.server.play.replay import Clock, line_times, rebuild, replay_row, view_at
from patiencekit.server.play.storage import RankedEndHook, play_status
from patiencekit.server.security import hash_token
from patiencekit.words import move_words

__all__ = [
    "HINT_SECONDS",
    "MAX_NUMBER",
    "RANKED_FIRST",
    "RANKED_IDLE_SECONDS",
    "RANKED_NUMBERS",
    "Visit",
    "act",
    "create_play",
    "deal_in_play_hooks",
    "draw_ranked_number",
    "end_idle_ranked",
    "get_play",
    "play_action",
    "play_autocomplete",
    "play_hint",
    "play_replay",
    "ranked_end_hooks",
    "ranked_give_up_hooks",
    "visit",
]

#: the safety net of a hint's time (its budget is positions: solver.hint_settings); a
#: Klondike hint takes some 0.2 s at the median and under 2 s at p99 (docs/benchmarks.md,
#: "Hints")
HINT_SECONDS = 3.0
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

#: Called in the transaction that stores the move ending a ranked play (a win, or no move
#: left), before the play row moves on: ``hook(conn, play row as read, game, now)``. The
#: competition (patiencekit.server.competition) records the play's result there; if the
#: move is not stored after all, the transaction and so the result are rolled back.
ranked_end_hooks: list[RankedEndHook] = []
#: Called in the transaction that ends a ranked play without a last move, as given up (the
#: player started another ranked game of the variant, or made no move for
#: :data:`RANKED_IDLE_SECONDS`), once the play row is marked ended; same arguments.
ranked_give_up_hooks: list[RankedEndHook] = []
#: Asked before a casual play of a chosen number is dealt: ``hook(conn, game id, number)`` is
#: True when that deal is in ranked play elsewhere (the competition: a running
#: tournament's deals, a daily deal not revealed yet), so that casual play cannot reach it.
deal_in_play_hooks: list[Callable[[Connection, str, int], bool]] = []


# -- dealing -----------------------------------------------------------------------------


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
    rules = game_rules(game_id)
    chosen = number is not None
    if ranked and (chosen or winnable):
        raise ApiError(
            400,
            "ranked_deal",
            N_("a ranked deal is drawn by the server: it cannot be chosen (send no number)"),
        )
    if ranked:
        number = draw_ranked_number()
    elif number is None and winnable:
        # The solver is imported only here: the server process keeps it out otherwise
        # (hints run in their worker process, server/hints.py).
        from patiencekit.solver import winnable_number

        try:
            number = winnable_number(rules.id)
        except TimeoutError:
            raise ApiError(
                503,
                "unavailable",
                N_("no winnable deal of {game} could be found just now"),
                params={"game": rules.name},
            ) from None
    elif number is None:
        number = secrets.randbelow(RANDOM_NUMBERS) + 1
    elif not 0 <= number <= MAX_NUMBER:
        raise ApiError(
            400,
            "bad_number",
            N_("a deal number runs from 0 to {most}"),
            params={"most": MAX_NUMBER},
        )
    now = client.now()
    with db.write() as conn:
        user, token = user_for_write(conn, client)
        if ranked and user.guest:
            raise ApiError(401, "unauthorized", N_("sign in to play ranked games"))
        if chosen and _in_ranked_play(conn, rules.id, number):
            raise ApiError(
                409,
                "deal_in_play",
                N_("this deal is being played in a ranked game: try it once that has ended"),
            )
        if ranked:
            if not db.is_sqlite:
                # A player's ranked plays are made one at a time, so two sent at once
                # cannot both find no open one (SQLite's writer lock does this already;
                # PostgreSQL reads committed data only).
                storage.lock_player_deals(conn, user.id)
            for open_play in storage.open_ranked(conn, user.id, rules.id):
                if not give_up:
                    raise ApiError(
                        409,
                        "ranked_open",
                        N_(
                            "your ranked game of {game} is still open ({path}): finish it, "
                            "or start a new one to give it up (it counts with its score)"
                        ),
                        params={"game": rules.name, "path": f"/p/{open_play.id}"},
                    )
                if not _give_up(conn, open_play, now):
                    raise stored_first()
                fastpath.forget(db, open_play.id)
        play_id = storage.insert_play(
            conn, user_id=user.id, game_id=rules.id, number=number, ranked=ranked, now=now
        )
    game, clock = rebuild(rules.id, number, ranked, now, [])
    answer = play_json(play_id, ranked, game)
    fastpath.keep(db, play_id, 0, KeptGame(game, clock, ranked, "playing", False, now, False))
    return answer, token


def draw_ranked_number() -> int:
    """A ranked deal's number: uniform over :data:`RANKED_NUMBERS` numbers from
    :data:`RANKED_FIRST`, from the operating system's randomness (``secrets``).

    >>> RANKED_FIRST <= draw_ranked_number() < RANKED_FIRST + RANKED_NUMBERS
    True
    """
    return RANKED_FIRST + secrets.randbelow(RANKED_NUMBERS)


def _in_ranked_play(conn: Connection, game_id: str, number: int) -> bool:
    """True if the deal is in ranked play now: an open ranked play of it, or (the hooks) a
    running tournament's deal or a daily deal not revealed yet."""
    return storage.ranked_deal_open(conn, game_id, number) or any(
        hook(conn, game_id, number) for hook in deal_in_play_hooks
    )


# -- giving up ---------------------------------------------------------------------------


def _give_up(conn: Connection, row: Row[Any], now: float) -> bool:
    """End the open ranked play ``row`` as given up, in the caller's write transaction: the
    row is marked ended, then the :data:`ranked_give_up_hooks` record its result (its
    running score, no time bonus). False, and nothing done, if the play was not where it
    was read (it moved on or ended meanwhile)."""
    if not storage.mark_ended(conn, row, now):
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
    since = now - RANKED_IDLE_SECONDS
    with db.read() as conn:
        idle = storage.idle_ranked(conn, since)
    ended = 0
    for play_id in idle:
        with db.write() as conn:
            row = storage.read_idle(conn, play_id, since)
            if row is None or not _give_up(conn, row, now):
                continue
        fastpath.forget(db, play_id)
        ended += 1
    return ended


# -- reading -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Loaded:
    row: Row[Any]
    game: Game
    clock: Clock

    def kept(self) -> KeptGame:
        return KeptGame.of(self.row, self.game, self.clock)


def _load(db: Database, conn: Connection, play_id: str, client: Client, now: float) -> _Loaded:
    """The play's row and its game now, for its owner; the game is the caller's until it is
    kept again."""
    if not storage.PLAY_ID.fullmatch(play_id):
        raise ApiError(404, "not_found", N_("no play has this id"))
    token_hash = hash_token(client.token) if client.token else ""
    row = storage.read_play_and_session(conn, play_id, token_hash, now)
    if row is None:
        raise ApiError(404, "not_found", N_("no play has this id"))
    if row.session_user is None or row.session_user != row.user_id:
        raise ApiError(403, "forbidden", N_("this play belongs to another player"))
    # Replaying is needed only when this process has not the game at this seq already.
    kept = fastpath.take(db, play_id, row.seq)
    if kept is not None:
        game, clock = kept.game, kept.clock
        # The wall clock may step back; the play's clock does not.
        clock.now = max(now, clock.now, row.updated_at)
    else:
        game, clock = replay_row(conn, row, now)
    return _Loaded(row, game, clock)


@dataclass(frozen=True, slots=True)
class Visit:
    """A play's page (``/p/{play_id}``) as the request's session may see it."""

    #: the session's own play
    own: bool
    #: the session has a signed-in user (an account or a guest)
    signed_in: bool
    game_id: str
    #: the deal's number when anyone may see it (a casual play's), else None
    number: int | None


def visit(db: Database, client: Client, play_id: str) -> Visit | None:
    """Whose the play is, seen from the request's session; None for no such play."""
    if not storage.PLAY_ID.fullmatch(play_id):
        return None
    token_hash = hash_token(client.token) if client.token else ""
    with db.read() as conn:
        row = storage.read_play_and_session(conn, play_id, token_hash, client.now())
    if row is None:
        return None
    return Visit(
        own=row.session_user is not None and row.session_user == row.user_id,
        signed_in=row.session_user is not None,
        game_id=row.game_id,
        number=None if row.ranked else int(row.number),
    )


def get_play(db: Database, client: Client, play_id: str) -> dict[str, Any]:
    """The play, for its owner."""
    now = client.now()
    with db.read() as conn:
        loaded = _load(db, conn, play_id, client, now)
    row, kept = loaded.row, loaded.kept()
    # A daily deal's play past its day takes no move: it is over, even before it is ended.
    ended = kept.closed(now)
    result = play_json(
        play_id, row.ranked, loaded.game, True if ended else None, revealed(row, ended), row.daily
    )
    fastpath.keep(db, play_id, row.seq, kept)
    return result


def play_replay(db: Database, client: Client, play_id: str, step: int | None) -> dict[str, Any]:
    """The owner's play as a replay: its game record (the moves of its line as it stands,
    each move's time, replayable by ``patiencekit replay``), or with ``step`` the board
    the player saw after that many moves (:func:`~patiencekit.server.play.replay.view_at`).

    A replay is its owner's only (403 for another player, as the play itself). A ranked
    play's is shown once it has ended, when its number is (RULES.md, "Fair competition");
    a tournament round's is published with its tournament once that is over
    (``/api/tournaments/{id}/replays/...``), and a daily deal's with its day, once that is
    closed (``/api/daily/{game}/{day}/replays/...``), never here.
    """
    if not storage.PLAY_ID.fullmatch(play_id):
        raise ApiError(404, "not_found", N_("no play has this id"))
    now = client.now()
    token_hash = hash_token(client.token) if client.token else ""
    with db.read() as conn:
        row = storage.read_play_and_session(conn, play_id, token_hash, now)
        if row is None:
            raise ApiError(404, "not_found", N_("no play has this id"))
        if row.session_user is None or row.session_user != row.user_id:
            raise ApiError(403, "forbidden", N_("this play belongs to another player"))
        if row.tournament_id is not None:
            raise ApiError(
                403,
                "forbidden",
                N_("a tournament round's replay is published with its tournament, once it is over"),
            )
        if row.daily is not None:
            # Its replay holds the day's deal, which others may be playing still.
            raise ApiError(
                403,
                "forbidden",
                N_("the replays of a daily deal are published once its day is over"),
            )
        if row.ranked and row.ended_at is None:
            raise ApiError(
                403, "forbidden", N_("a ranked game's replay is shown once it has ended")
            )
        events = storage.load_events(conn, row.id, row.seq)
    number = int(row.number)
    game, times = line_times(row.game_id, number, row.ranked, row.created_at, events)
    moves = [str(m) for m in game.moves]
    if step is None:
        return {
            "game": row.game_id,
            "number": number,
            "moves": moves,
            "number_text": row.number,
            "id": row.id,
            "ranked": row.ranked,
            "times": times,
        }
    if not 0 <= step <= len(moves):
        raise ApiError(
            404, "not_found", N_("the replay has steps 0 to {most}"), params={"most": len(moves)}
        )
    return {**view_at(row.game_id, number, moves[:step], len(moves)), "number_text": row.number}


def play_hint(
    db: Database, client: Client, play_id: str, lang: str = "en"
) -> dict[str, Any]:
    """A hint for the owner's casual play: the solver's move, from what the player sees.

    Worked out by the hint workers, within the player's hint limit (``server.hints``).
    """
    now = client.now()
    with db.read() as conn:
        loaded = _load(db, conn, play_id, client, now)
    if loaded.row.ranked:
        raise ApiError(403, "forbidden", N_("no hints in a ranked game"))
    game = loaded.game
    n, record, ended = game.state.history_length, game.record(), loaded.row.ended_at is not None
    # The hint is put in words at this position, which the game kept may have left by then
    # (a copy of the position is a fraction of a millisecond, a replay of the record many).
    position = None if ended else Game.from_board(game.board())
    fastpath.keep(db, play_id, loaded.row.seq, loaded.kept())  # the game is no longer ours
    if position is None:
        return {"hint": None, "n": n, "words": None}
    user_id = loaded.row.user_id
    move = hints.hint(db, client.settings, user_id, record, now, seconds=HINT_SECONDS)
    words = None if move is None else move_words(position, move, lang)
    return {"hint": move, "n": n, "words": words}


def play_autocomplete(db: Database, client: Client, play_id: str, n: int) -> dict[str, Any]:
    """Finish the owner's play (casual or ranked) when what the player sees proves the win:
    the play after it, won, with ``autocompleted``, the moves played.

    The line (the solver's ``autocomplete_line``) is worked out in the hint workers, not
    counted in the hint limit; then each of its moves is stored exactly as a move sent to
    ``/moves`` is (:func:`play_action`: the same events, scores and, for a ranked play, its
    end). Refused as a move is first (409 ``conflict`` for a stale ``n``, ``game_over``
    once ended), then with 409 ``no_autocomplete``, changing nothing, when the view proves
    no win. Should another request move the play on between two of its moves, the moves
    stored so far stay (each a legal move) and the answer is 409 ``conflict``.
    """
    now = client.now()
    with db.read() as conn:
        loaded = _load(db, conn, play_id, client, now)
    row, game = loaded.row, loaded.game
    kept = loaded.kept()
    try:
        check_action(game, Action("move", n), ranked=row.ranked, ended=kept.closed(now))
        record = game.record()
    finally:
        fastpath.keep(db, play_id, row.seq, kept)  # the game is no longer ours
    line = hints.autocomplete_line(client.settings, record)
    if line is None:
        raise ApiError(
            409, "no_autocomplete", N_("nothing you can see proves a win yet: play on")
        )
    answer: dict[str, Any] | None = None
    for i, move in enumerate(line):
        answer = play_action(db, client, play_id, Action("move", n + i, move=move))
    if answer is None:  # won already (refused above as over, but the line may say so)
        answer = get_play(db, client, play_id)
    answer["autocompleted"] = line
    return answer


# -- acting ------------------------------------------------------------------------------


async def act(db: Database, client: Client, play_id: str, action: Action) -> dict[str, Any]:
    """:func:`play_action` for the ``async`` routes.

    On SQLite (``db.inline``) all of it runs on the event loop (unless the write lock is
    taken: see :meth:`~patiencekit.server.db.Database.run`). On PostgreSQL a move on a
    kept game is tried on the loop first (:func:`fastpath.try_act_on_loop`); everything
    else runs in the database threads.
    """
    if db.loop_statements is not None:
        answer = await fastpath.try_act_on_loop(db, client, play_id, action)
        if answer is not None:
            return answer
        return await db.run(play_action, db, client, play_id, action, fast=False)
    return await db.run(play_action, db, client, play_id, action)


def play_action(
    db: Database, client: Client, play_id: str, action: Action, fast: bool = True
) -> dict[str, Any]:
    """Apply one action for the owner; the play after it.

    The event is committed before this returns; a refused action stores nothing.

    Concurrency is optimistic: the play is read and the action checked without
    holding a lock; the write then stores the event only if no other event was
    stored meanwhile (``UPDATE plays ... WHERE seq = <the seq read>``, and the
    primary key on ``(play_id, seq)``). Of two submissions of the same move
    number, one is stored and the other gets 409 ``conflict``.

    When this process answered the play's last request, the action is first tried
    on the game it kept (:func:`fastpath.try_act`), unless ``fast`` is false (the
    caller tried already): one write, no read.
    """
    now = client.now()
    if fast:
        answer = fastpath.try_act(db, client, play_id, action, now)
        if answer is not None:
            return answer
    with db.read() as conn:
        loaded = _load(db, conn, play_id, client, now)
    row, game = loaded.row, loaded.game
    kept = loaded.kept()
    try:
        stored = apply_action(game, action, ranked=row.ranked, ended=kept.closed(now))
    except (ApiError, Unchanged) as e:
        # Refused (or nothing to do): the engine left the game as it was.
        fastpath.keep(db, play_id, row.seq, kept)
        if isinstance(e, Unchanged):
            return play_json(
                play_id, row.ranked, game, None, revealed(row, kept.ended), row.daily
            )
        raise
    over = game.is_over()
    ends = row.ranked and over
    try:
        kept.status = _store(db, row, game, action.event_kind, stored, now, over, ends=ends)
    except IntegrityError:
        raise stored_first() from None
    kept.won = kept.won or game.is_won()
    kept.updated_at, kept.ended = now, ends
    fastpath.keep(db, play_id, row.seq + 1, kept)
    return play_json(play_id, row.ranked, game, over, revealed(row, kept.ended), row.daily)


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

    A move that ``ends`` a ranked play also marks it ended and runs the
    :data:`ranked_end_hooks` in the same transaction (before the play row is
    updated), so that its result is stored with it or not at all. No event is
    stored on an ended play.
    """
    won_now = game.is_won() and row.won_at is None
    status = play_status(won_now or row.status == "won", over)
    if not won_now and not ends:
        stored = storage.advance(
            db, storage.advance_params(row.id, row.seq, game, kind, move, now, status)
        )
    else:
        stored = storage.store_last(
            db,
            row,
            game,
            (kind, move, now),
            status,
            won_now=won_now,
            ends=ends,
            end_hooks=ranked_end_hooks,
        )
    if not stored:
        raise stored_first()
    return status
