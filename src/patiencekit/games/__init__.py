"""The registry of games: every game of RULES.md under a stable id.

>>> [g.id for g in GAMES.values()][:3]
['klondike', 'klondike-draw1', 'patiencemax']
>>> get_rules("Solitaire").id
'klondike'
"""

from __future__ import annotations

from patiencekit.errors import UnknownGameError
from patiencekit.games.klondike import KLONDIKE, KLONDIKE_DRAW1
from patiencekit.games.patiencemax import PATIENCEMAX, PATIENCEMAX_ALL_TO_PILES
from patiencekit.games.patriarchs import (
    CAPTURED_QUEENS,
    CONTRADANCE,
    ODD_AND_EVEN,
    PATRIARCHS,
    PICTURE_PATIENCE,
    ROYAL_COTILLION,
)
from patiencekit.games.senior_wrangler import SENIOR_WRANGLER
from patiencekit.rules import GameRules

__all__ = ["GAMES", "get_rules"]

#: Every game, by id, in the order they are listed to players.
GAMES: dict[str, GameRules] = {
    g.id: g
    for g in (
        KLONDIKE,
        KLONDIKE_DRAW1,
        PATIENCEMAX,
        PATIENCEMAX_ALL_TO_PILES,
        PATRIARCHS,
        PICTURE_PATIENCE,
        ODD_AND_EVEN,
        ROYAL_COTILLION,
        CONTRADANCE,
        CAPTURED_QUEENS,
        SENIOR_WRANGLER,
    )
}

_ALIASES = {a: g.id for g in GAMES.values() for a in g.aliases}


def get_rules(game_id: str) -> GameRules:
    """The rules of a game by id (or alias), case-insensitive; raises :class:`UnknownGameError`."""
    key = game_id.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGameError(f"No game is called {game_id!r}. The games are: {known}.") from None
