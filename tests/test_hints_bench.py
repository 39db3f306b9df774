"""The hint bench's pairing of two runs (``bench/hints.py --compare``): the deals both
played, each run's wins there, the deals only one of them won, and the sign test."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "hints.py"
    spec = importlib.util.spec_from_file_location("hints_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


hints = _bench()


def _record(game: str, number: int, won: bool, seconds: list[float]) -> dict[str, Any]:
    return {"game": game, "number": number, "end": "won" if won else "no hint",
            "hint_seconds": seconds}


def test_sign_test_is_the_exact_two_sided_binomial() -> None:
    assert hints.sign_test(0, 0) == 1.0
    assert hints.sign_test(3, 3) == 1.0
    assert hints.sign_test(6, 2) == pytest.approx(2 * (1 + 8 + 28) / 256)
    assert hints.sign_test(2, 6) == hints.sign_test(6, 2)
    assert hints.sign_test(10, 0) == pytest.approx(2 / 1024)


def test_compare_pairs_two_runs_on_the_deals_both_played(tmp_path: Path) -> None:
    a = [_record("klondike", n, n % 2 == 0, [0.01 * n]) for n in range(1, 11)]
    a.append(_record("klondike", 99, True, [1.0]))  # B never played it: not compared
    b = [_record("klondike", n, n <= 5, [0.02]) for n in range(1, 11)]
    b.append(_record("klondike-draw1", 1, True, [0.5]))  # A never played the game
    got = hints.compare(a, b)
    assert list(got) == ["klondike"]
    row = got["klondike"]
    assert row["deals"] == 10
    assert (row["won_a"], row["won_b"]) == (5, 5)
    assert row["only_a"] == [6, 8, 10]
    assert row["only_b"] == [1, 3, 5]
    assert row["sign_test_p"] == 1.0
    assert row["hint_p50_ms_b"] == 20.0
    assert row["hint_p99_ms_a"] == 100.0
    # both file formats read back the same records, and the command prints the pairing
    lines = tmp_path / "a.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in a))
    whole = tmp_path / "b.json"
    whole.write_text(json.dumps({"records": {"klondike": b[:-1], "klondike-draw1": b[-1:]}}))
    assert hints._read_all(lines) == a
    assert sorted(hints._read_all(whole), key=lambda r: (r["game"], r["number"])) == sorted(
        b, key=lambda r: (r["game"], r["number"])
    )
    assert hints.main(["--compare", str(lines), str(whole)]) == 0


def test_numbers_are_read_as_the_study_reads_them(capsys: pytest.CaptureFixture[str]) -> None:
    """``--numbers`` is ``patiencekit study``'s own: numbers and ranges, or @FILE, a JSON
    list (the deals the race and lonelybot split, kept in docs/experiments, read so); a
    word that is not a game number, or a file that cannot be read, is refused by name
    before anything is played."""
    from patiencekit.solver.study import parse_numbers

    assert hints.parse_numbers is parse_numbers
    assert hints.parse_numbers("1000004,1000015, 7") == [1000004, 1000015, 7]
    listed = Path(__file__).resolve().parent.parent / "docs" / "experiments"
    split = hints.parse_numbers(f"@{listed / 'race-lonelybot-discordant.json'}")
    assert len(split) == len(set(split)) == 61
    assert all(1_000_000 <= n < 1_000_300 for n in split)
    for bad, named in [("1,12x", "'12x'"), ("@/nonexistent/deals.json", "deals.json")]:
        with pytest.raises(SystemExit):
            hints.main(["--games", "klondike", "--numbers", bad])
        assert named in capsys.readouterr().err
