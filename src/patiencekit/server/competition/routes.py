"""The competition's API (``/api/tournaments``, ``/api/top100``, ``/api/players``, giving up a
ranked play) and its pages; :func:`install` adds them to the app."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from patiencekit.games import get_rules
from patiencekit.i18n import N_
from patiencekit.server.accounts import current_user, name_key
from patiencekit.server.competition import standings as standings_service
from patiencekit.server.competition import tournaments as tournament_service
from patiencekit.server.competition.scoring import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, VARIANTS
from patiencekit.server.db import Database, users
from patiencekit.server.deps import ClientDep, DbDep, json_response
from patiencekit.server.errors import ApiError, error_responses
from patiencekit.server.pages import _page, not_found_page, player_exists
from patiencekit.server.play import service as plays
from patiencekit.server.play.models import Pile, Play
from patiencekit.server.stats import PlayerStats, player_stats

__all__ = ["install", "pages", "profile", "router"]

TournamentId = Annotated[int, Path(ge=1, le=2**31 - 1)]
RoundNumber = Annotated[int, Path(ge=1, le=2**31 - 1)]


class NewTournament(BaseModel):
    """The body of ``POST /api/tournaments``."""

    model_config = ConfigDict(strict=True, extra="forbid")

    game: str = Field(min_length=1, max_length=40)
    size: int = Field(default=DEFAULT_SIZE, ge=MIN_SIZE, le=MAX_SIZE)


class FinishBody(BaseModel):
    """The body of ``POST /api/plays/{id}/finish``: only the moves seen (never a score)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    n: int = Field(ge=0)


# -- answers ------------------------------------------------------------------------------------
# The models are the schema's only (``responses=``): the routes send the services' dicts as
# they are (``json_response``), unchecked on the way out.

TournamentStatus = Literal["open", "running", "finished"]
#: how a ranked game ended (``results.outcome``): won, no move left, given up, or counted 0
#: by its tournament's deadline
Outcome = Literal["won", "over", "gave_up", "expired"]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TournamentSummary(_Answer):
    """A tournament's facts (times in seconds since the epoch, by the server's clock)."""

    id: int
    game: str
    name: str
    size: int = Field(description="entrants it takes")
    entrants_count: int
    status: TournamentStatus
    created_at: float
    started_at: float | None
    deadline: float | None
    deadline_seconds: int
    finished_at: float | None


class ListedTournament(TournamentSummary):
    """A tournament of ``GET /api/tournaments``."""

    joined: bool = Field(description="the session's player is an entrant")


class EntrantRound(_Answer):
    """An entrant's round."""

    round: int
    status: Literal["waiting", "playing", "finished", "expired"]
    score: int | None
    time: float | None


class Entrant(_Answer):
    """An entrant's line: by place once finished, else by score so far."""

    name: str
    seat: int
    rounds: list[EntrantRound]
    rounds_played: int
    score: int
    time: float
    place: int | None = Field(description="once the tournament is finished")


class TournamentViewer(_Answer):
    """The session's player, as the tournament sees them."""

    name: str
    entrant: bool
    next_round: int | None
    plays: dict[str, str] = Field(description="round number -> the player's play id")


class Tournament(TournamentSummary):
    """A tournament (docs/api.md, "A tournament")."""

    rounds: int
    entrants: list[Entrant]
    deals: list[int] | None = Field(description="the rounds' deal numbers once finished")
    deals_text: list[str] | None = Field(description="the same, as their exact digits")
    me: TournamentViewer | None = Field(description="null without a session")
    now: float = Field(description="the server's clock")


class Left(_Answer):
    """The answer of ``POST /api/tournaments/{id}/leave``."""

    left: bool
    removed: bool = Field(description="the last one out removed the tournament")


class Result(_Answer):
    """A completed ranked game's result."""

    outcome: Outcome
    score: int
    time: float
    finished_at: float


class FinishedPlay(Play):
    """A ranked play given up: the play, over, and its result."""

    result: Result | None = Field(description="null for an unscored game")


class ReplayRecord(_Answer):
    """An entrant's round as a game record (``patiencekit replay`` reads it)."""

    game: str
    number: int
    moves: list[str]
    player: str
    tournament: int
    round: int
    result: Result | None
    times: list[float] = Field(description="each move's second from the deal")


class ReplayStep(_Answer):
    """The board of a replay after its first ``step`` moves."""

    game: str
    number: int
    step: int
    steps: int
    piles: list[Pile]
    score: int | None
    last: str | None
    won: bool


class Standing(_Answer):
    """A player's line of the Top 100."""

    position: int
    rank: int
    name: str
    points: int
    games: int
    cups: list[int] = Field(min_length=4, max_length=4, description="1st to 4th places")
    medals: list[int] = Field(min_length=5, max_length=5, description="1st to 5th places")


class Top100(_Answer):
    """The Top 100 of a variant."""

    game: str
    name: str
    players: list[Standing] = Field(max_length=100)
    me: Standing | None = Field(description="the session's player (or ?player=)")


class VariantStanding(_Answer):
    """A player's standing in a variant."""

    name: str
    standing: Standing | None = Field(description="null before a completed ranked game")


class PlayedTournament(_Answer):
    """A tournament of a player's profile."""

    id: int
    game: str
    name: str
    size: int
    status: TournamentStatus
    started_at: float | None
    finished_at: float | None
    place: int | None
    score: int | None


class Medal(_Answer):
    """A medal: a place of the player's best ranked game of a UTC day."""

    game: str
    day: str = Field(description="YYYY-MM-DD (UTC)")
    place: int
    score: int
    time: float


class Profile(_Answer):
    """A player's profile."""

    name: str
    guest: bool
    variants: dict[str, VariantStanding]
    tournaments: list[PlayedTournament]
    medals: list[Medal]
    stats: PlayerStats


router = APIRouter()


@router.get(
    "/tournaments",
    responses={200: {"model": list[ListedTournament]}, **error_responses(404)},
)
def get_tournaments(
    db: DbDep,
    client: ClientDep,
    game: Annotated[str | None, Query(max_length=40)] = None,
    status: Annotated[str | None, Query(pattern="^(open|running|finished)$")] = None,
) -> Response:
    """The newest tournaments (50), open ones first."""
    return json_response(tournament_service.list_tournaments(db, client, game, status))


@router.post(
    "/tournaments",
    status_code=201,
    responses={201: {"model": Tournament}, **error_responses(401, 404, 409)},
)
def post_tournament(body: NewTournament, db: DbDep, client: ClientDep) -> Response:
    """Make an open tournament; its maker is its first entrant."""
    tid = tournament_service.create_tournament(db, client, body.game, body.size)
    return json_response(tournament_service.tournament_json(db, client, tid), 201)


@router.get(
    "/tournaments/{tournament_id}",
    responses={200: {"model": Tournament}, **error_responses(404)},
)
def get_tournament(tournament_id: TournamentId, db: DbDep, client: ClientDep) -> Response:
    """A tournament: entrants, rounds played, scores; places and deals once it is over."""
    return json_response(tournament_service.tournament_json(db, client, tournament_id))


@router.post(
    "/tournaments/{tournament_id}/join",
    responses={200: {"model": Tournament}, **error_responses(401, 404, 409)},
)
def post_join(tournament_id: TournamentId, db: DbDep, client: ClientDep) -> Response:
    """Join an open tournament (it starts when this fills it)."""
    tournament_service.join_tournament(db, client, tournament_id)
    return json_response(tournament_service.tournament_json(db, client, tournament_id))


@router.post(
    "/tournaments/{tournament_id}/leave",
    responses={200: {"model": Left}, **error_responses(401, 404, 409)},
)
def post_leave(tournament_id: TournamentId, db: DbDep, client: ClientDep) -> Response:
    """Leave a tournament that has not started (the last one out removes it)."""
    removed = tournament_service.leave_tournament(db, client, tournament_id)
    return json_response({"left": True, "removed": removed})


@router.post(
    "/tournaments/{tournament_id}/rounds/{round_number}/play",
    responses={
        200: {"model": Play, "description": "The round's play, resumed"},
        201: {"model": Play, "description": "The round's play, made now"},
        **error_responses(401, 403, 404, 409),
    },
)
def post_round(
    tournament_id: TournamentId, round_number: RoundNumber, db: DbDep, client: ClientDep
) -> Response:
    """The session's play of a round: 201 when made now, 200 when resumed."""
    play, made = tournament_service.open_round(db, client, tournament_id, round_number)
    return json_response(play, 201 if made else 200)


@router.get(
    "/tournaments/{tournament_id}/replays/{name}/{round_number}",
    responses={
        200: {
            "model": ReplayRecord | ReplayStep,
            "description": "The game record, or with ?step= the board after that many moves",
        },
        **error_responses(403, 404),
    },
)
def get_replay(
    tournament_id: TournamentId,
    name: str,
    round_number: RoundNumber,
    db: DbDep,
    step: Annotated[int | None, Query(ge=0, le=100_000)] = None,
) -> Response:
    """An entrant's round once the tournament is over: its record, or its board at ``step``."""
    return json_response(tournament_service.replay(db, tournament_id, name, round_number, step))


@router.post(
    "/plays/{play_id}/finish",
    responses={200: {"model": FinishedPlay}, **error_responses(403, 404, 409)},
)
def post_finish(play_id: str, body: FinishBody, db: DbDep, client: ClientDep) -> Response:
    """Give up a ranked play: it ends with its running score (no time bonus)."""
    return json_response(tournament_service.finish_play(db, client, play_id, body.n))


@router.get("/top100/{game_id}", responses={200: {"model": Top100}, **error_responses(404)})
def get_top100(
    game_id: str,
    db: DbDep,
    client: ClientDep,
    player: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
) -> Response:
    """The Top 100 of a variant, and the session's player's (or ``player``'s) own line."""
    if game_id not in VARIANTS:
        raise ApiError(
            404,
            "unknown_game",
            N_("the Top 100 is kept for {games}, not {game!r}"),
            params={"games": ", ".join(VARIANTS), "game": game_id},
        )
    with db.read() as conn:
        if player is not None:
            user_id = conn.execute(
                select(users.c.id).where(users.c.name_key == name_key(player))
            ).scalar_one_or_none()
            if user_id is None:
                raise ApiError(
                    404, "not_found", N_("no player is called {name!r}"), params={"name": player}
                )
        else:
            user = current_user(conn, client)
            user_id = user.id if user is not None else None
    board = standings_service.leaderboard(db, game_id, user_id)
    return json_response({**board, "name": get_rules(game_id).name})


def profile(db: Database, name: str) -> dict[str, Any]:
    """A player's rank, points, position, cups and medals per variant, tournaments and stats."""
    with db.read() as conn:
        row = conn.execute(
            select(users.c.id, users.c.name, users.c.guest).where(
                users.c.name_key == name_key(name)
            )
        ).first()
        if row is None:
            raise ApiError(
                404, "not_found", N_("no player is called {name!r}"), params={"name": name}
            )
        variants: dict[str, Any] = {}
        for game_id in VARIANTS:
            line = standings_service.standing_of(conn, game_id, row.id)
            variants[game_id] = {"name": get_rules(game_id).name, "standing": line}
        played = tournament_service.tournaments_of(conn, row.id)
        won = standings_service.medals_of(conn, row.id)
    return {
        "name": row.name,
        "guest": row.guest,
        "variants": variants,
        "tournaments": played,
        "medals": [
            {"game": m.game_id, "day": m.day, "place": m.place, "score": m.score, "time": m.elapsed}
            for m in won
        ],
        "stats": player_stats(db, name),
    }


@router.get("/players/{name}", responses={200: {"model": Profile}, **error_responses(404)})
def get_player(name: str, db: DbDep) -> Response:
    """A player's profile."""
    return json_response(profile(db, name))


# -- pages ---------------------------------------------------------------------------------------

pages = APIRouter(include_in_schema=False)


@pages.get("/tournaments")
def tournaments_page(request: Request) -> Response:
    """Open, running and finished tournaments; make or join one."""
    return _page(request, "tournaments.html")


@pages.get("/tournaments/{tournament_id}")
def tournament_page(request: Request, tournament_id: str, db: DbDep) -> Response:
    """One tournament: its entrants and scores, the rounds to play, the replays once over
    (404 for no such tournament)."""
    known = (
        tournament_id.isascii()
        and tournament_id.isdigit()
        and 1 <= int(tournament_id) <= 2**31 - 1
        and tournament_service.tournament_exists(db, int(tournament_id))
    )
    if not known:
        return not_found_page(request, ("edges.no_tournament", {"id": tournament_id}))
    return _page(request, "tournament.html")


@pages.get("/top100")
def top100_default_page(request: Request) -> Response:
    """The Top 100 of Klondike (draw 3)."""
    return _page(request, "top100.html")


@pages.get("/top100/{game_id}")
def top100_page(request: Request, game_id: str) -> Response:
    """The Top 100 of a variant (404 for a game that has none)."""
    if game_id not in VARIANTS:
        return not_found_page(request, ("edges.no_top100", {"game": game_id}))
    return _page(request, "top100.html")


@pages.get("/players/{name}")
def profile_page(request: Request, name: str, db: DbDep) -> Response:
    """A player's profile (404 for no such player)."""
    if not player_exists(db, name):
        return not_found_page(request, ("edges.no_player", {"name": name}))
    return _page(request, "profile.html")


def install(app: FastAPI) -> None:
    """Add the competition's API and pages to the app, and its hook to ranked plays."""
    app.include_router(router, prefix="/api")
    app.include_router(pages)
    if tournament_service.on_ranked_end not in plays.ranked_end_hooks:
        plays.ranked_end_hooks.append(tournament_service.on_ranked_end)
    if tournament_service.on_ranked_give_up not in plays.ranked_give_up_hooks:
        plays.ranked_give_up_hooks.append(tournament_service.on_ranked_give_up)
    if tournament_service.deal_in_play not in plays.deal_in_play_hooks:
        plays.deal_in_play_hooks.append(tournament_service.deal_in_play)
