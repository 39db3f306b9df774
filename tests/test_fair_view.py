"""RULES.md, "Fair competition": "everything the server tells the player follows from what the
player can see: 'no moves left' included (decided without looking at face-down or unseen stock
cards) ... as are timings and error messages"; and issue 10: auto-complete finishes only what
the player's view proves.

The main tool is :func:`same_view`: the position with its hidden cards (face-down cards and the
whole stock) dealt again, at random, among the same hidden places. Anything decided from the
view alone must come out the same for it. Random positions come from random play in every game.
"""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from patiencekit import GAMES, Game, IllegalMoveError, InvalidMoveError, Move, new_game
from patiencekit.games.winnable_numbers import WINNABLE
from patiencekit.rules import PileKind
from patiencekit.solver import Budget, autocomplete
from patiencekit.state import State
from patiencekit.tui import PlaySession
from positions import chain, deck_except, run, set_position

GAME_IDS = list(GAMES)
EXAMPLES = 12
#: a card's text, as the server's old filter (plays.py ``_CARD_TOKEN``) finds it in a reason
CARD_TOKEN = re.compile(r"\b(?:[2-9AKQJT]|10)[CSHD]\b")
#: what the server said instead of a reason that named a card out of sight
VAGUE = "that move is not possible now"

numbers = st.integers(min_value=1, max_value=10**9)
lengths = st.integers(min_value=0, max_value=250)


# -- helpers ---------------------------------------------------------------------------------


def random_position(game_id: str, number: int, rnd: random.Random, steps: int) -> Game:
    """Deal ``number`` and play up to ``steps`` random legal moves (other than ``s`` / ``t``
    more often than not); stops early, half the time, where only ``s`` / ``t`` are left."""
    game = new_game(game_id, number)
    for _ in range(steps):
        legal = game.legal_moves.texts()
        if not legal:
            break
        others = [m for m in legal if m not in ("s", "t")]
        if not others and rnd.random() < 0.5:
            break
        game.play(rnd.choice(others) if others and rnd.random() < 0.6 else rnd.choice(legal))
    return game


def hidden_places(game: Game) -> list[tuple[int, int]]:
    """(pile, place from the bottom) of every card the view hides."""
    return [
        (i, j)
        for i, pile in enumerate(game.view().piles)
        for j, card in enumerate(pile.cards)
        if card is None
    ]


def view_key(game: Game) -> object:
    """The view, less the count of moves played (a copy of the board starts a new history)."""
    data = game.view().to_json()
    del data["moves"]
    return data


def same_view(game: Game, rnd: random.Random, first: int | None = None) -> Game:
    """``game``'s position with its hidden cards shuffled among the hidden places; with
    ``first``, that card ends the first turn of the stock (it is the waste's top after ``s``)."""
    other = Game.from_board(game.board_text())
    piles = other.state.piles
    places = hidden_places(other)
    cards = [piles[i][j] for i, j in places]
    rnd.shuffle(cards)
    if first is not None:
        t = other.tables
        stock = piles[t.stock]
        end = (t.stock, len(stock) - min(t.draw, len(stock)))
        k, m = places.index(end), cards.index(first)
        cards[k], cards[m] = cards[m], cards[k]
    for (i, j), c in zip(places, cards, strict=True):
        piles[i][j] = c
    assert view_key(other) == view_key(game)
    return other


def unseen(game: Game) -> set[int]:
    """The cards no copy of which is in sight."""
    left = Counter({c: game.rules.decks for c in range(52)})
    for pile in game.view().piles:
        left.subtract(c.index for c in pile.cards if c is not None)
    return {c for c, n in left.items() if n > 0}


def moves_asked(question: Callable[[], object]) -> tuple[object, int]:
    """The answer to ``question()`` and how often it asked the engine for the legal moves
    (a measure of the time it took that no machine's speed changes)."""
    calls = 0
    original = State.moves

    def counting(self: State) -> list[tuple[int, int, int]]:
        nonlocal calls
        calls += 1
        return original(self)

    State.moves = counting  # type: ignore[method-assign]
    try:
        return question(), calls
    finally:
        State.moves = original  # type: ignore[method-assign]


def only_stock_moves(game: Game) -> bool:
    return all(m[0] < 0 for m in game.engine_moves())


# -- "no moves left" from the view -------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_no_moves_left_is_the_same_for_every_arrangement_of_the_hidden_cards(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    """The answer and the work done for it (moves asked of the engine) do not change when
    the hidden cards are dealt again among the hidden places."""
    game = random_position(game_id, number, rnd, steps)
    answer = moves_asked(game.is_over)
    for _ in range(3):
        assert moves_asked(same_view(game, rnd).is_over) == answer, game.board_text()


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_no_moves_left_only_when_no_arrangement_has_a_move(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    """Over for the player means over whatever the hidden cards are: then the real stock
    (thoughtful mode) leads to no move either. Not over means some arrangement has a move:
    the real one, or one where an unseen card ends the stock's first turn."""
    game = random_position(game_id, number, rnd, steps)
    if game.is_over():
        assert game.is_over(mode="thoughtful"), game.board_text()
        return
    if not only_stock_moves(game):
        return
    t = game.tables
    arrangements = [game]
    if t.stock >= 0 and game.state.piles[t.stock]:
        arrangements += [same_view(game, rnd, first=c) for c in sorted(unseen(game))]
    assert any(not g.is_over(mode="thoughtful") for g in arrangements), game.board_text()


def test_klondike_draw3_told_over_by_the_old_rule_is_not_over() -> None:
    """Issue 10: "In Klondike draw 3 the server can answer 'no moves left' for a position whose
    every arrangement of the unseen cards still has moves". Deal 10 has no move but the stock
    from the deal: the real stock never gives one (thoughtful), but an ace could end any turn
    for all the player knows. Once the whole stock is on the waste, in sight, and the cards
    that end a turn (every third) are none that play, it is over for the player too."""
    game = new_game("klondike", 10)
    assert game.legal_moves.texts() == ["s"]
    assert game.is_over(mode="thoughtful")
    assert not game.is_over()
    for _ in range(8):
        assert not game.is_over()
        game.play("s")
    assert game.legal_moves.texts() == ["t"]
    assert game.is_over() and game.is_over(mode="thoughtful") and not game.is_won()
    # the same waste in draw 1: every card comes on top, and some of them play
    draw1 = Game.from_board(game.board_text().replace("klondike #", "klondike-draw1 #", 1))
    assert not draw1.is_over() and not draw1.is_over(mode="thoughtful")


def test_patriarchs_an_empty_reserve_space_takes_any_drawn_card() -> None:
    """Patriarchs: "the waste's top card ... fills a reserve space". With r9 empty (the stock
    and waste were empty when it was played), any card drawn would fill it: not over while
    the stock holds a card; with nothing to draw and no redeal, over."""
    game = position_patriarchs(stock="9C", waste="")
    assert game.legal_moves.texts() == ["s"]
    assert not game.is_over() and not game.is_over(mode="thoughtful")
    game = position_patriarchs(stock="", waste="", redeals=1)
    assert game.legal_moves.texts() == []
    assert game.is_over()


def position_patriarchs(*, stock: str, waste: str, redeals: int = 0) -> Game:
    """Patriarchs' base cards on the foundations, eight reserve cards that do not play, r9
    empty, and the given stock and waste (not a whole deck: only the piles that matter)."""
    game = new_game("patriarchs", 1)
    layout = {
        **{f"f{i + 1}": c for i, c in enumerate(["AC", "AS", "AH", "AD", "KC", "KS", "KH", "KD"])},
        **{f"r{i + 1}": c for i, c in enumerate(["7C", "7S", "7H", "7D", "8C", "8S", "8H", "8D"])},
        "s": stock,
        "w": waste,
    }
    set_position(game, layout, complete=False, redeals=redeals)
    return game


@pytest.mark.parametrize("game_id", ["contradance", "captured-queens"])
def test_waste_only_games_look_at_the_waste_after_a_redeal(game_id: str) -> None:
    """Contradance, Captured Queens: "only the waste top is playable"; after a redeal the
    waste comes round again card by card, so a card deep in it that plays means not over
    while a redeal is left, and over once none is left."""
    f = "f1"  # a five foundation: 5C, then 4C
    redeals = GAMES[game_id].stock.redeals  # type: ignore[union-attr]
    for used, over in ((0, False), (redeals, True)):
        game = new_game(game_id, 1)
        set_position(game, {f: "5C", "w": "4C 9D KH"}, complete=False, redeals=used)
        assert game.is_over() is over
        assert game.is_over(mode="thoughtful") is over


def test_picture_patience_a_hidden_card_that_could_play_keeps_the_game_open() -> None:
    """Picture Patience (no redeal): with one card in the stock, the game is open while some
    unseen card would play if drawn; with every ace and king in sight (buried on the waste),
    nothing drawn can start a foundation and no redeal brings them back: over."""
    low = ["7C", "7S", "7H", "7D", "8C", "8S", "8H", "8D", "9C"]
    reserve = {f"r{i + 1}": c for i, c in enumerate(low)}
    game = new_game("picture-patience", 1)
    set_position(game, {**reserve, "w": "AC 9D", "s": "9S"}, complete=False)
    assert game.legal_moves.texts() == ["s"]
    assert not game.is_over()  # the other ace of clubs, or any king, could be drawn
    buried = " ".join(f"{r}{s}" for r in "AK" for s in "CSHD" for _ in range(2))
    game = new_game("picture-patience", 1)
    set_position(game, {**reserve, "w": buried + " 9D", "s": "9S"}, complete=False)
    assert game.legal_moves.texts() == ["s"]
    assert game.is_over() and game.is_over(mode="thoughtful")


# -- refusals that name only cards in sight --------------------------------------------------


def _candidate_moves(game: Game, rnd: random.Random, k: int) -> list[str]:
    labels = [label for label in game.tables.labels if label != "s"]
    targets = [label for label in labels if label != "w"] + ["f", "h"]
    texts = ["s", "t"] + [f"{a} {b} {n}" for a in labels for b in targets for n in (1, 2, 3)]
    return rnd.sample(texts, min(k, len(texts)))


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_refusals_keep_the_rule_and_name_no_hidden_card(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    """A refused move's reason (``Game.refusal``, the ``IllegalMoveError`` that ``play``
    raises) names no card out of sight, is never the vague text, and is the same whatever
    the hidden cards are."""
    game = random_position(game_id, number, rnd, steps)
    other = same_view(game, rnd)
    visible = {str(c) for p in game.view().piles for c in p.cards if c is not None}
    refused = 0
    for text in _candidate_moves(game, rnd, 150):
        try:
            Move.parse(text)
        except InvalidMoveError:
            continue
        reason = game.refusal(text)
        assert (reason is None) == (text in game.legal_moves), text
        assert other.refusal(text) == reason, text
        if reason is None:
            continue
        refused += 1
        with pytest.raises(IllegalMoveError) as info:
            game.play(text)
        assert info.value.reason == reason
        out_of_sight = [tok for tok in CARD_TOKEN.findall(reason) if tok not in visible]
        assert not out_of_sight, f"{text}: {reason}"
        assert reason != VAGUE and len(reason) > 5
    assert refused > 0


def test_a_foundation_that_needs_a_face_down_card_says_so_in_words() -> None:
    """Klondike: f1 holds AC and 2C lies face down. The reason says the rule ("it needs a 2 of
    clubs") without the text 2C, which the old server filter took for a hidden card and
    replaced by the vague text."""
    game = new_game("klondike-draw1", 1)
    layout = {"f1": "AC", "c1": "<2C> 9H", "c2": "3C"}
    set_position(game, dict(layout, s=deck_except("klondike-draw1", *layout.values())))
    reason = game.refusal("c1 f1")
    assert reason == "9H cannot go on f1 (top AC): it needs a 2 of clubs"
    assert game.refusal("c2 f1") == "3C cannot go on f1 (top AC): it needs a 2 of clubs"
    assert game.refusal("c2 f2") == "3C cannot start f2: it takes an ace of spades"
    assert game.refusal("c2 c1") == "3C cannot go on 9H: needs an 8 of the other colour"
    assert game.refusal("c1 c2 2") == "c1 has only 1 face-up card"
    assert game.refusal("c1 c2") is not None and "2C" not in (game.refusal("c1 c2") or "")
    assert game.refusal("s") is None


# -- auto-complete from the view ----------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["patriarchs", "contradance", "royal-cotillion",
                                     "captured-queens"])
def test_autocomplete_plays_nothing_from_the_deal_of_stock_games(game_id: str) -> None:
    """Issue 10: auto-complete "wins Patriarchs, Contradance, Royal Cotillion and Captured
    Queens from the deal through the unseen stock". No card is face down there, but the stock
    is unseen: nothing is played, even on deals proved winnable."""
    for number in WINNABLE[game_id][:2]:
        game = new_game(game_id, number)
        before = game.board_text()
        assert autocomplete(game, budget=Budget(seconds=None, states=2000)) is None
        assert game.board_text() == before and game.moves == []


def _contradance_endgame(in_stock: tuple[int, ...] = ()) -> Game:
    """Contradance with every card on the foundations but the three f1 still needs (2C, AC,
    KC): on the waste, bottom to top KC 2C AC (an order that needs the redeal), except those
    ``in_stock``, which lie unseen in the stock."""
    game = new_game("contradance", 1)
    state, t = game.state, game.tables
    for fi, rule in zip(t.foundations, game.rules.foundations, strict=True):
        suit = 0 if rule.suit is None else int(rule.suit)
        state.piles[fi] = [suit * 13 + rule.rank_at(p) for p in range(rule.size)]
    f1 = t.by_label["f1"]
    state.piles[f1] = state.piles[f1][:3]  # 5C 4C 3C
    kc, two_c, ac = 12, 1, 0
    state.piles[t.waste] = [c for c in (kc, two_c, ac) if c not in in_stock]
    state.piles[t.stock] = list(in_stock)
    state.down = [0] * t.pile_count
    return game


def test_autocomplete_finishes_when_nothing_is_hidden() -> None:
    """No card hidden (the stock empty): the view is the whole position, and the solver's line
    is played to the win, turning the waste over as needed. The same cards with one of them
    unseen in the stock: nothing is played."""
    game = _contradance_endgame()
    assert not any(c is None for p in game.view().piles for c in p.cards)
    played = autocomplete(game, budget=Budget(seconds=None, states=5000))
    assert played is not None and "t" in played and game.is_won()
    game = _contradance_endgame((0,))  # AC unseen in the stock
    before = game.board_text()
    assert autocomplete(game, budget=Budget(seconds=None, states=5000)) is None
    assert game.board_text() == before


def _klondike_open(game_id: str, stock_size: int, rnd: random.Random) -> Game:
    """Klondike with no face-down card: the foundations up to the 3s, two strings from the
    kings, every other card shuffled into the stock (``stock_size`` of them) and the waste."""
    game = new_game(game_id, 1)
    layout = {f"f{i + 1}": run(f"A{s}", f"3{s}") for i, s in enumerate("CSHD")}
    layout.update({"c1": chain("KC", 8, "H"), "c2": chain("KS", 5, "D")})
    rest = deck_except(game_id, *layout.values()).split()
    rnd.shuffle(rest)
    layout["s"] = " ".join(rest[:stock_size])
    layout["w"] = " ".join(rest[stock_size:])
    set_position(game, layout)
    return game


def test_autocomplete_klondike_draw1_wins_whatever_the_stock_holds() -> None:
    """Draw 1 with no face-down card: the simple rule wins for every order of the unseen stock,
    so auto-complete plays it; the same view with the stock in other orders plays too."""
    rnd = random.Random(7)
    game = _klondike_open("klondike-draw1", 12, rnd)
    for g in [game, *(same_view(game, rnd) for _ in range(5))]:
        played = autocomplete(g)
        assert played is not None and g.is_won(), g.board_text()


def test_autocomplete_klondike_draw3_plays_only_when_every_stock_order_wins() -> None:
    """Draw 3: a small stock whose every order wins is finished; a stock where the ace can be
    buried (AC 2C 3C turned as one, 3C on top and nowhere to go) is not, whatever its real
    order; a stock larger than the orders tried is not either."""
    rnd = random.Random(3)
    # f1 empty, the clubs 2..K down c1 (by rank), f2 and f3 complete, f4 up to JD;
    # the stock holds AC QD KD: each order wins (a king goes to an empty column meanwhile)
    game = new_game("klondike", 1)
    clubs = " ".join(f"{r}C" for r in "KQJT98765432")
    layout = {"f2": run("AS", "KS"), "f3": run("AH", "KH"), "f4": run("AD", "JD"), "c1": clubs}
    set_position(game, dict(layout, s="AC QD KD"))
    for g in [game, *(same_view(game, rnd) for _ in range(4))]:
        played = autocomplete(g)
        assert played is not None and g.is_won(), g.board_text()
    # the clubs A 2 3 in the stock, 4..K down c1: some order buries the ace
    layout["c1"] = " ".join(f"{r}C" for r in "KQJT987654")
    for order in ("AC 2C 3C", "3C 2C AC", "2C AC 3C"):
        game = new_game("klondike", 1)
        set_position(game, dict(layout, s=order, f4=run("AD", "KD")))
        before = game.board_text()
        assert autocomplete(game) is None, order
        assert game.board_text() == before
    # draw 1 finishes the same view
    draw1 = new_game("klondike-draw1", 1)
    set_position(draw1, dict(layout, s="AC 2C 3C", f4=run("AD", "KD")))
    assert autocomplete(draw1) is not None and draw1.is_won()
    # draw 3 with more stock cards than the orders it tries: not played
    big = _klondike_open("klondike", 6, rnd)
    assert autocomplete(big) is None


def test_autocomplete_refuses_a_column_out_of_order() -> None:
    """The draw 1 rule rests on every column going down in rank (as play leaves them): a
    hand-made column that does not is not finished while the stock is unseen."""
    game = new_game("klondike-draw1", 1)
    layout = {f"f{i + 1}": run(f"A{s}", f"3{s}") for i, s in enumerate("CSHD")}
    layout["c1"] = "4C 9H"
    set_position(game, dict(layout, s=deck_except("klondike-draw1", *layout.values())))
    assert autocomplete(game) is None


def _session(game: Game, lines: list[str]) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, no_color=True, highlight=False)
    feed = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return PlaySession(game, console, read=read, echo=True), out


def test_terminal_a_key_obeys_the_view_in_ranked_play() -> None:
    """The terminal's ``a`` (ranked too): nothing is played from a Patriarchs deal, whose
    stock is unseen; a Klondike draw 1 game with no face-down card is finished."""
    game = new_game("patriarchs", WINNABLE["patriarchs"][0], undo=False)
    session, out = _session(game, ["a"])
    session.run()
    assert "Nothing you can see proves a win" in out.getvalue()
    assert game.moves == []
    klondike = _klondike_open("klondike-draw1", 10, random.Random(1))
    klondike.undo_allowed = False
    session, out = _session(klondike, ["a"])
    session.run()
    assert "Auto-completed" in out.getvalue() and klondike.is_won()


def test_hidden_places_of_a_view() -> None:
    """The helper's own check: the hidden places are the stock and the face-down cards."""
    game = new_game("klondike", 24)
    places = hidden_places(game)
    t = game.tables
    assert sum(1 for i, _ in places if t.kinds[i] is PileKind.STOCK) == 24
    assert len(places) == 24 + 21
