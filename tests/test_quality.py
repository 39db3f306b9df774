"""Static checks run as part of the test suite: ruff (lint) and mypy (strict types)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def _report(proc: subprocess.CompletedProcess[str]) -> str:
    return (
        f"exit status {proc.returncode}\n"
        f"--- stdout ---\n{proc.stdout}\n"
        f"--- stderr ---\n{proc.stderr}"
    )


def test_ruff() -> None:
    proc = _run("ruff", "check", "src", "tests", "bench")
    if proc.returncode != 0:
        print(_report(proc))
    assert proc.returncode == 0, _report(proc)


def test_mypy_strict() -> None:
    proc = _run("mypy", "--strict", "src/patiencekit")
    if proc.returncode != 0:
        print(_report(proc))
    assert proc.returncode == 0, _report(proc)
