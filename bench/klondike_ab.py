"""Klondike search A/B: verdicts, positions and processor time per deal, at a positions budget.

One process, deals one after another (processor time, not wall time, is what a loaded machine
inflates least). ``--ref REV`` runs the pure-Python search of ``klondike.py`` at git revision
REV instead of the search in use (the compiled one when it is built and fresh); every win is
replayed through the engine. ``--midgame`` starts each deal after some seeded random moves
(strings then lie on either twin, which fresh deals rarely give). ``compare`` prints the
totals of two runs and every deal both decided differently (there must be none).
``--no-draw-dominance`` runs the search in use without its draw-position dominance (the A/B
of that pruning with one build).

    python bench/klondike_ab.py run --draw 3 --first 7000000 --deals 200 --states 200000 \
        --out new.json
    python bench/klondike_ab.py run --ref f90e1c3 ... --out old.json
    python bench/klondike_ab.py compare old.json new.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

GAME_IDS = {1: "klondike-draw1", 3: "klondike"}


def _search_module(ref: str | None) -> Any:
    if ref is None:
        from patiencekit.solver import _KLONDIKE

        return _KLONDIKE
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:src/patiencekit/solver/klondike.py"],
        capture_output=True, check=True,
    ).stdout
    path = Path(tempfile.mkdtemp(prefix="pk-ab-")) / "klondike_ref.py"
    path.write_bytes(source)
    spec = importlib.util.spec_from_file_location("klondike_ref", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_labels(game_id: str, number: int) -> list[str]:
    """10-59 seeded random legal moves from deal ``number`` (half of them, where there is
    one, a move between columns, so that strings lie on either twin): a mid-game position
    for the A/B that deals alone do not give."""
    import random

    from patiencekit import new_game

    rng = random.Random(number * 7919)
    game = new_game(game_id, number)
    labels: list[str] = []
    for _ in range(rng.randrange(10, 60)):
        state = game.state
        moves = state.moves()
        if not moves:
            break
        t = state.t
        between = [m for m in moves if m[0] in t.columns and m[1] in t.columns]
        move = rng.choice(between) if between and rng.random() < 0.5 else rng.choice(moves)
        labels.append(t.label_of(move))
        game.play(labels[-1])
    return labels


def run_deal(
    module: Any, game_id: str, number: int, states: int, midgame: bool = False,
    dominance: bool = True,
) -> dict[str, Any]:
    from patiencekit import new_game

    before = random_labels(game_id, number) if midgame else []
    start = new_game(game_id, number)
    for text in before:
        start.play(text)
    state = start.state.copy()
    cpu = time.process_time()
    search = module.KlondikeSearch(state, max_states=states, max_memory_mb=None)
    if not dominance:
        search.draw_dominance = False
    won, limit = search.run()
    cpu = time.process_time() - cpu
    outcome = "solved" if won else "unsolvable" if won is False else "limit"
    moves = 0
    if won:
        game = new_game(game_id, number)
        texts = search.move_texts(state)
        for text in before + texts:
            game.play(text)
        if not game.is_won():
            raise AssertionError(f"{game_id} #{number}: the line does not win")
        moves = len(texts)
    return {"number": number, "outcome": outcome, "limit": limit, "nodes": search.nodes,
            "seen": len(search.seen), "cpu": cpu, "moves": moves}


def run(args: argparse.Namespace) -> None:
    module = _search_module(args.ref)
    game_id = GAME_IDS[args.draw]
    numbers = list(range(args.first, args.first + args.deals)) + list(args.extra)
    records = []
    for number in numbers:
        rec = run_deal(module, game_id, number, args.states, args.midgame,
                       not args.no_draw_dominance)
        records.append(rec)
        if args.verbose:
            print(json.dumps(rec), flush=True)
    data = {"draw": args.draw, "states": args.states, "ref": args.ref, "midgame": args.midgame,
            "draw_dominance": not args.no_draw_dominance,
            "compiled": getattr(module, "SOURCE_SHA256", None) is not None, "records": records}
    Path(args.out).write_text(json.dumps(data, indent=0))
    summary(data)


def summary(data: dict[str, Any]) -> None:
    recs = data["records"]
    count = {o: sum(r["outcome"] == o for r in recs) for o in ("solved", "unsolvable", "limit")}
    cpus = [r["cpu"] for r in recs]
    print(f"draw {data['draw']} ref={data['ref']} compiled={data['compiled']} "
          f"budget {data['states']}: {count}; nodes {sum(r['nodes'] for r in recs):,}, "
          f"seen {sum(r['seen'] for r in recs):,}; cpu total {sum(cpus):.1f} s, "
          f"median {statistics.median(cpus) * 1000:.2f} ms")


def compare(args: argparse.Namespace) -> None:
    a = json.loads(Path(args.a).read_text())
    b = json.loads(Path(args.b).read_text())
    summary(a)
    summary(b)
    rb = {r["number"]: r for r in b["records"]}
    bad = 0
    both = 0
    for r in a["records"]:
        s = rb.get(r["number"])
        if s is None or "limit" in (r["outcome"], s["outcome"]):
            continue
        both += 1
        if r["outcome"] != s["outcome"]:
            bad += 1
            print("DISAGREE", r["number"], r["outcome"], s["outcome"])
    print(f"decided by both: {both}, disagreements: {bad}")
    for r in a["records"]:
        s = rb.get(r["number"])
        if s is not None and r["outcome"] != s["outcome"]:
            print(f"  #{r['number']}: {r['outcome']} ({r['seen']:,}) -> "
                  f"{s['outcome']} ({s['seen']:,})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("run")
    p.add_argument("--draw", type=int, choices=(1, 3), required=True)
    p.add_argument("--first", type=int, default=7000000)
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--extra", type=int, nargs="*", default=[])
    p.add_argument("--states", type=int, default=200_000)
    p.add_argument("--ref", default=None)
    p.add_argument("--out", required=True)
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--midgame", action="store_true",
                   help="from each deal after 10-59 seeded random moves (random_labels)")
    p.add_argument("--no-draw-dominance", action="store_true",
                   help="without the draw-position dominance (KlondikeSearch.draw_dominance)")
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = parser.parse_args()
    if args.cmd == "run":
        run(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
