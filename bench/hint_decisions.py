"""Hint decisions bench: how often does the hint throw a won game away?

Following the hints from the deal wins or loses a whole game, a coin with ~100 flips per
game id: two players a few points apart cannot be told apart on 100 deals. This bench
looks at single decisions instead, against the thoughtful solver (which sees every card).

``collect`` plays the hint from the deal on ``--deals`` game numbers from ``--first`` on
(take them apart from the hint bench's fresh range, ``bench/hints.py``, which stays
untuned). At every position with two moves or more to new positions (the hint's
candidates) the thoughtful solver decides the position after each candidate (within
``--solve-states`` positions). A position where some candidate keeps the deal won and
some loses it is a *critical* position; it is stored with the game's moves so far
(the hint's line) and each candidate's verdict. When the hint plays a losing move, the
game goes on with the first winning candidate instead, so that later positions count
too.

``score`` asks the hint (``solver.hint``, with the budgets given) at every stored
critical position and counts the *fatal* choices (the candidate the thoughtful solver
proved lost); beside it the share a uniformly random candidate would lose.

    python bench/hint_decisions.py collect --game klondike --first 2000000 --deals 30 \\
        --out /tmp/critical.json
    python bench/hint_decisions.py score /tmp/critical.json [--samples 128] \\
        [--evaluations 384] [--positions 300]

Everything but the timings is a function of the arguments (budgets are positions).

A known weakness (docs/benchmarks.md): the verdicts do not forbid the game's line, while
the hint never goes back to a position of it, so a candidate whose only wins pass back
through the line is counted as kept; and the figures did not carry over to whole games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn  # noqa: E402

from patiencekit.game import new_game  # noqa: E402
from patiencekit.solver import Budget, hint, player, solve_state  # noqa: E402
from patiencekit.state import State  # noqa: E402


def _verdict(state: State, states: int, cache: dict[Any, str]) -> str:
    key = state.key()
    got = cache.get(key)
    if got is None:
        got = solve_state(state.copy(), Budget(states=states, seconds=None)).outcome
        cache[key] = got
    return got


def collect(game_id: str, first: int, deals: int, solve_states: int) -> list[dict[str, Any]]:
    """The critical positions of ``deals`` games from ``first`` on (see the docstring)."""
    out: list[dict[str, Any]] = []
    with Progress(TextColumn("collect"), BarColumn(), MofNCompleteColumn()) as bar:
        task = bar.add_task("", total=deals)
        for number in range(first, first + deals):
            cache: dict[Any, str] = {}
            game = new_game(game_id, number)
            if _verdict(game.state, solve_states, cache) == "solved":
                for _ in range(300):
                    if game.is_won():
                        break
                    state = game.state
                    line = player.line_of(state)
                    cands: dict[str, State] = {}
                    for m in state.moves():
                        after = state.copy()
                        after.push(m)
                        if player.position_key(after) not in line.keys:
                            cands[game.tables.label_of(m)] = after
                    if not cands:
                        break
                    move = hint(game, seconds=None)
                    if len(cands) == 1:
                        verdicts = dict.fromkeys(cands, "solved")
                    else:
                        verdicts = {k: _verdict(s, solve_states, cache) for k, s in cands.items()}
                    if "solved" in verdicts.values() and "unsolvable" in verdicts.values():
                        out.append(
                            {
                                "game": game_id,
                                "number": number,
                                "moves": [str(m) for m in game.moves],
                                "verdicts": verdicts,
                            }
                        )
                    if move is None or verdicts.get(move) != "solved":
                        good = [k for k, v in verdicts.items() if v == "solved"]
                        if not good:
                            break
                        move = good[0]
                    game.play(move)
            bar.update(task, advance=1)
    return out


def score(records: list[dict[str, Any]], **budget: int | None) -> dict[str, Any]:
    """The fatal choices of ``hint(**budget)`` at the stored critical positions."""
    fatal = 0
    random_fatal = 0.0
    started = time.perf_counter()
    with Progress(TextColumn("score"), BarColumn(), MofNCompleteColumn()) as bar:
        task = bar.add_task("", total=len(records))
        for r in records:
            game = new_game(r["game"], r["number"])
            for m in r["moves"]:
                game.play(m)
            move = hint(game, seconds=None, **budget)  # type: ignore[arg-type]
            verdicts = r["verdicts"]
            fatal += verdicts.get(move) == "unsolvable"
            lost = sum(v == "unsolvable" for v in verdicts.values())
            random_fatal += lost / len(verdicts)
            bar.update(task, advance=1)
    n = len(records)
    return {
        "positions": n,
        "fatal": fatal,
        "fatal_share": fatal / n if n else None,
        "random_fatal_share": random_fatal / n if n else None,
        "ms_per_hint": (time.perf_counter() - started) / n * 1000 if n else None,
        "budget": budget,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="find critical positions")
    c.add_argument("--game", default="klondike")
    c.add_argument("--first", type=int, default=2_000_000)
    c.add_argument("--deals", type=int, default=30)
    c.add_argument("--solve-states", type=int, default=200_000)
    c.add_argument("--out", required=True)
    s = sub.add_parser("score", help="count the hint's fatal choices")
    s.add_argument("file")
    s.add_argument("--samples", type=int)
    s.add_argument("--evaluations", type=int)
    s.add_argument("--positions", type=int)
    args = parser.parse_args(argv)
    if args.cmd == "collect":
        records = collect(args.game, args.first, args.deals, args.solve_states)
        Path(args.out).write_text(json.dumps(records))
        print(f"{len(records)} critical positions in {args.deals} deals -> {args.out}")
    else:
        records = json.loads(Path(args.file).read_text())
        result = score(
            records, samples=args.samples, evaluations=args.evaluations, positions=args.positions
        )
        print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
