"""Auto-complete in the web API (``POST /api/plays/{id}/autocomplete``), the play's
``autocomplete`` flag and the hint's ``words``.

The line is the solver's ``autocomplete_line``, worked out in the hint workers from what
the player sees; each of its moves is stored as a move sent to ``/moves`` is. A refusal
changes nothing. The deals' winning lines come from the solver with a budget of
positions (never seconds), so no verdict depends on the machine's speed.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from competition_helpers import add_player
from ranked_helpers import ranked_play

from patiencekit import new_game
from patiencekit.game import Game
from patiencekit.server.play.replay import rebuild
from patiencekit.server.play.storage import load_events, read_play
from patiencekit.solver import Budget, autocomplete_possible, solve

#: a Klondike (draw 3) deal the solver wins within a small budget of positions
DEAL = ("klondike", 24)


@cache
def winning_line(game_id: str, number: int) -> tuple[str, ...]:
    result = solve(game_id, number, budget=Budget(seconds=None, states=300_000, memory_mb=None))
    assert result.outcome == "solved", result
    return tuple(result.moves)


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["error"]["code"] == code, body
    assert body["error"]["message"], body
    return body


def _same(before: dict[str, Any], after: dict[str, Any]) -> None:
    for key in ("n", "piles", "legal_moves", "score", "won", "over", "last", "autocomplete"):
        assert after[key] == before[key], key


def _flag(game: Game) -> bool:
    """The flag as the engine and the solver say it for ``game``."""
    return not game.is_over() and autocomplete_possible(game)


def reach_autocomplete(
    api: Any, play: dict[str, Any], game_id: str, number: int, clock: Any = None
) -> tuple[dict[str, Any], list[str]]:
    """Play the solver's winning line through ``/moves`` until the answer's ``autocomplete``
    is true; that answer and the moves played. Every answer's flag is the engine's."""
    engine = new_game(game_id, number)
    assert play["autocomplete"] is False and not _flag(engine)
    line = winning_line(game_id, number)
    played: list[str] = []
    for move in line:
        if clock is not None:
            clock.advance(1.0)
        play = api.play_ok(play, move)
        engine.play(move)
        played.append(move)
        assert play["autocomplete"] is _flag(engine), (len(played), move)
        if play["autocomplete"]:
            assert not play["won"] and len(played) < len(line)
            return play, played
    raise AssertionError("the flag never came on before the win")


def _stored(app: Any, play_id: str) -> tuple[Any, Game]:
    """The play's row and the game its stored events replay to."""
    with app.state.db.read() as conn:
        row = read_play(conn, play_id)
        assert row is not None
        events = load_events(conn, play_id, row.seq)
    game, _clock = rebuild(row.game_id, int(row.number), row.ranked, row.created_at, events)
    return row, game


def test_refused_from_a_fresh_deal_changing_nothing(api):
    play = api.new_play(*DEAL)
    assert play["autocomplete"] is False
    r = api.post(f"/api/plays/{play['id']}/autocomplete", {"n": 0})
    body = _error(r, 409, "no_autocomplete")
    assert "play on" in body["error"]["message"]
    _same(play, api.get(f"/api/plays/{play['id']}").json())


def test_finishes_where_the_view_proves_the_win(app, api):
    play = api.new_play(*DEAL)
    play, played = reach_autocomplete(api, play, *DEAL)
    n = play["n"]
    r = api.post(f"/api/plays/{play['id']}/autocomplete", {"n": n})
    assert r.status_code == 200, r.text
    won = r.json()
    done = won["autocompleted"]
    assert done and all(isinstance(m, str) for m in done)
    assert won["won"] is won["over"] is True and won["autocomplete"] is False
    assert won["n"] == n + len(done) and won["last"] == done[-1] and won["legal_moves"] == []
    # the same as the engine finishing the game with the same moves
    engine = new_game(*DEAL)
    for m in [*played, *done]:
        engine.play(m)
    assert engine.is_won()
    assert won["score"] == engine.score and won["piles"] == engine.view().to_json()["piles"]
    again = api.get(f"/api/plays/{play['id']}").json()
    assert "autocompleted" not in again
    _same({**won, "autocomplete": False}, again)
    # each move is stored as a move: the record replays to the win
    row, stored = _stored(app, play["id"])
    assert stored.is_won() and [str(m) for m in stored.moves] == [*played, *done]
    assert row.seq == won["n"] and row.status == "won" and row.won_at is not None
    # once won, there is nothing to complete
    r = api.post(f"/api/plays/{play['id']}/autocomplete", {"n": won["n"]})
    _error(r, 409, "game_over")


def test_a_ranked_play_is_finished_and_scored_as_usual(app, make_api, clock):
    ann = add_player(app, make_api, "ann")
    game_id, number = DEAL
    start = clock.now
    play = ranked_play(ann, game_id, number)
    assert play["number"] is None
    play, played = reach_autocomplete(ann, play, game_id, number, clock)
    clock.advance(1.0)
    r = ann.post(f"/api/plays/{play['id']}/autocomplete", {"n": play["n"]})
    assert r.status_code == 200, r.text
    won = r.json()
    done = won["autocompleted"]
    assert won["won"] is True and won["ranked"] is True and won["number"] == number
    engine = new_game(game_id, number)
    for m in [*played, *done]:
        engine.play(m)
    elapsed = clock.now - start
    assert won["time_bonus"] == max(0, 1000 - int(elapsed))
    assert won["score"] == engine.base_score + won["time_bonus"]
    # the completed ranked game counts its final score, as any win does
    me = ann.get(f"/api/top100/{game_id}").json()["me"]
    assert (me["points"], me["games"]) == (won["score"], 1)
    row, stored = _stored(app, play["id"])
    assert stored.is_won() and row.ended_at is not None and row.seq == won["n"]
    r = ann.post(f"/api/plays/{play['id']}/autocomplete", {"n": won["n"]})
    _error(r, 409, "game_over")


def test_stale_n_another_player_unknown_play_and_an_ended_play_are_refused(
    app, api, other_api, make_api
):
    play = api.new_play(*DEAL)
    play, _played = reach_autocomplete(api, play, *DEAL)
    url = f"/api/plays/{play['id']}/autocomplete"
    _error(api.post(url, {"n": play["n"] - 1}), 409, "conflict")
    _same(play, api.get(f"/api/plays/{play['id']}").json())
    _error(other_api.post(url, {"n": play["n"]}), 403, "forbidden")
    _same(play, api.get(f"/api/plays/{play['id']}").json())
    _error(api.post(f"/api/plays/{'0' * 32}/autocomplete", {"n": 0}), 404, "not_found")
    _error(api.post(url, {"n": "3"}), 422, "bad_request")
    # a ranked play given up has ended: no more moves, auto-complete neither
    bob = add_player(app, make_api, "bob")
    ranked = ranked_play(bob, *DEAL)
    r = bob.post(f"/api/plays/{ranked['id']}/finish", {"n": 0})
    assert r.status_code == 200, r.text
    assert r.json()["autocomplete"] is False
    _error(bob.post(f"/api/plays/{ranked['id']}/autocomplete", {"n": 0}), 409, "game_over")


def test_the_flag_follows_the_solver_along_a_whole_game(api):
    """False at the deal; after every move, what the solver's ``autocomplete_possible``
    says of the same game (the engine's, replaying the same moves); false once won."""
    game_id, number = "klondike-draw1", 1
    play = api.new_play(game_id, number)
    engine = new_game(game_id, number)
    assert play["autocomplete"] is False is _flag(engine)
    flags = []
    for move in winning_line(game_id, number):
        play = api.play_ok(play, move)
        engine.play(move)
        assert play["autocomplete"] is _flag(engine), move
        flags.append(play["autocomplete"])
    assert play["won"] and play["autocomplete"] is False
    assert any(flags) and not all(flags)
    assert api.get(f"/api/plays/{play['id']}").json()["autocomplete"] is False
    # undo out of the won position: the flag comes back with the solver's verdict
    r = api.post(f"/api/plays/{play['id']}/undo", {"n": play["n"]})
    assert r.status_code == 200, r.text
    engine.undo()
    assert r.json()["autocomplete"] is _flag(engine)


def test_the_flag_in_a_game_without_face_down_cards(api):
    """Patriarchs hides only its stock: the flag is false while the stock holds a card."""
    play = api.new_play("patriarchs", 3)
    assert play["autocomplete"] is False is _flag(new_game("patriarchs", 3))


def test_the_hint_is_said_in_words(api):
    play = api.new_play(*DEAL)
    r = api.post(f"/api/plays/{play['id']}/hint")
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"hint", "n", "words"}
    assert body["hint"] in play["legal_moves"]
    words = body["words"]
    assert isinstance(words, str) and words == new_game(*DEAL).describe(body["hint"])
    assert body["hint"] not in words


def test_the_flag_is_the_solver_s_in_every_game():
    """The play's flag is read off the view where the solver's contract allows
    (``models.autocomplete_offered``): the same as ``autocomplete_possible`` in every game
    of the registry, along seeded random walks."""
    from patiencekit.games import GAMES
    from patiencekit.server.play.models import play_json

    for game_id in GAMES:
        for seed in (1, 2):
            rng = random.Random(seed)
            game = new_game(game_id, 500 + seed)
            for _ in range(80):
                assert play_json("0" * 32, False, game)["autocomplete"] is _flag(game), game_id
                moves = list(game.legal_moves)
                if not moves or game.is_over():
                    break
                game.play(rng.choice(moves))
