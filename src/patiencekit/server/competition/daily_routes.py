"""The daily deal's API (``/api/daily...``) and pages (``/daily``, ``/daily/{game}``);
:func:`install` adds them to the app, with the daily deal's hook to casual play."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, FastAPI, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from patiencekit.server.competition import daily
from patiencekit.server.competition.routes import Outcome, ReplayStep
from patiencekit.server.deps import ClientDep, DbDep, json_response
from patiencekit.server.errors import error_responses
from patiencekit.server.pages import _known_game, _page
from patiencekit.server.play import service as plays
from patiencekit.server.play.models import Play

__all__ = ["install", "pages", "router"]

Day = Annotated[str, Path(pattern=r"^\d{4}-\d{2}-\d{2}$", description="a UTC day, YYYY-MM-DD")]


# -- answers ------------------------------------------------------------------------------------
# The models are the schema's only (``responses=``): the routes send the service's dicts as they
# are (``json_response``), unchecked on the way out.


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DailyLine(_Answer):
    """A player's line of a day's table: an ended play of the day's deal."""

    place: int = Field(description="1, 2, 3, ...: one owner each (ties by time, then finish)")
    name: str
    outcome: Outcome = Field(description="expired: still open when the day ended")
    score: int | None = Field(description="time bonus included for a win; null without scores")
    time: float = Field(description="seconds from the deal to the end (by the server's clock)")
    moves: int
    finished_at: float


class DailyMine(_Answer):
    """The session's own play of a day's deal."""

    play: str | None = Field(description="its play id (null before it is started)")
    status: Literal["none", "playing", "ended"]
    line: DailyLine | None = Field(description="its line of the table once ended (day answers)")


class DailyViewer(DailyMine):
    """The session's player, as a day's table sees them."""

    name: str


class DailyDay(_Answer):
    """A game's daily deal of one UTC day."""

    game: str
    name: str
    day: str = Field(description="YYYY-MM-DD (UTC)")
    previous: str = Field(description="the day before")
    starts_at: float
    ends_at: float
    over: bool = Field(description="the day has ended")
    number: int | None = Field(description="the deal, once the day is over and closed")
    number_text: str | None = Field(description="the same, as its exact digits")
    dealt: bool = Field(
        description="the day's deal has been drawn (its first player started it); false for "
        "a day nobody played (over: it never had a deal, a table or replays)"
    )
    players: int = Field(description="plays of the day that have ended")
    playing: int = Field(description="plays of the day still running")
    table: list[DailyLine] = Field(max_length=daily.TABLE_LIMIT)
    me: DailyViewer | None = Field(description="null without a session")
    now: float = Field(description="the server's clock")


class DailyGame(_Answer):
    """A game's daily deal of today."""

    game: str
    name: str
    players: int
    playing: int
    me: DailyMine | None = Field(description="null without a session")


class DailyOverview(_Answer):
    """Today's daily deal of every game, in the registry's order."""

    day: str
    starts_at: float
    ends_at: float
    games: list[DailyGame]
    now: float


class DailyResult(_Answer):
    """An ended daily play's result."""

    outcome: Outcome
    score: int | None
    time: float
    finished_at: float


class DailyReplayRecord(_Answer):
    """A player's play of a closed day's deal as a game record (``patiencekit replay``)."""

    game: str
    number: int
    moves: list[str]
    player: str
    day: str
    result: DailyResult | None
    times: list[float] = Field(description="each move's second from the deal")


router = APIRouter()


@router.get("/daily", responses={200: {"model": DailyOverview}})
def get_daily(db: DbDep, client: ClientDep) -> Response:
    """Today's daily deal of every game: how many played it, and the session's own play."""
    return json_response(daily.overview(db, client))


@router.get("/daily/{game_id}", responses={200: {"model": DailyDay}, **error_responses(404)})
def get_daily_today(game_id: str, db: DbDep, client: ClientDep) -> Response:
    """Today's daily deal of a game: its table so far (never its number)."""
    return json_response(daily.day_json(db, client, game_id, None))


@router.get(
    "/daily/{game_id}/{day}", responses={200: {"model": DailyDay}, **error_responses(404, 422)}
)
def get_daily_day(game_id: str, day: Day, db: DbDep, client: ClientDep) -> Response:
    """A game's daily deal of a day: its table, and its number once the day is over."""
    return json_response(daily.day_json(db, client, game_id, day))


@router.post(
    "/daily/{game_id}/play",
    responses={
        200: {"model": Play, "description": "Today's play of the deal, resumed"},
        201: {"model": Play, "description": "Today's play of the deal, made now"},
        **error_responses(401, 404, 409),
    },
)
def post_daily_play(game_id: str, db: DbDep, client: ClientDep) -> Response:
    """Play today's daily deal of a game (one attempt a day): 201 when made now, 200 when the
    open play is resumed; 409 ``daily_played`` once it has ended."""
    play, made = daily.start(db, client, game_id)
    return json_response(play, 201 if made else 200)


@router.get(
    "/daily/{game_id}/{day}/replays/{name}",
    responses={
        200: {
            "model": DailyReplayRecord | ReplayStep,
            "description": "The game record, or with ?step= the board after that many moves",
        },
        **error_responses(403, 404, 422),
    },
)
def get_daily_replay(
    game_id: str,
    day: Day,
    name: str,
    db: DbDep,
    client: ClientDep,
    step: Annotated[int | None, Query(ge=0, le=100_000)] = None,
) -> Response:
    """A player's play of a day's deal once the day is over: its record, or its board at
    ``step``."""
    return json_response(daily.replay(db, game_id, day, name, step, client.now()))


# -- pages --------------------------------------------------------------------------------------

pages = APIRouter(include_in_schema=False)


@pages.get("/daily")
def daily_page(request: Request) -> Response:
    """Today's daily deal of every game."""
    return _page(request, "daily.html")


@pages.get("/daily/{game_id}")
def daily_deal_page(request: Request, game_id: str) -> Response:
    """A game's daily deal: play today's, its table, yesterday's deal and replays."""
    return _known_game(request, game_id) or _page(request, "daily-deal.html")


def install(app: FastAPI) -> None:
    """Add the daily deal's API and pages to the app, and its hook to casual play (the day's
    deal cannot be played casually before it is published)."""
    app.include_router(router, prefix="/api")
    app.include_router(pages)
    if daily.deal_in_play not in plays.deal_in_play_hooks:
        plays.deal_in_play_hooks.append(daily.deal_in_play)
