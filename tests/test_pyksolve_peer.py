"""The pyksolve (Klondike-Solver) peer of the solver benchmark, ``bench/pyksolve_peer.py``.

pyksolve is a bench dependency, not a test dependency: everything here runs without it, on
data captured once from pyksolve 0.0.15 (its own view of game 1's deal, and two of its
solutions); the few tests that call pyksolve are skipped when it is not installed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from patiencekit import new_game


def _load_peer() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "pyksolve_peer.py"
    spec = importlib.util.spec_from_file_location("pyksolve_peer", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("pyksolve_peer", module)
    spec.loader.exec_module(module)
    return module


peer = _load_peer()

# pyksolve 0.0.15: Solitaire(); load_solitaire(GAME_1_DECK); reset_game(); game_diagram_pysol()
GAME_1_DECK = (
    "123073052111093022112104094131132053071051133121012054041134024033031122092013114014"
    "043011042074034102044103083021113072062084082124061032081101064091023063"
)
GAME_1_PYSOL_DIAGRAM = (
    "Foundations: H-0 C-0 D-0 S-0\n"
    "Talon: ==> 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H <==\n"
    ": QH\n"
    ": <7H> TS\n"
    ": <5D> <9S> 5C\n"
    ": <JC> <KC> <KH> 4C\n"
    ": <9H> <KD> <QC> <KS> 3C\n"
    ": <2D> <5H> <AD> <2S> <QD> AH\n"
    ": <JD> <7C> <5S> <3H> <9D> <JS> AS"
)

# pyksolve 0.0.15 moves_made() after solve_fast(0, 0, 20000): game 4 draw 3, game 2 draw 1
SOLUTION_4_DRAW_3 = (
    "2S F2 7S F7 14 DR5 W1 W1 W1 W1 73 F7 W7 54 F5 57 F5 57 F5 72-4 F7 DR1 W4 74 F7 72 F7 DR2 "
    "WD NEW DR1 W7 41-5 F4 DR2 W2 42 F4 4C F4 5C F5 DR3 NEW DR1 WC WC DR2 WD 5D 1C 2C 72-2 F7 "
    "67 F6 6D F6 31-2 F3 35 F3 3D 6D F6 6H F6 WH 6S F6 WH 1H WC 2H DR2 WS 1S 1H 2S 1S 2H WD 1H "
    "2C WC W6 WH WS WH WC WD 1S 2D 1D 2S 1C 2H 4S 6D 1D 2S 6C 7H 1C 2D 5H 7S"
)
SOLUTION_2_DRAW_1 = (
    "DR3 WC 52 F5 52 F5 51 F5 DR2 WH DR4 W5 DR3 WH DR2 WD WH DR7 WS 76 F7 73 F7 W7 DR1 W1 DR1 "
    "W2 DR1 NEW DR1 W7 DR1 WH DR4 WS 5S 6S 1S 7S 4S F4 4D F4 3S DR1 W4 DR3 WD DR1 WH 5D F5 6D "
    "F6 1D 67 F6 73-3 F7 72 F7 7H F7 WH 34-4 F3 DR1 W2 12 21-7 F2 2C 63 F6 46-6 F4 4C 72 F7 "
    "62-7 F6 37-2 F3 3C 6C F6 2C 1C 2D 1D 2C 2D 7D 1C W2 WC WS WH 2H 1H 2S 1C 2D 7S 6C 5C 7D "
    "DR2 WH 1H 2S 1S 2D WH"
)


def _cards(deck: str) -> list[str]:
    """The deck string's 52 cards in our text."""
    groups = [deck[i : i + 3] for i in range(0, len(deck), 3)]
    return ["A23456789TJQK"[int(g[:2]) - 1] + "CDHS"[int(g[2]) - 1] for g in groups]


# -- the deal --------------------------------------------------------------------------------------


def test_game_1_deck_string_is_the_one_pyksolve_was_checked_with() -> None:
    assert peer.deck_string(1) == GAME_1_DECK


def test_pyksolve_sees_game_1_as_we_deal_it() -> None:
    """pyksolve's own diagram of GAME_1_DECK: same columns, face-down cards and stock order."""
    assert peer.layout_from_pysol_diagram(GAME_1_PYSOL_DIAGRAM) == peer.our_layout(1)


def test_layout_lists_the_stock_first_drawn_first() -> None:
    game = new_game("klondike-draw1", 1)
    _, stock = peer.our_layout(1)
    game.play("s")
    (waste,) = (p for p in game.view().to_json()["piles"] if p["kind"] == "waste")
    assert waste["cards"] == [stock[0]] == ["4H"]


@pytest.mark.parametrize("number", [2, 31999, 32000, 123456])
def test_deck_string_deals_row_by_row_then_the_stock(number: int) -> None:
    deck = peer.deck_string(number)
    assert len(deck) == 156 and deck.isdigit()
    cards = _cards(deck)
    assert len(set(cards)) == 52
    piles = {(p["kind"], p["index"]): p for p in new_game("klondike", number).deal_json()["piles"]}
    columns = [piles[("column", j)]["cards"] for j in range(1, 8)]
    start = 0
    for row in range(7):
        # the row's first card is column row+1's face-up card; then height `row` of the others
        assert cards[start : start + 7 - row] == [columns[j][row] for j in range(row, 7)]
        assert cards[start] == columns[row][-1]
        start += 7 - row
    assert start == 28
    assert cards[28:] == piles[("stock", 1)]["cards"][::-1]  # card 29 is drawn first


def test_deck_string_refuses_a_layout_that_is_not_a_fresh_deal() -> None:
    columns, stock = peer.our_layout(1)
    with pytest.raises(ValueError, match="24 stock cards"):
        peer.deck_string_from_layout((columns, stock[:-1]))
    down, up = columns[3]
    columns[3] = (down[:-1], [down[-1], *up])
    with pytest.raises(ValueError, match="one face-up card"):
        peer.deck_string_from_layout((columns, stock))


def test_pysol_diagram_with_a_waste_is_refused() -> None:
    text = GAME_1_PYSOL_DIAGRAM.replace("Talon: ==> 4H", "Talon: 4H ==>")
    with pytest.raises(ValueError, match="waste is not empty"):
        peer.layout_from_pysol_diagram(text)


# -- moves -----------------------------------------------------------------------------------------


def test_ks_moves_to_ours() -> None:
    assert peer.ks_moves_to_ours("DR3 WC 52 F5 NEW DR1 W7 73-3 F7 1D WS H4 S7 2C") == [
        "s",
        "s",
        "s",
        "w f1",
        "c5 c2",
        "t",
        "s",
        "w c7",
        "c7 c3 3",
        "c1 f4",
        "w f2",
        "f3 c4",
        "f2 c7",
        "c2 f1",
    ]


@pytest.mark.parametrize("token", ["XY", "W8", "W", "DRx", "5G"])
def test_ks_moves_to_ours_refuses_unknown_moves(token: str) -> None:
    with pytest.raises(ValueError):
        peer.ks_moves_to_ours(token)


@pytest.mark.parametrize(
    ("number", "draw", "solution"),
    [(4, 3, SOLUTION_4_DRAW_3), (2, 1, SOLUTION_2_DRAW_1)],
    ids=["game 4 draw 3", "game 2 draw 1"],
)
def test_pyksolve_solutions_win_our_games(number: int, draw: int, solution: str) -> None:
    moves = peer.ks_moves_to_ours(solution)
    assert peer.replay(number, draw, moves) is None


def test_replay_reports_a_solution_that_does_not_fit() -> None:
    moves = peer.ks_moves_to_ours(SOLUTION_4_DRAW_3)
    problem = peer.replay(4, 1, moves)  # a draw-3 solution played with draw 1
    assert problem is not None and problem.startswith("move ")
    assert peer.replay(4, 3, moves[:-1]) == f"not won after {len(moves) - 1} moves"


# -- statistics ------------------------------------------------------------------------------------


def test_summary() -> None:
    records = [
        {"outcome": o, "seconds": s, "peak_mb": m, **extra}
        for o, s, m, extra in [
            ("solved", 1.0, 20.0, {"replay": None}),
            ("solved", 2.0, 30.0, {"replay": "move 3 (s): no"}),
            ("unsolvable", 4.0, 50.0, {}),
            ("limit", 30.0, 500.0, {}),
        ]
    ]
    assert peer.summarize(records) == {
        "deals": 4,
        "solved": 2,
        "unsolvable": 1,
        "limit": 1,
        "replay_failures": 1,
        "median_seconds": 3.0,
        "p90_seconds": 30.0,
        "median_peak_mb": 40.0,
        "max_peak_mb": 500.0,
    }
    assert peer.percentile([5.0, 1.0, 3.0], 50) == 3.0
    assert peer.percentile(list(map(float, range(1, 11))), 90) == 9.0


# -- with pyksolve installed -----------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 31999, 32000])
def test_deck_mapping_against_pyksolve(number: int) -> None:
    pytest.importorskip("pyksolve", exc_type=ImportError)
    peer.check_deck_mapping(number)


def test_measure_pyksolve_in_a_child_process() -> None:
    pytest.importorskip("pyksolve", exc_type=ImportError)
    record = peer.measure_pyksolve(4, 3, "fast", max_seconds=60, max_states=20000)
    assert record["outcome"] == "solved" and record["replay"] is None
    assert record["moves"] == len(record["solution"]) > 52
    assert 0 < record["solve_seconds"] < record["seconds"] and record["peak_mb"] > 1


def test_measure_pyksolve_kills_at_the_time_limit() -> None:
    pytest.importorskip("pyksolve", exc_type=ImportError)
    # game 3 draw 1 takes pyksolve's minimal search well over 10 s
    record = peer.measure_pyksolve(3, 1, "minimal", max_seconds=0.5)
    assert (record["outcome"], record["limit"], record["solve_seconds"]) == ("limit", "time", None)
    assert 0.5 <= record["seconds"] < 5 and record["peak_mb"] > 1
