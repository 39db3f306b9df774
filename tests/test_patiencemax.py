"""PatienceMax ("patiencemax") and PatienceMax (all to piles) ("patiencemax-all-to-piles"): every
rule sentence of RULES.md section 2, each played legal and illegal through the checked API.

Positions are dealt games or built by hand with ``tests/positions.py``; a hand-built position
always holds both decks, every card twice.
"""

from __future__ import annotations

import pytest

from patiencekit import Game, IllegalMoveError, Move, new_game
from positions import chain, deck_except, run, set_position

VARIANTS = ("patiencemax", "patiencemax-all-to-piles")
COLUMNS = [f"c{i}" for i in range(1, 11)]
HAND = ["h1", "h2", "h3", "h4"]


# -- helpers ---------------------------------------------------------------------------------------


def pile(game: Game, label: str) -> str:
    """A pile as board text shows it."""
    for line in game.board_text().splitlines()[2:]:
        name, _, cards = line.partition(":")
        if name == label:
            return cards.strip()
    raise KeyError(label)


def legal(game: Game, move: str) -> Move:
    """Play a move that must be legal (and listed among the legal moves)."""
    assert move in game.legal_moves, f"{move} should be legal in\n{game.board_text()}"
    return game.play(move)


def illegal(game: Game, move: str, *reason: str) -> str:
    """Play a move that must be refused: the error names the move and gives a reason containing
    every fragment of ``reason``; the game (board, history, result) is unchanged."""
    before = (game.board_text(), list(game.moves), game.is_won())
    assert move not in game.legal_moves
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    message = str(info.value)
    name = str(Move.parse(move))
    assert message.startswith(f"{name}: "), message
    assert len(message) > len(name) + 10, f"no reason given: {message!r}"
    for fragment in reason:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert (game.board_text(), list(game.moves), game.is_won()) == before
    return message


def arrange(game: Game, layout: dict[str, str]) -> None:
    """``set_position`` with every card not in ``layout`` spread over the columns ``layout``
    does not name, sorted (so those filler columns hold no string). Hand cells not named are
    empty."""
    full = {h: "" for h in HAND}
    full.update(layout)
    rest = deck_except(game.id, *layout.values()).split()
    free = [c for c in COLUMNS if c not in layout]
    if rest and not free:
        raise ValueError(f"{len(rest)} cards left and no column to put them in")
    for i, column in enumerate(free):
        full[column] = " ".join(rest[i * len(rest) // len(free) : (i + 1) * len(rest) // len(free)])
    set_position(game, full)


def kings_at_tops() -> dict[str, str]:
    """Eight king-headed strings of 13 (both decks), one in each of c1..c8: the seed's goal."""
    heads = [("KS", "H"), ("KH", "S"), ("KC", "D"), ("KD", "C")] * 2
    layout = {f"c{i}": chain(k, 13, other) for i, (k, other) in enumerate(heads, start=1)}
    layout.update({"c9": "", "c10": "", **{h: "" for h in HAND}})
    return layout


def all_on_foundations() -> dict[str, str]:
    """Every card on the eight foundations."""
    suits = "CSHD" * 2
    layout = {f"f{i}": run("A" + s, "K" + s) for i, s in enumerate(suits, start=1)}
    layout.update({c: "" for c in COLUMNS})
    layout.update({h: "" for h in HAND})
    return layout


# -- Deal ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANTS)
@pytest.mark.parametrize("number", [1, 24, 31999, 32000, 123456, 10**12])
def test_deal_two_decks_ten_columns_of_ten_face_up_four_in_hand(game_id: str, number: int) -> None:
    """"Two decks. Ten columns of 10 cards each, all face up; the 4 remaining cards go into the
    hand (4 cells, at most 4 cards). Eight foundations ("piles")" — empty at the start."""
    game = new_game(game_id, number)
    view = {p.label: p for p in game.view().piles}
    assert sorted(view) == sorted([*COLUMNS, *HAND, *(f"f{i}" for i in range(1, 9))])
    for c in COLUMNS:
        assert len(view[c].cards) == 10 and view[c].face_down == 0
    assert [len(view[h].cards) for h in HAND] == [1, 1, 1, 1]
    assert [view[f"f{i}"].cards for i in range(1, 9)] == [()] * 8
    dealt = sorted(c for p in game.deal_json()["piles"] for c in p["cards"])
    assert dealt == sorted(deck_except(game_id).split())  # two decks: every card twice
    assert new_game(game_id, number).board_text() == game.board_text()  # reproducible
    assert game.score is None and game.time_bonus == 0  # Klondike alone is scored


def test_deal_same_for_both_variants_and_differs_by_number() -> None:
    """Deals: "A deal is a function of (game, game number)" — the variant "PatienceMax (all to
    piles)" only changes the win; another number is another deal."""
    a, b = new_game("patiencemax", 77), new_game("patiencemax-all-to-piles", 77)
    assert a.deal_json()["piles"] == b.deal_json()["piles"]
    assert new_game("patiencemax", 78).deal_json()["piles"] != a.deal_json()["piles"]


@pytest.mark.parametrize("game_id", VARIANTS)
def test_no_stock_no_waste(game_id: str) -> None:
    """Section 2 lists no stock: ``s`` and ``t`` are refused."""
    game = new_game(game_id, 1)
    illegal(game, "s", "this game has no stock")
    illegal(game, "t", "this game has no stock")
    illegal(game, "w c1", "this game has no pile w")


# -- Tableau ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANTS)
def test_card_goes_on_lowest_card_one_rank_lower_other_colour(game_id: str) -> None:
    """"Tableau: a card may only go onto the lowest card of another column, one rank lower and of
    the other colour." """
    game = new_game(game_id, 1)
    arrange(game, {"c1": "9S", "c2": "8C", "c3": "8D", "c4": "9H", "c5": "7H", "c6": "9D 4S"})
    illegal(game, "c2 c1", "8C cannot go on 9S: needs an 8 of the other colour")  # same colour
    illegal(game, "c3 c4", "8D cannot go on 9H: needs an 8 of the other colour")  # both red
    illegal(game, "c2 c3", "8C cannot go on 8D: needs a 7 of the other colour")  # same rank
    illegal(game, "c1 c2", "9S cannot go on 8C")  # one rank higher
    illegal(game, "c5 c1", "7H cannot go on 9S: needs an 8 of the other colour")  # two lower
    illegal(game, "c2 c6", "8C cannot go on 4S")  # 9D is not the lowest card of c6
    illegal(game, "c2 c2", "a card cannot move onto its own pile")  # another column
    legal(game, "c3 c1")
    legal(game, "c2 c4")
    legal(game, "c5 c4")
    assert pile(game, "c1") == "9S 8D"
    assert pile(game, "c4") == "9H 8C 7H"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_only_the_lowest_card_or_a_string_leaves_a_column(game_id: str) -> None:
    """"a column's lowest card" is the only one you can play on, and the one that moves alone;
    cards above it move only as a string."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "8D 4S", "c2": "9C"})
    illegal(game, "c1 c2 2", "not a string")  # 8D would fit on 9C, but 4S lies on it
    illegal(game, "c1 c2", "4S cannot go on 9C")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_strings_of_any_length_move_as_a_unit(game_id: str) -> None:
    """"Strings of any length move as a unit if their first card fits (the seed sets no limit)."
    A string of 12 (QH..AS) goes onto KC; a string of 13 (a king's) onto an empty column; the end
    of a string may move on its own."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "5C " + chain("QH", 12, "S"), "c2": "KC", "c3": chain("KD", 13, "S"),
                   "c4": "", "c5": "7C"})
    assert pile(game, "c1").split()[-1] == "AS"
    legal(game, "c1 c5 6")  # 6H 5S 4H 3S 2H AS on 7C
    assert pile(game, "c5") == "7C 6H 5S 4H 3S 2H AS"
    game.undo()
    legal(game, "c1 c2 12")
    assert pile(game, "c2") == "KC " + chain("QH", 12, "S")
    assert pile(game, "c1") == "5C"
    legal(game, "c3 c4 13")
    assert pile(game, "c4") == chain("KD", 13, "S") and pile(game, "c3") == ""


@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_refused_if_its_first_card_does_not_fit(game_id: str) -> None:
    """"Strings ... move as a unit if their first card fits" — not otherwise."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "5C " + chain("QH", 12, "S"), "c2": "KH", "c3": "KS"})
    illegal(game, "c1 c2 12")  # QH on KH: same colour
    illegal(game, "c1 c3 11")  # JS on KS
    illegal(game, "c1 c3 13", "the last 13 cards of c1 are not a string")  # 5C is not in it
    legal(game, "c1 c3 12")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_refused_if_the_cards_are_not_a_string(game_id: str) -> None:
    """"A string = a run of face-up cards at the free end of a column, each one rank lower than
    the one below it and of the other colour"."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "9H 8H 7S", "c2": "TC", "c3": "9C 7D", "c4": "TS"})
    illegal(game, "c1 c2 3", "the last 3 cards of c1 are not a string")
    illegal(game, "c3 c4 2", "the last 2 cards of c3 are not a string")
    illegal(game, "c1 c2 4", "c1 has only 3 face-up cards")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_empty_column_takes_only_a_king_or_king_headed_string(game_id: str) -> None:
    """"An empty column takes only a king or a string headed by a king." — from a column or the
    hand; a queen (alone or heading a string) is refused."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "", "c2": "3C QD", "c3": "4C " + chain("QS", 3, "H"),
                   "c4": "5C " + chain("KH", 3, "C"), "h1": "KS", "h2": "QH"})
    illegal(game, "c2 c1", "QD cannot go on the empty column c1: it takes only a king or a "
            "string headed by a king")
    illegal(game, "h2 c1", "QH cannot go on the empty column c1: it takes only a king")
    illegal(game, "c3 c1 3")  # a string headed by a queen
    illegal(game, "c4 c1 2")  # the end of a king's string: headed by a queen
    legal(game, "c4 c1 3")  # KH QC JH
    assert pile(game, "c1") == "KH QC JH" and pile(game, "c4") == "5C"
    game.undo()
    legal(game, "h1 c1")
    assert pile(game, "c1") == "KS" and pile(game, "h1") == ""
    legal(game, "c2 c1")  # and builds as any column
    assert pile(game, "c1") == "KS QD"


# -- Foundations -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANTS)
def test_foundation_takes_an_ace_on_an_empty_one(game_id: str) -> None:
    """"Foundations: a column's lowest card or a hand card may go to a foundation: an ace on an
    empty one" — any of the eight, any suit; nothing else starts one."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "AH", "c2": "2H", "c3": "KS", "h1": "AC", "h2": "2C"})
    illegal(game, "c2 f1", "2H cannot start f1: it takes an ace")
    illegal(game, "h2 f5", "2C cannot start f5: it takes an ace")
    illegal(game, "c3 f8", "KS cannot start f8: it takes an ace")
    legal(game, "c1 f7")
    assert pile(game, "f7") == "AH"
    assert game.play("h1 f") == Move("h1", "f1")  # the first foundation that takes it
    assert pile(game, "f1") == "AC" and pile(game, "h1") == ""


@pytest.mark.parametrize("game_id", VARIANTS)
def test_foundation_next_rank_of_the_same_suit(game_id: str) -> None:
    """"otherwise the next rank of the same suit." Two decks: two foundations of one suit grow
    side by side."""
    game = new_game(game_id, 1)
    arrange(game, {"f1": "AH", "f2": "AH 2H", "c1": "2D", "c2": "3H", "c3": "2H", "h1": "4H",
                   "c4": "2C AD"})
    illegal(game, "c1 f1", "2D cannot go on f1 (top AH): it needs a 2 of hearts")  # wrong suit
    illegal(game, "h1 f2", "4H cannot go on f2 (top 2H): it needs a 3 of hearts")  # skips a rank
    illegal(game, "c2 f1", "3H cannot go on f1 (top AH): it needs a 2 of hearts")
    illegal(game, "c4 f3 2")  # one card at a time, not a string (2C AD)
    legal(game, "c3 f1")
    legal(game, "c2 f2")
    legal(game, "h1 f2")
    assert pile(game, "f1") == "AH 2H" and pile(game, "f2") == "AH 2H 3H 4H"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_foundation_built_to_the_king_and_complete(game_id: str) -> None:
    """"Eight foundations ("piles"), built up by suit A→K": the king ends one; nothing goes on."""
    game = new_game(game_id, 1)
    arrange(game, {"f1": run("AS", "QS"), "c1": "KS", "c2": "AS"})
    legal(game, "c1 f1")
    assert pile(game, "f1") == run("AS", "KS")
    illegal(game, "c2 f1", "f1 is complete")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_cards_never_leave_the_foundations(game_id: str) -> None:
    """"Cards never leave the foundations." Not to a column it would fit, not a king to an empty
    column, not to the hand, not to another foundation."""
    game = new_game(game_id, 1)
    arrange(game, {"f1": run("AC", "5C"), "f2": run("AD", "KD"), "f3": run("AC", "4C"),
                   "c1": "6H", "c2": ""})
    reason = "cards never leave the foundations"
    illegal(game, "f1 c1", reason)  # 5C would fit on 6H
    illegal(game, "f2 c2", reason)  # a king to an empty column
    illegal(game, "f1 h1", reason)
    illegal(game, "f1 h", reason)
    illegal(game, "f1 f3", reason)  # 5C would follow 4C
    assert not [m for m in game.legal_moves if m.src.startswith("f")]


# -- Hand ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANTS)
def test_column_card_into_the_hand_while_it_holds_fewer_than_4(game_id: str) -> None:
    """"A column's lowest card may go into the hand while it holds fewer than 4 cards"; with 4 it
    is refused (the hand limit of 4)."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "9C 8D", "c2": "5S", "h1": "AH", "h2": "QS", "h3": "", "h4": "3D"})
    illegal(game, "c1 h2", "h2 is taken")
    assert game.play("c1 h") == Move("c1", "h3")  # the free cell
    assert pile(game, "h3") == "8D" and pile(game, "c1") == "9C"
    assert [pile(game, h) != "" for h in HAND] == [True] * 4
    illegal(game, "c2 h", "the hand is full (4 cards)")
    for h in HAND:
        illegal(game, f"c2 {h}", "the hand is full (4 cards)")
    legal(game, "h1 f")  # AH leaves: a cell is free again
    legal(game, "c2 h1")
    assert pile(game, "h1") == "5S"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_column_card_into_an_empty_hand(game_id: str) -> None:
    """"A column's lowest card may go into the hand while it holds fewer than 4 cards": 0, 1, 2
    and 3 cards held, each time legal."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "2C 3C 4C 5C 6C"})
    for n, h in enumerate(HAND):
        assert sum(pile(game, x) != "" for x in HAND) == n
        assert game.play("c1 h") == Move("c1", h)
    assert [pile(game, h) for h in HAND] == ["6C", "5C", "4C", "3C"]
    illegal(game, "c1 h", "the hand is full (4 cards)")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_only_one_card_at_a_time_goes_into_the_hand(game_id: str) -> None:
    """"A column's lowest card may go into the hand": never a string (the hand holds cards in
    cells)."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "9C 8D", "h1": "AH"})
    illegal(game, "c1 h 2")
    illegal(game, "c1 h2 2")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_hand_card_goes_to_a_column_by_the_column_rule(game_id: str) -> None:
    """"Hand: a hand card may go to a column or a foundation by the rules above." To a column:
    one rank lower and of the other colour, an empty column only a king."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "9S", "c2": "", "h1": "8H", "h2": "8C", "h3": "QD", "h4": "KC"})
    illegal(game, "h2 c1", "8C cannot go on 9S: needs an 8 of the other colour")
    illegal(game, "h3 c2", "QD cannot go on the empty column c2: it takes only a king")
    legal(game, "h1 c1")
    assert pile(game, "c1") == "9S 8H" and pile(game, "h1") == ""
    legal(game, "h4 c2")
    legal(game, "h3 c2")
    assert pile(game, "c2") == "KC QD"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_hand_card_goes_to_a_foundation_by_the_foundation_rule(game_id: str) -> None:
    """"Hand: a hand card may go to a column or a foundation by the rules above." To a foundation:
    an ace on an empty one, then the next rank of the same suit."""
    game = new_game(game_id, 1)
    arrange(game, {"f1": "AD", "h1": "2D", "h2": "2H", "h3": "3D"})
    illegal(game, "h2 f1", "2H cannot go on f1 (top AD): it needs a 2 of diamonds")
    illegal(game, "h3 f1", "3D cannot go on f1 (top AD): it needs a 2 of diamonds")
    legal(game, "h1 f1")
    legal(game, "h3 f1")
    assert pile(game, "f1") == "AD 2D 3D"


@pytest.mark.parametrize("game_id", VARIANTS)
def test_hand_card_cannot_go_into_the_hand(game_id: str) -> None:
    """Nothing in RULES lets a hand card go to the hand: "a hand card may go to a column or a
    foundation", and only "a column's lowest card may go into the hand"."""
    game = new_game(game_id, 1)
    arrange(game, {"h1": "AH"})
    for h in ("h2", "h3", "h4"):
        illegal(game, f"h1 {h}", "cards go into the hand only from a column")
    illegal(game, "h1 h1")
    illegal(game, "h1 h")
    illegal(game, "h2 c1", "h2 is empty")
    assert not [m for m in game.legal_moves if m.dst.startswith("h") and m.src.startswith("h")]




@pytest.mark.parametrize("game_id", VARIANTS)
def test_hand_card_to_a_free_hand_cell_reason(game_id: str) -> None:
    """"a hand card may go to a column or a foundation": ``h1 h`` with three free cells is
    refused because hand cards never go into the hand, not for want of a free cell."""
    game = new_game(game_id, 1)
    arrange(game, {"h1": "AH"})
    message = illegal(game, "h1 h")
    assert "no free cell" not in message
    assert "cards go into the hand only from a column" in message




@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_refused_reason_is_that_its_first_card_does_not_fit(game_id: str) -> None:
    """"Strings of any length move as a unit if their first card fits": when a real string is
    refused, the reason is its first card."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "5C " + chain("QH", 12, "S"), "c2": "KH"})
    illegal(game, "c1 c2 12", "QH cannot go on KH: needs a queen of the other colour")


@pytest.mark.parametrize("game_id", VARIANTS)
def test_string_into_the_hand_reason_is_true(game_id: str) -> None:
    """A column's lowest card (one card) may go into the hand; 9C 8D is a string, so refusing
    ``c1 h 2`` as "not a string" gives a false reason."""
    game = new_game(game_id, 1)
    arrange(game, {"c1": "9C 8D", "h1": "AH"})
    message = illegal(game, "c1 h 2")
    assert "not a string" not in message


# -- Win -------------------------------------------------------------------------------------------


def test_win_every_king_at_the_top_of_a_column() -> None:
    """"Win (seed, read literally): every one of the 8 kings lies at the top (deepest position) of
    a column." """
    game = new_game("patiencemax", 1)
    set_position(game, kings_at_tops())
    assert game.is_won() and game.is_over()
    assert game.view().won


def test_not_won_with_7_kings_at_the_top_then_won_by_a_move() -> None:
    """"every one of the 8 kings lies at the top (deepest position) of a column": with AD under
    the eighth king's string, 7 is not a win; moving that string (12 cards) to an empty column
    wins."""
    game = new_game("patiencemax", 1)
    layout = kings_at_tops()
    layout["c8"] = "AD " + chain("KD", 12, "C")
    set_position(game, layout)
    assert not game.is_won() and not game.is_over()
    legal(game, "c8 c9 12")
    assert game.is_won() and game.is_over()
    assert pile(game, "c8") == "AD"


def _seven_kings_and_ks_next_to_its_foundation() -> dict[str, str]:
    """6 kings' strings, KS alone in c7 (its suit up to QS on f1), KH in the hand (f2 to QH)."""
    heads = [("KC", "D"), ("KD", "C"), ("KC", "D"), ("KD", "C"), ("KS", "H"), ("KH", "S")]
    layout = {f"c{i}": chain(k, 13, other) for i, (k, other) in enumerate(heads, start=1)}
    layout.update({"f1": run("AS", "QS"), "f2": run("AH", "QH"), "c7": "KS", "h1": "KH",
                   "c8": "", "c9": "", "c10": "", "h2": "", "h3": "", "h4": ""})
    return layout


def test_win_by_a_hand_king_to_an_empty_column() -> None:
    """"every one of the 8 kings lies at the top ... of a column": the eighth king comes from the
    hand."""
    game = new_game("patiencemax", 1)
    set_position(game, _seven_kings_and_ks_next_to_its_foundation())
    assert not game.is_won()
    legal(game, "h1 c8")
    assert game.is_won()


def test_king_on_a_foundation_makes_the_win_impossible() -> None:
    """"A king that goes to a foundation can then never satisfy this, so the player must avoid
    it." It is a legal move; afterwards the king never comes back and the game is not won even
    when every other king is at the top of a column."""
    game = new_game("patiencemax", 1)
    set_position(game, _seven_kings_and_ks_next_to_its_foundation())
    legal(game, "c7 f1")  # legal, and fatal
    assert pile(game, "f1") == run("AS", "KS")
    illegal(game, "f1 c7", "cards never leave the foundations")
    legal(game, "h1 c8")
    assert not game.is_won()
    kings_on_top = sum(pile(game, c).split()[:1] in (["KS"], ["KH"], ["KC"], ["KD"])
                       for c in COLUMNS)
    assert kings_on_top == 7
    assert not [m for m in game.legal_moves if m.src.startswith("f")]


def test_patiencemax_all_cards_on_foundations_is_not_a_win() -> None:
    """"every one of the 8 kings lies at the top ... of a column": 104 cards on the foundations
    put every king on a foundation, which is no win in "patiencemax"."""
    game = new_game("patiencemax", 1)
    set_position(game, all_on_foundations())
    assert not game.is_won()
    assert game.is_over()  # no move is left


def test_all_to_piles_won_with_104_cards_on_the_foundations() -> None:
    """"Also offer the variant "PatienceMax (all to piles)", won when all 104 cards are on the
    foundations." 103 is not a win; the 104th (from the hand) wins."""
    game = new_game("patiencemax-all-to-piles", 1)
    layout = all_on_foundations()
    layout["f8"] = run("AD", "QD")
    layout["h1"] = "KD"
    set_position(game, layout)
    assert not game.is_won() and not game.is_over()
    legal(game, "h1 f8")
    assert game.is_won() and game.is_over()


def test_all_to_piles_won_by_a_column_card() -> None:
    """"won when all 104 cards are on the foundations" — the last card from a column."""
    game = new_game("patiencemax-all-to-piles", 1)
    layout = all_on_foundations()
    layout["f3"] = run("AH", "JH")
    layout["c4"] = "KH QH"
    set_position(game, layout)
    legal(game, "c4 f3")
    assert not game.is_won()
    legal(game, "c4 f3")
    assert game.is_won()


def test_all_to_piles_kings_at_the_tops_is_not_a_win() -> None:
    """"PatienceMax (all to piles)" is "won when all 104 cards are on the foundations" — kings at
    the tops of the columns are not enough."""
    game = new_game("patiencemax-all-to-piles", 1)
    set_position(game, kings_at_tops())
    assert not game.is_won() and not game.is_over()


# -- is_over ---------------------------------------------------------------------------------------


def _stuck() -> dict[str, str]:
    """Black low cards at every free end and in a full hand: nothing can move."""
    ends = ["2C", "2S", "3C", "3S", "4C", "4S", "5C", "5S", "6C", "6S"]
    layout = {h: c for h, c in zip(HAND, ["2C", "2S", "3C", "3S"], strict=True)}
    rest = deck_except("patiencemax", *ends, *layout.values()).split()
    # the filler, sorted, goes under the ends: no end lies on a red card one rank higher
    for i, (c, end) in enumerate(zip(COLUMNS, ends, strict=True)):
        layout[c] = " ".join([*rest[i * 9 : (i + 1) * 9], end])
    return layout


@pytest.mark.parametrize("game_id", VARIANTS)
def test_is_over_when_no_move_is_left(game_id: str) -> None:
    """"The platform may also tell the player when no move is left." """
    game = new_game(game_id, 1)
    set_position(game, _stuck())
    assert list(game.legal_moves) == []
    assert game.is_over() and not game.is_won()


@pytest.mark.parametrize("game_id", VARIANTS)
def test_is_not_over_while_a_move_is_left(game_id: str) -> None:
    """"when no move is left" — one ace in the hand is a move."""
    game = new_game(game_id, 1)
    layout = _stuck()
    column = next(c for c in COLUMNS if "AS" in layout[c].split())
    layout[column] = layout[column].replace("AS", "3S", 1)  # swap AS and the hand's 3S
    layout["h4"] = "AS"
    set_position(game, layout)
    assert [str(m) for m in game.legal_moves][:1] == ["h4 f1"]
    assert not game.is_over()
    assert not new_game(game_id, 1).is_over()


# -- Errors ----------------------------------------------------------------------------------------


def test_error_names_the_move_and_the_reason() -> None:
    """Errors name the move and give the reason ("7H cannot go on 9S: needs an 8 of the other
    colour"); nothing changes."""
    game = new_game("patiencemax", 1)
    arrange(game, {"c1": "9S", "c2": "7H"})
    assert illegal(game, "c2 c1") == "c2 c1: 7H cannot go on 9S: needs an 8 of the other colour"
