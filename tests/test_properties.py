"""Property tests: random legal play in every game keeps the cards, the invariants,
undo/redo, every text format and the player's view honest.

Each test draws a game number and a Hypothesis-controlled random generator, plays
random legal moves (``game.legal_moves``) and checks a property after every move.
Example counts are modest so that the whole file stays fast.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patiencekit import (
    GAMES,
    Card,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    PileKind,
    Rank,
    Suit,
    format_record,
    new_game,
    parse_record,
)
from patiencekit.notation import Record, format_board, parse_board

GAME_IDS = list(GAMES)
EXAMPLES = 12


def fixed_clock() -> float:
    """A clock that never moves: scores do not depend on the time the test takes."""
    return 0.0


#: game numbers of both shuffles: the Microsoft generator (< 32000) and the Mersenne Twister
numbers = st.one_of(
    st.integers(min_value=0, max_value=31_999),
    st.integers(min_value=32_000, max_value=10**20 - 1),
)
lengths = st.integers(min_value=0, max_value=90)


def random_moves(
    game: Game, rnd: random.Random, steps: int
) -> Iterator[tuple[tuple[str, int | None], Move]]:
    """Play up to ``steps`` random legal moves, yielding (position before, move played)."""
    for _ in range(steps):
        legal = list(game.legal_moves)
        if not legal:
            return
        move = rnd.choice(legal)
        before = (game.board_text(), game.score)
        played = game.play(move)
        assert played == move, f"{game.id} #{game.number}: played {move} as {played}"
        yield before, move


# -- (a) cards are never lost or duplicated; pile invariants ----------------------------


def check_invariants(game: Game) -> None:
    rules = game.rules
    t = game.tables
    s = game.state
    where = f"{game.id} #{game.number} after {[str(m) for m in game.moves]}"
    # the multiset of cards: each of the 52 cards exactly `decks` times
    counts = Counter(c for pile in s.piles for c in pile)
    assert sum(counts.values()) == 52 * rules.decks, where
    assert counts == Counter({c: rules.decks for c in range(52)}), where
    # face-down counts within the piles
    for i, pile in enumerate(s.piles):
        assert 0 <= s.down[i] <= len(pile), f"{where}: {t.labels[i]} down {s.down[i]}"
    board = game.board()
    assert [label for label, _, _ in board.piles] == list(t.labels), where
    for label, cards, down in board.piles:
        assert 0 <= down <= len(cards), f"{where}: board {label} down {down} of {len(cards)}"
        if label == "s":
            assert down == len(cards), f"{where}: a stock card shows"
    # Klondike: a column's last card is never face down (it is turned up at once)
    if rules.column_rule.auto_flip:
        for i in t.columns:
            if s.piles[i]:
                assert s.down[i] < len(s.piles[i]), f"{where}: {t.labels[i]} ends face down"
    # foundations hold at most their size, built in their sequence
    for i, rule in zip(t.foundations, rules.foundations, strict=True):
        pile = s.piles[i]
        assert len(pile) <= rule.size, f"{where}: {t.labels[i]} holds {len(pile)}"
        assert s.down[i] == 0, where
        for pos, c in enumerate(pile):
            assert c % 13 == rule.rank_at(pos), f"{where}: {t.labels[i]} {pile}"
            if rule.suit is not None:
                assert c // 13 == rule.suit, f"{where}: {t.labels[i]} {pile}"
            if rule.follow_suit:
                assert c // 13 == pile[0] // 13, f"{where}: {t.labels[i]} {pile}"
    # hand cells and reserve spaces hold at most one card; index cards stay
    for i, kind in enumerate(t.kinds):
        if kind in (PileKind.HAND, PileKind.RESERVE):
            assert len(s.piles[i]) <= 1, f"{where}: {t.labels[i]} holds {s.piles[i]}"
        if kind is PileKind.INDEX:
            assert len(s.piles[i]) == 1, where
    # redeals within the rules
    left = s.redeals_left()
    assert left is None or left >= 0, where
    if rules.scored:
        assert s.score >= 0, where


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_random_play_keeps_every_card(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    game = new_game(game_id, number, clock=fixed_clock)
    check_invariants(game)
    initial_index = sorted(game.state.piles[i][0] for i in game.tables.index)
    for _ in random_moves(game, rnd, steps):
        check_invariants(game)
    assert sorted(game.state.piles[i][0] for i in game.tables.index) == initial_index


def test_stock_face_down_count() -> None:
    """The fast State's face-down count of the stock stays within the stock, and the
    same position set up from its board text has the same key (a regression test:
    the stock's count once kept the dealt 24 while cards were drawn)."""
    game = new_game("klondike", 1, clock=fixed_clock)
    game.play("s")
    stock = game.tables.stock
    assert game.state.down[stock] <= len(game.state.piles[stock])
    again = Game.from_board(game.board_text())
    assert again.board_text() == game.board_text()
    assert again.state.key() == game.state.key()


_POINTS = {("w", "c"): 25, ("c", "f"): 25, ("w", "f"): 50, ("f", "c"): -25}


@pytest.mark.parametrize("game_id", ["klondike", "klondike-draw1"])
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_klondike_score_follows_the_table(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    """RULES.md "Scoring": each move scores its points (+20 per card turned up), never below 0."""
    game = new_game(game_id, number, clock=fixed_clock)
    assert game.score == 0
    down_before = {label: down for label, _, down in game.board().piles}
    for (_, score_before), move in random_moves(game, rnd, steps):
        down_after = {label: down for label, _, down in game.board().piles}
        if move.src == "t":
            delta = -25
        elif move.src == "s":
            delta = 0
        else:
            delta = _POINTS.get((move.src[0], move.dst[0]), 0)
            if move.src.startswith("c"):
                turned = down_before[move.src] - down_after[move.src]
                assert turned in (0, 1)
                delta += 20 * turned
        assert score_before is not None
        assert game.score == max(0, score_before + delta), f"{move} from {score_before}"
        down_before = down_after


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_legal_moves_agree_with_play(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    """Every move ``legal_moves`` lists can be played; any other move between the game's
    piles raises IllegalMoveError and leaves the game as it was."""
    game = new_game(game_id, number, clock=fixed_clock)
    labels = [label for label in game.tables.labels if label != "s"]
    for _ in random_moves(game, rnd, steps):
        pass
    legal = {str(m) for m in game.legal_moves}
    candidates = {"s", "t"} | {f"{a} {b}" for a in labels for b in labels if a != b}
    for text in sorted(candidates):
        try:
            move = Move.parse(text)
        except InvalidMoveError:
            continue  # e.g. an index card as source
        before = game.board_text()
        if text in legal:
            assert text in game.legal_moves
            played = game.play(move)
            assert str(played) == text
            game.undo()
            assert game.board_text() == before
        else:
            assert text not in game.legal_moves, text
            with pytest.raises(IllegalMoveError):
                game.play(move)
            assert game.board_text() == before


# -- (b) undo restores the position and the score exactly; redo replays ---------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_undo_restores_position_and_score(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    game = new_game(game_id, number, clock=fixed_clock)
    start = (game.board_text(), game.score)
    history = [start]
    for before, move in random_moves(game, rnd, steps):
        after = (game.board_text(), game.score)
        assert game.undo() == move
        assert (game.board_text(), game.score) == before, f"undo of {move}"
        assert game.redo() == move
        assert (game.board_text(), game.score) == after, f"redo of {move}"
        history.append(after)
    # all the way back, then all the way forward again
    played = [str(m) for m in game.moves]
    for expected in reversed(history[:-1]):
        game.undo()
        assert (game.board_text(), game.score) == expected
    assert not game.can_undo
    assert game.moves == []
    for expected in history[1:]:
        game.redo()
        assert (game.board_text(), game.score) == expected
    assert [str(m) for m in game.moves] == played
    assert not game.can_redo


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES // 2, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_restart_then_redo(game_id: str, number: int, rnd: random.Random, steps: int) -> None:
    game = new_game(game_id, number, clock=fixed_clock)
    start = game.board_text()
    for _ in random_moves(game, rnd, steps):
        pass
    end = (game.board_text(), game.score, [str(m) for m in game.moves])
    game.restart()
    assert game.board_text() == start
    while game.can_redo:
        game.redo()
    assert (game.board_text(), game.score, [str(m) for m in game.moves]) == end


# -- (c) every text format round-trips ---------------------------------------------------

ALL_CARDS = [Card(r, s) for s in Suit for r in Rank]


def spellings(card: Card) -> list[str]:
    """Every way a player may write ``card``: 10H/TH, letters or symbols, any case."""
    ranks = [card.rank.letter] + (["10"] if card.rank is Rank.TEN else [])
    if card.rank is Rank.ACE:
        ranks.append("1")
    suits = [card.suit.letter, card.suit.symbol]
    out = []
    for r in ranks:
        for s in suits:
            out += [r + s, (r + s).lower(), f"  {r}{s.lower()} "]
    return out


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_card_text_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.from_index(card.index) == card
    assert Card.parse(card.symbol_text) == card
    for text in spellings(card):
        assert Card.parse(text) == card, text
    assert str(Card.parse("10" + card.suit.letter)) == "T" + card.suit.letter


def test_card_alternatives_named_in_the_rules() -> None:
    queen_of_hearts = Card(Rank.QUEEN, Suit.HEARTS)
    for text in ("QH", "qh", "Q♥", "q♥", " Qh "):
        assert Card.parse(text) == queen_of_hearts
    ten_of_hearts = Card(Rank.TEN, Suit.HEARTS)
    for text in ("10H", "TH", "th", "10h", "10♥", "T♥"):
        assert Card.parse(text) == ten_of_hearts
    assert str(ten_of_hearts) == "TH"


def odd_spacing_and_case(draw: st.DrawFn, parts: list[str]) -> str:
    """The parts joined by 1-3 spaces (or tabs), with random case and padding."""
    words = ["".join(ch.upper() if draw(st.booleans()) else ch for ch in p) for p in parts]
    text = words[0]
    for w in words[1:]:
        text += draw(st.sampled_from([" ", "  ", "   ", "\t", " \t "])) + w
    return draw(st.sampled_from(["", " ", "  "])) + text + draw(st.sampled_from(["", " ", "\t"]))


@st.composite
def move_texts(draw: st.DrawFn) -> tuple[str, Move]:
    kind = draw(st.sampled_from(["s", "t", "pile", "pile"]))
    if kind in ("s", "t"):
        return odd_spacing_and_case(draw, [kind]), Move(kind)
    letter = draw(st.sampled_from("cfhrpw"))
    src = "w" if letter == "w" else f"{letter}{draw(st.integers(1, 16))}"
    dst_letter = draw(st.sampled_from("cfhrp"))
    bare = draw(st.booleans()) and dst_letter in "fh"
    dst = dst_letter if bare else f"{dst_letter}{draw(st.integers(1, 16))}"
    count = draw(st.integers(1, 13)) if src.startswith("c") else 1
    parts = [src, dst]
    if count != 1 or draw(st.booleans()):
        parts.append(str(count))
    return odd_spacing_and_case(draw, parts), Move(src, dst, count)


@settings(max_examples=300, deadline=None)
@given(move_texts())
def test_move_text_round_trips(case: tuple[str, Move]) -> None:
    text, move = case
    parsed = Move.parse(text)
    assert parsed == move, text
    assert Move.parse(str(parsed)) == parsed
    assert str(parsed) == str(move)
    assert str(parsed) == str(parsed).strip().lower()


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_texts_round_trip_in_play(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    game = new_game(game_id, number, clock=fixed_clock)

    def check_position() -> None:
        for m in game.legal_moves:
            assert Move.parse(str(m)) == m
            assert Move.parse(f"  {str(m).upper()}  ") == m
            assert m in game.legal_moves
            assert str(m) in game.legal_moves
        board = game.board()
        text = format_board(board)
        assert text == game.board_text()
        assert parse_board(text) == board
        assert parse_board(text.upper()) == board
        again = Game.from_board(text, clock=fixed_clock)
        assert again.board_text() == text
        assert again.state.key() == game.state.key()
        assert again.score == game.score

    check_position()
    for _ in random_moves(game, rnd, steps):
        check_position()
    record = game.record()
    assert parse_record(format_record(record)) == record
    times = {"times": [1.5] * len(record.moves)}
    with_extra = Record(record.game, record.number, record.moves, times)
    assert parse_record(format_record(with_extra)) == with_extra
    assert parse_record(format_record(with_extra)).to_json() == with_extra.to_json()


# -- (d) a game record replays to the same position ------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_record_replays_to_the_same_position(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    game = new_game(game_id, number, clock=fixed_clock)
    for _ in random_moves(game, rnd, steps):
        pass
    record = game.record()
    for source in (record, record.to_json(), parse_record(format_record(record))):
        replay = Game.from_record(source, clock=fixed_clock)
        assert replay.board_text() == game.board_text()
        assert replay.score == game.score
        assert replay.moves == game.moves
        assert replay.is_won() == game.is_won()


# -- (e) the player's view hides face-down and stock cards ------------------------------


def check_view(game: Game) -> None:
    t = game.tables
    s = game.state
    view = game.view()
    data = view.to_json()
    assert len(view.piles) == t.pile_count
    for i, (pv, pj) in enumerate(zip(view.piles, data["piles"], strict=True)):
        pile = s.piles[i]
        assert pv.label == t.labels[i]
        assert len(pv.cards) == len(pile) == len(pj["cards"])
        for pos, c in enumerate(pile):
            if pv.kind is PileKind.STOCK or pos < s.down[i]:
                # face down, or in the stock: hidden
                assert pv.cards[pos] is None and pj["cards"][pos] is None, (pv.label, pos)
            elif pos == len(pile) - 1 or pv.kind is not PileKind.PACKET:
                # face up: shown as it is (a board packet may show only its top card)
                assert pv.cards[pos] == Card.from_index(c), (pv.label, pos)
                assert pj["cards"][pos] == str(Card.from_index(c))
            elif pv.cards[pos] is not None:
                assert pv.cards[pos] == Card.from_index(c), (pv.label, pos)
        assert pj["face_down"] == pv.face_down
    if game.rules.decks == 1:
        # one deck: a hidden card must not show anywhere in the view
        hidden_cards = {
            c
            for i, pile in enumerate(s.piles)
            for pos, c in enumerate(pile)
            if t.kinds[i] is PileKind.STOCK or pos < s.down[i]
        }
        visible = {c.index for pv in view.piles for c in pv.cards if c is not None}
        visible_json = {text for pj in data["piles"] for text in pj["cards"] if text}
        assert not hidden_cards & visible
        assert not {str(Card.from_index(c)) for c in hidden_cards} & visible_json


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=numbers, rnd=st.randoms(use_true_random=False), steps=lengths)
def test_view_hides_face_down_and_stock_cards(
    game_id: str, number: int, rnd: random.Random, steps: int
) -> None:
    game = new_game(game_id, number, clock=fixed_clock)
    check_view(game)
    for _ in random_moves(game, rnd, steps):
        check_view(game)


@pytest.mark.parametrize("game_id", ["klondike", "klondike-draw1"])
def test_klondike_view_at_the_deal_shows_seven_cards(game_id: str) -> None:
    game = new_game(game_id, 24, clock=fixed_clock)
    visible = [c for pv in game.view().piles for c in pv.cards if c is not None]
    # only the last card of each of the seven columns is face up; the waste is empty
    assert len(visible) == 7
    assert {c.index for c in visible} == {
        game.state.piles[i][-1] for i in game.tables.columns
    }
