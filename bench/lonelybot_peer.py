"""Klondike beside lonelybot (Rust, the fastest known solver): same deals, same run.

lonelybot is not on PyPI: build its binary once with ``bench/peers/lonelybot/build.sh``
(see the README there; the driver ``pk`` reads deals on its standard input), then::

    python bench/lonelybot_peer.py solve --draw 3 --first 8000000 --deals 1000 \\
        --max-seconds 10 --lonelybot PATH/TO/pk [--json FILE]
    python bench/lonelybot_peer.py hop --draw 3 --first 1000000 --deals 300 \\
        --lonelybot PATH/TO/pk [--json FILE]

``solve``: every deal solved by lonelybot's solver (one process for all deals, its time
taken inside the solver, as its README's figures are) and by PatienceKit's thoughtful
solver in this process (warmed up on one deal first), twice: ``solve()`` as a whole (its
own time: the search, then the line replayed move by move on the engine, each move
checked, into the notation), and the search alone (``KlondikeSearch`` made from the deal
and run to its verdict and line: what lonelybot's time covers, its ``Solitaire::new`` and
``solve``). Reported: each solver's solved / proved unsolvable / undecided, the median
and p90 time inside the solver, the ratios of the medians, the deals where the two
disagree (there must be none), and the deals only one of them decides.

``hop``: lonelybot's player that does not see the face-down cards (lonecli's ``hop``: 3,000
samples and 1,000-visit searches a move; it knows the stock's order) plays each deal:
its win rate with a 95 % Wilson interval, beside PatienceKit's hint player when a
``bench/hints.py`` records or ``--json`` file of the same deals is given (``--ours FILE``):
the deals only one of them won, with the sign test of ``hints.py --compare``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from hints import _read_all, sign_test  # noqa: E402
from patiencekit import new_game  # noqa: E402
from patiencekit.solver import _KLONDIKE, Budget, solve  # noqa: E402
from patiencekit.solver.study import percentile, wilson_interval  # noqa: E402

GAME_IDS = {1: "klondike-draw1", 3: "klondike"}


def deck_line(game_id: str, number: int) -> str:
    """The deal as the driver reads it: ``NUMBER DRAW c0 .. c51``, lonelybot's deck order
    (column i's i face-down cards bottom first, then its face-up card, columns 1 to 7;
    then the stock, the card drawn first first), each card ``suit * 13 + rank`` as
    PatienceKit numbers them (suits 0 and 1 are one colour, 2 and 3 the other, as in
    lonelybot).

    >>> deck_line("klondike", 1).split()[:2]
    ['1', '3']
    """
    state = new_game(game_id, number).state
    t = state.t
    deck: list[int] = []
    for i, ci in enumerate(t.columns):
        pile = state.piles[ci]
        if len(pile) != i + 1 or state.down[ci] != i:
            raise ValueError(f"{game_id} #{number}: column {i + 1} is not a fresh deal's")
        deck += pile
    deck += state.piles[t.stock][::-1]
    if sorted(deck) != list(range(52)):
        raise ValueError(f"{game_id} #{number}: not one deck of 52 cards")
    return f"{number} {t.draw} " + " ".join(map(str, deck))


def run_peer(binary: str, mode: str, lines: list[str], seconds: float) -> Iterator[list[str]]:
    """The driver's output lines, split, one per deal as it finishes."""
    proc = subprocess.Popen(
        [binary, mode, str(seconds)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.close()
    for out in proc.stdout:
        yield out.split()
    if proc.wait():
        raise RuntimeError(f"{binary} {mode} exited with {proc.returncode}")


PEER_OUTCOMES = {"solved": "solved", "unsolvable": "unsolvable", "terminated": "limit"}


def _deals(args: argparse.Namespace) -> tuple[str, list[int], list[str]]:
    """The run's game id, game numbers and deck lines."""
    game_id = GAME_IDS[args.draw]
    numbers = list(range(args.first, args.first + args.deals))
    return game_id, numbers, [deck_line(game_id, n) for n in numbers]


def solve_both(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    game_id, numbers, lines = _deals(args)
    peer: list[dict[str, Any]] = []
    for i, (num, word, ms, states) in enumerate(
        run_peer(args.lonelybot, "solve", lines, args.max_seconds)
    ):
        peer.append({"number": int(num), "outcome": PEER_OUTCOMES[word],
                     "solve_ms": float(ms), "states": int(states)})
        if (i + 1) % 100 == 0:
            print(f"lonelybot: {i + 1} of {len(numbers)}", file=sys.stderr, flush=True)
    solve(game_id, numbers[0], budget=Budget(seconds=args.max_seconds))  # warm-up
    ours: list[dict[str, Any]] = []
    search: list[dict[str, Any]] = []
    budget = Budget(seconds=args.max_seconds)
    for i, n in enumerate(numbers):
        r = solve(game_id, n, budget=budget)
        ours.append({"number": n, "outcome": r.outcome, "solve_ms": r.seconds * 1000,
                     "states": r.states})
        # the search alone, as solve() makes and runs it, without the line's replay
        state = new_game(game_id, n).state
        start = time.perf_counter()
        ks = _KLONDIKE.KlondikeSearch(state, max_seconds=budget.seconds,
                                      max_states=budget.states, max_memory_mb=budget.memory_mb)
        won, _ = ks.run()
        ms = (time.perf_counter() - start) * 1000
        search.append({"number": n, "solve_ms": ms, "states": ks.nodes,
                       "outcome": {True: "solved", False: "unsolvable", None: "limit"}[won]})
        if (i + 1) % 100 == 0:
            print(f"patiencekit: {i + 1} of {len(numbers)}", file=sys.stderr, flush=True)
    return {"lonelybot": peer, "patiencekit": ours, "patiencekit search": search}


def solve_report(records: dict[str, list[dict[str, Any]]], title: str) -> str:
    out = [title, "", "| solver | deals | solved | unsolvable | undecided | median ms | p90 ms |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    medians = {}
    for name, recs in records.items():
        ms = [r["solve_ms"] for r in recs]
        medians[name] = statistics.median(ms)
        count = {o: sum(r["outcome"] == o for r in recs) for o in ("solved", "unsolvable", "limit")}
        out.append(f"| {name} | {len(recs)} | {count['solved']} | {count['unsolvable']} | "
                   f"{count['limit']} | {medians[name]:.3f} | {percentile(ms, 90):.3f} |")
    ours = {r["number"]: r["outcome"] for r in records["patiencekit"]}
    peer = {r["number"]: r["outcome"] for r in records["lonelybot"]}
    both = sorted(set(ours) & set(peer))
    clash = [n for n in both if "limit" not in (ours[n], peer[n]) and ours[n] != peer[n]]
    only_peer = [n for n in both if ours[n] == "limit" and peer[n] != "limit"]
    only_ours = [n for n in both if peer[n] == "limit" and ours[n] != "limit"]
    out.append("")
    for name, what in (("patiencekit", "solve(), the line replayed into the notation"),
                       ("patiencekit search", "the search alone")):
        if name not in medians:
            continue  # (records of an older run)
        out.append(f"median time inside the solver, PatienceKit ({what}) / lonelybot: "
                   + (f"{medians[name] / medians['lonelybot']:.1f}x"
                      if medians["lonelybot"] else "lonelybot's median is 0"))
    out += [
            f"verdicts that disagree: {len(clash)} {clash}",
            f"decided by lonelybot only: {len(only_peer)} "
            + ", ".join(f"{n} ({peer[n]})" for n in only_peer),
            f"decided by PatienceKit only: {len(only_ours)} {only_ours}"]
    return "\n".join(out)


def hop(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    _, _, lines = _deals(args)
    records: list[dict[str, Any]] = []
    started = time.perf_counter()
    for num, word, moves, ms in run_peer(args.lonelybot, "hop", lines, 0):
        records.append({"number": int(num), "won": word == "won", "moves": int(moves),
                        "ms": float(ms)})
        won = sum(r["won"] for r in records)
        print(f"#{num} {word} ({won} of {len(records)}, {time.perf_counter() - started:.0f} s)",
              file=sys.stderr, flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps({"lonelybot_hop": records}, indent=1))
    return {"lonelybot_hop": records}


def hop_report(records: list[dict[str, Any]], ours_file: str | None, title: str) -> str:
    won = sum(r["won"] for r in records)
    lo, hi = wilson_interval(won, len(records))
    out = [title, "", f"lonelybot's player: {won} of {len(records)} won "
           f"({100 * won / len(records):.1f} %, Wilson {100 * lo:.1f}-{100 * hi:.1f}); "
           f"median {statistics.median(r['ms'] for r in records) / 1000:.1f} s a game"]
    if ours_file:
        ours = {r["number"]: r["end"] == "won" for r in _read_all(Path(ours_file))}
        both = [r for r in records if r["number"] in ours]
        a = sum(ours[r["number"]] for r in both)
        b = sum(r["won"] for r in both)
        only_a = sum(ours[r["number"]] and not r["won"] for r in both)
        only_b = sum(r["won"] and not ours[r["number"]] for r in both)
        out.append(f"on the {len(both)} deals both played: PatienceKit's hints won {a}, "
                   f"lonelybot's player {b} (only PatienceKit {only_a}, only lonelybot {only_b}; "
                   f"sign test p = {sign_test(only_a, only_b):.3f})")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("solve", "hop"))
    parser.add_argument("--draw", type=int, choices=(1, 3), default=3)
    parser.add_argument("--first", type=int, default=8_000_000)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--max-seconds", type=float, default=10.0,
                        help="per deal and solver (solve)")
    parser.add_argument("--lonelybot", required=True, help="the driver built by build.sh")
    parser.add_argument("--ours", help="hop: a bench/hints.py --records file of the same deals")
    parser.add_argument("--json", help="write every record to this file")
    args = parser.parse_args(argv)
    last = args.first + args.deals - 1
    if args.mode == "solve":
        records = solve_both(args)
        if args.json:
            Path(args.json).write_text(json.dumps(records, indent=1))
        print(solve_report(records, f"Klondike draw {args.draw}, game numbers {args.first}.."
                           f"{last}, {args.max_seconds:g} s a deal"))
    else:
        hop_records = hop(args)["lonelybot_hop"]
        print(hop_report(hop_records, args.ours,
                         f"Klondike draw {args.draw}, game numbers {args.first}..{last}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
