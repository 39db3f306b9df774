"""Web load bench: N simulated players playing Klondike moves as fast as the server answers.

Starts ``python -m patiencekit.server`` (what ``patiencekit serve`` runs) on a
free loopback port with a fresh database, then, in the same run and with the
same async httpx client code:

1. ``health``: N players each calling ``GET /api/health`` (the trivial endpoint,
   no database) back to back for S seconds;
2. ``moves``: N players each dealing a Klondike play and sending moves back to
   back for S seconds. A player picks from the play's ``legal_moves``,
   preferring moves to a foundation, then other non-stock moves (not the one
   that undoes the last), then the stock; it deals a new play when the game is
   over or after ``--max-moves`` moves (a long game), like a player starting a
   new deal.

``--think T`` makes each player wait before each request (a person thinking), T
seconds on average: each wait is drawn from an exponential distribution, so the
players do not move in step (a fixed wait keeps the 50 in one burst: the last of
each burst waits for the 49 before it). The offered load is about N / T requests
a second.

Reported per phase: requests answered, accepted moves per second, p50 / p99
latency (ms); and the ratio moves/health. Every request is bounded (timeouts)
and so is the run (S seconds a phase); it talks to 127.0.0.1 only.

    python bench/web_load.py [--players 50] [--seconds 10] [--workers 1] [--runs 3]
                             [--database-url postgresql://user:pw@127.0.0.1/db]
                             [--sqlite-synchronous NORMAL|FULL] [--think 0.5] [--json]

On PostgreSQL the run works in a schema of its own, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src"
sys.path.insert(0, str(SRC))


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    seconds: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    latencies: list[float] = field(default_factory=list)
    #: the server's own time per answered request (its Server-Timing header), seconds
    server_times: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    plays: int = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies)
        if not lat:
            return {"phase": self.name, "ok": 0, "errors": self.errors}

        def pct(p: float, values: list[float] = lat) -> float:
            return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 2)

        app = sorted(self.server_times) or [0.0]

        return {
            "phase": self.name,
            "ok": len(lat),
            "per_second": round(len(lat) / self.seconds, 1),
            "p50_ms": pct(0.50),
            "p99_ms": pct(0.99),
            "mean_ms": round(statistics.fmean(lat) * 1000, 2),
            # the app's own time (no queueing): what one request costs the server
            "server_p50_ms": pct(0.50, app),
            "server_p99_ms": pct(0.99, app),
            "errors": self.errors,
            "plays": self.plays,
            # CPU milliseconds per answered request, of the server (all its processes) and of
            # this client: they share the machine's cores
            "server_cpu_ms": round(self.server_cpu / len(lat) * 1000, 3),
            "client_cpu_ms": round(self.client_cpu / len(lat) * 1000, 3),
        }


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of process ``pid`` and its children, from /proc (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        this, parent = int(stat.parent.name), int(fields[1])
        if this == pid or parent == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _server_time(r: httpx.Response) -> float:
    """The app's time for this answer, from ``Server-Timing: app;dur=MS`` (seconds)."""
    return float(r.headers["server-timing"].removeprefix("app;dur=")) / 1000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _choose(play: dict[str, Any], rng: random.Random, last: str | None) -> str | None:
    legal: list[str] = play["legal_moves"]
    if not legal:
        return None
    to_foundation = [m for m in legal if " f" in m]
    if to_foundation:
        return rng.choice(to_foundation)
    parts = last.split() if last else []
    back = f"{parts[1]} {parts[0]}" if len(parts) >= 2 else None  # what would undo the last move
    others = [m for m in legal if m not in ("s", "t") and not (back and m.startswith(back))]
    # Mostly a column move when there is one; sometimes the stock, to see new cards.
    if others and rng.random() < 0.6:
        return rng.choice(others)
    stock = [m for m in legal if m in ("s", "t")]
    return rng.choice(stock or others)


async def _health_player(
    url: str, phase: Phase, stop_at: float, measure_from: float, think: float, seed: int
) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        while (now := time.perf_counter()) < stop_at:
            if think:
                await asyncio.sleep(rng.expovariate(1 / think))
                now = time.perf_counter()
            try:
                r = await client.get("/api/health")
            except httpx.HTTPError as e:
                phase.error(type(e).__name__)
                continue
            done = time.perf_counter()
            if now >= measure_from:
                if r.status_code == 200:
                    phase.latencies.append(done - now)
                    phase.server_times.append(_server_time(r))
                else:
                    phase.error(str(r.status_code))


async def _move_player(
    url: str,
    phase: Phase,
    stop_at: float,
    measure_from: float,
    seed: int,
    max_moves: int,
    think: float,
) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        csrf = (await client.get("/api/session")).json()["csrf"]
        # The guest's cookies go out as a plain header, like the CSRF token: httpx's cookie
        # jar costs this client 0.1 ms a request, which is not what the bench measures.
        headers = {"X-CSRF-Token": csrf}

        def cookies_to_header() -> None:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
            client.cookies.clear()

        async def deal() -> dict[str, Any]:
            r = await client.post(
                "/api/games/klondike/play", json={"number": None}, headers=headers
            )
            r.raise_for_status()
            if client.cookies:  # the first deal makes the guest: its session cookie
                cookies_to_header()
            phase.plays += 1
            result: dict[str, Any] = r.json()
            return result

        play = await deal()
        last: str | None = None
        while (now := time.perf_counter()) < stop_at:
            if think:
                await asyncio.sleep(rng.expovariate(1 / think))
                now = time.perf_counter()
            move = _choose(play, rng, last)
            if move is None or play["n"] >= max_moves:
                play, last = await deal(), None
                continue
            try:
                r = await client.post(
                    f"/api/plays/{play['id']}/moves",
                    json={"move": move, "n": play["n"]},
                    headers=headers,
                )
            except httpx.HTTPError as e:
                phase.error(type(e).__name__)
                continue
            done = time.perf_counter()
            if r.status_code == 200:
                play, last = r.json(), move
                if now >= measure_from:
                    phase.latencies.append(done - now)
                    phase.server_times.append(_server_time(r))
            else:
                phase.error(f"{r.status_code} {r.json()['error']['code']}")
                r = await client.get(f"/api/plays/{play['id']}", headers=headers)
                play = r.json()


async def _run_phase(
    name: str,
    url: str,
    players: int,
    seconds: float,
    warmup: float,
    max_moves: int,
    server_pid: int,
    think: float = 0.0,
) -> Phase:
    phase = Phase(name)
    start = time.perf_counter()
    measure_from = start + warmup
    stop_at = measure_from + seconds

    async def cpu_meter() -> None:
        await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
        server, client = _cpu_seconds(server_pid), time.process_time()
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        phase.server_cpu = _cpu_seconds(server_pid) - server
        phase.client_cpu = time.process_time() - client

    if name == "health":
        tasks = [
            _health_player(url, phase, stop_at, measure_from, think, seed)
            for seed in range(players)
        ]
    else:
        tasks = [
            _move_player(url, phase, stop_at, measure_from, seed, max_moves, think)
            for seed in range(players)
        ]
    await asyncio.gather(cpu_meter(), *tasks)
    phase.seconds = time.perf_counter() - measure_from
    return phase


class Server:
    """A ``patiencekit serve`` process on a free port, started and awaited (used by the
    other load benches too)."""

    def __init__(self, env: dict[str, str], workers: int, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "patiencekit.server", "--port", str(self.port),
                 "--workers", str(workers)],
                env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                sys.exit(f"the server stopped:\n{self.log.read_text()}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        sys.exit("the server did not start within 60 s")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _pg_schema(admin_url: str) -> tuple[str, str]:
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    from patiencekit.server.config import normalize_database_url

    admin = normalize_database_url(admin_url)
    schema = "pk_bench_" + secrets.token_hex(4)
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    engine.dispose()
    url = make_url(admin).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False), schema


def _drop_pg_schema(admin_url: str, schema: str) -> None:
    from sqlalchemy import create_engine

    from patiencekit.server.config import normalize_database_url

    engine = create_engine(normalize_database_url(admin_url), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    engine.dispose()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=10.0, help="measured seconds per phase")
    ap.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds first")
    ap.add_argument("--workers", type=int, default=1, help="server processes")
    ap.add_argument("--max-moves", type=int, default=150, help="a new deal after this many")
    ap.add_argument("--database-url", default="", help="PostgreSQL (default: SQLite)")
    ap.add_argument("--sqlite-synchronous", default="NORMAL", choices=["NORMAL", "FULL"])
    ap.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player waits before each request (default 0: as fast as answered)",
    )
    ap.add_argument(
        "--runs",
        type=int,
        default=1,
        help="repeat the whole run (fresh server and database) N times and report the median "
        "ratio: the machine is shared, so one run is noisy",
    )
    ap.add_argument("--json", action="store_true", help="print JSON only")
    args = ap.parse_args(argv)

    results = [_one_run(args) for _ in range(args.runs)]
    if args.json:
        print(json.dumps(results[0] if args.runs == 1 else _over_runs(results), indent=2))
        return 0
    for i, result in enumerate(results, start=1):
        if args.runs > 1:
            print(f"-- run {i} of {args.runs}")
        _print_run(result)
    if args.runs > 1:
        summary = _over_runs(results)
        median, span = summary["median_moves_vs_health"], summary["moves_vs_health_range"]
        ratio = f"{median:.3f} (range {span[0]:.3f}-{span[1]:.3f})" if span else "n/a"
        print(
            f"over {args.runs} runs: moves/health median {ratio}, "
            f"moves/s median {summary['median_moves_per_second']:g}"
        )
    return 0


def _over_runs(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The runs and their medians: moves/health ratio (with its range) and moves/s."""
    ratios = [r["moves_vs_health"] for r in results if r["moves_vs_health"] is not None]
    return {
        "runs": results,
        "median_moves_vs_health": statistics.median(ratios) if ratios else None,
        "moves_vs_health_range": [min(ratios), max(ratios)] if ratios else None,
        "median_moves_per_second": statistics.median(
            r["moves"].get("per_second", 0) for r in results
        ),
    }


def _one_run(args: argparse.Namespace) -> dict[str, Any]:
    """One run: a fresh server and database, the health phase, then the moves phase."""
    data_dir = tempfile.mkdtemp(prefix="pk-bench-")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        "PATIENCEKIT_ENV": "test",
        "PATIENCEKIT_SECRET_KEY": secrets.token_hex(16),
        "PATIENCEKIT_DATA_DIR": data_dir,
        "PATIENCEKIT_SQLITE_SYNCHRONOUS": args.sqlite_synchronous,
        # The bench reads the server's own time per answer (off by default: it can say
        # something of the hidden cards), and its players are new guests of one address.
        "PATIENCEKIT_SERVER_TIMING": "1",
        "PATIENCEKIT_GUESTS_PER_ADDRESS": "1000000",
    }
    schema = None
    if args.database_url:
        env["PATIENCEKIT_DATABASE_URL"], schema = _pg_schema(args.database_url)
        database = "PostgreSQL"
    else:
        env.pop("PATIENCEKIT_DATABASE_URL", None)
        database = f"SQLite (synchronous={args.sqlite_synchronous})"
    load_before = round(os.getloadavg()[0], 2)  # the machine is shared: say how busy it was
    server = Server(env, args.workers, Path(data_dir) / "server.log")
    try:
        health = asyncio.run(
            _run_phase(
                "health",
                server.url,
                args.players,
                args.seconds,
                args.warmup,
                0,
                server.proc.pid,
                args.think,
            )
        )
        moves = asyncio.run(
            _run_phase(
                "moves",
                server.url,
                args.players,
                args.seconds,
                args.warmup,
                args.max_moves,
                server.proc.pid,
                args.think,
            )
        )
    finally:
        server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)
        if schema is not None:
            _drop_pg_schema(args.database_url, schema)
    h, m = health.summary(), moves.summary()
    return {
        "load_before": load_before,
        "load_after": round(os.getloadavg()[0], 2),
        "database": database,
        "players": args.players,
        "workers": args.workers,
        "seconds": args.seconds,
        "think": args.think,
        "cpus": os.cpu_count(),
        "health": h,
        "moves": m,
        "moves_vs_health": round(m.get("per_second", 0) / h["per_second"], 3)
        if h.get("per_second")
        else None,
    }


def _print_run(result: dict[str, Any]) -> None:
    h, m = result["health"], result["moves"]
    database = result["database"]
    players, workers, seconds, think = (
        result["players"],
        result["workers"],
        result["seconds"],
        result["think"],
    )
    print(
        f"{database}, {players} players, {workers} server process(es), "
        f"{seconds:g} s per phase, think {think:g} s, "
        f"{os.cpu_count()} CPUs (client and server share them)"
    )
    print(
        f"{'phase':<8} {'ok':>7} {'per s':>8} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'app p50':>8} {'app p99':>8} "
        f"{'server CPU ms/req':>18} {'client CPU ms/req':>18}  errors"
    )
    for s in (h, m):
        print(
            f"{s['phase']:<8} {s['ok']:>7} {s.get('per_second', 0):>8} "
            f"{s.get('p50_ms', '-'):>8} {s.get('p99_ms', '-'):>8} "
            f"{s.get('server_p50_ms', '-'):>8} {s.get('server_p99_ms', '-'):>8} "
            f"{s.get('server_cpu_ms', '-'):>18} {s.get('client_cpu_ms', '-'):>18}  "
            f"{s['errors'] or ''}"
        )
    print(f"accepted moves/s vs health/s: {result['moves_vs_health']}  (plays dealt: {m['plays']})")
    print(
        "(latency = the client's wait, queueing included; app = the server's own time per "
        f"request; load average before / after: {result['load_before']} / {result['load_after']})"
    )


if __name__ == "__main__":
    raise SystemExit(main())
