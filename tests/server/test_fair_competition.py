"""Fair competition (RULES.md, "Fair competition"), tried as a cheater would, on SQLite and
PostgreSQL: a ranked deal is drawn by the server from 2**64 numbers and never chosen; nothing
the player is sent while it runs deals its face-up cards; casual play cannot reach it; a
player has one open ranked game per variant, and dropping one (a new ranked game, or a day
without a move) counts it."""

from __future__ import annotations

from typing import Any

import pytest
from competition_helpers import add_player, error, give_up, play_line, scoring_line
from ranked_helpers import Recorder, deal_of, numbers_dealing, ranked_play
from sqlalchemy import select

from patiencekit.server.competition.periodic import tick
from patiencekit.server.competition.tables import results
from patiencekit.server.play import service as plays_module
from patiencekit.server.play.tables import plays

pytestmark = pytest.mark.no_periodic_task


def test_a_ranked_deal_is_drawn_by_the_server_from_2_64_numbers(app, make_api):
    ann = add_player(app, make_api, "ann")
    assert plays_module.RANKED_NUMBERS >= 2**64
    assert plays_module.RANKED_FIRST + plays_module.RANKED_NUMBERS - 1 <= plays_module.MAX_NUMBER
    drawn = set()
    for _ in range(3):
        play = ann.post("/api/games/klondike-draw1/play", {"ranked": True}).json()
        number = deal_of(app, play["id"])
        first = plays_module.RANKED_FIRST
        assert first <= number < first + plays_module.RANKED_NUMBERS
        drawn.add(number)
        give_up(ann, play)
    assert len(drawn) == 3


@pytest.mark.parametrize(
    "body",
    [
        {"number": 24, "ranked": True},
        {"number": 0, "ranked": True},
        {"number": 10**19 + 5, "ranked": True},
        {"winnable": True, "ranked": True},
    ],
)
def test_a_chosen_ranked_deal_is_refused_and_nothing_is_dealt(app, make_api, body):
    ann = add_player(app, make_api, "ann")
    assert "cannot be chosen" in error(
        ann.post("/api/games/klondike/play", body), 400, "ranked_deal"
    )
    with app.state.db.read() as conn:
        assert conn.execute(select(plays.c.id)).first() is None


def test_nothing_sent_during_a_ranked_game_deals_its_face_up_cards(app, make_api, clock):
    """The cheater's search: every answer and page the player can get while the ranked game
    runs, bodies and headers, holds no number that deals the same face-up cards; once the
    game has ended, its number is shown."""
    ann = add_player(app, make_api, "ann")
    rec = Recorder(ann)
    play = rec.post("/api/games/klondike/play", {"ranked": True}).json()
    number = deal_of(app, play["id"])
    seen = [p["cards"] for p in play["piles"]]
    # The search finds the deal when it is written down (the test can fail).
    assert numbers_dealing("klondike", seen, [f"deal {number}"]) == {number}
    assert play["number"] is None and play["number_text"] is None
    line, _ = scoring_line("klondike", number, 3)
    for text in line:
        clock.advance(2.0)
        play = rec.post(f"/api/plays/{play['id']}/moves", {"move": text, "n": play["n"]}).json()
    # Refusals, the hint refused, reads, the player's pages and the competition's answers.
    for bad in ("c1 c2", "c7 f", "w c1", "c1 c1", "zz"):
        rec.post(f"/api/plays/{play['id']}/moves", {"move": bad, "n": play["n"]})
    rec.post(f"/api/plays/{play['id']}/foundation", {"pile": "c7", "n": play["n"]})
    rec.post(f"/api/plays/{play['id']}/hint")
    rec.post(f"/api/plays/{play['id']}/undo", {"n": play["n"]})
    for path in (
        f"/api/plays/{play['id']}",
        "/api/session",
        "/api/stats/ann",
        "/api/players/ann",
        "/api/top100/klondike",
        "/api/tournaments",
        f"/p/{play['id']}",
        "/play/klondike",
        "/top100/klondike",
        "/players/ann",
        "/stats/ann",
    ):
        rec.get(path)
    # A casual game of the same variant meanwhile is another deal.
    rec.post("/api/games/klondike/play", {"number": None})
    assert numbers_dealing("klondike", seen, rec.texts) == set()
    # Ended (given up, unless the line ran out of moves and ended it): the number is shown.
    clock.advance(1.0)
    # (a probe above may have been a legal move on this random deal: the play as it is now)
    play = ann.get(f"/api/plays/{play['id']}").json()
    if not play["over"]:
        assert give_up(ann, play)["result"]["outcome"] == "gave_up"
    shown = ann.get(f"/api/plays/{play['id']}").json()
    assert shown["number"] == number and shown["number_text"] == str(number)


def test_casual_play_cannot_reach_a_running_ranked_deal(app, make_api, clock):
    ann = add_player(app, make_api, "ann")
    bob = add_player(app, make_api, "bob")
    play = ranked_play(ann, "klondike", 10**19 + 77)
    # Whoever learnt the number: no casual deal of it, no hint on it, while it runs.
    for player in (ann, bob):
        r = player.post("/api/games/klondike/play", {"number": 10**19 + 77})
        assert "ranked" in error(r, 409, "deal_in_play")
    error(ann.post(f"/api/plays/{play['id']}/hint"), 403, "forbidden")
    # Another variant's deal of the same number is another deal; a number nobody plays is free.
    assert bob.new_play("klondike-draw1", 10**19 + 77)["number"] == 10**19 + 77
    assert bob.new_play("klondike", 10**19 + 78)["number"] == 10**19 + 78
    give_up(ann, play)
    assert bob.new_play("klondike", 10**19 + 77)["number"] == 10**19 + 77


def _results(app: Any) -> list[Any]:
    with app.state.db.read() as conn:
        return list(conn.execute(select(results).order_by(results.c.finished_at)).all())


def test_one_open_ranked_game_per_variant_and_a_new_one_gives_it_up(app, make_api, clock):
    ann = add_player(app, make_api, "ann")
    first = ranked_play(ann, "klondike", 132)
    line, running = scoring_line("klondike", 132, 3)
    first = play_line(ann, first, line, clock, 1.0)
    # A second ranked game of the variant is refused until the player says to give up the first.
    body = ranked_play(ann, "klondike", 133, status=409)
    assert body["error"]["code"] == "ranked_open" and first["id"] in body["error"]["message"]
    assert _results(app) == []
    # Another variant is another ranked game; a casual game does not touch the ranked one.
    other = ranked_play(ann, "klondike-draw1", 140)
    ann.new_play("klondike", 5)
    assert ann.get(f"/api/plays/{first['id']}").json()["over"] is False
    clock.advance(5.0)
    second = ranked_play(ann, "klondike", 133, give_up=True)
    assert second["ranked"] and second["n"] == 0
    (result,) = _results(app)
    assert (result.play_id, result.outcome, result.score) == (first["id"], "gave_up", running)
    assert result.elapsed == len(line) + 5.0  # no time bonus: given up
    ended = ann.get(f"/api/plays/{first['id']}").json()
    assert ended["over"] and ended["number"] == 132
    late = ann.post(f"/api/plays/{first['id']}/moves", {"move": "s", "n": ended["n"]})
    error(late, 409, "game_over")
    me = ann.get("/api/top100/klondike").json()["me"]
    assert (me["points"], me["games"]) == (running, 1)
    # The other variant's game is still open.
    assert ann.get(f"/api/plays/{other['id']}").json()["over"] is False


def test_a_ranked_game_with_no_move_for_a_day_ends_as_given_up(app, make_api, clock):
    ann = add_player(app, make_api, "ann")
    play = ranked_play(ann, "klondike", 132)
    line, running = scoring_line("klondike", 132, 2)
    play = play_line(ann, play, line, clock, 1.0)
    last_move = clock.now
    clock.advance(plays_module.RANKED_IDLE_SECONDS - 1)
    assert tick(app.state.db, clock.now).swept.ranked_ended == 0
    # A move starts the day again.
    clock.advance(0.5)
    play = play_line(ann, play, ["s"], clock, 0.5)
    last_move = clock.now
    clock.advance(plays_module.RANKED_IDLE_SECONDS - 1)
    assert tick(app.state.db, clock.now).swept.ranked_ended == 0
    assert _results(app) == []
    clock.advance(1.0)
    assert tick(app.state.db, clock.now).swept.ranked_ended == 1
    (result,) = _results(app)
    assert (result.play_id, result.outcome, result.score) == (play["id"], "gave_up", running)
    assert clock.now - last_move == plays_module.RANKED_IDLE_SECONDS
    assert tick(app.state.db, clock.now).swept.ranked_ended == 0
    ended = ann.get(f"/api/plays/{play['id']}").json()
    assert ended["over"] and ended["number"] == 132
    assert ann.get("/api/top100/klondike").json()["me"]["points"] == running
    # The player may start a new ranked game without giving anything up.
    assert ranked_play(ann, "klondike", 133)["n"] == 0
