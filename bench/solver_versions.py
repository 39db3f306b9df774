"""Two versions of the solver on the same Klondike deals, one fresh process per deal and
version, alternating which goes first: processor and wall time inside ``solve()``, outcomes,
and every deal where the two decide differently (there must be none).

The other version is a checkout of an older commit with its own compiled modules, e.g.::

    git archive 80c647b | tar -x -C /tmp/old && (cd /tmp/old && python tools/build_fast.py)
    python bench/solver_versions.py klondike 7100000 31 --old /tmp/old

Processor time is what a loaded machine inflates least; quote the ratio of the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

WORKER = """
import sys, time, json
sys.path.insert(0, sys.argv[1] + "/src")
from patiencekit.solver import solve, Budget
c = time.process_time(); w = time.perf_counter()
r = solve(sys.argv[2], int(sys.argv[3]), budget=Budget(seconds=float(sys.argv[4])))
print(json.dumps([r.outcome, time.process_time() - c, time.perf_counter() - w, r.states]))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("klondike", "klondike-draw1"))
    parser.add_argument("first", type=int)
    parser.add_argument("deals", type=int)
    parser.add_argument("--old", required=True, help="the other version's checkout")
    parser.add_argument("--new", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--max-seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    roots = {"old": args.old, "new": args.new}
    results: dict[str, list[list[object]]] = {k: [] for k in roots}
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    disagree = 0
    for number in range(args.first, args.first + args.deals):
        for k in ("old", "new") if number % 2 else ("new", "old"):
            out = subprocess.run(
                [sys.executable, "-c", WORKER, roots[k], args.game, str(number),
                 str(args.max_seconds)],
                capture_output=True, text=True, env=env, check=True,
            )
            results[k].append(json.loads(out.stdout.strip().splitlines()[-1]))
        old, new = results["old"][-1][0], results["new"][-1][0]
        if old != new and "limit" not in (old, new):
            disagree += 1
            print(f"#{number}: old {old}, new {new}", flush=True)
    medians = {}
    for k, rows in results.items():
        cpu = statistics.median(float(r[1]) for r in rows) * 1000  # type: ignore[arg-type]
        wall = statistics.median(float(r[2]) for r in rows) * 1000  # type: ignore[arg-type]
        medians[k] = cpu
        counts = {o: sum(r[0] == o for r in rows) for o in ("solved", "unsolvable", "limit")}
        print(f"{k}: median CPU {cpu:.2f} ms, wall {wall:.2f} ms, {counts}")
    print(f"old / new, median CPU: {medians['old'] / medians['new']:.2f}x; "
          f"disagreements: {disagree}")
    return 1 if disagree else 0


if __name__ == "__main__":
    raise SystemExit(main())
