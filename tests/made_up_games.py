"""Games made up from the rules vocabulary (``patiencekit.rules``), for the tests that show that
the moves, the refusals and their words follow the data, not a hard-coded rule
(tests/test_rules_once.py, tests/test_words.py): ``from made_up_games import ...``.

A made-up game is dealt as Klondike (:data:`KLONDIKES_DEAL`: one deck, seven columns, a
foundation of each suit) or as PatienceMax (:data:`PATIENCEMAXS_DEAL`: two decks, ten columns,
eight foundations, a hand of four), with the rules the test names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from patiencekit import GameRules, Suit
from patiencekit.games.klondike import deal_klondike
from patiencekit.games.patiencemax import deal_patiencemax
from patiencekit.rules import Build, ColumnRule, Direction, EmptyFill, FoundationRule, SuitPolicy

__all__ = ["EITHER_BY_TWOS", "KLONDIKES_DEAL", "PATIENCEMAXS_DEAL", "made_up", "suit_foundations"]


def suit_foundations(**settings: Any) -> tuple[FoundationRule, ...]:
    """A foundation of each suit, each with ``settings``."""
    return tuple(FoundationRule(suit=s, **settings) for s in Suit)


KLONDIKES_DEAL: Mapping[str, Any] = {
    "decks": 1,
    "deal": deal_klondike,
    "columns": 7,
    "foundations": suit_foundations(),
}
PATIENCEMAXS_DEAL: Mapping[str, Any] = {
    "decks": 2,
    "deal": deal_patiencemax,
    "columns": 10,
    "hand": 4,
    "foundations": tuple(FoundationRule() for _ in range(8)),
}


def made_up(
    id: str, name: str, rules_text: str, dealt_as: Mapping[str, Any], **rules: Any
) -> GameRules:
    """A game dealt as ``dealt_as`` says (:data:`KLONDIKES_DEAL`, :data:`PATIENCEMAXS_DEAL`)
    with ``rules`` (which may change what it says too)."""
    return GameRules(id=id, name=name, rules_text=rules_text, **{**dealt_as, **rules})


#: either way by two in any suit, one card at a time; nothing fills an empty column
EITHER_BY_TWOS = made_up(
    "test-either-by-twos",
    "Either way by twos (made up)",
    "PatienceMax's deal; columns build up or down by two in any suit, one card at a time; an "
    "empty column stays empty.",
    PATIENCEMAXS_DEAL,
    column_rule=ColumnRule(
        build=Build(direction=Direction.EITHER, suits=SuitPolicy.ANY_SUIT, step=2),
        empty=EmptyFill.NONE,
        strings=False,
        to_hand=True,
    ),
)
