"""Golden transcripts: one full won game per game id, replayed through the engine.

The records live in ``tests/data/golden/<game-id>.json`` (written by
``tools/find_win.py``): ``{"game", "number", "moves", "result": {"won", "moves",
"score"}}``, the score without the time bonus (``null`` for unscored games).
A missing file fails the test of its game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from patiencekit import GAMES, Game, Move, parse_record
from patiencekit.notation import format_record

GOLDEN_DIR = Path(__file__).parent / "data" / "golden"


def fixed_clock() -> float:
    return 0.0


def load(game_id: str) -> dict[str, Any]:
    path = GOLDEN_DIR / f"{game_id}.json"
    assert path.is_file(), f"no golden game for {game_id}: run tools/find_win.py {game_id}"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("game_id", list(GAMES))
def test_golden_game_is_won_on_replay(game_id: str) -> None:
    data = load(game_id)
    assert data["game"] == game_id
    result = data["result"]
    assert result["won"] is True
    assert result["moves"] == len(data["moves"])

    game = Game.from_record(data, clock=fixed_clock)
    assert game.is_won()
    assert game.is_over()
    assert len(game.moves) == result["moves"]
    assert [str(m) for m in game.moves] == data["moves"]
    if game.rules.scored:
        # the clock never moved: the full time bonus is paid on top of the file's score
        assert game.time_bonus == 1000
        assert game.score == result["score"] + 1000
        assert game.state.score == result["score"]
    else:
        assert result["score"] is None
        assert game.score is None
    # the record ends with the winning move
    undone = game.undo()
    assert not game.is_won()
    assert str(undone) == data["moves"][-1]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_golden_moves_are_canonical(game_id: str) -> None:
    data = load(game_id)
    for n, text in enumerate(data["moves"], start=1):
        assert str(Move.parse(text)) == text, f"move {n}: {text!r}"
    record = parse_record(json.dumps(data))
    assert record.game == game_id
    assert record.extra == {"result": data["result"]}
    assert parse_record(format_record(record)) == record
