"""The browser pages: plain HTML files from ``static/``, each served with a CSRF cookie."""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, HTMLResponse
from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles

from patiencekit.errors import UnknownGameError
from patiencekit.games import get_rules
from patiencekit.server.deps import ensure_csrf_cookie

__all__ = ["STATIC_DIR", "StaticDir", "router"]

STATIC_DIR = Path(__file__).resolve().parent / "static"

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>PatienceKit</title></head>
<body><h1>PatienceKit</h1><p>{text}</p></body></html>
"""


def _page(request: Request, filename: str, status: int = 200) -> Response:
    path = STATIC_DIR / filename
    response: Response
    if path.is_file():
        response = FileResponse(
            path, status_code=status, media_type="text/html", headers={"cache-control": "no-cache"}
        )
    else:  # the page is not written yet
        response = HTMLResponse(
            _PLACEHOLDER.format(text=html.escape(f"{filename} is coming soon.")),
            status_code=status,
        )
    ensure_csrf_cookie(request, response)
    return response


def _known_game(request: Request, game_id: str) -> Response | None:
    try:
        get_rules(game_id)
    except UnknownGameError:
        response = HTMLResponse(
            _PLACEHOLDER.format(text=html.escape(f"There is no game {game_id!r}.")),
            status_code=404,
        )
        ensure_csrf_cookie(request, response)
        return response
    return None


router = APIRouter(include_in_schema=False)


@router.get("/")
def lobby(request: Request) -> Response:
    """Every game, with its rules and a way to play it."""
    return _page(request, "lobby.html")


@router.get("/rules/{game_id}")
def rules_page(request: Request, game_id: str) -> Response:
    """A game's rules."""
    return _known_game(request, game_id) or _page(request, "rules.html")


@router.get("/play/{game_id}")
def play_page(request: Request, game_id: str) -> Response:
    """A new deal of a game (``?number=N`` for a given deal)."""
    return _known_game(request, game_id) or _page(request, "play.html")


@router.get("/p/{play_id}")
def resume_page(request: Request, play_id: str) -> Response:
    """A play in progress (the page loads it from the API)."""
    return _page(request, "play.html")


@router.get("/stats/{name}")
def stats_page(request: Request, name: str) -> Response:
    """A player's statistics."""
    return _page(request, "stats.html")


@router.get("/signin")
def signin_page(request: Request) -> Response:
    """Sign in."""
    return _page(request, "signin.html")


@router.get("/signup")
def signup_page(request: Request) -> Response:
    """Create an account."""
    return _page(request, "signup.html")


class StaticDir(StaticFiles):
    """``/static/*``: the folder's files; a 404 (not a crash) while the folder is missing."""

    async def check_config(self) -> None:
        if not STATIC_DIR.is_dir():
            raise HTTPException(status_code=404)
        await super().check_config()
