"""Engine benchmark: random playouts per game, beside OpenSpiel's C++ Klondike.

A playout deals a game, then repeatedly lists the legal moves
(``State.moves()``), applies a uniformly random one (``State.push``) until
the game is won, no move is left or ``--max-moves`` moves were played, and
finally takes every move back (``State.pop``), checking that the deal is
restored. ``moves/s`` counts applied moves; ``positions/s`` counts positions
visited (the deal plus one per move). Each figure is the median of
``--repeats`` runs; the machine is shared and noisy, so compare ratios from
one run, not figures from different runs.

The peer is OpenSpiel's ``solitaire`` (Klondike, "K+" draw-3 form, C++,
called through pyspiel), measured the same way in the same run
(``bench/openspiel_peer.py``; ``pip install open-spiel``). Without it the
peer row is skipped.

The position is the one the engine uses (``patiencekit.state.State``): the mypyc-compiled
``patiencekit.state_fast`` when it is built and current (``make venv``), else the
pure-Python ``patiencekit.state_pure``. With the compiled one in use, every game is also
measured on the pure-Python one in the same run, interleaved (``--no-pure`` skips it), and
the table gives both and their ratio. ``PATIENCEKIT_PURE_PYTHON=1`` measures the pure one
alone.

    python bench/engine.py [--seconds 2] [--repeats 5] [--games klondike,...] [--no-pure]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from patiencekit import GAMES, state_pure
from patiencekit.state import COMPILED, State

DEFAULT_MAX_MOVES = 1000


def measure_engine(
    game_id: str, seconds: float, seed: int, max_moves: int, position: type[State] = State
) -> dict[str, float]:
    """Random playouts of one game for ``seconds`` on ``position`` (by default the engine's
    ``State``); rates per second."""
    rules = GAMES[game_id]
    rng = random.Random(seed)
    moves = positions = playouts = 0
    start = time.perf_counter()
    deadline = start + seconds
    number = seed * 100_000
    while time.perf_counter() < deadline:
        number += 1
        state = position.deal(rules, number)
        dealt = state.key()
        positions += 1
        for _ in range(max_moves):
            legal = state.moves()
            if not legal:
                break
            state.push(legal[int(rng.random() * len(legal))])
            moves += 1
            positions += 1
            if state.is_won():
                break
        while state.history_length:
            state.pop()
        if state.key() != dealt:
            raise AssertionError(f"{game_id} #{number}: undo did not restore the deal")
        playouts += 1
    elapsed = time.perf_counter() - start
    return {
        "moves_per_s": moves / elapsed,
        "positions_per_s": positions / elapsed,
        "playouts_per_s": playouts / elapsed,
        "moves_per_playout": moves / max(playouts, 1),
    }


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per game; medians reported")
    parser.add_argument("--max-moves", type=int, default=DEFAULT_MAX_MOVES)
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--no-peer", action="store_true", help="skip OpenSpiel")
    parser.add_argument("--no-pure", action="store_true",
                        help="with the compiled position in use, skip the pure-Python one")
    args = parser.parse_args(argv)
    pure_too = COMPILED and not args.no_pure

    games = [g.strip() for g in args.games.split(",") if g.strip()]
    results: dict[str, dict[str, float]] = {}
    peer: dict[str, float] | None = None
    # interleave peer and engine runs so that machine noise hits both alike
    peer_runs: list[dict[str, float]] = []
    runs: dict[str, list[dict[str, float]]] = {g: [] for g in games}
    pure_runs: dict[str, list[dict[str, float]]] = {g: [] for g in games}
    have_peer = not args.no_peer
    if have_peer:
        try:
            from openspiel_peer import measure_openspiel
        except ImportError:
            have_peer = False
    for rep in range(args.repeats):
        for g in games:
            runs[g].append(measure_engine(g, args.seconds, rep + 1, args.max_moves))
            if pure_too:
                pure_runs[g].append(
                    measure_engine(g, args.seconds, rep + 1, args.max_moves, state_pure.State)
                )
        if have_peer:
            try:
                peer_runs.append(measure_openspiel(args.seconds, rep, max_moves=args.max_moves))
            except ImportError:
                have_peer = False
        print(f"run {rep + 1}/{args.repeats} done", file=sys.stderr)
    results = {g: _median(r) for g, r in runs.items()}
    pure_results = {g: _median(r) for g, r in pure_runs.items() if r}
    if peer_runs:
        peer = _median(peer_runs)

    which = "compiled (state_fast)" if COMPILED else "pure Python (state_pure)"
    print(f"Random playouts, {args.repeats} runs x {args.seconds:g} s, medians, "
          f"at most {args.max_moves} moves per playout; the position: {which}")
    print()
    head = "| game | moves/s | positions/s | playouts/s | moves/playout |"
    rule = "| --- | ---: | ---: | ---: | ---: |"
    if pure_results:
        head += " pure-Python moves/s | compiled / pure |"
        rule += " ---: | ---: |"
    print(head)
    print(rule)
    for g, r in results.items():
        row = (f"| {g} | {r['moves_per_s']:,.0f} | {r['positions_per_s']:,.0f} | "
               f"{r['playouts_per_s']:,.1f} | {r['moves_per_playout']:,.0f} |")
        if pure_results:
            p = pure_results[g]["moves_per_s"]
            row += f" {p:,.0f} | {r['moves_per_s'] / p:.2f}x |"
        print(row)
    if peer is not None:
        print(f"| OpenSpiel solitaire (C++ via pyspiel) | {peer['moves_per_s']:,.0f} | "
              f"{peer['positions_per_s']:,.0f} | {peer['playouts_per_s']:,.1f} | "
              f"{peer['moves_per_s'] / max(peer['playouts_per_s'], 1e-9):,.0f} |"
              + (" | |" if pure_results else ""))
        print()
        for g in ("klondike", "klondike-draw1"):
            if g in results:
                ratio = peer["moves_per_s"] / results[g]["moves_per_s"]
                line = f"OpenSpiel / {g}: {ratio:.2f}x moves/s (target: at most 1x)"
                if g in pure_results:
                    pure_ratio = peer["moves_per_s"] / pure_results[g]["moves_per_s"]
                    line += f"; on the pure-Python position {pure_ratio:.2f}x"
                print(line)
    else:
        print("\n(OpenSpiel not installed: pip install open-spiel for the peer row)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
