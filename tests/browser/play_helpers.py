"""Helpers of the board's browser tests, a module of their own so that test files can share
them (``from play_helpers import open_deal``)."""

from __future__ import annotations

from typing import Any


def open_deal(page: Any, server: str, game: str, number: int) -> dict[str, Any]:
    """Open the play page of deal ``number`` of ``game``; the play it shows."""
    page.goto(f"{server}/play/{game}?number={number}")
    page.wait_for_function("() => window.pk?.play")
    return current(page)


def current(page: Any) -> dict[str, Any]:
    """The play the page shows now."""
    play: dict[str, Any] = page.evaluate("window.pk.play")
    return play


def wait_moves(page: Any, n: int) -> dict[str, Any]:
    """Wait until the page's play has ``n`` moves; that play."""
    page.wait_for_function("n => window.pk?.play && window.pk?.play?.n === n", arg=n)
    return current(page)
