"""The competition's formulas, as RULES.md ("Tournaments and the Top 100") defines them.

Pure functions, no database: the rank of a number of points, a tournament's
deals, the places of a tournament and the order of a day's best games.

>>> rank(0), rank(80), rank(79), rank(65_480), rank(65_479)
(1, 4, 3, 350, 349)
>>> places([("ann", 300, 50.0), ("bob", 300, 40.0), ("cy", 100, 10.0), ("di", 300, 40.0)])
{'bob': 1, 'di': 1, 'ann': 3, 'cy': 4}
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import math
from collections.abc import Hashable, Sequence
from typing import TypeVar

__all__ = [
    "CUP_PLACES",
    "DEFAULT_SIZE",
    "MAX_SIZE",
    "MEDAL_PLACES",
    "MIN_SIZE",
    "RANK_CAP",
    "ROUNDS",
    "TOURNAMENT_NUMBERS",
    "VARIANTS",
    "day_start",
    "deal_number",
    "medal_order",
    "next_day",
    "places",
    "rank",
    "utc_day",
]

#: the games with points, a Top 100 and tournaments (the scored ones: seed 003)
VARIANTS = ("klondike", "klondike-draw1")
#: a tournament is three complete games
ROUNDS = 3
#: entrants of a tournament
MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 2, 10, 4
#: the highest rank ("Rang")
RANK_CAP = 350
#: cups count 1st to 4th places, medals 1st to 5th
CUP_PLACES = 4
MEDAL_PLACES = 5
#: a tournament's deals are drawn from 1..TOURNAMENT_NUMBERS, like a random deal
TOURNAMENT_NUMBERS = 10**9 - 1

K = TypeVar("K", bound=Hashable)


def _cube_root_floor(n: int) -> int:
    """The largest r with r**3 <= n (n >= 0), exactly.

    >>> [_cube_root_floor(n) for n in (0, 1, 7, 8, 26, 27, 10**30 - 1, 10**30)]
    [0, 1, 1, 2, 2, 3, 9999999999, 10000000000]
    """
    r = round(math.cbrt(n))
    while r**3 > n:
        r -= 1
    while (r + 1) ** 3 <= n:
        r += 1
    return r


def rank(points: int) -> int:
    """The rank ("Rang"): min(350, max(1, floor((points / 10) ** (2/3)))).

    Computed with integers, so the boundaries are exact: floor((p/10)^(2/3))
    is the largest r with r**3 <= (p/10)**2, that is 100 * r**3 <= p**2.
    Rank r is first reached at p = ceil(10 * r**1.5): 10 points give rank 1,
    80 give 4 (79 give 3), 65,480 give the cap of 350 (65,479 give 349).

    >>> [rank(p) for p in (0, 9, 10, 28, 29, 1000, 9606, 10**12)]
    [1, 1, 1, 1, 2, 21, 97, 350]
    """
    if points < 0:
        raise ValueError(f"points are never negative, not {points}")
    n = points * points // 100  # r**3 <= p**2 / 100 exactly when r**3 <= floor(p**2 / 100)
    if n >= RANK_CAP**3:
        return RANK_CAP
    return max(1, _cube_root_floor(n))


def deal_number(secret_key: str, tournament_id: int, round_number: int) -> int:
    """A tournament round's deal: an HMAC of the server's secret, the tournament and the round.

    Nobody without the secret can tell it before the tournament starts (the
    server stores it then), and every entrant of the tournament gets the same.
    The number is in 1..TOURNAMENT_NUMBERS, the range of random deals.

    >>> deal_number("a secret of sixteen", 1, 1) != deal_number("a secret of sixteen", 1, 2)
    True
    """
    message = f"patiencekit tournament {tournament_id} round {round_number}".encode()
    digest = hmac.new(secret_key.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:16], "big") % TOURNAMENT_NUMBERS + 1


def places(entrants: Sequence[tuple[K, int, float]]) -> dict[K, int]:
    """Places by score (higher first), then total time (shorter first); exact ties share.

    ``entrants`` are ``(key, score, seconds)``. Two entrants with the same
    score and the same time (to the millisecond) share a place, and the next
    place is skipped (1, 1, 3), as in the seed's Top 100.
    """
    keyed = [(key, score, round(seconds, 3)) for key, score, seconds in entrants]
    order = sorted(keyed, key=lambda e: (-e[1], e[2]))
    result: dict[K, int] = {}
    for i, (key, score, seconds) in enumerate(order):
        if i and (order[i - 1][1], order[i - 1][2]) == (score, seconds):
            result[key] = result[order[i - 1][0]]
        else:
            result[key] = i + 1
    return result


def medal_order(
    score: int, elapsed: float, finished_at: float, user_id: int
) -> tuple[int, float, float, int]:
    """The sort key of a day's games: higher score, then shorter time, then earlier finish.

    The user id settles what is left (two games finished at the same instant
    with the same score and time), so that every medal place has one owner.
    """
    return (-score, round(elapsed, 3), finished_at, user_id)


def utc_day(timestamp: float) -> str:
    """The UTC day of a time (seconds since the epoch), as ``YYYY-MM-DD``.

    >>> utc_day(1_700_000_000.0), utc_day(86_399.9), utc_day(86_400)
    ('2023-11-14', '1970-01-01', '1970-01-02')
    """
    return dt.datetime.fromtimestamp(timestamp, dt.UTC).date().isoformat()


def day_start(day: str) -> float:
    """The first second of a UTC day (``YYYY-MM-DD``); ValueError for anything else.

    >>> day_start("1970-01-02")
    86400.0
    """
    date = dt.date.fromisoformat(day)
    if date.isoformat() != day:
        raise ValueError(f"a day is written YYYY-MM-DD, not {day!r}")
    return dt.datetime(date.year, date.month, date.day, tzinfo=dt.UTC).timestamp()


def next_day(day: str) -> str:
    """The day after ``day``.

    >>> next_day("2024-02-28"), next_day("2024-02-29"), next_day("2023-12-31")
    ('2024-02-29', '2024-03-01', '2024-01-01')
    """
    return (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()
