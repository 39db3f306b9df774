"""``Game.describe``: a legal move in words for players, in every game of the registry.

The words name piles in the game's own words, never in the notation (no ``c3``, no bare
``s`` or ``t``), and name only cards the player can see; a move that is not legal raises
what ``Game.play`` raises, and changes nothing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from patiencekit import IllegalMoveError, InvalidMoveError, new_game
from patiencekit.game import Game
from patiencekit.games import FACTS, GAMES
from patiencekit.rules import PileKind

#: a pile in the notation (c3, f12, w, h, ...) or a stock action, as a word of its own
NOTATION = re.compile(r"(?<![\w-])(?:[cfhrpi]\d{1,2}|[cfhrpiwst])(?![\w-])")
#: a card as the words name it: 7♥, 10♠, Q♣
CARD = re.compile(r"(?:10|[A2-9JQK])[♣♠♥♦]")
SEEDS = (1, 2, 3)
STEPS = 60


def said(card: object) -> str:
    text = card.symbol_text  # type: ignore[attr-defined]
    return "10" + text[1:] if text.startswith("T") else text


def visible(game: Game) -> set[str]:
    """Every card the player sees now, as the words name cards."""
    return {said(c) for p in game.view().piles for c in p.cards if c is not None}


def walk(game_id: str, seed: int) -> Iterator[Game]:
    """A game at each position of a seeded random walk (the same game object, moved on)."""
    rng = random.Random(seed)
    game = new_game(game_id, 1000 + seed)
    for _ in range(STEPS):
        yield game
        moves = list(game.legal_moves)
        if not moves:
            return
        game.play(rng.choice(moves))


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_legal_move_has_words_naming_only_cards_in_sight(game_id: str) -> None:
    kinds: set[str] = set()
    for seed in SEEDS:
        for game in walk(game_id, seed):
            seen = visible(game)
            before = game.board_text()
            for move in game.legal_moves:
                words = game.describe(move)
                assert words and words[0].isupper(), (move, words)
                assert not NOTATION.search(words), (str(move), words)
                named = set(CARD.findall(words))
                assert named <= seen, (str(move), words, named - seen)
                if not move.is_stock:
                    assert named, (str(move), words)  # the moving card, always in sight
                kinds.add(words.split()[0])
                assert game.describe(str(move)) == words
            assert game.board_text() == before
    assert "Move" in kinds


@pytest.mark.parametrize("game_id", [g for g, facts in FACTS.items() if facts.pile_words])
def test_a_game_s_own_pile_words_are_used(game_id: str) -> None:
    words = FACTS[game_id].pile_words
    for seed in SEEDS:
        for game in walk(game_id, seed):
            for move in game.legal_moves:
                if move.is_stock:
                    continue
                text = game.describe(move)
                kind = game.tables.kinds[game.tables.by_label[move.src]]
                if kind in words:
                    assert words[kind] in text, (str(move), text)
                    return
    pytest.fail("no move from a pile with the game's own word")


def test_examples() -> None:
    g = new_game("klondike-draw1", 24)
    assert g.describe("c3 f") == "Move the A♣ from column 3 to its foundation"
    assert g.describe("s") == "Draw a card from the stock"
    g3 = new_game("klondike", 24)
    assert g3.describe("s") == "Draw 3 cards from the stock"
    sw = new_game("senior-wrangler", 3)
    turn = [m for m in sw.legal_moves if str(m) == "t"]
    if turn:
        assert sw.describe("t").startswith("Deal out packet 1")
    cotillion = new_game("royal-cotillion", 3)
    from_left = [m for m in cotillion.legal_moves if m.src.startswith("c")]
    for m in from_left:
        assert "from left pile" in cotillion.describe(m)


def test_strings_and_empty_columns() -> None:
    """A string names its head and counts the rest; an empty column is said to be empty."""
    found_string = found_empty = False
    for seed in range(1, 40):
        for game in walk("klondike-draw1", seed):
            for move in game.legal_moves:
                if move.is_stock:
                    continue
                words = game.describe(move)
                if move.count > 1:
                    more = move.count - 1
                    assert f" and {more} more card{'s' if more > 1 else ''} " in words
                    found_string = True
                dst = game.tables.by_label[move.dst]
                if game.tables.kinds[dst] is PileKind.COLUMN and not game.state.piles[dst]:
                    assert "to the empty column" in words, words
                    found_empty = True
        if found_string and found_empty:
            return
    pytest.fail(f"string seen: {found_string}, empty column seen: {found_empty}")


@pytest.mark.parametrize("game_id", list(GAMES))
def test_an_illegal_or_malformed_move_raises_what_play_raises(game_id: str) -> None:
    game = new_game(game_id, 7)
    legal = {str(m) for m in game.legal_moves}
    before = (game.board_text(), game.moves)
    labels = game.tables.labels
    illegal = next(
        f"{a} {b}"
        for a in labels
        for b in labels
        if a != b and f"{a} {b}" not in legal and a not in ("s",) and b not in ("s", "w")
    )
    cases = ((illegal, IllegalMoveError), ("c1 x9", InvalidMoveError), ("", InvalidMoveError))
    for text, error in cases:
        with pytest.raises(error) as raised:
            game.describe(text)
        with pytest.raises(error) as played:
            game.play(text)
        assert str(raised.value) == str(played.value)
    assert (game.board_text(), game.moves) == before


def test_a_won_game_has_no_move_to_describe() -> None:
    from patiencekit.solver import Budget, solve

    result = solve("klondike-draw1", 1, budget=Budget(seconds=None, states=300_000))
    assert result.outcome == "solved"
    game = new_game("klondike-draw1", 1)
    for m in result.moves:
        game.play(m)
    with pytest.raises(IllegalMoveError):
        game.describe("s")
