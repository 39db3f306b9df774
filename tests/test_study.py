"""The study tool: statistics on fixed results, CSV/JSON round trips, tiny real studies
(local pool, in-process, Ray), the ``study`` command, and the shipped winnable list."""

from __future__ import annotations

import ast
import io
import json
import math
import re
import shlex
import sys
from pathlib import Path

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

import patiencekit
from patiencekit.errors import UnknownGameError
from patiencekit.games import GAMES
from patiencekit.solver import Budget
from patiencekit.solver import study as study_mod
from patiencekit.solver.study import (
    DealResult,
    StudyResult,
    deals_from_csv,
    deals_to_csv,
    finished_before,
    format_numbers,
    merge_winnable,
    parse_numbers,
    percentile,
    read_csv,
    read_winnable_module,
    run_study,
    study_from_json,
    summarize,
    time_percentiles,
    wilson_interval,
    win_rate_bounds,
    winnable_module_text,
    write_csv,
    write_json,
)
from patiencekit.study_cli import study
from solver_budgets import positions

ROOT = Path(__file__).resolve().parent.parent

# -- a fixed set of small results -------------------------------------------------------

FIXED = [
    DealResult(
        1,
        "solved",
        seconds=0.5,
        states=100,
        unique_states=90,
        depth=80,
        moves=120,
        replayed=True,
        game="klondike",
    ),
    DealResult(
        2,
        "solved",
        seconds=1.0,
        states=200,
        unique_states=150,
        depth=99,
        moves=130,
        replayed=True,
        game="klondike",
    ),
    DealResult(
        3, "unsolvable", seconds=0.2, states=50, unique_states=50, depth=20, game="klondike"
    ),
    DealResult(
        4,
        "limit",
        limit="time",
        seconds=5.0,
        states=9000,
        unique_states=8000,
        depth=300,
        game="klondike",
    ),
    DealResult(
        5,
        "solved",
        seconds=0.1,
        states=10,
        unique_states=10,
        depth=9,
        moves=110,
        replayed=True,
        game="klondike",
    ),
    DealResult(
        6, "unsolvable", seconds=2.0, states=700, unique_states=600, depth=40, game="klondike"
    ),
    DealResult(
        7,
        "solved",
        seconds=0.3,
        states=30,
        unique_states=30,
        depth=29,
        moves=101,
        replayed=True,
        game="klondike",
    ),
    DealResult(
        8,
        "limit",
        limit="memory",
        seconds=3.0,
        states=5000,
        unique_states=4000,
        depth=200,
        game="klondike",
    ),
    DealResult(
        9,
        "solved",
        seconds=0.05,
        states=5,
        unique_states=5,
        depth=4,
        moves=99,
        replayed=True,
        game="klondike",
    ),
    # the solver said solved but its line did not replay: counted, flagged, never "winnable"
    DealResult(
        10,
        "solved",
        seconds=0.7,
        states=70,
        unique_states=70,
        depth=60,
        moves=140,
        replayed=False,
        game="klondike",
    ),
]


def hand_wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's interval in its textbook form (2nk + z^2 +- z sqrt(z^2 + 4k(n-k)/n)) / 2(n + z^2),
    written independently of the module's arrangement."""
    root = z * math.sqrt(z * z + 4 * k * (n - k) / n)
    return ((2 * k + z * z - root) / (2 * (n + z * z)), (2 * k + z * z + root) / (2 * (n + z * z)))


def test_counts_and_rates_of_the_fixed_results():
    s = summarize(FIXED)
    assert (s.total, s.solved, s.unsolvable, s.limit, s.decided) == (10, 6, 2, 2, 8)
    assert s.limits == {"time": 1, "memory": 1}
    assert s.win_rate == 0.75
    assert s.bounds == (0.6, 0.8)
    assert s.replay_failures == 1
    assert s.total_seconds == pytest.approx(12.85)


def test_wilson_interval_against_a_hand_computation():
    # 6 of 8, z = 1.96: by hand, centre = (0.75 + z^2/16) / (1 + z^2/8) = 0.668898,
    # half width = z * sqrt(0.75 * 0.25 / 8 + z^2 / 256) / (1 + z^2/8) = 0.259623
    lo, hi = summarize(FIXED).win_rate_ci or (None, None)
    assert lo == pytest.approx(0.409275, abs=1e-6)
    assert hi == pytest.approx(0.928521, abs=1e-6)
    assert (lo, hi) == pytest.approx(hand_wilson(6, 8), abs=1e-12)
    # the bounds' interval: Wilson's lower end of 6/10, upper end of 8/10
    assert summarize(FIXED).bounds_ci == pytest.approx(
        (hand_wilson(6, 10)[0], hand_wilson(8, 10)[1])
    )


@pytest.mark.parametrize(("k", "n"), [(0, 5), (5, 5), (1, 3), (820, 1000), (1788, 2000)])
def test_wilson_interval_shape(k, n):
    lo, hi = wilson_interval(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    assert (lo, hi) == pytest.approx(hand_wilson(k, n), abs=1e-12)
    assert (lo == 0.0) == (k == 0) and (hi == 1.0) == (k == n)


def test_wilson_interval_matches_published_lonelybot_draw1_interval():
    # solver notes: 1,788 / 2,000 = 89.40 %, Wilson 95 %: 87.97-90.67
    lo, hi = wilson_interval(1788, 2000)
    assert (round(100 * lo, 2), round(100 * hi, 2)) == (87.97, 90.67)


def test_wilson_interval_rejects_nonsense():
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
    with pytest.raises(ValueError):
        wilson_interval(-1, 2)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_time_percentiles_nearest_rank():
    # sorted: 0.05 0.1 0.2 0.3 0.5 0.7 1.0 2.0 3.0 5.0
    # p50 -> rank ceil(5) = 5 -> 0.5; p90 -> rank 9 -> 3.0; p99 -> rank ceil(9.9) = 10 -> 5.0
    assert time_percentiles(FIXED) == {"p50": 0.5, "p90": 3.0, "p99": 5.0, "max": 5.0}
    assert time_percentiles([]) == {"p50": None, "p90": None, "p99": None, "max": None}


def test_percentile_edges():
    values = list(range(1, 101))
    # 0.07 * 100 is 7.000000000000001 in floating point: still the 7th value
    assert [percentile(values, p) for p in (1, 7, 50, 90, 99, 100)] == [1, 7, 50, 90, 99, 100]
    assert percentile([4.0], 50) == 4.0
    assert percentile([3, 1, 2], 50) == 2
    assert percentile([1, 2, 3, 4], 50) == 2  # nearest rank: a measured value, never a mean
    for bad in (0, -5, 101):
        with pytest.raises(ValueError):
            percentile(values, bad)


def test_bounds_and_empty_summary():
    assert win_rate_bounds(0, 0, 0) is None
    assert win_rate_bounds(3, 1, 4) == (0.75, 1.0)
    with pytest.raises(ValueError):
        win_rate_bounds(3, 2, 4)
    s = summarize([])
    assert (s.total, s.win_rate, s.win_rate_ci, s.bounds, s.bounds_ci) == (
        0,
        None,
        None,
        None,
        None,
    )
    only_limits = summarize([DealResult(1, "limit", limit="time", seconds=1.0)])
    assert only_limits.win_rate is None and only_limits.bounds == (0.0, 1.0)


def test_winnable_numbers_need_a_replayed_solution():
    result = StudyResult(game="klondike", budget=Budget(seconds=5), deals=tuple(FIXED))
    assert result.winnable == (1, 2, 5, 7, 9)


# -- files ------------------------------------------------------------------------------


def test_csv_round_trip(tmp_path):
    path = tmp_path / "deals.csv"
    write_csv(FIXED, path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "game,number,outcome,limit,seconds,states,unique_states,depth,moves,replayed"
    assert lines[4] == "klondike,4,limit,time,5.0,9000,8000,300,0,"
    assert lines[10] == "klondike,10,solved,,0.7,70,70,60,140,false"
    assert len(lines) == 1 + len(FIXED)
    assert read_csv(path) == FIXED


def test_csv_reader_names_the_bad_row():
    buf = io.StringIO()
    deals_to_csv(FIXED[:2], buf)
    bad = buf.getvalue().replace("2,solved", "2,won")
    with pytest.raises(ValueError, match="line 3"):
        deals_from_csv(io.StringIO(bad))
    with pytest.raises(ValueError, match="lacks the column"):
        deals_from_csv(io.StringIO("number,outcome\n1,solved\n"))


def test_json_round_trip(tmp_path):
    study = StudyResult(
        game="klondike",
        budget=Budget(seconds=5, states=None, memory_mb=512),
        deals=tuple(FIXED),
        backend="local",
        workers=2,
        wall_seconds=7.5,
        started="2026-01-02T03:04:05+00:00",
        meta={"command": "patiencekit study klondike --deals 10"},
    )
    path = tmp_path / "study.json"
    write_json(study, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["summary"]["solved"] == 6 and data["summary"]["limits"] == {"memory": 1, "time": 1}
    assert data["summary"]["win_rate_ci"] == pytest.approx(list(hand_wilson(6, 8)))
    assert data["summary"]["seconds"] == {"p50": 0.5, "p90": 3.0, "p99": 5.0, "max": 5.0}
    assert data["numbers"] == {"count": 10, "first": 1, "last": 10}
    assert [d["number"] for d in data["deals"]] == list(range(1, 11))
    back = study_from_json(path)
    assert back == study
    assert study_from_json(data) == study
    buf = io.StringIO()
    write_json(study, buf)
    assert study_from_json(io.StringIO(buf.getvalue())) == study


# -- running ----------------------------------------------------------------------------

#: what the solver finds for captured-queens 1..4 (each in milliseconds)
CQ_EXPECTED = {1: "solved", 2: "solved", 3: "solved", 4: "unsolvable"}
#: their budget: positions, not seconds (each needs at most 390 positions, deals 1-6 at most
#: 526 with the command's large time budget)
CQ_BUDGET = positions(2_000)
#: the command needs a time budget (--max-seconds): one so large that no part of a search
#: ends by time, so that --max-states decides
CQ_ARGS = ["--max-seconds", "600", "--max-states", "2000"]


def test_tiny_study_on_a_process_pool_comes_back_in_order():
    seen: list[int] = []
    result = run_study(
        "Captured_Queens",
        [4, 2, 3, 1, 2],
        CQ_BUDGET,
        workers=2,
        progress=lambda d: seen.append(d.number),
    )
    assert result.game == "captured-queens" and result.backend == "local" and result.workers == 2
    assert [d.number for d in result.deals] == [1, 2, 3, 4]
    assert sorted(seen) == [1, 2, 3, 4]  # each deal reported once, duplicates solved once
    assert {d.number: d.outcome for d in result.deals} == CQ_EXPECTED
    s = result.summary
    assert (s.solved, s.unsolvable, s.limit, s.total) == (3, 1, 0, 4)
    for d in result.deals:
        assert d.game == "captured-queens"
        assert d.replayed is (True if d.outcome == "solved" else None)
        assert (d.moves > 0) == (d.outcome == "solved")
        assert 2_000 > d.states >= d.unique_states > 0 and d.seconds >= 0
    assert result.winnable == (1, 2, 3)


def test_in_process_study_agrees_with_the_pool():
    result = run_study("captured-queens", [1, 2, 3, 4], CQ_BUDGET, workers=1)
    assert result.backend == "inline"
    assert {d.number: d.outcome for d in result.deals} == CQ_EXPECTED


def test_a_solver_error_names_its_deal(monkeypatch):
    """A solver that raises stops the study with an error naming the game and deal (the
    error it raised kept as the cause), not a bare traceback from a worker."""
    real = study_mod.solve

    def failing(game_id, number, budget=None):
        if number == 3:
            raise AssertionError("the line's move 0x1 has no legal engine move")
        return real(game_id, number, budget=budget)

    monkeypatch.setattr(study_mod, "solve", failing)
    with pytest.raises(RuntimeError, match=r"captured-queens #3: the solver failed: "
                       r"AssertionError\(\"the line's move 0x1") as info:
        run_study("captured-queens", [1, 2, 3, 4], CQ_BUDGET, workers=1)
    assert isinstance(info.value.__cause__, AssertionError)
    partial = finished_before(info.value)  # the deals finished before it stay with it
    assert partial is not None and [d.number for d in partial.deals] == [1, 2]
    assert partial.game == "captured-queens" and partial.backend == "inline"


def test_a_deal_retried_after_a_big_one_starts_with_little_memory(monkeypatch):
    """Inline, after a deal that grew this process past the memory cap, the deals that
    then stop on "memory" at once are solved again in new processes that start small
    (spawned: a forked child would start with this process's memory as its peak)."""
    import resource

    monkeypatch.setattr(study_mod, "_TASKS_RUN", 3)  # this process has "run deals before"
    ballast = bytearray(300 * 1024 * 1024)  # this process's peak is now over the cap
    ballast[:: 4096] = b"x" * len(ballast[:: 4096])
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    cap = peak_mb - 150
    assert cap > 150, peak_mb
    # (the search checks its memory every 1,024 positions: these deals need more)
    budget = Budget(seconds=None, states=3_000, memory_mb=cap)
    # (as the command line runs it: it asks for spawned processes)
    result = run_study("patriarchs", [1, 2], budget, workers=1, start_method="spawn")
    del ballast
    assert [(d.outcome, d.limit) for d in result.deals] == [("limit", "states")] * 2


def test_bad_studies_are_refused():
    with pytest.raises(UnknownGameError):
        run_study("no-such-game", [1], Budget(seconds=1), workers=1)
    with pytest.raises(ValueError, match="at least one"):
        run_study("klondike", [], Budget(seconds=1), workers=1)
    with pytest.raises(ValueError, match="game numbers"):
        run_study("klondike", [-1, 2], Budget(seconds=1), workers=1)
    with pytest.raises(ValueError, match="workers"):
        run_study("klondike", [1], Budget(seconds=1), workers=0)


def test_a_memory_limit_from_a_used_worker_is_solved_again_in_a_fresh_process(monkeypatch):
    # A worker's peak memory only grows: a "memory" verdict from a process that ran an
    # earlier deal is not trusted, the deal is solved again in a new process.
    calls: list[list[int]] = []
    real = study_mod._run_fresh

    def spy(game_id, todo, *args):
        calls.append(list(todo))
        return real(game_id, todo, *args)

    monkeypatch.setattr(study_mod, "_run_fresh", spy)
    monkeypatch.setattr(study_mod, "_TASKS_RUN", 3)  # this process has "run deals before"
    budget = Budget(seconds=None, states=2_000, memory_mb=1)
    result = run_study("patriarchs", [1, 2], budget, workers=1)
    assert calls == [[1, 2]]
    assert [(d.number, d.outcome, d.limit) for d in result.deals] == [
        (1, "limit", "memory"),
        (2, "limit", "memory"),
    ]
    # a fresh worker's memory verdict stands; a time limit never needs a second run
    assert not study_mod._needs_fresh_process(result.deals[0], fresh=True)
    assert not study_mod._needs_fresh_process(DealResult(1, "limit", limit="time"), fresh=False)


def test_ray_missing_gives_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(RuntimeError, match=r"pip install 'patiencekit\[ray\]'"):
        run_study("captured-queens", [1], Budget(seconds=1), ray_address="local")


def test_tiny_study_on_a_local_ray_instance():
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'patiencekit[ray]')")
    seen: list[int] = []
    result = run_study(
        "captured-queens",
        [3, 1, 4, 2],
        CQ_BUDGET,
        workers=2,
        ray_address="local",
        progress=lambda d: seen.append(d.number),
    )
    assert result.backend == "ray"
    assert [d.number for d in result.deals] == [1, 2, 3, 4]
    assert sorted(seen) == [1, 2, 3, 4]
    assert {d.number: d.outcome for d in result.deals} == CQ_EXPECTED
    assert all(d.replayed for d in result.deals if d.outcome == "solved")


# -- the command ------------------------------------------------------------------------

runner = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "TTY_COMPATIBLE": None})
app = typer.Typer()
app.callback()(lambda: None)  # a group, so the command is called by name as in the CLI
app.command("study")(study)


def test_study_command_writes_csv_json_and_the_winnable_list(tmp_path):
    csv_path, json_path, module = tmp_path / "d.csv", tmp_path / "s.json", tmp_path / "w.py"
    args = ["study", "captured-queens", "--deals", "4", *CQ_ARGS, "--workers", "2"]
    out = runner.invoke(
        app,
        [
            *args,
            "--csv",
            str(csv_path),
            "--json",
            str(json_path),
            "--write-winnable",
            "--winnable-file",
            str(module),
        ],
    )
    assert out.exit_code == 0, out.output
    assert "solved" in out.stdout and "win rate among decided" in out.stdout
    assert "75.0%" in out.stdout  # 3 of 4 decided deals
    assert [d.number for d in read_csv(csv_path)] == [1, 2, 3, 4]
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["summary"]["solved"] == 3 and data["summary"]["unsolvable"] == 1
    command = data["meta"]["command"]
    assert command == (
        "patiencekit study captured-queens --deals 4 --first 1 --max-seconds 600 "
        "--max-states 2000 --workers 2"
    )
    winnable, sources = read_winnable_module(module)
    assert winnable == {"captured-queens": (1, 2, 3)}
    assert [c.split(": ", 1)[1] for c in sources["captured-queens"]] == [
        command + " --write-winnable"
    ]
    # a second study merges: 3..6 adds what it proves, keeps what was there
    out = runner.invoke(
        app,
        [
            "study",
            "captured-queens",
            "--deals",
            "4",
            "--first",
            "3",
            *CQ_ARGS,
            "--workers",
            "1",
            "--write-winnable",
            "--winnable-file",
            str(module),
        ],
    )
    assert out.exit_code == 0, out.output
    winnable, sources = read_winnable_module(module)
    assert winnable["captured-queens"][:3] == (1, 2, 3) and 6 in winnable["captured-queens"]
    assert len(sources["captured-queens"]) == 2
    assert module.read_text(encoding="utf-8") == winnable_module_text(winnable, sources)


def test_study_command_json_to_stdout_is_json_alone():
    out = runner.invoke(
        app,
        [
            "study",
            "captured-queens",
            "--deals",
            "2",
            *CQ_ARGS,
            "--workers",
            "1",
            "--json",
            "-",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [d["number"] for d in data["deals"]] == [1, 2]
    assert data["summary"]["total"] == 2


def test_the_fingerprint_is_the_solver_the_study_started_with(monkeypatch):
    """The JSON names the solver as it was when the study started: a source edited during
    a long run would otherwise name a search that never ran."""
    import patiencekit.study_cli as study_cli

    edited: list[bool] = []
    real_run = study_cli.run_study

    def run_then_edit(*args, **kwargs):  # the source changes while the study runs
        result = real_run(*args, **kwargs)
        edited.append(True)
        return result

    monkeypatch.setattr(study_cli, "run_study", run_then_edit)
    monkeypatch.setattr(
        study_cli, "solver_fingerprint", lambda: "after-an-edit" if edited else "at-the-start"
    )
    out = runner.invoke(
        app,
        ["study", "captured-queens", "--deals", "2", *CQ_ARGS, "--workers", "1", "--json", "-"],
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["meta"]["solver"] == "at-the-start"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-game", "--deals", "3"], "No game is called 'no-such-game'"),
        (["klondike", "--deals", "0"], "--deals must be at least 1"),
        (["klondike", "--deals", "3", "--first", "-1"], "game numbers must be from 0"),
        (["klondike", "--deals", "3", "--max-seconds", "0"], "--max-seconds must be more than 0"),
        (["klondike", "--deals", "3", "--workers", "0"], "--workers must be at least 1"),
        (["klondike"], "say which deals: --deals N"),
        (["klondike", "--numbers", "1-3", "--deals", "3"], "--numbers names the deals itself"),
        (["klondike", "--numbers", "1,x"], "game numbers: 'x' is neither a number nor a range"),
        (["klondike", "--numbers", "9-3"], "game numbers: the range '9-3' runs backwards"),
        (["klondike", "--numbers", "@/no/such/file.json"], "game numbers: cannot read"),
        (["klondike", "--numbers", "1,100000000000000000000"], "game numbers must be from 0"),
    ],
)
def test_study_command_bad_input_exits_2(args, message):
    out = runner.invoke(app, ["study", *args])
    assert out.exit_code == 2
    assert "error: " + message in " ".join(out.stderr.split())
    assert out.stdout == ""


def test_study_command_solves_the_numbers_given(tmp_path):
    """``--numbers`` takes ranges or a JSON list in a file, solves each number once, and
    keeps the numbers' text in the recorded command."""
    listed = tmp_path / "numbers.json"
    listed.write_text("[7, 3, 7]", encoding="utf-8")
    for text, expected in (("2-3,6", [2, 3, 6]), (f"@{listed}", [3, 7])):
        out = runner.invoke(
            app, ["study", "captured-queens", "--numbers", text, *CQ_ARGS, "-w", "1", "--json", "-"]
        )
        assert out.exit_code == 0, out.output
        data = json.loads(out.stdout)
        assert [d["number"] for d in data["deals"]] == expected
        assert data["meta"]["command"].startswith(
            f"patiencekit study captured-queens --numbers {shlex.quote(text)} --max-seconds"
        )
    bad = tmp_path / "bad.json"
    bad.write_text('{"numbers": [1]}', encoding="utf-8")
    out = runner.invoke(app, ["study", "captured-queens", "--numbers", f"@{bad}"])
    assert out.exit_code == 2
    assert "must hold a JSON list of integers" in " ".join(out.stderr.split())


@given(st.lists(st.integers(min_value=0, max_value=10**6), max_size=40))
def test_game_numbers_text_round_trips(numbers):
    """format_numbers writes what parse_numbers (and --numbers) reads: the same numbers,
    sorted, each once."""
    text = format_numbers(numbers)
    if not numbers:
        assert text == ""
        return
    assert parse_numbers(text) == sorted(set(numbers))
    assert format_numbers(parse_numbers(text)) == text


def _failing_at(number, error):
    """``solve`` as the study calls it, raising ``error`` on deal ``number``."""
    real = study_mod.solve

    def solve(game_id, n, budget=None):
        if n == number:
            raise error
        return real(game_id, n, budget=budget)

    return solve


@pytest.mark.parametrize(
    ("error", "status", "why"),
    [
        (AssertionError("no legal engine move"), 1, "captured-queens #3: the solver failed"),
        (KeyboardInterrupt(), 130, "interrupted (Ctrl-C)"),
    ],
)
def test_a_stopped_study_keeps_the_deals_it_finished(tmp_path, monkeypatch, error, status, why):
    """A solver's error or Ctrl-C part way keeps the finished deals in FILE.partial.json /
    .csv (never in FILE itself), says why in meta.stopped, and names the numbers left."""
    monkeypatch.setattr(study_mod, "solve", _failing_at(3, error))
    json_path, csv_path = tmp_path / "s.json", tmp_path / "d.csv"
    out = runner.invoke(
        app,
        [
            "study", "captured-queens", "--numbers", "1-4,9", *CQ_ARGS, "-w", "1",
            "--json", str(json_path), "--csv", str(csv_path),
        ],
    )
    assert out.exit_code == status, out.output
    stderr = " ".join(out.stderr.split())
    assert f"error: the study stopped: {why}" in stderr
    assert "2 of 5 deals finished; written to" in stderr
    assert "Left to run: --numbers 3-4,9" in stderr
    assert not json_path.exists() and not csv_path.exists()
    data = json.loads((tmp_path / "s.partial.json").read_text(encoding="utf-8"))
    assert [d["number"] for d in data["deals"]] == [1, 2]
    assert data["summary"]["total"] == 2
    assert data["meta"]["stopped"].startswith(why)
    assert data["meta"]["command"].startswith("patiencekit study captured-queens --numbers 1-4,9")
    assert [d.number for d in read_csv(tmp_path / "d.partial.csv")] == [1, 2]
    # what is left runs on its own and completes the study
    out = runner.invoke(
        app, ["study", "captured-queens", "--numbers", "4,9", *CQ_ARGS, "-w", "1", "--json", "-"]
    )
    assert out.exit_code == 0, out.output


def test_a_study_stopped_by_ctrl_c_keeps_the_deals_still_running(tmp_path, monkeypatch):
    """On a process pool, the deals running when the study stops finish anyway (the pool
    waits for them): they are reported too, not thrown away. Deal 2 is held until deal 1
    has been reported and the study interrupted, so it is running at that moment on any
    machine. (Forked workers, so that they run the patched solver.)"""
    if "fork" not in __import__("multiprocessing").get_all_start_methods():
        pytest.skip("needs the fork start method")
    flag = tmp_path / "go"
    real = study_mod.solve

    def held(game_id, n, budget=None):
        import time

        while n == 2 and not flag.exists():
            time.sleep(0.01)
        return real(game_id, n, budget=budget)

    monkeypatch.setattr(study_mod, "solve", held)
    seen: list[int] = []

    def progress(deal):
        seen.append(deal.number)
        if len(seen) == 1:
            flag.touch()
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as info:
        run_study(
            "captured-queens", [1, 2], CQ_BUDGET, workers=2, progress=progress,
            start_method="fork",
        )
    assert sorted(seen) == [1, 2]
    partial = finished_before(info.value)
    assert partial is not None and [d.number for d in partial.deals] == [1, 2]


def test_a_stopped_study_with_nothing_finished_is_a_plain_error(monkeypatch):
    monkeypatch.setattr(study_mod, "solve", _failing_at(1, AssertionError("boom")))
    out = runner.invoke(app, ["study", "captured-queens", "--deals", "2", *CQ_ARGS, "-w", "1"])
    assert out.exit_code == 2
    assert "error: captured-queens #1: the solver failed: AssertionError('boom')" in " ".join(
        out.stderr.split()
    )


@pytest.mark.parametrize("backend", [["--workers", "2"], ["--workers", "2", "--ray", "local"]])
def test_sigterm_stops_a_study_its_workers_and_keeps_its_deals(tmp_path, backend):
    """A SIGTERM (a batch system's stop) ends the study like Ctrl-C: the spawned workers
    are shut down with it (none is left orphaned in its process group) and the deals
    finished so far are written. The signal is sent once a tenth of the deals are done,
    so the verdict does not depend on the machine's speed. (stderr goes to a file: an
    orphaned worker would hold a pipe open for ever.)"""
    import os
    import signal
    import subprocess
    import time

    if "--ray" in backend:
        pytest.importorskip("ray", reason="Ray is not installed (pip install 'patiencekit[ray]')")
    json_path, log = tmp_path / "s.json", tmp_path / "stderr.txt"
    with log.open("w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "patiencekit", "study", "picture-patience", "--deals",
                "40", "--max-states", "3000", "--max-seconds", "600", *backend,
                "--json", str(json_path),
            ],
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )

    def group_alive() -> bool:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return False
        return True

    deadline = time.monotonic() + 600  # (guards against a hang, not a speed budget)
    try:
        # no terminal: a line per tenth of the deals
        while "deals," not in log.read_text(encoding="utf-8"):
            assert proc.poll() is None, log.read_text(encoding="utf-8")
            assert time.monotonic() < deadline, "no progress line"
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(timeout=600)
        deadline = time.monotonic() + 120  # (an orphaned worker stays for ever)
        while group_alive():  # no process of the study's group is left
            assert time.monotonic() < deadline, "a process of the study outlived it"
            time.sleep(0.2)
    finally:
        if group_alive():
            os.killpg(proc.pid, signal.SIGKILL)
    rest = log.read_text(encoding="utf-8")
    assert status == 130, rest
    assert "interrupted (SIGTERM)" in rest
    data = json.loads((tmp_path / "s.partial.json").read_text(encoding="utf-8"))
    assert 4 <= data["summary"]["total"] < 40
    assert data["meta"]["stopped"] == "interrupted (SIGTERM)"


def test_study_command_without_ray_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    out = runner.invoke(app, ["study", "captured-queens", "--deals", "1", "--ray", "local"])
    assert out.exit_code == 2
    assert "pip install 'patiencekit[ray]'" in " ".join(out.stderr.split())


# -- the shipped winnable list ----------------------------------------------------------

WINNABLE_FILE = Path(patiencekit.__file__).parent / "games" / "winnable_numbers.py"


def test_shipped_winnable_list_is_exactly_what_the_generator_writes():
    from patiencekit.games.winnable_numbers import SOURCES, WINNABLE

    assert WINNABLE_FILE.read_text(encoding="utf-8") == winnable_module_text(WINNABLE, SOURCES)
    assert set(WINNABLE) <= set(GAMES)
    assert set(SOURCES) == set(WINNABLE)
    for game, numbers in WINNABLE.items():
        assert list(numbers) == sorted(set(numbers)), game
        for command in SOURCES[game]:
            # a study, or an experiment's script that replays its lines on the engine
            # before it merges them (docs/experiments), or Picture Patience's sweep
            # (tools/picture_sweep.py, which does the same: tests/test_picture_sweep.py)
            script = re.search(r"python (docs/experiments/\w+\.py) .*--merge", command)
            sweep = re.search(r"(tools/picture_sweep\.py) .*--write$", command)
            assert f"patiencekit study {game} " in command or (
                script and (ROOT / script.group(1)).is_file() and game.replace("-", "_")
                in script.group(1)
            ) or (
                sweep and (ROOT / sweep.group(1)).is_file() and game == "picture-patience"
            ), command
    ast.parse(WINNABLE_FILE.read_text(encoding="utf-8"))


def test_the_contradance_beam_proves_its_numbers_on_the_engine():
    """docs/experiments/contradance_beam.py, which found most shipped Contradance numbers:
    its winning lines replay to a win on the engine (two of its numbers that no study had
    found), and a line that is cut short does not."""
    import importlib.util

    from patiencekit.games.winnable_numbers import WINNABLE

    spec = importlib.util.spec_from_file_location(
        "contradance_beam", ROOT / "docs" / "experiments" / "contradance_beam.py"
    )
    assert spec is not None and spec.loader is not None
    beam = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(beam)
    for number in (164, 483):
        assert number in WINNABLE["contradance"]
        line = beam.beam(number, 300)
        assert line is not None and beam.replays(number, line), number
        moves = beam.moves_of(line)
        short = (None, tuple(moves[:-1]))
        assert not beam.replays(number, short)


def test_shipped_winnable_numbers_replay():
    """A few shipped numbers per fast game: the solver wins them again and the line replays."""
    from patiencekit.games.winnable_numbers import WINNABLE
    from patiencekit.solver import solve

    for game in ("klondike", "klondike-draw1", "captured-queens"):
        for number in WINNABLE.get(game, ())[:2]:
            # positions: these need at most 442 (Klondike: 91)
            result = solve(game, number, budget=positions(10_000))
            assert result.outcome == "solved", (game, number)
            assert study_mod._replays(game, number, result.moves)


def test_merge_winnable_keeps_other_games_and_is_deterministic(tmp_path):
    module = tmp_path / "w.py"
    assert merge_winnable(module, "klondike", [5, 1, 3], "c1") == (3, 3)
    assert merge_winnable(module, "patriarchs", [9], "c2") == (1, 1)
    assert merge_winnable(module, "klondike", [3, 4], "c3") == (1, 4)
    assert merge_winnable(module, "klondike", [4], "c4") == (0, 4)  # nothing new: c4 not kept
    winnable, sources = read_winnable_module(module)
    assert winnable == {"klondike": (1, 3, 4, 5), "patriarchs": (9,)}
    assert sources == {"klondike": ("c1", "c3"), "patriarchs": ("c2",)}
    text = module.read_text(encoding="utf-8")
    assert text == winnable_module_text({"patriarchs": [9], "klondike": [4, 5, 1, 3, 3]}, sources)
    namespace: dict[str, object] = {}
    exec(compile(text, str(module), "exec"), namespace)
    assert namespace["WINNABLE"] == winnable
    bad = tmp_path / "bad.py"
    bad.write_text("X = 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no WINNABLE"):
        merge_winnable(bad, "klondike", [1])


def _records(result: StudyResult) -> list[tuple[object, ...]]:
    """A study's records less the times, which are the only part the machine may change."""
    return [
        (d.number, d.outcome, d.limit, d.states, d.unique_states, d.depth, d.moves, d.replayed)
        for d in result.deals
    ]


@pytest.mark.parametrize(
    ("game", "numbers"),
    [("klondike", [7_000_052, 1, 3, 2]), ("odd-and-even", [10, 1, 2])],
)
def test_a_study_at_a_positions_budget_is_reproducible(game: str, numbers: list[int]) -> None:
    """Issue 14: the same positions budget gives the same records (verdicts, positions,
    lines), in any order, inline or on a pool: a study's table can be made again."""
    budget = positions(3_000)
    first = run_study(game, numbers, budget, workers=1)
    again = run_study(game, list(reversed(numbers)), budget, workers=2)
    assert _records(first) == _records(again)
    assert {d.outcome for d in first.deals} >= {"solved", "limit"}  # both kinds are compared


def test_a_signal_raised_inside_ray_still_reads_as_an_interruption():
    """A SIGTERM's exception raised inside Ray's C code comes out as a SystemError caused
    by it (seen in a clean-clone run of the SIGTERM test above): the study CLI finds the
    signal in the chain, so it stops as interrupted (exit 130) and keeps its deals; a
    SystemError with no signal behind it is not one."""
    from patiencekit.study_cli import _interruption, _Terminated

    term = _Terminated()
    try:
        try:
            raise term
        except _Terminated as inner:
            raise SystemError("returned a result with an exception set") from inner
    except SystemError as e:
        assert _interruption(e) is term
    ctrl_c = KeyboardInterrupt()
    assert _interruption(ctrl_c) is ctrl_c
    assert _interruption(SystemError("no signal")) is None
    assert _interruption(ValueError("x")) is None
