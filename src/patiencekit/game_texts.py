"""What the faces say of each game, in the reader's language: its name, its lobby line (the
registry's ``blurb``), its pile words, and its rules in sections, each with a heading, or in
full. The web app (``GET /api/games``, the rules page) and the terminal (``patiencekit games``,
``rules``, the help of ``play``) say them from here.

The registry (:mod:`patiencekit.games`) is English and is the one source of each game's
facts; its names, blurbs and pile words are msgids of the ``games`` catalogues as they are
(``src/patiencekit/locale/<lang>/LC_MESSAGES/games.po``). The rules' sections are written here,
sentence by sentence (each sentence a msgid, so that the games that share a rule share its
translation), from the registry's ``rules_text``. A game this module has no sections for gets
one section of its ``rules_text`` (in English), and ``tests/test_i18n.py`` fails until it has
them.

Not part of the engine, which says nothing in any language but English: this module sits
beside :mod:`patiencekit.words`, on the engine and the translations alone (``pyproject.toml``'s
layering contracts).

>>> from patiencekit.games import GAMES
>>> name(GAMES["klondike"], "nl"), name(GAMES["patriarchs"], "es")
('Solitaire (Klondike, 3 kaarten draaien)', 'Patriarchs')
>>> rules_sections(GAMES["klondike"], "es")[0]["heading"]
'La disposición'
>>> rules_text(GAMES["klondike"], "en") == GAMES["klondike"].rules_text
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from patiencekit.i18n import N_, translator
from patiencekit.rules import GameRules

__all__ = [
    "DOMAIN",
    "RULES_SECTIONS",
    "blurb",
    "decks_words",
    "name",
    "pile_words",
    "rules_sections",
    "rules_text",
    "say",
]

#: the gettext domain of the games' texts
DOMAIN = "games"


def say(lang: str, message: str) -> str:
    """A text of the ``games`` catalogue in ``lang`` (its English where there is none)."""
    return translator(lang, DOMAIN)(message)


LAYOUT = N_("The layout")
PLAY = N_("How to play")
STOCK = N_("The stock")
GOAL = N_("To win")
SCORE = N_("Scoring")

_KLONDIKE_LAYOUT = (
    N_("Seven columns: column n holds n cards, only the last one face up."),
    N_("The other 24 cards form the stock."),
)
_KLONDIKE_PLAY = (
    N_("Build the four foundations up by suit from ace to king."),
    N_("On the columns build down in alternate colours."),
    N_("Any face-up string moves as a unit if its first card fits."),
    N_("An empty column takes only a king or a string headed by a king."),
    N_("A face-down card left at the end of a column is turned up."),
    N_("A foundation's top card may come back to a column."),
)
_KLONDIKE_REDEAL = N_(
    "When the stock is empty, turn the waste over (t) to form it again, as often as you like."
)
_WIN_52 = N_("Win with all 52 cards on the foundations.")
_WIN_104 = N_("Win with all 104 cards on the foundations.")
_KLONDIKE_SCORE = (
    N_(
        "Waste to column +25, column to foundation +25, waste to foundation +50, a face-down "
        "card turned up +20, foundation to column -25, waste turned over -25 (never below 0)."
    ),
    N_("On a win, a time bonus of 1000 minus the seconds played."),
)

_MAX_LAYOUT = (
    N_("Ten columns of ten face-up cards; the four other cards are in your hand."),
    N_("The hand holds at most four cards."),
)
_MAX_PLAY = (
    N_(
        "A card goes on the lowest card of another column if it is one rank lower and of the "
        "other colour; a string moves as a unit if its first card fits."
    ),
    N_("An empty column takes only a king or a string headed by a king."),
    N_(
        "A column's lowest card or a hand card may go to one of the eight piles: an ace on an "
        "empty pile, then up by suit; cards never leave the piles."
    ),
    N_(
        "A column's lowest card may go into the hand while it holds fewer than four cards, and "
        "a hand card may go to a column or a pile."
    ),
)

_RESERVE_NINE = N_("Nine face-up reserve cards (three rows of three) play only to the foundations.")
_RESERVE_FILL = N_(
    "When a reserve card leaves, its space is filled at once with the waste's top card or, if "
    "the waste is empty, the next stock card."
)
_TURN_ONE = N_("Turn the stock one card at a time onto the waste (s).")
_WASTE_TO_FOUNDATION = N_("The waste's top card plays to a foundation.")
_ONLY_WASTE = N_("Only the waste's top card plays.")
_ONE_REDEAL = N_("One redeal (t).")
_NO_REDEAL = N_("No redeal.")
_ODD_EVEN = N_(
    "Per suit one foundation from an ace and one from a two, both built up by twos by suit, "
    "wrapping (A 3 5 7 9 J K 2 4 6 8 10 Q and 2 4 6 8 10 Q A 3 5 7 9 J K)."
)

#: each game's rules page: (heading, its sentences) in order
RULES_SECTIONS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "klondike": (
        (LAYOUT, _KLONDIKE_LAYOUT),
        (PLAY, _KLONDIKE_PLAY),
        (
            STOCK,
            (
                N_("Turn three cards at a time from the stock onto the waste (s)."),
                _ONLY_WASTE,
                _KLONDIKE_REDEAL,
            ),
        ),
        (GOAL, (_WIN_52,)),
        (SCORE, _KLONDIKE_SCORE),
    ),
    "klondike-draw1": (
        (LAYOUT, _KLONDIKE_LAYOUT),
        (PLAY, _KLONDIKE_PLAY),
        (
            STOCK,
            (N_("Turn one card at a time from the stock onto the waste (s)."), _KLONDIKE_REDEAL),
        ),
        (GOAL, (_WIN_52,)),
        (SCORE, _KLONDIKE_SCORE),
    ),
    "patiencemax": (
        (LAYOUT, _MAX_LAYOUT),
        (PLAY, _MAX_PLAY),
        (
            GOAL,
            (
                N_(
                    "Win when every one of the eight kings lies at the top (the deepest place) "
                    "of a column; a king sent to a pile can never do that."
                ),
            ),
        ),
    ),
    "patiencemax-all-to-piles": (
        (LAYOUT, _MAX_LAYOUT),
        (PLAY, _MAX_PLAY),
        (GOAL, (N_("Win with all 104 cards on the piles."),)),
    ),
    "patriarchs": (
        (
            LAYOUT,
            (
                N_("An ace and a king of each suit start on the foundations."),
                _RESERVE_NINE,
            ),
        ),
        (
            PLAY,
            (
                N_("The aces build up by suit to king, the kings down by suit to ace."),
                _RESERVE_FILL,
                N_(
                    "Reversal: when the top cards of a suit's ace and king foundations are in "
                    "sequence, cards may move one at a time from one to the other, never the "
                    "base ace or king."
                ),
            ),
        ),
        (STOCK, (_TURN_ONE, _WASTE_TO_FOUNDATION, _ONE_REDEAL)),
        (GOAL, (_WIN_104,)),
    ),
    "picture-patience": (
        (
            LAYOUT,
            (
                N_("As Patriarchs, but no card starts on the foundations."),
                _RESERVE_NINE,
            ),
        ),
        (
            PLAY,
            (
                N_(
                    "Aces and kings are placed on their empty foundations as they are found "
                    "(aces build up, kings down, by suit)."
                ),
                _RESERVE_FILL,
                N_("No reversal."),
            ),
        ),
        (STOCK, (_TURN_ONE, _WASTE_TO_FOUNDATION, _NO_REDEAL)),
        (GOAL, (_WIN_104,)),
    ),
    "odd-and-even": (
        (LAYOUT, (_RESERVE_NINE,)),
        (PLAY, (_ODD_EVEN, N_("Bases are placed as they are found."), _RESERVE_FILL)),
        (STOCK, (_TURN_ONE, _WASTE_TO_FOUNDATION, _ONE_REDEAL)),
        (GOAL, (_WIN_104,)),
    ),
    "royal-cotillion": (
        (
            LAYOUT,
            (
                N_("Left: four piles of three face-up cards."),
                N_("Right: sixteen reserve cards."),
            ),
        ),
        (
            PLAY,
            (
                N_(
                    "Foundations as in Odd and Even: per suit one from an ace and one from a "
                    "two, up by twos by suit, wrapping."
                ),
                N_(
                    "Only each left pile's last card plays, to a foundation; the left piles are "
                    "never refilled and nothing builds on them."
                ),
                N_("Each reserve card plays only to a foundation."),
                _RESERVE_FILL,
            ),
        ),
        (STOCK, (_TURN_ONE, _WASTE_TO_FOUNDATION, _NO_REDEAL)),
        (GOAL, (_WIN_104,)),
    ),
    "contradance": (
        (
            LAYOUT,
            (N_("All eight fives and eight sixes start on sixteen foundations."),),
        ),
        (
            PLAY,
            (N_("The fives build down by suit 5 4 3 2 A K, the sixes up by suit 6 to Q."),),
        ),
        (STOCK, (_TURN_ONE, _ONLY_WASTE, _ONE_REDEAL)),
        (GOAL, (_WIN_104,)),
    ),
    "captured-queens": (
        (LAYOUT, (N_("Only the stock: the foundations are made as the cards appear."),)),
        (
            PLAY,
            (
                N_(
                    "As they appear, the fives start foundations built down by suit 5 4 3 2 A K, "
                    "the sixes foundations built up by suit 6 to J, and the queens are set "
                    "aside on their own piles."
                ),
            ),
        ),
        (STOCK, (_TURN_ONE, _ONLY_WASTE, N_("Two redeals (t)."))),
        (GOAL, (N_("Win with all 52 cards placed."),)),
    ),
    "senior-wrangler": (
        (
            LAYOUT,
            (
                N_("Eight index cards, one each of ranks 2 to 9, never move."),
                N_("The other 96 cards form eight face-up board packets of twelve."),
            ),
        ),
        (
            PLAY,
            (
                N_("Only each packet's top card plays, and only to a foundation."),
                N_(
                    "Below index card n a foundation starts with the card of rank 2n (counting "
                    "past 13 again: 7 gives A, 8 gives 3, 9 gives 5) and builds up by n, "
                    "wrapping, ignoring suit, twelve cards ending on a king."
                ),
                N_(
                    "A foundation's top card, except a king, may move to another foundation "
                    "where it continues the sequence."
                ),
            ),
        ),
        (
            N_("The packets"),
            (
                N_(
                    "When no packet card can be played, deal out the next board packet, 1 to 8 "
                    "in order (t): turned over, its cards go one at a time into its own space, "
                    "then the spaces to its right, wrapping to packet 1."
                ),
                N_("At most 8 such deals."),
            ),
        ),
        (GOAL, (N_("Win with all 96 cards on the foundations, each topped by a king."),)),
    ),
}


_DECKS = {1: N_("One deck."), 2: N_("Two decks.")}


def name(rules: GameRules, lang: str) -> str:
    """A game's full name (the registry's English) in ``lang``: the proper names stay, the
    words about the variant are translated ("draw 3")."""
    return say(lang, rules.name)


def blurb(blurb_text: str, lang: str) -> str:
    """A game's lobby line (the registry's English) in ``lang``."""
    return say(lang, blurb_text)


def pile_words(words: Mapping[Any, str], lang: str) -> dict[Any, str]:
    """A game's own pile words (the registry's English) in ``lang``."""
    return {kind: say(lang, word) for kind, word in words.items()}


def decks_words(decks: int, lang: str) -> str:
    """How many decks a game is played with, as a sentence: "Two decks."

    >>> decks_words(2, "nl"), decks_words(1, "es")
    ('Twee kaartspellen.', 'Una baraja.')
    """
    return say(lang, _DECKS[decks])


def rules_sections(rules: GameRules, lang: str) -> list[dict[str, str]]:
    """A game's rules page in ``lang``: ``[{"heading", "text"}]``, in order."""
    sections = RULES_SECTIONS.get(rules.id)
    if sections is None:
        return [{"heading": say(lang, N_("The rules")), "text": rules.rules_text}]
    return [
        {"heading": say(lang, heading), "text": " ".join(say(lang, s) for s in sentences)}
        for heading, sentences in sections
    ]


def rules_text(rules: GameRules, lang: str) -> str:
    """A game's rules in full, in ``lang``, built as the registry's English ``rules_text``
    is: how many decks, then the rules in one paragraph, then the scoring (if the game is
    scored) in a paragraph of its own. In English it is the registry's ``rules_text`` itself;
    a game without sections has only that.

    >>> from patiencekit.games import GAMES
    >>> print(rules_text(GAMES["contradance"], "nl"))  # doctest: +NORMALIZE_WHITESPACE
    Twee kaartspellen. Alle acht vijven en acht zessen beginnen op zestien azenstapels. ...
    Eén keer opnieuw draaien (t). Je wint met alle 104 kaarten op de azenstapels.
    >>> rules_text(GAMES["klondike"], "es").splitlines()[-1][:38]
    'Puntuación: del descarte a una columna'
    """
    sections = RULES_SECTIONS.get(rules.id)
    if lang == "en" or sections is None:
        return rules.rules_text
    play = [decks_words(rules.decks, lang)]
    score: list[str] = []
    for heading, sentences in sections:
        said = [say(lang, s) for s in sentences]
        (score if heading == SCORE else play).extend(said)
    paragraphs = [" ".join(play)]
    if score:
        text = " ".join(score)
        paragraphs.append(f"{say(lang, SCORE)}: {text[:1].lower()}{text[1:]}")
    return "\n\n".join(paragraphs)
