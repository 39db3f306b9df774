"""Hints and winnable deals in the web API: the solver on the server, from the player's view."""

from __future__ import annotations

from typing import Any

from patiencekit import new_game
from patiencekit.games.winnable_numbers import WINNABLE


def test_winnable_deal_is_a_proved_number(api):
    r = api.post("/api/games/klondike-draw1/play", {"number": None, "winnable": True})
    assert r.status_code == 201, r.text
    assert r.json()["number"] in WINNABLE["klondike-draw1"]


def test_winnable_is_not_a_json_bool_is_refused(api):
    r = api.post("/api/games/klondike/play", {"winnable": "yes"})
    assert r.status_code in (400, 422), r.text


def test_hint_is_a_legal_move_of_the_play(api):
    play = api.new_play("klondike", 24)
    r = api.post(f"/api/plays/{play['id']}/hint")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    assert body["n"] == 0
    assert body["hint"] in play["legal_moves"]
    # the hint changes nothing
    assert api.get(f"/api/plays/{play['id']}").json()["n"] == 0


def test_hint_is_the_same_for_deals_that_differ_only_in_hidden_cards(api):
    """The server's hint uses the player's view: the engine-level test of this lives in
    tests/test_solver.py; here, the hint matches what the solver gives for the view."""
    from patiencekit.solver import hint

    play = api.new_play("klondike", 24)
    expected = hint(new_game("klondike", 24), seconds=None)
    assert api.post(f"/api/plays/{play['id']}/hint").json()["hint"] == expected


def test_no_hint_in_a_ranked_game_or_on_another_players_play(api, other_api):
    api.signup("hinter")
    ranked = api.new_play("klondike", 1234, ranked=True)
    r = api.post(f"/api/plays/{ranked['id']}/hint")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    casual = api.new_play("klondike", 24)
    r = other_api.post(f"/api/plays/{casual['id']}/hint")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"


def test_hint_on_an_unknown_play_is_not_found(api):
    r = api.post("/api/plays/" + "0" * 32 + "/hint")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
