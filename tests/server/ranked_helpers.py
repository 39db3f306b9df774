"""Ranked deals in tests: the server draws them (a player never chooses one), so a test that
needs a known ranked deal pins the server's draw, and a test reads a running ranked play's
number from the database (the player is never told it)."""

from __future__ import annotations

from typing import Any
from unittest import mock

from sqlalchemy import select

from patiencekit.server import plays as plays_module
from patiencekit.server.db import plays


def ranked_play(
    api: Any, game: str, number: int, *, give_up: bool = False, status: int = 201
) -> Any:
    """Start a ranked play whose deal the server draws as ``number`` (its draw pinned for
    this one request); the answer (the play, or the error body when ``status`` is not 201)."""
    body: dict[str, Any] = {"ranked": True}
    if give_up:
        body["give_up"] = True
    with mock.patch.object(plays_module, "draw_ranked_number", return_value=number):
        r = api.post(f"/api/games/{game}/play", body)
    assert r.status_code == status, r.text
    return r.json()


def deal_of(app: Any, play_id: str) -> int:
    """The deal number of a play, as the server keeps it (never sent for a running ranked
    play)."""
    with app.state.db.read() as conn:
        return int(conn.execute(select(plays.c.number).where(plays.c.id == play_id)).scalar_one())
