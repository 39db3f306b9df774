"""A play's game rebuilt from its stored events, with the server's times.

Every request that has not the game kept (``fastpath``) rebuilds it by replaying the log
with the clock set to each event's time, so the elapsed time and Klondike's time bonus
are the server's, and any process serving the database can answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Row

from patiencekit.game import Game, new_game
from patiencekit.server.play.storage import Event, load_events

__all__ = ["Clock", "rebuild", "replay_row"]


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
