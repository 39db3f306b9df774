"""The statistics' figures as pure functions (``patiencekit.server.stats.figures``): how a play
ends, played / won / streaks, and the charts' points (the rolling win rate, the streak at
each play, a win's score and time)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("fastapi", reason="the server extra is not installed")

from patiencekit.server.stats.figures import (
    ENDINGS,
    Ended,
    chart_points,
    ended_plays,
    ending,
    game_stats,
    needs_running_score,
)


@dataclass(frozen=True)
class Row:
    """The columns the figures read of a play row."""

    ranked: bool = False
    seq: int = 1
    status: str = "playing"
    ended_at: float | None = None
    outcome: str | None = None
    created_at: float = 0.0
    win_elapsed: float | None = None
    win_score: int | None = None
    win_moves: int | None = None
    result_score: int | None = None
    id: str = "a-play"


def won(t: float = 100.0, score: int | None = 1000, at: float = 0.0) -> Row:
    return Row(status="won", win_elapsed=t, win_score=score, win_moves=int(t), created_at=at)


def left(at: float = 0.0) -> Row:
    """A casual play with a move, still playing."""
    return Row(created_at=at)


@pytest.mark.parametrize(
    ("row", "newer", "expected"),
    [
        # casual
        (Row(seq=0), True, None),  # dealt, never played
        (Row(), False, None),  # in progress
        (Row(), True, "abandoned"),  # left for a newer deal
        (Row(status="won"), False, "won"),
        (Row(status="won"), True, "won"),
        (Row(status="over"), False, "lost"),
        # ranked: only once the server ended it, even with no move
        (Row(ranked=True, status="playing"), True, None),
        (Row(ranked=True, seq=0, status="over", ended_at=9, outcome="gave_up"), False, "given_up"),
        (Row(ranked=True, status="won", ended_at=9.0, outcome="won"), False, "won"),
        (Row(ranked=True, status="over", ended_at=9.0, outcome="over"), False, "lost"),
        (Row(ranked=True, status="over", ended_at=9.0, outcome="expired"), False, "expired"),
        # an unscored variant's ranked game has no result: its status says
        (Row(ranked=True, status="won", ended_at=9.0), False, "won"),
        (Row(ranked=True, status="over", ended_at=9.0), False, "lost"),
    ],
)
def test_how_a_play_ends(row: Row, newer: bool, expected: str | None) -> None:
    assert ending(row, newer) == expected
    assert expected is None or expected in ENDINGS


def test_only_the_newest_casual_play_is_in_progress() -> None:
    rows = [left(), Row(seq=0), won(), left(), left()]
    assert [p.ending for p in ended_plays(rows)] == ["abandoned", "won", "abandoned"]
    # a ranked game still open is in progress wherever it is
    rows = [Row(ranked=True), left()]
    assert ended_plays(rows) == []


def test_played_counts_ended_plays_and_the_streak_ignores_the_one_in_progress() -> None:
    rows = [won(50.0), left(), won(40.0, 1200), won(60.0, 900), left()]
    stats = game_stats(ended_plays(rows))
    assert stats == {
        "played": 4,
        "won": 3,
        "win_rate": 0.75,
        "streak": 2,
        "best_streak": 2,
        "best_time": 40.0,
        "best_score": 1200,
        "fewest_moves": 40,
    }
    # the play in progress, once abandoned, breaks the streak and counts
    stats = game_stats(ended_plays([*rows, left()]))
    assert (stats["played"], stats["streak"], stats["best_streak"]) == (5, 0, 2)
    assert game_stats([])["win_rate"] == 0.0 and game_stats([])["best_time"] is None


def test_the_charts_points() -> None:
    rows = [left(1.0), won(50.0, 1100, 2.0), won(40.0, None, 3.0), left(4.0), won(30.0, 900, 5.0),
            left(6.0)]  # fmt: skip
    points = chart_points(ended_plays(rows), window=3)
    assert [p["n"] for p in points] == [1, 2, 3, 4, 5]  # the last one is in progress
    assert [p["at"] for p in points] == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert [p["result"] for p in points] == ["abandoned", "won", "won", "abandoned", "won"]
    # over the last 3 (fewer at the start): 0/1, 1/2, 2/3, 2/3, 2/3
    assert [p["rate"] for p in points] == [0.0, 0.5, 0.6667, 0.6667, 0.6667]
    assert [p["streak"] for p in points] == [0, 1, 2, 0, 1]
    assert [p["score"] for p in points] == [None, 1100, None, None, 900]
    assert [p["time"] for p in points] == [None, 50.0, 40.0, None, 30.0]
    # every ended play's final score: a win's, a ranked result's, else the running one given
    assert [p["final_score"] for p in points] == [None, 1100, None, None, 900]
    ranked_loss = Row(ranked=True, status="over", ended_at=7.0, outcome="gave_up", result_score=-5)
    casual = Row(id="c", status="over")
    ended = ended_plays([*rows[:-1], ranked_loss, casual])
    assert [needs_running_score(p) for p in ended] == [True, False, False, True, False, False, True]
    final = chart_points(ended, window=3, running={"a-play": 15, "c": 40})
    assert [p["final_score"] for p in final] == [15, 1100, None, 15, 900, -5, 40]
    # the newest ones only, each keeping its place
    newest = chart_points(ended_plays(rows), window=3, limit=2)
    assert newest == points[-2:]
    with pytest.raises(ValueError, match="at least 1"):
        chart_points([], window=0)


@given(st.lists(st.booleans(), max_size=60), st.integers(1, 12))
def test_the_rolling_win_rate_and_streak_agree_with_counting(wins: list[bool], window: int) -> None:
    ended = [Ended(won() if w else left(), "won" if w else "abandoned") for w in wins]
    points = chart_points(ended, window=window, limit=1000)
    assert len(points) == len(wins)
    for i, point in enumerate(points):
        last = wins[max(0, i - window + 1) : i + 1]
        assert point["rate"] == round(sum(last) / len(last), 4)
        run = 0
        while run <= i and wins[i - run]:
            run += 1
        assert point["streak"] == run
    assert game_stats(ended)["best_streak"] == max((p["streak"] for p in points), default=0)
