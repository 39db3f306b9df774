"""The registry of games: every game of RULES.md under a stable id.

>>> GAMES["patiencemax"].name, GAMES["patiencemax"].decks
('PatienceMax', 2)
>>> get_rules("Solitaire").id
'klondike'
>>> [g for g, f in FACTS.items() if f.ranked]
['klondike', 'klondike-draw1']

Each game pairs its rules (:class:`~patiencekit.rules.GameRules`, in its family's
module) with its facts (:class:`~patiencekit.games.facts.GameFacts`: short name,
lobby tile, layout family, ranked or not, solver), checked against each other on
import. docs/adding-a-game.md says where a new game goes.
"""

from __future__ import annotations

from patiencekit.errors import UnknownGameError
from patiencekit.games.facts import GameFacts, Layout, Solver, check_facts
from patiencekit.games.klondike import KLONDIKE, KLONDIKE_DRAW1
from patiencekit.games.patiencemax import PATIENCEMAX, PATIENCEMAX_ALL_TO_PILES
from patiencekit.games.patriarchs import (
    CAPTURED_QUEENS,
    CONTRADANCE,
    ODD_AND_EVEN,
    PATRIARCHS,
    PICTURE_PATIENCE,
    ROYAL_COTILLION,
)
from patiencekit.games.senior_wrangler import SENIOR_WRANGLER
from patiencekit.rules import GameRules, PileKind

__all__ = ["FACTS", "GAMES", "facts_of", "get_rules"]

#: Every game with its facts, in the order they are listed to players.
_REGISTRY: tuple[tuple[GameRules, GameFacts], ...] = (
    (
        KLONDIKE,
        GameFacts(
            short_name="Solitaire",
            blurb="The classic Solitaire: build the four suits from ace to king, turning the "
            "stock three cards at a time. Scored, with a time bonus.",
            lobby_cards=("KS", "QH", "JC"),
            layout=Layout.SEVEN_COLUMNS,
            ranked=True,
            solver=Solver.KLONDIKE,
        ),
    ),
    (
        KLONDIKE_DRAW1,
        GameFacts(
            short_name="Solitaire Simple",
            blurb="Solitaire turning one card at a time: easier to win, same scoring and "
            "time bonus.",
            lobby_cards=("AH", "2S", "3D"),
            layout=Layout.SEVEN_COLUMNS,
            ranked=True,
            solver=Solver.KLONDIKE,
        ),
    ),
    (
        PATIENCEMAX,
        GameFacts(
            short_name="PatienceMax",
            blurb="Ten full columns and a hand of four cells. Win by bringing all eight kings "
            "to the top of the columns.",
            lobby_cards=("KD", "QC", "KH"),
            layout=Layout.COLUMNS_AND_HAND,
        ),
    ),
    (
        PATIENCEMAX_ALL_TO_PILES,
        GameFacts(
            short_name="PatienceMax All to Piles",
            blurb="PatienceMax played out to the end: every card onto the eight foundations.",
            lobby_cards=("AS", "AH", "AD"),
            layout=Layout.COLUMNS_AND_HAND,
        ),
    ),
    (
        PATRIARCHS,
        GameFacts(
            short_name="Patriarchs",
            blurb="Aces build up and kings build down, fed by a reserve of nine and the stock. "
            "One redeal.",
            lobby_cards=("AC", "KC", "5H"),
            layout=Layout.RESERVE_BETWEEN,
        ),
    ),
    (
        PICTURE_PATIENCE,
        GameFacts(
            short_name="Picture Patience",
            blurb="Patriarchs with empty foundations to start: place the aces and kings as "
            "they turn up.",
            lobby_cards=("KH", "AH", "QS"),
            layout=Layout.RESERVE_BETWEEN,
        ),
    ),
    (
        ODD_AND_EVEN,
        GameFacts(
            short_name="Odd and Even",
            blurb="Build by twos: from the ace through the odd cards, from the two through "
            "the even ones.",
            lobby_cards=("AD", "3D", "5D"),
            layout=Layout.RESERVE_BETWEEN,
        ),
    ),
    (
        ROYAL_COTILLION,
        GameFacts(
            short_name="Royal Cotillion",
            blurb="Odd and Even's foundations, four short piles on the left and sixteen "
            "reserve cards on the right.",
            lobby_cards=("2S", "4S", "6S"),
            layout=Layout.LEFT_PILES,
            pile_words={PileKind.COLUMN: "left pile"},
        ),
    ),
    (
        CONTRADANCE,
        GameFacts(
            short_name="Contradance",
            blurb="Sixteen foundations: the fives build down, the sixes up; only the waste "
            "card plays.",
            lobby_cards=("5C", "6C", "7H"),
            layout=Layout.TWO_ROWS,
        ),
    ),
    (
        CAPTURED_QUEENS,
        GameFacts(
            short_name="Captured Queens",
            blurb="The fives build down, the sixes up, and the queens are set aside. Two redeals.",
            lobby_cards=("QH", "QS", "QD"),
            layout=Layout.THREE_ROWS,
        ),
    ),
    (
        SENIOR_WRANGLER,
        GameFacts(
            short_name="Senior Wrangler",
            blurb="Eight index cards set each foundation's step, from 2 to 9, ignoring suits. "
            "A game of counting.",
            lobby_cards=("2H", "4C", "6D"),
            layout=Layout.INDEX_CARDS,
        ),
    ),
)

#: Every game, by id, in the order they are listed to players.
GAMES: dict[str, GameRules] = {rules.id: rules for rules, _ in _REGISTRY}
#: Every game's facts (how it is shown, whether it is ranked, its solver), by id.
FACTS: dict[str, GameFacts] = {rules.id: check_facts(rules, facts) for rules, facts in _REGISTRY}
if len(GAMES) != len(_REGISTRY):
    raise ValueError("Two games of the registry have the same id.")

_ALIASES = {a: g.id for g in GAMES.values() for a in g.aliases}


def get_rules(game_id: str) -> GameRules:
    """The rules of a game by id (or alias), case-insensitive; raises :class:`UnknownGameError`."""
    key = game_id.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGameError(f"No game is called {game_id!r}. The games are: {known}.") from None


def facts_of(game_id: str) -> GameFacts:
    """The facts of a game by id (or alias), as :func:`get_rules` finds it.

    >>> facts_of("solitaire").short_name, facts_of("royal-cotillion").pile_word(PileKind.COLUMN)
    ('Solitaire', 'left pile')
    """
    return FACTS[get_rules(game_id).id]
