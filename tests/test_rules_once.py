"""Rules written once (issue 11): the legal moves (``State.moves``) and the reasons a move is
refused (``State.check``, said in words by ``Game.reason``) come from the same compiled rules.

On random positions of every game, and of made-up games built from the rules vocabulary, every
candidate move (every pair of piles, every count from 1 to the source pile's size, ``s`` and
``t``) is refused exactly when it is not among the legal moves, and every refusal has words.
A made-up game (same-suit building up by one, any card on an empty column) shows that the
moves and the refusals follow the data, not a hard-coded rule.
"""

from __future__ import annotations

import pickle
import random

import pytest

from made_up_games import (
    EITHER_BY_TWOS,
    KLONDIKES_DEAL,
    made_up,
    suit_foundations,
)
from patiencekit import GAMES, Game, GameRules, IllegalMoveError, ReplayError
from patiencekit.rules import (
    Build,
    ColumnRule,
    Direction,
    EmptyFill,
    StockRule,
    SuitPolicy,
)
from patiencekit.state import DRAW, TURN, EngineMove, State
from positions import set_position

#: same suit, building up by one; any card (or string) fills an empty column
UP_BY_SUIT = made_up(
    "test-up-by-suit",
    "Up by suit (made up)",
    "Klondike's deal; columns build up by suit; any card fills an empty column.",
    KLONDIKES_DEAL,
    foundations=suit_foundations(to_columns=True),
    column_rule=ColumnRule(
        build=Build(direction=Direction.UP, suits=SuitPolicy.SAME_SUIT), empty=EmptyFill.ANY
    ),
    stock=StockRule(draw=1, redeals=2),
)

#: down in the same colour, strings, kings fill empty columns, no redeal
DOWN_SAME_COLOUR = made_up(
    "test-down-same-colour",
    "Down in colour (made up)",
    "Klondike's deal; columns build down in the same colour.",
    KLONDIKES_DEAL,
    column_rule=ColumnRule(build=Build(direction=Direction.DOWN, suits=SuitPolicy.SAME_COLOUR)),
    stock=StockRule(draw=3, redeals=0),
)

MADE_UP = [UP_BY_SUIT, EITHER_BY_TWOS, DOWN_SAME_COLOUR]
ALL_RULES = [*GAMES.values(), *MADE_UP]
DEALS = (1, 7, 24, 1001)
STEPS = 160
EVERY = 12  # check every so many moves of a walk


def candidates(state: State) -> list[EngineMove]:
    """Every move one could ask for: ``s``, ``t``, and for every pair of piles (the same pile
    twice included) every count from 1 to the source's size."""
    n = state.t.pile_count
    out: list[EngineMove] = [DRAW, TURN]
    for src in range(n):
        for count in range(1, max(1, len(state.piles[src])) + 1):
            out.extend((src, dst, count) for dst in range(n))
    return out


def assert_rules_agree(game: Game) -> int:
    """Every candidate move is refused exactly when it is not legal, and every refusal has
    words; returns how many moves were refused."""
    state = game.state
    legal = state.moves()
    assert len(set(legal)) == len(legal), f"a move listed twice in\n{game.board_text()}"
    legal_set = set(legal)
    refused = 0
    for m in candidates(state):
        refusal = state.check(m)
        if (refusal is None) != (m in legal_set):
            pytest.fail(f"{refusal} for {state.t.label_of(m)} {m} in\n{game.board_text()}")
        if refusal is not None:
            refused += 1
            words = game.reason(refusal)
            if refusal.move != m or len(words) <= 5:
                pytest.fail(f"{refusal}: {words!r} in\n{game.board_text()}")
    assert legal_set <= set(candidates(state))
    return refused


def walk(rules: GameRules, number: int, rnd: random.Random) -> list[Game]:
    """Positions along a seeded random walk of legal moves from deal ``number``; moves other
    than ``s`` / ``t`` are chosen more often, so that the walk gets somewhere."""
    game = Game(rules, number)
    out: list[Game] = []
    for step in range(STEPS):
        if step % EVERY == 0:
            out.append(game)
            game = _copy(game)
        legal = game.state.moves()
        if not legal or game.state.is_won():
            break
        others = [m for m in legal if m[0] >= 0]
        game.state.push(rnd.choice(others if others and rnd.random() < 0.8 else legal))
    out.append(game)
    return out


def _copy(game: Game) -> Game:
    """An independent game at the same position (made-up rules are not in the registry, so
    board text cannot carry them)."""
    other = Game(game.rules, game.number)
    other.state = game.state.copy()
    return other


@pytest.mark.parametrize("rules", ALL_RULES, ids=[r.id for r in ALL_RULES])
def test_refused_exactly_when_not_legal(rules: GameRules) -> None:
    rnd = random.Random(f"rules-once {rules.id}")
    positions = refused = 0
    for number in DEALS:
        for game in walk(rules, number, rnd):
            refused += assert_rules_agree(game)
            positions += 1
    assert positions >= len(DEALS) * 2 and refused > 0


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_game_says_the_states_refusal(game_id: str) -> None:
    """``Game.refusal`` (what ``play`` raises) is the state's refusal in words, for every move
    the notation can write between two piles."""
    rnd = random.Random(f"words {game_id}")
    game = walk(GAMES[game_id], 3, rnd)[-1]
    t = game.tables
    for src, label in enumerate(t.labels):
        for dst, target in enumerate(t.labels):
            if label == "s" or target in ("s", "w") or target.startswith("i"):
                continue
            counts = range(1, len(game.state.piles[src]) + 1) if label.startswith("c") else [1]
            for n in counts:
                text = f"{label} {target} {n}"
                refusal = game.state.check((src, dst, n))
                said = None if refusal is None else game.reason(refusal)
                assert game.refusal(text) == said, text


HAND_MADE = [
    # an empty reserve space with the stock and the waste empty (Patriarchs' r9)
    ("patriarchs", {"f1": "AC", "f5": "KC", "r1": "7C", "r2": "8H"}, 1),
    # the stock and the waste empty, a redeal left or not
    ("klondike-draw1", {"c1": "<5C> 9H", "c2": "KS QH", "f1": "AC 2C"}, 0),
    ("picture-patience", {"r1": "AC", "w": "2C"}, 0),
    # a string under a face-down card, a full hand, an empty column
    ("patiencemax", {"c1": "<9C> 8D 7C", "h1": "AH", "h2": "2H", "h3": "3H", "h4": "4H"}, 0),
    # the last packet dealt out
    ("senior-wrangler", {"p1": "KC", "i1": "2C"}, 8),
]


@pytest.mark.parametrize(("game_id", "layout", "redeals"), HAND_MADE)
def test_refused_exactly_when_not_legal_in_hand_made_positions(
    game_id: str, layout: dict[str, str], redeals: int
) -> None:
    game = Game(GAMES[game_id], 1)
    set_position(game, layout, complete=False, redeals=redeals)
    assert assert_rules_agree(game) > 0


# -- a made-up game follows its data --------------------------------------------------------


def up_by_suit(layout: dict[str, str]) -> Game:
    game = Game(UP_BY_SUIT, 1)
    set_position(game, layout, complete=False)
    return game


def test_same_suit_building_up_by_one() -> None:
    """Columns build up by suit: 6H goes on 5H, 4H and 6S do not; the reasons say the rule."""
    game = up_by_suit({"c1": "5H", "c2": "6H", "c3": "4H", "c4": "6S", "c5": "KC"})
    legal = set(game.legal_moves.texts())
    assert "c2 c1" in legal and "c3 c1" not in legal and "c4 c1" not in legal
    assert game.refusal("c3 c1") == "4H cannot go on 5H: needs a 6 of the same suit"
    assert game.refusal("c4 c1") == "6S cannot go on 5H: needs a 6 of the same suit"
    assert game.refusal("c1 c5") == "5H cannot go on KC: nothing goes on a king"
    game.play("c2 c1")
    assert game.board_text().count("c1: 5H 6H") == 1


def test_same_suit_strings_go_up_and_any_card_fills_an_empty_column() -> None:
    """A string goes up by suit (3D 4D 5D); it moves as a unit onto a 2D, and any card or
    string fills an empty column (here c7)."""
    game = up_by_suit({"c1": "9C 3D 4D 5D", "c2": "2D", "c3": "4C 5S", "c4": "QH"})
    legal = set(game.legal_moves.texts())
    assert {"c1 c2 3", "c1 c7 3", "c1 c7 2", "c1 c7", "c4 c7", "c3 c7"} <= legal
    assert "c3 c2 2" not in legal
    assert game.refusal("c3 c2 2") == (
        "the last 2 cards of c3 are not a string (each one rank higher and of the same suit)"
    )
    assert game.refusal("c1 c2 2") == "4D cannot go on 2D: needs a 3 of the same suit"
    game.play("c1 c2 3")
    assert "c2: 2D 3D 4D 5D" in game.board_text()


def test_either_way_by_twos_and_no_empty_column_fill() -> None:
    """Either way by two in any suit: a 7 goes on a 5 or a 9 of any suit, one card at a time;
    an empty column takes nothing."""
    game = Game(EITHER_BY_TWOS, 1)
    set_position(game, {"c1": "5C", "c2": "7H", "c3": "9S", "c4": "8D 6D"}, complete=False)
    legal = set(game.legal_moves.texts())
    assert {"c2 c1", "c2 c3", "c1 c2", "c3 c2", "c4 h1"} <= legal
    assert game.refusal("c4 c1") == "6D cannot go on 5C: needs a 3 or a 7 of any suit"
    assert game.refusal("c4 c2") == "6D cannot go on 7H: needs a 5 or a 9 of any suit"
    assert game.refusal("c4 c3 2") == "only one card at a time moves from c4"
    assert game.refusal("c1 c5") == "nothing may fill an empty column"


def test_the_shipped_games_keep_their_rule_words() -> None:
    """Klondike's columns still say "one rank lower and of the other colour"."""
    rules = GAMES["klondike"]
    assert rules.column_rule.build == Build.ALTERNATE_DOWN
    assert rules.column_rule.build.onto(11) == (38, 51)  # QC goes on KH or KD
    game = Game(rules, 1)
    set_position(game, {"c1": "9C 8C", "c2": "TH"}, complete=False)
    assert game.refusal("c1 c2 2") == (
        "the last 2 cards of c1 are not a string (each one rank lower and of the other colour)"
    )


# -- the error types ------------------------------------------------------------------------------


def test_replay_error_survives_pickle() -> None:
    """A ``ReplayError`` (raised by ``Game.from_record``) pickles and unpickles with its
    position, move, reason and game (issue 11: its inherited ``__reduce__`` broke this)."""
    with pytest.raises(ReplayError) as info:
        Game.from_record({"game": "klondike", "number": 24, "moves": ["s", "c1 c2"]})
    error = info.value
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is ReplayError
    assert (again.position, again.move, again.reason) == (2, "c1 c2", error.reason)
    assert str(again) == str(error)
    assert again.game.board_text() == error.game.board_text()
    assert again.game.moves == error.game.moves
    assert again.game.state == error.game.state  # the same compiled rules, too
    plain = pickle.loads(pickle.dumps(IllegalMoveError("c1 c2", "no")))
    assert (plain.move, plain.reason, str(plain)) == ("c1 c2", "no", "c1 c2: no")
