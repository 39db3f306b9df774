"""The generic search's one pruning of moves: a card played to a foundation at once.

:meth:`GenericSearch._safe` keeps only one move where a card that no refill can replace
fits every place left for its copies. A pruning that loses a win would make the solver
call a winnable deal unsolvable, so these tests compare whole searches with and without
it on many small positions (the last cards of a game, dealt at random): the verdicts
must be the same. (A reserve card is left out of the rule: when it leaves, the waste's
top card takes its space, so when it is played decides which card that is.)
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from patiencekit.games import get_rules
from patiencekit.rules import PileKind
from patiencekit.solver.generic import GenericSearch
from patiencekit.state import State


def endgame(
    game_id: str,
    rng: random.Random,
    left: int = 3,
    short: int = 5,
    columns: float = 0.2,
) -> State:
    """A position of ``game_id`` with ``short`` foundations short of 1 to ``left`` cards,
    the missing cards spread at random over the piles a card may lie in (nothing on a
    column of a game without columns, one card per reserve space; ``columns`` is the
    share that goes to the columns)."""
    rules = get_rules(game_id)
    state = State.deal(rules, 1)
    t = state.t
    for i in range(t.pile_count):
        state.piles[i] = []
        state.down[i] = 0
    wanted = [c for c in range(52) for _ in range(rules.decks)]
    shorts = set(rng.sample(range(len(t.foundations)), short))
    for n, (fi, rule) in enumerate(zip(t.foundations, rules.foundations, strict=True)):
        assert rule.suit is not None
        height = rule.size - (rng.randint(1, left) if n in shorts else 0)
        cards = [rule.suit * 13 + rule.rank_at(i) for i in range(height)]
        state.piles[fi] = cards
        for c in cards:
            wanted.remove(c)
    # what is left: cards not in any foundation's sequence (Captured Queens' queens,
    # Contradance's fives and sixes are all placed) and the missing tops
    rng.shuffle(wanted)
    spaces = list(t.reserve)
    rng.shuffle(spaces)
    for c in wanted:
        where = rng.random()
        if t.columns and where < columns:
            state.piles[rng.choice(t.columns)].append(c)
        elif spaces and where < columns + 0.1:
            state.piles[spaces.pop()].append(c)
        elif where < 0.75:
            state.piles[t.waste].append(c)
        else:
            state.piles[t.stock].append(c)
    state.down[t.stock] = len(state.piles[t.stock])
    left_redeals = rules.stock.redeals or 0
    state.redeals = rng.randint(0, left_redeals)
    return state


def verdict(state: State, **rules: Any) -> bool | None:
    """The exact search's answer, with the search's attributes in ``rules`` replaced
    (``forced_sources=set()``: no card played at once; ``dead_tops=False``: no cut)."""
    gs = GenericSearch(state, max_states=200_000)
    for name, value in rules.items():
        assert hasattr(gs, name), name
        setattr(gs, name, value)
    won, limit = gs.run()
    assert limit is None, "the position is too big for the test"
    return won


@pytest.mark.parametrize(
    ("game_id", "short", "columns"),
    [("contradance", 5, 0.0), ("royal-cotillion", 6, 0.6), ("captured-queens", 4, 0.0)],
)
def test_playing_a_safe_card_at_once_never_loses_a_win(
    game_id: str, short: int, columns: float
) -> None:
    rng = random.Random(f"safe-{game_id}")
    pruned = 0
    outcomes = set()
    for _ in range(150):
        state = endgame(game_id, rng, 3, short, columns)
        gs = GenericSearch(state)
        assert gs.forced_sources, "the rule is not in use here: the test tests nothing"
        if gs._safe(state.moves()) is not None:
            pruned += 1
        with_rule = verdict(state)
        without = verdict(state, forced_sources=set())
        assert with_rule == without, state.piles
        outcomes.add(with_rule)
    # the positions are neither all won nor all lost, and the rule was used in many
    assert outcomes == {True, False}
    assert pruned > 30


def test_the_rule_applies_only_to_piles_nothing_refills() -> None:
    def sources(game_id: str) -> set[PileKind]:
        gs = GenericSearch(State.deal(get_rules(game_id), 1))
        return {gs.t.kinds[i] for i in gs.forced_sources}

    assert sources("captured-queens") == {PileKind.WASTE}
    assert sources("contradance") == {PileKind.WASTE}
    # the waste's top card may be taken into a reserve space: only the left piles
    assert sources("royal-cotillion") == {PileKind.COLUMN}
    for game_id in ("picture-patience", "odd-and-even", "patriarchs", "senior-wrangler"):
        assert sources(game_id) == set()


def test_a_dead_waste_top_on_the_last_pass_is_only_cut_where_nothing_wins() -> None:
    """Contradance: on the last pass a waste top whose places all need a card that is
    not in the stock ends the search there. Whole searches with and without the cut
    agree on random endgames, and the cut is used in many of them."""
    rng = random.Random("dead-tops")
    cut = 0
    outcomes = set()
    for _ in range(150):
        state = endgame("contradance", rng, 3, 6, 0.0)
        state.redeals = 1  # the last pass
        gs = GenericSearch(state)
        assert gs.dead_tops
        cut += gs._dead_top()
        with_cut = verdict(state)
        without = verdict(state, dead_tops=False)
        assert with_cut == without, state.piles
        outcomes.add(with_cut)
    assert outcomes == {True, False}
    assert cut > 10
