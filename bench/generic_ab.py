"""Two versions of the solver on the same deals of a game at a positions budget: outcomes
per version and every deal they decide differently. A positions budget makes the
comparison independent of the machine's load (a time budget would not be: on a shared
machine the slower run loses the deals at the beam's edge).

The other version is a checkout of an older commit with its compiled modules, e.g.::

    git worktree add /tmp/old HEAD~1 && (cd /tmp/old && python tools/build_fast.py)
    python bench/generic_ab.py odd-and-even --old /tmp/old --numbers 20,34,49 \\
        --states 120000

``--numbers`` takes numbers and ranges (``1-50,77``) or ``@FILE`` (a JSON list). Each
version runs in its own pool of ``--workers`` processes, one after the other.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from patiencekit.solver.study import parse_numbers

WORKER = """
import json, sys
from multiprocessing import Pool
sys.path.insert(0, sys.argv[1] + "/src")
game, states, workers = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
numbers = json.loads(sys.stdin.read())

def one(n):
    from patiencekit import new_game
    from patiencekit.solver import Budget, solve_state
    r = solve_state(new_game(game, n).state, Budget(seconds=None, states=states))
    return [n, r.outcome, r.states, r.seconds]

if __name__ == "__main__":
    with Pool(workers) as pool:
        print(json.dumps(list(pool.imap(one, numbers))))
"""


def run(root: str, game: str, numbers: list[int], states: int, workers: int) -> list[list]:
    """The outcomes of one version: [number, outcome, positions, seconds] per deal."""
    done = subprocess.run(
        [sys.executable, "-c", WORKER, root, game, str(states), str(workers)],
        input=json.dumps(numbers),
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},  # (the worker's path)
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--old", required=True, help="the other version's checkout")
    parser.add_argument("--new", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--numbers", required=True, help="1-50,77 or @FILE (a JSON list)")
    parser.add_argument("--states", type=int, default=120_000, help="positions a deal")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="write both versions' outcomes to this JSON file")
    args = parser.parse_args(argv)
    numbers = parse_numbers(args.numbers)
    results: dict[str, dict[int, str]] = {}
    positions: dict[str, dict[int, int]] = {}
    seconds: dict[str, dict[int, float]] = {}
    for name, root in (("old", args.old), ("new", args.new)):
        print(f"{name}: {root}, {len(numbers)} deals at {args.states:,} positions", flush=True)
        rows = run(root, args.game, numbers, args.states, args.workers)
        results[name] = {n: outcome for n, outcome, *_ in rows}
        positions[name] = {n: kept for n, _, kept, _ in rows}
        seconds[name] = {n: spent for n, _, _, spent in rows}
        total = sum(seconds[name].values())
        print(f"  {dict(Counter(results[name].values()))}, {total:.1f} s in the solver",
              flush=True)
    old, new = results["old"], results["new"]
    # the time each deal took in the new version against the old (per deal, then the median)
    ratios = sorted(
        seconds["old"][n] / seconds["new"][n] for n in numbers if seconds["new"][n] > 0
    )
    if ratios:
        print(f"old / new time, median over the deals: {ratios[len(ratios) // 2]:.2f}x; "
              f"in all: {sum(seconds['old'].values()) / sum(seconds['new'].values()):.2f}x")
    moved = [n for n in numbers if positions["old"][n] != positions["new"][n]]
    print(f"positions differ on {len(moved)} of {len(numbers)} deals")
    differ = [n for n in numbers if old[n] != new[n]]
    print(f"decided differently: {len(differ)}")
    for n in differ:
        print(f"  #{n}: old {old[n]}, new {new[n]}")
    contradictions = [n for n in differ if {old[n], new[n]} == {"solved", "unsolvable"}]
    if args.out:
        Path(args.out).write_text(
            json.dumps({**results, "positions": positions, "seconds": seconds}, indent=1)
        )
    if contradictions:
        print(f"CONTRADICTIONS (one solved, the other unsolvable): {contradictions}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
