"""PatienceMax's C run against another version of it: processor time and peak memory of
the whole search (every run of ``PatienceMaxSearch.run``) on the same deals at the same
positions budget.

    python bench/patiencemax_ab.py --ref 2f406b2 --game patiencemax --numbers 3,20,32,81 \
        --states 1000000

``--ref REV`` builds ``solver/patiencemax_native.c`` as it was at git revision REV (with
the same compiler and flags, ``tools/build_fast.py``) into a temporary folder; the version
in use is the one built in the package. Each deal runs in one fresh process per version
(so that its peak memory is its own), the two interleaved, ``--repeats`` rounds. Both
versions must expand the same positions (the C run is the Python search, position for
position, in every version): a deal whose verdict, positions or positions kept differ
stops the bench. Prints per deal the processor seconds and peak memory of each, and the
medians of the ratios (ref / in use: above 1 the version in use is faster or smaller).
Processor time, not wall time: a loaded machine inflates it least.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from patiencekit.solver.study import parse_numbers  # noqa: E402

ONE = """
import importlib.util, json, resource, sys, time
so, game, number, states = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
from patiencekit import new_game
from patiencekit.solver import PatienceMaxSearch
search = PatienceMaxSearch(new_game(game, number).state, max_states=states,
                           max_memory_mb=1 << 20)
if so:
    spec = importlib.util.spec_from_file_location("patiencemax_native", so)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    search.native = module
assert search.native is not None, "the C run is not built"
start = time.process_time()
outcome = search.run()
seconds = time.process_time() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(json.dumps([outcome[0], search.nodes, search.kept, seconds, peak]))
"""


def build_ref(rev: str, dest: Path) -> Path:
    """The C run of revision ``rev``, built into ``dest``; its path."""
    from build_fast import NATIVES, build_native

    target = NATIVES["patiencemax_native"]
    text = subprocess.run(
        ["git", "show", f"{rev}:src/patiencekit/{target.source}"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout
    if build_native(target, dest, source=text):
        raise SystemExit(f"could not build {target.source} of {rev}")
    return next(dest.glob(f"{target.fast}*.so"))


def run_one(so: str, game: str, number: int, states: int) -> list[float]:
    out = subprocess.run([sys.executable, "-c", ONE, so, game, str(number), str(states)],
                         capture_output=True, text=True, check=True)
    result: list[float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", required=True, help="the git revision to compare with")
    parser.add_argument("--game", default="patiencemax")
    parser.add_argument("--numbers", default="3,20,32,81")
    parser.add_argument("--states", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    numbers = parse_numbers(args.numbers)
    time_ratios: list[float] = []
    memory_ratios: list[float] = []
    with tempfile.TemporaryDirectory(prefix="pk-ab-") as tmp:
        ref_so = str(build_ref(args.ref, Path(tmp)))
        print(f"{args.game}, {args.states:,} positions a deal, {args.ref} against the build "
              "in use")
        print("deal  ref s   in use s  ratio   ref MB  in use MB  ratio")
        for _ in range(args.repeats):
            for number in numbers:
                ref = run_one(ref_so, args.game, number, args.states)
                new = run_one("", args.game, number, args.states)
                if ref[:3] != new[:3]:
                    raise SystemExit(f"deal {number}: the versions differ: {ref[:3]} against "
                                     f"{new[:3]} (verdict, positions, kept)")
                time_ratios.append(ref[3] / new[3])
                memory_ratios.append(ref[4] / new[4])
                print(f"{number:>4}  {ref[3]:6.2f}  {new[3]:8.2f}  {time_ratios[-1]:5.2f}x  "
                      f"{ref[4]:6.0f}  {new[4]:9.0f}  {memory_ratios[-1]:5.2f}x", flush=True)
    memory = statistics.median(memory_ratios)
    print(f"median: {statistics.median(time_ratios):.2f}x the speed, peak memory "
          f"{100 * (1 - 1 / memory):.0f} % less ({len(time_ratios)} runs, the same positions "
          "in both)")


if __name__ == "__main__":
    main()
