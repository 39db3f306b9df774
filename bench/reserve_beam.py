"""Positions a second of the reserve games' compact beam (``solver/reserve.py``, compiled
and pure) against the generic search's greedy beam passes (the search it runs before),
on the same deals at the same positions budget, interleaved, in one process each.

    python bench/reserve_beam.py --game odd-and-even --numbers 34,58,75 --states 200000

Each run is one fresh process per searcher and deal (``PATIENCEKIT_PURE_PYTHON=1`` for
the pure beam); ``--repeats`` rounds, the searchers interleaved within each. Prints the
median positions a second per searcher and the ratios to the generic search.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from patiencekit.solver.study import parse_numbers

ONE = """
import json, sys, time
from patiencekit import new_game
game, number, states, which = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
state = new_game(game, number).state
if which == "generic":
    from patiencekit.solver.generic import GenericSearch
    search = GenericSearch(state, max_states=states, greedy=True)
else:
    from patiencekit.solver import ReserveBeam
    search = ReserveBeam(state, max_states=states)
start = time.perf_counter()
outcome = search.run()
seconds = time.perf_counter() - start
print(json.dumps([search.nodes, seconds, outcome[0]]))
"""

SEARCHERS = ("generic", "beam", "beam-pure")


def run_one(
    game: str, number: int, states: int, which: str, script: str = ONE
) -> tuple[int, float, object]:
    """One search in a fresh process: ``script`` run with the game, number, positions
    budget and searcher (``which`` without a ``-pure`` ending, which sets
    ``PATIENCEKIT_PURE_PYTHON``); its (positions, seconds, won)."""
    env = dict(os.environ)
    if which.endswith("-pure"):
        env["PATIENCEKIT_PURE_PYTHON"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", script, game, str(number), str(states), which.split("-")[0]],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    nodes, seconds, won = json.loads(out.stdout.strip().splitlines()[-1])
    return int(nodes), float(seconds), won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="odd-and-even")
    parser.add_argument("--numbers", default="34,58,75,83,93")
    parser.add_argument("--states", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    numbers = parse_numbers(args.numbers)
    rates: dict[str, list[float]] = {w: [] for w in SEARCHERS}
    for r in range(args.repeats):
        for n in numbers:
            for which in SEARCHERS:
                nodes, seconds, won = run_one(args.game, n, args.states, which)
                rates[which].append(nodes / seconds)
                print(
                    f"round {r + 1} #{n} {which}: {nodes} positions in {seconds:.2f} s "
                    f"({nodes / seconds:,.0f}/s), won {won}",
                    flush=True,
                )
    med = {w: statistics.median(v) for w, v in rates.items()}
    print(
        f"\n{args.game}, deals {args.numbers}, {args.states:,} positions, "
        f"{args.repeats} rounds: median positions a second"
    )
    for w in SEARCHERS:
        print(f"  {w:10} {med[w]:>10,.0f}  ({med[w] / med['generic']:.1f}x the generic search)")


if __name__ == "__main__":
    main()
