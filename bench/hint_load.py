"""Hint load bench: does a crowd asking for hints slow the other players?

Starts ``python -m patiencekit.server`` (what ``patiencekit serve`` runs) on a free
loopback port with a fresh SQLite database, then, in each run:

1. ``alone``: P probes ask ``GET /api/health`` (the trivial endpoint: what any other
   player's request waits for) every I seconds each, for S seconds;
2. ``hints``: the same probes, while H players each deal a play and ask for hints back to
   back (``POST /api/plays/{id}/hint``, then play the hinted move, then ask again; a new
   deal when no move is left or after 100 moves), for S seconds.

Reported per phase: the probes' p50 / p99 latency (ms); for the hints phase also hints
answered per second, their p50 latency and the refusals (429 over the per-player limit,
503 over the queue); and the ratios hints/alone of the probes' p99 and p50. Over the runs,
the medians. The per-player hint limit is lifted by default (``--hint-limit``) so that the
hint workers are kept busy all along: the worst case for everybody else.

    python bench/hint_load.py [--hinters 8] [--seconds 10] [--runs 3] [--probes 2]
                              [--interval 0.01] [--games klondike,patriarchs,...]
                              [--hint-limit N] [--src DIR] [--json]

``--src`` runs the server from another checkout's ``src`` (to compare two versions).
Every request is bounded (timeouts) and so is the run; it talks to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from web_load import Server

REPO = Path(__file__).resolve().parent.parent
GAMES = "klondike,klondike-draw1,patiencemax,patriarchs,senior-wrangler"


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    probes: list[float] = field(default_factory=list)
    hints: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    server_cpu: float = 0.0

    def summary(self) -> dict[str, Any]:
        def pct(values: list[float], p: float) -> float | None:
            if not values:
                return None
            ordered = sorted(values)
            return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 2)

        return {
            "phase": self.name,
            "probes": len(self.probes),
            "probe_p50_ms": pct(self.probes, 0.50),
            "probe_p99_ms": pct(self.probes, 0.99),
            "hints": len(self.hints),
            "hints_per_second": round(len(self.hints) / self.seconds, 2) if self.seconds else 0,
            "hint_p50_ms": pct(self.hints, 0.50),
            "hint_statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "server_cpu_seconds": round(self.server_cpu, 2),
        }


def _cpu_seconds(root: int) -> float:
    """CPU time (user + system) of process ``root`` and all its descendants (the hint
    workers are the server's grandchildren, under the forkserver), from /proc (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / tick
    total = 0.0
    for pid, seconds in times.items():
        p = pid
        while p and p != root:
            p = parents.get(p, 0)
        if p == root:
            total += seconds
    return total


async def _probe(url: str, phase: Phase, stop_at: float, measure_from: float, every: float) -> None:
    """Ask /api/health every ``every`` seconds (a paced probe: a slow answer does not make
    the next one later than planned, so the waits it causes are measured too)."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        planned = time.perf_counter()
        while planned < stop_at:
            delay = planned - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            started = time.perf_counter()
            try:
                r = await client.get("/api/health")
                ok = r.status_code == 200
            except httpx.HTTPError:
                ok = False
            done = time.perf_counter()
            if ok and started >= measure_from:
                # from the planned moment: a probe held back by a busy server counts its wait
                phase.probes.append(done - min(planned, started))
            planned += every
            if planned < done - every:  # far behind: start again from now
                planned = done


async def _hinter(
    url: str, phase: Phase, stop_at: float, measure_from: float, games: list[str], seed: int
) -> None:
    """Deal, then ask for hints back to back, playing each hinted move."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        headers = {"X-CSRF-Token": (await client.get("/api/session")).json()["csrf"]}

        async def deal() -> dict[str, Any]:
            body = {"number": rng.randrange(1, 10**9)}
            r = await client.post(
                f"/api/games/{rng.choice(games)}/play", json=body, headers=headers
            )
            r.raise_for_status()
            result: dict[str, Any] = r.json()
            return result

        play = await deal()
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            try:
                r = await client.post(f"/api/plays/{play['id']}/hint", headers=headers)
            except httpx.HTTPError:
                phase.statuses[0] = phase.statuses.get(0, 0) + 1
                continue
            done = time.perf_counter()
            if started >= measure_from:
                phase.statuses[r.status_code] = phase.statuses.get(r.status_code, 0) + 1
                if r.status_code == 200:
                    phase.hints.append(done - started)
            if r.status_code != 200:
                await asyncio.sleep(float(r.headers.get("retry-after", "1")) / 10)
                continue
            move = r.json()["hint"]
            if move is None or play["n"] >= 100:
                play = await deal()
                continue
            r = await client.post(
                f"/api/plays/{play['id']}/moves",
                json={"move": move, "n": play["n"]},
                headers=headers,
            )
            play = r.json() if r.status_code == 200 else await deal()


async def _phase(name: str, server: Server, args: argparse.Namespace, hinters: int) -> Phase:
    phase = Phase(name)
    start = time.perf_counter()
    measure_from = start + args.warmup
    stop_at = measure_from + args.seconds
    cpu_before = _cpu_seconds(server.proc.pid)
    games = args.games.split(",")
    tasks = [
        _probe(server.url, phase, stop_at, measure_from, args.interval) for _ in range(args.probes)
    ]
    tasks += [
        _hinter(server.url, phase, stop_at, measure_from, games, seed) for seed in range(hinters)
    ]
    await asyncio.gather(*tasks)
    phase.seconds = time.perf_counter() - measure_from
    phase.server_cpu = _cpu_seconds(server.proc.pid) - cpu_before
    return phase


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def _one_run(args: argparse.Namespace) -> dict[str, Any]:
    """One run: a fresh server and database, the probes alone, then beside the hinters."""
    data_dir = tempfile.mkdtemp(prefix="pk-hint-bench-")
    src = Path(args.src).resolve()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")]),
        "PATIENCEKIT_ENV": "test",
        "PATIENCEKIT_SECRET_KEY": secrets.token_hex(16),
        "PATIENCEKIT_DATA_DIR": data_dir,
        "PATIENCEKIT_HINTS_PER_PLAYER": str(args.hint_limit),
        "PATIENCEKIT_COMPETITION_TICK_SECONDS": "0",
    }
    env.pop("PATIENCEKIT_DATABASE_URL", None)
    load_before = round(os.getloadavg()[0], 2)  # the machine may be shared: say how busy
    server = Server(env, 1, Path(data_dir) / "server.log")
    try:
        alone = asyncio.run(_phase("alone", server, args, 0)).summary()
        hints = asyncio.run(_phase("hints", server, args, args.hinters)).summary()
    finally:
        server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)
    return {
        "src": str(src),
        "hinters": args.hinters,
        "probes": args.probes,
        "interval": args.interval,
        "seconds": args.seconds,
        "games": args.games,
        "hint_limit": args.hint_limit,
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "load_after": round(os.getloadavg()[0], 2),
        "alone": alone,
        "hints": hints,
        "p99_ratio": _ratio(hints["probe_p99_ms"], alone["probe_p99_ms"]),
        "p50_ratio": _ratio(hints["probe_p50_ms"], alone["probe_p50_ms"]),
    }


def _median(values: list[Any]) -> float | None:
    present = [v for v in values if v is not None]
    return round(statistics.median(present), 2) if present else None


def _over_runs(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The runs and their medians."""
    return {
        "runs": results,
        "median_alone_p50_ms": _median([r["alone"]["probe_p50_ms"] for r in results]),
        "median_alone_p99_ms": _median([r["alone"]["probe_p99_ms"] for r in results]),
        "median_hints_p50_ms": _median([r["hints"]["probe_p50_ms"] for r in results]),
        "median_hints_p99_ms": _median([r["hints"]["probe_p99_ms"] for r in results]),
        "median_p99_ratio": _median([r["p99_ratio"] for r in results]),
        "median_p50_ratio": _median([r["p50_ratio"] for r in results]),
        "median_hints_per_second": _median([r["hints"]["hints_per_second"] for r in results]),
    }


def _print_run(result: dict[str, Any]) -> None:
    print(
        f"{result['hinters']} hinters, {result['probes']} probes every {result['interval']:g} s, "
        f"{result['seconds']:g} s per phase, {result['cpus']} CPUs shared by client and server, "
        f"load {result['load_before']} -> {result['load_after']}"
    )
    print(
        f"{'phase':<6} {'probes':>7} {'p50 ms':>8} {'p99 ms':>8} {'hints/s':>8} "
        f"{'hint p50':>9} {'server CPU s':>12}  hint answers"
    )
    for s in (result["alone"], result["hints"]):
        print(
            f"{s['phase']:<6} {s['probes']:>7} {s['probe_p50_ms']!s:>8} {s['probe_p99_ms']!s:>8} "
            f"{s['hints_per_second']:>8} {s['hint_p50_ms']!s:>9} {s['server_cpu_seconds']:>12}  "
            f"{s['hint_statuses'] or ''}"
        )
    print(
        f"/api/health with hints vs alone: p99 x{result['p99_ratio']}, p50 x{result['p50_ratio']}"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the bench; prints a table per run and the medians (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hinters", type=int, default=8, help="players asking for hints")
    parser.add_argument("--probes", type=int, default=2, help="health probes")
    parser.add_argument("--interval", type=float, default=0.01, help="seconds between probes")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds a phase")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds first")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", default=GAMES, help="games dealt, comma-separated")
    parser.add_argument(
        "--hint-limit", type=int, default=1_000_000, help="hints per player and minute"
    )
    parser.add_argument("--src", default=str(REPO / "src"), help="the server's source folder")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    results = []
    for i in range(args.runs):
        result = _one_run(args)
        results.append(result)
        if not args.json:
            print(f"-- run {i + 1} of {args.runs}")
            _print_run(result)
    summary = _over_runs(results)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"== medians over {args.runs} runs: /api/health p50 {summary['median_alone_p50_ms']} "
            f"-> {summary['median_hints_p50_ms']} ms, p99 {summary['median_alone_p99_ms']} -> "
            f"{summary['median_hints_p99_ms']} ms (p99 x{summary['median_p99_ratio']}, p50 "
            f"x{summary['median_p50_ratio']}); "
            f"hints answered {summary['median_hints_per_second']}/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
