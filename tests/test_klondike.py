"""Klondike draw 3 ("klondike") and draw 1 ("klondike-draw1"): every rule sentence of RULES.md
section 1, its Scoring table and choices, and the Klondike part of "Deals", each played legal and
illegal through the checked API (:func:`patiencekit.new_game`).

Positions are dealt games (#24 and #123456, as in research/pysolfc-notes.md 3.3) or built by hand
with ``tests/positions.py``; a hand-built position always holds the whole deck.
"""

from __future__ import annotations

import pytest

from patiencekit import Game, IllegalMoveError, Move, new_game
from positions import chain, deck_except, run, set_position

VARIANTS = ("klondike", "klondike-draw1")


# -- helpers ---------------------------------------------------------------------------------------


class FakeClock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def pile(game: Game, label: str) -> str:
    """A pile as board text shows it: ``<7H> 9H``."""
    for line in game.board_text().splitlines()[2:]:
        name, _, cards = line.partition(":")
        if name == label:
            return cards.strip()
    raise KeyError(label)


def stock_next_first(game: Game) -> list[str]:
    """The stock's cards, the next one to be drawn first."""
    return [c.strip("<>") for c in reversed(pile(game, "s").split())]


def legal(game: Game, move: str) -> Move:
    """Play a move that must be legal (and listed among the legal moves)."""
    assert move in game.legal_moves, f"{move} should be legal in\n{game.board_text()}"
    return game.play(move)


def illegal(game: Game, move: str, *reason: str) -> str:
    """Play a move that must be refused: the error names the move and gives a reason containing
    every fragment of ``reason``; the game (board, score, history) is unchanged."""
    before = (game.board_text(), game.score, list(game.moves), game.is_won())
    assert move not in game.legal_moves
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    message = str(info.value)
    name = str(Move.parse(move))
    assert message.startswith(f"{name}: "), message
    assert len(message) > len(name) + 10, f"no reason given: {message!r}"
    for fragment in reason:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert (game.board_text(), game.score, list(game.moves), game.is_won()) == before
    return message


def arrange(game: Game, layout: dict[str, str], rest: str = "s", **kw: int) -> None:
    """``set_position`` with every card not in ``layout`` put on pile ``rest``."""
    full = dict(layout)
    full[rest] = (full.get(rest, "") + " " + deck_except(game.id, *layout.values())).strip()
    set_position(game, full, **kw)


def near_win(game: Game, last_card_pile: str = "c1", **kw: int) -> None:
    """51 cards on the foundations, KD alone on ``last_card_pile``."""
    set_position(
        game,
        {
            "f1": run("AC", "KC"),
            "f2": run("AS", "KS"),
            "f3": run("AH", "KH"),
            "f4": run("AD", "QD"),
            last_card_pile: "KD",
        },
        **kw,
    )


# -- Deals -----------------------------------------------------------------------------------------

KLONDIKE_24_COLUMNS = [
    "5C",
    "<7H> 9H",
    "<2D> <9S> AC",
    "<5D> <QH> <5S> 8C",
    "<QC> <2C> <JS> <3C> 7D",
    "<5H> <7S> <KD> <9C> <JC> 6S",
    "<4C> <AH> <2S> <6C> <6H> <TH> KH",
]
# research notes 3.3: PySolFC's waste card TC, then its stock top-first
KLONDIKE_24_STOCK = "TC TS AD 4D QS 3H 3S JH TD KC 8H 8S 4S 4H KS 6D 8D 7C JD 9D 2H QD 3D AS"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_deal_klondike_24_as_pysolfc(game_id: str) -> None:
    """Deals: "For Klondike (draw 3 and draw 1) the same game number gives the same cards in the
    same places as PySolFC ... (PySolFC turns one stock card to the waste before play; here the
    player does that, so the stock order is the same and the waste starts empty.)" """
    game = new_game(game_id, 24)
    assert [pile(game, f"c{i}") for i in range(1, 8)] == KLONDIKE_24_COLUMNS
    assert pile(game, "w") == ""
    assert stock_next_first(game) == KLONDIKE_24_STOCK.split()
    assert stock_next_first(game)[0] == "TC"


@pytest.mark.parametrize("game_id", VARIANTS)
@pytest.mark.parametrize("number", [1, 24, 31999, 32000, 123456, 10**12])
def test_deal_seven_columns_i_cards_last_face_up_24_in_stock(game_id: str, number: int) -> None:
    """"One deck. Seven columns: column i (1..7) gets i cards, only the last face up. 24 cards
    form the stock. Four foundations, one per suit, built up A→K." (empty at the start)"""
    game = new_game(game_id, number)
    view = {p.label: p for p in game.view().piles}
    for i in range(1, 8):
        cards = view[f"c{i}"].cards
        assert len(cards) == i
        assert [c is None for c in cards] == [True] * (i - 1) + [False]
    assert len(view["s"].cards) == 24 and view["s"].face_down == 24
    assert [view[f"f{i}"].cards for i in range(1, 5)] == [()] * 4
    dealt = [c for p in game.deal_json()["piles"] for c in p["cards"]]
    assert sorted(dealt) == sorted(deck_except("klondike").split())  # one deck, each card once
    assert new_game(game_id, number).board_text() == game.board_text()  # reproducible


def test_deal_draw1_and_draw3_give_the_same_cards() -> None:
    """Deals: "For Klondike (draw 3 and draw 1) the same game number gives the same cards in the
    same places"."""
    for number in (7, 123456):
        a, b = new_game("klondike", number), new_game("klondike-draw1", number)
        assert a.deal_json()["piles"] == b.deal_json()["piles"]


def test_draw3_first_s_on_123456_gives_6d_qs_6s() -> None:
    """research notes 3.3: "For Draw 3, the waste is 6D QS 6S (6S on top) and the stock starts
    4S …"."""
    game = new_game("klondike", 123456)
    legal(game, "s")
    assert pile(game, "w") == "6D QS 6S"
    assert game.card_at("w") is not None and str(game.card_at("w")) == "6S"
    assert stock_next_first(game)[0] == "4S"
    assert len(stock_next_first(game)) == 21


# -- Stock and waste -------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANTS)
def test_no_card_turned_before_first_move(game_id: str) -> None:
    """"No card is turned before the player's first move." The waste is empty at the start and
    the whole stock is hidden; the first ``s`` is the player's."""
    game = new_game(game_id, 24)
    view = {p.label: p for p in game.view().piles}
    assert view["w"].cards == ()
    assert view["s"].cards == (None,) * 24
    assert game.card_at("w") is None
    illegal(game, "w f", "w is empty")
    illegal(game, "w c1", "w is empty")
    assert "s" in game.legal_moves and len(game.moves) == 0


def test_draw3_turns_three_cards_third_on_top() -> None:
    """"draw 3 ("Solitaire"): turn 3 cards (fewer if fewer remain) onto the waste" — the third
    card turned lies on top."""
    game = new_game("klondike", 24)
    legal(game, "s")
    assert pile(game, "w") == "TC TS AD"
    assert str(game.card_at("w")) == "AD"
    assert len(stock_next_first(game)) == 21
    legal(game, "s")
    assert pile(game, "w") == "TC TS AD 4D QS 3H"
    assert len(stock_next_first(game)) == 18


def test_draw3_fewer_if_fewer_remain() -> None:
    """"turn 3 cards (fewer if fewer remain) onto the waste": with 23 cards in the stock the
    eighth ``s`` turns the last 2, the second of them on top."""
    game = new_game("klondike", 24)
    legal(game, "s")
    legal(game, "w f4")  # AD leaves the waste: 23 cards go round
    for _ in range(7):
        legal(game, "s")
    legal(game, "t")
    for _ in range(7):
        legal(game, "s")
    assert stock_next_first(game) == ["3D", "AS"]
    legal(game, "s")
    assert stock_next_first(game) == []
    assert pile(game, "w").split()[-2:] == ["3D", "AS"]
    assert str(game.card_at("w")) == "AS"
    assert len(pile(game, "w").split()) == 23


def test_draw3_single_card_left() -> None:
    """"turn 3 cards (fewer if fewer remain)": a stock of one card turns that one card."""
    game = new_game("klondike", 5)
    arrange(game, {"s": "9S", "c1": "<AC> 2D"}, rest="w")
    waste = pile(game, "w").split()
    legal(game, "s")
    assert pile(game, "w").split() == [*waste, "9S"]
    assert pile(game, "s") == ""


def test_draw3_only_the_waste_top_is_playable() -> None:
    """"only the waste's top card is playable": on #123456 QS would fit on KD (c2) but lies under
    6S, so ``w c2`` is refused; every legal waste move is one of the top card's."""
    game = new_game("klondike", 123456)
    legal(game, "s")  # waste 6D QS 6S
    assert pile(game, "c2") == "<6H> KD"
    message = illegal(game, "w c2", "6S cannot go on KD")
    assert "QS" not in message
    assert [str(m) for m in game.legal_moves if m.src == "w"] == []


def test_draw1_one_card_at_a_time() -> None:
    """"Draw 1 ("Solitaire Simple"): one card at a time." On #123456 the second ``s`` puts QS on
    top, and then it plays onto KD."""
    game = new_game("klondike-draw1", 123456)
    legal(game, "s")
    assert pile(game, "w") == "6D"
    assert len(stock_next_first(game)) == 23
    illegal(game, "w c2", "6D cannot go on KD")
    legal(game, "s")
    assert pile(game, "w") == "6D QS"
    legal(game, "w c2")
    assert pile(game, "c2") == "<6H> KD QS"
    assert pile(game, "w") == "6D"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_turnover_rebuilds_stock_in_order(game_id: str) -> None:
    """"When the stock is empty, the whole waste is turned over to form the stock again, in
    order": the next pass turns the same cards in the same order."""
    game = new_game(game_id, 24)
    start = stock_next_first(game)

    def one_pass() -> list[str]:
        seen = []
        while "s" in game.legal_moves:
            legal(game, "s")
            seen.append(pile(game, "w"))
        return seen

    first = one_pass()
    assert pile(game, "s") == ""
    assert pile(game, "w").split() == start
    legal(game, "t")
    assert pile(game, "w") == ""
    assert stock_next_first(game) == start
    assert one_pass() == first


@pytest.mark.parametrize("game_id", VARIANTS)
def test_turnover_unlimited_times(game_id: str) -> None:
    """"When the stock is empty, the whole waste is turned over ... unlimited times." """
    game = new_game(game_id, 24)
    for turn in range(1, 13):
        while "s" in game.legal_moves:
            legal(game, "s")
        legal(game, "t")
        assert game.state.redeals == turn
        assert game.view().redeals_left is None
    assert len(stock_next_first(game)) == 24


@pytest.mark.parametrize("game_id", VARIANTS)
def test_turnover_only_when_the_stock_is_empty(game_id: str) -> None:
    """"When the stock is empty, the whole waste is turned over": ``t`` is refused while the stock
    has cards, and ``s`` is refused once it is empty (the reason points to ``t``)."""
    game = new_game(game_id, 24)
    illegal(game, "t", "the stock still has cards")
    legal(game, "s")
    illegal(game, "t", "the stock still has cards")
    while "s" in game.legal_moves:
        legal(game, "s")
    illegal(game, "s", "the stock is empty", "t")
    legal(game, "t")


def test_turnover_refused_when_waste_and_stock_are_empty() -> None:
    """"the whole waste is turned over" — with no waste there is nothing to turn over, and nothing
    to draw."""
    game = new_game("klondike", 3)
    set_position(game, {"f1": run("AC", "KC"), "f2": run("AS", "KS"), "f3": run("AH", "KH"),
                        "f4": run("AD", "JD"), "c1": "KD QD"})
    illegal(game, "t", "the waste is empty")
    illegal(game, "s", "the stock and the waste are empty")


# -- Tableau ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANTS)
def test_build_down_by_alternate_colour(game_id: str) -> None:
    """"Tableau: build down by alternate colour." 8C goes on 9H (#24); 5C does not (wrong rank),
    and same-colour, same-rank, higher-rank and on-an-ace moves are refused with the reason."""
    game = new_game(game_id, 24)
    illegal(game, "c1 c2", "5C cannot go on 9H: needs an 8 of the other colour")
    illegal(game, "c2 c4", "9H cannot go on 8C")  # one rank higher
    illegal(game, "c1 c3", "5C cannot go on AC: nothing goes on an ace")
    legal(game, "c4 c2")
    assert pile(game, "c2") == "<7H> 9H 8C"

    game = new_game(game_id, 1)
    arrange(game, {"c1": "9S", "c2": "8C", "c3": "8D", "c4": "9H", "c5": "7H", "c6": "7S"})
    illegal(game, "c2 c1", "8C cannot go on 9S: needs an 8 of the other colour")  # same colour
    illegal(game, "c3 c4", "8D cannot go on 9H: needs an 8 of the other colour")  # both red
    illegal(game, "c2 c3", "8C cannot go on 8D: needs a 7 of the other colour")  # same rank
    illegal(game, "c5 c1", "7H cannot go on 9S: needs an 8 of the other colour")  # two lower
    legal(game, "c3 c1")  # red 8 on black 9
    legal(game, "c6 c1")  # black 7 on red 8
    legal(game, "c2 c4")  # black 8 on red 9
    legal(game, "c5 c4")  # red 7 on black 8
    assert pile(game, "c1") == "9S 8D 7S"
    assert pile(game, "c4") == "9H 8C 7H"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_moves_as_a_unit_if_its_first_card_fits(game_id: str) -> None:
    """"Any face-up string may move as a unit if its first card fits." The whole string or its
    end may move; the flip below it follows."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "<2C> " + chain("9H", 3, "S"), "c2": "TC", "c3": "9D"})
    assert pile(game, "c1") == "<2C> 9H 8S 7H"
    legal(game, "c1 c3 2")  # 8S 7H on 9D
    assert pile(game, "c3") == "9D 8S 7H"
    assert pile(game, "c1") == "<2C> 9H"
    game.undo()
    legal(game, "c1 c2 3")  # 9H 8S 7H on TC
    assert pile(game, "c2") == "TC 9H 8S 7H"
    assert pile(game, "c1") == "2C"  # turned up


@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_refused_if_its_first_card_does_not_fit(game_id: str) -> None:
    """"Any face-up string may move as a unit if its first card fits" — and not otherwise."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "<2C> " + chain("9H", 3, "S"), "c2": "TC", "c3": "9D"})
    illegal(game, "c1 c2 2")  # 8S 7H on TC
    illegal(game, "c1 c3 3")  # 9H 8S 7H on 9D
    illegal(game, "c1 c3 1", "7H cannot go on 9D")
    assert [str(m) for m in game.legal_moves if m.src == "c1"] == ["c1 c3 2", "c1 c2 3"]




@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_refused_reason_is_that_its_first_card_does_not_fit(game_id: str) -> None:
    """"Any face-up string may move as a unit if its first card fits": when a real string is
    refused, the reason is its first card, as for one card. (#24 after ``c6 c5``: c5 ends
    7D 6S, a string; ``c5 c2 2`` puts 7D on 9H.)"""
    game = new_game(game_id, 24)
    legal(game, "c6 c5")
    assert pile(game, "c5").endswith("7D 6S")
    illegal(game, "c5 c2 2", "7D cannot go on 9H: needs an 8 of the other colour")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_to_empty_column_reason_is_its_head(game_id: str) -> None:
    """"An empty column takes only a king, or a string headed by a king": a string headed by a
    queen is refused for its queen."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "", "c3": "<3C> QC JD"})
    illegal(game, "c3 c1 2", "QC cannot go on the empty column c1: it takes only a king")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_to_foundation_reason_is_one_card_at_a_time(game_id: str) -> None:
    """"built up A→K": a string (2C AH) cannot go to a foundation at once; the reason says so."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "2C AH", "f1": "AC"})
    illegal(game, "c1 f1 2", "only one card at a time goes to a foundation")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_not_a_string_reason_when_cards_go_up(game_id: str) -> None:
    """RULES: a string is "each one rank lower than the one below it and of the other colour":
    8S with 9H on it is no string, and the reason says so (not that 8S does not fit)."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "8S 9H", "c2": "9D"})
    illegal(game, "c1 c2 2", "the last 2 cards of c1 are not a string")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_refused_if_the_cards_are_not_a_string(game_id: str) -> None:
    """RULES: "A string = a run of face-up cards at the free end of a column, each one rank lower
    than the one below it and of the other colour": other runs of cards never move together, nor
    do face-down cards."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "9H 8H 7S", "c2": "TC", "c3": "<5D> 9S 8D", "c4": "TH", "c5": "9C 7D"})
    illegal(game, "c1 c2 3", "the last 3 cards of c1 are not a string")  # 8H on 9H: same colour
    illegal(game, "c5 c2 2", "the last 2 cards of c5 are not a string")  # 7D on 9C: a gap
    illegal(game, "c3 c4 3", "c3 has only 2 face-up cards")
    illegal(game, "c1 c2 4", "c1 has only 3 face-up cards")
    legal(game, "c3 c4 2")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_empty_column_takes_only_a_king_or_king_headed_string(game_id: str) -> None:
    """"An empty column takes only a king, or a string headed by a king." From the waste, a
    column, or a foundation."""
    game = new_game(game_id, 1)
    arrange(
        game,
        {"c1": "", "c2": "<2C> " + chain("KS", 3, "D"), "c3": "<3C> " + chain("QC", 2, "D"),
         "w": "QS", "f3": run("AH", "KH")},
    )
    assert pile(game, "c2") == "<2C> KS QD JS"
    illegal(game, "w c1", "QS cannot go on the empty column c1: it takes only a king")
    illegal(game, "c3 c1 1", "JD cannot go on the empty column c1: it takes only a king")
    illegal(game, "c3 c1 2")  # a string headed by a queen
    illegal(game, "c2 c1 2")  # the end of a king's string, headed by a queen
    legal(game, "c2 c1 3")  # KS QD JS
    assert pile(game, "c1") == "KS QD JS"
    game.undo()
    legal(game, "f3 c1")  # a foundation's king
    assert pile(game, "c1") == "KH"
    game.undo()
    legal(game, "c2 c1 3")
    assert pile(game, "c2") == "2C"  # turned up


@pytest.mark.parametrize("game_id", VARIANTS)
def test_empty_column_takes_a_king_from_the_waste(game_id: str) -> None:
    """"An empty column takes only a king" — the waste's king is one."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "", "w": "QC KD"})
    legal(game, "w c1")
    assert pile(game, "c1") == "KD"
    legal(game, "w c1")  # QC on KD
    assert pile(game, "c1") == "KD QC"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_last_face_down_card_is_turned_up_automatically(game_id: str) -> None:
    """"When a column's last card is face down, it is turned face up (automatically)." No move is
    needed or offered; only the last face-down card turns; an emptied column stays empty."""
    game = new_game(game_id, 24)
    legal(game, "c4 c2")  # 8C leaves <5D> <QH> <5S>
    assert pile(game, "c4") == "<5D> <QH> 5S"
    assert game.view().piles[game.tables.by_label["c4"]].face_down == 2
    assert len(game.moves) == 1
    legal(game, "c5 c2")  # 7D on 8C
    assert pile(game, "c5") == "<QC> <2C> <JS> 3C"

    game = new_game(game_id, 1)
    arrange(game, {"c1": "<3C> <AS> 5H", "c2": "6C", "c3": "7S", "c4": "8D"})
    legal(game, "c1 c2")
    assert pile(game, "c1") == "<3C> AS"
    legal(game, "c1 f")  # AS to its foundation: 3C turns up
    assert pile(game, "c1") == "3C"
    legal(game, "c3 c4")
    assert pile(game, "c3") == ""
    assert game.view().piles[game.tables.by_label["c3"]].cards == ()


# -- Foundations -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANTS)
def test_foundations_one_per_suit_built_up_ace_to_king(game_id: str) -> None:
    """"Four foundations, one per suit, built up A→K." (f1..f4 = ♣ ♠ ♥ ♦)"""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "3C", "c2": "2C", "c3": "AC", "c4": "AS", "c5": "2S", "c6": "2H"})
    illegal(game, "c2 f1", "2C cannot start f1: it takes an ace of clubs")
    illegal(game, "c4 f1", "AS cannot start f1: it takes an ace of clubs")
    illegal(game, "c4 f3", "AS cannot start f3: it takes an ace of hearts")
    legal(game, "c3 f1")
    illegal(game, "c1 f1", "3C cannot go on f1 (top AC): it needs a 2 of clubs")
    illegal(game, "c5 f1", "2S cannot go on f1 (top AC): it needs a 2 of clubs")
    illegal(game, "c6 f1", "2H cannot go on f1 (top AC): it needs a 2 of clubs")
    legal(game, "c2 f1")
    legal(game, "c1 f1")
    assert pile(game, "f1") == "AC 2C 3C"
    assert game.play("c4 f") == Move("c4", "f2")  # "double-click": the foundation that takes it
    assert pile(game, "f2") == "AS"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_foundation_takes_one_card_at_a_time(game_id: str) -> None:
    """"built up A→K": a foundation is built card by card, never by a string."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "2C AH", "f1": "AC"})
    illegal(game, "c1 f1 2")
    legal(game, "c1 f3")
    legal(game, "c1 f1")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_foundation_top_card_may_move_back_to_the_tableau(game_id: str) -> None:
    """"A foundation's top card may be moved back to the tableau." — onto a column by the column
    rule, never to another foundation, never from an empty foundation."""
    game = new_game(game_id, 1)
    arrange(game, {"f1": run("AC", "5C"), "c1": "6H", "c2": "6S", "c3": "7D"})
    illegal(game, "f1 c2", "5C cannot go on 6S: needs a 5 of the other colour")
    illegal(game, "f1 c3", "5C cannot go on 7D")
    illegal(game, "f1 f2", "foundation cards go back only to the columns")
    illegal(game, "f2 c1", "f2 is empty")
    legal(game, "f1 c1")
    assert pile(game, "f1") == "AC 2C 3C 4C"
    assert pile(game, "c1") == "6H 5C"
    illegal(game, "f1 c1", "4C cannot go on 5C")  # the new top card follows the same rule


@pytest.mark.parametrize("game_id", VARIANTS)
def test_win_with_all_52_cards_on_the_foundations(game_id: str) -> None:
    """"Win: all 52 cards on the foundations." 51 is not a win; the 52nd wins and the game is
    over."""
    game = new_game(game_id, 1)
    near_win(game)
    assert not game.is_won()
    assert not game.is_over()
    legal(game, "c1 f")
    assert game.is_won() and game.is_over()
    assert game.view().won
    assert [len(pile(game, f"f{i}").split()) for i in range(1, 5)] == [13] * 4


# -- Scoring ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANTS)
def test_score_start_is_zero_and_drawing_scores_nothing(game_id: str) -> None:
    """Scoring: "start | 0"; and "'turning a card' means only revealing a face-down tableau card,
    never a stock card"."""
    game = new_game(game_id, 24)
    assert game.score == 0
    legal(game, "s")
    assert game.score == 0


@pytest.mark.parametrize("game_id", VARIANTS)
def test_score_waste_to_tableau_plus_25(game_id: str) -> None:
    """Scoring: "waste → tableau | +25"."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "TC", "w": "9H"}, score=100)
    legal(game, "w c1")
    assert game.score == 125


@pytest.mark.parametrize("game_id", VARIANTS)
def test_score_tableau_to_foundation_plus_25(game_id: str) -> None:
    """Scoring: "tableau → foundation | +25"."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "9C AD", "c2": "AH"}, score=100)
    legal(game, "c2 f3")
    assert game.score == 125
    legal(game, "c1 f4")
    assert game.score == 150


@pytest.mark.parametrize("game_id", VARIANTS)
def test_score_waste_to_foundation_plus_50(game_id: str) -> None:
    """Scoring: "waste → foundation | +50"."""
    game = new_game(game_id, 24)
    for _ in range(1 if game_id == "klondike" else 3):  # TC TS AD: AD comes on top
        legal(game, "s")
    assert str(game.card_at("w")) == "AD"
    legal(game, "w f4")
    assert game.score == 50


@pytest.mark.parametrize("game_id", VARIANTS)
def test_score_face_down_card_turned_up_plus_20(game_id: str) -> None:
    """Scoring: "a face-down tableau card is turned up | +20" — on top of the move's own points:
    8C onto 9H turns 5S (+20); AC to its foundation turns 9S (+25 +20)."""
    game = new_game(game_id, 24)
    legal(game, "c4 c2")
    assert game.score == 20
    legal(game, "c3 f1")
    assert game.score == 20 + 45
    game2 = new_game(game_id, 1)
    arrange(game2, {"c1": "9C", "c2": "TH", "c3": "<2C> 8H"})
    legal(game2, "c1 c2")  # nothing turned up: no points
    assert game2.score == 0
    legal(game2, "c3 c2")  # 8H on 9C turns 2C
    assert game2.score == 20


@pytest.mark.parametrize("game_id", VARIANTS)
def test_score_foundation_to_tableau_minus_25(game_id: str) -> None:
    """Scoring: "foundation → tableau | -25"."""
    game = new_game(game_id, 1)
    arrange(game, {"f1": run("AC", "5C"), "c1": "6H"}, score=100)
    legal(game, "f1 c1")
    assert game.score == 75


@pytest.mark.parametrize("game_id", VARIANTS)
def test_score_waste_turned_over_minus_25(game_id: str) -> None:
    """Scoring: "waste turned over to form a new stock | -25"."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "QD"}, rest="w", score=100)
    legal(game, "t")
    assert game.score == 75
    while "s" in game.legal_moves:
        legal(game, "s")
    assert game.score == 75
    legal(game, "t")
    assert game.score == 50


@pytest.mark.parametrize("game_id", VARIANTS)
def test_score_never_drops_below_zero(game_id: str) -> None:
    """"the running score never drops below 0": a turnover at 0 leaves 0, a foundation card back
    to the tableau at 10 leaves 0, and what is earned later counts from 0."""
    game = new_game(game_id, 1)
    arrange(game, {"f1": run("AC", "5C"), "c1": "6H"}, rest="w", score=10)
    legal(game, "f1 c1")
    assert game.score == 0
    legal(game, "t")
    assert game.score == 0
    legal(game, "c1 f1")
    assert game.score == 25


@pytest.mark.parametrize("game_id", VARIANTS)
def test_undo_restores_the_score_exactly(game_id: str) -> None:
    """"undo restores the score exactly" — including across the floor at 0; redo plays again."""
    game = new_game(game_id, 1)
    arrange(game, {"f1": run("AC", "5C"), "c1": "6H", "c2": "<9S> 4H", "w": "AD"}, score=10)
    scores = [game.score]
    for move in ("f1 c1", "c2 c1", "w f", "s"):
        legal(game, move)
        scores.append(game.score)
    assert scores == [10, 0, 20, 70, 70]
    while game.can_undo:
        expected = scores.pop()
        assert game.score == expected
        game.undo()
    assert game.score == 10 and scores == [10]


@pytest.mark.parametrize("game_id", VARIANTS)
def test_undo_restores_the_score_exactly_on_a_dealt_game(game_id: str) -> None:
    """"undo restores the score exactly" on #24: every move of a line of play, undone one by one,
    gives back every earlier score and board."""
    game = new_game(game_id, 24)
    history = [(game.score, game.board_text())]
    for move in ("c6 c5", "c5 c4 2", "c3 f1", "c4 c2 3", "s"):
        legal(game, move)
        history.append((game.score, game.board_text()))
    assert game.score > 0
    while game.can_undo:
        assert (game.score, game.board_text()) == history.pop()
        game.undo()
    assert (game.score, game.board_text()) == history.pop() == (0, new_game(game_id, 24)
                                                                 .board_text())


def test_ranked_game_has_no_undo() -> None:
    """"In ranked games (tournaments, leaderboards) there is no undo." """
    game = new_game("klondike", 24, undo=False)
    legal(game, "c3 f1")
    before = (game.board_text(), game.score)
    with pytest.raises(IllegalMoveError, match="undo: this is a ranked game"):
        game.undo()
    assert (game.board_text(), game.score) == before


# -- Time bonus ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANTS)
def test_time_bonus_paid_on_win_whole_seconds_since_the_deal(game_id: str) -> None:
    """Scoring: "win: time bonus | + max(0, 1000 - whole seconds since the deal)"; "the clock is
    the server's (from the moment the deal is shown to the winning move)"."""
    clock = FakeClock(5000.0)
    game = new_game(game_id, 1, clock=clock)
    near_win(game, score=300)
    clock.now = 5000.0 + 137.9
    legal(game, "c1 f")
    assert game.time_bonus == 1000 - 137
    assert game.score == 300 + 25 + 863
    assert game.elapsed == pytest.approx(137.9)


@pytest.mark.parametrize("game_id", VARIANTS)
def test_time_bonus_not_paid_before_the_win(game_id: str) -> None:
    """"the time bonus is paid only on a win"."""
    clock = FakeClock()
    game = new_game(game_id, 1, clock=clock)
    near_win(game, "w", score=300)
    clock.now = 10.0
    assert game.time_bonus == 0 and game.score == 300
    assert game.elapsed == pytest.approx(10.0)
    clock.now = 20.0
    assert game.score == 300
    legal(game, "w f")
    assert game.score == 300 + 50 + 980


@pytest.mark.parametrize("game_id", VARIANTS)
def test_time_bonus_frozen_at_the_winning_move(game_id: str) -> None:
    """"the clock is the server's (from the moment the deal is shown to the winning move)": time
    after the win changes nothing."""
    clock = FakeClock()
    game = new_game(game_id, 1, clock=clock)
    near_win(game)
    clock.now = 42.5
    legal(game, "c1 f")
    won_score = game.score
    assert won_score == 25 + 958
    clock.now = 900.0
    assert game.score == won_score and game.time_bonus == 958
    assert game.elapsed == pytest.approx(42.5)


@pytest.mark.parametrize("game_id", VARIANTS)
@pytest.mark.parametrize(
    ("seconds", "bonus"),
    [(0.0, 1000), (0.99, 1000), (1.0, 999), (999.5, 1), (1000.0, 0), (1000.7, 0), (4321.0, 0)],
)
def test_time_bonus_is_zero_after_1000_seconds(game_id: str, seconds: float, bonus: int) -> None:
    """"+ max(0, 1000 - whole seconds since the deal)" — never negative."""
    clock = FakeClock()
    game = new_game(game_id, 1, clock=clock)
    near_win(game)
    clock.now = seconds
    legal(game, "c1 f")
    assert game.time_bonus == bonus
    assert game.score == 25 + bonus


@pytest.mark.parametrize("game_id", VARIANTS)
def test_undo_of_the_winning_move_takes_the_bonus_back(game_id: str) -> None:
    """"undo restores the score exactly": undoing the winning move gives back the score before
    it, without a time bonus."""
    clock = FakeClock()
    game = new_game(game_id, 1, clock=clock)
    near_win(game, score=40)
    clock.now = 100.0
    legal(game, "c1 f")
    assert game.score == 40 + 25 + 900
    game.undo()
    assert game.score == 40 and game.time_bonus == 0 and not game.is_won()


@pytest.mark.parametrize("game_id", VARIANTS)
def test_time_bonus_only_while_the_game_is_won(game_id: str) -> None:
    """"the time bonus is paid only on a win": after winning, ``f4 c1`` (KD back to the empty
    column, a legal Klondike move) leaves 51 cards on the foundations; that position is no win,
    so the engine refuses every move once the game is won (undo still works)."""
    clock = FakeClock()
    game = new_game(game_id, 1, clock=clock)
    near_win(game)
    clock.now = 100.0
    legal(game, "c1 f")
    assert game.score == 25 + 900
    clock.now = 150.0
    with pytest.raises(IllegalMoveError, match="the game is won"):
        game.play("f4 c1")
    assert game.is_won() and game.score == 25 + 900
    game.undo()
    assert not game.is_won() and game.time_bonus == 0


# -- is_over ---------------------------------------------------------------------------------------

# Seven black tops that take nothing from the stock, aces and low red cards hidden under them.
STUCK = {
    "c1": "<AC> 2C",
    "c2": "<AS> 2S",
    "c3": "<AH> <2H> 3C",
    "c4": "<AD> <2D> 3S",
    "c5": "<3H> 4C",
    "c6": "<3D> 4S",
    "c7": "<4H> <4D> 5C",
}


@pytest.mark.parametrize("game_id", VARIANTS)
def test_is_over_when_no_move_is_left(game_id: str) -> None:
    """"The platform may also tell the player when no move is left." Drawing and turning the
    stock over for ever is no way out: every other card lies on the waste, in sight, and none
    of them plays; the hidden cards stay under the black tops."""
    game = new_game(game_id, 1)
    arrange(game, STUCK, rest="w")
    assert [str(m) for m in game.legal_moves] == ["t"]
    assert game.is_over() and not game.is_won()
    assert game.is_over(mode="thoughtful")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_is_not_over_while_a_hidden_card_could_be_drawn(game_id: str) -> None:
    """"In ranked play ... 'no moves left' included (decided without looking at face-down or
    unseen stock cards)": the same position with the other cards in the stock is not over,
    since for all the player knows an ace lies in the stock; only the real stock (thoughtful
    mode) shows that drawing leads nowhere."""
    game = new_game(game_id, 1)
    arrange(game, STUCK)
    assert [str(m) for m in game.legal_moves] == ["s"]
    assert not game.is_over()
    assert game.is_over(mode="thoughtful")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_is_not_over_when_the_stock_leads_to_a_move(game_id: str) -> None:
    """"The platform may also tell the player when no move is left." — an ace deep in the stock
    is still a move, for draw 1 and for draw 3 when it comes to the top of a turn."""
    game = new_game(game_id, 1)
    layout = dict(STUCK, c3="<9C> <2H> 3C")
    rest = deck_except(game_id, *layout.values(), "AH")
    cards = rest.split()
    # AH is the third card drawn: on top after a draw of 3
    layout["s"] = " ".join([*cards[:-2], "AH", *cards[-2:]])
    set_position(game, layout)
    assert not game.is_over()
    assert not game.is_over(mode="thoughtful")


def test_is_over_draw3_card_never_on_top_is_not_told() -> None:
    """Draw 3: "only the waste's top card is playable" — an ace that is always the first of a
    turn of three (and nothing else can move) never becomes playable: walking the real stock
    (thoughtful mode) finds the game over. The player cannot know that: any unseen card could
    end a turn, so the game is not over for the player (the old answer told what the stock
    held). In draw 1 the ace comes up: not over either way."""
    for game_id, thoughtful in (("klondike", True), ("klondike-draw1", False)):
        game = new_game(game_id, 1)
        layout = dict(STUCK, c3="<9C> <2H> 3C")
        layout["s"] = deck_except(game_id, *layout.values(), "AH") + " AH"  # AH drawn first
        set_position(game, layout)
        assert len(layout["s"].split()) == 35
        assert game.is_over(mode="thoughtful") is thoughtful, game_id
        assert not game.is_over(), game_id


def test_is_over_draw3_waste_card_that_never_ends_a_turn() -> None:
    """Draw 3 with the stock empty: the waste is in sight, and turned over it is dealt again in
    the same order, so only its 3rd, 6th, ... and last cards (from the bottom) will be on top.
    An ace first, second, fourth or fifth on the waste never plays: over; third: not over."""
    for place, over in ((0, True), (1, True), (2, False), (3, True), (4, True)):
        game = new_game("klondike", 1)
        layout = dict(STUCK, c3="<9C> <2H> 3C")
        rest = deck_except("klondike", *layout.values(), "AH").split()
        waste = rest[:5]
        waste.insert(place, "AH")  # 6 cards: turns end on the 3rd and the 6th (the top now)
        layout["w"] = " ".join(waste)
        # the other cards face down under c7, out of play: the stock is empty
        layout["c7"] = " ".join(f"<{c}>" for c in rest[5:]) + " " + STUCK["c7"]
        set_position(game, layout)
        assert [str(m) for m in game.legal_moves] == ["t"]
        assert game.is_over() is over, place
        assert game.is_over(mode="thoughtful") is over, place


@pytest.mark.parametrize("game_id", VARIANTS)
def test_is_over_false_at_the_start_of_a_deal(game_id: str) -> None:
    """A fresh deal with moves is neither won nor over."""
    game = new_game(game_id, 24)
    assert not game.is_won() and not game.is_over()


# -- Errors ----------------------------------------------------------------------------------------


def test_error_names_the_move_and_the_reason() -> None:
    """Errors "name the move and give a reason", e.g. "7H cannot go on 9S: needs an 8 of the other
    colour"; the game is unchanged."""
    game = new_game("klondike", 1)
    arrange(game, {"c1": "9S", "c2": "7H"})
    message = illegal(game, "c2 c1")
    assert message == "c2 c1: 7H cannot go on 9S: needs an 8 of the other colour"
    message = illegal(game, "c2  C1 ")  # case and spaces don't matter; the move is named
    assert message.startswith("c2 c1: ")
