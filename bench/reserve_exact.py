"""Positions a second of the reserve games' pruned exact search (``ReserveExact`` in
``solver/reserve.py``): the C search (``reserve_native.c``) against the Python one
(compiled with mypyc, and pure), on the same deals at the same positions budget,
interleaved, in one fresh process each. All three visit the same positions (the bench
checks the counts agree), so the ratio is the speed-up alone.

    python bench/reserve_exact.py --game picture-patience --numbers 12,27,48 --states 200000

``--search rollout`` measures Royal Cotillion's beam scored by greedy rollouts
(``ReserveRollout``, its passes in the same C file) the same way:

    python bench/reserve_exact.py --search rollout --game royal-cotillion \
        --numbers 934,121,39 --states 50000

``--repeats`` rounds, the searchers interleaved within each. Prints the median positions
a second per searcher and the ratios to the compiled Python search.
"""

from __future__ import annotations

import argparse
import statistics

from patiencekit.solver.study import parse_numbers
from reserve_beam import run_one

ONE = """
import json, sys, time
from patiencekit import new_game
from patiencekit.solver import ReserveExact, ReserveRollout
game, number, states, which = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
cls = ReserveRollout if game.startswith("rollout:") else ReserveExact
game = game.removeprefix("rollout:")
search = cls(new_game(game, number).state, max_states=states, native=which == "c")
if which == "c" and search.native is None:
    raise SystemExit("the C search is not built: run make")
start = time.perf_counter()
outcome = search.run()
seconds = time.perf_counter() - start
print(json.dumps([search.nodes, seconds, outcome[0]]))
"""

#: the C search, the compiled Python one and the pure Python one
SEARCHERS = ("c", "python", "python-pure")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="picture-patience")
    parser.add_argument("--numbers", default="12,27,48")
    parser.add_argument("--states", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--search", choices=["exact", "rollout"], default="exact",
        help="the exact search (ReserveExact) or the rollout beam (ReserveRollout)",
    )
    args = parser.parse_args()
    game = f"rollout:{args.game}" if args.search == "rollout" else args.game
    numbers = parse_numbers(args.numbers)
    rates: dict[str, list[float]] = {w: [] for w in SEARCHERS}
    for r in range(args.repeats):
        for n in numbers:
            counts = set()
            for which in SEARCHERS:
                nodes, seconds, won = run_one(game, n, args.states, which, ONE)
                counts.add((nodes, won))
                rates[which].append(nodes / seconds)
                print(
                    f"round {r + 1} #{n} {which}: {nodes} positions in {seconds:.2f} s "
                    f"({nodes / seconds:,.0f}/s), won {won}",
                    flush=True,
                )
            if len(counts) != 1:
                raise SystemExit(f"#{n}: the searches disagree: {sorted(counts, key=str)}")
    med = {w: statistics.median(v) for w, v in rates.items()}
    print(
        f"\n{args.game} ({args.search}), deals {args.numbers}, {args.states:,} positions, "
        f"{args.repeats} rounds: median positions a second"
    )
    for w in SEARCHERS:
        print(f"  {w:12} {med[w]:>10,.0f}  ({med[w] / med['python']:.1f}x the compiled Python)")


if __name__ == "__main__":
    main()
