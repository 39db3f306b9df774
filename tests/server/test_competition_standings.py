"""Points, ranks, the Top 100 and its ties, medals and the day close, profiles (SQLite and
PostgreSQL, the test's clock: no sleeps)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from competition_helpers import (
    SECRET,
    add_player,
    error,
    give_up,
    play_line,
    scoring_line,
)
from ranked_helpers import ranked_play
from sqlalchemy import insert, select

from patiencekit.server.app import create_app
from patiencekit.server.competition.periodic import tick
from patiencekit.server.competition.scoring import day_start, next_day, rank, utc_day
from patiencekit.server.competition.standings import (
    Delta,
    apply_deltas,
    close_day,
    insert_result,
    leaderboard,
)
from patiencekit.server.competition.tables import closed_days, medals, results, standings
from patiencekit.server.db import users
from patiencekit.server.play.tables import plays

WIN = json.loads((Path(__file__).parent / "data" / "klondike-win.json").read_text())


pytestmark = pytest.mark.no_periodic_task


def ranked_game(api: Any, clock: Any, number: int, k: int, dt: float = 1.0) -> tuple[int, float]:
    """A ranked Klondike game of deal ``number``: ``k`` scoring moves, then given up.

    Returns the score the engine says it is worth and its time."""
    play = ranked_play(api, "klondike", number)
    start = clock.now
    line, score = scoring_line("klondike", number, k)
    play = play_line(api, play, line, clock, dt)
    clock.advance(1.0)
    done = give_up(api, play)
    assert done["result"]["score"] == score and done["result"]["outcome"] == "gave_up"
    return score, clock.now - start


def board(api: Any, game: str = "klondike", player: str | None = None) -> dict[str, Any]:
    path = f"/api/top100/{game}" + (f"?player={player}" if player else "")
    r = api.get(path)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


# -- points -------------------------------------------------------------------------------------


def test_ranked_single_games_count_towards_points(app, make_api, clock):
    ann = add_player(app, make_api, "ann")
    # A won ranked game: its final score has the server's time bonus.
    play = play_line(ann, ranked_play(ann, "klondike", WIN["number"]), WIN["moves"], clock, 1.0)
    won = WIN["result"]["score"] + 1000 - len(WIN["moves"])
    assert play["won"] and play["score"] == won
    error(ann.post(f"/api/plays/{play['id']}/finish", {"n": play["n"]}), 409, "game_over")
    line = board(ann)["me"]
    assert (line["points"], line["games"], line["position"]) == (won, 1, 1)
    assert line["rank"] == rank(won) == 45  # rank 45 from 3,060 points, rank 46 at 3,152
    # The server draws a ranked deal: the player cannot choose one.
    again = ann.post("/api/games/klondike/play", {"number": WIN["number"], "ranked": True})
    assert "cannot be chosen" in error(again, 400, "ranked_deal")
    # A ranked deal, given up: its running score counts. The draw is pinned to a deal whose
    # scoring line leaves moves to make (1.4 % of deals run out of moves on the way).
    play = ranked_play(ann, "klondike", 132)
    assert play["number"] is None and not play["over"]
    line_moves, running = scoring_line("klondike", 132, 3)
    play = play_line(ann, play, line_moves, clock, 1.0)
    done = give_up(ann, play)
    assert done["result"] == {
        "outcome": "gave_up",
        "score": running,
        "time": float(len(line_moves)),  # from the deal to giving up, one second a move
        "finished_at": clock.now,
    }
    # A deal with no move at all is over once the stock has been seen (eight turns): it ends
    # by itself, with 0.
    play = play_line(ann, ranked_play(ann, "klondike", 10), ["s"] * 8, clock, 1.0)
    assert play["over"] is True and play["score"] == 0
    error(ann.post(f"/api/plays/{play['id']}/finish", {"n": play["n"]}), 409, "game_over")
    line = board(ann)["me"]
    assert (line["points"], line["games"]) == (won + running, 3)
    assert board(ann, "klondike-draw1")["me"] is None
    # Casual games and unscored ranked games give no points.
    casual = play_line(ann, ann.new_play("klondike", 31), ["s"], clock, 1.0)
    error(ann.post(f"/api/plays/{casual['id']}/finish", {"n": 1}), 403, "forbidden")
    assert give_up(ann, ranked_play(ann, "patriarchs", 3))["result"] is None
    assert board(ann)["me"]["games"] == 3


def test_a_ranked_game_that_runs_out_of_moves_ends_by_itself(app, make_api, clock):
    from patiencekit import new_game

    # Klondike deal 49: after these three moves no card can move any more, which the player
    # sees once the stock has gone by (eight turns).
    moves = ["c7 c6", "c6 c7 2", "c7 c4 3"] + ["s"] * 8
    engine = new_game("klondike", 49)
    for text in moves:
        assert not engine.is_over()
        engine.play(text)
    assert engine.is_over() and not engine.is_won() and engine.base_score > 0
    ann = add_player(app, make_api, "ann")
    play = play_line(ann, ranked_play(ann, "klondike", 49), moves, clock, 1.0)
    assert play["over"] and not play["won"] and play["legal_moves"] == []
    assert play["score"] == engine.base_score
    with app.state.db.read() as conn:
        row = conn.execute(select(results).where(results.c.play_id == play["id"])).one()
        ended = conn.execute(select(plays.c.ended_at).where(plays.c.id == play["id"])).scalar()
    assert (row.outcome, row.score, row.elapsed) == ("over", engine.base_score, 11.0)
    assert ended == clock.now
    assert board(ann)["me"]["points"] == engine.base_score
    error(ann.post(f"/api/plays/{play['id']}/finish", {"n": 11}), 409, "game_over")


# -- the Top 100 ---------------------------------------------------------------------------------


def test_the_top_100_order_and_its_ties(app, make_api, clock):
    ann, bob, cy, di = (add_player(app, make_api, n) for n in ("ann", "bob", "cy", "di"))
    bob_points = ranked_game(bob, clock, 24, 3)[0]  # bob reaches the total first
    ann_points = ranked_game(ann, clock, 24, 3)[0]  # the same moves: the same points, later
    cy_points = ranked_game(cy, clock, 24, 5)[0]
    di_points = ranked_game(di, clock, 24, 1)[0]
    assert bob_points == ann_points and cy_points > ann_points > di_points
    # ann plays a game worth nothing: her points did not go up, she is still after bob.
    assert ranked_game(ann, clock, 26, 0)[0] == 0
    top = board(make_api())
    assert top["me"] is None and top["name"] == "Solitaire (Klondike, draw 3)"
    assert [(p["position"], p["name"], p["points"]) for p in top["players"]] == [
        (1, "cy", cy_points),
        (2, "bob", bob_points),
        (2, "ann", ann_points),  # equal points share the position
        (4, "di", di_points),  # and the next one is skipped
    ]
    for p in top["players"]:
        assert p["rank"] == rank(p["points"])
        assert p["cups"] == [0, 0, 0, 0] and p["medals"] == [0, 0, 0, 0, 0]
    assert board(ann)["me"]["position"] == 2 and board(di)["me"]["position"] == 4
    assert board(cy, player="ANN")["me"]["name"] == "ann"
    error(cy.get("/api/top100/klondike?player=nobody"), 404, "not_found")
    error(cy.get("/api/top100/patriarchs"), 404, "unknown_game")


def test_a_players_position_outside_the_top_100(app, clock):
    db = app.state.db
    now = clock.now
    with db.write() as conn:
        ids = [
            conn.execute(
                insert(users)
                .values(name=f"p{i:03}", name_key=f"p{i:03}", guest=False, created_at=now)
                .returning(users.c.id)
            ).scalar_one()
            for i in range(130)
        ]
        # Points fall by 10 every 3 players (ties of 3), reached at different times.
        for i, uid in enumerate(ids):
            apply_deltas(
                conn, "klondike", {uid: Delta(points=2000 - 10 * (i // 3), games=1)}, now + i
            )
        # p001 then passes p000's points later: equal points, p000 reached them first.
        apply_deltas(conn, "klondike", {ids[1]: Delta(points=0, games=1)}, now + 500)
    expected = sorted(
        ((2000 - 10 * (i // 3), now + i, uid) for i, uid in enumerate(ids)),
        key=lambda x: (-x[0], x[1], x[2]),
    )
    board_ = leaderboard(db, "klondike", ids[128])
    assert len(board_["players"]) == 100
    assert [p["points"] for p in board_["players"]] == [e[0] for e in expected[:100]]
    assert [p["position"] for p in board_["players"]][:7] == [1, 1, 1, 4, 4, 4, 7]
    assert [p["name"] for p in board_["players"]][:3] == ["p000", "p001", "p002"]
    me = board_["me"]
    points = 2000 - 10 * (128 // 3)
    assert me["name"] == "p128" and me["points"] == points
    assert me["position"] == 1 + sum(1 for e in expected if e[0] > points) == 127
    assert leaderboard(db, "klondike-draw1", ids[0]) == {
        "game": "klondike-draw1",
        "players": [],
        "me": None,
    }


# -- medals ---------------------------------------------------------------------------------------


def test_the_days_medals_are_awarded_once(app, settings, make_api, clock):
    day = utc_day(clock.now)
    players = [add_player(app, make_api, f"p{i}") for i in range(1, 8)]
    p1, p2, p3, p4, p5, p6, p7 = players
    s1, t1 = ranked_game(p1, clock, 24, 6, dt=1.0)
    s2, t2 = ranked_game(p2, clock, 24, 6, dt=2.0)  # the same score, slower
    s3, t3 = ranked_game(p3, clock, 24, 6, dt=2.0)  # the same score and time, finished later
    assert s1 == s2 == s3 and t1 < t2 == t3
    s4 = ranked_game(p4, clock, 24, 4)[0]
    s4b = ranked_game(p4, clock, 25, 2)[0]  # only p4's best game of the day competes
    s5 = ranked_game(p5, clock, 24, 2)[0]
    s6 = ranked_game(p6, clock, 24, 1)[0]
    assert s3 > s4 > max(s4b, s5) and s5 > s6
    assert utc_day(clock.now) == day
    # The next day starts; p7 plays on it.
    clock.now = day_start(next_day(day)) + 60
    ranked_game(p7, clock, 24, 1)
    db = app.state.db
    with pytest.raises(ValueError, match="not over yet"):
        close_day(db, "klondike", day, clock.now)  # within the 5 minutes after midnight
    assert tick(db, clock.now).days == []
    clock.advance(300)
    assert close_day(db, "klondike", day, clock.now) == 5

    def snapshot() -> tuple[Any, Any, Any]:
        with db.read() as conn:
            return (
                conn.execute(select(medals).order_by(medals.c.day, medals.c.place)).all(),
                conn.execute(select(standings).order_by(standings.c.user_id)).all(),
                conn.execute(select(closed_days).order_by(closed_days.c.day)).all(),
            )

    first = snapshot()
    assert [(m.day, m.place, m.user_id, m.score) for m in first[0]] == [
        (day, 1, p1.user_id, s1),
        (day, 2, p2.user_id, s2),
        (day, 3, p3.user_id, s3),
        (day, 4, p4.user_id, s4),
        (day, 5, p5.user_id, s5),
    ]
    # Closing it again, by hand or by the periodic task, changes nothing.
    assert close_day(db, "klondike", day, clock.now + 10) is None
    assert tick(db, clock.now + 10).days == []
    assert snapshot() == first
    top = {p["name"]: p for p in board(p1)["players"]}
    assert top["p1"]["medals"] == [1, 0, 0, 0, 0] and top["p5"]["medals"] == [0, 0, 0, 0, 1]
    assert top["p4"]["medals"] == [0, 0, 0, 1, 0] and top["p6"]["medals"] == [0, 0, 0, 0, 0]
    # A restart: a new app on the same database finds nothing to do...
    again = create_app(settings, clock=clock)
    try:
        assert tick(again.state.db, clock.now).days == []
        # ...until the next day is over. A game that counts 0 by a tournament's deadline
        # does not compete for a medal, even on a day with one other player.
        with again.state.db.write() as conn:
            expired = _tournament_zero(conn, p6.user_id, clock.now)
        clock.now = day_start(next_day(next_day(day))) + 301
        assert tick(again.state.db, clock.now).days == [("klondike", next_day(day), 1)]
        assert tick(db, clock.now).days == []
    finally:
        again.state.db.dispose()
    after = snapshot()
    assert after[0][:5] == first[0]
    assert [(m.day, m.place, m.user_id) for m in after[0][5:]] == [(next_day(day), 1, p7.user_id)]
    assert expired not in {m.play_id for m in after[0]}
    assert [(c.game_id, c.day, c.medals) for c in after[2]] == [
        ("klondike", day, 5),
        ("klondike", next_day(day), 1),
    ]


def _tournament_zero(conn: Any, user_id: int, now: float) -> str:
    """A ranked play of a round that counted 0 at a tournament's deadline (its result only)."""
    play_id = "e" * 32
    conn.execute(
        insert(plays).values(
            id=play_id,
            user_id=user_id,
            game_id="klondike",
            number="5",
            ranked=True,
            created_at=now - 10,
            updated_at=now,
            seq=0,
            moves=0,
            status="over",
            ended_at=now,
        )
    )
    insert_result(
        conn,
        play_id=play_id,
        user_id=user_id,
        game_id="klondike",
        tournament_id=None,
        round_number=None,
        outcome="expired",
        score=0,
        elapsed=10.0,
        now=now,
    )
    return play_id


def test_a_server_that_was_stopped_closes_the_days_it_missed(app, make_api, clock):
    ann = add_player(app, make_api, "ann")
    first = utc_day(clock.now)
    ranked_game(ann, clock, 24, 2)
    clock.now = day_start(next_day(first)) + 100
    ranked_game(ann, clock, 25, 2)
    # Four days later: every day from the first game on is closed, in order, with or
    # without games.
    clock.now = day_start(first) + 5 * 86_400 + 400
    done = tick(app.state.db, clock.now).days
    days = [first]
    while len(days) < 5:
        days.append(next_day(days[-1]))
    assert done == [("klondike", d, 1 if i < 2 else 0) for i, d in enumerate(days)]
    assert board(ann)["me"]["medals"] == [2, 0, 0, 0, 0]
    assert tick(app.state.db, clock.now).days == []


def test_the_close_day_command(app, make_api, clock, settings, monkeypatch):
    typer = pytest.importorskip("typer")
    from typer.testing import CliRunner

    from patiencekit.server.competition.cli import close_day as command

    ann = add_player(app, make_api, "ann")
    day = utc_day(clock.now)
    ranked_game(ann, clock, 24, 2)
    monkeypatch.setenv("PATIENCEKIT_ENV", "test")
    monkeypatch.setenv("PATIENCEKIT_SECRET_KEY", SECRET)
    monkeypatch.setenv("PATIENCEKIT_DATABASE_URL", settings.database_url)
    cli = typer.Typer()
    cli.command()(command)
    runner = CliRunner()
    result = runner.invoke(cli, [next_day(day)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"{day} klondike: 1 medal awarded",
        f"{next_day(day)} klondike: 0 medals awarded",
    ]
    result = runner.invoke(cli, [day])
    assert result.exit_code == 0 and "nothing to close" in result.output
    result = runner.invoke(cli, ["2999-01-01"])
    assert result.exit_code == 2 and "not over yet" in result.output
    assert board(ann)["me"]["medals"] == [1, 0, 0, 0, 0]


# -- profiles -------------------------------------------------------------------------------------


def test_a_players_profile(app, make_api, clock):
    ann = add_player(app, make_api, "ann")
    points = ranked_game(ann, clock, 24, 3)[0]
    profile = make_api().get("/api/players/ANN").json()
    assert profile["name"] == "ann" and profile["tournaments"] == [] and profile["medals"] == []
    standing = profile["variants"]["klondike"]["standing"]
    assert (standing["points"], standing["rank"], standing["position"]) == (points, rank(points), 1)
    assert profile["variants"]["klondike-draw1"]["standing"] is None
    assert profile["stats"] == ann.get("/api/stats/ann").json()
    assert profile["stats"]["klondike"]["played"] == 1
    error(ann.get("/api/players/nobody"), 404, "not_found")


def test_the_apps_periodic_task_closes_days_with_the_apps_clock(app, make_api, clock, monkeypatch):
    import asyncio
    import concurrent.futures

    from patiencekit.server.competition import periodic

    ann = add_player(app, make_api, "ann")
    day = utc_day(clock.now)
    ranked_game(ann, clock, 24, 2)
    clock.now = day_start(next_day(day)) + 400
    waits: list[float] = []

    async def no_pause(stop: asyncio.Event, seconds: float) -> None:
        waits.append(seconds)
        stop.set()  # stop the loop after its first tick

    monkeypatch.setattr(periodic, "_pause", no_pause)
    # a thread of its own: another test in this worker (Playwright's sync API) may have an
    # event loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        task = pool.submit(asyncio.run, periodic.run_periodically(app.state.db, clock, 60))
        assert task.result(timeout=60) is None
    assert waits == [60]
    assert board(ann)["me"]["medals"] == [1, 0, 0, 0, 0]
