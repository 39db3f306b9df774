"""An experiment, not part of the package: where following the hints loses a won deal,
and what a much larger hindsight-optimisation sample would have chosen there.

``play`` follows ``solver.hint`` from the deal on each game number (draw 3 by default) and,
after every move, decides the real position with the thoughtful solver (which sees every
card, 100,000 positions); the first move after which it is proved unsolvable, on a deal
the solver wins, is the deal's *fatal* move. ``judge`` goes back to the position before
each fatal move and plays every candidate of the hint player there (``player.candidates``:
the plans of ``player.talon_plans`` once the talon is known) in ``SAMPLES`` deals of the
unseen cards, each searched within ``POSITIONS`` positions with the game's line forbidden,
as the hint does, and prints each candidate's thoughtful verdict beside its won samples.

    python docs/experiments/hint_fatal_moves.py play 3000000 30 /tmp/fatal.jsonl [klondike-draw1]
    python docs/experiments/hint_fatal_moves.py judge /tmp/fatal.jsonl 200 3000 [klondike-draw1]

Run of 2026-12-05 on game numbers 3,000,000-029 (draw 3, the hint of 16 samples and 48
searches), its figures in docs/benchmarks.md ("where the hints lose a won deal").
"""

from __future__ import annotations

import json
import multiprocessing
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import patiencekit
from patiencekit.solver import _KLONDIKE, Budget, _sampled_states, hint, solve_state
from patiencekit.solver import player as P
from patiencekit.state import State

#: the game id: the last argument when it names a Klondike game (draw 3 by default)
GAME = sys.argv[-1] if sys.argv[-1].startswith("klondike") else "klondike"


def verdict(state: State, positions: int = 100_000) -> str:
    return solve_state(state.copy(), Budget(states=positions, seconds=None)).outcome


def play(number: int) -> dict[str, Any]:
    game = patiencekit.new_game(GAME, number)
    record: dict[str, Any] = {"number": number, "start": verdict(game.state), "fatal": None}
    if record["start"] != "solved":
        return record
    moves: list[str] = []
    for i in range(400):
        move = hint(game, seconds=None)
        if move is None:
            record["end"] = "no hint"
            break
        before = list(moves)
        game.play(move)
        moves.append(move)
        if game.is_won():
            record["end"] = "won"
            break
        if verdict(game.state) == "unsolvable":
            record["fatal"] = {"index": i, "move": move, "line": before}
            record["end"] = "fatal"
            break
    return record


def judge(task: tuple[dict[str, Any], int, int]) -> tuple[int, str, list[tuple[str, str, int]]]:
    record, samples, positions = task
    game = patiencekit.new_game(GAME, record["number"])
    for m in record["fatal"]["line"]:
        game.play(m)
    state = game.state
    line = P.line_of(state)
    plans = P.candidates(state, line, True)
    deals = _sampled_states(game, samples, line.stock)
    out = []
    for plan in plans:
        real = state.copy()
        for m in plan:
            real.push(m)
        wins = 0
        for sample in deals:
            after = sample.copy()
            for m in plan:
                after.push(m)
            dead = P._forbidden(state, sample, line, True)
            ok, _ = P._solve(after, dead, positions, _KLONDIKE.KlondikeSearch)
            wins += bool(ok)
        label = " / ".join(game.tables.label_of(m) for m in plan)
        out.append((label, verdict(real), wins))
    return record["number"], record["fatal"]["move"], out


def main(argv: list[str]) -> None:
    with multiprocessing.Pool(2) as pool:
        if argv[0] == "play":
            first, count, path = int(argv[1]), int(argv[2]), argv[3]
            with open(path, "w") as f:
                for rec in pool.imap_unordered(play, range(first, first + count)):
                    f.write(json.dumps(rec) + "\n")
                    fatal = rec["fatal"]
                    print(rec["number"], rec["start"], rec.get("end"), fatal and fatal["move"])
        else:
            records = [json.loads(x) for x in Path(argv[1]).read_text().splitlines()]
            tasks = [(r, int(argv[2]), int(argv[3])) for r in records if r.get("fatal")]
            for number, move, out in pool.imap_unordered(judge, tasks):
                print(number, "played:", move)
                for label, v, wins in sorted(out, key=lambda o: -o[2]):
                    print(f"    {wins:4d}  {v:10s}  {label}")


if __name__ == "__main__":
    main(sys.argv[1:])
