"""Tournaments through the API, with the test's clock and database (SQLite and PostgreSQL).

Every score a test expects is computed by the test with the engine on its own;
the server's answers are compared with it. A running round's deal is never sent
to anyone, so a test reads it where the server keeps it (the tournament's secret
in the database). Each test's tournaments get secrets the test knows
(:func:`pinned_secrets`), so that its deals, and so its scoring lines, are the
same on every run; tests/server/test_competition_fairness.py tests the real ones.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from competition_helpers import (
    add_player,
    deals_of,
    error,
    give_up,
    open_round,
    play_line,
    play_round,
    scoring_line,
    tournament,
)
from ranked_helpers import deal_of
from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from patiencekit import Game, new_game
from patiencekit.server.competition import tournaments as tournament_service
from patiencekit.server.competition.periodic import tick
from patiencekit.server.competition.tables import results, tournaments
from patiencekit.server.play.tables import plays

DAY = 86_400.0
#: a tournament secret whose three Klondike (draw 3) deals the solver won, with the wins
WINS = json.loads((Path(__file__).parent / "data" / "tournament-wins.json").read_text())


@pytest.fixture(autouse=True)
def pinned_secrets(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The secrets the test's tournaments get, in the order they start: the same on every
    run (a test may put its own first)."""
    queue: list[str] = []
    made = 0

    def pinned() -> str:
        nonlocal made
        if queue:
            return queue.pop(0)
        made += 1
        return hashlib.sha256(f"patiencekit test tournament {made}".encode()).hexdigest()

    monkeypatch.setattr(tournament_service, "new_secret", pinned)
    return queue


pytestmark = pytest.mark.no_periodic_task


def new_tournament(api: Any, game: str = "klondike", size: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game}
    if size is not None:
        body["size"] = size
    r = api.post("/api/tournaments", body)
    assert r.status_code == 201, r.text
    t: dict[str, Any] = r.json()
    return t


def join(api: Any, tid: int) -> dict[str, Any]:
    r = api.post(f"/api/tournaments/{tid}/join")
    assert r.status_code == 200, r.text
    t: dict[str, Any] = r.json()
    return t


def by_name(t: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in t["entrants"]}


def top(api: Any, game: str) -> dict[str, dict[str, Any]]:
    r = api.get(f"/api/top100/{game}")
    assert r.status_code == 200, r.text
    return {p["name"]: p for p in r.json()["players"]}


# -- a whole tournament ------------------------------------------------------------------------


def test_a_four_player_tournament_from_creation_to_places_and_cups(
    app, make_api, clock, pinned_secrets
):
    pinned_secrets.append(WINS["secret"])
    ann, bob, cy, di = (add_player(app, make_api, n) for n in ("ann", "bob", "cy", "di"))
    outsider = make_api()
    t = new_tournament(ann)  # the size is 4 unless asked
    tid = t["id"]
    assert (t["size"], t["status"], t["game"], t["rounds"]) == (4, "open", "klondike", 3)
    assert [e["name"] for e in t["entrants"]] == ["ann"]
    assert t["started_at"] is None and t["deadline"] is None and t["deals"] is None
    listed = outsider.get("/api/tournaments?status=open").json()
    assert [(x["id"], x["entrants_count"], x["joined"]) for x in listed] == [(tid, 1, False)]
    assert join(bob, tid)["status"] == "open"
    assert join(cy, tid)["status"] == "open"
    clock.advance(30)
    t = join(di, tid)  # the fourth entrant fills it: it starts
    start = clock.now
    assert t["status"] == "running" and t["started_at"] == start
    assert t["deadline"] == start + DAY and t["deadline_seconds"] == DAY
    assert t["deals"] is None and t["deals_text"] is None  # never shown while it runs
    assert [e["seat"] for e in t["entrants"]] == [1, 2, 3, 4]
    deals = deals_of(app, tid)
    assert [str(n) for n in deals] == WINS["deals"]

    expected = {"ann": 0, "bob": 0, "cy": 0, "di": 0}
    times = {"ann": 0.0, "bob": 0.0, "cy": 0.0, "di": 0.0}
    for rnd in (1, 2, 3):
        number = deals[rnd - 1]
        # ann wins every round (with the solver's line), one second a move.
        play = open_round(ann, tid, rnd)
        assert play["number"] is None and play["ranked"] is True and play["can_undo"] is False
        assert deal_of(app, play["id"]) == number
        win = WINS["wins"][rnd - 1]
        opened = clock.now
        play = play_line(ann, play, win, clock, 1.0)
        seconds = clock.now - opened
        engine = Game.from_record({"game": "klondike", "number": number, "moves": win})
        assert play["won"] and play["over"]
        assert play["score"] == engine.base_score + 1000 - int(seconds)
        expected["ann"] += play["score"]
        times["ann"] += seconds
        # The others make fewer scoring moves and give up.
        for api, k in ((bob, 6), (cy, 3), (di, 0)):
            done, score, seconds = play_round(api, tid, rnd, k, clock)
            assert done["result"]["outcome"] == "gave_up"
            assert done["result"]["score"] == score and done["over"] is True
            assert done["time_bonus"] == 0
            expected[api.name] += score
            times[api.name] += seconds
        t = tournament(outsider, tid)
        if rnd < 3:
            assert t["status"] == "running"
            assert all(e["rounds_played"] == rnd for e in t["entrants"])
            assert t["deals"] is None

    # The last round given up ended the tournament.
    t = tournament(outsider, tid)
    assert t["status"] == "finished" and t["finished_at"] == clock.now
    assert t["deals"] == list(deals) and t["deals_text"] == [str(n) for n in deals]
    assert expected["ann"] > expected["bob"] > expected["cy"] > expected["di"] == 0
    assert [(e["name"], e["place"], e["score"]) for e in t["entrants"]] == [
        (name, place, expected[name]) for place, name in enumerate(["ann", "bob", "cy", "di"], 1)
    ]
    for e in t["entrants"]:
        assert e["time"] == pytest.approx(times[e["name"]], abs=0.01)
        assert [r["status"] for r in e["rounds"]] == ["finished"] * 3
        assert sum(r["score"] for r in e["rounds"]) == e["score"]

    # Cups: one of each of the four places; points are the sums of the rounds.
    board = top(outsider, "klondike")
    assert [name for name in board] == ["ann", "bob", "cy", "di"]
    assert board["ann"]["cups"] == [1, 0, 0, 0] and board["bob"]["cups"] == [0, 1, 0, 0]
    assert board["cy"]["cups"] == [0, 0, 1, 0] and board["di"]["cups"] == [0, 0, 0, 1]
    for name, points in expected.items():
        assert board[name]["points"] == points and board[name]["games"] == 3
        assert board[name]["medals"] == [0, 0, 0, 0, 0]
    assert top(outsider, "klondike-draw1") == {}

    # The profile: the tournament with its place.
    profile = outsider.get("/api/players/cy").json()
    assert [(x["id"], x["place"], x["score"]) for x in profile["tournaments"]] == [
        (tid, 3, expected["cy"])
    ]
    standing = profile["variants"]["klondike"]["standing"]
    assert (standing["position"], standing["cups"]) == (3, [0, 0, 1, 0])

    # Each entrant's replay, now public: the engine replays it to the recorded score.
    record = outsider.get(f"/api/tournaments/{tid}/replays/bob/2").json()
    assert (record["game"], record["number"], record["player"]) == ("klondike", deals[1], "bob")
    assert record["result"]["outcome"] == "gave_up"
    assert Game.from_record(record).base_score == record["result"]["score"]
    assert record["moves"] == scoring_line("klondike", deals[1], 6)[0]
    assert len(record["times"]) == len(record["moves"])
    won = outsider.get(f"/api/tournaments/{tid}/replays/ann/1").json()
    assert Game.from_record(won).is_won() and won["result"]["outcome"] == "won"
    view = outsider.get(f"/api/tournaments/{tid}/replays/bob/2?step=1").json()
    engine = new_game("klondike", deals[1])
    engine.play(record["moves"][0])
    assert view["piles"] == engine.view().to_json()["piles"] and view["step"] == 1
    assert view["steps"] == len(record["moves"]) and view["last"] == record["moves"][0]


def test_places_are_broken_by_total_time_and_exact_ties_share_a_place(app, make_api, clock):
    ann, bob, cy = (add_player(app, make_api, n) for n in ("ann", "bob", "cy"))
    tid = new_tournament(ann, "klondike-draw1", size=3)["id"]
    join(bob, tid)
    join(cy, tid)
    # The same moves on the same deals: the same scores. bob is slower; cy exactly as fast as ann.
    for rnd in (1, 2, 3):
        for api, dt in ((ann, 1.0), (bob, 2.0), (cy, 1.0)):
            play_round(api, tid, rnd, 4, clock, dt)
    t = tournament(ann, tid)
    assert t["status"] == "finished"
    rows = {e["name"]: (e["place"], e["score"], e["time"]) for e in t["entrants"]}
    assert rows["ann"][1] == rows["bob"][1] == rows["cy"][1] > 0
    assert rows["ann"][2] == rows["cy"][2] < rows["bob"][2]
    assert (rows["ann"][0], rows["cy"][0], rows["bob"][0]) == (1, 1, 3)
    assert [e["name"] for e in t["entrants"]] == ["ann", "cy", "bob"]
    board = top(ann, "klondike-draw1")
    assert board["ann"]["cups"] == board["cy"]["cups"] == [1, 0, 0, 0]
    assert board["bob"]["cups"] == [0, 0, 1, 0]


# -- the deadline ------------------------------------------------------------------------------


def test_a_round_not_finished_by_the_deadline_counts_zero(app, make_api, clock):
    ann, bob, cy = (add_player(app, make_api, n) for n in ("ann", "bob", "cy"))
    tid = new_tournament(ann, size=3)["id"]
    join(bob, tid)
    start = clock.now
    join(cy, tid)
    scores = {"ann": 0, "bob": 0, "cy": 0}
    for rnd in (1, 2, 3):
        scores["ann"] += play_round(ann, tid, rnd, 2, clock)[1]
    bob_round1, bob_seconds = play_round(bob, tid, 1, 8, clock)[1:]
    cy_rounds = [play_round(cy, tid, rnd, 1, clock)[1:] for rnd in (1, 2)]
    # bob opens round 2 and plays on; cy never opens round 3.
    play = open_round(bob, tid, 2)
    line, running = scoring_line("klondike", deals_of(app, tid)[1], 5)
    play = play_line(bob, play, line, clock, 1.0)
    assert play["score"] == running > 0
    clock.now = start + DAY + 1  # past the deadline; nobody has told the server yet
    done = give_up(bob, play)
    assert done["result"]["outcome"] == "expired" and done["result"]["score"] == 0
    # That ended the tournament: the deadline has passed.
    t = tournament(ann, tid)
    assert t["status"] == "finished"
    rows = by_name(t)
    assert [r["status"] for r in rows["bob"]["rounds"]] == ["finished", "expired", "waiting"]
    assert [r["score"] for r in rows["bob"]["rounds"]] == [bob_round1, 0, None]
    assert rows["bob"]["score"] == bob_round1
    assert rows["bob"]["time"] == pytest.approx(bob_seconds + 2 * DAY, abs=0.01)
    assert [r["status"] for r in rows["cy"]["rounds"]] == ["finished", "finished", "waiting"]
    assert rows["cy"]["score"] == sum(s for s, _ in cy_rounds)
    assert rows["cy"]["time"] == pytest.approx(sum(t for _, t in cy_rounds) + DAY, abs=0.01)
    assert rows["ann"]["score"] == scores["ann"]
    placed = sorted(rows.values(), key=lambda e: (-e["score"], e["time"]))
    assert [e["place"] for e in placed] == [1, 2, 3]
    # The round that counted 0 added no points.
    board = top(ann, "klondike")
    assert board["bob"]["points"] == bob_round1 and board["bob"]["games"] == 2
    # No more rounds.
    error(bob.post(f"/api/tournaments/{tid}/rounds/3/play"), 409, "tournament_over")
    assert tick(app.state.db, clock.now).tournaments == []  # nothing left to end


def test_the_periodic_task_ends_a_tournament_at_its_deadline(app, make_api, clock):
    ann, bob = (add_player(app, make_api, n) for n in ("ann", "bob"))
    tid = new_tournament(ann, "klondike-draw1", size=2)["id"]
    join(bob, tid)
    start = clock.now
    play = open_round(ann, tid, 1)
    line, _score = scoring_line("klondike-draw1", deal_of(app, play["id"]), 3)
    play = play_line(ann, play, line, clock, 1.0)
    db = app.state.db
    assert tick(db, start + DAY - 0.5).tournaments == []  # not yet
    clock.now = start + DAY
    assert tick(db, clock.now).tournaments == [tid]
    assert tick(db, clock.now).tournaments == []
    # ann's open round ended with the tournament: no more moves, and it counts 0.
    error(ann.move(play, play["legal_moves"][0]), 409, "game_over")
    again = ann.get(f"/api/plays/{play['id']}").json()
    assert again["over"] is True and again["legal_moves"] == []
    t = tournament(bob, tid)
    assert t["status"] == "finished"
    # Nobody finished a round in time: 0 each, the whole time allowed for every round: a tie.
    assert [(e["place"], e["score"], e["time"]) for e in t["entrants"]] == [(1, 0, 3 * DAY)] * 2
    with db.read() as conn:
        row = conn.execute(select(results).where(results.c.play_id == play["id"])).one()
    assert (row.outcome, row.score) == ("expired", 0)


# -- what a player cannot do -------------------------------------------------------------------


def test_nobody_sees_the_deals_before_the_start(app, make_api, clock):
    ann, bob = (add_player(app, make_api, n) for n in ("ann", "bob"))
    outsider = make_api()
    tid = new_tournament(ann, size=2)["id"]
    db = app.state.db
    with db.read() as conn:
        assert (
            conn.execute(select(tournaments.c.deals).where(tournaments.c.id == tid)).scalar()
            is None
        )
    assert error(ann.post(f"/api/tournaments/{tid}/rounds/1/play"), 409, "not_started")
    error(outsider.get(f"/api/tournaments/{tid}/replays/ann/1"), 403, "forbidden")
    join(bob, tid)
    numbers = deals_of(app, tid)  # from the tournament's secret, as the server keeps it
    with db.read() as conn:
        stored = conn.execute(select(tournaments.c.deals).where(tournaments.c.id == tid)).scalar()
    assert stored == " ".join(map(str, numbers))
    # Started: still no deal in any answer about the tournament.
    for api in (ann, bob, outsider):
        text = json.dumps(tournament(api, tid))
        assert not any(str(n) in text for n in numbers)
        text = json.dumps(api.get("/api/tournaments").json())
        assert not any(str(n) in text for n in numbers)
    # ann opens round 1: she sees its cards in her play, never its number; nobody else sees
    # anything of it.
    play = open_round(ann, tid, 1)
    assert play["number"] is None and deal_of(app, play["id"]) == numbers[0]
    assert str(numbers[0]) not in json.dumps(play)
    for api in (bob, outsider):
        text = json.dumps(tournament(api, tid))
        assert play["id"] not in text and str(numbers[0]) not in text
        error(api.get(f"/api/plays/{play['id']}"), 403, "forbidden")
    assert tournament(ann, tid)["me"]["plays"] == {"1": play["id"]}
    error(bob.get(f"/api/tournaments/{tid}/replays/ann/1"), 403, "forbidden")


def test_one_attempt_per_round_in_order_and_no_undo(app, make_api, clock):
    ann, bob, cy = (add_player(app, make_api, n) for n in ("ann", "bob", "cy"))
    tid = new_tournament(ann, size=2)["id"]
    error(cy.post(f"/api/tournaments/{tid}/rounds/1/play"), 403, "forbidden")
    join(bob, tid)
    error(cy.post(f"/api/tournaments/{tid}/join"), 409, "conflict")  # started: full
    error(ann.post(f"/api/tournaments/{tid}/rounds/2/play"), 409, "conflict")  # round 1 first
    error(ann.post(f"/api/tournaments/{tid}/rounds/4/play"), 404, "not_found")
    play = open_round(ann, tid, 1)
    play = play_line(
        ann, play, scoring_line("klondike", deal_of(app, play["id"]), 2)[0], clock, 1.0
    )
    # Opening it again resumes the same play; it is not a new attempt.
    again = open_round(ann, tid, 1, status=200)
    assert again["id"] == play["id"] and again["n"] == play["n"] and again["piles"] == play["piles"]
    for action in ("undo", "redo", "restart"):
        r = ann.post(f"/api/plays/{play['id']}/{action}", {"n": play["n"]})
        assert "ranked" in error(r, 403, "forbidden")
    give_up(ann, play)
    assert "one attempt" in error(
        ann.post(f"/api/tournaments/{tid}/rounds/1/play"), 409, "conflict"
    )
    error(ann.move(play, "s"), 409, "game_over")
    error(ann.post(f"/api/plays/{play['id']}/finish", {"n": play["n"]}), 409, "game_over")
    # The database holds one play per entrant and round, whatever a request tries.
    db = app.state.db
    with db.read() as conn:
        count = conn.execute(
            select(func.count()).where(plays.c.tournament_id == tid, plays.c.round_id == 1)
        ).scalar_one()
        row = conn.execute(select(plays).where(plays.c.id == play["id"])).one()
    assert count == 1
    with pytest.raises(IntegrityError), db.write() as conn:
        values = {c.name: getattr(row, c.name) for c in plays.columns}
        conn.execute(insert(plays).values({**values, "id": "f" * 32}))
    assert deal_of(app, open_round(ann, tid, 2)["id"]) == deals_of(app, tid)[1]


def test_a_player_cannot_post_a_score(app, make_api, clock):
    ann, bob = (add_player(app, make_api, n) for n in ("ann", "bob"))
    tid = new_tournament(ann, size=2)["id"]
    join(bob, tid)
    play = open_round(ann, tid, 1)
    line, score = scoring_line("klondike", deal_of(app, play["id"]), 3)
    for text in line:  # a score sent with a move is ignored
        r = ann.post(
            f"/api/plays/{play['id']}/moves", {"move": text, "n": play["n"], "score": 99_999}
        )
        assert r.status_code == 200, r.text
        play = r.json()
    assert play["score"] == score
    # Giving up takes the moves seen, and nothing else.
    for body in ({"n": play["n"], "score": 99_999}, {"n": play["n"], "result": {"score": 5}}):
        error(ann.post(f"/api/plays/{play['id']}/finish", body), 422, "bad_request")
    for path in ("rounds/1/score", "rounds/1/result", "score"):
        r = ann.post(f"/api/tournaments/{tid}/{path}", {"score": 99_999})
        assert r.status_code in (404, 405), r.text
    assert tournament(ann, tid)["entrants"][0]["rounds"][0]["status"] == "playing"
    done = give_up(ann, play)
    assert done["result"]["score"] == score  # the server's replay of its own log
    assert top(bob, "klondike")["ann"]["points"] == score


# -- making, joining and leaving -----------------------------------------------------------------


def test_making_joining_and_leaving(app, make_api, clock):
    ann, bob = (add_player(app, make_api, n) for n in ("ann", "bob"))
    guest = make_api()
    error(guest.post("/api/tournaments", {"game": "klondike"}), 401, "unauthorized")
    for size in (1, 11):
        error(ann.post("/api/tournaments", {"game": "klondike", "size": size}), 422, "bad_request")
    error(ann.post("/api/tournaments", {"game": "patriarchs"}), 404, "unknown_game")
    error(ann.post("/api/tournaments", {"game": "klondike", "size": "4"}), 422, "bad_request")
    t10 = new_tournament(ann, "klondike-draw1", size=10)
    t2 = new_tournament(ann, size=2)
    error(ann.post(f"/api/tournaments/{t2['id']}/join"), 409, "conflict")  # in it already
    error(guest.post(f"/api/tournaments/{t2['id']}/join"), 401, "unauthorized")
    error(bob.post("/api/tournaments/999/join"), 404, "not_found")
    listed = bob.get("/api/tournaments").json()
    assert [x["id"] for x in listed] == [t2["id"], t10["id"]]
    assert bob.get("/api/tournaments?game=klondike-draw1").json()[0]["id"] == t10["id"]
    assert ann.get("/api/tournaments").json()[0]["joined"] is True
    error(bob.get("/api/tournaments?status=won"), 422, "bad_request")
    # Leaving an open tournament; the last one out removes it.
    assert join(bob, t10["id"])["entrants_count"] == 2
    assert bob.post(f"/api/tournaments/{t10['id']}/leave").json() == {
        "left": True,
        "removed": False,
    }
    assert ann.post(f"/api/tournaments/{t10['id']}/leave").json() == {"left": True, "removed": True}
    error(bob.get(f"/api/tournaments/{t10['id']}"), 404, "not_found")
    join(bob, t2["id"])
    error(bob.post(f"/api/tournaments/{t2['id']}/leave"), 409, "conflict")  # started


def test_a_player_waits_in_at_most_five_open_tournaments(app, make_api, clock):
    ann, bob = (add_player(app, make_api, n) for n in ("ann", "bob"))
    mine = [new_tournament(ann, size=2)["id"] for _ in range(5)]
    error(ann.post("/api/tournaments", {"game": "klondike"}), 409, "conflict")
    other = new_tournament(bob, size=3)["id"]
    assert "leave one" in error(ann.post(f"/api/tournaments/{other}/join"), 409, "conflict")
    ann.post(f"/api/tournaments/{mine[0]}/leave")
    assert join(ann, other)["entrants_count"] == 2
    # A tournament that starts no longer counts as waiting.
    join(bob, mine[1])
    new_tournament(ann)
