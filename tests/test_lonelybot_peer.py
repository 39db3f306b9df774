"""The lonelybot peer's deal format (``bench/lonelybot_peer.py``): each Klondike deal as
lonelybot's deck, read back into the deal it came from; and the optional-dependency strip
of its offline build (``bench/peers/lonelybot/strip_optional.py``)."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

import patiencekit

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


peer = _load("lonelybot_peer_bench", BENCH / "lonelybot_peer.py")
strip = _load("lonelybot_strip_optional", BENCH / "peers" / "lonelybot" / "strip_optional.py")


def _read_back(line: str) -> tuple[int, int, list[list[int]], list[int]]:
    """lonelybot's reading of a deck line (its ``Solitaire::new``): column i takes the
    cards from i(i+1)/2, i face down and its last face up; the stock is the rest, drawn
    from the front."""
    fields = [int(x) for x in line.split()]
    number, draw, deck = fields[0], fields[1], fields[2:]
    columns = [deck[i * (i + 1) // 2 : i * (i + 1) // 2 + i + 1] for i in range(7)]
    return number, draw, columns, deck[28:]


@pytest.mark.parametrize("game_id", ["klondike", "klondike-draw1"])
@pytest.mark.parametrize("number", [1, 617, 31999, 32000, 8_000_360])
def test_a_deck_line_is_the_deal(game_id: str, number: int) -> None:
    """Read back as lonelybot reads it, the line is the deal: the same columns (face-down
    cards bottom first, the face-up card last), the stock drawn in the same order, the
    draw count; every card once."""
    line = peer.deck_line(game_id, number)
    got_number, draw, columns, stock = _read_back(line)
    game = patiencekit.new_game(game_id, number)
    state = game.state
    t = state.t
    assert got_number == number and draw == t.draw
    assert columns == [state.piles[c] for c in t.columns]
    # our stock's top (its last card) is drawn first: lonelybot draws from the front
    assert stock == state.piles[t.stock][::-1]
    game.play("s")
    assert state.piles[t.waste] == stock[: t.draw]


def test_a_deck_line_refuses_another_game() -> None:
    """Only a Klondike deal has lonelybot's layout: another game's deal is refused, with
    the game and number named."""
    with pytest.raises(ValueError, match="patriarchs #5"):
        peer.deck_line("patriarchs", 5)


def test_the_strip_removes_optional_dependencies_and_their_features() -> None:
    text = """[package]
name = "x"

[dependencies]
core = { version = "1" }
serde = { version = "1", optional = true, features = [
    "derive",
] }
log = { version = "0.4", optional = true }

[features]
default = ["std", "serde"]
std = ["serde?/std", "dep:log", "core/std"]

[dev-dependencies]
criterion = "0.5"
"""
    out, removed = strip.strip(text)
    assert removed == ["log", "serde"]
    data = tomllib.loads(out)
    assert data["dependencies"] == {"core": {"version": "1"}}
    assert data["features"] == {"default": ["std"], "std": ["core/std"], "log": [], "serde": []}
    assert "dev-dependencies" not in data
