"""The statistics read and added up: per game (``player_stats``), one game's charts
(``game_charts``) and the history of a player's games (``history``).

Each reads the player's plays in one query (:func:`.queries.play_rows`) and works out how
each ended in :mod:`.figures`; a page of the history also replays the plays whose score
and time no row holds (a casual game not won: its running score and clock at its last
move), one query for all their events, and so do a scored game's charts for the scores of
their plays not won (each replayed once per process: :data:`_RUNNING`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection

from patiencekit.games import GAMES
from patiencekit.server.accounts import current_user
from patiencekit.server.db import Database
from patiencekit.server.deps import Client
from patiencekit.server.errors import game_rules
from patiencekit.server.play.replay import rebuild
from patiencekit.server.play.storage import Event
from patiencekit.server.stats.figures import (
    CHART_POINTS,
    WINDOW,
    Ended,
    chart_points,
    ended_plays,
    game_stats,
    needs_running_score,
)
from patiencekit.server.stats.queries import by_game, events_of, play_rows, player

__all__ = ["HISTORY_LIMIT", "HISTORY_PAGE", "game_charts", "history", "player_stats"]

#: the plays of a history page, by default and at most
HISTORY_PAGE = 20
HISTORY_LIMIT = 50

#: the running score at an ended play's last move, by ``(play id, seq)`` (a play's events up
#: to a seq never change), so that a chart replays each play once per process; the newest
#: :data:`_RUNNING_KEPT` are kept
_RUNNING: OrderedDict[tuple[str, int], int | None] = OrderedDict()
_RUNNING_KEPT = 20_000
_RUNNING_LOCK = threading.Lock()


def player_stats(db: Database, name: str) -> dict[str, dict[str, Any]]:
    """Every game's statistics for the player called ``name`` (any case), in the
    registry's order."""
    with db.read() as conn:
        user = player(conn, name)
        rows = play_rows(conn, user.id)
    return {game_id: game_stats(ended_plays(mine)) for game_id, mine in by_game(rows).items()}


def game_charts(db: Database, name: str, game_id: str) -> dict[str, Any]:
    """One game's charts for the player called ``name``: a point per ended play (the newest
    :data:`~.figures.CHART_POINTS`; :func:`~.figures.chart_points`) and the game's
    statistics."""
    rules = game_rules(game_id)
    with db.read() as conn:
        user = player(conn, name)
        rows = play_rows(conn, user.id, rules.id)
        ended = ended_plays(rows)
        running = _running_scores(conn, ended[-CHART_POINTS:]) if rules.scored else {}
    return {
        "game": rules.id,
        "name": rules.name,
        "player": user.name,
        "window": WINDOW,
        "played": len(ended),
        "points": chart_points(ended, running=running),
        "stats": game_stats(ended),
    }


def _running_scores(conn: Connection, shown: Sequence[Ended]) -> dict[str, int | None]:
    """The running score at the last move of each play of ``shown`` whose row holds no final
    score (:func:`~.figures.needs_running_score`), by play id: replayed, one query for the
    events of those this process has not replayed before."""
    wanted = [play.row for play in shown if needs_running_score(play)]
    with _RUNNING_LOCK:
        found = {
            row.id: _RUNNING[(row.id, row.seq)] for row in wanted if (row.id, row.seq) in _RUNNING
        }
    missing = [row for row in wanted if row.id not in found]
    events = events_of(conn, missing)
    for row in missing:
        game, _clock = rebuild(
            row.game_id, int(row.number), row.ranked, row.created_at, events[row.id]
        )
        found[row.id] = int(game.score) if game.score is not None else None
    with _RUNNING_LOCK:
        for row in missing:
            _RUNNING[(row.id, row.seq)] = found[row.id]
        while len(_RUNNING) > _RUNNING_KEPT:
            _RUNNING.popitem(last=False)
    return found


def _replayed(play: Ended) -> bool:
    """Whether the history must replay the play for its score and time (or, a ranked game
    of an unscored variant, to tell a game given up from one with no move left)."""
    row = play.row
    if play.won:
        return False
    return not row.ranked or row.outcome is None


def history(
    db: Database,
    client: Client,
    name: str,
    game_id: str | None,
    offset: int = 0,
    limit: int = HISTORY_PAGE,
) -> dict[str, Any]:
    """The ended plays of the player called ``name`` (of ``game_id`` only, if given),
    newest first, ``limit`` of them from ``offset``, with how many there are."""
    rules = game_rules(game_id) if game_id is not None else None
    with db.read() as conn:
        user = player(conn, name)
        viewer = current_user(conn, client)
        rows = play_rows(conn, user.id, rules.id if rules is not None else None)
        ended = [play for mine in by_game(rows).values() for play in ended_plays(mine)]
        ended.sort(key=lambda play: (play.row.created_at, play.row.id), reverse=True)
        page = ended[offset : offset + limit]
        events = events_of(conn, [play.row for play in page if _replayed(play)])
    owner = viewer is not None and viewer.id == user.id
    return {
        "player": user.name,
        "game": rules.id if rules is not None else None,
        "total": len(ended),
        "offset": offset,
        "limit": limit,
        "games": [_entry(play, events.get(play.row.id), owner, user.name) for play in page],
    }


def _entry(
    play: Ended, events: Sequence[Event] | None, owner: bool, owner_name: str
) -> dict[str, Any]:
    """One line of the history. Its deal number and replay are the owner's (a tournament
    round's are everyone's once the tournament is over, and nobody's before)."""
    row, how = play.row, play.ending
    number = int(row.number)
    score: int | None = None
    time: float | None = None
    moves: int = row.moves
    if play.won:
        score, time, moves = row.win_score, row.win_elapsed, row.win_moves or row.moves
    if row.result_score is not None:
        score, time = row.result_score, row.result_elapsed
    if events is not None:
        game, _clock = rebuild(row.game_id, number, row.ranked, row.created_at, events)
        score, time = game.score, game.elapsed
        if row.ranked and not game.is_over():
            how = "given_up"
            time = row.ended_at - row.created_at
    if row.tournament_id is not None:
        shown = row.tournament_status == "finished"
        replay = (
            f"/api/tournaments/{row.tournament_id}/replays/{quote(owner_name)}/{row.round_id}"
            if shown
            else None
        )
    else:
        shown = owner
        replay = f"/api/plays/{row.id}/replay" if owner else None
    if row.ranked:
        finished_at = row.ended_at
    elif play.won:
        finished_at = row.won_at
    else:
        finished_at = row.updated_at
    rules = GAMES.get(row.game_id)
    return {
        "id": row.id if owner else None,
        "game": row.game_id,
        "name": rules.name if rules is not None else row.game_id,
        "ranked": row.ranked,
        "tournament": row.tournament_id,
        "round": row.round_id,
        "number": number if shown else None,
        "number_text": row.number if shown else None,
        "started_at": row.created_at,
        "finished_at": finished_at,
        "result": how,
        "score": score,
        "time": round(time, 3) if time is not None else None,
        "moves": moves,
        "replay": replay,
    }
