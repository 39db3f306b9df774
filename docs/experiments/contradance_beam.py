"""An experiment, not part of the package: a fast beam search for Contradance wins, each
replayed on the checked engine before it counts.

Contradance (RULES.md, the Patriarchs family): two decks, the eight fives and eight sixes
start sixteen foundations (fives down 5 4 3 2 A K, sixes up 6..Q, by suit), only the
waste's top card plays, one redeal. This file plays a small model of that game (a card is
suit * 13 + rank, the two decks alike; per suit and direction the two foundations' heights,
sorted) over the deals of ``patiencekit.solver.new_game``.

The beam works level by level (cards drawn, over both passes). From each position it
follows the plays of the waste's top card: a play is forced where it is never worse
(both places of the card open now, or its twin placed: the same rule as the generic
search's ``_safe``), and otherwise the search keeps both "play" and "draw on". At each
level it keeps the ``width`` positions with the most cards placed (ties broken by a seeded
random number, so a run is reproducible).

A line the beam wins with is then played move by move on the engine (``State.push`` of
the engine's own legal moves, the draw, the redeal and each waste-to-foundation play), and
the number counts only if the engine says the game is won. With ``--merge`` the numbers
proved so are added to the shipped list (``patiencekit.solver.study.merge_winnable``,
which records the command in its SOURCES line).

    python docs/experiments/contradance_beam.py --first 3001 --deals 1000 --width 300
        [--merge]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from patiencekit import new_game
from patiencekit.moves import DRAW, TURN
from patiencekit.state import State

DOWN = (4, 3, 2, 1, 0, 12)  # the fives' sequence: 5 4 3 2 A K (rank 0 is the ace)
UP = (5, 6, 7, 8, 9, 10, 11)  # the sixes' sequence: 6 .. Q
#: card (suit * 13 + rank) -> (foundation group 0..7, height at which it fits), or None
#: for the bases; group = suit * 2 + (0 down, 1 up)
PLACE: list[tuple[int, int] | None] = [None] * 52
for _s in range(4):
    for _k, _r in enumerate(DOWN):
        if _k:
            PLACE[_s * 13 + _r] = (_s * 2, _k)
    for _k, _r in enumerate(UP):
        if _k:
            PLACE[_s * 13 + _r] = (_s * 2 + 1, _k)
TO_PLACE = 88

#: a position: (pass, stock in draw order, waste bottom first, per group the two heights)
Pos = tuple[int, tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]
#: a line: (parent, moves) with moves "d" (draw), "t" (redeal), a group number (a play)
Line = tuple["Line | None", tuple[object, ...]]


def start(number: int) -> Pos:
    """The deal's position in the model, read from the engine's own deal."""
    s = new_game("contradance", number).state
    stock = tuple(c % 52 for c in reversed(s.piles[s.t.stock]))
    return 0, stock, (), tuple((1, 1) for _ in range(8))


def play_top(pos: Pos) -> tuple[Pos, int, bool] | None:
    """The waste's top card played, if it fits: (position, group, forced)."""
    p, stock, waste, found = pos
    if not waste:
        return None
    place = PLACE[waste[-1]]
    if place is None:
        return None
    g, k = place
    a, b = found[g]  # a <= b; a foundation of height h takes the card of index h next
    if a == k == b:  # both places open: alike, either one
        new, forced = (k, k + 1), True
    elif a == k < b:  # the twin is placed on the other one
        new, forced = (k + 1, b), True
    elif a < k == b:  # the other one is behind: play or wait, a choice
        new, forced = (a, k + 1), False
    else:
        return None
    return (p, stock, waste[:-1], (*found[:g], new, *found[g + 1 :])), g, forced


def placed(found: tuple[tuple[int, int], ...]) -> int:
    return sum(a + b - 2 for a, b in found)


def closure(pos: Pos, line: Line) -> list[tuple[Pos, Line]]:
    """The positions reached by playing the waste's top cards, one more each time (a
    forced play is not a choice: the position before it is left out)."""
    out: list[tuple[Pos, Line]] = []
    moves: list[object] = []
    while True:
        nxt = play_top(pos)
        if nxt is None or not nxt[2]:
            out.append((pos, (line, tuple(moves))))
        if nxt is None:
            return out
        pos, g, _ = nxt
        moves.append(g)


def beam(number: int, width: int, seed: int = 2024) -> Line | None:
    """A winning line, or None when the beam found none."""
    rng = random.Random(seed * 1_000_003 + number)
    level: list[tuple[Pos, Line]] = [(start(number), (None, ()))]
    while level:
        nxt: dict[object, tuple[float, Pos, Line]] = {}
        for pos, line in level:
            for q, qline in closure(pos, line):
                p, stock, waste, found = q
                if placed(found) == TO_PLACE:
                    return qline
                if stock:
                    child: Pos = (p, stock[1:], waste + stock[:1], found)
                    move: object = "d"
                elif p == 0 and waste:
                    child = (1, waste, (), found)
                    move = "t"
                else:
                    continue
                if child not in nxt:
                    score = placed(found) + rng.random()
                    nxt[child] = (score, child, (qline, (move,)))
        best = sorted(nxt.values(), key=lambda e: -e[0])[:width]
        level = [(pos, line) for _, pos, line in best]
    return None


def moves_of(line: Line) -> list[object]:
    parts = []
    node: Line | None = line
    while node is not None:
        parts.append(node[1])
        node = node[0]
    return [m for part in reversed(parts) for m in part]


def replays(number: int, line: Line) -> bool:
    """True when the line, played on the engine, wins the game."""
    s: State = new_game("contradance", number).state
    t = s.t
    for m in moves_of(line):
        if m == "d":
            em = DRAW
        elif m == "t":
            em = TURN
        else:
            assert isinstance(m, int)
            c = s.piles[t.waste][-1]
            fits = [x for x in s.moves() if x[0] == t.waste and x[1] in t.foundations]
            if not fits or PLACE[c % 52] is None or PLACE[c % 52][0] != m:  # type: ignore[index]
                return False
            em = fits[0]
        if em not in s.moves():
            return False
        s.push(em)
    return s.is_won()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--width", type=int, default=300)
    ap.add_argument("--merge", action="store_true")
    args = ap.parse_args()
    t0 = time.perf_counter()
    won: list[int] = []
    failed: list[int] = []
    last = args.first + args.deals
    for n in range(args.first, last):
        line = beam(n, args.width)
        if line is not None:
            (won if replays(n, line) else failed).append(n)
        if (n - args.first + 1) % 100 == 0:
            print(
                f"{n - args.first + 1}/{args.deals} deals, {len(won)} won, "
                f"{len(failed)} replay failures, {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    print(f"won (replayed on the engine): {len(won)} of {args.deals}: {won}")
    print(f"replay failures: {failed}")
    print(f"{time.perf_counter() - t0:.1f} s")
    if args.merge and won:
        from patiencekit.solver import study

        path = Path(study.__file__).parent.parent / "games" / "winnable_numbers.py"
        command = (
            f"{datetime.now(UTC).date().isoformat()}: "
            f"python docs/experiments/contradance_beam.py --first {args.first} "
            f"--deals {args.deals} --width {args.width} --merge"
        )
        added, now = study.merge_winnable(path, "contradance", won, command)
        print(f"shipped list: {added} added, {now} now")


if __name__ == "__main__":
    main()
