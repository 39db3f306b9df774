"""The competition's formulas (no database): rank, tournament deals, places, the medal order."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import pytest

from patiencekit import new_game
from patiencekit.server.competition.scoring import (
    RANK_CAP,
    ROUNDS,
    SECRET_BYTES,
    TOURNAMENT_NUMBERS,
    day_start,
    medal_order,
    next_day,
    places,
    points_for_rank,
    rank,
    round_deal,
    tournament_deals,
    utc_day,
)

SEED_TABLES = Path(__file__).parent / "data" / "seed003-top100.tsv"


class SeedRow(NamedTuple):
    """A row of seed 003's Top 100 tables, as tests/server/data/seed003-top100.tsv has it."""

    game: str
    position: int
    rank: int
    name: str
    awards: str
    points: int


def seed_rows() -> list[SeedRow]:
    rows = []
    for line in SEED_TABLES.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        game, position, rank_, name, awards, points = line.split("\t")
        rows.append(SeedRow(game, int(position), int(rank_), name, awards, int(points)))
    return rows


def exact_rank(points: int) -> int:
    """RULES.md's words, with exact rationals: the largest r from 1 to 350 with
    (r² + 93·r - 90) / 2 <= points, or 1 when there is none."""
    fitting = [r for r in range(1, RANK_CAP + 1) if Fraction(r * r + 93 * r - 90, 2) <= points]
    return max(fitting, default=1)


def test_the_seed_tables_are_transcribed_whole() -> None:
    rows = seed_rows()
    assert len(rows) == 200
    assert Counter(r.game for r in rows) == {"klondike": 100, "klondike-draw1": 100}
    for game in ("klondike", "klondike-draw1"):
        table = [r for r in rows if r.game == game]
        # Positions 1 to 100 in order (shared positions skip the next ones, as "35. 35. 35. 38.").
        assert table[0].position == 1 and table[-1].position == 100
        assert [r.position for r in table] == sorted(r.position for r in table)
        assert [r.points for r in table] == sorted((r.points for r in table), reverse=True)
    assert (rows[0].name, rows[0].rank, rows[0].points) == ("kestertje", 350, 632_350)
    assert (rows[-1].name, rows[-1].rank, rows[-1].points) == ("arnhem", 40, 2_674)


@pytest.mark.parametrize("row", seed_rows(), ids=lambda r: f"{r.game}-{r.position}-{r.name}")
def test_the_rank_reproduces_every_row_of_the_seeds_tables(row: SeedRow) -> None:
    assert rank(row.points) == row.rank == exact_rank(row.points)
    # The formula's fewest points for the seed's rank are within the row's points, and the
    # next rank's are beyond them (rank 350 is the last).
    assert points_for_rank(row.rank) <= row.points
    if row.rank < RANK_CAP:
        assert row.points < points_for_rank(row.rank + 1)


def test_the_earlier_formula_missed_131_of_the_seeds_rows() -> None:
    # RULES.md: floor((points / 10) ** (2/3)) within 1..350, the rank before this one; exactly,
    # the largest r with r**3 <= (points / 10) ** 2.
    def earlier(points: int) -> int:
        r = 0
        while r < RANK_CAP and 100 * (r + 1) ** 3 <= points * points:
            r += 1
        return max(1, r)

    assert sum(earlier(r.points) != r.rank for r in seed_rows()) == 131


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        (0, 1),  # no points: rank 1
        (1, 1),
        (2, 1),  # rank 1's own figure, (1 + 93 - 90) / 2
        (49, 1),
        (50, 2),  # RULES.md: rank 2 at 50 points
        (98, 2),
        (99, 3),  # 50 + 49
        (9_604, 99),
        (9_605, 100),  # rank 100 at 9,605
        (9_606, 100),  # the seed's "Rang 100, 9.606 punten"
        (77_479, 349),
        (77_480, 350),  # rank 350 at 77,480: the cap
        (632_350, 350),  # the seed's leader
        (10**15, 350),
    ],
)
def test_rank_at_its_edges(points: int, expected: int) -> None:
    assert rank(points) == expected == exact_rank(points)


def test_each_rank_costs_r_plus_46_points_more_than_the_one_before() -> None:
    for r in range(2, RANK_CAP + 1):
        first = points_for_rank(r)
        assert first - points_for_rank(r - 1) == r + 46
        assert rank(first) == r and rank(first - 1) == r - 1, r
    for bad in (0, RANK_CAP + 1):
        with pytest.raises(ValueError, match="ranks run from 1 to 350"):
            points_for_rank(bad)


def test_rank_matches_the_exact_formula_everywhere_below_the_cap() -> None:
    previous = 1
    for p in range(0, 80_000, 7):
        r = rank(p)
        assert r >= previous  # more points never lower the rank
        previous = r
        if p % 700 == 0:
            assert r == exact_rank(p), p


def test_rank_refuses_negative_points() -> None:
    with pytest.raises(ValueError, match="never negative"):
        rank(-1)


# -- a tournament's deals ---------------------------------------------------------------------


def test_a_tournaments_deals_come_from_its_own_secret() -> None:
    secrets_ = [bytes([i]) * SECRET_BYTES for i in range(40)]
    deals = {s.hex(): tournament_deals(s.hex()) for s in secrets_}
    every = [n for three in deals.values() for n in three]
    assert all(len(three) == ROUNDS for three in deals.values())
    assert all(1 <= n <= TOURNAMENT_NUMBERS for n in every)
    assert len(set(every)) == len(every)  # every round of every tournament its own
    first = secrets_[5].hex()
    assert round_deal(first, 2) == deals[first][1]  # the same whenever asked
    # The numbers are spread over the whole range, far beyond 2**64 deals.
    assert TOURNAMENT_NUMBERS >= 2**64 and max(every) > 2**64
    # Every number is a deal the engine deals.
    assert new_game("klondike", max(every)).view().piles


def test_a_secret_shorter_than_256_bits_is_refused() -> None:
    for bad in ("", "00" * (SECRET_BYTES - 1), "zz" * SECRET_BYTES, "the server's key"):
        with pytest.raises(ValueError, match="64 hexadecimal digits"):
            round_deal(bad, 1)


def test_the_reduction_to_a_deal_number_is_uniform() -> None:
    # The digest (256 bits) modulo N: each number is hit floor(2**256 / N) or that + 1 times
    # out of 2**256, so its chance is 1/N within 2**-256, a bias of at most N / 2**256 in all.
    n = TOURNAMENT_NUMBERS
    low, extra = divmod(2**256, n)
    assert Fraction(low, 2**256) <= Fraction(1, n) <= Fraction(low + 1, 2**256)
    assert Fraction(extra, 2**256) < Fraction(1, 2**189)
    # And the numbers drawn fall evenly into ten slices of the range (a coarse look).
    draws = [round_deal((i.to_bytes(4, "big") * 8).hex(), 1) for i in range(2_000)]
    slices = Counter((d - 1) * 10 // n for d in draws)
    assert set(slices) == set(range(10))
    assert all(140 <= c <= 260 for c in slices.values()), slices


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
