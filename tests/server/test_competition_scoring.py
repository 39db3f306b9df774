"""The competition's formulas (no database): rank, tournament deals, places, the medal order."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from patiencekit.server.competition.scoring import (
    RANK_CAP,
    TOURNAMENT_NUMBERS,
    day_start,
    deal_number,
    medal_order,
    next_day,
    places,
    rank,
    utc_day,
)


def exact_rank(points: int) -> int:
    """RULES.md's formula with exact rationals: the largest r with r**3 <= (points/10)**2."""
    bound = Fraction(points, 10) ** 2
    r = 0
    while r < 350 and Fraction((r + 1) ** 3) <= bound:
        r += 1
    return max(1, r)


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        (0, 1),  # no points: rank 1, not 0
        (1, 1),
        (28, 1),  # (2.8)^(2/3) = 1.98...
        (29, 2),
        (79, 3),  # (7.9)^(2/3) = 3.97...
        (80, 4),  # (8)^(2/3) = 4 exactly: the boundary itself
        (9_999, 99),
        (10_000, 100),  # (1000)^(2/3) = 100 exactly
        (65_479, 349),  # just below the cap
        (65_480, 350),  # the cap is reached: (6548)^(2/3) = 350.0035...
        (632_350, 350),  # the seed's leader
        (10**15, 350),
    ],
)
def test_rank_at_its_edges(points: int, expected: int) -> None:
    assert rank(points) == expected == exact_rank(points)


def test_rank_boundaries_are_exact_where_floats_round_the_wrong_way() -> None:
    # Rank m*m is reached at exactly 10 * m**3 points, one point less is the rank below.
    for m in range(2, 19):  # 18*18 = 324 < 350 (below 10 points the rank is 1 anyway)
        p = 10 * m**3
        assert rank(p) == m * m, p
        assert rank(p - 1) == m * m - 1, p
    # Every rank below the cap is first reached at ceil(10 * r**1.5) points.
    for r in range(2, RANK_CAP + 1):
        first = math.isqrt(100 * r**3 - 1) + 1  # the least p with p*p >= 100 r^3
        assert rank(first) == r and rank(first - 1) == r - 1, r


def test_rank_matches_the_exact_formula_everywhere_below_the_cap() -> None:
    previous = 1
    for p in range(0, 70_000, 7):
        r = rank(p)
        assert r >= previous  # more points never lower the rank
        previous = r
        if p % 700 == 0:
            assert r == exact_rank(p), p


def test_rank_refuses_negative_points() -> None:
    with pytest.raises(ValueError, match="never negative"):
        rank(-1)


def test_tournament_deals_come_from_the_secret() -> None:
    secret = "a-secret-of-the-server-0123"
    deals = {(t, r): deal_number(secret, t, r) for t in range(1, 40) for r in (1, 2, 3)}
    assert all(1 <= n <= TOURNAMENT_NUMBERS for n in deals.values())
    assert len(set(deals.values())) == len(deals)  # every round of every tournament its own
    assert deal_number(secret, 5, 2) == deals[(5, 2)]  # the same whenever asked
    # Another secret, other deals: knowing the tournament and round is not enough.
    other = "another-secret-0123456789"
    assert sum(deal_number(other, t, r) == n for (t, r), n in deals.items()) == 0


def test_places_by_score_then_time_with_shared_places() -> None:
    assert places([("a", 100, 50.0), ("b", 200, 90.0), ("c", 100, 40.0)]) == {
        "b": 1,
        "c": 2,
        "a": 3,
    }
    assert places([("a", 100, 40.0), ("b", 100, 40.0), ("c", 100, 40.0004), ("d", 90, 1.0)]) == {
        "a": 1,
        "b": 1,
        "c": 1,  # the same to the millisecond
        "d": 4,
    }
    assert places([]) == {}


def test_the_medal_order() -> None:
    games = [
        ("slow", medal_order(300, 90.0, 1000.0, 1)),
        ("late", medal_order(300, 60.0, 2000.0, 2)),
        ("best", medal_order(400, 500.0, 3000.0, 3)),
        ("early", medal_order(300, 60.0, 1500.0, 4)),
    ]
    assert [name for name, _ in sorted(games, key=lambda g: g[1])] == [
        "best",
        "early",
        "late",
        "slow",
    ]


def test_utc_days() -> None:
    assert utc_day(day_start("2024-02-29")) == "2024-02-29"
    assert utc_day(day_start("2024-03-01") - 0.001) == "2024-02-29"
    assert next_day("2024-12-31") == "2025-01-01"
    for bad in ("2024-2-3", "yesterday", "2024-02-30"):
        with pytest.raises(ValueError):
            day_start(bad)
