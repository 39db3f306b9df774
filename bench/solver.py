"""Solver benchmark: PatienceKit beside Klondike-Solver (pyksolve), same deals, same run.

For each Klondike game number and draw count, every solver runs in a fresh process
(so a deal can be stopped at the time limit and its peak memory read): PatienceKit's
thoughtful solver, and Klondike-Solver through ``pyksolve`` in its fast mode and its
minimal mode (``bench/pyksolve_peer.py``). Reported per solver: solved / proved
unsolvable / undecided, median and p90 wall time per deal, peak memory, and every
deal where two solvers' decisions disagree (there must be none).

    python bench/solver.py --draw 1 --first 1 --deals 200 --max-seconds 30
    python bench/solver.py --draw 3 ...   (pip install 'pyksolve==0.0.15' first)
    python bench/solver.py report ours.json peer.json   (runs saved with --json, as one table)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

GAME_IDS = {1: "klondike-draw1", 3: "klondike"}


def _worker(argv: list[str]) -> None:
    number, draw, seconds, out = argv
    from patiencekit.solver import Budget, solve

    cpu = time.process_time()
    result = solve(GAME_IDS[int(draw)], int(number), budget=Budget(seconds=float(seconds)))
    cpu = time.process_time() - cpu
    data = result.to_json()
    data["cpu_seconds"] = cpu  # processor time of the solve: what a loaded machine inflates less
    Path(out).write_text(json.dumps(data))


def measure_ours(number: int, draw: int, max_seconds: float) -> dict[str, Any]:
    """PatienceKit's solver on one deal in a fresh process: outcome, wall seconds, peak MiB."""
    with tempfile.TemporaryDirectory(prefix="pk-solve-") as tmp:
        out = Path(tmp) / "result.json"
        args = [sys.executable, __file__, "_worker", str(number), str(draw), str(max_seconds),
                str(out)]
        start = time.perf_counter()
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL)
        timer = threading.Timer(max_seconds + 10, proc.kill)  # its own budget stops it first
        timer.start()
        try:
            _, _status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        try:
            raw = json.loads(out.read_text())
        except (OSError, ValueError):
            raw = None
    record: dict[str, Any] = {
        "number": number, "draw": draw, "mode": "patiencekit", "seconds": seconds,
        "peak_mb": usage.ru_maxrss / 1024, "outcome": "limit", "limit": "time",
        "moves": None, "solve_seconds": None,
    }
    if raw is not None:
        record.update(outcome=raw["outcome"], limit=raw["limit"], moves=len(raw["moves"]) or None,
                      solve_seconds=raw["seconds"], states=raw["states"],
                      solve_cpu_seconds=raw.get("cpu_seconds"))
    return record


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)]  # ceil without math


def summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    seconds = [r["seconds"] for r in records]
    inside = [r["solve_seconds"] for r in records if r.get("solve_seconds") is not None]
    cpu = [r["solve_cpu_seconds"] for r in records if r.get("solve_cpu_seconds") is not None]
    peaks = [r["peak_mb"] for r in records]
    return {
        "deals": len(records),
        "solved": sum(r["outcome"] == "solved" for r in records),
        "unsolvable": sum(r["outcome"] == "unsolvable" for r in records),
        "undecided": sum(r["outcome"] == "limit" for r in records),
        "median_s": statistics.median(seconds),
        # inside the solver (no interpreter start or imports): the figure lonelybot's and
        # Klondike-Solver's own timings are
        "median_solve_ms": statistics.median(inside) * 1000 if inside else None,
        "median_solve_cpu_ms": statistics.median(cpu) * 1000 if cpu else None,
        "p90_s": percentile(seconds, 90),
        "median_mb": statistics.median(peaks),
        "max_mb": max(peaks),
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_worker":
        _worker(argv[1:])
        return 0
    if argv and argv[0] == "report":  # report FILE.json ...: the runs' records as one table
        return report(merged(argv[1:]), "Records of " + ", ".join(argv[1:]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draw", type=int, choices=(1, 3), default=1)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--max-seconds", type=float, default=30.0)
    parser.add_argument("--modes", default="patiencekit,fast,minimal",
                        help="which solvers: patiencekit, fast, minimal")
    parser.add_argument("--json", help="write every record to this file")
    args = parser.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    peer = None
    if any(m in ("fast", "minimal") for m in modes):
        import pyksolve_peer as peer

    records: dict[str, list[dict[str, Any]]] = {m: [] for m in modes}
    for number in range(args.first, args.first + args.deals):
        line = [f"#{number:<6d}"]
        for mode in modes:
            if mode == "patiencekit":
                r = measure_ours(number, args.draw, args.max_seconds)
            else:
                assert peer is not None
                r = peer.measure_pyksolve(number, args.draw, mode, args.max_seconds)
            records[mode].append(r)
            line.append(f"{mode}: {r['outcome']:<10s} {r['seconds']:7.2f}s")
        print("  ".join(line), flush=True)
        if args.json:  # after every deal: a long run stopped half-way keeps what it measured
            Path(args.json).write_text(json.dumps(records, indent=1))
    last = args.first + args.deals - 1
    title = (f"Klondike draw {args.draw}, game numbers {args.first}..{last}, "
             f"{args.max_seconds:g} s per deal, one process per deal")
    return report(records, title)


def report(records: dict[str, list[dict[str, Any]]], title: str) -> int:
    """Print the table and the agreement check; 1 if two solvers' decisions disagree."""
    modes = list(records)
    print()
    print(title)
    print()
    print("| solver | deals | solved | proved unsolvable | undecided | median s | p90 s | "
          "median ms inside the solver | median MiB | max MiB |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    names = {"patiencekit": "PatienceKit", "fast": "Klondike-Solver fast (pyksolve)",
             "minimal": "Klondike-Solver minimal (pyksolve)"}
    for mode in modes:
        s = summary(records[mode])
        inside = "-" if s["median_solve_ms"] is None else f"{s['median_solve_ms']:.2f}"
        if s["median_solve_cpu_ms"] is not None:
            inside += f" ({s['median_solve_cpu_ms']:.2f} CPU)"
        print(f"| {names[mode]} | {s['deals']} | {s['solved']} | {s['unsolvable']} | "
              f"{s['undecided']} | {s['median_s']:.3f} | {s['p90_s']:.3f} | {inside} | "
              f"{s['median_mb']:.0f} | {s['max_mb']:.0f} |")
    # agreement
    disagreements = []
    ours = {(r["draw"], r["number"]): r["outcome"] for r in records.get("patiencekit", [])}
    for mode in modes:
        if mode == "patiencekit":
            continue
        for r in records[mode]:
            a, b = ours.get((r["draw"], r["number"])), r["outcome"]
            if a in ("solved", "unsolvable") and b in ("solved", "unsolvable") and a != b:
                disagreements.append((r["number"], mode, a, b))
    if "patiencekit" in records:
        peer_decided = {(r["draw"], r["number"]) for m in modes if m != "patiencekit"
                        for r in records[m] if r["outcome"] != "limit"}
        missed = sorted(n for n in peer_decided if ours.get(n) == "limit")
        print()
        print(f"Deals a peer decided that PatienceKit left undecided: {missed or 'none'}")
    print(f"Disagreements: {disagreements or 'none'}")
    return 1 if disagreements else 0


def merged(paths: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The records of several ``--json`` files (runs of different solvers or deals) as one."""
    records: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        for mode, rows in json.loads(Path(path).read_text()).items():
            records.setdefault(mode, []).extend(rows)
    return records


if __name__ == "__main__":
    raise SystemExit(main())
