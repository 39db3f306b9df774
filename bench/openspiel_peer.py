"""OpenSpiel peer for the engine benchmark: random playouts of OpenSpiel's Klondike.

Game: ``pyspiel.load_game("solitaire", ...)`` ("Klondike Solitaire" in OpenSpiel).
Its only parameters are

* ``players``     -- always 1;
* ``is_colored``  -- ANSI colours in the state's string form.  We use ``False``: the
  string form is also what the game hashes to detect repeated positions while
  generating legal moves, so colours would only add cost;
* ``depth_limit`` -- the state becomes terminal once this many actions *of any kind*
  (chance reveals included) have been applied.  Default 150; we set it to
  ``max_moves + 53`` (52 = most reveals a deal can have) so that it never fires and
  our own cap of ``max_moves`` player moves per playout is what stops a long playout.

There is no draw-count or redeal parameter.  OpenSpiel's solitaire is "K+" Klondike:
there are no stock/draw actions; the 24 stock cards are all dealt face up to the waste
at the start, and every third waste card (positions 0, 3, 6, ... of what is left) can be
played directly.  That models draw-3 with unlimited redeals, with the stock-turning
steps folded away, so it is closest to our Klondike draw 3 (unlimited passes), and our
"moves" there include stock turns that OpenSpiel does not have.  There is no draw-1 form.

Other rules of the game that affect the counts:

* Cards are dealt by chance nodes (one per face-down card turned up: 24 waste cards and
  7 tableau tops at the start, then one each time a tableau's hidden card is exposed).
  We sample them from ``chance_outcomes()`` with a seeded ``random.Random``.
* A move that can be undone is not legal if it would bring back a position seen since
  the last irreversible move (OpenSpiel clones the state to check), which stops trivial
  ping-pong but not longer cycles: most random playouts reach the 1000-move cap.
* When no move is legal the only legal action is ``kEnd`` (ends the game); it is
  counted as a player move.

Counts: ``moves`` = player actions applied; ``chance_moves`` = chance outcomes applied;
``positions`` = states visited = one initial state per playout + one per action of
either kind.  Rates divide by the wall time of the measurement.

Run ``python bench/openspiel_peer.py --seconds 5`` for a table; ``bench/engine.py``
imports :func:`measure_openspiel` / :func:`measure_openspiel_repeated`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

GAME_NAME = "solitaire"
DEFAULT_MAX_MOVES = 1000
#: Most chance actions one deal can have: every one of the 52 cards is revealed once.
MAX_REVEALS = 52

RATE_KEYS = ("moves_per_s", "chance_moves_per_s", "positions_per_s", "playouts_per_s")


def game_parameters(max_moves: int = DEFAULT_MAX_MOVES) -> dict[str, int | bool]:
    """The parameters passed to ``pyspiel.load_game("solitaire", ...)``."""
    return {"players": 1, "is_colored": False, "depth_limit": max_moves + MAX_REVEALS + 1}


def _load_game(max_moves: int) -> Any:
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            "OpenSpiel is not installed: pip install -e '.[bench]' (package open-spiel)"
        ) from exc
    return pyspiel.load_game(GAME_NAME, game_parameters(max_moves))


def measure_openspiel(
    seconds: float, seed: int, *, max_moves: int = DEFAULT_MAX_MOVES
) -> dict[str, float]:
    """Run uniform-random playouts of OpenSpiel's solitaire for ``seconds`` of wall time.

    A playout ends at a terminal state or after ``max_moves`` player moves.  New
    playouts start until the time is up; the last one is always finished, so the
    measured ``seconds`` can be slightly above the request.  Returns raw counts and
    rates (per second of measured wall time).
    """
    if seconds <= 0:
        raise ValueError("seconds must be positive")
    game = _load_game(max_moves)
    rng = random.Random(seed)
    rand = rng.random
    randrange = rng.randrange

    playouts = moves = chance_moves = capped = terminal = 0
    total_return = 0.0

    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                x = rand()
                acc = 0.0
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for outcome, prob in outcomes:
                    acc += prob
                    if x < acc:
                        action = outcome
                        break
                state.apply_action(action)
                chance_moves += 1
            else:
                if n >= max_moves:
                    capped += 1
                    break
                legal = state.legal_actions()
                state.apply_action(legal[randrange(len(legal))])
                n += 1
        else:
            terminal += 1
        moves += n
        playouts += 1
        total_return += state.returns()[0]
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start

    positions = playouts + moves + chance_moves
    return {
        "seconds": elapsed,
        "playouts": playouts,
        "moves": moves,
        "chance_moves": chance_moves,
        "positions": positions,
        "capped_playouts": capped,
        "terminal_playouts": terminal,
        "mean_moves_per_playout": moves / playouts,
        "mean_return": total_return / playouts,
        "moves_per_s": moves / elapsed,
        "chance_moves_per_s": chance_moves / elapsed,
        "positions_per_s": positions / elapsed,
        "playouts_per_s": playouts / elapsed,
    }


def measure_openspiel_repeated(
    seconds: float,
    seed: int,
    repeats: int = 5,
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> tuple[dict[str, float], list[dict[str, float]]]:
    """Measure ``repeats`` times (seeds ``seed``, ``seed + 1``, ...).

    Returns ``(median, runs)``: ``median`` holds, for every key, the median over the
    runs (the machine is noisy, so the median is the figure to quote).
    """
    if repeats < 1:
        raise ValueError("repeats must be at least 1")
    runs = [measure_openspiel(seconds, seed + i, max_moves=max_moves) for i in range(repeats)]
    median = {key: float(statistics.median(run[key] for run in runs)) for key in runs[0]}
    return median, runs


def format_table(median: dict[str, float], runs: list[dict[str, float]]) -> str:
    header = f"{'run':>6} {'seconds':>8} {'playouts':>9} {'moves/s':>10} {'chance/s':>10}"
    header += f" {'positions/s':>12} {'playouts/s':>10} {'moves/playout':>13} {'capped':>7}"
    lines = [header, "-" * len(header)]
    rows = [(str(i + 1), run) for i, run in enumerate(runs)] + [("median", median)]
    for label, r in rows:
        lines.append(
            f"{label:>6} {r['seconds']:>8.2f} {r['playouts']:>9.0f} {r['moves_per_s']:>10,.0f}"
            f" {r['chance_moves_per_s']:>10,.0f} {r['positions_per_s']:>12,.0f}"
            f" {r['playouts_per_s']:>10,.1f} {r['mean_moves_per_playout']:>13.1f}"
            f" {r['capped_playouts'] / r['playouts']:>7.0%}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="wall time per run")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first run")
    parser.add_argument("--repeats", type=int, default=5, help="runs; the median is reported")
    parser.add_argument(
        "--max-moves",
        type=int,
        default=DEFAULT_MAX_MOVES,
        help="player moves after which a playout is stopped",
    )
    args = parser.parse_args(argv)

    median, runs = measure_openspiel_repeated(
        args.seconds, args.seed, args.repeats, max_moves=args.max_moves
    )
    params = ", ".join(f"{k}={v}" for k, v in game_parameters(args.max_moves).items())
    print(f"OpenSpiel {GAME_NAME}({params}), uniform random playouts, cap {args.max_moves} moves")
    print(format_table(median, runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
