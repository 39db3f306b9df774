"""Find winnable Picture Patience deals by sweeping game numbers, and ship them.

    .venv/bin/python tools/picture_sweep.py --first N --count K [--stages S] [--workers 2]
                                            [--write]

Picture Patience (two decks, nothing on the foundations at first, one pass of the stock,
no redeal) is seldom won: the package's solver wins none of deals 1-100, and a greedy
sweep found one winnable number in about 250,000. This tool deals numbers ``N .. N+K-1``
in C (``tools/picture_sweep.c``, built here with the system's C compiler into
``build/``) and searches each with beams of growing width (``--stages``, by default
``10:52,100:60,500``: a beam 10 positions wide, then one 100 wide for the deals where the
first put 52 cards or more on the foundations, then one 500 wide where that one put 60;
about 0.6 ms a deal, and a win in about 7,000 deals). Every line
it prints is replayed through the checked engine (:class:`patiencekit.Game`, move by
move, ending won) before it counts; a line that does not replay stops the tool with an
error naming the deal.

With ``--write`` the won numbers are added to the shipped winnable list
(``src/patiencekit/games/winnable_numbers.py``, which "winnable deals only" deals from)
and their lines to ``tests/data/picture_patience_wins.json`` (game number -> moves),
which the tests replay. The C program's deals are PatienceKit's (its ``deal`` mode is
tested against :func:`patiencekit.deals.dealing_order`).

A beam that finds no win proves nothing: it is a search for wins, not a decision.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from patiencekit import new_game  # noqa: E402
from patiencekit.errors import PatienceError  # noqa: E402

GAME_ID = "picture-patience"
SOURCE = REPO / "tools" / "picture_sweep.c"
BUILD_DIR = REPO / "build"
WINS_JSON = REPO / "tests" / "data" / "picture_patience_wins.json"
WINNABLE_MODULE = REPO / "src" / "patiencekit" / "games" / "winnable_numbers.py"
#: numbers per run of the C program (the unit of the progress bar)
CHUNK = 2000
#: the beams' widths and the cards a beam must place for the next to run
STAGES = "10:52,100:60,500"


def build(out_dir: Path = BUILD_DIR) -> Path:
    """Compile ``tools/picture_sweep.c`` (when the binary is older than the source) and
    return the binary's path. Raises RuntimeError with the compiler's message."""
    out_dir.mkdir(parents=True, exist_ok=True)
    binary = out_dir / "picture_sweep"
    if binary.exists() and binary.stat().st_mtime >= SOURCE.stat().st_mtime:
        return binary
    cc = os.environ.get("CC") or (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        cc = "cc"
    tmp = binary.with_name(binary.name + f".{os.getpid()}")
    done = subprocess.run(
        [cc, "-O2", "-o", str(tmp), str(SOURCE)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"could not compile {SOURCE} with {cc}:\n{done.stderr}")
    os.replace(tmp, binary)
    return binary


def dealt(binary: Path, number: int) -> list[int]:
    """The C program's deal of ``number``: card ids in dealing order."""
    out = subprocess.run(
        [str(binary), str(number), "deal"], capture_output=True, text=True, check=True
    ).stdout
    return [int(x) for x in out.split()]


def sweep_chunk(binary: Path, first: int, count: int, stages: str) -> dict[int, list[str]]:
    """Search numbers ``first .. first+count-1`` through the beams of ``stages``: the
    lines of the deals won, by number (not yet replayed)."""
    out = subprocess.run(
        [str(binary), str(first), str(count), stages],
        capture_output=True, text=True, check=True,
    ).stdout
    wins: dict[int, list[str]] = {}
    done = False
    for row in out.splitlines():
        if row.startswith("won "):
            _, number, _positions, moves = row.split(" ", 3)
            wins[int(number)] = moves.split(",")
        elif row.startswith("done "):
            done = int(row.split()[1]) == count
    if not done:
        raise RuntimeError(f"the sweep of {first}..{first + count - 1} did not finish")
    return wins


def replay(number: int, moves: list[str]) -> None:
    """Play ``moves`` on deal ``number`` through the checked engine; raise
    :class:`PatienceError` naming the deal and the move unless they win."""
    game = new_game(GAME_ID, number)
    for k, move in enumerate(moves, 1):
        try:
            game.play(move)
        except PatienceError as exc:
            raise PatienceError(f"deal {number}: move {k} ({move!r}) is refused: {exc}") from exc
    if not game.is_won():
        raise PatienceError(f"deal {number}: the {len(moves)} moves do not win it")


def sweep(
    first: int, count: int, stages: str, workers: int,
    progress: Callable[[int], None] | None = None,
) -> dict[int, list[str]]:
    """Every won deal of ``first .. first+count-1`` with its line, each line replayed."""
    binary = build()
    chunks = [(a, min(CHUNK, first + count - a)) for a in range(first, first + count, CHUNK)]
    wins: dict[int, list[str]] = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        runs: Iterator[dict[int, list[str]]] = pool.map(
            lambda c: sweep_chunk(binary, c[0], c[1], stages), chunks
        )
        for (_a, n), found in zip(chunks, runs, strict=True):
            for number, moves in found.items():
                replay(number, moves)
                wins[number] = moves
            if progress:
                progress(n)
    return wins


def write(wins: dict[int, list[str]], command: str) -> tuple[int, int]:
    """Add ``wins`` to the shipped list and to the lines file; (added, now shipped)."""
    from patiencekit.solver.study import merge_winnable

    lines: dict[str, list[str]] = {}
    if WINS_JSON.exists():
        lines = json.loads(WINS_JSON.read_text(encoding="utf-8"))
    for number, moves in wins.items():
        lines[str(number)] = moves
    ordered = {k: lines[k] for k in sorted(lines, key=int)}
    text = "{\n" + ",\n".join(
        f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in ordered.items()
    ) + "\n}\n"
    WINS_JSON.write_text(text, encoding="utf-8")
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    return merge_winnable(WINNABLE_MODULE, GAME_ID, wins, f"{stamp}: {command}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, required=True, help="the first game number")
    parser.add_argument("--count", type=int, required=True, help="how many numbers")
    parser.add_argument("--stages", default=STAGES,
                        help=f"beam widths and the cards to go on ({STAGES})")
    parser.add_argument("--workers", type=int, default=2, help="processes at once (2)")
    parser.add_argument("--write", action="store_true", help="ship the wins")
    args = parser.parse_args(argv)
    if args.first < 0 or args.count < 1 or args.workers < 1:
        parser.error("--first must be 0 or more; --count and --workers 1 or more")
    if not re.fullmatch(r"(\d+:\d+,)*\d+", args.stages):
        parser.error(f"--stages must look like {STAGES} (WIDTH:CARDS,... then a WIDTH)")
    if args.first + args.count > 2**64:
        parser.error("the sweep deals game numbers below 2**64 only")
    from rich.progress import Progress

    started = time.monotonic()
    with Progress(transient=True) as bar:
        task = bar.add_task(f"deals {args.first}..{args.first + args.count - 1}",
                            total=args.count)
        wins = sweep(args.first, args.count, args.stages, args.workers,
                     lambda n: bar.advance(task, n))
    seconds = time.monotonic() - started
    print(f"{len(wins)} won of {args.count} deals in {seconds:.0f} s "
          f"(stages {args.stages}, {args.workers} workers), every line replayed: "
          + (", ".join(map(str, sorted(wins))) or "none"))
    if args.write and wins:
        command = (f"tools/picture_sweep.py --first {args.first} --count {args.count} "
                   f"--stages {args.stages} --workers {args.workers} --write")
        added, now = write(wins, command)
        print(f"shipped: {added} added, {now} Picture Patience numbers now")
    return 0


if __name__ == "__main__":
    sys.exit(main())
