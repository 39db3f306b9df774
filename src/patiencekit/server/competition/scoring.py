"""The competition's formulas, as RULES.md ("Tournaments and the Top 100") defines them.

Pure functions, no database: the rank of a number of points, a tournament's
deals from its secret, the places of a tournament and the order of a day's best
games.

>>> rank(0), rank(49), rank(50), rank(9_605), rank(77_479), rank(77_480)
(1, 1, 2, 100, 349, 350)
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

from patiencekit.deals import MAX_GAME_NUMBER
from patiencekit.games import FACTS

__all__ = [
    "CUP_PLACES",
    "DEFAULT_SIZE",
    "MAX_SIZE",
    "MEDAL_PLACES",
    "MIN_SIZE",
    "RANK_CAP",
    "ROUNDS",
    "SECRET_BYTES",
    "TOURNAMENT_NUMBERS",
    "VARIANTS",
    "daily_order",
    "day_start",
    "medal_order",
    "next_day",
    "places",
    "points_for_rank",
    "rank",
    "round_deal",
    "tournament_deals",
    "utc_day",
]

#: the games with points, a Top 100 and tournaments: the registry's ranked games (seed 003)
VARIANTS = tuple(g for g, facts in FACTS.items() if facts.ranked)
#: a tournament is three complete games
ROUNDS = 3
#: entrants of a tournament
MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 2, 10, 4
#: the highest rank ("Rang")
RANK_CAP = 350
#: cups count 1st to 4th places, medals 1st to 5th
CUP_PLACES = 4
MEDAL_PLACES = 5
#: a tournament's deals are drawn from 1..TOURNAMENT_NUMBERS: every deal number but 0
#: (10**20 - 1 of them, more than 2**66; RULES.md, "Fair competition", asks for 2**64)
TOURNAMENT_NUMBERS = MAX_GAME_NUMBER
#: a tournament's secret: this many random bytes (256 bits), kept as hexadecimal digits
SECRET_BYTES = 32

K = TypeVar("K", bound=Hashable)


def points_for_rank(r: int) -> int:
    """The fewest points of rank ``r`` (1 to 350): (r² + 93·r - 90) / 2.

    Always a whole number (of r and r + 93 one is even). Each rank costs r + 46
    points more than the one before it. Rank 1 needs no points at all: below 2
    points the rank is 1 too (:func:`rank`).

    >>> [points_for_rank(r) for r in (1, 2, 3, 100, 349, 350)]
    [2, 50, 99, 9605, 77084, 77480]
    >>> points_for_rank(46) - points_for_rank(45)
    92
    """
    if not 1 <= r <= RANK_CAP:
        raise ValueError(f"ranks run from 1 to {RANK_CAP}, not {r}")
    return (r * r + 93 * r - 90) // 2


def rank(points: int) -> int:
    """The rank ("Rang"): the largest r from 1 to 350 with (r² + 93·r - 90) / 2 <= points,
    or 1 when there is none.

    Exact, with integers: (r² + 93r - 90) / 2 <= p is (2r + 93)² <= 8p + 9009, so
    r = floor((isqrt(8p + 9009) - 93) / 2) before the bounds. This reproduces all
    200 rows of seed 003's two Top 100 tables.

    >>> [rank(p) for p in (0, 1, 2, 49, 50, 98, 99, 3_021, 9_604, 10**12)]
    [1, 1, 1, 1, 2, 2, 3, 44, 99, 350]
    """
    if points < 0:
        raise ValueError(f"points are never negative, not {points}")
    r = (math.isqrt(8 * points + 9009) - 93) // 2
    return min(RANK_CAP, max(1, r))


def round_deal(secret: str, round_number: int) -> int:
    """A tournament round's deal, from the tournament's own secret (64 hexadecimal digits).

    HMAC-SHA256 keyed by the secret, of the round's number, read as a 256-bit
    number and reduced modulo TOURNAMENT_NUMBERS (then + 1): 1 to 10**20 - 1.
    The reduction is uniform to within 2**-189 (each number's chance differs
    from 1/N by less than 1/2**256, N < 2**67 numbers), so without the secret a
    round's deal is any of those numbers, and nothing else of the server's (its
    key, the tournament's id) tells which. Every entrant gets the same.

    >>> secret = "00" * 32
    >>> [round_deal(secret, r) for r in (1, 2, 3)]
    [41308719697352990005, 27717941530543260036, 29420892620019227274]
    >>> round_deal("00" * 16, 1)
    Traceback (most recent call last):
    ...
    ValueError: a tournament's secret is 64 hexadecimal digits (256 bits)
    """
    try:
        key = bytes.fromhex(secret)
    except ValueError:
        key = b""
    if len(key) < SECRET_BYTES:
        raise ValueError(
            f"a tournament's secret is {2 * SECRET_BYTES} hexadecimal digits "
            f"({8 * SECRET_BYTES} bits)"
        )
    message = f"patiencekit tournament round {round_number}".encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % TOURNAMENT_NUMBERS + 1


def tournament_deals(secret: str) -> tuple[int, ...]:
    """The deals of rounds 1 to ROUNDS, from the tournament's secret.

    >>> len(set(tournament_deals("ab" * 32))) == ROUNDS
    True
    """
    return tuple(round_deal(secret, r) for r in range(1, ROUNDS + 1))


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


def daily_order(
    score: int | None, won: bool, elapsed: float, finished_at: float, user_id: int
) -> tuple[int, float, float, int]:
    """The sort key of a daily deal's table, as the day's best ranked games are ordered
    (:func:`medal_order`: higher score, then shorter time, then earlier finish); in a game
    without a score (``score`` None), a win first, then shorter time, then earlier finish.

    >>> rows = [(300, False, 50.0, 9.0, 1), (300, False, 40.0, 8.0, 2), (2000, True, 90.0, 7.0, 3)]
    >>> [r[4] for r in sorted(rows, key=lambda r: daily_order(*r))]
    [3, 2, 1]
    >>> rows = [(None, False, 10.0, 1.0, 1), (None, True, 90.0, 2.0, 2), (None, True, 80.0, 3.0, 3)]
    >>> [r[4] for r in sorted(rows, key=lambda r: daily_order(*r))]
    [3, 2, 1]
    """
    if score is None:
        return (0 if won else 1, round(elapsed, 3), finished_at, user_id)
    return medal_order(score, elapsed, finished_at, user_id)


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
