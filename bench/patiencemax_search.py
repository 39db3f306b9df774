"""Positions a second and wins of PatienceMax's compact search (``solver/patiencemax.py``:
its best-first run in C, ``native``, and in compiled Python, ``compact``, and with
``--pure`` in pure Python) against the generic search's best-first search (what solve()
ran in PatienceMax before), on the same deals at the same positions budget, interleaved,
in one process each.

    python bench/patiencemax_search.py --game patiencemax-all-to-piles --numbers 1-10 \
        --states 100000

Each run is one fresh process per searcher and deal (``PATIENCEKIT_PURE_PYTHON=1`` for
the pure search); ``--repeats`` rounds, the searchers interleaved within each. The C
and Python runs are the same search (they expand the same positions and find the same
lines), so their wins are the same; only the speed differs. Positions a
second are positions expanded (both searches count them so). The budgets differ: the
generic best-first search stops at that many positions kept (each expanded one's
children), the compact search at that many expanded, so the generic one expands fewer
and its wins within the budget are not the same measure. Prints per searcher the median
positions a second, its ratio to the generic search's, and the deals won within the
budget.
"""

from __future__ import annotations

import argparse
import statistics

from patiencekit.solver.study import parse_numbers
from reserve_beam import run_one

ONE = """
import json, sys, time
from patiencekit import new_game
game, number, states, which = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
state = new_game(game, number).state
if which == "generic":
    from patiencekit.solver.generic import GenericSearch
    search = GenericSearch(state, max_states=states, greedy=True)
else:
    from patiencekit.solver import PatienceMaxSearch
    search = PatienceMaxSearch(state, max_states=states, native=which == "native")
start = time.perf_counter()
outcome = search.run()
seconds = time.perf_counter() - start
print(json.dumps([search.nodes, seconds, outcome[0]]))
"""

SEARCHERS = ("generic", "native", "compact")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="patiencemax-all-to-piles")
    parser.add_argument("--numbers", default="1-10")
    parser.add_argument("--states", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--pure", action="store_true", help="the pure-Python search too")
    args = parser.parse_args()
    searchers = SEARCHERS + (("compact-pure",) if args.pure else ())
    numbers = parse_numbers(args.numbers)
    rates: dict[str, list[float]] = {w: [] for w in searchers}
    wins: dict[str, set[int]] = {w: set() for w in searchers}
    for r in range(args.repeats):
        for n in numbers:
            for which in searchers:
                nodes, seconds, won = run_one(args.game, n, args.states, which, ONE)
                rates[which].append(nodes / seconds)
                if won:
                    wins[which].add(n)
                print(
                    f"round {r + 1} #{n} {which}: {nodes} positions in {seconds:.2f} s "
                    f"({nodes / seconds:,.0f}/s), won {won}",
                    flush=True,
                )
    med = {w: statistics.median(v) for w, v in rates.items()}
    print(
        f"\n{args.game}, deals {args.numbers}, {args.states:,} positions, "
        f"{args.repeats} rounds: median positions a second, deals won"
    )
    for w in searchers:
        print(
            f"  {w:13} {med[w]:>10,.0f}  ({med[w] / med['generic']:.1f}x the generic search)"
            f"  won {len(wins[w])} of {len(numbers)}"
        )


if __name__ == "__main__":
    main()
