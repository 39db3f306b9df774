"""The statistics' API: ``GET /api/stats/{name}``, ``/api/stats/{name}/charts/{game_id}`` and
``/api/stats/{name}/history`` (docs/api.md, "Statistics")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from patiencekit.server.deps import ClientDep, DbDep
from patiencekit.server.errors import error_responses
from patiencekit.server.stats import service
from patiencekit.server.stats.figures import Ending

__all__ = ["ChartPoint", "GameCharts", "GameStats", "History", "PlayerStats", "router"]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GameStats(_Answer):
    """One player's statistics of one game (:func:`.figures.game_stats`)."""

    played: int = Field(description="ended plays: won, lost, given up, expired or abandoned")
    won: int = Field(description="plays that reached a win")
    win_rate: float = Field(description="won / played (0.0 when nothing was played)")
    streak: int = Field(description="consecutive won plays up to the newest ended one")
    best_streak: int
    best_time: float | None = Field(description="seconds, over the won plays")
    best_score: int | None = Field(description="Klondike only, time bonus included")
    fewest_moves: int | None = Field(description="moves in the winning line")


#: a player's statistics: every game id of the registry, in its order
PlayerStats = dict[str, GameStats]


class ChartPoint(_Answer):
    """An ended play on a game's charts (:func:`.figures.chart_points`)."""

    n: int = Field(description="its place among the player's ended plays of the game, from 1")
    at: float = Field(description="when it was dealt (seconds since the epoch)")
    result: Ending
    rate: float = Field(description="the win rate over it and the window's plays before it")
    streak: int = Field(description="the wins in a row up to it")
    score: int | None = Field(description="a win's score (Klondike, time bonus included)")
    time: float | None = Field(description="a win's time in seconds")
    final_score: int | None = Field(
        description="its score as it ended, won or not: a win's (as score), a ranked "
        "result's, else the running score at its last move; null in a game without a score"
    )


class GameCharts(_Answer):
    """One game's charts for a player."""

    game: str
    name: str
    player: str
    window: int = Field(description="the plays the rolling win rate is taken over")
    played: int = Field(description="all ended plays (the points are the newest 200)")
    points: list[ChartPoint] = Field(max_length=200, description="oldest first")
    stats: GameStats


class HistoryEntry(_Answer):
    """An ended play in a player's history."""

    id: str | None = Field(description="the play's id: the player's own plays only")
    game: str
    name: str
    ranked: bool
    tournament: int | None
    round: int | None
    number: int | None = Field(
        description="the deal: the player's own plays only; a tournament round's for everyone "
        "once the tournament is over, and for nobody before"
    )
    number_text: str | None = Field(description="the number's digits")
    started_at: float
    finished_at: float = Field(
        description="the end: a ranked game's, a win, else the last move"
    )
    result: Ending
    score: int | None = Field(description="the final score (null for unscored games)")
    time: float | None = Field(description="seconds from the deal to the end")
    moves: int
    replay: str | None = Field(
        description="where its replay is (GET; ?step=k for the board), when the reader may see it"
    )


class History(_Answer):
    """A page of a player's history, newest first."""

    player: str
    game: str | None
    total: int = Field(description="the ended plays in all (of the game, if one is given)")
    offset: int
    limit: int
    games: list[HistoryEntry]


router = APIRouter()


# The models are the schema's only (``responses=``): FastAPI does not check the answer.
@router.get("/stats/{name}", responses={200: {"model": PlayerStats}, **error_responses(404)})
def get_stats(name: str, db: DbDep) -> Any:
    """A player's statistics, per game id in the registry's order."""
    return service.player_stats(db, name)


@router.get(
    "/stats/{name}/charts/{game_id}",
    responses={200: {"model": GameCharts}, **error_responses(404)},
)
def get_charts(name: str, game_id: str, db: DbDep) -> Any:
    """A player's charts of one game: a point per ended play, oldest first."""
    return service.game_charts(db, name, game_id)


@router.get(
    "/stats/{name}/history",
    responses={200: {"model": History}, **error_responses(404, 422)},
)
def get_history(
    name: str,
    db: DbDep,
    client: ClientDep,
    game: Annotated[str | None, Query(min_length=1, max_length=40)] = None,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=service.HISTORY_LIMIT)] = service.HISTORY_PAGE,
) -> Any:
    """A player's ended plays, newest first, a page at a time."""
    return service.history(db, client, name, game, offset, limit)
