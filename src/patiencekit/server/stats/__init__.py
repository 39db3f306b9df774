"""A player's statistics: per game the figures (played, won, win rate, streaks, bests), the
charts' points, and the history of their games with a replay of each.

Only ended plays count (:mod:`.figures` says how a play ends: won, lost, given up,
expired, or a casual play abandoned for a newer one); a play in progress counts nowhere
yet, and a daily deal's play only in its day's table (:mod:`.queries`). Anyone may read a
player's statistics, charts and history, as the stats have always been; only the player
sees their own plays' ids, deal numbers and replays (a tournament round's deal and replay
are everyone's once its tournament is over, and nobody's before). :mod:`.service` reads
and adds up, :mod:`.routes` is the API.
"""

from __future__ import annotations

from patiencekit.server.stats.figures import game_stats
from patiencekit.server.stats.routes import GameStats, PlayerStats, router
from patiencekit.server.stats.service import player_stats

__all__ = ["GameStats", "PlayerStats", "game_stats", "player_stats", "router"]
