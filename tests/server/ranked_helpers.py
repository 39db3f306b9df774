"""Ranked deals in tests: the server draws them (a player never chooses one), so a test that
needs a known ranked deal pins the server's draw, and a test reads a running ranked play's
number from the database (the player is never told it)."""

from __future__ import annotations

import re
from typing import Any
from unittest import mock

from sqlalchemy import select

from patiencekit import new_game
from patiencekit.deals import MAX_GAME_NUMBER
from patiencekit.server.play import service as plays_module
from patiencekit.server.play.tables import plays

DIGITS = re.compile(r"\d+")


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


# -- the cheater's search: every number a browser was sent, dealt ------------------------------


def face_up(game_id: str, number: int) -> list[list[str | None]]:
    """The cards a player sees of deal ``number`` at the start (hidden ones are None)."""
    return [p["cards"] for p in new_game(game_id, number).view().to_json()["piles"]]


def numbers_dealing(game_id: str, seen: list[list[str | None]], texts: list[str]) -> set[int]:
    """Every number written in ``texts`` that deals the face-up cards ``seen``."""
    found = set()
    for n in {int(d) for text in texts for d in DIGITS.findall(text)}:
        if n <= MAX_GAME_NUMBER and face_up(game_id, n) == seen:
            found.add(n)
    return found


class Recorder:
    """Everything a browser is sent: the bodies and headers of every answer."""

    def __init__(self, api: Any) -> None:
        self.api = api
        self.texts: list[str] = []

    def keep(self, r: Any) -> Any:
        self.texts.append(r.text)
        self.texts.extend(f"{k}: {v}" for k, v in r.headers.items())
        return r

    def get(self, path: str) -> Any:
        return self.keep(self.api.get(path))

    def post(self, path: str, body: Any = None) -> Any:
        return self.keep(self.api.post(path, body))

    def play(self, play: dict[str, Any], moves: list[str], clock: Any) -> dict[str, Any]:
        for text in moves:
            clock.advance(1.0)
            r = self.post(f"/api/plays/{play['id']}/moves", {"move": text, "n": play["n"]})
            assert r.status_code == 200, r.text
            play = r.json()
        return play
