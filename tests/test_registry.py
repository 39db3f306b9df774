"""The registry is the one source of game facts: every game has facts, they agree with its
rules, and the lists the solver and the competition keep are read from it."""

from __future__ import annotations

import dataclasses

import pytest

from patiencekit.cards import Rank, parse_card_index
from patiencekit.games import FACTS, GAMES, facts_of, get_rules
from patiencekit.games.facts import (
    FoundationBase,
    GameFacts,
    Layout,
    Solver,
    check_facts,
    foundation_bases,
    stock_facts,
)
from patiencekit.rules import PileKind, Turn
from patiencekit.state import State

GAME_IDS = list(GAMES)


def test_every_game_has_facts_and_every_facts_a_game() -> None:
    assert list(FACTS) == GAME_IDS
    assert all(isinstance(f, GameFacts) for f in FACTS.values())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_facts_of_finds_a_game_as_get_rules_does(game_id: str) -> None:
    assert facts_of(game_id) is FACTS[game_id]
    for alias in get_rules(game_id).aliases:
        assert facts_of(alias.upper()) is FACTS[game_id]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_facts_agree_with_the_rules(game_id: str) -> None:
    rules, facts = GAMES[game_id], FACTS[game_id]
    assert check_facts(rules, facts) is facts
    if facts.ranked:
        assert rules.scored, "ranked play, tournaments and the Top 100 count the score"
    assert facts.solver in set(Solver)
    assert facts.layout in set(Layout)
    assert len(facts.lobby_cards) == 3
    for card in facts.lobby_cards:
        parse_card_index(card)
    # a pile word names a kind of pile the game deals
    assert set(facts.pile_words) <= set(State.deal(rules, 1).t.kinds)


def test_facts_cannot_be_changed_in_place() -> None:
    facts = FACTS["royal-cotillion"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        facts.ranked = True  # type: ignore[misc]
    with pytest.raises(TypeError):
        facts.pile_words[PileKind.COLUMN] = "pile"  # type: ignore[index]
    assert facts.pile_word(PileKind.COLUMN) == "left pile"


def test_short_names_and_blurbs_are_distinct() -> None:
    assert len({f.short_name for f in FACTS.values()}) == len(FACTS)
    assert len({f.blurb for f in FACTS.values()}) == len(FACTS)


def test_the_klondike_search_serves_only_klondike_shaped_games() -> None:
    for game_id, facts in FACTS.items():
        if facts.solver is Solver.KLONDIKE:
            rules = GAMES[game_id]
            assert rules.columns == 7 and rules.decks == 1 and len(rules.foundations) == 4
    with pytest.raises(ValueError, match="not Klondike-shaped"):
        check_facts(
            GAMES["patriarchs"],
            dataclasses.replace(FACTS["patriarchs"], solver=Solver.KLONDIKE),
        )


def test_facts_that_contradict_the_rules_are_refused() -> None:
    patriarchs = GAMES["patriarchs"]
    with pytest.raises(ValueError, match="ranked but not scored"):
        check_facts(patriarchs, dataclasses.replace(FACTS["patriarchs"], ranked=True))
    with pytest.raises(ValueError, match="no column piles"):
        check_facts(
            patriarchs,
            dataclasses.replace(FACTS["patriarchs"], pile_words={PileKind.COLUMN: "pile"}),
        )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"lobby_cards": ("KS", "QH")}, "shows 3 cards"),
        ({"lobby_cards": ("KS", "QH", "XX")}, "'XX' is not a card"),
        ({"lobby_cards": ("KS", "QH", "10C")}, "as 'TC'"),
        ({"short_name": ""}, "short name"),
        ({"blurb": "two\nlines"}, "one line"),
    ],
)
def test_facts_are_checked_on_creation(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(FACTS["klondike"], **change)  # type: ignore[arg-type]


# -- what is read from the rules, not written again -------------------------------------


def test_foundation_bases_are_the_rules_base_cards() -> None:
    assert [str(b) for b in foundation_bases(GAMES["klondike"])] == ["AC", "AS", "AH", "AD"]
    assert [str(b) for b in foundation_bases(GAMES["patiencemax"])] == ["A"] * 8
    assert [str(b)[0] for b in foundation_bases(GAMES["patriarchs"])] == ["A"] * 4 + ["K"] * 4
    assert [str(b)[0] for b in foundation_bases(GAMES["odd-and-even"])] == ["A"] * 4 + ["2"] * 4
    assert [str(b) for b in foundation_bases(GAMES["senior-wrangler"])] == list("468TQA35")
    queens = foundation_bases(GAMES["captured-queens"])
    assert [b.rank.letter for b in queens[::4]] == ["5", "Q", "6"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_foundation_base_is_the_first_card_its_foundation_takes(game_id: str) -> None:
    rules = GAMES[game_id]
    bases = foundation_bases(rules)
    assert len(bases) == len(rules.foundations)
    for base, rule in zip(bases, rules.foundations, strict=True):
        assert base == FoundationBase(Rank(rule.rank_at(0)), rule.suit)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_stock_facts_are_what_s_and_t_do(game_id: str) -> None:
    rules = GAMES[game_id]
    facts = stock_facts(rules)
    t = State.deal(rules, 1).t
    assert facts.draw == (t.draw if t.stock >= 0 else 0)
    if rules.stock is None:
        assert (facts.redeals, facts.turn) == (0, None)
    else:
        assert facts.redeals == rules.stock.redeals
        assert facts.turn == (None if facts.redeals == 0 else rules.stock.turn)
    if facts.turn is Turn.NEXT_PACKET:
        assert facts.draw == 0


# -- the lists kept elsewhere are read from the registry ----------------------------------


def test_the_solver_chooses_the_klondike_search_by_the_facts() -> None:
    from patiencekit.solver import KLONDIKE_IDS

    assert tuple(g for g, f in FACTS.items() if f.solver is Solver.KLONDIKE) == KLONDIKE_IDS
    assert KLONDIKE_IDS == ("klondike", "klondike-draw1")


def test_the_competition_variants_are_the_ranked_games() -> None:
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    from patiencekit.server.competition.scoring import VARIANTS

    assert tuple(g for g, f in FACTS.items() if f.ranked) == VARIANTS
    assert VARIANTS == ("klondike", "klondike-draw1")
