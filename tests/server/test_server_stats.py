"""Statistics per player and game."""

from __future__ import annotations

import json
from pathlib import Path

from patiencekit import GAMES

WIN = json.loads((Path(__file__).parent / "data" / "klondike-win.json").read_text())
KEYS = {"played", "won", "win_rate", "streak", "best_streak", "best_time", "best_score",
        "fewest_moves"}  # fmt: skip


def _win(api, clock, seconds_per_move: float) -> dict:
    clock.advance(1)
    play = api.new_play("klondike", WIN["number"])
    for text in WIN["moves"]:
        clock.advance(seconds_per_move)
        play = api.play_ok(play, text)
    assert play["won"]
    return play


def _lose(api, clock, game: str = "klondike") -> dict:
    """A play with a move, then left for a new deal (a loss)."""
    clock.advance(1)
    return api.play_ok(api.new_play(game, 24), "s")


def test_a_new_player_has_empty_statistics_for_every_game(api):
    assert api.signup("Pat").status_code == 201
    r = api.get("/api/stats/Pat")
    assert r.status_code == 200
    stats = r.json()
    assert list(stats) == list(GAMES)
    for game_stats in stats.values():
        assert game_stats == {
            "played": 0, "won": 0, "win_rate": 0.0, "streak": 0, "best_streak": 0,
            "best_time": None, "best_score": None, "fewest_moves": None,
        }  # fmt: skip


def test_statistics_count_wins_streaks_and_bests(api, clock):
    assert api.signup("Quinn").status_code == 201
    api.new_play("klondike", 5)  # dealt but never played: not counted
    _lose(api, clock)
    fast = _win(api, clock, 1.0)  # 124 moves, 124 s
    slow = _win(api, clock, 2.0)  # 248 s
    stats = api.get("/api/stats/quinn").json()["klondike"]
    assert set(stats) == KEYS
    assert stats["played"] == 3 and stats["won"] == 2
    assert stats["win_rate"] == round(2 / 3, 4)
    assert stats["streak"] == 2 and stats["best_streak"] == 2
    assert stats["best_time"] == 124.0
    assert stats["best_score"] == fast["score"] > slow["score"]
    assert stats["fewest_moves"] == len(WIN["moves"])
    # A new play in progress does not break the streak; leaving it for another does.
    _lose(api, clock)
    assert api.get("/api/stats/Quinn").json()["klondike"]["streak"] == 2
    _lose(api, clock)
    stats = api.get("/api/stats/Quinn").json()["klondike"]
    # (the newest play is still in progress: it is not counted yet)
    assert stats["streak"] == 0 and stats["best_streak"] == 2 and stats["played"] == 4
    # Other games are counted apart.
    assert api.get("/api/stats/Quinn").json()["klondike-draw1"]["played"] == 0


def test_a_win_stays_a_win_after_an_undo(api, clock):
    assert api.signup("Rosa").status_code == 201
    play = _win(api, clock, 1.0)
    r = api.post(f"/api/plays/{play['id']}/undo", {"n": play["n"]})
    assert r.status_code == 200 and not r.json()["won"]
    stats = api.get("/api/stats/Rosa").json()["klondike"]
    assert stats["won"] == 1 and stats["best_time"] == 124.0


def test_unscored_games_have_no_best_score(api, clock):
    assert api.signup("Sam").status_code == 201
    _lose(api, clock, "klondike-draw1")
    play = api.play_ok(api.new_play("patriarchs", 3), "s")
    assert play["n"] == 1
    # Left for new deals: they end (abandoned) and count.
    clock.advance(1)
    api.new_play("klondike-draw1", 4)
    api.new_play("patriarchs", 4)
    stats = api.get("/api/stats/Sam").json()
    assert stats["patriarchs"]["played"] == 1 and stats["patriarchs"]["best_score"] is None
    assert stats["klondike-draw1"]["played"] == 1


def test_an_unknown_player_is_not_found(api):
    r = api.get("/api/stats/nobody_here")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
