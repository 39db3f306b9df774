"""The generic solver (every game but Klondike): wins found on two-deck deals within
small budgets and replayed to a win through the checked engine; sound ``unsolvable``
verdicts (a depth-first search stopped and resumed many times, an exhaustive beam);
compact canonical position keys."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from family_positions import position
from patiencekit import new_game
from patiencekit.games import get_rules
from patiencekit.solver import SolveResult, solve
from patiencekit.solver.generic import MIN_FIT, GenericSearch, prefers_best_first
from patiencekit.solver.limits import Limits
from patiencekit.state import DRAW, State
from solver_budgets import positions

GOLDEN = Path(__file__).parent / "data" / "golden"


def replays_to_a_win(game_id: str, number: int, result: SolveResult) -> None:
    game = new_game(game_id, number)
    for move in result.moves:
        game.play(move)
    assert game.is_won(), f"{game_id} #{number}: the solution does not win"


# Deals the beam wins after a few thousand positions (a few tenths of a second); the
# searches before it found almost none of them within seconds. (PatienceMax all to piles 44
# the depth-first search wins.) The PatienceMax deals the best-first search wins after some
# thousands of positions; the beam won none.
QUICK = {
    "patriarchs": [2, 3, 5, 6, 47],
    "patiencemax": [25, 27],
    "patiencemax-all-to-piles": [3, 44],
    "royal-cotillion": [2, 13],
    "odd-and-even": [9, 10],
    "senior-wrangler": [2, 4, 9],
    "contradance": [10],
}


#: the positions budget of the quick deals: the most any of them needs is about 8,000
#: (Patriarchs 5 and 47, Royal Cotillion 13, Odd and Even 9: 4,500-8,100 positions searched;
#: PatienceMax 25 and 27, all to piles 3: 8,200-10,800 kept by the best-first search; all to
#: piles 44: 2,200 kept by the depth-first search); stopped at a quarter of
#: it, each is still won
QUICK_STATES = 65_536


@pytest.mark.parametrize(("game_id", "number"), [(g, n) for g, ns in QUICK.items() for n in ns])
def test_two_deck_deal_is_solved_within_a_small_budget(game_id: str, number: int) -> None:
    # positions, not seconds: under load a 6 s budget once ran out on PatienceMax (all to
    # piles) 44 after 11,264 positions, which an idle machine solves after 6,571
    result = solve(game_id, number, budget=positions(QUICK_STATES))
    assert result.outcome == "solved", result
    assert result.limit is None and result.moves
    replays_to_a_win(game_id, number, result)


def test_golden_picture_patience_deal_is_solved_within_its_memory() -> None:
    """A run once stopped at the memory limit on this known winnable deal. Bounded by
    positions, which bound its memory (the memory limit is the process's peak, which
    depends on what the pytest worker ran before): solve's first search here, the compact
    beam of the reserve games, wins it after 84,774 positions, holding at most 59,484 at
    once (each a few short ``bytes``)."""
    record = json.loads((GOLDEN / "picture-patience.json").read_text())
    game_id, number = record["game"], record["number"]
    result = solve(game_id, number, budget=positions(131_072))
    assert result.outcome == "solved", result
    assert result.unique_states < 80_000
    replays_to_a_win(game_id, number, result)


@pytest.mark.parametrize("number", range(1, 11))
def test_captured_queens_is_still_decided_at_once(number: int) -> None:
    # at once: in at most 442 positions searched (deals 1-10)
    result = solve("captured-queens", number, budget=positions(2_000))
    assert result.decided, result
    assert result.states < 1_000
    if result.outcome == "solved":
        replays_to_a_win("captured-queens", number, result)


# -- soundness -------------------------------------------------------------------------


def _exact(game_id: str, number: int) -> GenericSearch:
    return GenericSearch(State.deal(get_rules(game_id), number))


@pytest.mark.parametrize(("game_id", "stock"), [("odd-and-even", 25), ("patriarchs", 20)])
def test_a_depth_first_search_stopped_and_resumed_gives_the_one_run_verdict(
    game_id: str, stock: int
) -> None:
    """Deal 1 with only the stock's next cards (so it cannot be won: some thousands of
    positions to search). Stopped every 256 positions, the search keeps only finished
    positions in its table and resumes from the root: it still says unsolvable, having
    searched the same positions as one uninterrupted run (all those reachable)."""

    def search() -> GenericSearch:
        state = State.deal(get_rules(game_id), 1)
        state.piles[state.t.stock] = state.piles[state.t.stock][-stock:]
        return GenericSearch(state)

    whole = search()
    assert whole._dfs(whole.overall) is False
    sliced = search()
    sliced.check_mask = 255
    verdict = None
    slices = 0
    while verdict is None and slices < 10_000:
        # a part budget of no time stops the search at its next check (every 256
        # positions) whatever the machine's speed: a stop, not a race
        verdict = sliced._dfs(Limits(max_seconds=0.0))
        slices += 1
    assert verdict is False
    assert slices > 3, "the search was hardly stopped: the test tests nothing"
    assert sliced.seen == whole.seen


@pytest.mark.parametrize("number", [4, 5, 7])
def test_beam_says_unsolvable_only_after_leaving_nothing_out(number: int) -> None:
    gs = GenericSearch(State.deal(get_rules("captured-queens"), number), greedy=True)
    won, limit = gs.run()
    assert won is not True
    # the widest pass keeps everything in this small space: the proof is the beam's
    assert (won, limit) == (False, None)
    assert _exact("captured-queens", number).run() == (False, None)


@pytest.mark.parametrize("game_id", ["patriarchs", "odd-and-even", "picture-patience"])
def test_a_dead_two_deck_position_is_proved_unsolvable_by_every_phase(game_id: str) -> None:
    used = 0 if game_id == "picture-patience" else 1
    game = position(game_id, {"w": "4C 3C", "r1": "9D"}, redeals=used)
    for greedy in (True, False):
        gs = GenericSearch(game.state, greedy=greedy, max_states=10_000)  # needs 3-8
        assert gs.run() == (False, None)


def test_the_search_plays_no_two_deck_reserve_card_as_forced() -> None:
    """A reserve card its foundation takes at once may be better kept (which waste card
    takes its space depends on when it leaves), so is a card a reserve may take from the
    waste: no such move is pruned (tests/test_solver_safe_moves.py has the rest)."""
    for game_id in ("patriarchs", "picture-patience", "odd-and-even"):
        gs = GenericSearch(State.deal(get_rules(game_id), 1))
        assert not gs.forced_sources
    assert GenericSearch(State.deal(get_rules("captured-queens"), 1)).forced_sources


# -- keys ---------------------------------------------------------------------------------


def test_key_is_compact_and_canonical() -> None:
    gs = GenericSearch(State.deal(get_rules("picture-patience"), 244196))
    key = gs.key()
    assert isinstance(key, bytes)
    assert sys.getsizeof(key) < 200  # a tuple of tuples took kilobytes
    t = gs.t
    r1, r2 = t.by_label["r1"], t.by_label["r2"]
    piles = gs.state.piles
    assert piles[r1] != piles[r2]
    piles[r1], piles[r2] = piles[r2], piles[r1]  # interchangeable reserve spaces
    assert gs.key() == key
    gs.state.push(DRAW)
    assert gs.key() != key
    gs.state.pop()
    assert gs.key() == key
    # the redeals count is part of the position
    gs.state.redeals += 1
    assert gs.key() != key


def test_key_tells_apart_cards_moved_between_piles() -> None:
    """A card moved from the end of one pile to the start of the next changes the key
    (the packing has pile separators)."""
    gs = GenericSearch(State.deal(get_rules("senior-wrangler"), 3))
    key = gs.key()
    t = gs.t
    p1, p2 = t.by_label["p1"], t.by_label["p2"]
    piles = gs.state.piles
    piles[p2].insert(0, piles[p1].pop())
    assert gs.key() != key


def _king_to_foundation_position(game_id: str) -> tuple[object, tuple[int, int, int]]:
    """Deal #1 with clubs A..Q taken out onto a foundation and a king of clubs moved to the
    top of the first column: the king can go onto the foundation."""
    from patiencekit.rules import PileKind
    from patiencekit.state import State

    state = State.deal(get_rules(game_id), 1)
    t = state.t

    def take(card: int) -> None:
        for i, pile in enumerate(state.piles):
            if t.kinds[i] is not PileKind.FOUNDATION and card in pile:
                pos = pile.index(card)
                del pile[pos]
                if pos < state.down[i]:
                    state.down[i] -= 1
                return
        raise AssertionError(f"card {card} not found")

    foundation, column = t.foundations[0], t.columns[0]
    for card in range(12):  # clubs ace to queen
        take(card)
        state.piles[foundation].append(card)
    take(12)  # a king of clubs
    state.piles[column].append(12)
    move = (column, foundation, 1)
    assert move in state.moves()
    return state, move


@pytest.mark.parametrize(
    ("game_id", "kept"), [("patiencemax", False), ("patiencemax-all-to-piles", True)]
)
def test_a_king_goes_to_a_foundation_only_where_that_can_still_win(
    game_id: str, kept: bool
) -> None:
    """Kings-at-the-tops PatienceMax: a king on a foundation never comes back, so the search
    does not play one there; where all cards go to the piles it must."""
    state, move = _king_to_foundation_position(game_id)
    search = GenericSearch(state)  # type: ignore[arg-type]
    tried = [child[0] for child in search.children() if len(child) == 1]
    assert (move in tried) is kept


# -- the best-first search (PatienceMax) ---------------------------------------------------


def test_patiencemax_looks_for_wins_best_first_and_says_unsolvable_only_when_exhausted() -> None:
    """Seven kings at the column tops; the eighth is on a five with a four of clubs below
    it. With a free hand cell the four goes there and the king to an empty column: won,
    best first. With the hand full nothing can take the four: the small space is
    searched whole and the answer is unsolvable."""
    kings = {f"c{n}": k for n, k in enumerate(["KC", "KC", "KD", "KD", "KH", "KS", "KS"], 1)}
    for hand, expected in (
        ({"h1": "9D"}, True),
        ({"h1": "9D", "h2": "9H", "h3": "JD", "h4": "JH"}, False),
    ):
        game = position("patiencemax", {**kings, "c8": "5D KH 4C", **hand})
        assert prefers_best_first(game.state)
        gs = GenericSearch(game.state, greedy=True)
        assert gs.best_first
        won, limit = gs.run()
        assert (won, limit) == (expected, None)
        if won:
            for text in gs.move_texts():
                game.play(text)
            assert game.is_won()
    assert not prefers_best_first(State.deal(get_rules("patriarchs"), 1))


def test_the_last_beam_pass_is_made_to_fit_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass cut off by the budget wins nothing: after a failed pass the next is as wide
    as fits in what is left (here a positions budget, so the widths are the same on any
    machine), and the search ends within its budget, not in the middle of a pass."""
    widths: list[int] = []
    beam = GenericSearch._beam

    def logged(self: GenericSearch, width: int, rng: object) -> tuple[bool, bool]:
        widths.append(width)
        return beam(self, width, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(GenericSearch, "_beam", logged)
    runs = []
    for _ in range(2):
        widths.clear()
        # Odd and Even #34: no beam of these widths wins it
        gs = GenericSearch(new_game("odd-and-even", 34).state, greedy=True, max_states=40_000)
        assert gs.run() == (None, "states")
        assert gs.nodes <= 40_000  # it stopped between passes
        runs.append(list(widths))
    assert runs[0] == runs[1]
    widths = runs[0]
    k = next(i for i in range(1, len(widths)) if widths[i] != 2 * widths[i - 1])
    assert widths[:k] == [2**j for j in range(1, k + 1)]  # doubling while it fits
    assert all(MIN_FIT <= w < 2 * widths[k - 1] for w in widths[k:]), widths
