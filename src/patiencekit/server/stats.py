"""Statistics per player and game: played, won, win rate, streaks, best time, score, moves.

A play counts as played once it has a move. It counts as won once it reached
a win (an undo afterwards does not take the win back); its time, score and
number of moves are those of that first win. Streaks count consecutive won
plays in the order they were dealt; the newest play does not break the
current streak while it is still being played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from patiencekit.games import GAMES
from patiencekit.i18n import N_
from patiencekit.server.accounts import name_key
from patiencekit.server.db import Database, users
from patiencekit.server.deps import DbDep
from patiencekit.server.errors import ApiError, error_responses
from patiencekit.server.play.tables import plays

__all__ = ["GameStats", "PlayerStats", "game_stats", "player_stats", "router"]


def game_stats(rows: Sequence[Any]) -> dict[str, Any]:
    """The statistics of one player's plays of one game (oldest first)."""
    played = len(rows)
    won_rows = [r for r in rows if r.status == "won"]
    best_streak = run = 0
    for r in rows:
        run = run + 1 if r.status == "won" else 0
        best_streak = max(best_streak, run)
    streak = 0
    for i, r in enumerate(reversed(rows)):
        if r.status == "won":
            streak += 1
        elif i == 0 and r.status == "playing":
            continue  # the newest play is still going on
        else:
            break
    times = [r.win_elapsed for r in won_rows if r.win_elapsed is not None]
    scores = [r.win_score for r in won_rows if r.win_score is not None]
    moves = [r.win_moves for r in won_rows if r.win_moves is not None]
    return {
        "played": played,
        "won": len(won_rows),
        "win_rate": round(len(won_rows) / played, 4) if played else 0.0,
        "streak": streak,
        "best_streak": best_streak,
        "best_time": round(min(times), 3) if times else None,
        "best_score": max(scores) if scores else None,
        "fewest_moves": min(moves) if moves else None,
    }


def player_stats(db: Database, name: str) -> dict[str, dict[str, Any]]:
    """Every game's statistics for the player called ``name`` (any case)."""
    with db.read() as conn:
        user_id = conn.execute(
            select(users.c.id).where(users.c.name_key == name_key(name))
        ).scalar_one_or_none()
        if user_id is None:
            raise ApiError(
                404, "not_found", N_("no player is called {name!r}"), params={"name": name}
            )
        rows = conn.execute(
            select(
                plays.c.game_id,
                plays.c.status,
                plays.c.win_elapsed,
                plays.c.win_score,
                plays.c.win_moves,
            )
            .where(plays.c.user_id == user_id, plays.c.seq > 0)
            .order_by(plays.c.created_at, plays.c.id)
        ).all()
    by_game: dict[str, list[Any]] = {game_id: [] for game_id in GAMES}
    for row in rows:
        by_game.setdefault(row.game_id, []).append(row)
    return {game_id: game_stats(game_rows) for game_id, game_rows in by_game.items()}


class GameStats(BaseModel):
    """One player's statistics of one game (:func:`game_stats`)."""

    model_config = ConfigDict(extra="forbid")

    played: int = Field(description="plays with a move")
    won: int = Field(description="plays that reached a win")
    win_rate: float = Field(description="won / played (0.0 when nothing was played)")
    streak: int = Field(description="consecutive won plays up to the newest")
    best_streak: int
    best_time: float | None = Field(description="seconds, over the won plays")
    best_score: int | None = Field(description="Klondike only, time bonus included")
    fewest_moves: int | None = Field(description="moves in the winning line")


#: a player's statistics: every game id of the registry, in its order
PlayerStats = dict[str, GameStats]

router = APIRouter()


# The model is the schema's only (``responses=``): FastAPI does not check the answer.
@router.get("/stats/{name}", responses={200: {"model": PlayerStats}, **error_responses(404)})
def get_stats(name: str, db: DbDep) -> Any:
    """A player's statistics, per game id in the registry's order."""
    return player_stats(db, name)
