"""Picture Patience's shipped winnable deals and the sweep that found them
(``tools/picture_sweep.py`` driving ``tools/picture_sweep.c``).

Issue 14 asks for at least 200 shipped winnable deals in every game, Picture Patience
included. Each shipped Picture Patience number has its winning line in
``tests/data/picture_patience_wins.json``; the lines are replayed here through the checked
engine, so the list is proved, not trusted.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from patiencekit import new_game
from patiencekit.deals import dealing_order
from patiencekit.errors import PatienceError
from patiencekit.games.winnable_numbers import SOURCES, WINNABLE

ROOT = Path(__file__).resolve().parent.parent
WINS = ROOT / "tests" / "data" / "picture_patience_wins.json"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    """tools/picture_sweep.py, loaded once (it is not a package module)."""
    spec = importlib.util.spec_from_file_location(
        "picture_sweep", ROOT / "tools" / "picture_sweep.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def binary(tool: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tool.build(tmp_path_factory.mktemp("sweep"))
    return path


def test_at_least_200_shipped_and_each_line_wins() -> None:
    """Every shipped Picture Patience number has a line, and every line wins its deal
    on the engine (each move checked); at least 200 of them."""
    lines = json.loads(WINS.read_text(encoding="utf-8"))
    shipped = WINNABLE["picture-patience"]
    assert len(shipped) >= 200
    assert set(shipped) <= {int(n) for n in lines}
    for number, moves in lines.items():
        game = new_game("picture-patience", int(number))
        for move in moves:
            game.play(move)
        assert game.is_won(), number
    assert any("tools/picture_sweep.py" in c for c in SOURCES["picture-patience"])


def test_winnable_deals_only_varies() -> None:
    """"Winnable deals only" deals from the shipped list, which now has many numbers."""
    numbers = {new_game("picture-patience", winnable=True).number for _ in range(30)}
    assert numbers <= set(WINNABLE["picture-patience"])
    assert len(numbers) > 10


@pytest.mark.parametrize("number", [0, 1, 5, 31999, 32000, 244196, 2**32, 123456789012])
def test_the_c_deal_is_the_package_deal(tool: ModuleType, binary: Path, number: int) -> None:
    """Both generators (the LCG below 32000, the Mersenne Twister from it, seeds of one
    and two 32-bit words) give the package's deal."""
    assert tool.dealt(binary, number) == dealing_order(number, 2)


def test_a_sweep_finds_the_known_win_and_nothing_unproved(
    tool: ModuleType, binary: Path
) -> None:
    """Deals 244190-244199: the sweep wins #244196 (the golden game's deal) and its line
    replays; what it calls won is exactly what its lines prove."""
    found = tool.sweep_chunk(binary, 244190, 10, tool.STAGES)
    assert 244196 in found
    for number, moves in found.items():
        tool.replay(number, moves)


def test_a_line_that_does_not_win_is_refused(tool: ModuleType) -> None:
    """A cut line, or a line with a foreign move, is an error naming the deal."""
    moves = json.loads(WINS.read_text(encoding="utf-8"))["244196"]
    with pytest.raises(PatienceError, match=f"deal 244196: the {len(moves) - 1} moves do not"):
        tool.replay(244196, moves[:-1])
    with pytest.raises(PatienceError, match=r"deal 244196: move 1 \('w f1'\) is refused"):
        tool.replay(244196, ["w f1", *moves])


def test_bad_stages_are_refused(binary: Path) -> None:
    for stages in ("", "10:", "0", "10:52;500", "10:52,"):
        done = subprocess.run(
            [str(binary), "1", "1", stages], capture_output=True, text=True, check=False
        )
        assert done.returncode == 2 and "bad stages" in done.stderr, stages


def test_the_tool_refuses_bad_options(tool: ModuleType) -> None:
    with pytest.raises(SystemExit):
        tool.main(["--first", "1", "--count", "0"])
    with pytest.raises(SystemExit):
        tool.main(["--first", "1", "--count", "5", "--stages", "10:52"])
