"""The play API: ``POST /api/games/{game_id}/play`` and ``/api/plays/{play_id}...``.

Thin routes over ``service``: each sends its answer as it is (``json_response``); the
``response_model`` of each only publishes the answer's schema (``models``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from patiencekit.i18n import N_
from patiencekit.server.deps import ClientDep, DbDep, json_response, set_session_cookie
from patiencekit.server.errors import ApiError, error_responses
from patiencekit.server.language import scope_language
from patiencekit.server.play import service
from patiencekit.server.play.actions import Action
from patiencekit.server.play.models import (
    Autocompleted,
    FoundationBody,
    Hint,
    MoveBody,
    NewPlay,
    Play,
    SeenBody,
)

__all__ = ["router"]

router = APIRouter()

#: the refusals of every ``/plays/{play_id}`` route: no such play (404), another's (403)
_PLAY = error_responses(403, 404)
#: ... and of an action on it: a refused move (400), a stale ``n`` or a game over (409)
_ACTION = error_responses(400, 403, 404, 409)


@router.post(
    "/games/{game_id}/play",
    status_code=201,
    response_model=Play,
    responses=error_responses(400, 401, 404, 409, 429, 503),
)
def post_play(
    game_id: str,
    db: DbDep,
    client: ClientDep,
    body: Annotated[NewPlay | None, Body()] = None,
) -> Response:
    """Deal a new play (a random number when ``number`` is null; always, for a ranked
    play, and ``give_up`` ends the player's open ranked game of the variant first)."""
    body = body or NewPlay()
    play, token = service.create_play(
        db, client, game_id, body.number, body.ranked, body.winnable, body.give_up
    )
    response = json_response(play, 201)
    if token is not None:
        set_session_cookie(response, token, client)
    return response


@router.post(
    "/plays/{play_id}/hint", response_model=Hint, responses=_PLAY | error_responses(429, 503)
)
def post_hint(play_id: str, request: Request, db: DbDep, client: ClientDep) -> Response:
    """A hint (casual plays only): ``{"hint": "c3 f1" or null, "n": moves, "words": the
    hint in words, in the request's language, or null}``. The solver sees only what the
    player sees, so a hint reveals no hidden card."""
    lang = scope_language(request.scope)
    return json_response(service.play_hint(db, client, play_id, lang))


@router.post(
    "/plays/{play_id}/autocomplete",
    response_model=Autocompleted,
    responses=_ACTION | error_responses(503),
)
def post_autocomplete(play_id: str, body: SeenBody, db: DbDep, client: ClientDep) -> Response:
    """Finish the game (casual or ranked) when what the player sees proves the win: the
    play after it, with ``autocompleted``, the moves played (each stored as a move). 409
    ``no_autocomplete``, changing nothing, when the view proves no win yet. Not counted
    in the hint limit; worked out by the hint workers."""
    return json_response(service.play_autocomplete(db, client, play_id, body.n))


# The routes of playing are ``async``: their database work goes through ``db.run`` (on the
# event loop with SQLite, in the thread pool with PostgreSQL; see Database.run).


@router.get("/plays/{play_id}", response_model=Play, responses=_PLAY)
async def read_play(play_id: str, db: DbDep, client: ClientDep) -> Response:
    """The play as its owner sees it."""
    return json_response(await db.run(service.get_play, db, client, play_id))


@router.post("/plays/{play_id}/moves", response_model=Play, responses=_ACTION)
async def post_move(play_id: str, body: MoveBody, db: DbDep, client: ClientDep) -> Response:
    """Play a move in the notation (``c3 f``, ``w c5``, ``c1 c4 3``, ``s``, ``t``)."""
    action = Action("move", body.n, move=body.move)
    return json_response(await service.act(db, client, play_id, action))


@router.post(
    "/plays/{play_id}/foundation", response_model=Play, responses=_ACTION | error_responses(422)
)
async def post_foundation(
    play_id: str, body: FoundationBody, db: DbDep, client: ClientDep
) -> Response:
    """Send a card (or a pile's top card) to the foundation that takes it."""
    if (body.pile is None) == (body.card is None):
        raise ApiError(422, "bad_request", N_("send either pile or card"))
    action = Action("foundation", body.n, pile=body.pile, card=body.card)
    return json_response(await service.act(db, client, play_id, action))


@router.post("/plays/{play_id}/undo", response_model=Play, responses=_ACTION)
async def post_undo(play_id: str, body: SeenBody, db: DbDep, client: ClientDep) -> Response:
    """Take back the last move (casual games)."""
    return json_response(await service.act(db, client, play_id, Action("undo", body.n)))


@router.post("/plays/{play_id}/redo", response_model=Play, responses=_ACTION)
async def post_redo(play_id: str, body: SeenBody, db: DbDep, client: ClientDep) -> Response:
    """Play again the last move taken back (casual games)."""
    return json_response(await service.act(db, client, play_id, Action("redo", body.n)))


@router.post("/plays/{play_id}/restart", response_model=Play, responses=_ACTION)
async def post_restart(play_id: str, body: SeenBody, db: DbDep, client: ClientDep) -> Response:
    """The same deal from the start (casual games); the moves can be redone."""
    return json_response(await service.act(db, client, play_id, Action("restart", body.n)))
