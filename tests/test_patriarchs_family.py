"""RULES.md section 3, "Patriarchs and its family" (seed 001), played rule by rule.

Every rule sentence of Patriarchs, Picture Patience, Odd and Even, Royal Cotillion,
Contradance and Captured Queens is played here, legal and illegal. Each test is named
after the rule it plays and quotes it. Illegal moves are checked with
``family_positions.refused``: the message names the move and gives the reason, and the
position (board text, engine key, history) is unchanged.

Positions are hand-made (``family_positions.position``) unless a test is about the deal;
the deals are checked against PySolFC's dealing order (RULES.md "Deals",
research/pysolfc-notes.md 1.3-1.8) from the shared shuffle ``dealing_order``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from family_positions import (
    cards,
    count,
    labels,
    legal_texts,
    plays,
    position,
    refused,
    top_first,
    undo_restores,
)
from patiencekit import InvalidMoveError, new_game
from patiencekit.cards import card_text
from patiencekit.deals import dealing_order
from patiencekit.rules import PileKind


def said(card: str) -> str:
    """A card a rule asks for, as refusals say it (they name only cards in sight by their
    text): ``said("4C") == "a 4 of clubs"``, ``said("AS") == "an ace of spades"``."""
    rank = {"A": "an ace", "8": "an 8", "T": "a 10", "J": "a jack", "Q": "a queen",
            "K": "a king"}.get(card[0], f"a {card[0]}")
    suit = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}[card[1]]
    return f"{rank} of {suit}"


FAMILY = [
    "patriarchs",
    "picture-patience",
    "odd-and-even",
    "royal-cotillion",
    "contradance",
    "captured-queens",
]
#: games with a 3x3 reserve refilled "as in Patriarchs"
RESERVE9 = ["patriarchs", "picture-patience", "odd-and-even"]
#: games with a reserve refilled when a card is played from it
RESERVE_GAMES = [*RESERVE9, "royal-cotillion"]
#: redeals allowed (RULES.md section 3)
REDEALS = {
    "patriarchs": 1,
    "picture-patience": 0,
    "odd-and-even": 1,
    "royal-cotillion": 0,
    "contradance": 1,
    "captured-queens": 2,
}
#: a foundation set-up and a reserve card that plays on it, per game with a reserve
RESERVE_PLAY = {
    "patriarchs": ({"f1": "AC"}, "2C", "f1"),
    "picture-patience": ({}, "AC", "f1"),
    "odd-and-even": ({}, "AC", "f1"),
    "royal-cotillion": ({}, "AC", "f1"),
}
NUMBERS = [1, 5, 617, 31999, 32000, 1234567890]

SUITS = "CSHD"
UP = list("A23456789TJQK")


def suit_run(ranks: list[str], suit: str) -> str:
    """``suit_run(["A", "2"], "C")`` is ``"AC 2C"``."""
    return " ".join(r + suit for r in ranks)


def deal_cards(game_id: str, number: int) -> Counter[str]:
    """Every card of a game's deal, counted."""
    game = new_game(game_id, number)
    return Counter(card_text(c) for pile in game.state.piles for c in pile)


def pysolfc_text(order: list[int]) -> list[str]:
    """Card ids in dealing order as card texts (the deck number dropped)."""
    return [card_text(c % 52) for c in order]


# --- Patriarchs: the deal ---------------------------------------------------------------


@pytest.mark.parametrize("game_id", [g for g in FAMILY if g != "captured-queens"])
def test_two_decks(game_id: str) -> None:
    """Patriarchs, Picture Patience, Odd and Even, Royal Cotillion, Contradance: "Two
    decks." Every card is dealt exactly twice, 104 cards."""
    for number in (1, 32000):
        counted = deal_cards(game_id, number)
        assert sum(counted.values()) == 104
        assert set(counted) == {card_text(c) for c in range(52)}
        assert set(counted.values()) == {2}


@pytest.mark.parametrize("number", NUMBERS)
def test_patriarchs_one_ace_and_one_king_of_each_suit_start_on_the_foundations(
    number: int,
) -> None:
    """Patriarchs: "One ace and one king of each suit start on the foundations: 4 ace
    foundations built up by suit to K, 4 king foundations built down by suit to A."
    f1-f4 are the ace foundations (clubs, spades, hearts, diamonds), f5-f8 the kings."""
    game = new_game("patriarchs", number)
    assert [cards(game, f"f{i}") for i in range(1, 9)] == [
        "AC", "AS", "AH", "AD", "KC", "KS", "KH", "KD",
    ]


@pytest.mark.parametrize("number", NUMBERS)
def test_patriarchs_reserve_of_nine_face_up_cards_in_pysolfc_order(number: int) -> None:
    """Patriarchs: "A reserve of 9 face-up cards in 3 rows of 3." PySolFC deals the
    first deck's aces and kings to the foundations first, then the next 9 cards to the
    reserve; the rest is the stock, the waste starts empty (RULES.md "Deals")."""
    game = new_game("patriarchs", number)
    order = dealing_order(number, 2)
    rest = [c for c in order if not (c < 52 and c % 13 in (0, 12))]
    assert labels(game, PileKind.RESERVE) == [f"r{i}" for i in range(1, 10)]
    assert [cards(game, f"r{i}") for i in range(1, 10)] == pysolfc_text(rest[:9])
    view = {p.label: p for p in game.view().piles}
    for i in range(1, 10):
        assert view[f"r{i}"].face_down == 0
        assert len(view[f"r{i}"].cards) == 1
    stock = game.state.piles[game.tables.by_label["s"]]
    assert len(stock) == 87
    assert [card_text(c) for c in reversed(stock)] == pysolfc_text(rest[9:])
    assert cards(game, "w") == ""
    assert view["s"].face_down == 87


# --- Patriarchs: building ---------------------------------------------------------------


@pytest.mark.parametrize("suit", range(4))
def test_patriarchs_ace_foundations_build_up_by_suit_to_king(suit: int) -> None:
    """Patriarchs: "4 ace foundations built up by suit to K"."""
    s = SUITS[suit]
    f = f"f{suit + 1}"
    game = position("patriarchs", {f: "A" + s, "w": top_first(suit_run(UP[1:], s))})
    for rank in UP[1:]:
        plays(game, f"w {f}")
        assert cards(game, f).split()[-1] == rank + s
    assert cards(game, f) == suit_run(UP, s)
    game = position("patriarchs", {f: suit_run(UP, s), "w": "KC AC"})
    refused(game, f"w {f}", f"{f} is complete")


def test_patriarchs_ace_foundation_refuses_wrong_rank_or_suit() -> None:
    """Patriarchs: "4 ace foundations built up by suit": not a rank that skips, not
    another suit, not down."""
    game = position("patriarchs", {"f1": "AC 2C", "w": "3C"})
    plays(game, "w f1")
    for card, need in (("5C", "4C"), ("4S", "4C"), ("2C", "4C")):
        game = position("patriarchs", {"f1": "AC 2C 3C", "w": card})
        refused(game, "w f1", f"{card} cannot go on f1 (top 3C): it needs {said(need)}")


@pytest.mark.parametrize("suit", range(4))
def test_patriarchs_king_foundations_build_down_by_suit_to_ace(suit: int) -> None:
    """Patriarchs: "4 king foundations built down by suit to A"."""
    s = SUITS[suit]
    f = f"f{suit + 5}"
    down = UP[::-1]
    game = position("patriarchs", {f: "K" + s, "w": top_first(suit_run(down[1:], s))})
    for rank in down[1:]:
        plays(game, f"w {f}")
        assert cards(game, f).split()[-1] == rank + s
    assert cards(game, f) == suit_run(down, s)
    game = position("patriarchs", {f: suit_run(down, s), "w": "AS KS"})
    refused(game, f"w {f}", f"{f} is complete")


def test_patriarchs_king_foundation_refuses_wrong_rank_or_suit() -> None:
    """Patriarchs: "4 king foundations built down by suit to A": not up, not a rank
    that skips, not another suit."""
    for card in ("JC", "QS", "KC"):
        game = position("patriarchs", {"f5": "KC", "w": card})
        refused(game, "w f5", f"{card} cannot go on f5 (top KC): it needs a queen of clubs")
    game = position("patriarchs", {"f5": "KC", "w": "QC"})
    plays(game, "w f5")


# --- Patriarchs: the reserve --------------------------------------------------------------


@pytest.mark.parametrize("game_id", RESERVE_GAMES)
def test_reserve_cards_play_to_foundations(game_id: str) -> None:
    """Patriarchs: "Reserve cards play only to foundations" (and the family's reserves:
    Picture Patience "as Patriarchs", Odd and Even, Royal Cotillion's right side)."""
    found, card, f = RESERVE_PLAY[game_id]
    for src in ("r1", labels(position(game_id), PileKind.RESERVE)[-1]):
        game = position(game_id, {**found, src: card, "s": "9H"})
        assert plays(game, f"{src} f").dst == f
        assert cards(game, f).split()[-1] == card


@pytest.mark.parametrize("game_id", RESERVE_GAMES)
def test_reserve_cards_never_onto_each_other(game_id: str) -> None:
    """Patriarchs: "Reserve cards play only to foundations, never onto each other."
    Not onto another reserve card, not into an empty reserve space."""
    found, card, _ = RESERVE_PLAY[game_id]
    game = position(game_id, {**found, "r1": card, "r2": "3H", "w": "9S"})
    refused(game, "r1 r2", "reserve cards play only to the foundations")
    refused(game, "r2 r1", "reserve cards play only to the foundations")
    refused(game, "r1 r3", "reserve cards play only to the foundations")
    refused(game, "r2 f", "3H")


@pytest.mark.parametrize("game_id", RESERVE_GAMES)
def test_reserve_space_filled_at_once_with_the_waste_top(game_id: str) -> None:
    """Patriarchs: "When a reserve card leaves, the space is filled at once with the
    waste's top card" (Royal Cotillion: "each refilled from the waste when played").
    Undo puts the card back on the waste exactly."""
    found, card, f = RESERVE_PLAY[game_id]
    game = position(game_id, {**found, "r1": card, "w": "9H 7D", "s": "4C 5S"})
    before = game.board_text()
    plays(game, f"r1 {f}")
    assert cards(game, "r1") == "7D"
    assert cards(game, "w") == "9H"
    assert cards(game, "s") == "4C 5S"
    game.undo()
    assert game.board_text() == before
    undo_restores(game, f"r1 {f}")


@pytest.mark.parametrize("game_id", RESERVE_GAMES)
def test_reserve_space_filled_with_the_next_stock_card_when_the_waste_is_empty(
    game_id: str,
) -> None:
    """Patriarchs: "... or, if the waste is empty, with the next stock card". (Royal
    Cotillion's rule says only "from the waste"; with the waste empty the engine takes the
    next stock card, which is where PySolFC's auto-deal puts it.) Undo puts it back on
    the stock."""
    found, card, f = RESERVE_PLAY[game_id]
    game = position(game_id, {**found, "r1": card, "s": "4C 5S"})
    before = game.board_text()
    plays(game, f"r1 {f}")
    assert cards(game, "r1") == "5S"
    assert cards(game, "s") == "4C"
    assert cards(game, "w") == ""
    game.undo()
    assert game.board_text() == before
    assert game.state.down[game.tables.by_label["s"]] == 2
    undo_restores(game, f"r1 {f}")


@pytest.mark.parametrize("game_id", RESERVE_GAMES)
def test_reserve_space_stays_empty_when_stock_and_waste_are_empty(game_id: str) -> None:
    """Patriarchs: "if both are empty it stays empty"."""
    found, card, f = RESERVE_PLAY[game_id]
    game = position(game_id, {**found, "r1": card, "r2": "9H"})
    plays(game, f"r1 {f}")
    assert cards(game, "r1") == ""
    assert cards(game, "r2") == "9H"
    refused(game, "r2 r1", "reserve cards play only to the foundations")
    game.undo()
    undo_restores(game, f"r1 {f}")


def test_patriarchs_reserve_refill_on_a_real_deal() -> None:
    """Patriarchs #5: the first move 2D from r8 onto AD; the waste is empty, so the
    space is filled with the next stock card (4C, the top of the stock)."""
    game = new_game("patriarchs", 5)
    stock = game.state.piles[game.tables.by_label["s"]]
    assert (cards(game, "r8"), card_text(stock[-1]), len(stock)) == ("2D", "4C", 87)
    before = game.board_text()
    plays(game, "r8 f4")
    assert cards(game, "f4") == "AD 2D"
    assert cards(game, "r8") == "4C"
    assert len(game.state.piles[game.tables.by_label["s"]]) == 86
    game.undo()
    assert game.board_text() == before


@pytest.mark.parametrize("game_id", RESERVE9)
def test_waste_top_fills_an_empty_reserve_space(game_id: str) -> None:
    """Patriarchs: "the waste's top card plays to a foundation or fills a reserve
    space". Only the waste's top card fills one, and only an empty one."""
    game = position(game_id, {"r2": "9S", "w": "9H 7D", "f1": "AC 2C"})
    refused(game, "w r2", "r2 is taken")
    refused(game, "r2 r1", "reserve cards play only to the foundations")
    if game_id == "patriarchs":
        refused(game, "f1 r1", "an empty reserve space takes only the waste's top card")
    undo_restores(game, "w r1")
    assert cards(game, "r1") == "7D"
    assert cards(game, "w") == "9H"


# --- the stock and the waste --------------------------------------------------------------


@pytest.mark.parametrize("game_id", FAMILY)
def test_stock_dealt_one_card_at_a_time_onto_the_waste(game_id: str) -> None:
    """Patriarchs: "The stock is dealt one card at a time onto the waste" (Royal
    Cotillion: "Stock dealt one at a time to the waste"; Contradance and Captured Queens
    turn it the same way). On a real deal, ``s`` moves exactly the stock's top card."""
    game = new_game(game_id, 7)
    s = game.tables.by_label["s"]
    stock = game.state.piles[s]
    size = len(stock)
    turned: list[str] = []
    for _ in range(3):
        top = card_text(stock[-1])
        plays(game, "s")
        turned.append(top)
        assert cards(game, "w") == " ".join(turned)
    assert len(game.state.piles[s]) == size - 3


def test_patriarchs_waste_top_plays_to_a_foundation() -> None:
    """Patriarchs: "the waste's top card plays to a foundation": the top one only."""
    game = position("patriarchs", {"f1": "AC", "w": "2C 9H"})
    refused(game, "w f1", "9H cannot go on f1 (top AC): it needs a 2 of clubs")
    refused(game, "w f", "9H")
    game = position("patriarchs", {"f1": "AC", "w": "9H 2C"})
    assert plays(game, "w f").dst == "f1"
    assert cards(game, "w") == "9H"


def test_stock_refused_when_empty() -> None:
    """Patriarchs: "The stock is dealt one card at a time": not from an empty stock."""
    game = position("patriarchs", {"w": "9H"})
    refused(game, "s", "the stock is empty: turn the waste over with t")
    game = position("patriarchs", {"w": "9H"}, redeals=1)
    refused(game, "s", "the stock is empty and no redeal is left")
    game = position("patriarchs")
    refused(game, "s", "the stock and the waste are empty")


@pytest.mark.parametrize("game_id", FAMILY)
def test_redeals(game_id: str) -> None:
    """Patriarchs: "One redeal: the waste is turned over to form the stock again."
    Picture Patience: "no redeal"; Odd and Even: "one redeal"; Royal Cotillion: "no
    redeal"; Contradance: "one redeal"; Captured Queens: "two redeals". The stock comes
    back in the order it was first dealt; ``t`` is refused with the reason otherwise."""
    allowed = REDEALS[game_id]
    waste = "3H 9S 4D"
    game = position(game_id, {"w": waste, "s": "8C"})
    refused(game, "t", "the stock still has cards")
    game = position(game_id, {"w": waste})
    for turn in range(allowed):
        before = game.board_text()
        plays(game, "t")
        assert cards(game, "w") == ""
        assert cards(game, "s") == top_first(waste)
        assert game.state.redeals == turn + 1
        assert game.view().redeals_left == allowed - turn - 1
        game.undo()
        assert game.board_text() == before
        game.redo()
        for _ in range(3):
            plays(game, "s")
        assert cards(game, "w") == waste
    refused(game, "t", f"no redeal is left (this game allows {allowed})")
    assert "t" not in legal_texts(game)
    game = position(game_id)
    refused(game, "t", "the waste is empty")


@pytest.mark.parametrize("game_id", ["patriarchs", "odd-and-even"])
def test_redeal_turns_the_waste_over_on_a_real_deal(game_id: str) -> None:
    """Patriarchs: "One redeal: the waste is turned over to form the stock again": after
    drawing the whole stock, ``t`` gives back the very same stock; a second ``t`` is
    refused."""
    game = new_game(game_id, 5)
    first = cards(game, "s")
    n = len(first.split())
    for _ in range(n):
        plays(game, "s")
    refused(game, "s", "turn the waste over with t")
    plays(game, "t")
    assert cards(game, "s") == first
    assert cards(game, "w") == ""
    for _ in range(n):
        plays(game, "s")
    refused(game, "t", "no redeal is left (this game allows 1)")


# --- Patriarchs: reversal ------------------------------------------------------------------


def test_patriarchs_reversal_from_ace_to_king_foundation_and_back() -> None:
    """Patriarchs: "Reversal: when the top cards of an ace foundation and a king
    foundation of the same suit are in sequence, cards may move one at a time from one
    to the other (following the receiving pile's direction)"."""
    game = position(
        "patriarchs",
        {"f1": suit_run(UP[:7], "C"), "f5": suit_run(UP[7:][::-1], "C")},
    )
    assert cards(game, "f5") == "KC QC JC TC 9C 8C"
    undo_restores(game, "f1 f5")  # 7C down onto 8C
    assert (cards(game, "f1").split()[-1], cards(game, "f5").split()[-1]) == ("6C", "7C")
    plays(game, "f1 f5")  # 6C onto 7C: one more, still one at a time
    assert (cards(game, "f1").split()[-1], cards(game, "f5").split()[-1]) == ("5C", "6C")
    plays(game, "f5 f1")  # 6C back up onto 5C
    plays(game, "f5 f1")  # 7C up onto 6C
    assert cards(game, "f1") == suit_run(UP[:7], "C")
    assert cards(game, "f5") == "KC QC JC TC 9C 8C"


@pytest.mark.parametrize("suit", range(4))
def test_patriarchs_reversal_in_each_suit(suit: int) -> None:
    """Patriarchs: reversal between "an ace foundation and a king foundation of the same
    suit", in each suit, both ways."""
    s = SUITS[suit]
    a, k = f"f{suit + 1}", f"f{suit + 5}"
    game = position("patriarchs", {a: suit_run(UP[:4], s), k: suit_run(UP[4:][::-1], s)})
    assert {f"{a} {k}", f"{k} {a}"} <= legal_texts(game)
    undo_restores(game, f"{k} {a}")
    assert cards(game, a) == suit_run(UP[:5], s)
    assert cards(game, k) == suit_run(UP[5:][::-1], s)


def test_patriarchs_reversal_moves_one_card_at_a_time() -> None:
    """Patriarchs: reversal moves cards "one at a time": a count is not even a move
    from a foundation."""
    game = position("patriarchs", {"f1": suit_run(UP[:7], "C"), "f5": "KC QC JC TC 9C 8C"})
    before = game.board_text()
    with pytest.raises(InvalidMoveError, match="only a column gives several cards"):
        game.play("f1 f5 2")
    assert game.board_text() == before
    plays(game, "f1 f5")
    assert len(game.state.piles[game.tables.by_label["f5"]]) == 7


def test_patriarchs_reversal_only_when_in_sequence() -> None:
    """Patriarchs: reversal only "when the top cards ... are in sequence", and "following
    the receiving pile's direction"."""
    game = position("patriarchs", {"f1": suit_run(UP[:5], "C"), "f5": "KC QC JC TC 9C 8C"})
    refused(game, "f1 f5", "5C cannot go on f5 (top 8C): it needs a 7 of clubs")
    refused(game, "f5 f1", "8C cannot go on f1 (top 5C): it needs a 6 of clubs")
    # the tops 7C (ace foundation) and 6C (king foundation) are one apart, but neither
    # follows the receiving pile's direction
    game = position("patriarchs", {"f1": suit_run(UP[:7], "C"), "f5": "KC QC JC TC 9C 8C 7C 6C"})
    refused(game, "f1 f5", "7C cannot go on f5 (top 6C): it needs a 5 of clubs")
    refused(game, "f5 f1", "6C cannot go on f1 (top 7C): it needs an 8 of clubs")


def test_patriarchs_reversal_only_within_the_same_suit() -> None:
    """Patriarchs: reversal is between foundations "of the same suit"."""
    game = position(
        "patriarchs",
        {"f1": suit_run(UP[:7], "C"), "f6": "KS QS JS TS 9S 8S", "f5": "KC"},
    )
    refused(game, "f1 f6", "7C cannot go on f6 (top 8S): it needs a 7 of spades")
    refused(game, "f6 f1", "8S cannot go on f1 (top 7C): it needs an 8 of clubs")
    refused(game, "f1 f2", "7C cannot start f2: it takes an ace of spades")


def test_patriarchs_reversal_never_moves_the_base_ace() -> None:
    """Patriarchs: reversal "except the base ace and base king": the ace foundation's
    own ace never leaves, even when the king foundation wants an ace."""
    game = position("patriarchs", {"f1": "AC", "f5": suit_run(UP[1:][::-1], "C")})
    refused(game, "f1 f5", "the base card AC never leaves f1")
    game = position("patriarchs", {"f1": "AC", "f5": suit_run(UP[1:][::-1], "C"), "r1": "AC"})
    plays(game, "r1 f5")  # the other deck's ace of clubs may end the king foundation


@pytest.mark.parametrize(
    ("game_id", "piles", "reason"),
    [
        (  # Patriarchs: reversal "except the base ace and base king"
            "patriarchs",
            {"f1": "AC", "f5": "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"},
            "the base card AC never leaves f1",
        ),
        (  # Picture Patience: "no reversal"
            "picture-patience",
            {"f1": "AC 2C", "f5": "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C"},
            "cards never leave the foundations in this game",
        ),
        (  # Contradance: "Only the waste top is playable"
            "contradance",
            {"f1": "5C 4C", "f2": "5C"},
            "cards never leave the foundations in this game",
        ),
    ],
)
def test_foundation_card_refused_to_bare_f_gives_the_reason(
    game_id: str, piles: dict[str, str], reason: str
) -> None:
    """Patriarchs' base ace, Picture Patience's "no reversal", Contradance's "Only the
    waste top is playable": ``f1 f`` is refused, and the message says why (another
    foundation does want the card). A regression test: the bare ``f`` used to try the
    source foundation too and answer 'no foundation takes AC now'."""
    game = position(game_id, piles)
    refused(game, "f1 f", reason)


def test_patriarchs_reversal_never_moves_the_base_king() -> None:
    """Patriarchs: reversal "except the base ace and base king"."""
    game = position("patriarchs", {"f1": suit_run(UP[:12], "C"), "f5": "KC"})
    refused(game, "f5 f1", "the base card KC never leaves f5")
    # the second king of clubs (from the reserve) completes the ace foundation
    game = position("patriarchs", {"f1": suit_run(UP[:12], "C"), "f5": "KC", "r1": "KC"})
    plays(game, "r1 f1")


def test_patriarchs_foundation_cards_go_only_to_foundations() -> None:
    """Patriarchs: reversal moves cards "from one [foundation] to the other"; a foundation
    card never goes to the reserve (an empty reserve space takes "the waste's top card")."""
    game = position("patriarchs", {"f1": "AC 2C 3C", "w": "9H", "r2": "8S"})
    refused(game, "f1 r1", "an empty reserve space takes only the waste's top card")
    refused(game, "f1 r2", "r2 is taken: reserve cards are never built on")


def test_patriarchs_win_with_all_104_cards_on_the_foundations() -> None:
    """Patriarchs: "Win: all 104 cards on the foundations."."""
    piles = {f"f{i + 1}": suit_run(UP, s) for i, s in enumerate(SUITS)}
    piles |= {f"f{i + 5}": suit_run(UP[::-1], s) for i, s in enumerate(SUITS[:3])}
    piles |= {"f8": suit_run(UP[1:][::-1], "D"), "r5": "AD"}
    game = position("patriarchs", piles)
    assert count(game, PileKind.FOUNDATION) == 103
    assert not game.is_won()
    plays(game, "r5 f8")
    assert count(game, PileKind.FOUNDATION) == 104
    assert game.is_won() and game.is_over()
    game.undo()
    assert not game.is_won()


# --- Picture Patience ---------------------------------------------------------------------


@pytest.mark.parametrize("number", NUMBERS)
def test_picture_patience_no_card_starts_on_the_foundations(number: int) -> None:
    """Picture Patience: "as Patriarchs, but no card starts on the foundations (the aces
    and kings are shuffled in ...)". PySolFC deals the 9 reserve cards first."""
    game = new_game("picture-patience", number)
    order = dealing_order(number, 2)
    assert count(game, PileKind.FOUNDATION) == 0
    assert [cards(game, f"r{i}") for i in range(1, 10)] == pysolfc_text(order[:9])
    stock = game.state.piles[game.tables.by_label["s"]]
    assert [card_text(c) for c in reversed(stock)] == pysolfc_text(order[9:])
    assert len(stock) == 95
    assert cards(game, "w") == ""


def test_picture_patience_aces_and_kings_placed_on_empty_foundations_as_found() -> None:
    """Picture Patience: "the aces and kings are shuffled in and placed on empty
    foundations as found": each on its own suit's ace (f1-f4) or king (f5-f8)
    foundation."""
    for card, f in (("AC", "f1"), ("AS", "f2"), ("AH", "f3"), ("AD", "f4"),
                    ("KC", "f5"), ("KS", "f6"), ("KH", "f7"), ("KD", "f8")):
        game = position("picture-patience", {"w": card})
        assert plays(game, "w f").dst == f
        game = position("picture-patience", {"r4": card, "s": "9H"})
        assert plays(game, f"r4 {f}").dst == f
        assert cards(game, f) == card


def test_picture_patience_empty_foundation_takes_only_its_ace_or_king() -> None:
    """Picture Patience: only aces and kings start the foundations, each on its own."""
    game = position("picture-patience", {"w": "AC"})
    refused(game, "w f2", "AC cannot start f2: it takes an ace of spades")
    refused(game, "w f5", "AC cannot start f5: it takes a king of clubs")
    game = position("picture-patience", {"w": "2C"})
    refused(game, "w f1", "2C cannot start f1: it takes an ace of clubs")
    refused(game, "w f", "no foundation takes 2C now")
    game = position("picture-patience", {"r1": "QH", "w": "9S"})
    refused(game, "r1 f7", "QH cannot start f7: it takes a king of hearts")


def test_picture_patience_builds_as_patriarchs() -> None:
    """Picture Patience: "as Patriarchs": aces up by suit, kings down by suit."""
    game = position("picture-patience", {"f1": "AC", "f5": "KC", "w": "QC 2C"})
    plays(game, "w f1")
    plays(game, "w f5")
    game = position("picture-patience", {"f1": "AC", "f5": "KC", "w": "3C"})
    refused(game, "w f1", "it needs a 2 of clubs")
    refused(game, "w f5", "it needs a queen of clubs")


def test_picture_patience_no_reversal() -> None:
    """Picture Patience: "no reversal": foundation cards never move, even in sequence."""
    game = position(
        "picture-patience", {"f1": suit_run(UP[:7], "C"), "f5": "KC QC JC TC 9C 8C"}
    )
    refused(game, "f1 f5", "cards never leave the foundations in this game")
    refused(game, "f5 f1", "cards never leave the foundations in this game")
    assert not any(m.src.startswith("f") for m in game.legal_moves)


def test_picture_patience_win_with_all_104_cards_on_the_foundations() -> None:
    """Picture Patience: as Patriarchs, "Win: all 104 cards on the foundations."."""
    piles = {f"f{i + 1}": suit_run(UP, s) for i, s in enumerate(SUITS)}
    piles |= {f"f{i + 5}": suit_run(UP[::-1], s) for i, s in enumerate(SUITS[:3])}
    piles |= {"f8": suit_run(UP[1:][::-1], "D"), "w": "AD"}
    game = position("picture-patience", piles)
    assert not game.is_won()
    plays(game, "w f8")
    assert game.is_won()


# --- Odd and Even and Royal Cotillion: foundations by twos ---------------------------------

ODD = list("A3579JK2468TQ")
EVEN = list("2468TQA3579JK")
BY_TWOS = ["odd-and-even", "royal-cotillion"]


@pytest.mark.parametrize("game_id", BY_TWOS)
@pytest.mark.parametrize("suit", range(4))
def test_foundation_from_an_ace_up_by_twos_by_suit_wrapping(game_id: str, suit: int) -> None:
    """Odd and Even: "Per suit one foundation from an ace ... built up by twos by suit,
    wrapping (A 3 5 7 9 J K 2 4 6 8 10 Q ...)". Royal Cotillion: "Foundations as in Odd
    and Even." f1-f4 start from aces (clubs, spades, hearts, diamonds)."""
    s = SUITS[suit]
    f = f"f{suit + 1}"
    game = position(game_id, {"w": top_first(suit_run(ODD, s))})
    for rank in ODD:
        plays(game, f"w {f}")
        assert cards(game, f).split()[-1] == rank + s
    assert cards(game, f) == suit_run(ODD, s)
    game = position(game_id, {f: suit_run(ODD, s), "w": "K" + s})
    refused(game, f"w {f}", f"{f} is complete")


@pytest.mark.parametrize("game_id", BY_TWOS)
@pytest.mark.parametrize("suit", range(4))
def test_foundation_from_a_two_up_by_twos_by_suit_wrapping(game_id: str, suit: int) -> None:
    """Odd and Even: "... and one from a two, both built up by twos by suit, wrapping
    (... 2 4 6 8 10 Q A 3 5 7 9 J K)". f5-f8 start from twos."""
    s = SUITS[suit]
    f = f"f{suit + 5}"
    game = position(game_id, {"w": top_first(suit_run(EVEN, s))})
    for rank in EVEN:
        plays(game, f"w {f}")
        assert cards(game, f).split()[-1] == rank + s
    assert cards(game, f) == suit_run(EVEN, s)
    game = position(game_id, {f: suit_run(EVEN, s), "w": "A" + s})
    refused(game, f"w {f}", f"{f} is complete")


@pytest.mark.parametrize("game_id", BY_TWOS)
def test_foundations_by_twos_refuse_other_steps_and_suits(game_id: str) -> None:
    """Odd and Even: "built up by twos by suit": not by one, not down, not another suit;
    the wrap goes K to 2 and Q to A only."""
    for top, card, need in (("AC", "2C", "3C"), ("AC 3C", "2C", "5C"), ("AC", "3S", "3C"),
                            ("AC 3C 5C 7C 9C JC", "AC", "KC"),
                            ("AC 3C 5C 7C 9C JC KC", "AC", "2C")):
        game = position(game_id, {"f1": top, "w": card})
        last = top.split()[-1]
        refused(game, "w f1", f"{card} cannot go on f1 (top {last}): it needs {said(need)}")
    game = position(game_id, {"f5": "2C 4C 6C 8C TC QC", "w": "KC"})
    refused(game, "w f5", "it needs an ace of clubs")
    game = position(game_id, {"f5": "2C 4C 6C 8C TC QC", "w": "AC"})
    plays(game, "w f5")


@pytest.mark.parametrize("game_id", BY_TWOS)
def test_foundation_bases_are_placed_as_found(game_id: str) -> None:
    """Odd and Even: "Bases are placed as found": no card starts on the foundations; an
    ace starts its suit's ace foundation, a two its two foundation, nothing else starts
    one."""
    game = new_game(game_id, 5)
    assert count(game, PileKind.FOUNDATION) == 0
    game = position(game_id, {"w": "2S"})
    assert plays(game, "w f").dst == "f6"
    game = position(game_id, {"w": "AH"})
    assert plays(game, "w f").dst == "f3"
    game = position(game_id, {"w": "3C"})
    refused(game, "w f1", "3C cannot start f1: it takes an ace of clubs")
    refused(game, "w f", "no foundation takes 3C now")
    game = position(game_id, {"w": "AC"})
    refused(game, "w f5", "AC cannot start f5: it takes a 2 of clubs")
    game = position(game_id, {"w": "2S"})
    refused(game, "w f5", "2S cannot start f5: it takes a 2 of clubs")


@pytest.mark.parametrize("number", NUMBERS)
def test_odd_and_even_deal_nine_reserve_cards(number: int) -> None:
    """Odd and Even: "two decks, 9-card reserve (3x3)", in PySolFC's order (9 reserve
    cards, then the stock)."""
    game = new_game("odd-and-even", number)
    order = dealing_order(number, 2)
    assert [cards(game, f"r{i}") for i in range(1, 10)] == pysolfc_text(order[:9])
    stock = game.state.piles[game.tables.by_label["s"]]
    assert [card_text(c) for c in reversed(stock)] == pysolfc_text(order[9:])
    assert labels(game, PileKind.RESERVE) == [f"r{i}" for i in range(1, 10)]
    assert not labels(game, PileKind.COLUMN)


@pytest.mark.parametrize("game_id", BY_TWOS)
def test_win_with_all_104_cards_on_the_foundations_by_twos(game_id: str) -> None:
    """Odd and Even (and Royal Cotillion): all 104 cards on the foundations win."""
    piles = {f"f{i + 1}": suit_run(ODD, s) for i, s in enumerate(SUITS)}
    piles |= {f"f{i + 5}": suit_run(EVEN, s) for i, s in enumerate(SUITS)}
    piles["f8"] = suit_run(EVEN[:-1], "D")
    piles["r3"] = "KD"
    game = position(game_id, piles)
    assert not game.is_won()
    plays(game, "r3 f8")
    assert count(game, PileKind.FOUNDATION) == 104
    assert game.is_won()


# --- Royal Cotillion --------------------------------------------------------------------


@pytest.mark.parametrize("number", NUMBERS)
def test_royal_cotillion_deal(number: int) -> None:
    """Royal Cotillion: "Left: 4 piles of 3 face-up cards ... Right: 16 reserve cards".
    PySolFC deals the 16 reserve cards, then three rows across the left piles c1-c4."""
    game = new_game("royal-cotillion", number)
    order = pysolfc_text(dealing_order(number, 2))
    assert [cards(game, f"r{i}") for i in range(1, 17)] == order[:16]
    for i in range(4):
        c = f"c{i + 1}"
        assert cards(game, c) == " ".join(order[16 + i : 28 : 4])
        assert game.state.down[game.tables.by_label[c]] == 0
    assert labels(game, PileKind.COLUMN) == ["c1", "c2", "c3", "c4"]
    assert count(game, PileKind.FOUNDATION) == 0
    stock = game.state.piles[game.tables.by_label["s"]]
    assert [card_text(c) for c in reversed(stock)] == order[28:]
    assert cards(game, "w") == ""


def test_royal_cotillion_only_each_left_piles_last_card_playable() -> None:
    """Royal Cotillion: "Left: 4 piles of 3 face-up cards, only each pile's last card
    playable"."""
    game = position("royal-cotillion", {"c1": "2C 9S AC", "w": "8D"})
    undo_restores(game, "c1 f1")
    assert cards(game, "c1") == "2C 9S"
    refused(game, "c1 f5", "9S cannot start f5: it takes a 2 of clubs")
    refused(game, "c1 f5 2", "only one card at a time moves from c1")
    assert not any(m.src == "c1" for m in game.legal_moves)


def test_royal_cotillion_left_piles_never_refilled() -> None:
    """Royal Cotillion: the left piles are "never refilled": an emptied pile stays empty,
    though the waste and stock have cards."""
    game = position("royal-cotillion", {"c1": "AC", "w": "9H 7D", "s": "5S"})
    undo_restores(game, "c1 f1")
    assert cards(game, "c1") == ""
    assert cards(game, "w") == "9H 7D"
    assert cards(game, "s") == "5S"
    refused(game, "w c1", "nothing is built on c1 in this game")


def test_royal_cotillion_no_building_on_the_left_piles() -> None:
    """Royal Cotillion: "no building" on the left piles: nothing from the waste, the
    reserve or another left pile goes on them, even a card that would fit in Klondike."""
    game = position("royal-cotillion", {"c1": "9S", "c2": "8H", "r1": "8D", "w": "8H"})
    refused(game, "w c1", "nothing is built on c1 in this game")
    refused(game, "r1 c1", "reserve cards play only to the foundations")
    refused(game, "c2 c1", "cards from c2 play only to the foundations")
    refused(game, "c1 r2", "an empty reserve space takes only the waste's top card")


def test_royal_cotillion_sixteen_reserve_cards_each_refilled_from_the_waste() -> None:
    """Royal Cotillion: "Right: 16 reserve cards, each refilled from the waste when
    played." Every one of r1..r16."""
    waste = " ".join(f"{r}H" for r in "3579J") + " " + " ".join(f"{r}S" for r in "3579JKQ")
    piles = {f"r{i + 1}": top for i, top in enumerate(suit_run(ODD[:4], "C").split())}
    for i in range(4, 16):
        piles[f"r{i + 1}"] = "9D"
    game = position("royal-cotillion", {**piles, "w": waste})
    for i in range(4):
        plays(game, f"r{i + 1} f1")
    assert cards(game, "f1") == "AC 3C 5C 7C"
    assert [cards(game, f"r{i}") for i in range(1, 5)] == top_first(waste).split()[:4]
    game = position("royal-cotillion", {"r16": "2D", "w": "QS", "s": "KS"})
    plays(game, "r16 f8")
    assert cards(game, "r16") == "QS"
    assert labels(game, PileKind.RESERVE) == [f"r{i}" for i in range(1, 17)]


def test_royal_cotillion_win_with_all_104_cards_on_the_foundations() -> None:
    """Royal Cotillion: a left pile's last card can be the 104th card on the
    foundations."""
    piles = {f"f{i + 1}": suit_run(ODD, s) for i, s in enumerate(SUITS)}
    piles |= {f"f{i + 5}": suit_run(EVEN, s) for i, s in enumerate(SUITS)}
    piles["f1"] = suit_run(ODD[:-1], "C")
    piles["c4"] = "QC"
    game = position("royal-cotillion", piles)
    assert not game.is_won()
    plays(game, "c4 f1")
    assert game.is_won()


# --- Contradance ------------------------------------------------------------------------


@pytest.mark.parametrize("number", NUMBERS)
def test_contradance_all_eight_fives_and_eight_sixes_start_on_sixteen_foundations(
    number: int,
) -> None:
    """Contradance: "All eight 5s and eight 6s start on 16 foundations: 5s built down by
    suit 5 4 3 2 A K, 6s up by suit 6 7 8 9 10 J Q." f1-f8 are the fives, two per suit
    (C C S S H H D D), f9-f16 the sixes; the other 88 cards are the stock, in PySolFC's
    order."""
    game = new_game("contradance", number)
    assert [cards(game, f"f{i}") for i in range(1, 17)] == [
        "5C", "5C", "5S", "5S", "5H", "5H", "5D", "5D",
        "6C", "6C", "6S", "6S", "6H", "6H", "6D", "6D",
    ]
    order = dealing_order(number, 2)
    rest = [c for c in order if c % 13 not in (4, 5)]
    stock = game.state.piles[game.tables.by_label["s"]]
    assert [card_text(c) for c in reversed(stock)] == pysolfc_text(rest)
    assert len(stock) == 88
    assert cards(game, "w") == ""
    assert not labels(game, PileKind.RESERVE) and not labels(game, PileKind.COLUMN)


@pytest.mark.parametrize("f", [f"f{i}" for i in range(1, 9)])
def test_contradance_fives_built_down_by_suit_to_king(f: str) -> None:
    """Contradance: "5s built down by suit 5 4 3 2 A K"."""
    s = "CCSSHHDD"[int(f[1:]) - 1]
    game = position("contradance", {f: "5" + s, "w": top_first(suit_run(list("432AK"), s))})
    for rank in "432AK":
        plays(game, f"w {f}")
        assert cards(game, f).split()[-1] == rank + s
    assert cards(game, f) == suit_run(list("5432AK"), s)
    game = position("contradance", {f: suit_run(list("5432AK"), s), "w": "Q" + s})
    refused(game, f"w {f}", f"{f} is complete")


def test_contradance_fives_refuse_other_cards() -> None:
    """Contradance: "5s built down by suit": not up, not another suit, not skipping."""
    for card, need in (("6C", "4C"), ("4S", "4C"), ("3C", "4C")):
        game = position("contradance", {"f1": "5C", "w": card})
        refused(game, "w f1", f"{card} cannot go on f1 (top 5C): it needs {said(need)}")
    game = position("contradance", {"f1": "5C 4C 3C 2C AC", "w": "QC"})
    refused(game, "w f1", "it needs a king of clubs")


@pytest.mark.parametrize("f", [f"f{i}" for i in range(9, 17)])
def test_contradance_sixes_built_up_by_suit_to_queen(f: str) -> None:
    """Contradance: "6s up by suit 6 7 8 9 10 J Q"."""
    s = "CCSSHHDD"[int(f[1:]) - 9]
    game = position("contradance", {f: "6" + s, "w": top_first(suit_run(list("789TJQ"), s))})
    for rank in "789TJQ":
        plays(game, f"w {f}")
        assert cards(game, f).split()[-1] == rank + s
    game = position("contradance", {f: suit_run(list("6789TJQ"), s), "w": "K" + s})
    refused(game, f"w {f}", f"{f} is complete")
    game = position("contradance", {f: "6" + s, "w": "5" + s})
    refused(game, f"w {f}", f"it needs {said('7' + s)}")


def test_contradance_only_the_waste_top_is_playable() -> None:
    """Contradance: "Only the waste top is playable": not the card under it, not a
    foundation card."""
    game = position("contradance", {"f1": "5C", "f2": "5C 4C", "w": "4C 9H"})
    refused(game, "w f1", "9H cannot go on f1 (top 5C): it needs a 4 of clubs")
    refused(game, "f2 f1", "cards never leave the foundations in this game")
    game = position("contradance", {"f1": "5C", "w": "9H 4C"})
    plays(game, "w f1")


@pytest.mark.parametrize("game_id", ["contradance", "captured-queens"])
def test_only_the_waste_top_is_playable_through_a_whole_stock(game_id: str) -> None:
    """Contradance and Captured Queens: "Only the waste top is playable": on a real deal,
    every legal move while turning the whole stock is ``s``, ``t`` or from the waste."""
    game = new_game(game_id, 11)
    seen_waste_move = False
    while "s" in legal_texts(game):
        for text in legal_texts(game):
            assert text in ("s", "t") or text.startswith("w "), text
            seen_waste_move |= text.startswith("w ")
        plays(game, "s")
    assert seen_waste_move


def test_contradance_win_with_all_104_cards_on_the_foundations() -> None:
    """Contradance: "Win: all 104 on foundations."."""
    piles = {f"f{i + 1}": suit_run(list("5432AK"), "CCSSHHDD"[i]) for i in range(8)}
    piles |= {f"f{i + 9}": suit_run(list("6789TJQ"), "CCSSHHDD"[i]) for i in range(8)}
    piles["f16"] = suit_run(list("6789TJ"), "D")
    piles["w"] = "QD"
    game = position("contradance", piles)
    assert count(game, PileKind.FOUNDATION) == 103
    assert not game.is_won()
    plays(game, "w f16")
    assert game.is_won()


# --- Captured Queens --------------------------------------------------------------------


@pytest.mark.parametrize("number", NUMBERS)
def test_captured_queens_one_deck_all_in_the_stock(number: int) -> None:
    """Captured Queens: "one deck". Nothing is dealt out: the 5s, 6s and queens "are
    placed as they appear", so all 52 cards start in the stock, in PySolFC's order."""
    counted = deal_cards("captured-queens", number)
    assert sum(counted.values()) == 52 and set(counted.values()) == {1}
    game = new_game("captured-queens", number)
    stock = game.state.piles[game.tables.by_label["s"]]
    assert [card_text(c) for c in reversed(stock)] == pysolfc_text(dealing_order(number, 1))
    assert count(game, PileKind.FOUNDATION) == 0
    assert labels(game, PileKind.FOUNDATION) == [f"f{i}" for i in range(1, 13)]


@pytest.mark.parametrize("suit", range(4))
def test_captured_queens_fives_placed_as_they_appear_built_down_to_king(suit: int) -> None:
    """Captured Queens: "The four 5s (built down by suit 5 4 3 2 A K) ... are placed as
    they appear". f1-f4 are the fives (clubs, spades, hearts, diamonds)."""
    s = SUITS[suit]
    f = f"f{suit + 1}"
    game = position("captured-queens", {"w": top_first(suit_run(list("5432AK"), s))})
    assert plays(game, "w f").dst == f
    for _ in "432AK":
        plays(game, f"w {f}")
    assert cards(game, f) == suit_run(list("5432AK"), s)
    game = position("captured-queens", {f: suit_run(list("5432AK"), s), "w": "Q" + s})
    refused(game, f"w {f}", f"{f} is complete")


@pytest.mark.parametrize("suit", range(4))
def test_captured_queens_sixes_placed_as_they_appear_built_up_to_jack(suit: int) -> None:
    """Captured Queens: "four 6s (up by suit 6..J)" placed as they appear; f9-f12."""
    s = SUITS[suit]
    f = f"f{suit + 9}"
    game = position("captured-queens", {"w": top_first(suit_run(list("6789TJ"), s))})
    assert plays(game, "w f").dst == f
    for _ in "789TJ":
        plays(game, f"w {f}")
    game = position("captured-queens", {f: suit_run(list("6789TJ"), s), "w": "Q" + s})
    refused(game, f"w {f}", f"{f} is complete")


@pytest.mark.parametrize("suit", range(4))
def test_captured_queens_queens_set_aside_as_they_appear(suit: int) -> None:
    """Captured Queens: "four queens (set aside) are placed as they appear": each on its
    own pile, f5-f8, which takes nothing else."""
    s = SUITS[suit]
    f = f"f{suit + 5}"
    game = position("captured-queens", {"w": "Q" + s})
    assert plays(game, "w f").dst == f
    game = position("captured-queens", {f: "Q" + s, "w": "K" + s})
    refused(game, f"w {f}", f"{f} is complete")
    game = position("captured-queens", {"w": "J" + s})
    refused(game, f"w {f}", f"J{s} cannot start {f}: it takes {said('Q' + s)}")
    other = SUITS[(suit + 1) % 4]
    game = position("captured-queens", {"w": "Q" + other})
    refused(game, f"w {f}", f"Q{other} cannot start {f}: it takes {said('Q' + s)}")


def test_captured_queens_only_fives_sixes_and_queens_start_piles() -> None:
    """Captured Queens: only the 5s, 6s and queens are placed as they appear; other cards
    wait for their sequence; foundation cards never move ("Only the waste top is
    playable")."""
    for card in ("4C", "7C", "KC", "AC"):
        game = position("captured-queens", {"w": card})
        refused(game, "w f", f"no foundation takes {card} now")
    game = position("captured-queens", {"w": "4C"})
    refused(game, "w f1", "4C cannot start f1: it takes a 5 of clubs")
    game = position("captured-queens", {"w": "7C"})
    refused(game, "w f9", "7C cannot start f9: it takes a 6 of clubs")
    game = position("captured-queens", {"f1": "5C", "f9": "6C", "w": "9H"})
    refused(game, "f1 f9", "cards never leave the foundations in this game")
    refused(game, "f9 f1", "cards never leave the foundations in this game")


def test_captured_queens_win_with_all_52_cards_placed() -> None:
    """Captured Queens: "Win: all 52 cards placed."."""
    piles = {f"f{i + 1}": suit_run(list("5432AK"), s) for i, s in enumerate(SUITS)}
    piles |= {f"f{i + 5}": "Q" + s for i, s in enumerate(SUITS)}
    piles |= {f"f{i + 9}": suit_run(list("6789TJ"), s) for i, s in enumerate(SUITS)}
    piles["f12"] = suit_run(list("6789T"), "D")
    piles["w"] = "JD"
    game = position("captured-queens", piles)
    assert count(game, PileKind.FOUNDATION) == 51
    assert not game.is_won()
    plays(game, "w f12")
    assert game.is_won() and game.is_over()


# --- the family's piles ------------------------------------------------------------------


@pytest.mark.parametrize("game_id", FAMILY)
def test_family_has_no_other_piles(game_id: str) -> None:
    """Section 3 names every pile of each game: moves naming a pile the game does not
    have are refused with the reason."""
    game = new_game(game_id, 3)
    has_columns = game_id == "royal-cotillion"
    has_reserve = game_id in RESERVE_GAMES
    if not has_columns:
        refused(game, "w c1", "this game has no pile c1")
    if not has_reserve:
        refused(game, "w r1", "this game has no pile r1")
    refused(game, "w h", "this game has no hand")
    refused(game, "p1 f", "this game has no pile p1")
