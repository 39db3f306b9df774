"""Top 100 bench: the Top 100 and a player's own position on a big PostgreSQL database.

Builds, in a schema of its own (dropped at the end unless ``--keep``), the
app's schema (the real migrations), then bulk-loads with ``COPY``:

- ``--players`` accounts (100,000);
- ``--games`` completed ranked games (2,000,000): a ``plays`` row and a ``results``
  row each, over ``--days`` UTC days, two thirds Klondike draw 3 and one third
  draw 1; how much each player plays is skewed (a few play thousands of games,
  most a handful), scores look like real ones (about a third won, with the
  time bonus);

and then fills the aggregates consistently: ``standings`` from the results in
one ``INSERT ... SELECT ... GROUP BY``, and the medals of every day by the
app's own day close (``standings.close_due_days``), which adds them to the
standings as it does in the app. The load is checked (points = the sum of the
results, medals = five a day and variant), the tables vacuumed and analysed.

Then it measures, through the service functions the API calls, ``--queries``
times each (1,000): ``top100`` (the hundred lines), ``standing_of`` (a random
player's line and position: one query) and ``leaderboard`` (both, what
``GET /api/top100/{game}`` answers for a signed-in player); p50 / p99 in ms.
It prints the plans of the two queries (``EXPLAIN ANALYZE``).

    python bench/top100.py [--database-url postgresql://postgres:postgres@127.0.0.1/postgres]
                           [--players 100000] [--games 2000000] [--queries 1000] [--json]

The URL defaults to PATIENCEKIT_BENCH_POSTGRES_URL, then PATIENCEKIT_TEST_POSTGRES_URL.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from sqlalchemy import create_engine, func, select, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from patiencekit.server.competition.scoring import utc_day  # noqa: E402
from patiencekit.server.competition.standings import (  # noqa: E402
    close_due_days,
    leaderboard,
    standing_of,
    top100,
)
from patiencekit.server.competition.tables import medals, results, standings  # noqa: E402
from patiencekit.server.config import Settings, normalize_database_url  # noqa: E402
from patiencekit.server.db import Database, migrate  # noqa: E402

DAY = 86_400
#: the bench's "now": 2025-01-01 00:10 UTC (every generated game is before it)
NOW = 1_735_689_600.0 + 600


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _games(
    rng: random.Random, players: list[int], games: int, days: int
) -> Iterator[tuple[Any, ...]]:
    """(play_id, user_id, game_id, number, outcome, score, elapsed, finished_at) per game."""
    # Skewed activity: player i plays in proportion to 1 / (i + 20) ** 0.9.
    weights = [1.0 / (i + 20) ** 0.9 for i in range(len(players))]
    total = 0.0
    cumulative = []
    for w in weights:
        total += w
        cumulative.append(total)
    owners = rng.choices(players, cum_weights=cumulative, k=games)
    start = NOW - 600 - days * DAY
    for owner in owners:
        game_id = "klondike" if rng.random() < 2 / 3 else "klondike-draw1"
        elapsed = round(rng.uniform(40.0, 1500.0), 3)
        if rng.random() < 0.33:
            outcome = "won"
            score = rng.randint(1200, 2600) + max(0, 1000 - int(elapsed))
        else:
            outcome = "gave_up" if rng.random() < 0.7 else "over"
            score = rng.randint(0, 600)
        finished = start + rng.uniform(0, days * DAY)
        yield (
            secrets.token_hex(16),
            owner,
            game_id,
            rng.randint(1, 10**9 - 1),
            outcome,
            score,
            elapsed,
            round(finished, 3),
        )


def _copy(raw: Any, statement: str, rows: Iterator[tuple[Any, ...]]) -> int:
    n = 0
    with raw.cursor() as cur, cur.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
            n += 1
    return n


def load(db: Database, players: int, games: int, days: int, seed: int) -> dict[str, float]:
    """Bulk-load the players and games, then fill standings and medals; seconds per step."""
    rng = random.Random(seed)
    took: dict[str, float] = {}
    t = time.perf_counter()
    raw = db.engine.raw_connection()
    try:
        created = NOW - (days + 30) * DAY
        n = _copy(
            raw,
            "COPY users (id, name, name_key, password_hash, guest, created_at) FROM STDIN",
            (
                (i, f"player{i:06}", f"player{i:06}", None, False, created + i)
                for i in range(1, players + 1)
            ),
        )
        raw.cursor().execute("SELECT setval('users_id_seq', %s)", (n,))
        raw.commit()
        took["users"] = time.perf_counter() - t
        _progress(f"  {n:,} users in {took['users']:.1f} s")

        t = time.perf_counter()
        generated = list(_games(rng, list(range(1, players + 1)), games, days))
        took["generate"] = time.perf_counter() - t
        _progress(f"  {len(generated):,} games generated in {took['generate']:.1f} s")

        t = time.perf_counter()
        _copy(
            raw,
            "COPY plays (id, user_id, game_id, number, ranked, created_at, updated_at, seq, moves,"
            " status, won_at, win_elapsed, win_score, win_moves, ended_at) FROM STDIN",
            (
                (
                    pid,
                    uid,
                    game_id,
                    str(number),
                    True,
                    finished - elapsed,
                    finished,
                    0,
                    0,
                    "won" if outcome == "won" else "over",
                    finished if outcome == "won" else None,
                    elapsed if outcome == "won" else None,
                    score if outcome == "won" else None,
                    None,
                    finished,
                )
                for pid, uid, game_id, number, outcome, score, elapsed, finished in generated
            ),
        )
        raw.commit()
        took["plays"] = time.perf_counter() - t
        _progress(f"  plays copied in {took['plays']:.1f} s")

        t = time.perf_counter()
        _copy(
            raw,
            "COPY results (play_id, user_id, game_id, tournament_id, round, outcome, score,"
            " elapsed, finished_at, day) FROM STDIN",
            (
                (
                    pid,
                    uid,
                    game_id,
                    None,
                    None,
                    outcome,
                    score,
                    elapsed,
                    finished,
                    utc_day(finished),
                )
                for pid, uid, game_id, _number, outcome, score, elapsed, finished in generated
            ),
        )
        raw.commit()
        took["results"] = time.perf_counter() - t
        _progress(f"  results copied in {took['results']:.1f} s")
        del generated

        # The standings, consistent with the results: points = the sum of the final scores;
        # reached_at = the last game that added points (the first game if none did).
        t = time.perf_counter()
        raw.cursor().execute(
            """
            INSERT INTO standings (game_id, user_id, points, reached_at, games,
                                   cups1, cups2, cups3, cups4,
                                   medals1, medals2, medals3, medals4, medals5)
            SELECT game_id, user_id, sum(score),
                   coalesce(max(finished_at) FILTER (WHERE score > 0), min(finished_at)),
                   count(*), 0, 0, 0, 0, 0, 0, 0, 0, 0
            FROM results GROUP BY game_id, user_id
            """
        )
        raw.commit()
        took["standings"] = time.perf_counter() - t
        _progress(f"  standings in {took['standings']:.1f} s")
    finally:
        raw.close()

    # Medals: the app's own day close, every day in order (each its own transaction).
    t = time.perf_counter()
    closed = close_due_days(db, NOW)
    took["medals"] = time.perf_counter() - t
    _progress(f"  {len(closed):,} days closed (medals) in {took['medals']:.1f} s")

    t = time.perf_counter()
    with db.engine.connect() as conn:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        for table in ("users", "plays", "results", "standings", "medals", "closed_days"):
            conn.exec_driver_sql(f"VACUUM ANALYZE {table}")
    took["vacuum"] = time.perf_counter() - t
    return took


def check(db: Database, days: int) -> dict[str, Any]:
    """The aggregates agree with the results and the medals."""
    with db.read() as conn:
        facts: dict[str, Any] = {}
        for game_id in ("klondike", "klondike-draw1"):
            points = conn.execute(
                select(
                    func.sum(standings.c.points), func.count(), func.sum(standings.c.games)
                ).where(standings.c.game_id == game_id)
            ).one()
            scores = conn.execute(
                select(func.sum(results.c.score), func.count()).where(results.c.game_id == game_id)
            ).one()
            medal_rows = conn.execute(
                select(func.count()).where(medals.c.game_id == game_id)
            ).scalar_one()
            medal_counts = conn.execute(
                select(
                    func.sum(
                        standings.c.medals1
                        + standings.c.medals2
                        + standings.c.medals3
                        + standings.c.medals4
                        + standings.c.medals5
                    )
                ).where(standings.c.game_id == game_id)
            ).scalar_one()
            assert points[0] == scores[0] and points[2] == scores[1], (game_id, points, scores)
            assert medal_rows == medal_counts, (game_id, medal_rows, medal_counts)
            facts[game_id] = {
                "players": points[1],
                "games": scores[1],
                "points": int(points[0]),
                "medals": medal_rows,
            }
    return facts


def _time(fn: Callable[[], object], n: int) -> dict[str, float]:
    for _ in range(min(20, n)):
        fn()  # warm the pool and the caches
    laps = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        laps.append(time.perf_counter() - t)
    laps.sort()

    def pct(p: float) -> float:
        return round(laps[min(len(laps) - 1, int(p * len(laps)))] * 1000, 2)

    return {
        "n": n,
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "max_ms": round(laps[-1] * 1000, 2),
        "mean_ms": round(statistics.fmean(laps) * 1000, 2),
    }


def measure(db: Database, players: int, queries: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed + 1)
    variants = ["klondike", "klondike-draw1"]
    turn = iter(range(10**9))

    def a_variant() -> str:
        return variants[next(turn) % 2]

    def the_top() -> object:
        with db.read() as conn:
            lines = top100(conn, a_variant())
        assert len(lines) == 100
        return lines

    def a_position() -> object:
        with db.read() as conn:
            return standing_of(conn, a_variant(), rng.randint(1, players))

    def the_page() -> object:
        return leaderboard(db, a_variant(), rng.randint(1, players))

    return {
        "top100": _time(the_top, queries),
        "position": _time(a_position, queries),
        "leaderboard": _time(the_page, queries),
    }


def plans(db: Database) -> dict[str, str]:
    """EXPLAIN ANALYZE of the two queries, for the last player of klondike."""
    with db.engine.connect() as conn:
        last = conn.execute(
            select(standings.c.user_id)
            .where(standings.c.game_id == "klondike")
            .order_by(standings.c.points, standings.c.reached_at.desc())
            .limit(1)
        ).scalar_one()
        out = {}
        for name, statement in (
            ("top100", _compiled(conn, lambda c: top100(c, "klondike"))),
            ("position", _compiled(conn, lambda c: standing_of(c, "klondike", last))),
        ):
            rows = conn.execute(text("EXPLAIN (ANALYZE, BUFFERS) " + statement)).scalars().all()
            out[name] = "\n".join(rows)
    return out


def _compiled(conn: Any, call: Callable[[Any], object]) -> str:
    """The SQL text (with its parameters inlined) of the one query ``call`` runs."""
    seen: list[str] = []

    class Spy:
        def execute(self, statement: Any, *args: Any, **kwargs: Any) -> Any:
            seen.append(str(statement.compile(conn, compile_kwargs={"literal_binds": True})))
            return conn.execute(statement, *args, **kwargs)

    call(Spy())
    assert len(seen) == 1, seen
    return seen[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("PATIENCEKIT_BENCH_POSTGRES_URL")
        or os.environ.get("PATIENCEKIT_TEST_POSTGRES_URL", ""),
    )
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--keep", action="store_true", help="keep the schema (its name is printed)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.database_url.startswith(("postgresql", "postgres")):
        parser.error(
            "a PostgreSQL URL is needed (--database-url or PATIENCEKIT_BENCH_POSTGRES_URL)"
        )
    admin_url = normalize_database_url(args.database_url)
    schema = "pk_bench_" + secrets.token_hex(4)
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
        version = conn.exec_driver_sql("SHOW server_version").scalar()
    url = make_url(admin_url).update_query_dict({"options": f"-csearch_path={schema}"})
    settings = Settings(
        env="test",
        secret_key="bench-secret-key-0123456789",
        database_url=url.render_as_string(hide_password=False),
        competition_tick_seconds=0,
    )
    db = Database(settings)
    try:
        migrate(db)
        _progress(f"loading {args.players:,} players and {args.games:,} games into {schema} ...")
        took = load(db, args.players, args.games, args.days, args.seed)
        facts = check(db, args.days)
        _progress("measuring ...")
        timings = measure(db, args.players, args.queries, args.seed)
        explained = plans(db)
    finally:
        db.dispose()
        if not args.keep:
            with admin.connect() as conn:
                conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()
    report = {
        "postgresql": version,
        "players": args.players,
        "games": args.games,
        "days": args.days,
        "load_seconds": {k: round(v, 1) for k, v in took.items()},
        "data": facts,
        "timings": timings,
    }
    if args.json:
        print(json.dumps({**report, "plans": explained}, indent=2))
        return
    print(
        f"PostgreSQL {version}: {args.players:,} players, {args.games:,} completed games, "
        f"{args.days} days"
    )
    print("load (s): " + ", ".join(f"{k} {v:.1f}" for k, v in took.items()))
    for game_id, f in facts.items():
        print(
            f"  {game_id}: {f['players']:,} players, {f['games']:,} games, {f['medals']:,} medals"
        )
    print(f"{'query':<12} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, t in timings.items():
        print(f"{name:<12} {t['n']:>6} {t['p50_ms']:>8} {t['p99_ms']:>8} {t['max_ms']:>8}")
    for name, plan in explained.items():
        print(f"\n-- plan: {name}\n{plan}")


if __name__ == "__main__":
    main()
