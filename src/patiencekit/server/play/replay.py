"""A play's game rebuilt from its stored events, with the server's times; and a play shown
as a replay.

Every request that has not the game kept (``fastpath``) rebuilds it by replaying the log
with the clock set to each event's time, so the elapsed time and Klondike's time bonus
are the server's, and any process serving the database can answer.

A replay (a tournament's, a player's own games on their statistics page) is the play's
line of moves as a game record (:func:`line_times` gives each move's time) and the board
the player saw after any number of them (:func:`view_at`): the player's view, so a
replay shows no card that was hidden at that step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Row

from patiencekit.game import Game, new_game
from patiencekit.server.play.storage import Event, load_events

__all__ = ["Clock", "line_times", "rebuild", "replay_row", "view_at"]


class Clock:
    """A clock that says what it is told: the time of the event being replayed."""

    __slots__ = ("now",)

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _apply(game: Game, kind: str, move: str | None) -> None:
    if kind == "move":
        if move is None:
            raise ValueError("a move event without its move")
        game.play(move)
    elif kind == "undo":
        game.undo()
    elif kind == "redo":
        game.redo()
    elif kind == "restart":
        # a new attempt at the deal: its clock and move counter start again (docs/api.md)
        game.restart(afresh=True)
    else:
        raise ValueError(f"unknown event kind {kind!r}")


def rebuild(
    game_id: str, number: int, ranked: bool, created_at: float, events: Sequence[Event]
) -> tuple[Game, Clock]:
    """The game after replaying ``events`` (kind, move, time), with the server's times.

    The deal starts at ``created_at``; a winning move stops the clock at its own time, and
    a restart starts it again at its own.

    >>> g, clock = rebuild("klondike", 24, False, 100.0, [("move", "s", 103.5)])
    >>> clock.now = 110.0
    >>> g.moves, g.elapsed
    ([Move.parse('s')], 10.0)
    >>> g, clock = rebuild("klondike", 24, False, 100.0, [("move", "s", 103.5),
    ...                                                   ("restart", None, 104.0)])
    >>> clock.now = 110.0
    >>> g.elapsed, g.moves_made
    (6.0, 0)
    """
    clock = Clock(created_at)
    game = new_game(game_id, number, clock=clock, undo=not ranked)
    for kind, move, at in events:
        clock.now = at
        _apply(game, kind, move)
    return game, clock


def replay_row(conn: Connection, row: Row[Any], now: float) -> tuple[Game, Clock]:
    """The play ``row`` as its stored events (up to the row's ``seq``) replay, and its
    clock, at ``now`` or later if the play is (the wall clock may step back; the play's
    clock does not)."""
    events = load_events(conn, row.id, row.seq)
    game, clock = rebuild(row.game_id, int(row.number), row.ranked, row.created_at, events)
    clock.now = max(now, clock.now, row.updated_at)
    return game, clock


def line_times(
    game_id: str, number: int, ranked: bool, created_at: float, events: Sequence[Event]
) -> tuple[Game, list[float]]:
    """The game after replaying ``events`` (as :func:`rebuild`) and, for each move of its
    line as it stands (``game.moves``), the second from the deal when it went into the line
    (played, or played again by a redo).

    >>> g, times = line_times("klondike", 24, False, 100.0,
    ...                       [("move", "s", 101.0), ("move", "s", 102.5), ("undo", None, 103.0)])
    >>> [str(m) for m in g.moves], times
    (['s'], [1.0])
    """
    clock = Clock(created_at)
    game = new_game(game_id, number, clock=clock, undo=not ranked)
    times: list[float] = []
    for kind, move, at in events:
        clock.now = at
        _apply(game, kind, move)
        length = game.state.history_length
        if kind in ("move", "redo"):
            del times[length - 1 :]
            times.append(round(at - created_at, 3))
        else:
            del times[length:]
    return game, times


def view_at(game_id: str, number: int, moves: Sequence[str], total: int) -> dict[str, Any]:
    """The board of a replay after ``moves`` (the first of its ``total``), as the player saw
    it: ``{"game", "number", "step", "steps", "piles", "score", "last", "won"}`` (``score``
    without the time bonus; ``piles`` as :meth:`Game.view`, hidden cards ``null``).

    >>> view = view_at("klondike", 24, ["s"], 3)
    >>> view["step"], view["steps"], view["last"], view["won"]
    (1, 3, 's', False)
    """
    game = new_game(game_id, number, clock=lambda: 0.0)
    for m in moves:
        game.play(m)
    return {
        "game": game_id,
        "number": number,
        "step": len(moves),
        "steps": total,
        "piles": game.view().to_json()["piles"],
        "score": game.base_score,
        "last": moves[-1] if moves else None,
        "won": game.is_won(),
    }
