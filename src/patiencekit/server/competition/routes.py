"""The competition's API (``/api/tournaments``, ``/api/top100``, ``/api/players``, giving up a
ranked play) and its pages; :func:`install` adds them to the app."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from patiencekit.games import get_rules
from patiencekit.server import plays
from patiencekit.server.accounts import current_user, name_key
from patiencekit.server.competition import standings as standings_service
from patiencekit.server.competition import tournaments as tournament_service
from patiencekit.server.competition.scoring import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, VARIANTS
from patiencekit.server.db import Database, users
from patiencekit.server.deps import ClientDep, DbDep, json_response
from patiencekit.server.errors import ApiError
from patiencekit.server.pages import _page
from patiencekit.server.stats import player_stats

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


router = APIRouter()


@router.get("/tournaments")
def get_tournaments(
    db: DbDep,
    client: ClientDep,
    game: Annotated[str | None, Query(max_length=40)] = None,
    status: Annotated[str | None, Query(pattern="^(open|running|finished)$")] = None,
) -> Response:
    """The newest tournaments (50), open ones first."""
    return json_response(tournament_service.list_tournaments(db, client, game, status))


@router.post("/tournaments", status_code=201)
def post_tournament(body: NewTournament, db: DbDep, client: ClientDep) -> Response:
    """Make an open tournament; its maker is its first entrant."""
    tid = tournament_service.create_tournament(db, client, body.game, body.size)
    return json_response(tournament_service.tournament_json(db, client, tid), 201)


@router.get("/tournaments/{tournament_id}")
def get_tournament(tournament_id: TournamentId, db: DbDep, client: ClientDep) -> Response:
    """A tournament: entrants, rounds played, scores; places and deals once it is over."""
    return json_response(tournament_service.tournament_json(db, client, tournament_id))


@router.post("/tournaments/{tournament_id}/join")
def post_join(tournament_id: TournamentId, db: DbDep, client: ClientDep) -> Response:
    """Join an open tournament (it starts when this fills it)."""
    tournament_service.join_tournament(db, client, tournament_id)
    return json_response(tournament_service.tournament_json(db, client, tournament_id))


@router.post("/tournaments/{tournament_id}/leave")
def post_leave(tournament_id: TournamentId, db: DbDep, client: ClientDep) -> Response:
    """Leave a tournament that has not started (the last one out removes it)."""
    removed = tournament_service.leave_tournament(db, client, tournament_id)
    return json_response({"left": True, "removed": removed})


@router.post("/tournaments/{tournament_id}/rounds/{round_number}/play")
def post_round(
    tournament_id: TournamentId, round_number: RoundNumber, db: DbDep, client: ClientDep
) -> Response:
    """The session's play of a round: 201 when made now, 200 when resumed."""
    play, made = tournament_service.open_round(db, client, tournament_id, round_number)
    return json_response(play, 201 if made else 200)


@router.get("/tournaments/{tournament_id}/replays/{name}/{round_number}")
def get_replay(
    tournament_id: TournamentId,
    name: str,
    round_number: RoundNumber,
    db: DbDep,
    step: Annotated[int | None, Query(ge=0, le=100_000)] = None,
) -> Response:
    """An entrant's round once the tournament is over: its record, or its board at ``step``."""
    return json_response(tournament_service.replay(db, tournament_id, name, round_number, step))


@router.post("/plays/{play_id}/finish")
def post_finish(play_id: str, body: FinishBody, db: DbDep, client: ClientDep) -> Response:
    """Give up a ranked play: it ends with its running score (no time bonus)."""
    return json_response(tournament_service.finish_play(db, client, play_id, body.n))


@router.get("/top100/{game_id}")
def get_top100(
    game_id: str,
    db: DbDep,
    client: ClientDep,
    player: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
) -> Response:
    """The Top 100 of a variant, and the session's player's (or ``player``'s) own line."""
    if game_id not in VARIANTS:
        known = " and ".join(VARIANTS)
        raise ApiError(404, "unknown_game", f"the Top 100 is kept for {known}, not {game_id!r}")
    with db.read() as conn:
        if player is not None:
            user_id = conn.execute(
                select(users.c.id).where(users.c.name_key == name_key(player))
            ).scalar_one_or_none()
            if user_id is None:
                raise ApiError(404, "not_found", f"no player is called {player!r}")
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
            raise ApiError(404, "not_found", f"no player is called {name!r}")
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


@router.get("/players/{name}")
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
def tournament_page(request: Request, tournament_id: str) -> Response:
    """One tournament: its entrants and scores, the rounds to play, the replays once over."""
    return _page(request, "tournament.html")


@pages.get("/top100")
def top100_default_page(request: Request) -> Response:
    """The Top 100 of Klondike (draw 3)."""
    return _page(request, "top100.html")


@pages.get("/top100/{game_id}")
def top100_page(request: Request, game_id: str) -> Response:
    """The Top 100 of a variant."""
    return _page(request, "top100.html")


@pages.get("/players/{name}")
def profile_page(request: Request, name: str) -> Response:
    """A player's profile."""
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
