"""Hint bench: how often does following ``patiencekit.solver.hint()`` from the deal win?

For each game and each of ``--deals`` fresh game numbers from ``--first`` on (a range
nobody tuned on), it deals the game and plays the hint, move after move, until the game
is won, no hint is left (``hint`` answers None), the same position comes a third time (a
loop: the game is stopped there and counted lost) or ``--max-moves`` moves were played
(the move cap). ``hint`` runs with its default budgets (or ``--samples``,
``--positions``, ``--evaluations``), bounded by positions and without its time safety
net, so the moves played do not depend on the machine's speed. The same deal is
then solved by the thoughtful solver (``patiencekit.solver.solve``, which sees every
card) with a budget of ``--solve-states`` positions and no time limit: its win rate is
the upper bound, and the deals it leaves undecided (``limit``) are counted apart.

Reported per game: the hint player's win rate with its 95 % Wilson interval; the
thoughtful win rate on the same deals (solved / proved unsolvable / undecided); the
loops (must be 0); how the games ended (won / no hint / loop / move cap); the time a
hint takes, p50 / p99 (``time.perf_counter``); and the deals the thoughtful solver wins
that the hints lose. Everything but the timings is a function of the arguments.

    python bench/hints.py --compare A.jsonl B.jsonl   # two runs paired on their common deals
    python bench/hints.py [--games klondike,klondike-draw1 | all] [--deals 100]
                          [--first 1000000 | --numbers 1-50,77 | --numbers @FILE.json]
                          [--max-moves 500] [--solve-states 1000000]
                          [--loop-key position|state] [--workers 1] [--json FILE]
                          [--records FILE.jsonl] [--samples N] [--positions N]
                          [--evaluations N]

With ``--records`` every deal's record is appended to the file as one JSON line as soon
as it is played, so a long run that is stopped keeps what it did; run the same command
again and the deals already in the file (same game, number and arguments) are not
played again, their records are read back.

A loop is a position seen three times. ``--loop-key position`` (the default) compares
the cards' places and the face-down counts, with the redeals used only when the game
limits them: ``State.key()`` also holds the redeal counter, which keeps growing when the
redeals are unlimited (Klondike), and the score, so a game turning the stock for ever
never repeats a ``State.key()``. ``--loop-key state`` compares ``State.key()`` itself.
Either way the records say whether ``State.key()`` itself came a third time.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from rich.progress import (  # noqa: E402
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from patiencekit.errors import UnknownGameError  # noqa: E402
from patiencekit.game import new_game  # noqa: E402
from patiencekit.games import GAMES as GAMES_BY_ID  # noqa: E402
from patiencekit.solver import Budget, hint, solve  # noqa: E402
from patiencekit.solver.study import parse_numbers  # noqa: E402
from patiencekit.state import State  # noqa: E402

GAMES = "klondike,klondike-draw1"
ALL_GAMES = tuple(GAMES_BY_ID)
#: how a game played by hints can end
ENDS = ("won", "no hint", "loop", "move cap", "bad hint")

#: (game id, number, max moves, thoughtful positions, loop key, hint budget)
Task = tuple[str, int, int, int, str, tuple[tuple[str, int], ...]]


def position_key(state: State, loop_key: str) -> Hashable:
    """What two positions must share to count as the same one (see the docstring)."""
    if loop_key == "state":
        return state.key()
    redeals = state.redeals if state.t.redeals is not None else None
    return (tuple(map(tuple, state.piles)), tuple(state.down), redeals)


def play_deal(task: Task) -> dict[str, Any]:
    """Play one deal by hints, then solve it thoughtfully; the record of both."""
    game_id, number, max_moves, solve_states, loop_key, budget = task
    game = new_game(game_id, number)
    seen: Counter[Hashable] = Counter({position_key(game.state, loop_key): 1})
    keys: Counter[tuple[object, ...]] = Counter({game.state.key(): 1})
    hint_seconds: list[float] = []
    end = "move cap"
    bad: str | None = None
    while len(game.moves) < max_moves:
        started = time.perf_counter()
        move = hint(game, seconds=None, **dict(budget))  # type: ignore[arg-type]
        hint_seconds.append(time.perf_counter() - started)
        if move is None:
            end = "no hint"
            break
        if not game.can_play(move):  # the hint must be legal; say so rather than crash
            end, bad = "bad hint", move
            break
        game.play(move)
        if game.is_won():
            end = "won"
            break
        keys[game.state.key()] += 1
        seen[position_key(game.state, loop_key)] += 1
        if seen[position_key(game.state, loop_key)] >= 3:
            end = "loop"
            break
    if game.is_won():
        end = "won"
    started = time.perf_counter()
    result = solve(game_id, number, budget=Budget(seconds=None, states=solve_states))
    return {
        "game": game_id,
        "number": number,
        "max_moves": max_moves,
        "solve_states": solve_states,
        "loop_key": loop_key,
        "hint_budget": dict(budget),
        "end": end,
        "moves": len(game.moves),
        "last_moves": [str(m) for m in game.moves[-6:]],
        "bad_hint": bad,
        "state_key_thrice": max(keys.values()) >= 3,
        "hint_seconds": [round(s, 6) for s in hint_seconds],
        "thoughtful": result.outcome,
        "thoughtful_limit": result.limit,
        "thoughtful_states": result.unique_states,
        "thoughtful_seconds": round(time.perf_counter() - started, 3),
    }


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * p / 100) - 1)]


def summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One game's figures from its deals' records."""
    n = len(records)
    ends = Counter(r["end"] for r in records)
    wins = ends["won"]
    low, high = wilson(wins, n)
    thoughtful = Counter(r["thoughtful"] for r in records)
    decided = thoughtful["solved"] + thoughtful["unsolvable"]
    t_low, t_high = wilson(thoughtful["solved"], decided)
    seconds = [s for r in records for s in r["hint_seconds"]]
    p50, p99 = percentile(seconds, 50), percentile(seconds, 99)
    return {
        "deals": n,
        "won": wins,
        "win_rate": wins / n if n else 0.0,
        "wilson95": [low, high],
        "thoughtful_solved": thoughtful["solved"],
        "thoughtful_unsolvable": thoughtful["unsolvable"],
        "thoughtful_undecided": thoughtful["limit"],
        "thoughtful_win_rate_decided": thoughtful["solved"] / decided if decided else None,
        "thoughtful_wilson95_decided": [t_low, t_high],
        "loops": ends["loop"],
        "state_key_loops": sum(r["state_key_thrice"] for r in records),
        "ends": {e: ends[e] for e in ENDS if ends[e] or e != "bad hint"},
        "hints": len(seconds),
        "hint_p50_ms": None if p50 is None else round(p50 * 1000, 1),
        "hint_p99_ms": None if p99 is None else round(p99 * 1000, 1),
        "median_moves": statistics.median(r["moves"] for r in records) if records else None,
        "lost_but_solvable": [
            r["number"] for r in records if r["end"] != "won" and r["thoughtful"] == "solved"
        ],
        "won_but_not_solved": [
            r["number"] for r in records if r["end"] == "won" and r["thoughtful"] != "solved"
        ],
    }


def sign_test(a: int, b: int) -> float:
    """Two-sided exact sign test: the chance of a split at least as uneven as ``a``
    against ``b`` when each of the ``a + b`` discordant deals is a fair coin.

    >>> round(sign_test(6, 2), 3), sign_test(3, 3)
    (0.289, 1.0)
    """
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Two runs paired on the deals both played (same game and number), per game: the
    deals, each run's wins there, the deals only one of them won, the sign test on those,
    and each run's hint times on those deals."""
    def index(rs: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
        return {(r["game"], r["number"]): r for r in rs}

    ia, ib = index(a), index(b)
    both = ia.keys() & ib.keys()
    out: dict[str, dict[str, Any]] = {}
    for game in sorted({g for g, _ in both}):
        common = sorted(n for g, n in both if g == game)
        ra = [ia[game, n] for n in common]
        rb = [ib[game, n] for n in common]
        only_a = [n for n, x, y in zip(common, ra, rb, strict=True)
                  if x["end"] == "won" and y["end"] != "won"]
        only_b = [n for n, x, y in zip(common, ra, rb, strict=True)
                  if y["end"] == "won" and x["end"] != "won"]
        row: dict[str, Any] = {
            "deals": len(common),
            "won_a": sum(r["end"] == "won" for r in ra),
            "won_b": sum(r["end"] == "won" for r in rb),
            "only_a": only_a,
            "only_b": only_b,
            "sign_test_p": sign_test(len(only_a), len(only_b)),
        }
        for name, rs in (("a", ra), ("b", rb)):
            seconds = [x for r in rs for x in r["hint_seconds"]]
            for q in (50, 99):
                v = percentile(seconds, q)
                row[f"hint_p{q}_ms_{name}"] = None if v is None else round(v * 1000, 1)
        out[game] = row
    return out


def _read_all(path: Path) -> list[dict[str, Any]]:
    """The records of a ``--records`` file (JSON lines) or a ``--json`` file."""
    text = path.read_text()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    if isinstance(data, dict):
        return [r for rs in data["records"].values() for r in rs]
    return list(data)


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def report(summaries: dict[str, dict[str, Any]], title: str) -> None:
    """The markdown tables."""
    print()
    print(title)
    print()
    print(
        "| game | deals | hints win | 95 % Wilson | thoughtful wins | proved unsolvable | "
        "undecided | loops | hint p50 ms | hint p99 ms |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game, s in summaries.items():
        low, high = s["wilson95"]
        print(
            f"| {game} | {s['deals']} | {s['won']} ({_pct(s['win_rate'])}) | "
            f"{_pct(low)} - {_pct(high)} | {s['thoughtful_solved']} | "
            f"{s['thoughtful_unsolvable']} | {s['thoughtful_undecided']} | {s['loops']} | "
            f"{s['hint_p50_ms']} | {s['hint_p99_ms']} |"
        )
    print()
    kinds = [e for e in ENDS if any(e in s["ends"] for s in summaries.values())]
    print("| game | " + " | ".join(kinds) + " | loops by State.key() | median moves |")
    print("| --- | " + " | ".join("---:" for _ in kinds) + " | ---: | ---: |")
    for game, s in summaries.items():
        cells = " | ".join(str(s["ends"].get(e, 0)) for e in kinds)
        print(f"| {game} | {cells} | {s['state_key_loops']} | {s['median_moves']} |")
    print()
    for game, s in summaries.items():
        lost = s["lost_but_solvable"]
        print(f"{game}: lost by hints, won by the thoughtful solver: {len(lost)} {lost[:20]}")


def _run(tasks: list[Task], workers: int) -> Iterator[dict[str, Any]]:
    """The deals' records, as each is done (sorted again by the caller)."""
    if workers <= 1:
        yield from map(play_deal, tasks)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(play_deal, tasks)


def _task_of(record: dict[str, Any]) -> Task:
    """The task a record answers (its arguments are stored with it)."""
    return (
        record["game"],
        record["number"],
        record["max_moves"],
        record["solve_states"],
        record["loop_key"],
        tuple(sorted(record.get("hint_budget", {}).items())),
    )


def read_records(path: Path) -> dict[Task, dict[str, Any]]:
    """The records of an earlier run's ``--records`` file, by task.

    A line that is not a whole record (a run killed while writing) is ignored.
    """
    done: dict[Task, dict[str, Any]] = {}
    if not path.exists():
        return done
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
            done[_task_of(record)] = record
        except (json.JSONDecodeError, KeyError, TypeError):
            continue
    return done


def main(argv: list[str] | None = None) -> int:
    """Run the bench; prints the tables, writes the records with ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", default=GAMES, help="game ids, comma-separated, or 'all' (every game)"
    )
    parser.add_argument("--deals", type=int, default=100, help="deals per game")
    parser.add_argument("--first", type=int, default=1_000_000, help="first game number")
    parser.add_argument(
        "--numbers",
        help="play these game numbers instead of --first/--deals, as `patiencekit study "
        "--numbers` reads them: numbers and ranges (1-50,77), or @FILE, a JSON list",
    )
    parser.add_argument("--max-moves", type=int, default=500, help="moves per game at most")
    parser.add_argument(
        "--solve-states",
        type=int,
        default=1_000_000,
        help="positions the thoughtful solver may keep per deal",
    )
    parser.add_argument(
        "--loop-key",
        choices=("position", "state"),
        default="position",
        help="what counts as the same position (see the docstring)",
    )
    for name in ("samples", "positions", "evaluations"):
        parser.add_argument(
            f"--{name}", type=int, help=f"the hint's {name} (default: hint()'s own)"
        )
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="play nothing: pair two runs' records (--records or --json files) on the deals "
        "both played, with the sign test on the deals only one of them won",
    )
    parser.add_argument("--json", help="write the summaries and every record to this file")
    parser.add_argument(
        "--records",
        help="append each deal's record to this JSON-lines file as it is done; "
        "deals already in it are read back, not played again",
    )
    args = parser.parse_args(argv)
    if args.compare:
        pairs = compare(*(_read_all(Path(f)) for f in args.compare))
        print("| game | deals | A won | B won | only A | only B | sign test p "
              "| hint p50 ms A / B | hint p99 ms A / B |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
        for g, r in pairs.items():
            print(f"| {g} | {r['deals']} | {r['won_a']} | {r['won_b']} | {len(r['only_a'])} "
                  f"| {len(r['only_b'])} | {r['sign_test_p']:.3f} "
                  f"| {r['hint_p50_ms_a']} / {r['hint_p50_ms_b']} "
                  f"| {r['hint_p99_ms_a']} / {r['hint_p99_ms_b']} |")
            print(f"\n{g}: only A won {r['only_a']}; only B won {r['only_b']}")
        return 0
    if args.games == "all":
        args.games = ",".join(ALL_GAMES)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for g in games:
        try:
            new_game(g, 1)  # an unknown game id fails here, before any work
        except UnknownGameError as e:
            parser.error(str(e))
    numbers: Sequence[int] = range(args.first, args.first + args.deals)
    if args.numbers:
        try:
            numbers = parse_numbers(args.numbers)
        except ValueError as e:
            parser.error(f"--numbers: {e}")
    # (sorted by name, as _task_of reads it back from a record)
    budget = tuple(
        sorted(
            (k, v)
            for k in ("samples", "positions", "evaluations")
            if (v := getattr(args, k)) is not None
        )
    )
    tasks: list[Task] = [
        (g, n, args.max_moves, args.solve_states, args.loop_key, budget)
        for g in games
        for n in numbers
    ]
    records: dict[str, list[dict[str, Any]]] = {g: [] for g in games}
    done = read_records(Path(args.records)) if args.records else {}
    for task in tasks:
        if task in done:
            records[task[0]].append(done[task])
    todo = [t for t in tasks if t not in done]
    started = time.perf_counter()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("won {task.fields[won]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=False) as progress:
        bars = {
            g: progress.add_task(
                g,
                total=args.deals,
                completed=len(records[g]),
                won=sum(r["end"] == "won" for r in records[g]),
            )
            for g in games
        }
        for record in _run(todo, args.workers):
            g = record["game"]
            records[g].append(record)
            if args.records:
                with Path(args.records).open("a") as out:
                    out.write(json.dumps(record) + "\n")
            won = sum(r["end"] == "won" for r in records[g])
            progress.update(bars[g], advance=1, won=won)
    for rs in records.values():
        rs.sort(key=lambda r: r["number"])
    summaries = {g: summary(rs) for g, rs in records.items()}
    last = args.first + args.deals - 1
    title = (
        f"Hints followed from the deal: game numbers {args.first}..{last}, at most "
        f"{args.max_moves} moves, loop = a {args.loop_key} three times; thoughtful solver "
        f"{args.solve_states:,} positions per deal; {args.workers} worker(s), "
        f"{time.perf_counter() - started:.0f} s"
    )
    report(summaries, title)
    if args.json:
        data = {"args": vars(args), "summaries": summaries, "records": records}
        Path(args.json).write_text(json.dumps(data, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
