"""An experiment, not part of the package: is a sample searched within 100 positions (the
budget of lonelybot's allocation tried in docs/experiments/hint-leader-arranged.diff)
decided as it would be searched to the end?

On each draw-3 game number from FIRST, the shipped hint plays the game to its 40th and
80th moves; at each of those positions (past the first pass), the hint player's first five
candidates (``player.candidates``) are played in 16 samples of the unseen cards
(``solver._sampled_states``), and each sample is searched as the hint searches it (the
game's line forbidden) within 100, 3,000 and 200,000 positions. It prints how many
searches each budget wins, how many won at 200,000 positions the small budgets call lost,
and in how many positions the candidate with the most won samples at 100 (3,000)
positions is the one with the most at 200,000.

    python docs/experiments/hint_search_depth.py [FIRST] [DEALS]

Run of 2026-12-05 on 1,000,000-009, its figures in docs/benchmarks.md ("lonelybot's
allocation and candidates in our player").
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import patiencekit
from patiencekit.solver import _KLONDIKE, _sampled_states, hint, player

BUDGETS = (100, 3_000, 200_000)


def main(first: int, deals: int) -> None:
    search = _KLONDIKE.KlondikeSearch
    rows: list[tuple[int, int, int, list[bool]]] = []
    started = time.perf_counter()
    for number in range(first, first + deals):
        game = patiencekit.new_game("klondike", number)
        for target in (40, 80):
            while len(game.moves) < target and not game.is_won():
                move = hint(game, seconds=None)
                if move is None:
                    break
                game.play(move)
            if game.is_won() or len(game.moves) < target:
                break
            state = game.state
            line = player.line_of(state)
            if line.scouting:
                continue
            plans = player.candidates(state, line, True)[:5]
            for k, plan in enumerate(plans):
                for sample in _sampled_states(game, 16, line.stock):
                    dead = player._forbidden(state, sample, line, True)
                    won = [player._won_after(sample, plan, dead, b, search) for b in BUDGETS]
                    rows.append((number, target, k, won))
        print(number, len(rows), f"{time.perf_counter() - started:.0f} s", flush=True)
    deep = len(BUDGETS) - 1
    print("searches", len(rows), "won at", ", ".join(
        f"{b:,}: {sum(r[3][i] for r in rows)}" for i, b in enumerate(BUDGETS)))
    for i, b in enumerate(BUDGETS[:-1]):
        missed = sum(r[3][deep] and not r[3][i] for r in rows)
        print(f"won at {BUDGETS[deep]:,} but lost at {b:,}: {missed}")
    shares: dict[tuple[int, int], dict[int, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0] * len(BUDGETS)))
    for number, target, k, won in rows:
        for i, w in enumerate(won):
            shares[(number, target)][k][i] += w
    several = [c for c in shares.values() if len(c) > 1]

    def best(c: dict[int, list[int]], i: int) -> int:
        return max(c, key=lambda k: (c[k][i], -k))

    for i, b in enumerate(BUDGETS[:-1]):
        same = sum(best(c, i) == best(c, deep) for c in several)
        print(f"positions {len(several)}: the best at {b:,} is the best at the end in {same}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000,
         int(sys.argv[2]) if len(sys.argv) > 2 else 10)
