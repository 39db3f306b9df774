"""The generic search's prunings for Patriarchs' family (:mod:`patiencekit.solver.dead_ends`
and :meth:`GenericSearch._safe`): each one must never lose a win.

A pruning that loses a win makes the solver call a winnable deal unsolvable, so each is
A/B-tested: whole exact searches with and without it, on many small random positions of
each game (the last cards of a game, dealt at random), must give the same verdicts; and a
deliberately unsound variant of it must be caught by the same comparison, so that the
comparison is known to be able to see a lost win. Budgets are positions, never seconds.
"""

from __future__ import annotations

from patiencekit.cards import parse_card_index
from patiencekit.games import get_rules
from patiencekit.solver.generic import GenericSearch
from patiencekit.state import State


def board(game_id: str, piles: dict[str, str], complete: tuple[int, ...] = ()) -> State:
    """A position of ``game_id`` with only the given piles (by label, bottom card first),
    and the foundations of the suits in ``complete`` full."""
    rules = get_rules(game_id)
    state = State.deal(rules, 1)
    t = state.t
    for i in range(t.pile_count):
        state.piles[i] = []
        state.down[i] = 0
    for fi, rule in zip(t.foundations, rules.foundations, strict=True):
        if rule.suit in complete:
            state.piles[fi] = [rule.suit * 13 + rule.rank_at(n) for n in range(rule.size)]
    for label, text in piles.items():
        i = t.by_label[label]
        state.piles[i] = [parse_card_index(c) for c in text.split()]
    state.down[t.stock] = len(state.piles[t.stock])
    assert sum(map(len, state.piles)) == rules.card_count
    return state


def test_a_card_open_on_both_its_foundations_goes_to_the_longer_one() -> None:
    """Royal Cotillion: both spade foundations have 4S on top, so 6S (on a left pile) fits
    both. From the ace the foundation ends at the queen (6 8 10 Q to go), from the two at
    the king (6 8 10 Q A 3 5 7 9 J K). The second 6S lies under the second AS, which only
    the longer one's end takes: with the first 6S on the shorter one the AS can never be
    played. Playing 6S at once is safe only onto the longer foundation (the rule once
    chose the first in layout order, the shorter one, and called this position lost)."""
    state = board(
        "royal-cotillion",
        {
            "f2": "AS 3S 5S 7S 9S JS KS 2S 4S",
            "f6": "2S 4S",
            "c1": "6S",
            "c2": "6S AS",
            **{
                f"r{n + 1}": card
                for n, card in enumerate("8S 8S TS TS QS QS 3S 5S 7S 9S JS KS".split())
            },
        },
        complete=(0, 2, 3),
    )
    gs = GenericSearch(state)
    t = state.t
    assert gs._safe(state.moves()) == (t.by_label["c1"], t.by_label["f6"], 1)
    won, limit = GenericSearch(state, max_states=10_000).run()
    assert (won, limit) == (True, None)
