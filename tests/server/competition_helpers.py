"""Helpers of the competition tests (tests/server/test_competition*.py).

Players are made straight in the database with a live session (no argon2 hash
to compute: sign-up is tested elsewhere), and a test computes the score it
expects with the engine on its own, never by asking the server.
"""

from __future__ import annotations

import secrets
from typing import Any

from ranked_helpers import deal_of
from sqlalchemy import insert, select

from patiencekit import new_game
from patiencekit.server.competition.scoring import tournament_deals
from patiencekit.server.competition.tables import tournaments
from patiencekit.server.db import sessions, users
from patiencekit.server.security import hash_token

#: the secret of the test settings (conftest.SECRET)
SECRET = "test-secret-key-0123456789abcdef"


def add_player(app: Any, make_api: Any, name: str) -> Any:
    """A signed-in browser of a new account called ``name``."""
    db = app.state.db
    now = app.state.clock()
    token = secrets.token_urlsafe(32)
    with db.write() as conn:
        user_id = conn.execute(
            insert(users)
            .values(
                name=name, name_key=name.lower(), password_hash=None, guest=False, created_at=now
            )
            .returning(users.c.id)
        ).scalar_one()
        conn.execute(
            insert(sessions).values(
                token_hash=hash_token(token),
                user_id=user_id,
                created_at=now,
                expires_at=now + 10**9,
            )
        )
    api = make_api(cookies={"pk_session": token})
    api.name = name
    api.user_id = user_id
    return api


def deals_of(app: Any, tid: int) -> tuple[int, ...]:
    """A started tournament's deals, from its secret as the server keeps it (never sent); they
    are the deals the server stored at the start."""
    with app.state.db.read() as conn:
        row = conn.execute(
            select(tournaments.c.secret, tournaments.c.deals).where(tournaments.c.id == tid)
        ).one()
    assert row.secret is not None and len(row.secret) == 64, "the tournament has not started"
    deals = tournament_deals(row.secret)
    assert row.deals == " ".join(map(str, deals))
    return deals


def user_id(app: Any, name: str) -> int:
    with app.state.db.read() as conn:
        return int(conn.execute(select(users.c.id).where(users.c.name == name)).scalar_one())


def scoring_line(game_id: str, number: int, k: int) -> tuple[list[str], int]:
    """Moves that make up to ``k`` score-gaining moves (turning the stock between them), and
    the running score after them, as the engine computes it here in the test.

    The line never ends the game: it stops early rather than make a move after which no
    move is left (the server would end the game there, and refuse any move after).
    """
    g = new_game(game_id, number)
    line: list[str] = []
    gained = idle = 0

    def ended() -> bool:
        return g.is_over() or not list(g.legal_moves)

    while gained < k and idle < 60 and not g.is_over():
        best: tuple[str, int] | None = None
        for m in list(g.legal_moves):
            text = str(m)
            if text in ("s", "t"):
                continue
            before = g.base_score or 0
            g.play(text)
            gain = (g.base_score or 0) - before
            ends = ended()
            g.undo()
            if gain > 0 and not ends and (best is None or gain > best[1]):
                best = (text, gain)
        if best is not None:
            g.play(best[0])
            line.append(best[0])
            gained += 1
            idle = 0
            continue
        legal = [str(m) for m in g.legal_moves]
        turn = "s" if "s" in legal else "t" if "t" in legal else None
        if turn is None:
            break
        g.play(turn)
        if ended():
            g.undo()
            break
        line.append(turn)
        idle += 1
    return line, int(g.base_score or 0)


def play_line(api: Any, play: dict[str, Any], moves: list[str], clock: Any, dt: float) -> Any:
    """Send ``moves`` one by one, the clock moving ``dt`` seconds before each."""
    for text in moves:
        clock.advance(dt)
        r = api.post(f"/api/plays/{play['id']}/moves", {"move": text, "n": play["n"]})
        assert r.status_code == 200, r.text
        play = r.json()
    return play


def give_up(api: Any, play: dict[str, Any]) -> dict[str, Any]:
    r = api.post(f"/api/plays/{play['id']}/finish", {"n": play["n"]})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def open_round(api: Any, tid: int, rnd: int, status: int = 201) -> dict[str, Any]:
    r = api.post(f"/api/tournaments/{tid}/rounds/{rnd}/play")
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    return body


def play_round(
    api: Any, tid: int, rnd: int, k: int, clock: Any, dt: float = 1.0
) -> tuple[dict[str, Any], int, float]:
    """Open a round, make ``k`` scoring moves, give up one second later.

    Returns the answer to giving up, the score the engine says the round is
    worth, and the round's time (seconds from opening to giving up).
    """
    start = clock.now
    play = open_round(api, tid, rnd)
    # A running round's deal is never sent: the test reads it where the server keeps it.
    line, score = scoring_line(play["game"], deal_of(api.client.app, play["id"]), k)
    play = play_line(api, play, line, clock, dt)
    assert play["score"] == score and not play["over"]
    clock.advance(1.0)
    done = give_up(api, play)
    return done, score, clock.now - start


def tournament(api: Any, tid: int) -> dict[str, Any]:
    r = api.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def error(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    return message
