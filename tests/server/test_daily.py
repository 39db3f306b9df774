"""The daily deal, on SQLite and PostgreSQL, tried as a cheater would: the same deal for every
player of a UTC day (and another the next day, in any process), one attempt per player and
day, no undo or hint, no points, the day's table in order, nothing that deals the face-up
cards before the day is over, the deal and the replays once it is."""

from __future__ import annotations

from typing import Any

import pytest
from api_client import Api
from competition_helpers import SECRET, add_player, error, give_up, play_line, scoring_line
from fastapi.testclient import TestClient
from parallel import at_once
from ranked_helpers import Recorder, deal_of, face_up, numbers_dealing
from sqlalchemy import select

from patiencekit import new_game
from patiencekit.server.app import create_app
from patiencekit.server.competition import daily
from patiencekit.server.competition.periodic import tick
from patiencekit.server.competition.scoring import day_start, utc_day
from patiencekit.server.competition.standings import close_due_days
from patiencekit.server.competition.tables import daily_results, results, standings
from patiencekit.server.play import service as plays_module
from patiencekit.server.play.tables import plays

pytestmark = pytest.mark.no_periodic_task

#: the ranked play's keys (tests/server/test_server_plays.py): a daily play has exactly these
PLAY_KEYS = {
    "id", "game", "name", "number", "number_text", "ranked", "n", "piles", "legal_moves", "score",
    "time_bonus", "elapsed", "won", "over", "can_undo", "can_redo", "redeals_left", "last",
    "autocomplete", "moves_made", "daily",
}  # fmt: skip


def start(api: Any, game: str = "klondike", status: int = 201) -> dict[str, Any]:
    r = api.post(f"/api/daily/{game}/play")
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    return body


def day_of(api: Any, game: str = "klondike", day: str | None = None) -> dict[str, Any]:
    r = api.get(f"/api/daily/{game}" + (f"/{day}" if day else ""))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def pin_deal(monkeypatch: Any, number: int = 132) -> int:
    """Make the server draw ``number`` as the daily deal (a deal whose scoring lines of the
    helpers leave moves to play: on about one random deal in 70 the line of 3 scoring moves
    leaves none, and the play ends by itself)."""
    monkeypatch.setattr(plays_module, "draw_ranked_number", lambda: number)
    return number


def next_day(clock: Any, seconds: float = 1.0) -> str:
    """Move the clock to ``seconds`` after the next UTC midnight; the new day."""
    today = utc_day(clock.now)
    clock.now = day_start(today) + daily.DAY + seconds
    return utc_day(clock.now)


def test_the_same_deal_for_every_player_of_a_day_and_another_the_next_day(app, make_api, clock):
    ann, bob = add_player(app, make_api, "ann"), add_player(app, make_api, "bob")
    day = utc_day(clock.now)
    a, b = start(ann), start(bob)
    assert a["id"] != b["id"]
    deal = deal_of(app, a["id"])
    assert deal_of(app, b["id"]) == deal and a["piles"] == b["piles"]
    first = plays_module.RANKED_FIRST
    assert first <= deal < first + plays_module.RANKED_NUMBERS  # drawn from 2**64 numbers
    # Another game's deal of the day is another draw.
    other = start(ann, "klondike-draw1")
    assert deal_of(app, other["id"]) != deal
    # A player who comes later in the day still gets the same deal.
    clock.advance(3600)
    assert utc_day(clock.now) == day
    cy = add_player(app, make_api, "cy")
    assert deal_of(app, start(cy)["id"]) == deal
    # The next day: a new deal, the same for everyone again.
    next_day(clock)
    a2, b2 = start(ann), start(bob)
    assert deal_of(app, a2["id"]) == deal_of(app, b2["id"]) != deal


def test_two_server_processes_deal_the_same_daily_deal(app, make_api, settings, clock):
    """Nothing of the deal lives in a process: a player on another app instance of the same
    database gets the deal the first one drew."""
    ann, bob = add_player(app, make_api, "ann"), add_player(app, make_api, "bob")
    second = create_app(settings, clock=clock)
    try:
        with TestClient(second, cookies=dict(bob.client.cookies)) as client:
            bob_there = Api(client)
            a = start(ann)
            b = start(bob_there)
        assert deal_of(app, a["id"]) == deal_of(app, b["id"])
    finally:
        second.state.db.dispose()


def test_two_starts_at_once_make_one_play(app, make_api):
    ann = add_player(app, make_api, "ann")
    ann.session()
    answers = at_once([lambda: ann.post("/api/daily/klondike/play") for _ in range(4)])
    assert sorted(r.status_code for r in answers) == [200, 200, 200, 201]
    assert len({r.json()["id"] for r in answers}) == 1
    with app.state.db.read() as conn:
        assert len(conn.execute(select(plays.c.id).where(plays.c.daily.is_not(None))).all()) == 1


def test_one_attempt_per_player_and_day(app, make_api, clock):
    ann, bob = add_player(app, make_api, "ann"), add_player(app, make_api, "bob")
    play = start(ann)
    assert set(play) == PLAY_KEYS
    assert play["ranked"] is True and play["number"] is None and play["number_text"] is None
    today = utc_day(clock.now)
    assert play["daily"] == today  # every answer of the play says it is the day's
    # Starting it again resumes the same play (a reload), where it is.
    play = ann.play_ok(play, "s")
    assert play["daily"] == today
    again = start(ann, status=200)
    assert again["id"] == play["id"] and again["n"] == 1 and again["daily"] == today
    assert ann.get(f"/api/plays/{play['id']}").json()["daily"] == today
    clock.advance(2.0)
    done = give_up(ann, play)
    assert done["over"] and done["number"] is None and done["result"]["outcome"] == "gave_up"
    assert done["daily"] == today
    # Once it has ended, no second attempt today, with a clear reason.
    message = error(ann.post("/api/daily/klondike/play"), 409, "daily_played")
    assert "one attempt a day" in message and "daily deal of Solitaire" in message
    # ... said in the request's language
    dutch = error(ann.post("/api/daily/klondike/play?lang=nl"), 409, "daily_played")
    assert "één poging per dag" in dutch and "spel van de dag van Solitaire" in dutch
    error(ann.move(done, "s"), 409, "game_over")
    # Others still play it; the player plays the other games' daily deals.
    start(bob)
    start(ann, "patiencemax")
    # The next day, a new attempt.
    next_day(clock)
    assert start(ann)["id"] != play["id"]


def test_the_daily_deal_needs_an_account_and_a_game(app, make_api, api):
    api.new_play("klondike", 24)  # a guest
    assert "sign in" in error(api.post("/api/daily/klondike/play"), 401, "unauthorized")
    ann = add_player(app, make_api, "ann")
    error(ann.post("/api/daily/no-such-game/play"), 404, "unknown_game")
    error(ann.get("/api/daily/no-such-game"), 404, "unknown_game")
    error(ann.get("/api/daily/klondike/2023-02-30"), 422, "bad_request")
    error(ann.get("/api/daily/klondike/2099-01-01"), 404, "not_found")
    error(ann.get("/api/daily/klondike/0001-01-01"), 404, "not_found")
    error(ann.get("/api/daily/klondike/0001-01-01/replays/ann"), 404, "not_found")
    # (a day that is over and that nobody played has no replays: test_a_day_nobody_played)


def test_a_day_nobody_played_says_so(app, make_api, clock):
    """A day that is over and that nobody played: no deal was ever drawn, so there is none to
    publish (``dealt`` false), no table, and no replay of anyone (404, not "once the day is
    over"); today's deal before anyone starts it is not dealt yet either."""
    ann = add_player(app, make_api, "ann")
    today = utc_day(clock.now)
    before = day_of(ann, "klondike", "2023-11-13")
    assert before["over"] and before["dealt"] is False
    assert (before["players"], before["playing"], before["table"]) == (0, 0, [])
    assert before["number"] is None and before["number_text"] is None
    assert before["me"] == {"name": "ann", "play": None, "status": "none", "line": None}
    message = error(ann.get("/api/daily/klondike/2023-11-13/replays/ann"), 404, "not_found")
    assert message == "ann did not play the daily deal of 2023-11-13"
    error(ann.get("/api/daily/klondike/2023-11-13/replays/ann?step=0"), 404, "not_found")
    dutch = ann.get("/api/daily/klondike/2023-11-13/replays/ann?lang=nl").json()
    assert "2023-11-13" in dutch["error"]["message"] and "ann" in dutch["error"]["message"]
    assert dutch["error"]["message"] != message
    # Today, nobody has started the deal yet: not dealt, and its replays wait for the day.
    assert day_of(ann)["dealt"] is False and not day_of(ann)["over"]
    error(ann.get(f"/api/daily/klondike/{today}/replays/ann"), 403, "forbidden")
    # Once somebody starts it, the day has its deal (still hidden), and keeps it.
    start(ann)
    assert day_of(ann)["dealt"] is True and day_of(ann)["number"] is None
    next_day(clock)
    assert day_of(ann, "klondike", today)["dealt"] is True
    assert day_of(ann, "klondike", today)["number"] is not None
    # ... while the other games' deals of that day nobody played have none.
    other = day_of(ann, "patiencemax", today)
    assert other["over"] and other["dealt"] is False and other["table"] == []


def test_no_undo_redo_restart_or_hint_and_nobody_elses_play(app, make_api, clock):
    ann, bob = add_player(app, make_api, "ann"), add_player(app, make_api, "bob")
    play = ann.play_ok(start(ann), "s")
    for action in ("undo", "redo", "restart"):
        error(ann.post(f"/api/plays/{play['id']}/{action}", {"n": play["n"]}), 403, "forbidden")
    error(ann.post(f"/api/plays/{play['id']}/hint"), 403, "forbidden")
    # Another player can neither read nor move nor give up ann's play of the daily deal.
    error(bob.get(f"/api/plays/{play['id']}"), 403, "forbidden")
    error(bob.move(play, "s"), 403, "forbidden")
    error(bob.post(f"/api/plays/{play['id']}/finish", {"n": play["n"]}), 403, "forbidden")
    # No score is ever taken from the client.
    error(ann.post(f"/api/plays/{play['id']}/finish", {"n": 1, "score": 9999}), 422, "bad_request")
    assert ann.get(f"/api/plays/{play['id']}").json()["n"] == 1


def test_the_daily_deal_adds_no_points_nor_medals(app, make_api, clock, monkeypatch):
    ann = add_player(app, make_api, "ann")
    pin_deal(monkeypatch)
    # A ranked game open meanwhile is not given up by the daily deal, nor the other way round.
    ranked = ann.post("/api/games/klondike/play", {"ranked": True}).json()
    play = start(ann)
    assert ann.post("/api/games/klondike/play", {"ranked": True}).status_code == 409  # ranked_open
    line, running = scoring_line("klondike", deal_of(app, play["id"]), 3)
    assert running > 0
    play = play_line(ann, play, line, clock, 1.0)
    done = give_up(ann, play)
    assert done["result"]["score"] == running and done["score"] == running
    assert ann.get(f"/api/plays/{ranked['id']}").json()["over"] is False
    with app.state.db.read() as conn:
        assert conn.execute(select(results)).all() == []
        assert conn.execute(select(standings)).all() == []
    top = ann.get("/api/top100/klondike").json()
    assert top["players"] == [] and top["me"] is None
    profile = ann.get("/api/players/ann").json()
    assert profile["variants"]["klondike"]["standing"] is None and profile["medals"] == []
    # The day closes: its medals are of ranked games only (there were none).
    next_day(clock, 600)
    done_tick = tick(app.state.db, clock.now)
    assert ("klondike", utc_day(clock.now - 86_400)) in done_tick.daily
    assert close_due_days(app.state.db, clock.now) == []
    assert ann.get("/api/top100/klondike").json()["me"] is None
    assert day_of(ann, "klondike", utc_day(clock.now - 86_400))["table"][0]["score"] == running


def test_the_days_table_is_in_order_and_shows_no_deal(app, make_api, clock, monkeypatch):
    pin_deal(monkeypatch)
    names = ["ann", "bob", "cy", "di", "ed"]
    players = {n: add_player(app, make_api, n) for n in names}
    started = {n: start(players[n]) for n in ("ann", "bob", "cy")}
    deal = deal_of(app, started["ann"]["id"])
    line3, score3 = scoring_line("klondike", deal, 3)
    line1, score1 = scoring_line("klondike", deal, 1)
    assert score3 > score1 > 0
    # ann: 3 scoring moves, 1 s apart, then gives up; bob: the same, 2 s apart (slower);
    # cy: one scoring move only (a lower score), the fastest.
    for name, line, dt in (("ann", line3, 1.0), ("bob", line3, 2.0), ("cy", line1, 0.5)):
        play = play_line(players[name], started[name], line, clock, dt)
        give_up(players[name], play)
    # di starts later and plays exactly as ann did: the same score and time, a later finish.
    di = start(players["di"])
    give_up(players["di"], play_line(players["di"], di, line3, clock, 1.0))
    # ed is still playing: not in the table.
    start(players["ed"])
    table = day_of(players["ed"])
    assert [(x["place"], x["name"]) for x in table["table"]] == [
        (1, "ann"),
        (2, "di"),
        (3, "bob"),
        (4, "cy"),
    ]
    ann_line = table["table"][0]
    assert (ann_line["score"], ann_line["outcome"], ann_line["moves"]) == (
        score3,
        "gave_up",
        len(line3),
    )
    assert ann_line["time"] == len(line3) * 1.0
    assert table["table"][3]["score"] == score1
    assert (table["players"], table["playing"]) == (4, 1)
    assert table["number"] is None and table["number_text"] is None and table["over"] is False
    me = table["me"]
    assert (me["name"], me["status"], me["line"]) == ("ed", "playing", None) and me["play"]
    bob_view = day_of(players["bob"])
    assert bob_view["me"]["status"] == "ended" and bob_view["me"]["line"]["place"] == 3
    # The overview counts them, and says what the session's own play is.
    overview = players["bob"].get("/api/daily").json()
    klondike = next(g for g in overview["games"] if g["game"] == "klondike")
    assert (klondike["players"], klondike["playing"]) == (4, 1)
    assert klondike["me"]["status"] == "ended"
    assert [g["game"] for g in overview["games"]][:2] == ["klondike", "klondike-draw1"]


def test_a_day_without_a_score_puts_wins_first():
    """Games without a score (all but Klondike): a win first, then shorter time, then earlier
    finish (the order's function, as the table uses it)."""
    rows = [
        (None, False, 5.0, 10.0, 1),
        (None, True, 300.0, 20.0, 2),
        (None, True, 200.0, 30.0, 3),
        (None, True, 200.0, 25.0, 4),
    ]
    order = sorted(rows, key=lambda r: daily.daily_order(*r))
    assert [r[4] for r in order] == [4, 3, 2, 1]


def test_nothing_sent_before_the_day_ends_deals_its_face_up_cards(app, make_api, clock):
    """The cheater's search: every answer and page a player and an onlooker get during the
    day, bodies and headers, holds no number that deals the daily deal's face-up cards, nor
    can the deal be played casually or replayed; once the day is over, its number and every
    play's replay are published, and the deal can be practised."""
    ann, bob = add_player(app, make_api, "ann"), add_player(app, make_api, "bob")
    rec, onlooker = Recorder(ann), Recorder(bob)
    today = utc_day(clock.now)
    play = rec.post("/api/daily/klondike/play").json()
    deal = deal_of(app, play["id"])
    seen = [p["cards"] for p in play["piles"]]
    assert seen == face_up("klondike", deal)
    # The search finds the deal when it is written down (the test can fail).
    assert numbers_dealing("klondike", seen, [f"deal {deal}"]) == {deal}
    line, _running = scoring_line("klondike", deal, 3)
    play = rec.play(play, line, clock)
    for bad in ("c1 c2", "c7 f", "w c1", "c1 c1", "zz"):
        rec.post(f"/api/plays/{play['id']}/moves", {"move": bad, "n": play["n"]})
    rec.post(f"/api/plays/{play['id']}/hint")
    rec.post(f"/api/plays/{play['id']}/undo", {"n": play["n"]})
    rec.post("/api/daily/klondike/play")  # resumed
    for who in (rec, onlooker):
        for path in (
            "/api/daily",
            "/api/daily/klondike",
            f"/api/daily/klondike/{today}",
            f"/api/daily/klondike/{today}/replays/ann",
            f"/api/daily/klondike/{today}/replays/ann?step=1",
            "/api/top100/klondike",
            "/api/players/ann",
            "/api/stats/ann",
            "/daily",
            "/daily/klondike",
        ):
            who.get(path)
    for path in (f"/api/plays/{play['id']}", f"/p/{play['id']}"):
        rec.get(path)
    assert rec.get(f"/api/daily/klondike/{today}/replays/ann").status_code == 403
    # Whoever learnt the number some other way cannot practise it casually during the day.
    for player in (ann, bob):
        r = player.post("/api/games/klondike/play", {"number": deal})
        error(r, 409, "deal_in_play")
    # Ended (given up): still no number, in the answer, the play or the table.
    clock.advance(1.0)
    # (a probe above may have been a legal move on this random deal: the play as it is now)
    play = ann.get(f"/api/plays/{play['id']}").json()
    if not play["over"]:
        rec.post(f"/api/plays/{play['id']}/finish", {"n": play["n"]})
    final = ann.get(f"/api/plays/{play['id']}").json()
    onlooker.post("/api/daily/klondike/play")
    for who in (rec, onlooker):
        who.get(f"/api/daily/klondike/{today}")
        who.get(f"/api/plays/{play['id']}")
        # (the statistics and the play's own replay, which hold a player's own deals)
        who.get("/api/stats/ann/history")
        who.get("/api/stats/ann/charts/klondike")
        who.get(f"/api/plays/{play['id']}/replay")
        who.get(f"/api/plays/{play['id']}/replay?step=1")
    assert numbers_dealing("klondike", seen, rec.texts) == set()
    assert numbers_dealing("klondike", seen, onlooker.texts) == set()
    # The next day: the deal and the replays are published, the deal can be practised.
    next_day(clock, 5.0)
    shown = day_of(bob, "klondike", today)
    assert shown["over"] and shown["number"] == deal and shown["number_text"] == str(deal)
    assert [x["name"] for x in shown["table"]] == ["ann", "bob"]  # bob's open play expired
    assert shown["table"][1]["outcome"] == "expired"
    record = bob.get(f"/api/daily/klondike/{today}/replays/ann").json()
    assert record["number"] == deal and record["day"] == today and record["player"] == "ann"
    assert record["moves"][: len(line)] == line and len(record["moves"]) == final["n"]
    assert record["result"]["score"] == final["score"] and len(record["times"]) == final["n"]
    step = bob.get(f"/api/daily/klondike/{today}/replays/ann?step=2").json()
    g = new_game("klondike", deal)
    for m in record["moves"][:2]:
        g.play(m)
    assert step["piles"] == g.view().to_json()["piles"] and step["steps"] == final["n"]
    error(bob.get(f"/api/daily/klondike/{today}/replays/nobody"), 404, "not_found")
    assert bob.new_play("klondike", deal)["number"] == deal
    # Today's deal is a new one, and hidden again.
    assert day_of(bob)["number"] is None


def test_a_daily_play_counts_in_its_days_table_only(app, make_api, clock, monkeypatch):
    """A daily deal's play is a competition of its own: in no statistics, chart or history of
    the player's games (as the day's table has it), nor does it leave a casual play of the
    game abandoned; its replay is the day's, never the play's own."""
    ann = add_player(app, make_api, "ann")
    casual = ann.play_ok(ann.new_play("klondike", 24), "s")
    clock.advance(1.0)
    pin_deal(monkeypatch)
    play = start(ann)
    line, running = scoring_line("klondike", deal_of(app, play["id"]), 3)
    play = play_line(ann, play, line, clock, 1.0)
    clock.advance(1.0)
    assert give_up(ann, play)["result"]["score"] == running
    today = utc_day(clock.now)
    assert [x["name"] for x in day_of(ann, "klondike", today)["table"]] == ["ann"]
    # The casual play is still in progress (not left for the daily deal): nothing counts.
    stats = ann.get("/api/stats/ann").json()["klondike"]
    assert (stats["played"], stats["won"]) == (0, 0)
    charts = ann.get("/api/stats/ann/charts/klondike").json()
    assert (charts["played"], charts["points"]) == (0, [])
    assert ann.get("/api/stats/ann/history").json()["total"] == 0
    assert ann.get("/api/players/ann").json()["stats"]["klondike"]["played"] == 0
    # The play's own replay would deal the day's deal: the day's replays are at /api/daily.
    for path in (f"/api/plays/{play['id']}/replay", f"/api/plays/{play['id']}/replay?step=1"):
        assert "once its day is over" in error(ann.get(path), 403, "forbidden")
    next_day(clock)
    assert day_of(ann, "klondike", today)["over"]
    error(ann.get(f"/api/plays/{play['id']}/replay"), 403, "forbidden")
    assert ann.get(f"/api/daily/klondike/{today}/replays/ann").json()["moves"] == line
    # A new casual deal leaves the first one: it counts, and only it.
    ann.new_play("klondike", 25)
    history = ann.get("/api/stats/ann/history").json()
    assert [(g["id"], g["result"]) for g in history["games"]] == [(casual["id"], "abandoned")]
    assert ann.get("/api/stats/ann").json()["klondike"]["played"] == 1


def test_a_play_still_open_at_midnight_stops_there_and_counts_as_it_was(
    app, make_api, clock, monkeypatch
):
    ann = add_player(app, make_api, "ann")
    pin_deal(monkeypatch)
    day = utc_day(clock.now)
    clock.now = day_start(day) + daily.DAY - 30.0  # 23:59:30
    play = start(ann)
    created = clock.now
    line, running = scoring_line("klondike", deal_of(app, play["id"]), 2)
    play = play_line(ann, play, line, clock, 1.0)  # the same process keeps the game: fast path
    next_day(clock, 0.0)  # 00:00:00: the day is over
    error(ann.move(play, "s"), 409, "game_over")
    error(ann.post(f"/api/plays/{play['id']}/autocomplete", {"n": play["n"]}), 409, "game_over")
    shown = ann.get(f"/api/plays/{play['id']}").json()
    assert shown["over"] and shown["legal_moves"] == [] and shown["number"] is None
    with app.state.db.read() as conn:  # nothing stored after midnight
        row = conn.execute(select(plays).where(plays.c.id == play["id"])).one()
    assert row.seq == len(line) and row.ended_at is None
    # The close (the periodic task) ends it: its running score, its time up to midnight.
    clock.advance(60.0)
    assert tick(app.state.db, clock.now).daily == [("klondike", day)]
    assert tick(app.state.db, clock.now).daily == []
    with app.state.db.read() as conn:
        (result,) = conn.execute(select(daily_results)).all()
    assert (result.outcome, result.score, result.moves) == ("expired", running, len(line))
    assert result.elapsed == pytest.approx(day_start(day) + daily.DAY - created)
    table = day_of(ann, "klondike", day)
    assert table["number"] == deal_of(app, play["id"]) and table["table"][0]["outcome"] == "expired"
    error(ann.move(play, "s"), 409, "game_over")


def test_giving_up_after_midnight_counts_as_the_day_left_it(app, make_api, clock):
    ann = add_player(app, make_api, "ann")
    day = utc_day(clock.now)
    play = ann.play_ok(start(ann), "s")
    next_day(clock, 30.0)
    done = give_up(ann, play)
    assert done["result"]["outcome"] == "expired" and done["number"] is None
    (line,) = day_of(ann, "klondike", day)["table"]
    assert line["finished_at"] == day_start(day) + daily.DAY


def test_the_close_day_command_publishes_the_daily_deals(
    app, make_api, clock, settings, monkeypatch
):
    typer = pytest.importorskip("typer")
    from typer.testing import CliRunner

    from patiencekit.server.competition.cli import close_day as command

    ann = add_player(app, make_api, "ann")
    day = utc_day(clock.now)  # the fake clock's day: long over by the command's clock
    play = ann.play_ok(start(ann, "klondike-draw1"), "s")
    monkeypatch.setenv("PATIENCEKIT_ENV", "test")
    monkeypatch.setenv("PATIENCEKIT_SECRET_KEY", SECRET)
    monkeypatch.setenv("PATIENCEKIT_DATABASE_URL", settings.database_url)
    cli = typer.Typer()
    cli.command()(command)
    runner = CliRunner()
    result = runner.invoke(cli, [])
    assert result.exit_code == 0, result.output
    published = f"{day} klondike-draw1: the daily deal is closed and published"
    assert result.output.splitlines() == [published]
    result = runner.invoke(cli, [])
    assert result.exit_code == 0 and "nothing to close" in result.output
    shown = day_of(ann, "klondike-draw1", day)
    assert shown["number"] == deal_of(app, play["id"])
    assert shown["table"][0]["outcome"] == "expired"


def golden_line(game_id: str) -> tuple[int, list[str]]:
    """A won game of the test data: its deal and its moves."""
    import json
    from pathlib import Path

    record = json.loads(
        (Path(__file__).resolve().parents[1] / "data" / "golden" / f"{game_id}.json").read_text()
    )
    return int(record["number"]), list(record["moves"])


def test_wins_lead_the_table_with_the_servers_score_and_time(app, make_api, clock, monkeypatch):
    """Won plays end by their winning move (the ranked end's hook): Klondike's with the time
    bonus of the server's clock, so the faster win leads; in a game without a score, a win
    leads a faster game that was given up."""
    ann, bob, cy = (add_player(app, make_api, n) for n in ("ann", "bob", "cy"))
    number, line = golden_line("klondike")
    monkeypatch.setattr(plays_module, "draw_ranked_number", lambda: number)
    expected = {}
    for player, dt in ((bob, 2.0), (ann, 1.0)):
        play = play_line(player, start(player), line, clock, dt)
        assert play["won"] and play["over"] and play["number"] is None
        engine_clock = FakeClockLike(0.0)
        g = new_game("klondike", number, clock=engine_clock)
        for m in line:
            engine_clock.now += dt
            g.play(m)
        expected[player.name] = (g.score, g.elapsed)
        assert play["score"] == g.score and g.time_bonus > 0
    table = day_of(cy)["table"]
    assert [x["name"] for x in table] == ["ann", "bob"]
    for x in table:
        assert (x["outcome"], x["moves"]) == ("won", len(line))
        assert (x["score"], x["time"]) == expected[x["name"]]
    # PatienceMax has no score: ann's win (slow) leads cy's give-up (fast).
    number, line = golden_line("patiencemax")
    monkeypatch.setattr(plays_module, "draw_ranked_number", lambda: number)
    won = play_line(ann, start(ann, "patiencemax"), line, clock, 1.0)
    assert won["won"] and won["score"] is None
    quick = play_line(cy, start(cy, "patiencemax"), line[:1], clock, 0.5)
    assert give_up(cy, quick)["result"] is None  # no score: no result to show
    table = day_of(cy, "patiencemax")["table"]
    assert [(x["name"], x["outcome"], x["score"]) for x in table] == [
        ("ann", "won", None),
        ("cy", "gave_up", None),
    ]
    assert table[0]["time"] > table[1]["time"]
    with app.state.db.read() as conn:
        assert conn.execute(select(results)).all() == []


class FakeClockLike:
    """The engine's clock in the test: it says what it is told."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
