"""Restart is a new attempt at the deal (its clock starts again), and the move counter
(``moves_made``) counts the moves made: an undo does not take one back.

Each check is made on the game this process kept (the fast path) and on the game replayed
from the stored events (another process, or this one after forgetting it), which must agree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from patiencekit.server.play import fastpath

WIN = json.loads((Path(__file__).parent / "data" / "klondike-win.json").read_text())


def _replayed(api: Any, app: Any, play_id: str) -> dict[str, Any]:
    """The play as the stored events replay (the kept game forgotten first)."""
    fastpath.forget(app.state.db, play_id)
    r = api.get(f"/api/plays/{play_id}")
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def _post(api: Any, play: dict[str, Any], action: str) -> dict[str, Any]:
    r = api.post(f"/api/plays/{play['id']}/{action}", {"n": play["n"]})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def test_restart_starts_the_clock_again(api, app, clock):
    play = api.new_play("klondike", WIN["number"])
    clock.advance(500)
    play = api.play_ok(play, WIN["moves"][0])
    assert play["elapsed"] == 500
    clock.advance(40)
    play = _post(api, play, "restart")
    assert play["elapsed"] == 0 and play["n"] == 0 and play["score"] == 0
    clock.advance(7)
    assert api.get(f"/api/plays/{play['id']}").json()["elapsed"] == 7
    assert _replayed(api, app, play["id"])["elapsed"] == 7
    # Won 20 seconds after the restart: the time bonus counts from the restart.
    for move in WIN["moves"]:
        play = api.play_ok(play, move)
    assert play["won"] and play["elapsed"] == 7
    clock.advance(13)
    assert api.get(f"/api/plays/{play['id']}").json()["elapsed"] == 7  # frozen at the win
    won = _replayed(api, app, play["id"])
    assert won["won"] and won["elapsed"] == 7 and won["time_bonus"] == 1000 - 7
    assert won["score"] == play["score"]


def test_a_restart_at_the_deal_changes_nothing_the_clock_included(api, app, clock):
    play = api.new_play("klondike", 24)
    clock.advance(30)
    again = _post(api, play, "restart")
    assert again["elapsed"] == 30 and again["n"] == 0
    assert _replayed(api, app, play["id"])["elapsed"] == 30


def test_undo_and_redo_keep_the_clock_running(api, app, clock):
    play = api.play_ok(api.new_play("klondike", 24), "s")
    clock.advance(12)
    play = _post(api, play, "undo")
    assert play["elapsed"] == 12
    play = _post(api, play, "redo")
    assert play["elapsed"] == 12 and _replayed(api, app, play["id"])["elapsed"] == 12


def test_the_move_counter_counts_moves_made_undo_does_not_take_them_back(api, app):
    play = api.new_play("klondike", 24)
    assert play["moves_made"] == 0
    for move in ("s", "c3 f", "s"):
        play = api.play_ok(play, move)
    assert (play["n"], play["moves_made"]) == (3, 3)
    play = _post(api, play, "undo")
    play = _post(api, play, "undo")
    # n is the current line (what the next action sends); the counter does not go down
    assert (play["n"], play["moves_made"]) == (1, 3)
    play = _post(api, play, "redo")  # a move made again
    assert (play["n"], play["moves_made"]) == (2, 4)
    play = api.play_ok(play, "s")
    assert (play["n"], play["moves_made"]) == (3, 5)
    replayed = _replayed(api, app, play["id"])
    assert (replayed["n"], replayed["moves_made"]) == (3, 5)
    # A restart is a new attempt: its counter starts again, as its clock does.
    play = _post(api, play, "restart")
    assert (play["n"], play["moves_made"]) == (0, 0)
    play = _post(api, play, "redo")
    assert (play["n"], play["moves_made"]) == (1, 1)
    assert _replayed(api, app, play["id"])["moves_made"] == 1


@pytest.mark.parametrize("path", ["foundation", "moves"])
def test_a_double_click_counts_as_a_move_made(api, path):
    play = api.new_play("klondike", 24)
    body = {"pile": "c3", "n": 0} if path == "foundation" else {"move": "c3 f", "n": 0}
    r = api.post(f"/api/plays/{play['id']}/{path}", body)
    assert r.status_code == 200, r.text
    assert r.json()["moves_made"] == 1


def test_a_ranked_play_counts_its_moves_and_still_has_no_restart(api):
    assert api.signup("counted_player").status_code == 201
    play = api.new_play("klondike", 24, ranked=True)
    play = api.play_ok(play, "s")
    assert play["moves_made"] == 1
    r = api.post(f"/api/plays/{play['id']}/restart", {"n": 1})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
