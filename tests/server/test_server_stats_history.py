"""Statistics you can see: "played" counts ended plays only, a game's charts
(``GET /api/stats/{name}/charts/{game}``), the history of a player's games
(``GET /api/stats/{name}/history``) and their replays (``GET /api/plays/{id}/replay``); who
sees which deal numbers and replays (RULES.md, "Fair competition"). On SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from competition_helpers import add_player, error, give_up, play_line, play_round, scoring_line
from ranked_helpers import Recorder, deal_of, numbers_dealing, ranked_play

from patiencekit import new_game
from patiencekit.server.housekeeping import housekeeping
from patiencekit.server.play import service as plays_module

WIN = json.loads((Path(__file__).parent / "data" / "klondike-win.json").read_text())


def win(api: Any, clock: Any, dt: float = 1.0, last: bool = True) -> dict[str, Any]:
    """Deal 1 of Klondike won, ``dt`` seconds a move (or all its moves but the last)."""
    clock.advance(1)
    play = api.new_play("klondike", WIN["number"])
    for text in WIN["moves"] if last else WIN["moves"][:-1]:
        clock.advance(dt)
        play = api.play_ok(play, text)
    assert play["won"] is last
    return play


def start(api: Any, clock: Any, game: str = "klondike", number: int = 24) -> dict[str, Any]:
    """A new casual play with one move ("s"), a second after the deal."""
    clock.advance(1)
    play = api.new_play(game, number)
    clock.advance(1)
    return api.play_ok(play, "s")


def played(api: Any, name: str, game: str = "klondike") -> int:
    n: int = api.get(f"/api/stats/{name}").json()[game]["played"]
    return n


def history(api: Any, name: str, query: str = "") -> dict[str, Any]:
    r = api.get(f"/api/stats/{name}/history{query}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def charts(api: Any, name: str, game: str = "klondike") -> dict[str, Any]:
    r = api.get(f"/api/stats/{name}/charts/{game}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def counted(api: Any, name: str) -> tuple[int, int, int]:
    """Klondike's plays as the statistics, the charts and the history count them."""
    return (
        played(api, name),
        charts(api, name)["played"],
        history(api, name, "?game=klondike")["total"],
    )


# -- "played" --------------------------------------------------------------------------------


@pytest.mark.no_periodic_task
def test_a_game_in_progress_is_counted_once_it_ends(api, app, clock):
    assert api.signup("Ida").status_code == 201
    # A casual game: not counted while it is played, counted once it is won.
    play = win(api, clock, last=False)
    assert play["n"] == len(WIN["moves"]) - 1
    assert counted(api, "ida") == (0, 0, 0)
    play = api.play_ok(play, WIN["moves"][-1])
    assert play["won"]
    assert counted(api, "ida") == (1, 1, 1)
    # Another, left for a new deal: abandoned, it counts from then on.
    start(api, clock)
    assert counted(api, "ida") == (1, 1, 1)
    clock.advance(1)
    fresh = api.new_play("klondike", 25)  # dealt, no move: not a game played yet
    assert counted(api, "ida") == (2, 2, 2)
    assert history(api, "ida")["games"][0]["result"] == "abandoned"
    # A ranked game: counted once the server ends it (given up).
    ranked = ranked_play(api, "klondike", 10**19 + 5)
    line, running = scoring_line("klondike", 10**19 + 5, 2)
    ranked = play_line(api, ranked, line, clock, 1.0)
    assert counted(api, "ida") == (2, 2, 2)
    clock.advance(2)
    give_up(api, ranked)
    assert counted(api, "ida") == (3, 3, 3)
    newest = history(api, "ida")["games"][0]
    assert (newest["result"], newest["score"]) == ("given_up", running)
    assert newest["time"] == pytest.approx(len(line) + 2.0)
    # A ranked game left for a day: the housekeeping ends it, and it counts.
    idle = ranked_play(api, "klondike", 10**19 + 6)
    play_line(api, idle, ["s"], clock, 1.0)
    assert counted(api, "ida") == (3, 3, 3)
    clock.advance(plays_module.RANKED_IDLE_SECONDS + 1)
    assert housekeeping(app.state.db, clock.now).ranked_ended == 1
    assert counted(api, "ida") == (4, 4, 4)
    assert history(api, "ida")["games"][0]["result"] == "given_up"
    # The casual deal without a move was left behind by the ranked games: still not played.
    assert all(g["id"] != fresh["id"] for g in history(api, "ida")["games"])
    stats = api.get("/api/stats/ida").json()["klondike"]
    assert (stats["won"], stats["streak"], stats["best_streak"]) == (1, 0, 1)


# -- charts ----------------------------------------------------------------------------------


def test_the_charts_have_a_point_per_ended_play(api, clock):
    assert api.signup("Joy").status_code == 201
    start(api, clock)  # abandoned
    first = win(api, clock, 1.0)
    second = win(api, clock, 2.0)
    start(api, clock)  # abandoned
    third = win(api, clock, 1.5)
    start(api, clock)  # in progress: not on the charts
    body = charts(api, "JOY")
    facts = (body["game"], body["player"], body["window"], body["played"])
    assert facts == ("klondike", "Joy", 10, 5)
    points = body["points"]
    assert [p["n"] for p in points] == [1, 2, 3, 4, 5]
    assert [p["result"] for p in points] == ["abandoned", "won", "won", "abandoned", "won"]
    assert [p["rate"] for p in points] == [0.0, 0.5, round(2 / 3, 4), 0.5, 0.6]
    assert [p["streak"] for p in points] == [0, 1, 2, 0, 1]
    wins = [first, second, third]
    assert [p["score"] for p in points if p["score"] is not None] == [w["score"] for w in wins]
    assert [p["time"] for p in points if p["time"] is not None] == [w["elapsed"] for w in wins]
    assert [w["elapsed"] for w in wins] == [124.0, 248.0, 186.0]
    assert points == sorted(points, key=lambda p: p["at"])
    assert body["stats"] == api.get("/api/stats/joy").json()["klondike"]
    assert body["stats"]["played"] == 5 and body["stats"]["streak"] == 1
    # Other games have no point; an unknown game or player is not found.
    assert charts(api, "joy", "patriarchs")["points"] == []
    error(api.get("/api/stats/joy/charts/nothing"), 404, "unknown_game")
    error(api.get("/api/stats/nobody_here/charts/klondike"), 404, "not_found")


@pytest.mark.no_periodic_task
def test_the_score_chart_has_every_ended_play_of_a_scored_game(api, clock):
    """``final_score``: a win's score, a ranked result's, a casual play's running score at its
    last move (replayed, and replayed again once it moved on); the history says the same."""
    assert api.signup("Kit").status_code == 201
    line, running = scoring_line("klondike", 24, 2)
    assert running > 0
    lost = play_line(api, api.new_play("klondike", 24), line, clock, 1.0)  # abandoned below
    won = win(api, clock)
    ranked = ranked_play(api, "klondike", 10**19 + 5)
    ranked_line, ranked_score = scoring_line("klondike", 10**19 + 5, 3)
    ranked = play_line(api, ranked, ranked_line, clock, 1.0)
    clock.advance(1)
    give_up(api, ranked)
    start(api, clock)  # in progress: not on the charts
    points = charts(api, "kit")["points"]
    assert [p["result"] for p in points] == ["abandoned", "won", "given_up"]
    assert [p["final_score"] for p in points] == [running, won["score"], ranked_score]
    assert [p["score"] for p in points] == [None, won["score"], None]  # a win's, as before
    games = history(api, "kit", "?game=klondike")["games"]
    assert [g["score"] for g in reversed(games)] == [p["final_score"] for p in points]
    # The abandoned play taken up again: a move more, a new running score on the chart.
    more, more_score = scoring_line("klondike", 24, 3)
    assert more[: len(line)] == line and more_score > running
    play_line(api, lost, more[len(line) :], clock, 1.0)
    assert charts(api, "kit")["points"][0]["final_score"] == more_score
    # A game without a score has none, won or not.
    start(api, clock, "patriarchs")
    start(api, clock, "patriarchs")
    assert [p["final_score"] for p in charts(api, "kit", "patriarchs")["points"]] == [None]


# -- history and replays ---------------------------------------------------------------------


def test_the_history_is_paged_newest_first_and_the_owners_own(api, other_api, clock):
    assert api.signup("Kai").status_code == 201
    left = start(api, clock)  # abandoned for the win
    won = win(api, clock)
    unscored = start(api, clock, "patriarchs", 3)  # abandoned for the next
    start(api, clock, "patriarchs", 4)  # in progress
    page = history(api, "kai")
    assert (page["player"], page["game"], page["total"], page["offset"], page["limit"]) == (
        "Kai", None, 3, 0, 20
    )  # fmt: skip
    assert [g["id"] for g in page["games"]] == [unscored["id"], won["id"], left["id"]]
    p, w, a = page["games"]
    assert (p["game"], p["result"], p["score"], p["moves"], p["number"]) == (
        "patriarchs", "abandoned", None, 1, 3
    )  # fmt: skip
    assert (p["time"], p["ranked"], p["tournament"], p["round"]) == (1.0, False, None, None)
    assert w == {
        "id": won["id"],
        "game": "klondike",
        "name": won["name"],
        "ranked": False,
        "tournament": None,
        "round": None,
        "number": WIN["number"],
        "number_text": str(WIN["number"]),
        "started_at": w["started_at"],
        "finished_at": w["started_at"] + 124.0,
        "result": "won",
        "score": won["score"],
        "time": 124.0,
        "moves": len(WIN["moves"]),
        "replay": f"/api/plays/{won['id']}/replay",
    }
    assert (a["result"], a["score"], a["moves"], a["time"]) == ("abandoned", left["score"], 1, 1.0)
    assert a["finished_at"] == a["started_at"] + 1.0  # its last move
    # Pages, a game's only, and the limits.
    assert [g["id"] for g in history(api, "kai", "?limit=2")["games"]] == [p["id"], w["id"]]
    rest = history(api, "kai", "?limit=2&offset=2")
    assert [g["id"] for g in rest["games"]] == [a["id"]] and rest["total"] == 3
    only = history(api, "kai", "?game=klondike")
    assert only["game"] == "klondike" and [g["id"] for g in only["games"]] == [w["id"], a["id"]]
    assert history(api, "kai", "?offset=9")["games"] == []
    error(api.get("/api/stats/kai/history?game=nothing"), 404, "unknown_game")
    error(api.get("/api/stats/nobody_here/history"), 404, "not_found")
    for bad in ("?limit=0", "?limit=51", "?offset=-1", "?game="):
        error(api.get(f"/api/stats/kai/history{bad}"), 422, "bad_request")
    # Anyone sees the history, as the statistics; not the plays' ids, deals or replays.
    theirs = history(other_api, "kai")
    hidden = {"id": None, "number": None, "number_text": None, "replay": None}
    assert theirs["games"] == [{**g, **hidden} for g in page["games"]]


def test_a_replay_steps_through_the_owners_play(api, other_api, clock):
    assert api.signup("Lee").status_code == 201
    won = win(api, clock)
    r = api.get(f"/api/plays/{won['id']}/replay")
    assert r.status_code == 200, r.text
    record = r.json()
    assert (record["game"], record["number"], record["number_text"]) == ("klondike", 1, "1")
    g = new_game("klondike", 1)
    for text in WIN["moves"]:
        g.play(text)
    assert record["moves"] == [str(m) for m in g.moves]  # as played: "c3 f1" for "c3 f"
    assert (record["id"], record["ranked"]) == (won["id"], False)
    assert record["times"] == [float(k) for k in range(1, len(WIN["moves"]) + 1)]
    steps = len(record["moves"])
    deal = api.get(f"/api/plays/{won['id']}/replay?step=0").json()
    assert deal["piles"] == new_game("klondike", 1).view().to_json()["piles"]
    assert (deal["step"], deal["steps"], deal["last"], deal["won"]) == (0, steps, None, False)
    one = api.get(f"/api/plays/{won['id']}/replay?step=1").json()
    g = new_game("klondike", 1)
    g.play(record["moves"][0])
    assert one["piles"] == g.view().to_json()["piles"] and one["last"] == record["moves"][0]
    assert one["score"] == g.base_score and one["number_text"] == "1"
    end = api.get(f"/api/plays/{won['id']}/replay?step={steps}").json()
    assert end["won"] and end["step"] == steps
    error(api.get(f"/api/plays/{won['id']}/replay?step={steps + 1}"), 404, "not_found")
    error(api.get(f"/api/plays/{won['id']}/replay?step=-1"), 422, "bad_request")
    # The owner's only.
    error(other_api.get(f"/api/plays/{won['id']}/replay"), 403, "forbidden")
    error(other_api.get(f"/api/plays/{won['id']}/replay?step=1"), 403, "forbidden")
    error(api.get(f"/api/plays/{'0' * 32}/replay"), 404, "not_found")
    error(api.get("/api/plays/not-an-id/replay"), 404, "not_found")
    # A casual line with an undo: the line as it stands, each move's time in it.
    play = start(api, clock)
    clock.advance(1)
    play = api.play_ok(play, "s")
    clock.advance(1)
    assert api.post(f"/api/plays/{play['id']}/undo", {"n": play["n"]}).status_code == 200
    clock.advance(1)
    play = api.get(f"/api/plays/{play['id']}").json()
    play = api.play_ok(play, "s")
    record = api.get(f"/api/plays/{play['id']}/replay").json()
    assert record["moves"] == ["s", "s"] and record["times"] == [1.0, 4.0]


@pytest.mark.no_periodic_task
def test_ranked_games_in_the_history_reveal_nothing_before_their_time(app, make_api, clock):
    ann = add_player(app, make_api, "ann")
    bob = add_player(app, make_api, "bob")
    guest = make_api()
    readers = [Recorder(ann), Recorder(bob), Recorder(guest)]

    def read_all(play_ids: list[str]) -> None:
        for rec in readers:
            for path in ("", "/history", "/charts/klondike"):
                assert rec.get(f"/api/stats/ann{path}").status_code == 200
            for play_id in play_ids:
                rec.get(f"/api/plays/{play_id}/replay")
                rec.get(f"/api/plays/{play_id}/replay?step=1")

    # A ranked single game: in nobody's history while it runs, and no replay.
    number = 10**19 + 4321
    play = ranked_play(ann, "klondike", number)
    seen = [p["cards"] for p in play["piles"]]
    line, _ = scoring_line("klondike", number, 3)
    play = play_line(ann, play, line, clock, 1.0)
    read_all([play["id"]])
    error(ann.get(f"/api/plays/{play['id']}/replay"), 403, "forbidden")
    texts = [text for rec in readers for text in rec.texts]
    assert numbers_dealing("klondike", seen, texts) == set()
    assert numbers_dealing("klondike", seen, [*texts, f"{number}"]) == {number}  # can fail
    assert history(ann, "ann")["total"] == 0
    # Ended: its owner sees its deal and replay, nobody else does.
    clock.advance(1)
    give_up(ann, play)
    mine = history(ann, "ann")["games"][0]
    assert (mine["id"], mine["result"], mine["number"]) == (play["id"], "given_up", number)
    assert mine["number_text"] == str(number)
    assert mine["replay"] == f"/api/plays/{play['id']}/replay"
    record = ann.get(mine["replay"]).json()
    assert record["moves"] == line and record["number_text"] == str(number) and record["ranked"]
    for other in (bob, guest):
        theirs = history(other, "ann")["games"][0]
        assert (theirs["id"], theirs["number"], theirs["replay"]) == (None, None, None)
        error(other.get(f"/api/plays/{play['id']}/replay"), 403, "forbidden")
    # A tournament round: in the history once ended, its deal and replay nobody's until the
    # tournament is over, then everyone's (the tournament's replay).
    tid = ann.post("/api/tournaments", {"game": "klondike", "size": 2}).json()["id"]
    assert bob.post(f"/api/tournaments/{tid}/join").status_code == 200
    done, _score, _time = play_round(ann, tid, 1, 2, clock)
    round_play = done["id"]
    deal = deal_of(app, round_play)
    read_all([round_play])
    error(ann.get(f"/api/plays/{round_play}/replay"), 403, "forbidden")
    entry = history(ann, "ann")["games"][0]
    assert (entry["tournament"], entry["round"], entry["result"]) == (tid, 1, "given_up")
    assert (entry["id"], entry["number"], entry["replay"]) == (round_play, None, None)
    texts = [text for rec in readers for text in rec.texts]
    deal_seen = [p["cards"] for p in new_game("klondike", deal).view().to_json()["piles"]]
    assert numbers_dealing("klondike", deal_seen, texts) == set()
    assert all(str(deal) not in text for text in texts)
    # The tournament ends: the round's deal and replay are everyone's.
    for player, rounds in ((ann, (2, 3)), (bob, (1, 2, 3))):
        for rnd in rounds:
            play_round(player, tid, rnd, 1, clock)
    assert ann.get(f"/api/tournaments/{tid}").json()["status"] == "finished"
    replay = f"/api/tournaments/{tid}/replays/ann/1"
    for reader in (ann, bob, guest):
        rows = [g for g in history(reader, "ann")["games"] if g["tournament"] == tid]
        assert [g["round"] for g in rows] == [3, 2, 1]
        assert (rows[-1]["number"], rows[-1]["replay"]) == (deal, replay)
        assert reader.get(replay).json()["moves"] == ann.get(replay).json()["moves"]
    # (the round's own replay stays the tournament's)
    error(ann.get(f"/api/plays/{round_play}/replay"), 403, "forbidden")


# -- the schema ------------------------------------------------------------------------------


def test_the_answers_fit_the_schema(app, api, other_api, clock):
    assert api.signup("Max").status_code == 201
    start(api, clock)
    won = win(api, clock)
    start(api, clock, "patriarchs", 3)
    start(api, clock, "patriarchs", 4)
    schema = app.openapi()
    hist = "/api/stats/{name}/history"
    answers = [
        (hist, api.get("/api/stats/max/history")),
        (hist, other_api.get("/api/stats/max/history?limit=1&game=klondike")),
        ("/api/stats/{name}/charts/{game_id}", api.get("/api/stats/max/charts/klondike")),
        ("/api/stats/{name}/charts/{game_id}", api.get("/api/stats/max/charts/patriarchs")),
        ("/api/plays/{play_id}/replay", api.get(f"/api/plays/{won['id']}/replay")),
        ("/api/plays/{play_id}/replay", api.get(f"/api/plays/{won['id']}/replay?step=3")),
        ("/api/plays/{play_id}/replay", other_api.get(f"/api/plays/{won['id']}/replay")),
        (hist, api.get("/api/stats/max/history?limit=99")),
        ("/api/stats/{name}/charts/{game_id}", api.get("/api/stats/max/charts/nothing")),
    ]
    wrong = []
    for path, r in answers:
        declared = schema["paths"][path]["get"]["responses"].get(str(r.status_code))
        assert declared is not None, f"{path}: {r.status_code} is not declared"
        body = declared["content"]["application/json"]["schema"]
        root = {**body, "components": schema["components"]}
        wrong += [
            f"{path} {r.status_code} at {list(e.absolute_path)}: {e.message}"
            for e in jsonschema.Draft202012Validator(root).iter_errors(r.json())
        ]
    assert [r.status_code for _, r in answers] == [200] * 6 + [403, 422, 404]
    assert wrong == []
