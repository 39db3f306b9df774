"""``patiencekit study``: how often can a game be won? Solve many deals and count.

    patiencekit study GAME --deals N [--first M] [--max-seconds S] [--workers K]
                           [--ray ADDRESS] [--csv FILE] [--json FILE|-] [--write-winnable]
    patiencekit study GAME --numbers 1-50,77|@FILE [...]

Solves game numbers M .. M+N-1 (M is 1 unless given), or the numbers of
``--numbers`` (ranges, or a JSON list in a file), each within S seconds,
on K local processes (default: one per CPU) or on a Ray cluster, with a
progress bar on stderr (deals done, solved so far, time left), then prints a
summary table: solved / unsolvable / limit, the win rate among the decided
deals with its 95 % Wilson interval, the bounds when some deals were not
decided, and time percentiles. ``--csv`` writes one row per deal; ``--json``
writes the summary and the deals (``-`` for stdout, which then holds the JSON
alone). ``--write-winnable`` merges the numbers proved winnable into the
shipped list (:mod:`patiencekit.games.winnable_numbers`).

Bad input (an unknown game, N < 1, ...) prints ``error: ...`` on stderr and
exits with status 2. A study that stops early (a deal's solver fails, Ctrl-C, or a
SIGTERM) keeps what it finished: with ``--json FILE`` or ``--csv FILE`` the finished
deals go to ``FILE`` with ``.partial`` before its suffix (the JSON's ``meta.stopped``
says why), and the message names the numbers left to run (``--numbers``). It exits with
status 1 after a solver's error, 130 after an interruption.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from patiencekit import __version__
from patiencekit.deals import MAX_GAME_NUMBER
from patiencekit.errors import PatienceError
from patiencekit.games import get_rules
from patiencekit.solver import Budget
from patiencekit.solver.study import (
    DealResult,
    StudyResult,
    Summary,
    finished_before,
    format_numbers,
    merge_winnable,
    parse_numbers,
    run_study,
    solver_fingerprint,
    write_csv,
    write_json,
)

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_STOPPED",
    "EXIT_USAGE",
    "WINNABLE_MODULE",
    "partial_path",
    "study",
    "study_command",
]

#: exit status for any error in the input
EXIT_USAGE = 2
#: exit status of a study stopped by a deal's solver error
EXIT_STOPPED = 1
#: exit status of a study interrupted (Ctrl-C, SIGTERM)
EXIT_INTERRUPTED = 130

#: the shipped list that ``--write-winnable`` extends
WINNABLE_MODULE = Path(__file__).resolve().parent / "games" / "winnable_numbers.py"

DEFAULT_SECONDS = 10.0
DEFAULT_MEMORY_MB = 1024


def _fail(message: str) -> NoReturn:
    Console(stderr=True, highlight=False).print(
        Text(f"error: {message}", style="red"), soft_wrap=True
    )
    raise typer.Exit(EXIT_USAGE)


def partial_path(path: str | Path) -> Path:
    """Where a stopped study writes the deals it finished, beside ``path``.

    >>> partial_path("runs/kings.json").as_posix()
    'runs/kings.partial.json'
    """
    p = Path(path)
    return p.with_name(f"{p.stem}.partial{p.suffix}")


class _Terminated(Exception):
    """A SIGTERM, raised in the main thread so that the study stops as on Ctrl-C."""


def _interruption(e: BaseException) -> BaseException | None:
    """The Ctrl-C or SIGTERM behind ``e``, if any: ``e`` itself, or one it was raised from
    (a signal handler's exception raised inside Ray's C code comes out as a SystemError
    "returned a result with an exception set", caused by it)."""
    seen: set[int] = set()
    at: BaseException | None = e
    while at is not None and id(at) not in seen:
        if isinstance(at, (KeyboardInterrupt, _Terminated)):
            return at
        seen.add(id(at))
        at = at.__cause__ or at.__context__
    return None


@contextmanager
def _sigterm_stops() -> Iterator[None]:
    """While inside, a SIGTERM raises :class:`_Terminated` (so the workers are shut down
    and the finished deals kept, instead of the process dying with its pool orphaned)."""

    def handler(signum: int, frame: object) -> None:
        raise _Terminated

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _fmt_seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def _load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):  # not on every platform
        return None


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def study_command(
    game: str,
    *,
    deals: int | None = None,
    first: int = 1,
    max_seconds: float = DEFAULT_SECONDS,
    max_states: int | None = None,
    memory_mb: int = DEFAULT_MEMORY_MB,
    workers: int | None = None,
    ray: str | None = None,
    numbers: str | None = None,
) -> str:
    """The canonical command line of a study (what is kept with its results): the deals
    as ``--deals``/``--first``, or as ``numbers`` (the ``--numbers`` text) when given."""
    parts = ["patiencekit", "study", game]
    if numbers is not None:
        parts += ["--numbers", numbers]
    else:
        parts += ["--deals", str(deals), "--first", str(first)]
    parts += ["--max-seconds", f"{max_seconds:g}"]
    if max_states is not None:
        parts += ["--max-states", str(max_states)]
    if memory_mb != DEFAULT_MEMORY_MB:
        parts += ["--memory-mb", str(memory_mb)]
    if ray is not None:
        parts += ["--ray", ray]
    if workers is not None:
        parts += ["--workers", str(workers)]
    return shlex.join(parts)


def _keep_partial(
    partial: StudyResult,
    numbers: Sequence[int],
    why: str,
    *,
    csv_path: Path | None,
    json_out: str | None,
    err: Console,
) -> None:
    """Write the deals a stopped study finished beside the files asked for, and say what
    is left to run."""
    done = {d.number for d in partial.deals}
    left = [n for n in numbers if n not in done]
    err.print(Text(f"error: the study stopped: {why}", style="red"), soft_wrap=True)
    wrote: list[str] = []
    for path, write in ((csv_path, write_csv), (json_out, write_json)):
        if path is None:
            continue
        target = partial_path(path)
        try:
            write(partial, target)
        except OSError as e:
            err.print(f"cannot write {target}: {e}")
            continue
        wrote.append(os.fspath(target))
    kept = (
        f"; written to {' and '.join(wrote)}" if wrote else " (give --json or --csv to keep them)"
    )
    err.print(
        f"{len(partial.deals)} of {len(numbers)} deals finished{kept}. "
        f"Left to run: --numbers {format_numbers(left)}",
        soft_wrap=True,
    )


def summary_table(result: StudyResult) -> Table:
    """The summary of a study as a Rich table."""
    s: Summary = result.summary
    numbers = [d.number for d in result.deals]
    table = Table(title=f"{result.game}: {s.total} deals", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("game numbers", f"{min(numbers)} .. {max(numbers)}" if numbers else "-")
    table.add_row(
        "budget per deal",
        f"{result.budget.seconds:g} s"
        + (f", {result.budget.states} states" if result.budget.states else "")
        + (f", {result.budget.memory_mb} MiB" if result.budget.memory_mb else ""),
    )
    table.add_row("solved", str(s.solved))
    table.add_row("unsolvable (proved)", str(s.unsolvable))
    limits = ", ".join(f"{k} {v}" for k, v in sorted(s.limits.items()))
    table.add_row("limit (undecided)", f"{s.limit}" + (f" ({limits})" if limits else ""))
    if s.win_rate is not None and s.win_rate_ci is not None:
        lo, hi = s.win_rate_ci
        table.add_row(
            "win rate among decided",
            f"{_pct(s.win_rate)} (95% CI {_pct(lo)} .. {_pct(hi)}, {s.decided} deals)",
        )
    else:
        table.add_row("win rate among decided", "- (no deal decided)")
    if s.bounds is not None and s.limit:
        table.add_row(
            "win rate bounds",
            f"{_pct(s.bounds[0])} .. {_pct(s.bounds[1])} "
            "(no undecided deal winnable .. all of them)",
        )
    t = s.seconds
    table.add_row(
        "time p50 / p90 / p99 / max",
        " / ".join(_fmt_seconds(t[k]) for k in ("p50", "p90", "p99", "max")),
    )
    table.add_row(
        "wall time",
        f"{result.wall_seconds:.1f} s on {result.workers} {result.backend} worker(s)",
    )
    if s.replay_failures:
        table.add_row(
            Text("replay failures", style="red"),
            Text(f"{s.replay_failures} solutions did not replay to a win", style="red"),
        )
    return table


def study(
    game: Annotated[str, typer.Argument(help="The game id (see `patiencekit games`).")],
    deals: Annotated[
        int | None,
        typer.Option(
            "--deals", "-d", help="How many deals (game numbers) to solve.", show_default=False
        ),
    ] = None,
    first: Annotated[int, typer.Option("--first", help="The first game number.")] = 1,
    numbers_text: Annotated[
        str | None,
        typer.Option(
            "--numbers",
            metavar="1-50,77|@FILE",
            help="These game numbers instead of --deals/--first: ranges, or a JSON list in FILE.",
            show_default=False,
        ),
    ] = None,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", help="Time budget per deal, in seconds.")
    ] = DEFAULT_SECONDS,
    max_states: Annotated[
        int | None,
        typer.Option("--max-states", help="Positions budget per deal.", show_default=False),
    ] = None,
    memory_mb: Annotated[
        int,
        typer.Option(
            "--memory-mb", help="Memory budget per deal (the process's resident memory), in MiB."
        ),
    ] = DEFAULT_MEMORY_MB,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", "-w", help="Local processes (default: one per CPU).", show_default=False
        ),
    ] = None,
    ray_address: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Run on a Ray cluster (e.g. auto, ray://host:10001, or local).",
            show_default=False,
        ),
    ] = None,
    csv_path: Annotated[
        Path | None,
        typer.Option("--csv", metavar="FILE", help="Write one CSV row per deal.", dir_okay=False),
    ] = None,
    json_out: Annotated[
        str | None,
        typer.Option("--json", metavar="FILE|-", help="Write summary and deals as JSON."),
    ] = None,
    write_winnable: Annotated[
        bool,
        typer.Option(
            "--write-winnable", help="Merge the proved-winnable numbers into the shipped list."
        ),
    ] = False,
    winnable_file: Annotated[
        Path | None,
        typer.Option(
            "--winnable-file",
            metavar="FILE",
            help="The module --write-winnable extends (default: the shipped one).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Solve many deals of a game: win rate with a 95% interval, time percentiles, CSV/JSON."""
    try:
        rules = get_rules(game)
    except PatienceError as e:
        _fail(str(e))
    if numbers_text is not None:
        if deals is not None or first != 1:
            _fail("--numbers names the deals itself: give it without --deals and --first.")
        try:
            numbers = sorted(set(parse_numbers(numbers_text)))
        except ValueError as e:
            _fail(str(e))
        if not numbers:
            _fail("--numbers names no game number.")
        bad = [n for n in numbers if not 0 <= n <= MAX_GAME_NUMBER]
        if bad:
            _fail(f"game numbers must be from 0 to {MAX_GAME_NUMBER}; --numbers has {bad[0]}.")
    else:
        if deals is None:
            _fail("say which deals: --deals N (from --first, 1 unless given) or --numbers.")
        if deals < 1:
            _fail(f"--deals must be at least 1; got {deals}.")
        if first < 0 or first + deals - 1 > MAX_GAME_NUMBER:
            _fail(f"game numbers must be from 0 to {MAX_GAME_NUMBER}; --first is {first}.")
        numbers = list(range(first, first + deals))
    if not max_seconds > 0:
        _fail(f"--max-seconds must be more than 0; got {max_seconds}.")
    if max_states is not None and max_states < 1:
        _fail(f"--max-states must be at least 1; got {max_states}.")
    if memory_mb < 1:
        _fail(f"--memory-mb must be at least 1; got {memory_mb}.")
    if workers is not None and workers < 1:
        _fail(f"--workers must be at least 1; got {workers}.")
    to_stdout = json_out == "-"
    out = Console(stderr=to_stdout, highlight=False)
    err = Console(stderr=True, highlight=False)
    budget = Budget(seconds=max_seconds, states=max_states, memory_mb=memory_mb)
    command = study_command(
        rules.id,
        deals=deals,
        first=first,
        max_seconds=max_seconds,
        max_states=max_states,
        memory_mb=memory_mb,
        workers=workers,
        ray=ray_address,
        numbers=numbers_text,
    )
    load_before = _load_average()
    # the solver's source as the workers load it: taken before they start, so that an edit
    # made during a long run is not mistaken for the search that ran
    fingerprint = solver_fingerprint()
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("solved {task.fields[solved]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, transient=False) as bar:
        total = len(numbers)
        task: TaskID = bar.add_task(rules.id, total=total, solved=0)
        solved = done = 0
        # without a terminal the bar is not drawn: a plain line every tenth of the deals
        step = 0 if err.is_terminal else max(1, total // 10)

        def advance(deal: DealResult) -> None:
            nonlocal solved, done
            solved += deal.outcome == "solved"
            done += 1
            bar.update(task, advance=1, solved=solved)
            if step and (done % step == 0 or done == total):
                elapsed = bar.tasks[0].elapsed or 0.0
                err.print(f"{rules.id}: {done}/{total} deals, {solved} solved, {elapsed:.0f} s")

        stopped: str | None = None
        partial: StudyResult | None = None
        status = EXIT_STOPPED
        try:
            with _sigterm_stops():
                result = run_study(
                    rules.id,
                    numbers,
                    budget,
                    workers=workers,
                    ray_address=ray_address,
                    progress=advance,
                    # a progress bar runs a thread: never fork under it
                    start_method="spawn",
                )
        except (RuntimeError, ValueError) as e:
            partial = finished_before(e)
            if partial is None or not partial.deals:
                _fail(str(e))
            stopped = str(e)
        except (KeyboardInterrupt, _Terminated, SystemError) as e:
            signal_ = _interruption(e)
            if signal_ is None:
                raise
            partial = finished_before(e)
            kind = "Ctrl-C" if isinstance(signal_, KeyboardInterrupt) else "SIGTERM"
            stopped = f"interrupted ({kind})"
            status = EXIT_INTERRUPTED
    meta: dict[str, object] = {
        "command": command,
        "patiencekit": __version__,
        "solver": fingerprint,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        # times and time limits depend on how busy the machine was: 1-minute load averages
        "load_average": {"start": load_before, "end": _load_average()},
    }
    if stopped is not None:
        if partial is None:  # (stopped before the study's run began: nothing finished)
            partial = StudyResult(game=rules.id, budget=budget, deals=())
        _keep_partial(
            replace(partial, meta={**meta, "stopped": stopped}),
            numbers,
            stopped,
            csv_path=csv_path,
            json_out=None if to_stdout else json_out,
            err=err,
        )
        raise typer.Exit(status)
    result = replace(result, meta=meta)
    out.print(summary_table(result))
    s = result.summary
    if s.limit and s.bounds is not None:
        out.print(
            Text(
                f"{s.limit} of {s.total} deals ran into the limit: the win rate is only known "
                f"to lie between {_pct(s.bounds[0])} and {_pct(s.bounds[1])}.",
                style="yellow",
            ),
            soft_wrap=True,
        )
    if csv_path is not None:
        write_csv(result, csv_path)
        err.print(f"wrote {len(result.deals)} rows to {csv_path}")
    if json_out is not None:
        if to_stdout:
            sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
        else:
            write_json(result, json_out)
            err.print(f"wrote the study to {json_out}")
    if write_winnable:
        target = winnable_file or WINNABLE_MODULE
        date = result.started[:10]
        try:
            added, now = merge_winnable(
                target, rules.id, result.winnable, f"{date}: {command} --write-winnable"
            )
        except (OSError, ValueError) as e:
            _fail(f"cannot update {target}: {e}")
        err.print(f"{os.fspath(target)}: {added} new winnable numbers for {rules.id}, {now} in all")
