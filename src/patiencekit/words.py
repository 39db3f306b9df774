"""Moves and refusals in the player's words: English, Dutch and Spanish.

The engine says why a move is refused as data (a :class:`~patiencekit.state.Refusal` with
its :class:`~patiencekit.state.Why` code, or a :class:`~patiencekit.game.GameRefusal`, both
carried by :class:`~patiencekit.errors.IllegalMoveError` as ``refusal``) and keeps its own
short English reasons (``Game.reason``: what the notation contract and the tests read).
This module says the same things as a player would, naming cards in words ("the five of
clubs") and piles in the game's words ("column 3", "the stock"), in any of
:data:`LANGUAGES`:

>>> import patiencekit
>>> game = patiencekit.new_game("klondike", 24)
>>> try:
...     game.play("c1 c2")
... except patiencekit.IllegalMoveError as e:
...     for lang in LANGUAGES:
...         print(refusal_words(game, e, lang))
The five of clubs can't go on the nine of hearts: it needs a black eight.
De klaveren vijf kan niet op de harten negen: daar hoort een zwarte acht op.
El cinco de tréboles no puede ir sobre el nueve de corazones: necesita un ocho negro.
>>> move_words(game, "c3 f", "nl")
'Verplaats de A♣ van kolom 3 naar zijn basisstapel'

Only cards the player can see are named, as ``Game.reason`` does: a card that lies hidden
is said by where it lies ("a face-down card"), and a card a rule asks for by what it is
("a two of clubs"), never as a card in sight ("the two of clubs").

Every sentence is an English message translated through a gettext catalogue,
``locale/<lang>/LC_MESSAGES/words.po`` (the terminal's own sentences are in ``terminal.po``
beside it), read with Babel when first needed and kept (:func:`patiencekit.i18n.messages`,
which reads the server's catalogue too). :data:`LANGUAGES` is
:data:`patiencekit.i18n.LANGUAGES`. A message's placeholders are named
(``{card}``); the values put in them carry their own articles ("the five of clubs", "la
columna 3"), since Spanish articles follow the noun's gender. English needs no catalogue: a
message is its own English.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from patiencekit.cards import RANK_NAMES, SUIT_NAMES, Card, parse_card_index
from patiencekit.errors import IllegalMoveError, InvalidMoveError
from patiencekit.game import PILE_KIND_WORDS, Game, GameRefusal, Refused
from patiencekit.games import FACTS
from patiencekit.i18n import LANGUAGES, messages
from patiencekit.notation import Move
from patiencekit.rules import Direction, PileKind, SuitPolicy, Turn
from patiencekit.state import DRAW, TURN, Refusal, Tables, Why

__all__ = [
    "card_name",
    "language",
    "move_words",
    "notation_words",
    "record_words",
    "refusal_words",
    "translate",
]


#: the domain of this module's messages
DOMAIN = "words"


# -- catalogues -------------------------------------------------------------------------------


def language(lang: str) -> str:
    """The language of :data:`LANGUAGES` that ``lang`` names ("nl", "nl-BE", "es_ES");
    :class:`ValueError` for any other.

    >>> language("nl-BE"), language("ES_es"), language("en")
    ('nl', 'es', 'en')
    """
    primary = lang.strip().replace("_", "-").split("-")[0].lower()
    if primary not in LANGUAGES:
        raise ValueError(f"no words in {lang!r}: the languages are {', '.join(LANGUAGES)}")
    return primary


def _catalogue(lang: str, domain: str) -> dict[tuple[str, str | None], str]:
    """The translations of ``domain`` in ``lang``: (message, context) -> translation, read
    once per language and domain (:func:`patiencekit.i18n.messages`)."""
    return messages(lang, domain)


def translate(
    message: str,
    lang: str = "en",
    *,
    domain: str = DOMAIN,
    context: str | None = None,
    **params: object,
) -> str:
    """``message`` (English, with named placeholders) in ``lang``, its placeholders filled
    with ``params``. A message missing from the catalogue is given in English (the tests
    check that none is missing).

    >>> translate("{pile} is empty.", "es", pile="la columna 3")
    'la columna 3 no tiene cartas.'
    """
    return _translated(message, language(lang), domain, context, params)


def _translated(
    message: str, lang: str, domain: str, context: str | None, params: Mapping[str, object]
) -> str:
    text = _catalogue(lang, domain).get((message, context), message)
    return text.format_map(params) if params else text


#: "de el" and "a el" in Spanish, which the language contracts ("del", "al")
_SPANISH_CONTRACTIONS = re.compile(r"\b([Dd]e|[Aa]) el\b")


def _sentence(text: str, lang: str) -> str:
    """A sentence as it is shown: its first letter a capital (a card or pile put at its
    start comes with a small one), Spanish contractions made."""
    if lang == "es":
        text = _SPANISH_CONTRACTIONS.sub(_contracted, text)
    return text[:1].upper() + text[1:]


def _contracted(match: re.Match[str]) -> str:
    """ "del" for "de el", "al" for "a el" (the case of the first letter kept)."""
    first = match.group(1)[0]
    return first + ("el" if first in "Dd" else "l")


def _said(lang: str, message: str, **params: object) -> str:
    """:func:`translate` in this module's domain (the tests find every message this
    function is given, by Babel's extraction of its second argument)."""
    return _translated(message, language(lang), DOMAIN, None, params)


# -- cards --------------------------------------------------------------------------------------


def _a(word: str) -> str:
    """The English indefinite article for ``word``: "an" before a vowel."""
    return "an" if word[0] in "aeiou" else "a"


def _card_message(card: int, *, definite: bool) -> str:
    """The English message naming ``card``: "the five of clubs", "an ace of hearts"."""
    rank, suit = RANK_NAMES[card % 13], SUIT_NAMES[card % 52 // 13]
    return f"the {rank} of {suit}" if definite else f"{_a(rank)} {rank} of {suit}"


def _rank_message(rank: int, colour: str = "") -> str:
    """The English message for some card of ``rank``: "an eight", "a black eight"."""
    words = f"{colour} {RANK_NAMES[rank]}" if colour else RANK_NAMES[rank]
    return f"{_a(words)} {words}"


def card_name(card: Card | str | int, lang: str = "en", *, definite: bool = True) -> str:
    """A card in words, with its article: "the five of clubs" (``definite``, a card the
    player sees) or "a five of clubs" (a card a rule asks for). Give the sentence a capital
    yourself where it starts one.

    >>> card_name("5C"), card_name("QH", "es"), card_name("QH", "es", definite=False)
    ('the five of clubs', 'la reina de corazones', 'una reina de corazones')
    >>> card_name("KH", "nl"), card_name("AS", "nl", definite=False)
    ('de harten heer', 'een schoppen aas')
    """
    if isinstance(card, str):
        card = parse_card_index(card)
    elif isinstance(card, Card):
        card = card.index
    return translate(_card_message(card % 52, definite=definite), lang)


def _some_rank(rank: int, lang: str, colour: str = "") -> str:
    """Some card of ``rank`` (of a ``colour``, "red" or "black"): "a black eight"."""
    return translate(_rank_message(rank, colour), lang)


def _symbol_card(card: int, lang: str) -> str:
    """A card a move names, by its face, with its article: "the A♣", "la Q♥" (Spanish
    articles follow the rank's gender, hence the rank as the message's context)."""
    text = Card.from_index(card).symbol_text
    face = "10" + text[1:] if text[0] == "T" else text
    return translate("the {card}", lang, context=RANK_NAMES[card % 13], card=face)


def _either(lang: str, items: list[str]) -> str:
    """``items`` joined by "or": "a king or a queen"."""
    said = items[0]
    for item in items[1:]:
        said = _said(lang, "{first} or {second}", first=said, second=item)
    return said


# -- piles --------------------------------------------------------------------------------------

#: the usual English word for each kind of pile, as ``Game.describe`` says it (a game's facts
#: may have their own: ``pile_words``)
_KIND_WORD = PILE_KIND_WORDS
_UNNUMBERED = (PileKind.STOCK, PileKind.WASTE)


def _word(game: Game, kind: PileKind) -> str:
    """The game's English word for piles of ``kind`` (its facts'), else the usual one."""
    facts = FACTS.get(game.id)
    word = facts.pile_word(kind) if facts is not None else None
    return word or _KIND_WORD[kind]


def _pile_messages(kind: PileKind, word: str) -> tuple[str, str]:
    """The English messages naming a pile of ``kind`` called ``word``, as it is and empty:
    ("column {number}", "the empty column {number}"), ("the stock", "the stock")."""
    if kind in _UNNUMBERED:
        return f"the {word}", f"the {word}"
    return f"{word} {{number}}", f"the empty {word} {{number}}"


def _number(t: Tables, i: int) -> int:
    """Pile ``i``'s number among the piles of its kind, from 1 (``c3``: 3)."""
    kind = t.kinds[i]
    return sum(1 for k in t.kinds[:i] if k is kind) + 1


def _pile(game: Game, i: int, lang: str, *, empty: bool = False) -> str:
    """Pile ``i`` for a player: "column 3", "the stock", "la columna 3", "de lege kolom 2"."""
    kind = game.tables.kinds[i]
    plain, emptied = _pile_messages(kind, _word(game, kind))
    return translate(emptied if empty else plain, lang, number=_number(game.tables, i))


def _hidden(game: Game, i: int) -> int:
    """How many cards of pile ``i``, from the bottom, the player cannot see."""
    pile = game.state.piles[i]
    if game.tables.kinds[i] is PileKind.STOCK:
        return len(pile)
    return min(game.state.down[i], len(pile))


def _named(game: Game, i: int, pos: int, lang: str) -> str:
    """The card at place ``pos`` of pile ``i`` as a refusal names it: in words if the
    player can see it, else only where it lies."""
    if pos >= _hidden(game, i):
        return card_name(game.state.piles[i][pos], lang)
    if game.tables.kinds[i] is PileKind.STOCK:
        return _said(lang, "a stock card")
    return _said(lang, "a face-down card")


# -- moves ----------------------------------------------------------------------------------------


def move_words(game: Game, move: Move | str, lang: str = "en") -> str:
    """A legal move in words for players, in ``lang``: in English exactly what
    :meth:`Game.describe <patiencekit.game.Game.describe>` says, in Dutch and Spanish the
    same. Cards are named by their faces ("the A♣"), piles in the game's words; only cards in
    sight are named. A move that is not legal now raises what :meth:`Game.play
    <patiencekit.game.Game.play>` raises; nothing changes either way.

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike-draw1", 24)
    >>> move_words(g, "c3 f") == g.describe("c3 f")
    True
    >>> move_words(g, "c3 f", "es"), move_words(g, "s", "nl")
    ('Mueve el A♣ de la columna 3 a su base', 'Trek een kaart van de trekstapel')
    """
    lang = language(lang)
    src, dst, n = game.resolve(move)
    if src == DRAW[0]:
        return _sentence(_draw_words(game, lang), lang)
    if src == TURN[0]:
        return _sentence(_turn_words(game, lang), lang)
    pile = game.state.piles[src]
    cards = _symbol_card(pile[len(pile) - n], lang)
    if n == 2:
        cards = _said(lang, "{card} and 1 more card", card=cards)
    elif n > 2:
        cards = _said(lang, "{card} and {count} more cards", card=cards, count=n - 1)
    said = _said(
        lang,
        "Move {cards} from {source} {destination}",
        cards=cards,
        source=_pile(game, src, lang),
        destination=_to_words(game, (src, dst, n), lang),
    )
    return _sentence(said, lang)


def _to_words(game: Game, move: tuple[int, int, int], lang: str) -> str:
    """Where a card move goes: "onto the 8♠ in column 4", "to its foundation", "to the
    empty column 2" (as ``Game.describe`` says it)."""
    src, dst, n = move
    t = game.tables
    kind = t.kinds[dst]
    dpile = game.state.piles[dst]
    if kind is PileKind.FOUNDATION:
        takers = [f for f in t.foundations if game.state.check((src, f, n)) is None]
        suited = all(f.suit is not None for f in game.rules.foundations)
        if suited and takers == [dst] and t.kinds[src] is not PileKind.FOUNDATION:
            return translate(f"to its {_word(game, kind)}", lang)
    if kind is PileKind.HAND:  # a cell holds one card: it is free
        return _said(lang, "to {pile}", pile=_pile(game, dst, lang))
    if not dpile:
        return _said(lang, "to {pile}", pile=_pile(game, dst, lang, empty=True))
    if _hidden(game, dst) >= len(dpile):
        return _said(lang, "onto {pile}", pile=_pile(game, dst, lang))
    top = _symbol_card(dpile[-1], lang)
    if kind is PileKind.COLUMN:
        return _said(lang, "onto {card} in {pile}", card=top, pile=_pile(game, dst, lang))
    return _said(lang, "onto {card} on {pile}", card=top, pile=_pile(game, dst, lang))


def _draw_words(game: Game, lang: str) -> str:
    """``s``: "Draw 3 cards from the stock", "Draw the last card from the stock"."""
    t = game.tables
    left = len(game.state.piles[t.stock])
    n = min(t.draw, left)
    stock = _pile(game, t.stock, lang)
    if n == 1:
        if left > 1:
            return _said(lang, "Draw a card from {stock}", stock=stock)
        return _said(lang, "Draw the last card from {stock}", stock=stock)
    if left > n:
        return _said(lang, "Draw {count} cards from {stock}", count=n, stock=stock)
    return _said(lang, "Draw the last {count} cards from {stock}", count=n, stock=stock)


def _turn_words(game: Game, lang: str) -> str:
    """``t``: the waste turned over to make the stock again, or (Senior Wrangler) the next
    packet dealt out."""
    t = game.tables
    s = game.state
    if t.turn is Turn.NEXT_PACKET:
        packet = translate(
            _pile_messages(PileKind.PACKET, _word(game, PileKind.PACKET))[0],
            lang,
            number=s.redeals + 1,
        )
        return translate(
            f"Deal out {{packet}} across the {_word(game, PileKind.PACKET)}s", lang, packet=packet
        )
    said = _said(
        lang,
        "Turn {waste} over to make {stock} again",
        waste=_pile(game, t.waste, lang),
        stock=_pile(game, t.stock, lang),
    )
    left = s.redeals_left()
    if left == 1:
        return _said(lang, "{said}, for the last time", said=said)
    if left == 2:
        return _said(lang, "{said} (1 more turn left after this)", said=said)
    if left is not None:
        return _said(lang, "{said} ({count} more turns left after this)", said=said, count=left - 1)
    return said


# -- refusals -----------------------------------------------------------------------------------

#: the refusals that need no card, pile or number
_FIXED: dict[Why, str] = {
    Why.SAME_PILE: "A card can't move onto its own pile.",
    Why.STOCK_CARDS_ARE_DRAWN: "Stock cards can't be moved: they are drawn onto the waste.",
    Why.INDEX_CARDS_STAY: "Index cards never move.",
    Why.FOUNDATION_KEEPS_ALL: "In this game, cards never leave the foundations.",
    Why.KING_STAYS: "A king never leaves its foundation.",
    Why.FOUNDATION_TO_FOUNDATIONS_ONLY: (
        "In this game, foundation cards go only to other foundations."
    ),
    Why.FOUNDATION_TO_COLUMNS_ONLY: "In this game, foundation cards go back only to the columns.",
    Why.PACKET_TO_FOUNDATIONS_ONLY: "Packet cards play only to the foundations.",
    Why.RESERVE_TO_FOUNDATIONS_ONLY: "Reserve cards play only to the foundations.",
    Why.HAND_NOT_TO_COLUMNS: "In this game, hand cards can't go to a column.",
    Why.EMPTY_COLUMN_TAKES_NOTHING: "In this game, nothing may fill an empty column.",
    Why.ONE_CARD_TO_FOUNDATION: "Only one card at a time goes to a foundation.",
    Why.HAND_FROM_COLUMNS_ONLY: "Cards go into the hand only from a column.",
    Why.ONE_CARD_TO_HAND: "Only one card at a time goes into the hand.",
    Why.RESERVE_FROM_WASTE_ONLY: "An empty reserve space takes only the top card of the waste.",
    Why.STOCK_EMPTY: "The stock is empty: turn the waste over first.",
    Why.STOCK_AND_WASTE_EMPTY: "The stock and the waste are empty.",
    Why.NO_REDEAL_FOR_STOCK: "The stock is empty and no redeal is left.",
    Why.STOCK_NOT_EMPTY: (
        "The stock still has cards: the waste is turned over only once the stock is empty."
    ),
    Why.WASTE_EMPTY: "The waste is empty: there is nothing to turn over.",
}

#: the refusals that name one pile, the refused move's source or destination
_OF_PILE: dict[Why, tuple[str, bool]] = {  # message, of the destination
    Why.SOURCE_EMPTY: ("{pile} is empty.", False),
    Why.ONE_CARD_FROM_PILE: ("Only one card at a time moves from {pile}.", False),
    Why.FACE_DOWN: ("The last card of {pile} is face down.", False),
    Why.COLUMN_TO_FOUNDATIONS_ONLY: ("Cards from {pile} play only to the foundations.", False),
    Why.NOT_BUILT_ON: ("In this game, nothing is built on {pile}.", True),
    Why.FOUNDATION_COMPLETE: ("{pile} is complete.", True),
    Why.HAND_CELL_TAKEN: ("{pile} is taken.", True),
    Why.RESERVE_TAKEN: ("{pile} is taken: reserve cards are never built on.", True),
    Why.NOTHING_GOES_ON_PILE: ("Nothing can be put on {pile}.", True),
}

#: the game's own refusals that need nothing more
_GAME_FIXED: dict[Refused, str] = {
    Refused.GAME_WON: "The game is won: there are no more moves.",
    Refused.NO_FREE_HAND_CELL: "The hand has no free cell.",
    Refused.RANKED: "This is a ranked game: moves can't be taken back.",
    Refused.NOTHING_TO_UNDO: "There is no move to take back.",
    Refused.NOTHING_TO_REDO: "There is no move to play again.",
}


def refusal_words(
    game: Game, refusal: Refusal | GameRefusal | IllegalMoveError, lang: str = "en"
) -> str:
    """Why a move is refused, as a player's sentence in ``lang``.

    ``refusal`` is what the engine gave: a :class:`~patiencekit.state.Refusal` (from
    :meth:`State.check <patiencekit.state.State.check>`), a
    :class:`~patiencekit.game.GameRefusal`, or the :class:`~patiencekit.errors.IllegalMoveError`
    that :meth:`Game.play <patiencekit.game.Game.play>` (``undo``, ``redo``, ...) raised,
    which carries one as ``refusal``. ``game`` is the game at the position where the move
    was refused (``play`` leaves it there; a :class:`~patiencekit.errors.ReplayError` keeps
    it as ``game``). The sentence keeps the rule of ``Game.reason`` and names only cards the
    player can see. An error that carries no refusal is given by its English reason.

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike-draw1", 24)
    >>> from patiencekit.state import TURN
    >>> refusal_words(g, g.state.check(TURN))
    'The stock still has cards: the waste is turned over only once the stock is empty.'
    >>> try:
    ...     g.play("c3 f3")
    ... except patiencekit.IllegalMoveError as e:
    ...     print(refusal_words(g, e, "es"))
    El as de tréboles no puede empezar la base 3: empieza con un as de corazones.
    """
    lang = language(lang)
    if isinstance(refusal, IllegalMoveError):
        said = refusal.refusal
        if not isinstance(said, Refusal | GameRefusal):
            reason = refusal.reason.rstrip(".")
            return reason[:1].upper() + reason[1:] + "."
        refusal = said
    if isinstance(refusal, GameRefusal):
        return _sentence(_game_refusal_words(game, refusal, lang), lang)
    return _sentence(_rule_words(game, refusal, lang), lang)


def _game_refusal_words(game: Game, refusal: GameRefusal, lang: str) -> str:
    code = refusal.code
    fixed = _GAME_FIXED.get(code)
    if fixed is not None:
        return translate(fixed, lang)
    if code is Refused.NO_SUCH_KIND:
        if refusal.pile == PileKind.HAND.value:
            return _said(lang, "This game has no hand.")
        return _said(lang, "This game has no foundations.")
    if code is Refused.NO_SUCH_PILE:
        return _no_such_pile(game, refusal.pile, lang)
    # Refused.NO_FOUNDATION_TAKES
    assert refusal.move is not None
    src, _, n = refusal.move
    pile = game.state.piles[src]
    if not 1 <= n <= len(pile):
        return _said(lang, "No foundation takes these cards now.")
    return _said(
        lang, "No foundation takes {card} now.", card=_named(game, src, len(pile) - n, lang)
    )


def _no_such_pile(game: Game, label: str, lang: str) -> str:
    """ "This game has no hand cell 1." for a pile label the game does not have."""
    kind = next((k for k in PileKind if k.prefix == label[:1]), None)
    if kind is None or (kind not in _UNNUMBERED and not label[1:].isdigit()):
        return _said(lang, "This game has no such pile.")
    if kind is PileKind.WASTE:
        return _said(lang, "This game has no waste.")
    if kind is PileKind.STOCK:
        return _said(lang, "This game has no stock.")
    word = _word(game, kind) if kind in game.tables.kinds else _KIND_WORD[kind]
    pile = translate(_pile_messages(kind, word)[0], lang, number=int(label[1:]))
    return _said(lang, "This game has no {pile}.", pile=pile)


def _rule_words(game: Game, refusal: Refusal, lang: str) -> str:
    """A :class:`~patiencekit.state.Refusal` in words (see :func:`refusal_words`), as
    ``Game.reason`` says it, rule by rule."""
    t = game.tables
    piles = game.state.piles
    code = refusal.code
    src, dst, n = refusal.move
    fixed = _FIXED.get(code)
    if fixed is not None:
        return translate(fixed, lang)
    if src < 0:
        return _stock_words(game, refusal, lang)
    of_pile = _OF_PILE.get(code)
    if of_pile is not None:
        message, of_destination = of_pile
        return translate(message, lang, pile=_pile(game, dst if of_destination else src, lang))
    if code is Why.BASE_CARD_STAYS:
        return _said(
            lang,
            "{card} is the base card of {pile}: it never leaves.",
            card=_named(game, src, 0, lang),
            pile=_pile(game, src, lang),
        )
    if code is Why.TOO_FEW_FACE_UP:
        up = refusal.params[0]
        pile = _pile(game, src, lang)
        if up == 0:
            return _said(lang, "{pile} has no face-up card.", pile=pile)
        if up == 1:
            return _said(lang, "{pile} has only one face-up card.", pile=pile)
        return _said(lang, "{pile} has only {count} face-up cards.", pile=pile, count=up)
    if code is Why.NOT_A_STRING:
        return _said(
            lang,
            "The last {count} cards of {pile} are not a string: in a string, each card is {rule}.",
            count=n,
            pile=_pile(game, src, lang),
            rule=_string_rule(t, lang),
        )
    if code is Why.HAND_FULL:
        return _said(lang, "The hand is full: it holds {count} cards.", count=len(t.hand))
    # the rules about the moving card (in sight: the checks before made sure of it)
    card = _named(game, src, len(piles[src]) - n, lang)
    dpile = piles[dst]
    if code is Why.EMPTY_COLUMN_WANTS:
        need = _either(lang, [_some_rank(r, lang) for r in range(13) if t.empty_takes[r]])
        pile = _pile(game, dst, lang, empty=True)
        if t.column_strings:
            return _said(
                lang,
                "{card} can't go to {pile}: it takes only {need} or a string headed by {need}.",
                card=card,
                pile=pile,
                need=need,
            )
        return _said(
            lang,
            "{card} can't go to {pile}: it takes only {need}.",
            card=card,
            pile=pile,
            need=need,
        )
    target = _named(game, dst, len(dpile) - 1, lang) if dpile else _pile(game, dst, lang)
    if code is Why.NOTHING_GOES_ON_CARD:
        return _said(
            lang,
            "{card} can't go on {target}: nothing goes on {rank}.",
            card=card,
            target=target,
            rank=_some_rank(dpile[-1] % 13, lang),
        )
    if code is Why.DOES_NOT_FIT:
        return _said(
            lang,
            "{card} can't go on {target}: it needs {need}.",
            card=card,
            target=target,
            need=_build_need(t, dpile[-1], lang),
        )
    accepted = t.f_base[dst] if not dpile else t.f_next[dst][dpile[-1]]
    if code is Why.FOUNDATION_DOES_NOT_START:
        return _said(
            lang,
            "{card} can't start {pile}: it starts with {need}.",
            card=card,
            pile=_pile(game, dst, lang),
            need=_alternatives(accepted, lang),
        )
    if code is Why.FOUNDATION_DOES_NOT_TAKE:
        return _said(
            lang,
            "{card} can't go on {target} on {pile}: it needs {need}.",
            card=card,
            target=target,
            pile=_pile(game, dst, lang),
            need=_alternatives(accepted, lang),
        )
    raise ValueError(f"no words for {refusal!r}")  # pragma: no cover - every code is said


def _stock_words(game: Game, refusal: Refusal, lang: str) -> str:
    """A refused ``s`` or ``t`` in words."""
    t = game.tables
    code = refusal.code
    if code is Why.NO_STOCK:
        if refusal.move == DRAW and t.turn is Turn.NEXT_PACKET:
            return _said(
                lang,
                "This game has no stock: the next packet is dealt out when no packet card "
                "can be played.",
            )
        return _said(lang, "This game has no stock.")
    if code is Why.ALL_PACKETS_DEALT:
        return _said(lang, "All {count} packets have been dealt out.", count=refusal.params[0])
    if code is Why.PACKET_CARD_PLAYS:
        src = refusal.params[0]
        return _said(
            lang,
            "{card} in {pile} can still be played: the next packet is dealt out only when no "
            "packet card can be.",
            card=_named(game, src, len(game.state.piles[src]) - 1, lang),
            pile=_pile(game, src, lang),
        )
    if code is Why.NO_REDEAL_LEFT:
        allowed = refusal.params[0]
        if allowed == 0:
            return _said(lang, "This game has no redeal.")
        if allowed == 1:
            return _said(lang, "No redeal is left: this game allows one.")
        return _said(lang, "No redeal is left: this game allows {count}.", count=allowed)
    raise ValueError(f"no words for {refusal!r}")  # pragma: no cover - every code is said


def _build_need(t: Tables, top: int, lang: str) -> str:
    """What a column's top card takes, by the game's build rule: "a black eight", "a six of
    hearts", "a three or a seven of any suit"."""
    ranks = t.build.ranks_on(top % 13)
    policy = t.build.suits
    red = top % 52 // 13 >= 2
    if policy is SuitPolicy.ANY_SUIT:
        said = _either(lang, [_some_rank(r, lang) for r in ranks])
        return _said(lang, "{ranks} of any suit", ranks=said)
    if policy is SuitPolicy.SAME_SUIT:
        suit = top % 52 // 13
        return _either(lang, [card_name(suit * 13 + r, lang, definite=False) for r in ranks])
    colour = "red" if red == (policy is SuitPolicy.SAME_COLOUR) else "black"
    return _either(lang, [_some_rank(r, lang, colour) for r in ranks])


_STEP_MESSAGES = (
    "one rank",
    "two ranks",
    "three ranks",
    "four ranks",
    "five ranks",
    "six ranks",
    "seven ranks",
    "eight ranks",
    "nine ranks",
    "ten ranks",
    "eleven ranks",
    "twelve ranks",
)
_DIRECTION_MESSAGES = {
    Direction.DOWN: "{step} lower than the card it lies on",
    Direction.UP: "{step} higher than the card it lies on",
    Direction.EITHER: "{step} higher or lower than the card it lies on",
}
_SUITS_MESSAGES = {
    SuitPolicy.ALTERNATE_COLOUR: "and of the other colour",
    SuitPolicy.SAME_SUIT: "and of the same suit",
    SuitPolicy.SAME_COLOUR: "and of the same colour",
}


def _string_rule(t: Tables, lang: str) -> str:
    """What makes a string, by the game's build rule: "one rank lower than the card it lies
    on and of the other colour"."""
    b = t.build
    step = translate(_STEP_MESSAGES[b.step - 1], lang)
    said = translate(_DIRECTION_MESSAGES.get(b.direction, "{step}"), lang, step=step)
    suits = _SUITS_MESSAGES.get(b.suits)
    return f"{said} {translate(suits, lang)}" if suits else said


def _alternatives(cards: tuple[int, ...], lang: str) -> str:
    """What a foundation takes, in words: "a six of hearts", "an ace of any suit"."""
    if len(cards) == 1:
        return card_name(cards[0], lang, definite=False)
    ranks = {c % 13 for c in cards}
    if len(ranks) == 1:
        return _said(lang, "{ranks} of any suit", ranks=_some_rank(ranks.pop(), lang))
    return _either(lang, [card_name(c, lang, definite=False) for c in cards])


# -- texts that are not in the notation ------------------------------------------------------------


def notation_words(text: str, lang: str = "en") -> str:
    """What is wrong with ``text`` as a move of the notation (RULES.md), as a player's
    sentence in ``lang``: what :class:`~patiencekit.errors.InvalidMoveError` says in English
    (:meth:`Move.parse <patiencekit.notation.Move.parse>`), found again here part by part,
    each part checked by the notation itself. A text that is a move is said to be none
    without a reason (the caller asks only of a text the notation refused).

    >>> print(notation_words("c3 x9"))
    'c3 x9' is not a move: 'x9' is not a pile (piles are c1.., f1.., h1.., r1.., p1.., w).
    >>> print(notation_words("c3 w", "nl"))
    'c3 w' is geen zet: op de aflegstapel kan niets worden gelegd.
    >>> print(notation_words("s 2", "es"))
    's 2' no es un movimiento: detrás de 's' no va nada.
    """
    lang = language(lang)
    parts = text.strip().lower().split()
    said = repr(text)
    if not parts:
        message = _said(lang, "an empty text is not a move: type e.g. 'c3 f', 'w c5' or 's'")
    elif parts[0] in ("s", "t"):
        if len(parts) == 1:
            message = _said(lang, "{text} is not a move", text=said)
        else:
            message = _said(
                lang, "{text} is not a move: {word} stands alone", text=said, word=repr(parts[0])
            )
    elif len(parts) not in (2, 3):
        message = _said(
            lang,
            "{text} is not a move: write SOURCE DESTINATION [COUNT], like 'c1 c4 3', or 's' / 't'",
            text=said,
        )
    else:
        message = _move_problem(lang, said, parts)
    return _sentence(message, lang) + "."


def _move_problem(lang: str, said: str, parts: list[str]) -> str:
    """What is wrong with the two or three ``parts`` of a move: as ``Move.parse`` checks
    them, in its order."""
    src, dst = parts[0], parts[1]
    if not _is_move(src, "f"):
        return _said(
            lang,
            "{text} is not a move: {pile} is not a pile ({piles})",
            text=said,
            pile=repr(src),
            piles=_said(lang, "piles are c1.., f1.., h1.., r1.., p1.., w"),
        )
    if dst == "w":
        return _said(lang, "{text} is not a move: nothing can be put on the waste", text=said)
    if dst == "s":
        return _said(lang, "{text} is not a move: nothing can be put on the stock", text=said)
    if not _is_move("c1", dst):
        return _said(
            lang,
            "{text} is not a move: {pile} is not a pile ({piles})",
            text=said,
            pile=repr(dst),
            piles=_said(lang, "piles are c1.., f1.., h1.., r1.., p1.., w"),
        )
    count = 1
    if len(parts) == 3:
        if not parts[2].isdigit() or int(parts[2]) < 1:
            return _said(
                lang,
                "{text} is not a move: the count {count} must be a whole number from 1 up",
                text=said,
                count=repr(parts[2]),
            )
        count = int(parts[2])
    if count > 1 and not _is_move(src, dst, count):
        return _said(
            lang,
            "{text} is not a move: only a column gives several cards at once, not {pile}",
            text=said,
            pile=repr(src),
        )
    return _said(lang, "{text} is not a move", text=said)


def _is_move(src: str, dst: str, count: int = 1) -> bool:
    """Whether the notation takes ``src``, ``dst`` and ``count`` as a move."""
    try:
        Move(src, dst, count)
    except InvalidMoveError:
        return False
    return True


def record_words(text: str, lang: str = "en") -> str:
    """What is wrong with ``text`` as a game record (RULES.md: ``{"game": ID, "number": N,
    "moves": [...]}``), as a player's sentence in ``lang``: what
    :func:`~patiencekit.notation.parse_record` refuses, found again here in its order.
    The record's keys stay as they are written (they are JSON, not words).

    >>> print(record_words('{"game": "klondike", "moves": []}', "nl"))
    Het spelverslag heeft geen "number".
    >>> print(record_words('{"game": "klondike", "number": -4, "moves": []}', "es"))
    "number" debe ser un número entero a partir de 0, no -4.
    >>> print(record_words("[1, 2", "en"))
    The game record is not valid JSON (line 1, column 6).
    """
    lang = language(lang)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        message = _said(
            lang,
            "the game record is not valid JSON (line {line}, column {column})",
            line=e.lineno,
            column=e.colno,
        )
        return _sentence(message, lang) + "."
    except ValueError:
        return _sentence(_said(lang, "the game record is not valid JSON"), lang) + "."
    return _sentence(_record_problem(lang, data), lang) + "."


def _record_problem(lang: str, data: object) -> str:
    if not isinstance(data, dict):
        return _said(lang, "a game record is a JSON object with game, number and moves")
    for key in ("game", "number", "moves"):
        if key not in data:
            return _said(lang, 'the game record has no "{key}"', key=key)
    game, number, moves = data["game"], data["number"], data["moves"]
    if not isinstance(game, str):
        return _said(lang, '"game" must be a text (a game id), not {value}', value=repr(game))
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        return _said(
            lang, '"number" must be a whole number from 0 up, not {value}', value=repr(number)
        )
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        return _said(lang, '"moves" must be a list of moves as texts, like ["c3 f", "s"]')
    return _said(lang, "the game record cannot be read")


# -- the catalogue's messages ----------------------------------------------------------------------


def generated_messages() -> list[tuple[str, str | None]]:
    """The messages this module makes rather than writes out, as (message, context): every
    card's name, some card of each rank, each pile's name in every game's words, the card by
    its face per rank. With the messages given to ``_said`` (found by Babel's extraction)
    they are the catalogue; the tests check each language has them all, and no other.

    >>> ("the five of clubs", None) in generated_messages()
    True
    """
    out: list[tuple[str, str | None]] = []
    for card in range(52):
        out.append((_card_message(card, definite=True), None))
        out.append((_card_message(card, definite=False), None))
    for rank in range(13):
        out.extend((_rank_message(rank, colour), None) for colour in ("", "red", "black"))
        out.append(("the {card}", RANK_NAMES[rank]))
    words = {(kind, word) for kind, word in _KIND_WORD.items()}
    words |= {(kind, word) for facts in FACTS.values() for kind, word in facts.pile_words.items()}
    for kind, word in sorted(words):
        plain, empty = _pile_messages(kind, word)
        out.append((plain, None))
        if empty != plain:
            out.append((empty, None))
        if kind is PileKind.FOUNDATION:
            out.append((f"to its {word}", None))
        if kind is PileKind.PACKET:
            out.append((f"Deal out {{packet}} across the {word}s", None))
    out.extend((m, None) for m in _FIXED.values())
    out.extend((m, None) for m, _ in _OF_PILE.values())
    out.extend((m, None) for m in _GAME_FIXED.values())
    out.extend((m, None) for m in _STEP_MESSAGES)
    out.extend((m, None) for m in _DIRECTION_MESSAGES.values())
    out.extend((m, None) for m in _SUITS_MESSAGES.values())
    return list(dict.fromkeys(out))
