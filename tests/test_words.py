"""Moves and refusals in words, in English, Dutch and Spanish (``patiencekit.words``), and the
catalogues they are translated through.

- Every message the code says (found by Babel's extraction of the words module, the
  terminal game and the command line, plus the messages the words module makes: card
  names, pile names) is in the ``words`` and ``terminal`` catalogues of Dutch and Spanish,
  translated, with the same placeholders, and no catalogue holds a message the code no
  longer says.
- Every rule a move can break (every :class:`~patiencekit.state.Why`) and every refusal of the
  game itself (every :class:`~patiencekit.game.Refused`) is met in a position made for it, and
  said in each language as a sentence naming the cards in sight and no hidden card.
- On random walks through every game, every refused move is said in each language naming no
  hidden card, and every legal move is said (in English exactly ``Game.describe``).
- Every reason the notation has to refuse a move's text or a game record is said, in English
  exactly as the notation says it, in Dutch and Spanish in their words.
"""

from __future__ import annotations

import pickle
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from made_up_games import (
    EITHER_BY_TWOS,
    KLONDIKES_DEAL,
    PATIENCEMAXS_DEAL,
    made_up,
    suit_foundations,
)
from patiencekit import GAMES, Game, GameRules, IllegalMoveError, ReplayError, new_game
from patiencekit.cards import parse_card_index
from patiencekit.errors import InvalidMoveError, InvalidRecordError
from patiencekit.game import GameRefusal, Refused
from patiencekit.i18n import LANGUAGES, LOCALE_DIR
from patiencekit.notation import Move, parse_record
from patiencekit.rules import (
    Build,
    ColumnRule,
    Direction,
    EmptyFill,
    PileKind,
    StockRule,
    SuitPolicy,
)
from patiencekit.state import DRAW, TURN, EngineMove, Refusal, Why
from patiencekit.tui import HELP
from patiencekit.words import (
    card_name,
    generated_messages,
    language,
    move_words,
    notation_words,
    record_words,
    refusal_words,
)
from positions import run, set_position

SRC = Path(__file__).resolve().parent.parent / "src" / "patiencekit"
OTHERS = [lang for lang in LANGUAGES if lang != "en"]

#: a pile in the notation (c3, f12, w, h, ...) or a stock action, as a word of its own
NOTATION = re.compile(r"(?<![\w'-])(?:[cfhrpi]\d{1,2}|[cfhrpiwst])(?![\w'-])")
#: a card by its face, as a move's words name it: 7♥, 10♠, Q♣
FACE = re.compile(r"(?:10|[A2-9JQK])[♣♠♥♦]")


# -- the catalogues -------------------------------------------------------------------------------


def code_messages(domain: str) -> set[tuple[str, str | None]]:
    """Every (message, context) the code says in ``domain``."""
    if domain == "words":
        found = extract_from_file("python", SRC / "words.py", keywords={"_said": (2,)})
        return {(m, c) for _, m, _, c in found} | set(generated_messages())
    found = extract_from_file("python", SRC / "tui.py", keywords={"_t": None, "_tr": (2,)})
    found += extract_from_file("python", SRC / "cli.py", keywords={"_h": None, "_tr": (2,)})
    return {(m, c) for _, m, _, c in found} | {(HELP, None)}


def catalogue(lang: str, domain: str) -> dict[tuple[str, str | None], str]:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    with path.open("rb") as f:
        cat = read_po(f, locale=lang, domain=domain)
    out = {}
    for m in cat:
        if not m.id:
            continue
        assert isinstance(m.id, str) and isinstance(m.string, str), f"{path}: a plural {m.id}"
        assert not m.fuzzy, f"{path}: fuzzy {m.id!r}"
        out[(m.id, m.context)] = m.string
    return out


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("domain", ["words", "terminal"])
@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_is_translated_with_the_same_placeholders(lang: str, domain: str) -> None:
    said = code_messages(domain)
    translated = catalogue(lang, domain)
    missing = sorted(said - set(translated), key=str)
    stale = sorted(set(translated) - said, key=str)
    assert not missing, f"{lang}/{domain}.po lacks {missing}"
    assert not stale, f"{lang}/{domain}.po holds messages the code no longer says: {stale}"
    for (message, _), text in translated.items():
        assert text.strip(), f"{lang}/{domain}.po: {message!r} is not translated"
        assert placeholders(text) == placeholders(message), (lang, message, text)
        assert text.count("{") == text.count("}"), (lang, message, text)
        if message.endswith("."):
            assert text.endswith("."), (lang, message, text)
    # the catalogues are read as the words module reads them: a lookup gives the translation
    if domain == "words":
        assert card_name("QH", lang) == translated[("the queen of hearts", None)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_names_are_52_different_names_each_way(lang: str) -> None:
    """Every card has its own name in each language, definite and indefinite, so a name read
    back gives its card (a round trip through the words)."""
    for definite in (True, False):
        names = {card_name(c, lang, definite=definite): c for c in range(52)}
        assert len(names) == 52
        assert all(names[card_name(c, lang, definite=definite)] == c for c in range(52))


def test_spanish_articles_follow_the_gender_and_dutch_cards_take_de() -> None:
    assert card_name("5C", "es") == "el cinco de tréboles"
    assert card_name("KH", "es") == "el rey de corazones"
    assert card_name("QD", "es") == "la reina de diamantes"
    assert card_name("JS", "es", definite=False) == "una jota de picas"
    assert card_name("5C", "nl") == "de klaveren vijf"
    assert card_name("KH", "nl") == "de harten heer"
    assert card_name("AS", "nl", definite=False) == "een schoppen aas"
    assert card_name("8S", definite=False) == "an eight of spades"


def test_language_names() -> None:
    assert [language(x) for x in ("en", "NL", "nl_BE", "es-419")] == ["en", "nl", "nl", "es"]
    with pytest.raises(ValueError, match="no words in 'fr'"):
        language("fr")
    with pytest.raises(ValueError):
        refusal_words(new_game("klondike", 1), Refusal(Why.SAME_PILE, (3, 3, 1)), "de")


# -- naming cards ---------------------------------------------------------------------------------


def _core(name: str) -> str:
    """A card's name without its article: "five of clubs", "klaveren vijf"."""
    return name.split(" ", 1)[1]


#: per language: each card by its name without article ("five of clubs", "klaveren vijf")
CORES = {lang: {_core(card_name(c, lang)): c for c in range(52)} for lang in LANGUAGES}
#: per language: a card's name and the word before it
NAMES = {
    lang: re.compile(rf"(\w+) ({'|'.join(map(re.escape, cores))})\b")
    for lang, cores in CORES.items()
}
#: the words before a card's name that say "some card" (what a rule asks for)
INDEFINITE = {"en": ("a", "an"), "nl": ("een",), "es": ("un", "una")}


def named_cards(text: str, lang: str) -> tuple[set[int], set[int]]:
    """The cards ``text`` names as cards (the five of clubs, del cinco de tréboles), and those
    it names as what a rule asks for (a five of clubs).

    >>> seen, asked = named_cards(
    ...     "The five of clubs can't go on the nine of hearts: it needs an eight of clubs.", "en"
    ... )
    >>> sorted(seen), sorted(asked)
    ([4, 34], [7])
    """
    seen: set[int] = set()
    asked: set[int] = set()
    for m in NAMES[lang].finditer(text):
        card = CORES[lang][m.group(2)]
        (asked if m.group(1).lower() in INDEFINITE[lang] else seen).add(card)
    return seen, asked


def visible(game: Game) -> set[int]:
    return {c.index for p in game.view().piles for c in p.cards if c is not None}


def assert_sentence(game: Game, text: str, lang: str, in_sight: set[int] | None = None) -> set[int]:
    """A player's sentence: a capital, a full stop, no placeholder left, no notation, no card
    out of sight (``in_sight``: the view's cards) named as a card; returns the cards it
    names."""
    assert text and text[0].isupper() and text.endswith("."), (lang, text)
    assert "{" not in text and "}" not in text, (lang, text)
    assert not NOTATION.search(text), (lang, text)
    if lang == "es":
        assert not re.search(r"\b[Dd]e el\b|\b[Aa] el\b", text), text
    seen, _ = named_cards(text, lang)
    in_sight = visible(game) if in_sight is None else in_sight
    assert seen <= in_sight, (lang, text, seen - in_sight)
    return seen


# -- a position for every rule --------------------------------------------------------------------

#: foundations that go only to other foundations (reversal) in a game with columns
TO_FOUNDATIONS = made_up(
    "test-words-reversal",
    "Reversal with columns (made up)",
    "Klondike's deal; foundation cards go to other foundations, never to columns.",
    KLONDIKES_DEAL,
    foundations=suit_foundations(to_foundations=True),
    stock=StockRule(draw=1),
)
#: a hand beside columns on which nothing is built
HAND_NO_BUILD = made_up(
    "test-words-hand",
    "A hand and no building (made up)",
    "PatienceMax's deal; nothing is built on the columns.",
    PATIENCEMAXS_DEAL,
    column_rule=ColumnRule(build=Build.NONE, empty=EmptyFill.NONE, to_hand=True),
)
#: up by suit, same colour strings (a string rule other than Klondike's)
UP_SAME_COLOUR = made_up(
    "test-words-up-colour",
    "Up in colour (made up)",
    "Klondike's deal; columns build up in the same colour.",
    KLONDIKES_DEAL,
    column_rule=ColumnRule(build=Build(direction=Direction.UP, suits=SuitPolicy.SAME_COLOUR)),
    stock=StockRule(draw=1),
)

FULL_CLUBS = run("AC", "KC")

#: (rules or game id, layout, redeals, move as labels or "s" / "t", the rule it breaks,
#: the card the words must name (its text, or ""), cards that lie hidden and must not be named)
CASES: list[tuple[GameRules | str, dict[str, str], int, str, Why, str, str]] = [
    ("klondike", {"c1": "5C"}, 0, "c1 c1", Why.SAME_PILE, "", ""),
    ("klondike", {"c1": "5C"}, 0, "w c1", Why.SOURCE_EMPTY, "", ""),
    ("klondike", {"s": "3S 4D"}, 0, "s c1", Why.STOCK_CARDS_ARE_DRAWN, "", "3S 4D"),
    ("senior-wrangler", {"i1": "2C", "f1": "4C"}, 0, "i1 f1", Why.INDEX_CARDS_STAY, "", ""),
    ("patiencemax", {"f1": "AC", "c1": "2H"}, 0, "f1 c1", Why.FOUNDATION_KEEPS_ALL, "", ""),
    ("patriarchs", {"f1": "AC", "f5": "KC"}, 0, "f1 f5", Why.BASE_CARD_STAYS, "AC", ""),
    ("senior-wrangler", {"f1": "KC"}, 0, "f1 f2", Why.KING_STAYS, "", ""),
    (TO_FOUNDATIONS, {"f1": "AC 2C", "c1": "3H"}, 0, "f1 c1",
     Why.FOUNDATION_TO_FOUNDATIONS_ONLY, "", ""),
    ("klondike", {"f1": "AC"}, 0, "f1 f2", Why.FOUNDATION_TO_COLUMNS_ONLY, "", ""),
    ("senior-wrangler", {"p1": "5C"}, 0, "p1 p2", Why.PACKET_TO_FOUNDATIONS_ONLY, "", ""),
    ("patriarchs", {"r1": "5C"}, 0, "r1 r2", Why.RESERVE_TO_FOUNDATIONS_ONLY, "", ""),
    (EITHER_BY_TWOS, {"c1": "8D 6D", "c2": "4S"}, 0, "c1 c2 2", Why.ONE_CARD_FROM_PILE, "", ""),
    ("klondike", {"c1": "<AC> <9D> 5C", "c2": "6H"}, 0, "c1 c2 3", Why.TOO_FEW_FACE_UP, "",
     "AC 9D"),
    ("klondike", {"c1": "5C 9H", "c2": "TS"}, 0, "c1 c2 2", Why.NOT_A_STRING, "", ""),
    ("klondike", {"c1": "<5C>", "c2": "6H"}, 0, "c1 c2", Why.FACE_DOWN, "", "5C"),
    ("royal-cotillion", {"c1": "5C", "c2": "6H"}, 0, "c1 c2", Why.COLUMN_TO_FOUNDATIONS_ONLY,
     "", ""),
    (HAND_NO_BUILD, {"h1": "5C", "c1": "6H"}, 0, "h1 c1", Why.HAND_NOT_TO_COLUMNS, "", ""),
    ("royal-cotillion", {"w": "5C", "c1": "6H"}, 0, "w c1", Why.NOT_BUILT_ON, "", ""),
    (EITHER_BY_TWOS, {"c1": "5C"}, 0, "c1 c2", Why.EMPTY_COLUMN_TAKES_NOTHING, "", ""),
    ("klondike", {"c1": "<KD> 5C"}, 0, "c1 c2", Why.EMPTY_COLUMN_WANTS, "5C", "KD"),
    ("klondike", {"c1": "5C", "c2": "AH"}, 0, "c1 c2", Why.NOTHING_GOES_ON_CARD, "5C", ""),
    ("klondike", {"c1": "<6S> 5C", "c2": "<8D> 9H"}, 0, "c1 c2", Why.DOES_NOT_FIT, "5C",
     "6S 8D"),
    ("klondike", {"c1": "6H 5C"}, 0, "c1 f1 2", Why.ONE_CARD_TO_FOUNDATION, "", ""),
    ("klondike", {"f1": FULL_CLUBS, "c1": "5H"}, 0, "c1 f1", Why.FOUNDATION_COMPLETE, "", ""),
    ("klondike", {"c1": "<2C> 5C"}, 0, "c1 f3", Why.FOUNDATION_DOES_NOT_START, "5C", "2C"),
    ("klondike", {"f1": "AC", "c1": "<2C> 9H"}, 0, "c1 f1", Why.FOUNDATION_DOES_NOT_TAKE, "9H",
     "2C"),
    ("patiencemax", {"h1": "5C"}, 0, "h1 h2", Why.HAND_FROM_COLUMNS_ONLY, "", ""),
    ("patiencemax", {"c1": "6H 5C"}, 0, "c1 h1 2", Why.ONE_CARD_TO_HAND, "", ""),
    ("patiencemax", {"c1": "5C", "h1": "AH", "h2": "2H", "h3": "3H", "h4": "4H"}, 0, "c1 h1",
     Why.HAND_FULL, "", ""),
    ("patiencemax", {"c1": "5C", "h1": "AH"}, 0, "c1 h1", Why.HAND_CELL_TAKEN, "", ""),
    ("patriarchs", {"w": "5C", "r1": "6H", "s": "7D"}, 0, "w r1", Why.RESERVE_TAKEN, "", "7D"),
    ("patriarchs", {"f1": "AC 2C", "f5": "KC"}, 0, "f1 r1", Why.RESERVE_FROM_WASTE_ONLY, "", ""),
    ("klondike", {"c1": "5C"}, 0, "c1 w", Why.NOTHING_GOES_ON_PILE, "", ""),
    ("patiencemax", {"c1": "5C"}, 0, "s", Why.NO_STOCK, "", ""),
    ("senior-wrangler", {"p1": "5C"}, 0, "s", Why.NO_STOCK, "", ""),
    ("klondike", {"w": "5C"}, 0, "s", Why.STOCK_EMPTY, "", ""),
    ("klondike", {"c1": "5C"}, 0, "s", Why.STOCK_AND_WASTE_EMPTY, "", ""),
    ("picture-patience", {"w": "5C"}, 0, "s", Why.NO_REDEAL_FOR_STOCK, "", ""),
    ("senior-wrangler", {"p1": "5C"}, 8, "t", Why.ALL_PACKETS_DEALT, "", ""),
    ("senior-wrangler", {"p1": "4H", "i1": "2C"}, 0, "t", Why.PACKET_CARD_PLAYS, "4H", ""),
    ("klondike", {"s": "5C"}, 0, "t", Why.STOCK_NOT_EMPTY, "", "5C"),
    ("klondike", {"c1": "5C"}, 0, "t", Why.WASTE_EMPTY, "", ""),
    ("picture-patience", {"w": "5C"}, 0, "t", Why.NO_REDEAL_LEFT, "", ""),
    ("captured-queens", {"w": "5C"}, 2, "t", Why.NO_REDEAL_LEFT, "", ""),
    ("odd-and-even", {"w": "5C"}, 1, "t", Why.NO_REDEAL_LEFT, "", ""),
    (UP_SAME_COLOUR, {"c1": "5C 7S", "c2": "4H"}, 0, "c1 c2 2", Why.NOT_A_STRING, "", ""),
    (UP_SAME_COLOUR, {"c1": "5C", "c2": "4H"}, 0, "c1 c2", Why.DOES_NOT_FIT, "5C", ""),
    (EITHER_BY_TWOS, {"c1": "6D", "c2": "5C"}, 0, "c1 c2", Why.DOES_NOT_FIT, "6D", ""),
]


def position(rules: GameRules | str, layout: dict[str, str], redeals: int) -> Game:
    game = Game(GAMES[rules] if isinstance(rules, str) else rules, 1)
    set_position(game, layout, complete=False, redeals=redeals)
    return game


def engine_move(game: Game, text: str) -> EngineMove:
    if text in ("s", "t"):
        return DRAW if text == "s" else TURN
    parts = text.split()
    t = game.tables
    return (t.by_label[parts[0]], t.by_label[parts[1]], int(parts[2]) if len(parts) > 2 else 1)


def test_every_rule_has_a_position_that_breaks_it() -> None:
    assert {case[4] for case in CASES} == set(Why)


@pytest.mark.parametrize(
    ("rules", "layout", "redeals", "move", "why", "named", "hidden"),
    CASES,
    ids=[f"{c[4].value}-{c[0] if isinstance(c[0], str) else c[0].id}" for c in CASES],
)
def test_each_rule_is_said_in_each_language_naming_only_cards_in_sight(
    rules: GameRules | str,
    layout: dict[str, str],
    redeals: int,
    move: str,
    why: Why,
    named: str,
    hidden: str,
) -> None:
    game = position(rules, layout, redeals)
    refusal = game.state.check(engine_move(game, move))
    assert refusal is not None and refusal.code is why, refusal
    said = {}
    for lang in LANGUAGES:
        text = refusal_words(game, refusal, lang)
        seen = assert_sentence(game, text, lang)
        if named:
            assert parse_card_index(named) in seen, (lang, text)
        for card in hidden.split():  # (a rule may still ask for such a card: "a two of clubs")
            assert parse_card_index(card) not in seen, (lang, text, card)
        said[lang] = text
    assert len(set(said.values())) == len(LANGUAGES), said
    # what play() raises says the same, when the notation can write the move
    if move != "s c1" and move != "c1 w":
        with pytest.raises(IllegalMoveError) as raised:
            game.play(move)
        assert raised.value.refusal == refusal
        assert refusal_words(game, raised.value, "nl") == said["nl"]


def test_the_examples_of_the_issue() -> None:
    game = position("klondike", {"c1": "5C", "c7": "KH"}, 0)
    with pytest.raises(IllegalMoveError) as raised:
        game.play("c1 c7")
    assert str(raised.value) == "c1 c7: 5C cannot go on KH: needs a queen of the other colour"
    assert refusal_words(game, raised.value) == (
        "The five of clubs can't go on the king of hearts: it needs a black queen."
    )
    assert refusal_words(game, raised.value, "nl") == (
        "De klaveren vijf kan niet op de harten heer: daar hoort een zwarte vrouw op."
    )
    assert refusal_words(game, raised.value, "es") == (
        "El cinco de tréboles no puede ir sobre el rey de corazones: necesita una reina negra."
    )


def test_strings_and_needs_follow_the_build_rule() -> None:
    game = position("klondike", {"c1": "5C 9H", "c2": "TS"}, 0)
    refusal = game.state.check(engine_move(game, "c1 c2 2"))
    assert refusal is not None
    assert refusal_words(game, refusal) == (
        "The last 2 cards of column 1 are not a string: in a string, each card is one rank "
        "lower than the card it lies on and of the other colour."
    )
    game = position(EITHER_BY_TWOS, {"c1": "6D", "c2": "5C"}, 0)
    refusal = game.state.check(engine_move(game, "c1 c2"))
    assert refusal is not None
    assert refusal_words(game, refusal, "es") == (
        "El seis de diamantes no puede ir sobre el cinco de tréboles: necesita un tres o un "
        "siete de cualquier palo."
    )
    game = position("klondike", {"c1": "<KD> 5C"}, 0)
    refusal = game.state.check(engine_move(game, "c1 c2"))
    assert refusal is not None
    assert refusal_words(game, refusal, "nl") == (
        "De klaveren vijf kan niet naar de lege kolom 2: daar mag alleen een heer of een reeks "
        "die met een heer begint."
    )
    # Spanish contracts "de el" ("del paquete 1")
    game = position("senior-wrangler", {"p1": "4H", "i1": "2C"}, 0)
    refusal = game.state.check(TURN)
    assert refusal is not None
    assert refusal_words(game, refusal, "es").startswith("El cuatro de corazones del paquete 1 ")


# -- the game's own refusals ----------------------------------------------------------------------


def game_refusals() -> Iterator[tuple[Refused, Game, IllegalMoveError]]:
    """Each of the game's own refusals, raised by the game."""

    def raised(game: Game, act: object) -> IllegalMoveError:
        with pytest.raises(IllegalMoveError) as info:
            act()  # type: ignore[operator]
        return info.value

    full = {f"f{i + 1}": run(f"A{suit}", f"K{suit}") for i, suit in enumerate("CSHD")}
    won = position("klondike", full, 0)
    yield Refused.GAME_WON, won, raised(won, lambda: won.play("s"))
    k = new_game("klondike", 24)
    yield Refused.NO_SUCH_PILE, k, raised(k, lambda: k.play("h1 c2"))
    yield Refused.NO_SUCH_PILE, k, raised(k, lambda: k.play("c1 c9"))
    pm = new_game("patiencemax", 3)
    yield Refused.NO_SUCH_PILE, pm, raised(pm, lambda: pm.play("w c1"))
    yield Refused.NO_SUCH_KIND, k, raised(k, lambda: k.play("c1 h"))
    yield Refused.NO_FOUNDATION_TAKES, k, raised(k, lambda: k.play("c7 f"))
    yield Refused.NOTHING_TO_UNDO, k, raised(k, k.undo)
    yield Refused.NOTHING_TO_REDO, k, raised(k, k.redo)
    ranked = new_game("klondike", 24, undo=False)
    ranked.play("s")
    yield Refused.RANKED, ranked, raised(ranked, ranked.undo)
    # not raised by any shipped game: said from the refusal alone
    yield Refused.NO_SUCH_KIND, k, IllegalMoveError(
        "f1 f", "this game has no foundation", GameRefusal(Refused.NO_SUCH_KIND, pile="foundation")
    )
    yield Refused.NO_FREE_HAND_CELL, pm, IllegalMoveError(
        "c1 h", "the hand has no free cell", GameRefusal(Refused.NO_FREE_HAND_CELL)
    )


def test_every_refusal_of_the_game_is_said_in_each_language() -> None:
    met: set[Refused] = set()
    for code, game, error in game_refusals():
        assert isinstance(error.refusal, GameRefusal) and error.refusal.code is code, error
        said = {lang: refusal_words(game, error, lang) for lang in LANGUAGES}
        for lang, text in said.items():
            assert_sentence(game, text, lang)
        assert len(set(said.values())) == len(LANGUAGES), said
        met.add(code)
    assert met == set(Refused)


def test_game_refusal_examples() -> None:
    k = new_game("klondike", 24)
    with pytest.raises(IllegalMoveError) as info:
        k.play("c7 f")
    assert str(info.value) == "c7 f: no foundation takes KH now"  # unchanged
    assert refusal_words(k, info.value) == "No foundation takes the king of hearts now."
    with pytest.raises(IllegalMoveError) as info:
        k.play("h1 c2")
    assert refusal_words(k, info.value, "nl") == "Dit spel heeft geen handvak 1."
    assert refusal_words(k, IllegalMoveError("x", "something else")) == "Something else."


def test_the_refusal_survives_pickling() -> None:
    k = new_game("klondike", 24)
    with pytest.raises(IllegalMoveError) as info:
        k.play("c1 c2")
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.move, again.reason, again.refusal) == ("c1 c2", info.value.reason,
                                                         info.value.refusal)
    with pytest.raises(ReplayError) as replay:
        Game.from_record({"game": "klondike", "number": 24, "moves": ["s", "c1 c2"]})
    assert isinstance(replay.value.refusal, Refusal)
    assert replay.value.refusal.code is Why.DOES_NOT_FIT
    again = pickle.loads(pickle.dumps(replay.value))
    assert again.refusal == replay.value.refusal
    assert refusal_words(again.game, again, "es").startswith("El cinco de tréboles")


# -- every game, on random walks ---------------------------------------------------------------

SEEDS = (1, 2)
STEPS = 60
EVERY = 15


def walk(game_id: str, seed: int) -> Iterator[Game]:
    """A game at every few positions of a seeded random walk (the same game, moved on)."""
    rng = random.Random(f"words {game_id} {seed}")
    game = new_game(game_id, 2000 + seed)
    for step in range(STEPS):
        if step % EVERY == 0:
            yield game
        moves = list(game.legal_moves)
        if not moves:
            break
        others = [m for m in moves if not m.is_stock]
        game.play(rng.choice(others if others and rng.random() < 0.8 else moves))
    yield game


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_refused_move_is_said_naming_no_hidden_card(game_id: str) -> None:
    """Moves the notation can write between two piles (and ``s``, ``t``; a sample of them in
    the games of many piles), refused, are said in each language; the cards they name as
    cards are all in sight."""
    said = 0
    rng = random.Random(f"refused {game_id}")
    for seed in SEEDS:
        for game in walk(game_id, seed):
            t = game.tables
            texts = ["s", "t"] + [
                f"{a} {b}{n}"
                for a in t.labels
                for b in (*t.labels, "f", "h")
                for n in (("", " 2", " 3") if a.startswith("c") else ("",))
                if a != "s" and b not in ("s", "w") and not b.startswith("i")
            ]
            in_sight = visible(game)
            for text in rng.sample(texts, min(len(texts), 300)):
                try:
                    game.resolve(text)
                except IllegalMoveError as e:
                    for lang in LANGUAGES:
                        assert_sentence(game, refusal_words(game, e, lang), lang, in_sight)
                    said += 1
    assert said > 0


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_legal_move_is_said_in_each_language(game_id: str) -> None:
    """In English exactly what ``Game.describe`` says; in Dutch and Spanish a sentence of its
    own naming the same cards by their faces (only cards in sight), never the notation."""
    for seed in SEEDS:
        for game in walk(game_id, seed):
            faces = {
                re.sub(r"^T", "10", c.symbol_text)
                for p in game.view().piles
                for c in p.cards
                if c is not None
            }
            for move in game.legal_moves:
                english = move_words(game, move)
                assert english == game.describe(move)
                named = set(FACE.findall(english))
                for lang in OTHERS:
                    words = move_words(game, move, lang)
                    assert words and words[0].isupper() and words != english, (move, words)
                    assert not NOTATION.search(words), (str(move), lang, words)
                    assert set(FACE.findall(words)) == named, (str(move), lang, words)
                    assert named <= faces
                    assert "{" not in words
                    if lang == "es":
                        assert not re.search(r"\b[Dd]e el\b|\b[Aa] el\b", words), words


def test_move_words_examples() -> None:
    g = new_game("klondike-draw1", 24)
    assert move_words(g, "c3 f", "nl") == "Verplaats de A♣ van kolom 3 naar zijn basisstapel"
    assert move_words(g, "c3 f", "es") == "Mueve el A♣ de la columna 3 a su base"
    assert move_words(g, "s", "es") == "Roba una carta de la baraja"
    sw = new_game("senior-wrangler", 3)
    moves = [m for m in sw.legal_moves if m.src.startswith("p")]
    assert moves
    assert move_words(sw, moves[0], "es").startswith("Mueve el ") or move_words(
        sw, moves[0], "es"
    ).startswith("Mueve la ")
    assert " del paquete " in move_words(sw, moves[0], "es")
    cotillion = new_game("royal-cotillion", 3)
    for m in cotillion.legal_moves:
        if m.src.startswith("c"):
            assert "de la pila izquierda" in move_words(cotillion, m, "es")
            assert "van linkerstapel" in move_words(cotillion, m, "nl")
    for lang in LANGUAGES:
        with pytest.raises(IllegalMoveError):
            move_words(g, "c1 c2", lang)


def test_a_string_and_an_empty_pile_in_words() -> None:
    game = position("klondike", {"c1": "<2D> KS QH JC", "c2": "<3D> 5H"}, 0)
    assert move_words(game, "c1 c3 3") == game.describe("c1 c3 3")
    assert move_words(game, "c1 c3 3", "nl") == (
        "Verplaats de K♠ en nog 2 kaarten van kolom 1 naar de lege kolom 3"
    )
    assert move_words(game, "c1 c3 3", "es") == (
        "Mueve el K♠ y 2 cartas más de la columna 1 a la columna 3 vacía"
    )
    assert PileKind.COLUMN in game.tables.kinds


# -- texts that are not in the notation ---------------------------------------------------------

#: texts the notation refuses, one for each of its reasons (Move.parse, in its order)
NOT_MOVES = [
    "",
    "   ",
    "s 2",
    "t c1",
    "c1",
    "c1 c2 3 4",
    "x1 c2",
    "c11x f",
    "c3 w",
    "c3 s",
    "c3 x9",
    "c3 i1",
    "c1 c2 0",
    "c1 c2 two",
    "w c2 2",
    "f1 c2 3",
    "C1  X2",
]

#: game records parse_record refuses, one for each of its reasons
NOT_RECORDS = [
    '["klondike", 1, []]',
    '{"number": 1, "moves": []}',
    '{"game": "klondike", "moves": []}',
    '{"game": "klondike", "number": 1}',
    '{"game": 7, "number": 1, "moves": []}',
    '{"game": "klondike", "number": -4, "moves": []}',
    '{"game": "klondike", "number": true, "moves": []}',
    '{"game": "klondike", "number": 1.5, "moves": []}',
    '{"game": "klondike", "number": 1, "moves": "s"}',
    '{"game": "klondike", "number": 1, "moves": ["s", 3]}',
]


def _engine_sentence(error: Exception) -> str:
    text = str(error)
    return text[:1].upper() + text[1:] + "."


@pytest.mark.parametrize("text", NOT_MOVES)
def test_a_text_that_is_not_a_move_is_said_as_the_notation_says_it(text: str) -> None:
    """In English the words are the notation's own message (so the check here finds the
    same fault as Move.parse); in Dutch and Spanish they say it, naming the text."""
    with pytest.raises(InvalidMoveError) as refused:
        Move.parse(text)
    english = notation_words(text)
    assert english == _engine_sentence(refused.value)
    for lang in OTHERS:
        said = notation_words(text, lang)
        assert said != english and "{" not in said and said.endswith(".")
        if text.strip():
            assert repr(text) in said
        assert "is not" not in said and "must be" not in said


def test_notation_words_examples() -> None:
    assert notation_words("c3 x9", "nl") == (
        "'c3 x9' is geen zet: 'x9' is geen stapel (de stapels zijn c1.., f1.., h1.., r1.., "
        "p1.., w)."
    )
    assert notation_words("w c2 2", "es") == (
        "'w c2 2' no es un movimiento: solo una columna da varias cartas a la vez, 'w' no."
    )
    assert notation_words("", "nl") == (
        "Een lege tekst is geen zet: typ bijvoorbeeld 'c3 f', 'w c5' of 's'."
    )
    # a text that is a move after all: no reason is made up
    assert notation_words("c3 f", "es") == "'c3 f' no es un movimiento."


@pytest.mark.parametrize("text", NOT_RECORDS)
def test_a_text_that_is_not_a_game_record_is_said_as_the_notation_says_it(text: str) -> None:
    with pytest.raises(InvalidRecordError) as refused:
        parse_record(text)
    english = record_words(text)
    assert english == _engine_sentence(refused.value)
    for lang in OTHERS:
        said = record_words(text, lang)
        assert said != english and said.endswith(".")
        assert "must be" not in said and "has no" not in said


def test_record_words_say_where_the_json_breaks() -> None:
    with pytest.raises(InvalidRecordError, match="not valid JSON"):
        parse_record('{"game": "klondike",\n "number": }')
    assert record_words('{"game": "klondike",\n "number": }', "nl") == (
        "Het spelverslag is geen geldige JSON (regel 2, kolom 12)."
    )
    assert record_words("", "es") == (
        "El registro de partida no es JSON válido (línea 1, columna 1)."
    )
