"""Winnability studies: solve many deals of one game and measure how often it can be won.

>>> from patiencekit.solver import Budget
>>> study = run_study("captured-queens", [3, 1, 2], Budget(seconds=2), workers=1)
>>> [d.number for d in study.deals]
[1, 2, 3]
>>> study.summary.solved + study.summary.unsolvable + study.summary.limit
3

:func:`run_study` runs one :func:`~patiencekit.solver.solve` per game number,
on a local process pool (the default: one process per CPU) or on a Ray
cluster (``ray_address=``; ``pip install 'patiencekit[ray]'``). The deals come
back in game-number order whatever order they finished in. Every ``solved``
deal's line is replayed through the checked :class:`~patiencekit.Game` in the
worker, so a number counts as *proved winnable* only when the engine agrees
(:attr:`DealResult.proved_winnable`).

The statistics are pure functions of the per-deal records, so they can be
recomputed from a CSV or JSON file:

* counts of ``solved`` / ``unsolvable`` / ``limit`` (and which limit);
* the win rate among the *decided* deals, solved / (solved + unsolvable), with
  a 95 % Wilson score interval (:func:`wilson_interval`). This is the rate
  only if the undecided deals are like the decided ones, which they need not
  be: hard deals run into the limit more often. So the study also gives
  the *bounds* solved / total .. (solved + limit) / total, the win rate if no
  undecided deal, or every one, is winnable (:func:`win_rate_bounds`);
* the solve time percentiles p50 / p90 / p99 / max by the nearest-rank method
  (:func:`percentile`): the p-th percentile of n times is the
  ceil(p / 100 * n)-th smallest, so it is always one of the measured times.

Times are wall seconds inside the worker; on a busy machine they include the
waiting for a CPU, and a deal near the time limit may come out either way.

The memory budget is checked by the solvers against the worker process's
resident memory at that moment (:func:`~patiencekit.solver.limits.resident_kb`).
A worker that ran earlier deals may still hold some of their memory (the
allocator does not always give it back), so a ``memory`` limit from such a
worker is not trusted: that deal is solved again in a fresh process and only
that verdict is kept.
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal

from patiencekit.deals import MAX_GAME_NUMBER
from patiencekit.errors import PatienceError
from patiencekit.game import new_game
from patiencekit.games import get_rules
from patiencekit.solver import Budget, solve

__all__ = [
    "CSV_FIELDS",
    "Z95",
    "DealResult",
    "StudyResult",
    "Summary",
    "deals_from_csv",
    "deals_to_csv",
    "finished_before",
    "format_numbers",
    "merge_winnable",
    "percentile",
    "read_csv",
    "read_winnable_module",
    "run_study",
    "solver_fingerprint",
    "study_from_json",
    "summarize",
    "time_percentiles",
    "wilson_interval",
    "win_rate_among_decided",
    "win_rate_bounds",
    "winnable_module_text",
    "write_csv",
    "write_json",
]

#: the normal quantile for a two-sided 95 % interval
Z95 = 1.959963984540054

Outcome = Literal["solved", "unsolvable", "limit"]
_OUTCOMES: tuple[Outcome, ...] = ("solved", "unsolvable", "limit")

#: the columns of the CSV file, one row per deal
CSV_FIELDS = (
    "game",
    "number",
    "outcome",
    "limit",
    "seconds",
    "states",
    "unique_states",
    "depth",
    "moves",
    "replayed",
)

#: called with each deal as it finishes (in finishing order)
ProgressCallback = Callable[["DealResult"], None]


# -- records ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealResult:
    """What the solver found for one deal, without the moves themselves."""

    number: int
    outcome: Outcome
    #: which budget ran out (``time``, ``states``, ``memory``), for ``limit``
    limit: str | None = None
    seconds: float = 0.0
    #: positions expanded, counting repeats
    states: int = 0
    #: distinct positions kept
    unique_states: int = 0
    #: deepest line searched
    depth: int = 0
    #: length of the solution (0 unless solved)
    moves: int = 0
    #: for ``solved``: whether the solution replayed to a win through the engine
    replayed: bool | None = None
    game: str = ""

    @property
    def proved_winnable(self) -> bool:
        """Solved, and the solution replayed to a win through the checked engine."""
        return self.outcome == "solved" and self.replayed is True

    def to_json(self) -> dict[str, Any]:
        """A flat dict with the :data:`CSV_FIELDS` keys."""
        return {
            "game": self.game,
            "number": self.number,
            "outcome": self.outcome,
            "limit": self.limit,
            "seconds": round(self.seconds, 6),
            "states": self.states,
            "unique_states": self.unique_states,
            "depth": self.depth,
            "moves": self.moves,
            "replayed": self.replayed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealResult:
        """The inverse of :meth:`to_json`; raises ValueError naming a bad field."""
        outcome = data.get("outcome")
        if outcome not in _OUTCOMES:
            raise ValueError(f"a deal's outcome must be one of {_OUTCOMES}; got {outcome!r}")
        replayed = data.get("replayed")
        if replayed is not None and not isinstance(replayed, bool):
            raise ValueError(f"a deal's 'replayed' must be true, false or null; got {replayed!r}")
        limit = data.get("limit")
        return cls(
            number=int(data["number"]),
            outcome=outcome,
            limit=str(limit) if limit else None,
            seconds=float(data.get("seconds", 0.0)),
            states=int(data.get("states", 0)),
            unique_states=int(data.get("unique_states", 0)),
            depth=int(data.get("depth", 0)),
            moves=int(data.get("moves", 0)),
            replayed=replayed,
            game=str(data.get("game", "")),
        )


@dataclass(frozen=True, slots=True)
class Summary:
    """The statistics of a set of deals (see the module text for their meaning)."""

    total: int
    solved: int
    unsolvable: int
    limit: int
    #: ``limit`` deals by which budget ran out
    limits: dict[str, int]
    #: solved / (solved + unsolvable), None when nothing was decided
    win_rate: float | None
    #: 95 % Wilson interval of ``win_rate``
    win_rate_ci: tuple[float, float] | None
    #: solved / total .. (solved + limit) / total
    bounds: tuple[float, float] | None
    #: the 95 % Wilson lower end of solved / total .. upper end of (solved + limit) / total
    bounds_ci: tuple[float, float] | None
    #: nearest-rank percentiles of the solve times: p50, p90, p99, max
    seconds: dict[str, float | None]
    #: sum of the solve times
    total_seconds: float
    #: solved deals whose solution did NOT replay to a win (a solver bug if not 0)
    replay_failures: int

    @property
    def decided(self) -> int:
        """Deals with a verdict: solved + unsolvable."""
        return self.solved + self.unsolvable

    def to_json(self) -> dict[str, Any]:
        """A JSON-friendly dict (intervals as two-element lists)."""

        def pair(p: tuple[float, float] | None) -> list[float] | None:
            return None if p is None else [p[0], p[1]]

        return {
            "total": self.total,
            "solved": self.solved,
            "unsolvable": self.unsolvable,
            "limit": self.limit,
            "decided": self.decided,
            "limits": dict(sorted(self.limits.items())),
            "win_rate": self.win_rate,
            "win_rate_ci": pair(self.win_rate_ci),
            "bounds": pair(self.bounds),
            "bounds_ci": pair(self.bounds_ci),
            "seconds": dict(self.seconds),
            "total_seconds": round(self.total_seconds, 6),
            "replay_failures": self.replay_failures,
        }


@dataclass(frozen=True, slots=True)
class StudyResult:
    """A study: the game, the budget per deal, and each deal's result in game-number order."""

    game: str
    budget: Budget
    deals: tuple[DealResult, ...]
    #: ``local`` (process pool), ``inline`` (this process) or ``ray``
    backend: str = "local"
    workers: int = 1
    #: wall seconds for the whole study
    wall_seconds: float = 0.0
    #: when the study started, ISO 8601 UTC
    started: str = ""
    #: free-form facts to keep with the result (e.g. the command that made it)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def summary(self) -> Summary:
        """The statistics of :attr:`deals`."""
        return summarize(self.deals)

    @property
    def winnable(self) -> tuple[int, ...]:
        """The game numbers proved winnable (solved and replayed), ascending."""
        return tuple(sorted(d.number for d in self.deals if d.proved_winnable))

    def to_json(self) -> dict[str, Any]:
        """Summary and deals: the shape :func:`write_json` writes."""
        return {
            "game": self.game,
            "budget": {
                "seconds": self.budget.seconds,
                "states": self.budget.states,
                "memory_mb": self.budget.memory_mb,
            },
            "backend": self.backend,
            "workers": self.workers,
            "started": self.started,
            "wall_seconds": round(self.wall_seconds, 3),
            "numbers": _numbers_json(self.deals),
            "meta": dict(self.meta),
            "summary": self.summary.to_json(),
            "deals": [d.to_json() for d in self.deals],
        }


def _numbers_json(deals: Sequence[DealResult]) -> dict[str, int | None]:
    numbers = [d.number for d in deals]
    return {
        "count": len(numbers),
        "first": min(numbers) if numbers else None,
        "last": max(numbers) if numbers else None,
    }


# -- statistics (pure) ------------------------------------------------------------------


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n``.

    >>> lo, hi = wilson_interval(8, 10)
    >>> round(lo, 4), round(hi, 4)
    (0.4902, 0.9433)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n; got successes={successes}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    # the exact ends are 0 and 1 at the extremes; rounding must not push past them
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def win_rate_among_decided(solved: int, unsolvable: int) -> float | None:
    """solved / (solved + unsolvable), or None when nothing was decided."""
    decided = solved + unsolvable
    return solved / decided if decided else None


def win_rate_bounds(solved: int, limit: int, total: int) -> tuple[float, float] | None:
    """The win rate if no undecided deal is winnable .. if every one is.

    >>> win_rate_bounds(6, 2, 10)
    (0.6, 0.8)
    """
    if total <= 0:
        return None
    if solved + limit > total:
        raise ValueError(f"solved + limit ({solved} + {limit}) exceeds the total {total}")
    return (solved / total, (solved + limit) / total)


def percentile(values: Iterable[float], p: float) -> float | None:
    """The nearest-rank ``p``-th percentile (0 < p <= 100): the ceil(p/100 * n)-th smallest.

    >>> percentile([5, 1, 4, 2, 3], 50), percentile([5, 1, 4, 2, 3], 90)
    (3, 5)
    >>> percentile([], 50) is None
    True
    """
    if not 0 < p <= 100:
        raise ValueError(f"a percentile must be in (0, 100]; got {p}")
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, math.ceil(p / 100 * len(ordered) - 1e-9))
    return ordered[rank - 1]


def time_percentiles(deals: Iterable[DealResult]) -> dict[str, float | None]:
    """p50, p90, p99 and max of the solve times (nearest rank), None when there is no deal."""
    times = [d.seconds for d in deals]
    return {
        "p50": percentile(times, 50),
        "p90": percentile(times, 90),
        "p99": percentile(times, 99),
        "max": max(times) if times else None,
    }


def summarize(deals: Iterable[DealResult], z: float = Z95) -> Summary:
    """Counts, win rate with its Wilson interval, bounds and time percentiles."""
    deals = list(deals)
    counts = Counter(d.outcome for d in deals)
    solved, unsolvable, limit = counts["solved"], counts["unsolvable"], counts["limit"]
    total = len(deals)
    decided = solved + unsolvable
    bounds = win_rate_bounds(solved, limit, total)
    bounds_ci = None
    if total:
        bounds_ci = (
            wilson_interval(solved, total, z)[0],
            wilson_interval(solved + limit, total, z)[1],
        )
    return Summary(
        total=total,
        solved=solved,
        unsolvable=unsolvable,
        limit=limit,
        limits=dict(Counter(d.limit or "unknown" for d in deals if d.outcome == "limit")),
        win_rate=win_rate_among_decided(solved, unsolvable),
        win_rate_ci=wilson_interval(solved, decided, z) if decided else None,
        bounds=bounds,
        bounds_ci=bounds_ci,
        seconds=time_percentiles(deals),
        total_seconds=sum(d.seconds for d in deals),
        replay_failures=sum(1 for d in deals if d.outcome == "solved" and d.replayed is False),
    )


# -- files ------------------------------------------------------------------------------


def deals_to_csv(deals: Iterable[DealResult], out: IO[str]) -> None:
    """Write one CSV row per deal, with a header row of :data:`CSV_FIELDS`."""
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for d in deals:
        row = d.to_json()
        row["limit"] = row["limit"] or ""
        row["replayed"] = "" if d.replayed is None else str(d.replayed).lower()
        writer.writerow(row)


def deals_from_csv(source: IO[str]) -> list[DealResult]:
    """Read what :func:`deals_to_csv` wrote; raises ValueError naming a bad row."""
    reader = csv.DictReader(source)
    missing = set(CSV_FIELDS) - set(reader.fieldnames or ())
    if missing:
        raise ValueError(f"the CSV lacks the column(s) {sorted(missing)}")
    out = []
    for line, row in enumerate(reader, start=2):
        replayed_text = row["replayed"].strip().lower()
        if replayed_text not in ("", "true", "false"):
            raise ValueError(f"CSV line {line}: 'replayed' must be true, false or empty")
        data: dict[str, Any] = dict(row)
        data["replayed"] = None if not replayed_text else replayed_text == "true"
        try:
            out.append(DealResult.from_json(data))
        except (ValueError, KeyError) as e:
            raise ValueError(f"CSV line {line}: {e}") from None
    return out


def write_csv(study: StudyResult | Iterable[DealResult], path: str | Path) -> None:
    """Write a study's deals (or any deals) to a CSV file, one row per deal."""
    deals = study.deals if isinstance(study, StudyResult) else study
    with open(path, "w", encoding="utf-8", newline="") as f:
        deals_to_csv(deals, f)


def read_csv(path: str | Path) -> list[DealResult]:
    """The deals of a CSV file written by :func:`write_csv`."""
    with open(path, encoding="utf-8", newline="") as f:
        return deals_from_csv(f)


def write_json(study: StudyResult, path: str | Path | IO[str]) -> None:
    """Write a study (summary and deals) as JSON to a file path or an open text file."""
    text = json.dumps(study.to_json(), indent=1, ensure_ascii=False) + "\n"
    if isinstance(path, (str, Path)):
        Path(path).write_text(text, encoding="utf-8")
    else:
        path.write(text)


def study_from_json(data: dict[str, Any] | str | Path | IO[str]) -> StudyResult:
    """Read what :func:`write_json` wrote (a dict, a path or an open file)."""
    if isinstance(data, (str, Path)):
        data = json.loads(Path(data).read_text(encoding="utf-8"))
    elif not isinstance(data, dict):
        data = json.load(data)
    if not isinstance(data, dict):
        raise ValueError("a study's JSON must be an object")
    budget = data.get("budget") or {}
    return StudyResult(
        game=str(data["game"]),
        budget=Budget(
            seconds=budget.get("seconds"),
            states=budget.get("states"),
            memory_mb=budget.get("memory_mb"),
        ),
        deals=tuple(DealResult.from_json(d) for d in data.get("deals", [])),
        backend=str(data.get("backend", "local")),
        workers=int(data.get("workers", 1)),
        wall_seconds=float(data.get("wall_seconds", 0.0)),
        started=str(data.get("started", "")),
        meta=dict(data.get("meta") or {}),
    )


# -- running ----------------------------------------------------------------------------


def solver_fingerprint() -> str:
    """A short hash of the solver's source files (not this one), of which Klondike search
    runs and which depth-first search it uses (the C one's source hash, or ``python``), of
    which PatienceMax search and best-first run (compiled, C or Python), of which exact
    search of the reserve games (C or Python), of
    which position the other searches search and of which dead-end analysis they use (each
    the compiled module's embedded source hash, or ``pure``), to tell which solver made a
    study: the same fingerprint, the same search."""
    import hashlib

    from patiencekit import solver, state
    from patiencekit.solver import generic, klondike, patiencemax, reserve

    digest = hashlib.sha256()
    folder = Path(__file__).resolve().parent
    for path in sorted(folder.glob("*.py")):
        if path.name != "study.py":
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(b"klondike search\0" + solver.KLONDIKE_BUILD.encode() + b"\0")
    digest.update(b"position\0" + state.STATE_BUILD.encode() + b"\0")
    digest.update(b"dead ends\0" + generic.DEAD_ENDS_BUILD.encode() + b"\0")
    digest.update(b"klondike dfs\0" + klondike.NATIVE_BUILD.encode() + b"\0")
    digest.update(b"patiencemax run\0" + patiencemax.NATIVE_BUILD.encode() + b"\0")
    digest.update(b"reserve exact\0" + reserve.NATIVE_BUILD.encode() + b"\0")
    digest.update(b"patiencemax search\0" + solver.PATIENCEMAX_BUILD.encode() + b"\0")
    return digest.hexdigest()[:12]


#: deals this process has solved (a worker's first deal runs in a fresh process)
_TASKS_RUN = 0


def _replays(game_id: str, number: int, moves: Sequence[str]) -> bool:
    """Whether ``moves`` play through the checked engine to a win."""
    game = new_game(game_id, number, undo=False)
    try:
        for m in moves:
            game.play(m)
    except PatienceError:
        return False
    return game.is_won()


def _solve_one(game_id: str, number: int, budget: Budget) -> tuple[DealResult, bool]:
    """Solve one deal (in a worker); also says whether this process was fresh."""
    global _TASKS_RUN
    fresh = _TASKS_RUN == 0
    _TASKS_RUN += 1
    try:
        r = solve(game_id, number, budget=budget)
    except Exception as e:  # (a study's error names the deal it came from)
        raise RuntimeError(f"{game_id} #{number}: the solver failed: {e!r}") from e
    replayed = _replays(game_id, number, r.moves) if r.outcome == "solved" else None
    deal = DealResult(
        number=number,
        outcome=r.outcome,
        limit=r.limit if r.outcome == "limit" else None,
        seconds=r.seconds,
        states=r.states,
        unique_states=r.unique_states,
        depth=r.depth,
        moves=len(r.moves),
        replayed=replayed,
        game=game_id,
    )
    return deal, fresh


def _needs_fresh_process(deal: DealResult, fresh: bool) -> bool:
    return deal.outcome == "limit" and deal.limit == "memory" and not fresh


def _take(
    deal: DealResult,
    fresh: bool,
    results: list[DealResult],
    retry: list[int],
    progress: ProgressCallback | None,
) -> None:
    """A deal back from a worker: kept and reported, or (stopped by the memory cap in a
    process that had run deals before) left for a fresh process."""
    if _needs_fresh_process(deal, fresh):
        retry.append(deal.number)
        return
    results.append(deal)
    if progress:
        progress(deal)


def parse_numbers(text: str) -> list[int]:
    """Game numbers from ``text``: numbers and ranges separated by commas (``1-3,7``), or
    ``@FILE``, a JSON list of numbers in that file. Raises ValueError, naming the part
    it could not read.

    >>> parse_numbers("1-3,7")
    [1, 2, 3, 7]
    >>> parse_numbers("5-x")
    Traceback (most recent call last):
    ...
    ValueError: game numbers: '5-x' is neither a number nor a range such as 1-50
    """
    if text.startswith("@"):
        path = Path(text[1:])
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ValueError(f"game numbers: cannot read {path} as JSON: {e}") from e
        if not isinstance(data, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in data
        ):
            raise ValueError(f"game numbers: {path} must hold a JSON list of integers")
        return list(data)
    out: list[int] = []
    for part in text.split(","):
        lo, dash, hi = part.strip().partition("-")
        try:
            first = int(lo)
            last = int(hi) if dash else first
        except ValueError:
            raise ValueError(
                f"game numbers: {part.strip()!r} is neither a number nor a range such as 1-50"
            ) from None
        if last < first:
            raise ValueError(f"game numbers: the range {part.strip()!r} runs backwards")
        out.extend(range(first, last + 1))
    return out


def format_numbers(numbers: Iterable[int]) -> str:
    """Game numbers as :func:`parse_numbers` reads them back: sorted, each once, runs of
    consecutive numbers as ranges.

    >>> format_numbers([3, 1, 2, 7, 9, 10, 2])
    '1-3,7,9-10'
    >>> parse_numbers(format_numbers([3, 1, 2, 7, 9, 10]))
    [1, 2, 3, 7, 9, 10]
    """
    parts: list[str] = []
    ordered = sorted(set(numbers))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ",".join(parts)


def _check_numbers(game_id: str, numbers: Iterable[int]) -> list[int]:
    given = list(numbers)
    if not given:
        raise ValueError("a study needs at least one game number")
    for n in given:
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_GAME_NUMBER:
            raise ValueError(
                f"game numbers must be integers from 0 to {MAX_GAME_NUMBER}; got {n!r}"
            )
    out = sorted(set(given))
    new_game(game_id, out[0])  # raises early, in this process, if the deal cannot be made
    return out


def run_study(
    game_id: str,
    numbers: Iterable[int],
    budget: Budget | None = None,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: ProgressCallback | None = None,
    start_method: str | None = None,
) -> StudyResult:
    """Solve each game number of ``game_id`` within ``budget`` and gather the results.

    ``workers`` is the number of local processes (default: ``os.cpu_count()``;
    1 solves in this process). With ``ray_address`` (an address such as
    ``ray://host:10001`` or ``auto``, or ``local`` for a new local Ray
    instance of ``workers`` CPUs) each deal is a Ray task instead.
    ``progress`` is called with each :class:`DealResult` as it finishes.
    ``start_method`` is the :mod:`multiprocessing` start method of the local
    pool (default: the platform's; ``spawn`` is the safe choice when this
    process runs threads, and then, as always with ``spawn``, a script must
    call ``run_study`` under ``if __name__ == "__main__":``).
    Duplicate numbers are solved once; the deals come back in ascending
    game-number order. Raises :class:`~patiencekit.errors.UnknownGameError`
    for an unknown game and ValueError for no or bad numbers. An error or
    interruption part way (a deal's solver failing, Ctrl-C) leaves with the
    deals finished before it: :func:`finished_before` reads them off the exception.
    """
    rules = get_rules(game_id)
    game_id = rules.id
    budget = budget or Budget(seconds=10.0)
    todo = _check_numbers(game_id, numbers)
    if workers is None:
        workers = os.cpu_count() or 1
    if workers < 1:
        raise ValueError(f"workers must be at least 1; got {workers}")
    started = datetime.now(UTC).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    backend = "ray" if ray_address is not None else "inline" if workers == 1 else "local"

    def study(deals: Iterable[DealResult]) -> StudyResult:
        return StudyResult(
            game=game_id,
            budget=budget,
            deals=tuple(sorted(deals, key=lambda d: d.number)),
            backend=backend,
            workers=workers,
            wall_seconds=time.perf_counter() - t0,
            started=started,
        )

    finished: list[DealResult] = []

    def collect(deal: DealResult) -> None:
        finished.append(deal)
        if progress:
            progress(deal)

    try:
        if ray_address is not None:
            results = _run_ray(game_id, todo, budget, workers, ray_address, collect)
        elif workers == 1:
            results = _run_inline(game_id, todo, budget, collect, start_method)
        else:
            results = _run_local(game_id, todo, budget, workers, collect, start_method)
    except BaseException as e:
        vars(e)[_FINISHED] = study(finished)
        raise
    return study(results)


#: where an exception leaving :func:`run_study` part way keeps the deals finished before it
_FINISHED = "patiencekit_finished"


def finished_before(error: BaseException) -> StudyResult | None:
    """The deals a study finished before ``error`` stopped :func:`run_study` (None for
    an error that did not come out of a study's run).

    >>> finished_before(ValueError("not from a study")) is None
    True
    """
    partial = vars(error).get(_FINISHED)
    return partial if isinstance(partial, StudyResult) else None


def _run_inline(
    game_id: str,
    todo: list[int],
    budget: Budget,
    progress: ProgressCallback | None,
    start_method: str | None,
) -> list[DealResult]:
    results: list[DealResult] = []
    retry: list[int] = []
    for n in todo:
        _take(*_solve_one(game_id, n, budget), results, retry, progress)
    if retry:
        results += _run_fresh(game_id, retry, budget, 1, progress, start_method)
    return results


def _run_local(
    game_id: str,
    todo: list[int],
    budget: Budget,
    workers: int,
    progress: ProgressCallback | None,
    start_method: str | None,
) -> list[DealResult]:
    results: list[DealResult] = []
    retry: list[int] = []
    context = multiprocessing.get_context(start_method)
    with ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=context) as pool:
        pending: set[Future[tuple[DealResult, bool]]] = {
            pool.submit(_solve_one, game_id, n, budget) for n in todo
        }
        done: set[Future[tuple[DealResult, bool]]] = set()

        def report(fut: Future[tuple[DealResult, bool]]) -> None:
            _take(*fut.result(), results, retry, progress)

        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                while done:
                    report(done.pop())
        except BaseException:
            for fut in pending:
                fut.cancel()
            # the deals already running finish anyway (the pool waits for them on its
            # way out), as have those done but not yet reported: report them too, so
            # that a study stopped by an error or Ctrl-C keeps them (a second Ctrl-C
            # still stops at once)
            for fut in [*done, *pending]:
                if fut.cancelled():
                    continue
                try:
                    report(fut)
                except Exception:  # (that deal's own error: it has nothing to keep)
                    continue
            raise
    if retry:
        results += _run_fresh(game_id, sorted(retry), budget, workers, progress, start_method)
    return results


def _run_fresh(
    game_id: str,
    todo: list[int],
    budget: Budget,
    workers: int,
    progress: ProgressCallback | None,
    start_method: str | None,
) -> list[DealResult]:
    """Solve each deal in a process of its own, ``workers`` at a time.

    The processes come from a fork server wherever there is one, whatever
    ``start_method`` says: the memory budget reads the process's resident memory, and a
    child forked from this process starts holding this process's pages (and on systems
    without ``/proc`` the budget reads the peak, which a spawned child, forked before it
    execs, inherits). So after this process has solved a big deal inline, each deal
    retried that way could hit the memory limit again at once. The fork server's
    children start from the small server instead (and, forked from a process without
    threads, they are as safe as spawned ones)."""
    results: list[DealResult] = []
    if "forkserver" in multiprocessing.get_all_start_methods():
        start_method = "forkserver"
    context = multiprocessing.get_context(start_method or "spawn")
    for start in range(0, len(todo), workers):
        batch = todo[start : start + workers]
        pools = [ProcessPoolExecutor(max_workers=1, mp_context=context) for _ in batch]
        try:
            futures = [
                p.submit(_solve_one, game_id, n, budget)
                for p, n in zip(pools, batch, strict=True)
            ]
            for fut in futures:
                deal, _ = fut.result()
                results.append(deal)
                if progress:
                    progress(deal)
        finally:
            for p in pools:
                p.shutdown(wait=True, cancel_futures=True)
    return results


RAY_MISSING = (
    "the Ray backend needs Ray: pip install 'patiencekit[ray]' (or pip install 'ray[default]')"
)


def _run_ray(
    game_id: str,
    todo: list[int],
    budget: Budget,
    workers: int,
    address: str,
    progress: ProgressCallback | None,
) -> list[DealResult]:
    try:
        import ray
    except ImportError:
        raise RuntimeError(RAY_MISSING) from None
    import patiencekit

    started_here = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {
            # ship this very package to the workers, so they run the same solver
            "runtime_env": {"py_modules": [os.path.dirname(patiencekit.__file__)]},
            "log_to_driver": False,
        }
        if address == "local":
            kwargs["num_cpus"] = workers
            kwargs["include_dashboard"] = False
        # Ray puts its own SIGTERM handler in (which ends the process at once): keep the
        # caller's, as the study command's, which stops the study and keeps its deals
        handler = signal.getsignal(signal.SIGTERM)
        ray.init(address=address, **kwargs)
        if callable(handler) and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, handler)
        started_here = True
    try:
        solve_task = ray.remote(num_cpus=1)(_solve_one)
        results: list[DealResult] = []
        retry: list[int] = []
        pending = [solve_task.remote(game_id, n, budget) for n in todo]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                deal, fresh = ray.get(ref)
                _take(deal, fresh, results, retry, progress)
        if retry:
            # max_calls=1: a new worker process for each of these deals
            fresh_task = ray.remote(num_cpus=1, max_calls=1)(_solve_one)
            pending = [fresh_task.remote(game_id, n, budget) for n in sorted(retry)]
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    deal, _ = ray.get(ref)
                    results.append(deal)
                    if progress:
                        progress(deal)
        return results
    finally:
        if started_here:
            ray.shutdown()


# -- the shipped list of winnable game numbers ------------------------------------------

#: how the generated module introduces itself
WINNABLE_DOC = '''"""Game numbers the solver proved winnable, per game id (GENERATED: do not edit).

Every number here was solved by :func:`patiencekit.solver.solve` (thoughtful:
the solver knows the face-down cards and the stock order) and its solution
replayed to a win through the checked engine. The study tool writes and
extends this module; :data:`SOURCES` lists, per game, the commands that did::

    patiencekit study GAME --deals N --first M --max-seconds S --write-winnable

Picture Patience's numbers come from ``tools/picture_sweep.py`` instead (a beam
in C over millions of deals), each line replayed through the checked engine
and kept in ``tests/data/picture_patience_wins.json``, which the tests replay.

A game missing here, or with few numbers, is one where the solver found few
wins within its budget, not necessarily a game that is seldom winnable.
"""'''


def read_winnable_module(
    path: str | Path,
) -> tuple[dict[str, tuple[int, ...]], dict[str, tuple[str, ...]]]:
    """``WINNABLE`` and ``SOURCES`` of a generated module, read without importing it.

    A missing file reads as empty; a file without a readable ``WINNABLE``
    raises ValueError naming the file.
    """
    import ast

    path = Path(path)
    if not path.exists():
        return {}, {}
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as e:
        raise ValueError(f"{path} is not valid Python: {e}") from None
    found: dict[str, Any] = {}
    for node in tree.body:
        target = None
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            target, value = node.target.id, node.value
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            target, value = node.targets[0].id, node.value
        if target in ("WINNABLE", "SOURCES") and value is not None:
            try:
                found[target] = ast.literal_eval(value)
            except ValueError:
                raise ValueError(f"{path}: {target} is not a plain literal") from None
    if "WINNABLE" not in found:
        raise ValueError(f"{path} has no WINNABLE dict")
    winnable: dict[str, tuple[int, ...]] = {}
    for game, numbers in dict(found["WINNABLE"]).items():
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
            raise ValueError(f"{path}: WINNABLE[{game!r}] holds something else than integers")
        winnable[str(game)] = tuple(numbers)
    raw_sources = dict(found.get("SOURCES", {}))
    sources = {str(g): tuple(str(c) for c in cs) for g, cs in raw_sources.items()}
    return winnable, sources


def _wrapped(items: Sequence[str], indent: str, width: int = 99) -> list[str]:
    lines: list[str] = []
    line = indent
    for item in items:
        piece = item + ","
        if line != indent and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = indent
        line += piece if line == indent else " " + piece
    if line != indent:
        lines.append(line)
    return lines


def winnable_module_text(
    winnable: Mapping[str, Iterable[int]], sources: Mapping[str, Iterable[str]]
) -> str:
    """The text of the generated module: games sorted by id, numbers ascending, no repeats.

    The same lists always give the same text.
    """
    games = sorted(g for g, numbers in winnable.items() if list(numbers))
    all_sources = sorted({c for g in games for c in sources.get(g, ())})
    out = [WINNABLE_DOC, ""]
    out.append("# GENERATED by the study tool (patiencekit study ... --write-winnable), from:")
    for c in all_sources:
        line = f"#   {c}"
        out.append(line if len(line) <= 100 else line + "  # noqa: E501")
    if not all_sources:
        out.append("#   (nothing yet)")
    out += ["", "from __future__ import annotations", "", '__all__ = ["SOURCES", "WINNABLE"]', ""]
    out.append("#: game id -> game numbers proved winnable, ascending")
    out.append("WINNABLE: dict[str, tuple[int, ...]] = {" + ("" if games else "}"))
    for g in games:
        numbers = sorted(set(winnable[g]))
        out.append(f"    {json.dumps(g)}: (")
        out += _wrapped([str(n) for n in numbers], " " * 8)
        out.append("    ),")
    if games:
        out.append("}")
    out.append("")
    out.append("#: game id -> the commands that found its numbers (date: command)")
    out.append("SOURCES: dict[str, tuple[str, ...]] = {" + ("" if games else "}"))
    for g in games:
        out.append(f"    {json.dumps(g)}: (")
        for c in sorted(set(sources.get(g, ()))):
            line = f"        {json.dumps(c)},"
            out.append(line if len(line) <= 100 else line + "  # noqa: E501")
        out.append("    ),")
    if games:
        out.append("}")
    return "\n".join(out) + "\n"


def merge_winnable(
    path: str | Path, game_id: str, numbers: Iterable[int], command: str | None = None
) -> tuple[int, int]:
    """Add proved-winnable ``numbers`` of ``game_id`` (and the ``command`` that found them) to
    the generated module at ``path``, rewriting it whole. Returns (numbers added, numbers now).
    """
    path = Path(path)
    winnable, sources = read_winnable_module(path)
    before = set(winnable.get(game_id, ()))
    after = before | set(numbers)
    if after:
        winnable[game_id] = tuple(sorted(after))
        if command and after != before:
            sources[game_id] = tuple(sorted({*sources.get(game_id, ()), command}))
    text = winnable_module_text(winnable, sources)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return len(after) - len(before), len(after)
