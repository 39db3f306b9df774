"""An experiment, not part of the package: bounds that could prove Royal Cotillion deals
lost, checked on winning lines and tried in an exact search (stop 42, 2026-12-06).

``royal_cotillion_bounds.c`` (beside this file; its text says what each bound relaxes and
why) is compiled into ``build/``. Three uses:

    # every position of the winning lines the package's beam finds for shipped numbers:
    # a bound that calls one of them lost is unsound ("bury" does)
    python docs/experiments/royal_cotillion_bounds.py check count --first-shipped 40

    # the exact search over the model, pruned by a bound, at a positions budget
    python docs/experiments/royal_cotillion_bounds.py dfs count --numbers 7,994,8 \\
        --states 2000000

    # a beam that looks for a win, scored by greedy rollouts (stop 46); --merge ships wins
    python docs/experiments/royal_cotillion_bounds.py beam roll --numbers 1-10 \\
        --width 1000 --states 2000000

A bound decides nothing by itself here: what it proves is "lost" only if it is sound, and
the check is evidence, not a proof (its argument is in the C file's text).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

from patiencekit import new_game
from patiencekit.deals import dealing_order
from patiencekit.games.winnable_numbers import WINNABLE
from patiencekit.solver import study
from patiencekit.solver.reserve import ReserveBeam
from patiencekit.solver.study import parse_numbers

GAME = "royal-cotillion"
HERE = Path(__file__).resolve().parent
SOURCE = HERE / "royal_cotillion_bounds.c"
BINARY = HERE.parent.parent / "build" / "royal_cotillion_bounds"


def build() -> Path:
    """Compile the C program when it is older than its source."""
    BINARY.parent.mkdir(parents=True, exist_ok=True)
    if not BINARY.exists() or BINARY.stat().st_mtime < SOURCE.stat().st_mtime:
        cc = shutil.which("cc") or shutil.which("gcc") or "cc"
        # (built beside it, then renamed: two drivers started at once each run a whole one)
        tmp = BINARY.with_name(f"{BINARY.name}.{os.getpid()}")
        subprocess.run([cc, "-O2", "-o", str(tmp), str(SOURCE)], check=True)
        os.replace(tmp, BINARY)
    return BINARY


def deal_line(number: int) -> str:
    return " ".join(map(str, [number, *dealing_order(number, 2)]))


def winning_positions(number: int, states: int) -> list[str] | None:
    """Every position of the line the package's beam wins ``number`` with, in the C
    program's format, or None when it finds no win within ``states``."""
    search = ReserveBeam(new_game(GAME, number).state, max_states=states)
    if search.run()[0] is not True:
        return None
    pos = search.root
    out = []
    for move in [None, *search.path]:
        if move is not None:
            pos = dict(search.children(pos))[move]
        _, _, drawn, waste, reserve, hs, left = pos
        out.append(
            " ".join(map(str, [*hs, *left, drawn, len(waste), *waste, len(reserve), *reserve]))
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["check", "dfs", "beam"])
    ap.add_argument(
        "bound",
        choices=["none", "share", "count", "blank", "bury", "bury2", "cap", "roll", "roll2"],
        help="dfs: the bound that prunes; beam: the score (roll, roll2: greedy rollouts)",
    )
    ap.add_argument("--numbers", help="deal numbers, as in `patiencekit study --numbers`")
    ap.add_argument("--first-shipped", type=int, help="check: the first N shipped numbers")
    ap.add_argument("--states", type=int, default=300_000, help="beam or search positions")
    ap.add_argument("--table", type=int, default=24, help="dfs: log2 of the table's slots")
    ap.add_argument("--merge", action="store_true", help="dfs, beam: ship the numbers won")
    ap.add_argument("--width", type=int, default=1000, help="beam: positions kept a level")
    ap.add_argument(
        "--restarts", type=int, default=1,
        help="dfs: searches a deal, each of STATES; from the second on in a random order",
    )
    ap.add_argument(
        "--first-restart", type=int, default=0,
        help="dfs: the number of the first restart (0: the ordered search; k: seed k)",
    )
    args = ap.parse_args()
    binary = build()
    if args.mode == "check":
        numbers = (
            parse_numbers(args.numbers)
            if args.numbers
            else sorted(WINNABLE[GAME])[: args.first_shipped or 40]
        )
        proc = subprocess.Popen(
            [str(binary), "check", args.bound], stdin=subprocess.PIPE, text=True
        )
        assert proc.stdin is not None
        for n in numbers:
            lines = winning_positions(n, args.states)
            if lines is None:
                print(f"{n}: no win found by the beam", file=sys.stderr)
                continue
            proc.stdin.write(f"{deal_line(n)} {len(lines)}\n" + "\n".join(lines) + "\n")
            proc.stdin.flush()
        proc.stdin.close()
        return proc.wait()
    if not args.numbers:
        ap.error(f"{args.mode} needs --numbers")
    text = "".join(deal_line(n) + "\n" for n in parse_numbers(args.numbers))
    cmd = [str(binary), "dfs", args.bound, str(args.states), str(args.table), str(args.restarts),
           str(args.first_restart)]
    if args.mode == "beam":
        cmd = [str(binary), "beam", args.bound, str(args.width), str(args.states), str(args.table)]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin

    def feed() -> None:  # (from a thread: written whole first, a long list of deals
        stdin.write(text)  # filled both pipes and the two programs waited on each other)
        stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    won: list[int] = []
    for row in proc.stdout:
        head, _, moves = row.strip().partition(" line=")
        ok = ""
        if moves:
            n = int(head.split()[0])
            if replays(n, [int(m) for m in moves.split(",")]):
                won.append(n)
                ok = ", replayed on the engine"
            else:
                ok = ", NOT REPLAYED"
        print(head + ok, flush=True)
    print(f"won (replayed on the engine): {won}")
    if args.merge and won:
        path = Path(study.__file__).parent.parent / "games" / "winnable_numbers.py"
        command = (
            f"{datetime.now(UTC).date().isoformat()}: python "
            f"docs/experiments/royal_cotillion_bounds.py {args.mode} {args.bound} "
            f"--numbers {args.numbers} --states {args.states} --table {args.table}"
            + (f" --width {args.width}" if args.mode == "beam" else "")
            + (f" --restarts {args.restarts}" if args.restarts > 1 else "")
            + (f" --first-restart {args.first_restart}" if args.first_restart else "")
            + " --merge"
        )
        added, now = study.merge_winnable(path, GAME, won, command)
        print(f"shipped list: {added} added, {now} now")
    return proc.wait()


def replays(number: int, path: list[int]) -> bool:
    """The C program's line, turned into the engine's moves by the package's beam (which
    checks each one legal) and replayed as a study replays a win."""
    search = ReserveBeam(new_game(GAME, number).state)
    search.path = path
    try:
        texts = search.move_texts()
    except AssertionError:
        return False
    return study._replays(GAME, number, texts)


if __name__ == "__main__":
    sys.exit(main())
