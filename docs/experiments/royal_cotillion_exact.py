"""An experiment, not part of the package: the generic exact search alone on Royal
Cotillion deals, each win replayed on the checked engine before it counts.

``solve()`` gives a Royal Cotillion deal to the compact beam first (half of its time), then
the generic greedy passes, and the generic *exact* search (depth-first with the dead-end
analysis, then beams) only the last twentieth of its time. Given its whole budget, the
exact search wins a few deals the others do not: of the 135 numbers of 1-1,000 not shipped
on 2026-12-06, 3 at 10 s a deal (#127, 442, 913), and #28 (already shipped) at 500,000
positions; it proved none of them lost. This script runs it at a positions budget (so a run
is reproducible: the same budget, the same verdicts), plays each winning line through
``Game.play`` (the study's replay) and, with ``--merge``, adds the numbers won so to the
shipped list (``patiencekit.solver.study.merge_winnable``, which records the command in its
SOURCES).

    python docs/experiments/royal_cotillion_exact.py --numbers 28,127,442,913 \\
        --states 500000 [--merge]
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime
from pathlib import Path

from patiencekit import new_game
from patiencekit.solver import study
from patiencekit.solver.generic import GenericSearch

GAME = "royal-cotillion"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--numbers", required=True, help="game numbers: 1-50,77 or @FILE")
    ap.add_argument("--states", type=int, default=500_000)
    ap.add_argument("--merge", action="store_true")
    args = ap.parse_args()
    won: list[int] = []
    for n in study.parse_numbers(args.numbers):
        t0 = time.perf_counter()
        search = GenericSearch(new_game(GAME, n).state, max_states=args.states)
        verdict, limit = search.run()
        ok = verdict is True and study._replays(GAME, n, search.move_texts())
        if ok:
            won.append(n)
        print(f"#{n}: {verdict} {limit or ''} {search.nodes} positions, "
              f"{time.perf_counter() - t0:.1f} s{', replayed' if ok else ''}", flush=True)
    print(f"won (replayed on the engine): {won}")
    if args.merge and won:
        path = Path(study.__file__).parent.parent / "games" / "winnable_numbers.py"
        command = (
            f"{datetime.now(UTC).date().isoformat()}: "
            f"python docs/experiments/royal_cotillion_exact.py --numbers {args.numbers} "
            f"--states {args.states} --merge"
        )
        added, now = study.merge_winnable(path, GAME, won, command)
        print(f"shipped list: {added} added, {now} now")


if __name__ == "__main__":
    main()
