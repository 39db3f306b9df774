"""Klondike-Solver peer for the solver benchmark, through the PyPI package ``pyksolve``.

``pyksolve`` (0.0.15, a prebuilt cp311 wheel; ``pip install 'pyksolve==0.0.15'``) is a
Cython wrapper around ShootMe's Klondike-Solver (C++).  Its ``Solitaire`` class takes a
deck string, a draw count, and solves in two ways:

* **minimal** -- ``solve_minimal(max_closed_count)``: A* over an open list bucketed by
  f = g + h, closed set capped at ``max_closed_count`` states (default 5,000,000).
  Result ``SolvedMinimal`` (1), ``SolvedMayNotBeMinimal`` (-1: cap hit after a solution
  was found), ``Impossible`` (0: the open list ran dry before the cap) or
  ``CouldNotComplete`` (-2: cap hit, no solution).
* **fast** -- ``solve_fast(two_shift, three_shift, max_closed_count)`` is one greedy pass:
  each expanded state pushes its best child, its second best while the closed set is
  below ``cap >> two_shift`` and its third best while below ``cap >> three_shift``.
  Klondike-Solver's command-line ``/F`` runs three such passes, each from the deal, with
  (two_shift, three_shift) = (0, 0), (0, 4), (1, 4) and a 200,000-state cap each, and
  keeps the shortest solution.  :data:`FAST_PASSES` does exactly that (all three passes
  always run, as ``/F`` does).  A pass only ever returns ``SolvedMayNotBeMinimal`` or
  ``CouldNotComplete``, except ``Impossible`` when no move at all is possible from the
  deal, so fast mode practically never proves a deal unsolvable.

Verdicts here: ``solved`` (either Solved*), ``unsolvable`` (``Impossible``), ``limit``
(``CouldNotComplete``, or the process was killed at the wall-time limit; ``"limit"`` in
the result says which: ``"states"`` -- minimal mode hit its state cap --, ``"gave-up"`` --
the fast passes ended without a solution, at their cap or with their pruned open list
empty (pyksolve does not say which) --, or ``"time"``).  They are the peer's own verdicts
under its own move generator (it prunes some partial-string moves; see the research
notes, section 1.3).  Its rules are ours: unlimited redeals, the waste turned over in
order, foundation-to-column moves allowed.

Deck string (``Solitaire.load_solitaire``): 52 groups ``RRS`` (rank 01..13, suit 1 clubs,
2 diamonds, 3 hearts, 4 spades), in dealing order.  ``ResetGame`` deals them row by row:
row r (r = 0..6) puts its first card face up on column r+1 and the next 6 - r cards face
down on columns r+2..7, so column j (1-based) holds, from the bottom, the cards of rows
0..j-1 -- the last one face up.  Cards 29..52 (0-based 28..51) form the stock, card 29
drawn first.  PatienceKit's ``deal_json()`` lists columns bottom to top and the stock
with its *last* card drawn first, so :func:`deck_string` takes column j's card at height r
for row r and the stock reversed.  :func:`pyksolve_layout` reads pyksolve's own view back
(``game_diagram_pysol()`` after ``reset_game()``) to check that mapping (``--check``).

Moves (``moves_made()``): space-separated tokens; ``DR#`` draw # times (whatever the draw
count), ``NEW`` turn the waste over, ``XY`` / ``XY-#`` move the top card / # cards from X
to Y, with piles ``W`` (waste), ``1``..``7`` (columns), ``C D S H`` (foundations), and
``F#`` the automatic turn of column #'s new top card.  :func:`ks_moves_to_ours` maps them
to our notation (``s`` per draw, ``t``, ``w``, ``c1``..``c7``, ``f1``..``f4`` = C S H D);
flips are automatic here, so ``F#`` is dropped.

Each solve runs in a fresh ``python`` process (this file, ``_worker``), killed at the time
limit; its peak memory is the child's ``ru_maxrss`` from ``os.wait4`` (also for a killed
child).  ``seconds`` is wall time around the whole process (interpreter start and the
pyksolve import included, about 0.05-0.1 s); ``solve_seconds`` is the time inside the
solve calls as the child measured it (None if killed).

    python bench/pyksolve_peer.py --draw 1 --first 1 --deals 10 --mode fast --max-seconds 30
    python bench/pyksolve_peer.py --check 1 2 31999 32000 123456   # validate the deck mapping
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Literal

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

#: the requirement string for pyproject's ``bench`` extra
PYKSOLVE_REQUIREMENT = "pyksolve==0.0.15"

Mode = Literal["fast", "minimal"]
MODES: tuple[Mode, ...] = ("fast", "minimal")

#: Klondike-Solver's own defaults: ``/S`` 5,000,000 states; ``/F`` 200,000 per pass
MINIMAL_MAX_STATES = 5_000_000
FAST_MAX_STATES = 200_000
#: ``/F``: (two_shift, three_shift) of its three passes, in order
FAST_PASSES: tuple[tuple[int, int], ...] = ((0, 0), (0, 4), (1, 4))

#: pyksolve's SolveResult values
SOLVED_MINIMAL, SOLVED_MAY_NOT_BE_MINIMAL, IMPOSSIBLE, COULD_NOT_COMPLETE = 1, -1, 0, -2

GAME_IDS = {1: "klondike-draw1", 3: "klondike"}

_RANKS = "A23456789TJQK"
#: the deck string's suit digits
_SUIT_DIGIT = {"C": 1, "D": 2, "H": 3, "S": 4}
#: Klondike-Solver's foundation letters -> our foundations (f1..f4 = clubs spades hearts diamonds)
_FOUNDATION = {"C": "f1", "S": "f2", "H": "f3", "D": "f4"}

#: columns bottom to top as (face-down cards, face-up cards), and the stock, first drawn first
Layout = tuple[list[tuple[list[str], list[str]]], list[str]]


# -- the deal --------------------------------------------------------------------------------------


def our_layout(number: int) -> Layout:
    """PatienceKit's Klondike game ``number`` (the same deal for draw 1 and draw 3)."""
    from patiencekit import new_game

    piles = new_game("klondike-draw1", number).deal_json()["piles"]
    columns = [
        (p["cards"][: p["face_down"]], p["cards"][p["face_down"] :])
        for p in piles
        if p["kind"] == "column"
    ]
    (stock,) = (p["cards"] for p in piles if p["kind"] == "stock")
    return columns, list(reversed(stock))


def _card_digits(card: str) -> str:
    return f"{_RANKS.index(card[0]) + 1:02d}{_SUIT_DIGIT[card[1]]}"


def deck_string_from_layout(layout: Layout) -> str:
    """The 156-digit deck string of a fresh Klondike deal (7 columns of 1..7, 24 in stock)."""
    columns, stock = layout
    cards = [down + up for down, up in columns]
    if [len(c) for c in cards] != list(range(1, 8)) or len(stock) != 24:
        raise ValueError("a Klondike deal has columns of 1..7 cards and 24 stock cards")
    if any(len(up) != 1 for _, up in columns):
        raise ValueError("a fresh Klondike deal has one face-up card per column")
    dealt = [cards[j][row] for row in range(7) for j in range(row, 7)]
    return "".join(_card_digits(c) for c in dealt + stock)


def deck_string(number: int) -> str:
    """pyksolve's deck string for PatienceKit's Klondike game ``number``.

    >>> deck_string(1)[:12]  # QH (c1's top), then 7H, 5D, JC (bottom cards of c2, c3, c4)
    '123073052111'
    """
    return deck_string_from_layout(our_layout(number))


def layout_from_pysol_diagram(text: str) -> Layout:
    """Parse ``Solitaire.game_diagram_pysol()`` of a position with an empty waste.

    Its ``Talon:`` line lists the waste, ``==>``, then the stock first-drawn first; each
    ``:`` line is a column bottom to top with face-down cards in ``<>``.
    """
    lines = text.splitlines()
    (talon,) = (line for line in lines if line.startswith("Talon:"))
    waste, _, rest = talon[len("Talon:") :].partition("==>")
    if waste.split():
        raise ValueError(f"the waste is not empty: {talon!r}")
    stock = rest.replace("<==", "").split()
    columns = []
    for line in lines:
        if line.startswith(":"):
            tokens = line[1:].split()
            down = [t.strip("<>") for t in tokens if t.startswith("<")]
            up = [t for t in tokens if not t.startswith("<")]
            columns.append((down, up))
    return columns, stock


def pyksolve_layout(deck: str) -> Layout:
    """pyksolve's own view of the deal of ``deck`` (needs pyksolve)."""
    solver = _solver_module()
    s = solver.Solitaire()
    if not s.load_solitaire(deck):
        raise ValueError(f"pyksolve rejected the deck string {deck!r}")
    s.reset_game()
    return layout_from_pysol_diagram(s.game_diagram_pysol())


def check_deck_mapping(number: int) -> None:
    """Raise AssertionError unless pyksolve sees game ``number`` as we deal it."""
    ours = our_layout(number)
    theirs = pyksolve_layout(deck_string_from_layout(ours))
    if ours != theirs:
        raise AssertionError(f"game {number}: ours {ours} != pyksolve's {theirs}")


# -- moves -----------------------------------------------------------------------------------------


def _pile(letter: str) -> str:
    if letter == "W":
        return "w"
    if letter in "1234567":
        return f"c{letter}"
    if letter in _FOUNDATION:
        return _FOUNDATION[letter]
    raise ValueError(f"unknown Klondike-Solver pile {letter!r}")


def ks_moves_to_ours(moves: str) -> list[str]:
    """Klondike-Solver's ``moves_made()`` text as moves in PatienceKit notation.

    >>> ks_moves_to_ours("DR2 W5 61 F6 NEW DR1 WC 74-3 F7 H3")
    ['s', 's', 'w c5', 'c6 c1', 't', 's', 'w f1', 'c7 c4 3', 'f3 c3']
    """
    ours: list[str] = []
    for token in moves.split():
        if token.startswith("DR"):
            ours.extend(["s"] * int(token[2:]))
        elif token == "NEW":
            ours.append("t")
        elif token.startswith("F") and token[1:].isdigit():
            continue  # the turn of a column's new top card: automatic here
        else:
            head, _, count = token.partition("-")
            if len(head) != 2:
                raise ValueError(f"unknown Klondike-Solver move {token!r}")
            move = f"{_pile(head[0])} {_pile(head[1])}"
            ours.append(f"{move} {int(count)}" if count else move)
    return ours


def replay(number: int, draw: int, moves: list[str]) -> str | None:
    """Play ``moves`` on game ``number``; None if they win it, else what went wrong."""
    from patiencekit import IllegalMoveError, InvalidMoveError, new_game

    game = new_game(GAME_IDS[draw], number)
    for i, move in enumerate(moves, 1):
        try:
            game.play(move)
        except (IllegalMoveError, InvalidMoveError) as exc:
            return f"move {i} ({move}): {exc}"
    return None if game.is_won() else f"not won after {len(moves)} moves"


# -- one solve in a child process ------------------------------------------------------------------


def _solver_module() -> Any:
    try:
        import pyksolve.solver as solver  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            f"pyksolve is not installed: pip install '{PYKSOLVE_REQUIREMENT}'"
        ) from exc
    return solver


def solve_here(deck: str, draw: int, mode: Mode, max_states: int | None = None) -> dict[str, Any]:
    """One pyksolve solve in this process: the peer's raw result.

    Returns ``{"result": SolveResult value, "ks_moves": str or None, "solve_seconds": s}``.
    """
    solver = _solver_module()
    s = solver.Solitaire()
    if not s.load_solitaire(deck):
        raise ValueError(f"pyksolve rejected the deck string {deck!r}")
    s.draw_count = draw
    start = time.perf_counter()
    if mode == "minimal":
        s.reset_game()
        result = s.solve_minimal(max_states or MINIMAL_MAX_STATES).value
        ks_moves = s.moves_made() if result in (SOLVED_MINIMAL, SOLVED_MAY_NOT_BE_MINIMAL) else None
    else:
        # Klondike-Solver's /F: three passes from the deal, keep the shortest solution
        result = COULD_NOT_COMPLETE
        ks_moves = None
        best = math.inf
        for two_shift, three_shift in FAST_PASSES:
            s.reset_game()
            value = s.solve_fast(two_shift, three_shift, max_states or FAST_MAX_STATES).value
            if value == IMPOSSIBLE:  # no move at all from the deal: every pass says so
                result = IMPOSSIBLE
                break
            if value in (SOLVED_MINIMAL, SOLVED_MAY_NOT_BE_MINIMAL):
                result = SOLVED_MAY_NOT_BE_MINIMAL
                if s.moves_made_normalized_count < best:
                    best = s.moves_made_normalized_count
                    ks_moves = s.moves_made()
    return {
        "result": result,
        "ks_moves": ks_moves,
        "solve_seconds": time.perf_counter() - start,
    }


def _worker(argv: list[str]) -> None:
    deck, draw, mode, max_states, out = argv
    if mode not in MODES:
        raise ValueError(f"mode must be 'fast' or 'minimal', not {mode!r}")
    raw = solve_here(deck, int(draw), mode, int(max_states) or None)
    Path(out).write_text(json.dumps(raw))


def _read_result(path: Path) -> dict[str, Any] | None:
    """The worker's result, or None if it wrote none (killed; a kill mid-write truncates)."""
    try:
        raw: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return raw


def measure_pyksolve(
    number: int,
    draw: int,
    mode: Mode,
    max_seconds: float = 30,
    max_states: int | None = None,
    *,
    verify: bool = True,
) -> dict[str, Any]:
    """Solve game ``number`` (draw 1 or 3) with pyksolve in a fresh process.

    Returns ``{"outcome": "solved" | "unsolvable" | "limit", "seconds": wall,
    "peak_mb": MiB, "moves": count or None, ...}`` plus ``"limit"`` (``"time"``,
    ``"states"``, ``"gave-up"`` or None), ``"solve_seconds"`` (inside the solve calls;
    None if killed), ``"solution"`` (our notation) and, with ``verify``, ``"replay"`` (None when the
    solution wins our game, else what went wrong).  ``moves`` counts our moves
    (every ``s`` and ``t`` included).  ``max_states`` is the closed-set cap (per pass in
    fast mode); None means the peer's defaults (5,000,000; 200,000 per pass).
    """
    if draw not in GAME_IDS:
        raise ValueError(f"draw must be 1 or 3, not {draw}")
    if mode not in MODES:
        raise ValueError(f"mode must be 'fast' or 'minimal', not {mode!r}")
    deck = deck_string(number)
    with tempfile.TemporaryDirectory(prefix="pyksolve-") as tmp:
        out = Path(tmp) / "result.json"
        args = [
            sys.executable,
            __file__,
            "_worker",
            deck,
            str(draw),
            mode,
            str(max_states or 0),
            str(out),
        ]
        start = time.perf_counter()
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            proc.kill()

        timer = threading.Timer(max_seconds, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4
        raw = _read_result(out)
    peak_mb = usage.ru_maxrss / 1024  # Linux: KiB

    record: dict[str, Any] = {
        "number": number,
        "draw": draw,
        "mode": mode,
        "outcome": "limit",
        "limit": None,
        "seconds": seconds,
        "solve_seconds": None,
        "peak_mb": peak_mb,
        "moves": None,
        "solution": None,
    }
    if raw is None:
        if not killed.is_set():
            raise RuntimeError(f"pyksolve worker failed on game {number} (status {status})")
        record["limit"] = "time"
        return record
    record["solve_seconds"] = raw["solve_seconds"]
    result = raw["result"]
    if result in (SOLVED_MINIMAL, SOLVED_MAY_NOT_BE_MINIMAL):
        solution = ks_moves_to_ours(raw["ks_moves"])
        record.update(outcome="solved", moves=len(solution), solution=solution)
        if verify:
            record["replay"] = replay(number, draw, solution)
    elif result == IMPOSSIBLE:
        record["outcome"] = "unsolvable"
    else:
        record["limit"] = "states" if mode == "minimal" else "gave-up"
    return record


# -- command line ----------------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts of outcomes, median/p90 wall seconds, median/max peak MiB."""
    seconds = [r["seconds"] for r in records]
    peaks = [r["peak_mb"] for r in records]
    return {
        "deals": len(records),
        "solved": sum(r["outcome"] == "solved" for r in records),
        "unsolvable": sum(r["outcome"] == "unsolvable" for r in records),
        "limit": sum(r["outcome"] == "limit" for r in records),
        "replay_failures": sum(r.get("replay") is not None for r in records),
        "median_seconds": statistics.median(seconds),
        "p90_seconds": percentile(seconds, 90),
        "median_peak_mb": statistics.median(peaks),
        "max_peak_mb": max(peaks),
    }


def _line(r: dict[str, Any]) -> str:
    outcome = r["outcome"] + (f" ({r['limit']})" if r["limit"] else "")
    moves = f"{r['moves']:4d} moves" if r["moves"] is not None else "          "
    replayed = ""
    if "replay" in r:
        replayed = "  replay ok" if r["replay"] is None else f"  REPLAY FAILED: {r['replay']}"
    return (
        f"#{r['number']:<7d} draw {r['draw']} {r['mode']:<7s} {outcome:<16s}"
        f" {r['seconds']:8.3f} s {r['peak_mb']:7.1f} MB {moves}{replayed}"
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_worker"]:
        _worker(argv[1:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--draw", type=int, choices=(1, 3), default=1)
    parser.add_argument("--first", type=int, default=1, help="first game number")
    parser.add_argument("--deals", type=int, default=10, help="how many game numbers")
    parser.add_argument("--mode", choices=MODES, default="fast")
    parser.add_argument("--max-seconds", type=float, default=30.0, help="wall limit per deal")
    parser.add_argument(
        "--max-states",
        type=int,
        default=None,
        help="closed-set cap (per pass in fast mode); default the peer's own",
    )
    parser.add_argument(
        "--no-verify", action="store_true", help="do not replay solutions through PatienceKit"
    )
    parser.add_argument("--json", action="store_true", help="one JSON record per line")
    parser.add_argument(
        "--check",
        type=int,
        nargs="+",
        metavar="NUMBER",
        help="only check the deck mapping against pyksolve for these games",
    )
    args = parser.parse_args(argv)

    if args.check:
        for number in args.check:
            check_deck_mapping(number)
            print(f"#{number}: pyksolve's layout matches ours ({deck_string(number)})")
        return 0

    records = []
    for number in range(args.first, args.first + args.deals):
        record = measure_pyksolve(
            number,
            args.draw,
            args.mode,
            args.max_seconds,
            args.max_states,
            verify=not args.no_verify,
        )
        records.append(record)
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            print(_line(record), flush=True)
    s = summarize(records)
    if args.json:
        print(json.dumps({"summary": s}))
    else:
        print(
            f"{s['deals']} deals, draw {args.draw}, {args.mode}: {s['solved']} solved,"
            f" {s['unsolvable']} unsolvable, {s['limit']} limit;"
            f" median {s['median_seconds']:.3f} s, p90 {s['p90_seconds']:.3f} s;"
            f" peak {s['median_peak_mb']:.1f} MB median, {s['max_peak_mb']:.1f} MB max"
            + (f"; {s['replay_failures']} REPLAY FAILURES" if s["replay_failures"] else "")
        )
    return 1 if s["replay_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
