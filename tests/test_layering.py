"""The layering, checked on the package's import graph.

The floors, from the ground up, each using only what is below it:

- the engine: ``patiencekit`` itself (its ``__init__``), ``cards``, ``rules``, ``deals``,
  ``compiled``, ``moves``, ``state_pure``, ``state``, ``notation``, ``game``, ``games`` and
  ``errors``;
- the words (``words``: moves and refusals in the player's language; ``game_texts``: the
  games' names and rules in it) and the solver (``patiencekit.solver``), each on the engine
  alone (the words with the translations, ``i18n``);
- the faces: the server (``patiencekit.server``), the command line (``cli``, ``study_cli``,
  ``__main__``) and the terminal game (``tui``).

Rules: the engine imports nothing above it (the words and the translations, ``i18n``,
included); the words and the solver import nothing from the faces (nor the words the solver);
the translations import nothing of the solver or the faces; the server imports nothing from
the command line or the terminal game; and no module imports itself through a cycle of
imports. The first five are import-linter contracts in ``pyproject.toml``
(``[tool.importlinter]``; ``lint-imports`` checks them by hand too), indirect imports
included; the cycles are found here on the same graph (grimp's, which import-linter builds),
since no import-linter contract sees a cycle through a package's own ``__init__``
(``acyclic_siblings`` compares a package's children only).

Every import statement counts: at the top of a module, inside a function, and under
``if TYPE_CHECKING:``, for the cycles as for the floors. An import for type checking does
not run, but the module cannot be read or checked without the one it names: it is a
dependency all the same, and a cycle of them (``errors`` and ``game`` once) is one.

The last test plants a violation of each rule and two cycles in small packages of its
own, to show that these checks fail when they should.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import tomllib
from collections.abc import Mapping, Set
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"


def lint_imports(config: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run import-linter's ``lint-imports`` on the contracts of ``config`` (no cache)."""
    env = {**os.environ, "COLUMNS": "200"}  # no line wrapped in the report
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
            "--no-cache",
            "--no-logo",
            str(config),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def _strongly_connected(imports: Mapping[str, Set[str]]) -> list[list[str]]:
    """The strongly connected components (Tarjan) of more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(imports[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(imports):
        if module not in index:
            visit(module)
    return sorted(found)


def _shortest_cycle(start: str, imports: Mapping[str, Set[str]], within: Set[str]) -> list[str]:
    """A shortest cycle of imports from ``start`` back to it, through ``within`` only."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for module in frontier:
            for imported in sorted(imports[module] & within):
                if imported == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if imported not in came_from:
                    came_from[imported] = module
                    following.append(imported)
        frontier = following
    raise AssertionError(f"{start} is on no cycle")


def import_cycles(package: str) -> list[str]:
    """Each group of modules of ``package`` that import one another in a circle: its
    members and one shortest cycle, every import with its line."""
    graph = grimp.build_graph(package, cache_dir=None)
    imports = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    report: list[str] = []
    for component in _strongly_connected(imports):
        cycle = _shortest_cycle(component[0], imports, set(component))
        steps = []
        for importer, imported in itertools.pairwise(cycle):
            detail = graph.get_import_details(importer=importer, imported=imported)[0]
            steps.append(
                f"    {importer} -> {imported}"
                f" (l.{detail['line_number']}: {detail['line_contents']})"
            )
        report.append(
            f"{len(component)} modules in a cycle: {', '.join(component)}; one cycle:\n"
            + "\n".join(steps)
        )
    return report


def test_the_layering_contracts_are_kept() -> None:
    proc = lint_imports(CONFIG)
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"import-linter's contracts are broken:\n{report}"


def test_no_module_imports_itself_through_a_cycle() -> None:
    cycles = import_cycles("patiencekit")
    assert not cycles, "import cycles in patiencekit:\n" + "\n".join(cycles)


def test_every_top_level_module_is_on_a_floor() -> None:
    """A new module of ``patiencekit`` must be placed: in the engine's list, or among the
    floors above it, in the contracts of ``pyproject.toml``."""
    contracts = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]
    named = {
        module.removesuffix(".**")
        for contract in contracts
        for key in ("source_modules", "forbidden_modules")
        for module in contract.get(key, [])
    }
    graph = grimp.build_graph("patiencekit", cache_dir=None)
    unplaced = sorted(graph.find_children("patiencekit") - named)
    assert not unplaced, f"on no floor of the layering contracts (pyproject.toml): {unplaced}"


# -- the checks can fail ----------------------------------------------------------------

#: a small package with every module the contracts name, layered as they say (``{p}``
#: is the package's name)
GOOD = {
    "__init__.py": "from {p} import game\n",
    "__main__.py": "from {p} import cli\n",
    "cards.py": "",
    "errors.py": "",
    "rules.py": "from {p} import cards\n",
    "deals.py": "from . import cards\n",
    "compiled.py": "",
    "moves.py": "",
    "state_pure.py": "from {p} import deals, moves, rules\n",
    "state.py": "from {p} import compiled, moves, state_pure\n",
    "notation.py": "from {p} import cards, errors\n",
    "game.py": "from {p} import errors, notation, state\n",
    "words.py": "from {p} import game\n",
    "game_texts.py": "from {p} import i18n, rules\n",
    "i18n.py": "",
    "games/__init__.py": "from {p}.games import klondike\n",
    "games/klondike.py": "from {p} import rules\n",
    "solver/__init__.py": "from {p}.solver import klondike\n",
    "solver/klondike.py": "import {p}.state\n",
    "server/__init__.py": "",
    "server/app.py": "import {p}\nimport {p}.i18n\nimport {p}.solver\n",
    "cli.py": "from {p} import study_cli, tui\nfrom {p}.server import app\n",
    "tui.py": "from {p} import solver, words\n",
    "study_cli.py": "from {p} import solver\n",
}

#: breaches of each rule planted in it, each hidden in one of the ways an import can be
BREACHES = {
    # the engine: in a function of the package's own __init__
    "__init__.py": "from {p} import game\n\n\ndef winnable():\n    from {p}.solver import solve\n",
    # the engine: for type checking only, two floors up
    "state.py": (
        "from typing import TYPE_CHECKING\n\nfrom {p} import deals, rules\n\n"
        "if TYPE_CHECKING:\n    from {p}.server.app import App\n"
    ),
    # the engine: a relative import
    "games/klondike.py": "from {p} import rules\nfrom ..tui import x\n",
    # the solver: in a function
    "solver/klondike.py": "import {p}.state\n\n\ndef f():\n    from {p} import cli\n",
    # the server
    "server/app.py": "import {p}.solver\nfrom {p}.tui import play\n",
    # the words: in a function
    "words.py": "from {p} import game\n\n\ndef hint():\n    from {p}.solver import klondike\n",
    # the games' texts: for type checking only
    "game_texts.py": (
        "from typing import TYPE_CHECKING\n\nfrom {p} import i18n\n\n"
        "if TYPE_CHECKING:\n    from {p}.tui import PlaySession\n"
    ),
    # the translations
    "i18n.py": "from {p}.server import app\n",
}

#: cycles planted in it
CYCLES = {
    # made by a type-checking import: errors -> game -> errors
    "errors.py": (
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from {p}.game import Game\n"
    ),
    # through the package's own __init__: games -> games.klondike -> games
    "games/klondike.py": "from {p} import rules\nfrom {p}.games import FACTS\n",
}


def _package(folder: Path, name: str, planted: dict[str, str]) -> Path:
    for path, text in (GOOD | planted).items():
        target = folder / name / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text.format(p=name))
    return folder


@pytest.mark.parametrize("planted", [False, True], ids=["as-layered", "planted"])
def test_the_contracts_fail_on_a_planted_breach_of_each_rule(tmp_path: Path, planted: bool) -> None:
    """The real contracts, run on a package called ``patiencekit`` that comes first on the
    path (in a process of its own): kept as layered, broken where planted."""
    package = _package(tmp_path, "patiencekit", BREACHES if planted else {})
    proc = lint_imports(CONFIG, pythonpath=package)
    out = proc.stdout
    assert "Analyzed 24 files" in out, out  # the small package, not the real one
    if not planted:
        assert proc.returncode == 0, out
        return
    assert proc.returncode != 0, out
    for chain in (
        "patiencekit -> patiencekit.solver (l.5)",
        "patiencekit.state -> patiencekit.server.app (l.6)",
        "patiencekit.games.klondike -> patiencekit.tui (l.2)",
        "patiencekit.solver.klondike -> patiencekit.cli (l.5)",
        "patiencekit.server.app -> patiencekit.tui (l.2)",
        "patiencekit.words -> patiencekit.solver.klondike (l.5)",
        "patiencekit.game_texts -> patiencekit.tui (l.6)",
        "patiencekit.i18n -> patiencekit.server.app (l.1)",
    ):
        assert chain in out, f"{chain!r} not reported:\n{out}"
    assert "Contracts: 0 kept, 5 broken." in out, out


@pytest.mark.parametrize("planted", [False, True], ids=["as-layered", "planted"])
def test_the_cycle_check_finds_planted_cycles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted: bool
) -> None:
    name = f"pk_layering_{'planted' if planted else 'layered'}"
    monkeypatch.syspath_prepend(str(_package(tmp_path, name, CYCLES if planted else {})))
    cycles = import_cycles(name)
    if not planted:
        assert cycles == []
        return
    assert len(cycles) == 2, cycles
    text = "\n".join(cycles)
    assert f"{name}.errors -> {name}.game (l.4: from {name}.game import Game)" in text
    assert f"{name}.games -> {name}.games.klondike" in text
    assert f"{name}.games.klondike -> {name}.games (l.2: from {name}.games import FACTS)" in text
