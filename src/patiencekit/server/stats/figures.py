"""How each play ended, and what a player's ended plays add up to: pure functions on play rows.

A row is anything with the columns of ``plays`` that :mod:`.queries` reads (``id``,
``ranked``, ``seq``, ``status``, ``ended_at``, ``win_elapsed``, ``win_score``, ``win_moves``)
and the ranked result's ``outcome`` and ``result_score`` (``None`` without one). The rows
of one player and one game come oldest first (the order they were dealt).

**How a play ends** (its *ending*; ``None`` while it is still in progress):

- a ranked play (a single game or a tournament round) once the server has ended it
  (``ended_at``): ``won``; ``lost`` (no move left); ``given_up`` (``POST .../finish``, a new
  ranked game started with ``give_up``, or a day without a move, the housekeeping's); or
  ``expired`` (a tournament's deadline passed). It counts even with no move made: every
  ended ranked game counts (RULES.md, "Fair competition").
- a casual play with a move: ``won`` once it reached a win (an undo afterwards does not take
  it back), ``lost`` while no move is left, else ``abandoned`` once the player has dealt a
  newer play of the same game (casual or ranked); until then it is in progress. A casual
  play ends nowhere else (it stays open to be resumed): an abandoned play taken up and won
  is a win.

>>> from types import SimpleNamespace as Row
>>> casual = Row(ranked=False, seq=3, status="playing", ended_at=None, outcome=None)
>>> ending(casual, newer=False), ending(casual, newer=True)
(None, 'abandoned')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "CHART_POINTS",
    "ENDINGS",
    "WINDOW",
    "Ended",
    "Ending",
    "chart_points",
    "ended_plays",
    "ending",
    "game_stats",
    "needs_running_score",
]

#: how a play ended
Ending = Literal["won", "lost", "given_up", "expired", "abandoned"]
ENDINGS: tuple[Ending, ...] = ("won", "lost", "given_up", "expired", "abandoned")
#: the rolling win rate is taken over this many ended plays (fewer at the start)
WINDOW = 10
#: the charts show at most the newest this many ended plays of a game
CHART_POINTS = 200

#: a ranked result's outcome (``results.outcome``) as an ending
_OUTCOMES: dict[str, Ending] = {
    "won": "won",
    "over": "lost",
    "gave_up": "given_up",
    "expired": "expired",
}


def ending(row: Any, newer: bool) -> Ending | None:
    """How the play ``row`` ended, or ``None`` while it is in progress; ``newer``: the
    player has dealt a newer play of the same game.

    A ranked play without a result (an unscored game's) is ``won`` or ``lost`` by its
    status: its row cannot tell a game given up from one with no move left (the history
    tells them apart by its replay).

    >>> from types import SimpleNamespace as Row
    >>> ending(Row(ranked=True, seq=0, status="over", ended_at=5.0, outcome="gave_up"), False)
    'given_up'
    >>> ending(Row(ranked=True, seq=9, status="playing", ended_at=None, outcome=None), True)
    >>> ending(Row(ranked=False, seq=0, status="playing", ended_at=None, outcome=None), True)
    """
    if row.ranked:
        if row.ended_at is None:
            return None
        if row.outcome is not None:
            return _OUTCOMES.get(row.outcome, "lost")
        return "won" if row.status == "won" else "lost"
    if row.seq == 0:
        return None  # dealt, never played
    if row.status == "won":
        return "won"
    if row.status == "over":
        return "lost"
    return "abandoned" if newer else None


@dataclass(frozen=True, slots=True)
class Ended:
    """An ended play: its row and how it ended."""

    row: Any
    ending: Ending

    @property
    def won(self) -> bool:
        return self.ending == "won"


def ended_plays(rows: Sequence[Any]) -> list[Ended]:
    """The ended plays among one player's plays of one game (oldest first), in order."""
    last = len(rows) - 1
    found = []
    for i, row in enumerate(rows):
        how = ending(row, newer=i < last)
        if how is not None:
            found.append(Ended(row, how))
    return found


def _streaks(ended: Sequence[Ended]) -> list[int]:
    """The run of wins up to and including each ended play."""
    runs, run = [], 0
    for play in ended:
        run = run + 1 if play.won else 0
        runs.append(run)
    return runs


def game_stats(ended: Sequence[Ended]) -> dict[str, Any]:
    """The statistics of one player's ended plays of one game (oldest first).

    ``played``: the ended plays; ``won``: those won; ``streak``: the wins in a row up to
    the newest ended play; ``best_streak``: the longest such run. Best time, score and
    fewest moves are over the won plays, each taken at its first win.

    >>> from types import SimpleNamespace as Row
    >>> def play(how, t=None): return Ended(Row(win_elapsed=t, win_score=None, win_moves=t), how)
    >>> s = game_stats([play("won", 9.0), play("abandoned"), play("won", 7.0), play("won", 8.0)])
    >>> s["played"], s["won"], s["streak"], s["best_streak"], s["best_time"], s["win_rate"]
    (4, 3, 2, 2, 7.0, 0.75)
    """
    played = len(ended)
    won_rows = [p.row for p in ended if p.won]
    runs = _streaks(ended)
    times = [r.win_elapsed for r in won_rows if r.win_elapsed is not None]
    scores = [r.win_score for r in won_rows if r.win_score is not None]
    moves = [r.win_moves for r in won_rows if r.win_moves is not None]
    return {
        "played": played,
        "won": len(won_rows),
        "win_rate": round(len(won_rows) / played, 4) if played else 0.0,
        "streak": runs[-1] if runs else 0,
        "best_streak": max(runs, default=0),
        "best_time": round(min(times), 3) if times else None,
        "best_score": max(scores) if scores else None,
        "fewest_moves": min(moves) if moves else None,
    }


def needs_running_score(play: Ended) -> bool:
    """Whether the final score of the ended ``play`` is in no column of its row: a play not
    won without a ranked result's score (a casual play: its running score at its last move,
    which only a replay of its moves gives).

    >>> from types import SimpleNamespace as Row
    >>> needs_running_score(Ended(Row(result_score=None), "abandoned"))
    True
    >>> needs_running_score(Ended(Row(result_score=-20), "given_up"))
    False
    """
    return not play.won and play.row.result_score is None


def _final_score(play: Ended, running: Mapping[str, int | None]) -> int | None:
    row = play.row
    if play.won:
        return row.win_score  # type: ignore[no-any-return]
    if row.result_score is not None:
        return int(row.result_score)
    return running.get(row.id)


def chart_points(
    ended: Sequence[Ended],
    window: int = WINDOW,
    limit: int = CHART_POINTS,
    running: Mapping[str, int | None] | None = None,
) -> list[dict[str, Any]]:
    """One point per ended play of a game (oldest first; the newest ``limit`` of them):
    ``n`` (its place among the ended plays, from 1), ``at`` (when it was dealt), ``result``
    (its ending), ``rate`` (the win rate over it and the ``window - 1`` ended plays before
    it, fewer at the start), ``streak`` (the wins in a row up to it), and for a win its
    ``score`` (Klondike's, time bonus included; ``null`` in the other games) and ``time``
    (seconds, the server's clock); ``null`` for the others. ``final_score`` is every ended
    play's score as it ended: a win's (as ``score``), a ranked result's, else ``running``'s
    (the running score at the play's last move, by play id: :func:`needs_running_score`);
    ``null`` in a game without a score.

    >>> from types import SimpleNamespace as Row
    >>> def play(how):
    ...     row = Row(id=how, created_at=0.0, win_elapsed=5.0, win_score=9, result_score=None)
    ...     return Ended(row, how)
    >>> points = chart_points([play("won"), play("lost"), play("won"), play("won")], window=2,
    ...                       running={"lost": 4})
    >>> [(p["rate"], p["streak"], p["time"], p["final_score"]) for p in points]
    [(1.0, 1, 5.0, 9), (0.5, 0, None, 4), (0.5, 1, 5.0, 9), (1.0, 2, 5.0, 9)]
    """
    running = running or {}
    if window < 1:
        raise ValueError(f"the window of the win rate is at least 1 play, not {window}")
    runs = _streaks(ended)
    points = []
    wins_in_window = 0
    for i, play in enumerate(ended):
        wins_in_window += play.won
        if i >= window and ended[i - window].won:
            wins_in_window -= 1
        counted = min(i + 1, window)
        row = play.row
        points.append(
            {
                "n": i + 1,
                "at": row.created_at,
                "result": play.ending,
                "rate": round(wins_in_window / counted, 4),
                "streak": runs[i],
                "score": row.win_score if play.won else None,
                "time": round(row.win_elapsed, 3)
                if play.won and row.win_elapsed is not None
                else None,
                "final_score": _final_score(play, running),
            }
        )
    return points[-limit:] if limit > 0 else []
