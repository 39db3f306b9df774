"""Run winnability studies and turn their JSON into the table of docs/winnability.md.

    python tools/winnable.py study GAME --deals N ... [--json FILE] [--write-winnable]
    python tools/winnable.py table STUDY.json [STUDY.json ...]

``study`` is exactly ``patiencekit study`` (the same function; usable before
the command is registered in the CLI, and without installing the package).
``table`` prints one Markdown row per study JSON (as written by ``--json``):
the counts, the win rate among decided deals with its 95 % Wilson interval,
the bounds, p50/p90 time and the command that made it, with its date.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

import typer  # noqa: E402

from patiencekit.solver.study import StudyResult, study_from_json  # noqa: E402
from patiencekit.study_cli import study  # noqa: E402

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False)
app.command("study")(study)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _secs(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.1f} s"


def table_row(result: StudyResult) -> str:
    """One Markdown row of the winnability table."""
    s = result.summary
    if s.win_rate is not None and s.win_rate_ci is not None:
        rate = f"{_pct(s.win_rate)}% ({_pct(s.win_rate_ci[0])}-{_pct(s.win_rate_ci[1])})"
    else:
        rate = "- (none decided)"
    bounds = "-"
    if s.bounds is not None and s.bounds_ci is not None:
        bounds = f"{_pct(s.bounds[0])}-{_pct(s.bounds[1])}%"
        if s.limit:
            bounds += f" ({_pct(s.bounds_ci[0])}-{_pct(s.bounds_ci[1])})"
    cells = [
        result.game,
        str(s.total),
        f"{result.budget.seconds:g} s",
        str(s.solved),
        str(s.unsolvable),
        str(s.limit),
        rate,
        bounds,
        f"{_secs(s.seconds['p50'])} / {_secs(s.seconds['p90'])}",
    ]
    return "| " + " | ".join(cells) + " |"


def command_row(result: StudyResult) -> str:
    """One Markdown row of the table of commands: what made the study, when, on what."""
    load = result.meta.get("load_average") or {}
    cells = [
        result.game,
        f"`{result.meta.get('command', '?')}`",
        result.started[:16].replace("T", " ") + " UTC",
        f"{result.wall_seconds:.0f} s",
        f"{load.get('start', '?')} / {load.get('end', '?')}",
        str(result.meta.get("solver", "?")),
    ]
    return "| " + " | ".join(cells) + " |"


TABLE_HEAD = (
    "| game | deals | budget | solved | unsolvable | limit "
    "| win rate among decided (95% CI) | bounds (95% CI ends) | time p50 / p90 |\n"
    "|---|--:|--:|--:|--:|--:|---|---|---|"
)

COMMANDS_HEAD = (
    "| game | command | started | wall | load avg start / end | solver |\n"
    "|---|---|---|--:|---|---|"
)


@app.command()
def table(
    files: Annotated[list[Path], typer.Argument(help="Study JSON files (from --json).")],
) -> None:
    """Print the Markdown tables (results, then commands) of the given studies."""
    studies = [study_from_json(f) for f in files]
    print(TABLE_HEAD)
    for result in studies:
        print(table_row(result))
    print()
    print(COMMANDS_HEAD)
    for result in studies:
        print(command_row(result))


if __name__ == "__main__":
    app()
