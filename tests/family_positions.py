"""Hand-made positions for the rule tests of Patriarchs' family and Senior Wrangler.

A position starts from a real deal (``patiencekit.new_game``) and then has some of
its piles set by label, e.g. ``position("patriarchs", {"f1": "AC 2C", "w": "3C 9H"})``.
Cards are listed bottom to top, as in the board text; ``<XC>`` marks a face-down card
(the stock is always face down). The engine does not check that a hand-made position
could arise in play, so each test builds what the rule under test needs and nothing more.

The assertion helpers check the two halves of every rule: a legal move is offered and
does what the rule says; an illegal one is refused with a message naming the move and
giving a reason, and leaves the position exactly as it was.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from patiencekit import Game, IllegalMoveError, Move, new_game
from patiencekit.cards import card_text, parse_card_index
from patiencekit.rules import PileKind


def position(
    game_id: str,
    piles: Mapping[str, str] | None = None,
    *,
    number: int = 1,
    clear: bool = True,
    redeals: int = 0,
) -> Game:
    """Game ``number`` of ``game_id`` with the given piles set by label.

    With ``clear`` every other pile is emptied first, except Senior Wrangler's index
    cards, which never move. ``redeals`` sets the redeals (packet deals) used.
    """
    game = new_game(game_id, number)
    state = game.state
    t = game.tables
    if clear:
        for i, kind in enumerate(t.kinds):
            if kind is not PileKind.INDEX:
                state.piles[i] = []
                state.down[i] = 0
    for label, text in (piles or {}).items():
        i = t.by_label[label]
        cards: list[int] = []
        down = 0
        for token in text.split():
            hidden = token.startswith("<")
            if hidden:
                assert down == len(cards), f"{label}: face-down card above a face-up one"
                down += 1
                token = token.strip("<>")
            cards.append(parse_card_index(token))
        state.piles[i] = cards
        state.down[i] = len(cards) if t.kinds[i] is PileKind.STOCK else down
    state.redeals = redeals
    return game


def cards(game: Game, label: str) -> str:
    """Pile ``label``'s cards bottom to top, as text (``"AC 2C 3C"``)."""
    return " ".join(card_text(c) for c in game.state.piles[game.tables.by_label[label]])


def count(game: Game, kind: PileKind) -> int:
    """How many cards the piles of one kind hold together."""
    t = game.tables
    return sum(len(game.state.piles[i]) for i, k in enumerate(t.kinds) if k is kind)


def labels(game: Game, kind: PileKind) -> list[str]:
    """The labels of one kind of pile, in layout order."""
    t = game.tables
    return [t.labels[i] for i, k in enumerate(t.kinds) if k is kind]


def legal_texts(game: Game) -> set[str]:
    """The legal moves now, as texts."""
    return {str(m) for m in game.legal_moves}


def plays(game: Game, text: str) -> Move:
    """Assert ``text`` is legal now, play it and return the move as played."""
    assert text in game.legal_moves, f"{text!r} should be legal in\n{game.board_text()}"
    history = len(game.moves)
    move = game.play(text)
    assert len(game.moves) == history + 1
    return move


def refused(game: Game, text: str, *reason: str) -> str:
    """Assert ``text`` is illegal now: refused with a message that names the move and
    gives a reason (containing each of ``reason``), the position unchanged.

    Returns the message.
    """
    before = game.board_text()
    key = game.state.key()
    history = len(game.moves)
    assert text not in game.legal_moves, f"{text!r} should be illegal in\n{before}"
    with pytest.raises(IllegalMoveError) as info:
        game.play(text)
    message = str(info.value)
    name = f"{Move.parse(text)}: "
    assert message.startswith(name), f"{message!r} does not name the move {text!r}"
    assert Move.parse(info.value.move) == Move.parse(text)
    assert len(info.value.reason) > 5, f"{message!r} gives no reason"
    for part in reason:
        assert part in message, f"{message!r} does not say {part!r}"
    assert game.board_text() == before
    assert game.state.key() == key
    assert len(game.moves) == history
    return message


def undo_restores(game: Game, text: str) -> None:
    """Play ``text``, undo it: the position is exactly as before; redo plays it again."""
    before = game.board_text()
    key = game.state.key()
    plays(game, text)
    after = game.board_text()
    assert after != before
    game.undo()
    assert game.board_text() == before
    assert game.state.key() == key
    game.redo()
    assert game.board_text() == after


def top_first(text: str) -> str:
    """Cards listed in the order they will be played (top first) as a pile text
    (bottom to top): ``top_first("2C 3C")`` is ``"3C 2C"``, a waste whose top is 2C."""
    return " ".join(reversed(text.split()))
