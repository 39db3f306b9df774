"""The play API: deals, moves, double-click, undo/redo/restart, ranked games, game over.

Every refused request is checked to change nothing: the play read back afterwards
is the same as before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from patiencekit import new_game

WIN = json.loads((Path(__file__).parent / "data" / "klondike-win.json").read_text())

PLAY_KEYS = {
    "id", "game", "name", "number", "number_text", "ranked", "n", "piles", "legal_moves", "score",
    "time_bonus", "elapsed", "won", "over", "can_undo", "can_redo", "redeals_left", "last",
    "autocomplete", "moves_made", "daily",
}  # fmt: skip


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    assert body["error"]["message"], body
    return body


def _unchanged(api: Any, play: dict[str, Any]) -> None:
    """The play as stored is still ``play`` (apart from the running clock)."""
    now = api.get(f"/api/plays/{play['id']}").json()
    for key in ("n", "piles", "legal_moves", "score", "can_undo", "can_redo", "last", "won"):
        assert now[key] == play[key], key


# -- games and new plays --------------------------------------------------------------


def test_health(api):
    r = api.get("/api/health")
    assert r.status_code == 200 and r.json() == {"ok": True}


def test_games_are_listed_in_the_registry_order(api):
    from patiencekit import GAMES

    r = api.get("/api/games")
    assert r.status_code == 200
    games = r.json()
    assert [g["id"] for g in games] == list(GAMES)
    # the contract's keys (others may be added: tests/server/test_server_games.py)
    assert all({"id", "name", "decks", "rules_text", "winnable_deals"} <= set(g) for g in games)
    klondike = games[0]
    assert klondike["name"] == GAMES["klondike"].name and klondike["decks"] == 1
    # how many deals "winnable deals only" draws from: the shipped proved numbers
    from patiencekit.games.winnable_numbers import WINNABLE

    assert {g["id"]: g["winnable_deals"] for g in games} == {
        game_id: len(WINNABLE.get(game_id, ())) for game_id in GAMES
    }
    assert klondike["winnable_deals"] > 100
    assert "foundation" in klondike["rules_text"].lower()


def test_a_new_play_is_the_engines_deal_seen_by_the_player(api, clock):
    play = api.new_play("klondike", 24)
    assert set(play) == PLAY_KEYS
    engine = new_game("klondike", 24)
    assert play["piles"] == engine.view().to_json()["piles"]
    assert play["legal_moves"] == [str(m) for m in engine.legal_moves]
    assert play["game"] == "klondike" and play["number"] == 24 and play["name"] == engine.rules.name
    assert (play["n"], play["score"], play["time_bonus"], play["elapsed"]) == (0, 0, 0, 0)
    assert play["won"] is play["over"] is play["can_undo"] is play["can_redo"] is False
    assert play["ranked"] is False and play["last"] is None and play["daily"] is None
    assert len(play["id"]) == 32 and play["id"] != api.new_play("klondike", 24)["id"]
    # Read back: the same, with the server's clock running.
    clock.advance(7.25)
    again = api.get(f"/api/plays/{play['id']}").json()
    assert again == {**play, "elapsed": 7.25}


def test_unscored_games_have_no_score(api):
    play = api.new_play("patriarchs", 3)
    assert play["score"] is None and play["time_bonus"] is None
    assert play["piles"] == new_game("patriarchs", 3).view().to_json()["piles"]


@pytest.mark.parametrize("game_id", ["klondike", "senior-wrangler", "contradance"])
def test_a_random_deal_when_the_number_is_null(api, game_id):
    numbers = {api.new_play(game_id, None)["number"] for _ in range(3)}
    assert len(numbers) == 3 and all(isinstance(n, int) and n >= 1 for n in numbers)


def test_a_body_is_optional_for_a_new_play(api):
    r = api.post("/api/games/klondike-draw1/play")
    assert r.status_code == 201, r.text
    assert r.json()["game"] == "klondike-draw1"


def test_the_deal_numbers_at_the_ends_of_the_range(api):
    for number in (0, 10**20 - 1):
        play = api.new_play("klondike", number)
        assert play["number"] == number
        assert play["piles"] == new_game("klondike", number).view().to_json()["piles"]


@pytest.mark.parametrize("number", [-1, 10**20, 10**30])
def test_an_out_of_range_deal_number_is_refused(api, number):
    api.session()
    r = api.post("/api/games/klondike/play", {"number": number})
    _error(r, 400, "bad_number")
    # Nothing was made: not even a guest.
    assert api.session()["user"] is None


def test_an_unknown_game_is_refused(api):
    _error(api.post("/api/games/freecell/play", {"number": 1}), 404, "unknown_game")
    assert api.session()["user"] is None


@pytest.mark.parametrize(
    "body",
    [{"number": "24"}, {"number": 2.5}, {"number": True}, {"ranked": "yes"}, [1, 2], "text"],
)
def test_wrong_fields_for_a_new_play_are_refused(api, body):
    _error(api.post("/api/games/klondike/play", body), 422, "bad_request")
    assert api.session()["user"] is None


@pytest.mark.parametrize("text", [b"{", b"{'number': 1}", b"number=1", b"\xff\xfe"])
def test_malformed_json_is_refused(api, text):
    r = api.post(
        "/api/games/klondike/play", content=text, headers={"content-type": "application/json"}
    )
    _error(r, 400, "bad_request")
    assert api.session()["user"] is None


def test_a_guest_keeps_their_play_across_reloads(api, app):
    from fastapi.testclient import TestClient

    assert api.session()["user"] is None
    play = api.new_play("klondike", 24)
    cookie = api.client.cookies.get("pk_session")
    assert cookie
    user = api.session()["user"]
    assert user["guest"] is True and user["name"].startswith("guest-")
    play = api.play_ok(play, "s")
    # A "reload": a new client with only the browser's cookies.
    reloaded = TestClient(app, cookies={"pk_session": cookie})
    r = reloaded.get(f"/api/plays/{play['id']}")
    assert r.status_code == 200 and r.json()["n"] == 1 and r.json()["last"] == "s"


# -- moves ----------------------------------------------------------------------------------


def test_moves_are_checked_and_stored(api, clock):
    play = api.new_play("klondike", 24)
    engine = new_game("klondike", 24)
    for text in ["c3 f", "s", "c4 c2"]:
        clock.advance(1)
        expected = str(engine.play(text))
        play = api.play_ok(play, text)
        assert play["last"] == expected
        assert play["n"] == len(engine.moves)
        assert play["piles"] == engine.view().to_json()["piles"]
        assert play["score"] == engine.score
    assert play["last"] == "c4 c2" and play["elapsed"] == 3
    assert play["can_undo"] and not play["can_redo"]
    assert api.get(f"/api/plays/{play['id']}").json()["n"] == 3


def test_a_bare_f_is_stored_as_the_foundation_it_went_to(api):
    play = api.play_ok(api.new_play("klondike", 24), "c3 f")
    assert play["last"] == "c3 f1"


def test_an_illegal_move_gets_the_engines_reason_and_changes_nothing(api):
    play = api.play_ok(api.new_play("klondike", 24), "s")
    body = _error(api.move(play, "c1 c2"), 400, "illegal_move")
    # the engine's reason (c1 c2: 5C cannot go on 9H: needs an 8 of the other colour) in words
    assert body["error"]["message"] == (
        "The five of clubs can't go on the nine of hearts: it needs a black eight."
    )
    _unchanged(api, play)


@pytest.mark.parametrize("text", ["c1 x9", "hello", "c1 c2 0", "c1 c2 many"])
def test_a_move_that_is_not_in_the_notation_is_refused(api, text):
    play = api.new_play("klondike", 24)
    r = api.move(play, text)
    assert r.status_code == 400 and r.json()["error"]["code"] in ("bad_request", "illegal_move")
    _unchanged(api, play)


@pytest.mark.parametrize(
    "body",
    [{"move": "s"}, {"n": 0}, {"move": "s", "n": "0"}, {"move": "s", "n": -1}, {"move": 3, "n": 0},
     {"move": "", "n": 0}, {"move": "s" * 65, "n": 0}, {"move": "s", "n": 0.0}],
)  # fmt: skip
def test_wrong_move_fields_are_refused(api, body):
    play = api.new_play("klondike", 24)
    _error(api.post(f"/api/plays/{play['id']}/moves", body), 422, "bad_request")
    _unchanged(api, play)


def test_malformed_json_for_a_move_is_refused(api):
    play = api.new_play("klondike", 24)
    r = api.post(
        f"/api/plays/{play['id']}/moves",
        content=b'{"move": "s", "n": 0',
        headers={"content-type": "application/json"},
    )
    _error(r, 400, "bad_request")
    _unchanged(api, play)


@pytest.mark.parametrize("n", [0, 2, 99])
def test_a_stale_move_number_is_a_conflict(api, n):
    play = api.play_ok(api.new_play("klondike", 24), "s")
    assert play["n"] == 1
    body = _error(api.move({**play, "n": n}, "c3 f"), 409, "conflict")
    assert "move 1" in body["error"]["message"]
    _unchanged(api, play)


def test_the_same_move_sent_twice_is_stored_once(api):
    play = api.new_play("klondike", 24)
    assert api.move(play, "s").status_code == 200
    _error(api.move(play, "s"), 409, "conflict")
    assert api.get(f"/api/plays/{play['id']}").json()["n"] == 1


def test_a_move_on_another_players_game_is_forbidden(api, other_api):
    play = api.play_ok(api.new_play("klondike", 24), "s")
    other_api.new_play("klondike", 1)  # the other browser has a session of its own
    _error(other_api.move(play, "c3 f"), 403, "forbidden")
    _error(other_api.get(f"/api/plays/{play['id']}"), 403, "forbidden")
    for action in ("undo", "restart"):
        r = other_api.post(f"/api/plays/{play['id']}/{action}", {"n": 1})
        _error(r, 403, "forbidden")
    _unchanged(api, play)


def test_a_visitor_without_a_session_cannot_touch_a_play(api, other_api):
    play = api.new_play("klondike", 24)
    _error(other_api.get(f"/api/plays/{play['id']}"), 403, "forbidden")
    _error(other_api.move(play, "s"), 403, "forbidden")
    assert other_api.session()["user"] is None  # and no guest was made for it
    _unchanged(api, play)


@pytest.mark.parametrize("play_id", ["0" * 32, "not-a-play", "A" * 32, "0" * 400])
def test_an_unknown_play_is_not_found(api, play_id):
    api.new_play()
    _error(api.get(f"/api/plays/{play_id}"), 404, "not_found")
    _error(api.post(f"/api/plays/{play_id}/moves", {"move": "s", "n": 0}), 404, "not_found")


# -- double-click to a foundation -----------------------------------------------------------


def test_double_click_a_pile_sends_its_card_to_a_foundation(api):
    play = api.new_play("klondike", 24)
    top = play["piles"][[p["label"] for p in play["piles"]].index("c3")]["cards"][-1]
    r = api.post(f"/api/plays/{play['id']}/foundation", {"pile": "c3", "n": 0})
    assert r.status_code == 200, r.text
    assert r.json()["last"] == "c3 f1" and r.json()["n"] == 1
    foundation = r.json()["piles"][[p["label"] for p in play["piles"]].index("f1")]
    assert foundation["cards"] == [top]


def test_double_click_a_card_sends_it_to_a_foundation(api):
    play = api.new_play("klondike", 24)
    top = play["piles"][[p["label"] for p in play["piles"]].index("c3")]["cards"][-1]
    r = api.post(f"/api/plays/{play['id']}/foundation", {"card": top.lower(), "n": 0})
    assert r.status_code == 200, r.text
    assert r.json()["last"] == "c3 f1"


def test_double_click_with_no_foundation_taking_the_card(api):
    play = api.new_play("klondike", 24)
    path = f"/api/plays/{play['id']}/foundation"
    body = _error(api.post(path, {"pile": "c1", "n": 0}), 400, "illegal_move")
    assert "c1" in body["error"]["message"]
    _error(api.post(path, {"pile": "z9", "n": 0}), 400, "illegal_move")
    _error(api.post(path, {"card": "zz", "n": 0}), 400, "bad_request")
    _error(api.post(path, {"n": 0}), 422, "bad_request")
    _error(api.post(path, {"pile": "c3", "card": "AC", "n": 0}), 422, "bad_request")
    _error(api.post(path, {"pile": "c3", "n": 5}), 409, "conflict")
    _unchanged(api, play)


# -- undo, redo, restart --------------------------------------------------------------------


def test_undo_redo_and_restart(api):
    play = api.new_play("klondike", 24)
    start = play
    lines = []
    for text in ("s", "c3 f", "s"):
        play = api.play_ok(play, text)
        lines.append(play)
    pid = play["id"]
    r = api.post(f"/api/plays/{pid}/undo", {"n": 3})
    assert r.status_code == 200 and r.json()["n"] == 2 and r.json()["can_redo"]
    assert r.json()["last"] == "c3 f1"
    assert r.json()["piles"] == lines[1]["piles"] and r.json()["score"] == lines[1]["score"]
    r = api.post(f"/api/plays/{pid}/redo", {"n": 2})
    assert r.status_code == 200 and r.json()["n"] == 3 and not r.json()["can_redo"]
    assert r.json()["piles"] == play["piles"]
    r = api.post(f"/api/plays/{pid}/restart", {"n": 3})
    assert r.status_code == 200
    restarted = r.json()
    assert restarted["n"] == 0 and restarted["can_redo"] and not restarted["can_undo"]
    assert restarted["piles"] == start["piles"] and restarted["score"] == 0
    # A restart is a series of undos: the moves can be redone one by one.
    r = api.post(f"/api/plays/{pid}/redo", {"n": 0})
    assert r.status_code == 200 and r.json()["last"] == "s" and r.json()["n"] == 1
    # A new move drops what was left to redo.
    after = api.play_ok(r.json(), "c3 f")
    assert not after["can_redo"]
    _error(api.post(f"/api/plays/{pid}/redo", {"n": 2}), 400, "illegal_move")


def test_undo_restores_the_score_exactly(api):
    play = api.new_play("klondike", 24)
    moved = api.play_ok(play, "c3 f")
    assert moved["score"] > 0
    r = api.post(f"/api/plays/{play['id']}/undo", {"n": 1})
    assert r.json()["score"] == 0 and r.json()["piles"] == play["piles"]


def test_undo_and_redo_with_nothing_to_take_back(api):
    play = api.new_play("klondike", 24)
    _error(api.post(f"/api/plays/{play['id']}/undo", {"n": 0}), 400, "illegal_move")
    _error(api.post(f"/api/plays/{play['id']}/redo", {"n": 0}), 400, "illegal_move")
    r = api.post(f"/api/plays/{play['id']}/restart", {"n": 0})
    assert r.status_code == 200 and r.json()["n"] == 0
    _unchanged(api, play)


@pytest.mark.parametrize("action", ["undo", "redo", "restart"])
def test_undo_redo_restart_check_the_move_number(api, action):
    play = api.play_ok(api.new_play("klondike", 24), "s")
    _error(api.post(f"/api/plays/{play['id']}/{action}", {"n": 0}), 409, "conflict")
    _error(api.post(f"/api/plays/{play['id']}/{action}", {}), 422, "bad_request")
    _unchanged(api, play)


# -- ranked games -------------------------------------------------------------------------


def test_guests_cannot_play_ranked_games(api):
    _error(api.post("/api/games/klondike/play", {"ranked": True}), 401, "unauthorized")
    assert api.session()["user"] is None


def test_ranked_games_have_no_undo_redo_or_restart(api):
    assert api.signup("ranked_player").status_code == 201
    play = api.new_play("klondike", 24, ranked=True)
    assert play["ranked"] is True and play["can_undo"] is False
    play = api.play_ok(play, "c3 f")
    assert play["can_undo"] is False and play["can_redo"] is False
    for action in ("undo", "redo", "restart"):
        body = _error(api.post(f"/api/plays/{play['id']}/{action}", {"n": 1}), 403, "forbidden")
        assert "ranked" in body["error"]["message"]
    _unchanged(api, play)


# -- the end of a game --------------------------------------------------------------------


def test_a_won_game_with_the_servers_time_bonus(api, clock):
    play = api.new_play("klondike", WIN["number"])
    for text in WIN["moves"]:
        clock.advance(1.0)
        play = api.play_ok(play, text)
    assert play["won"] and play["over"] and play["legal_moves"] == []
    seconds = len(WIN["moves"])
    assert play["elapsed"] == seconds
    assert play["time_bonus"] == 1000 - seconds
    assert play["score"] == WIN["result"]["score"] + 1000 - seconds
    # The clock stopped at the winning move.
    clock.advance(500)
    again = api.get(f"/api/plays/{play['id']}").json()
    assert again["elapsed"] == seconds and again["score"] == play["score"]
    # No move after the win.
    _error(api.move(again, "s"), 409, "game_over")
    r = api.post(f"/api/plays/{play['id']}/foundation", {"pile": "w", "n": again["n"]})
    _error(r, 409, "game_over")
    _unchanged(api, again)


def test_a_game_with_no_move_left_is_over(api):
    # Klondike deal 10 has no move at all but turning the stock round and round. The
    # player is told so once they have seen every stock card (before, any hidden card could
    # still come up and play: "no moves left" follows from what the player sees).
    play = api.new_play("klondike", 10)
    for _ in range(7):
        play = api.play_ok(play, "s")
        assert not play["over"]
    play = api.play_ok(play, "s")
    assert play["over"] and not play["won"] and play["legal_moves"] == []
    body = _error(api.move(play, "t"), 409, "game_over")
    assert "no move is left" in body["error"]["message"]
    _unchanged(api, play)


def test_a_casual_game_that_is_over_can_be_undone(api):
    play = api.new_play("patiencemax", 4)
    for text in ["c1 c3", "c4 c6", "c1 c4", "c4 c10 2"]:
        play = api.play_ok(play, text)
    assert play["over"] and not play["won"]
    _error(api.move(play, "c1 c2"), 409, "game_over")
    r = api.post(f"/api/plays/{play['id']}/undo", {"n": 4})
    assert r.status_code == 200 and not r.json()["over"] and r.json()["legal_moves"]
