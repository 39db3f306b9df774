"""The play API's shapes: the request bodies, the answers' models (their OpenAPI schema)
and :func:`play_json`, which makes the answer :class:`Play` describes.

The routes send :func:`play_json`'s dictionary as it is (``deps.json_response``): the
models give the schema, and no answer is validated on the way out (a move's answer is
the hottest path of the server).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Row

from patiencekit.game import Game
from patiencekit.games import FACTS
from patiencekit.games.facts import Solver
from patiencekit.rules import PileKind

__all__ = [
    "Autocompleted",
    "FoundationBody",
    "Hint",
    "MoveBody",
    "NewPlay",
    "Pile",
    "Play",
    "PlayReplay",
    "PlayReplayStep",
    "SeenBody",
    "autocomplete_offered",
    "play_json",
    "revealed",
]


# -- request bodies ----------------------------------------------------------------------


class NewPlay(BaseModel):
    """The body of ``POST /api/games/{game_id}/play``."""

    model_config = ConfigDict(strict=True)

    number: int | None = None
    ranked: bool = False
    #: deal a game the solver has proved winnable (with no number)
    winnable: bool = False
    #: (ranked) end the player's open ranked game of this variant first, as given up
    give_up: bool = False


class SeenBody(BaseModel):
    """The body of ``undo``, ``redo``, ``restart`` and ``autocomplete``: the moves the
    client has seen."""

    model_config = ConfigDict(strict=True)

    #: moves the client has seen (the play's ``n``)
    n: int = Field(ge=0)


class MoveBody(SeenBody):
    """The body of ``POST /api/plays/{id}/moves``."""

    move: str = Field(min_length=1, max_length=64)


class FoundationBody(SeenBody):
    """The body of ``POST /api/plays/{id}/foundation``: a pile label or a card."""

    pile: str | None = Field(default=None, min_length=1, max_length=8)
    card: str | None = Field(default=None, min_length=1, max_length=8)


# -- answers -----------------------------------------------------------------------------


class _Answer(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)


class Pile(_Answer):
    """A pile as the player sees it (``View.to_json()``)."""

    kind: PileKind
    index: int
    """its number among the piles of its kind, from 1"""
    label: str
    """its name in the move notation: ``c3``, ``f1``, ``w``, ``s``"""
    face_down: int
    """how many of its cards are hidden"""
    cards: list[str | None]
    """bottom to top; ``null`` is a hidden card (face down, or in the stock)"""


class Play(_Answer):
    """A play as its owner sees it (docs/api.md, "A play")."""

    id: str
    """the play's id (32 hexadecimal digits, not guessable)"""
    game: str
    name: str
    number: int | None
    """the deal's number; ``null`` while a ranked play runs"""
    number_text: str | None
    """the number's digits (JSON numbers past 2^53 lose theirs in a browser)"""
    ranked: bool
    n: int
    """moves in the current line: the next action sends it"""
    moves_made: int
    """the player's move counter: moves made since the deal or the last restart (each move
    played, redone or auto-completed counts; an undo does not take one back)"""
    piles: list[Pile]
    legal_moves: list[str]
    """``[]`` once the game is over"""
    score: int | None
    """``null`` for unscored games"""
    time_bonus: int | None
    """paid only once won; ``null`` for unscored games"""
    elapsed: float
    """the server's seconds since the deal or its last restart (frozen at the win)"""
    won: bool
    over: bool
    """won, or no move left whatever the hidden cards are"""
    can_undo: bool
    can_redo: bool
    redeals_left: int | None
    last: str | None
    """the last move of the current line (``null`` at the start)"""
    autocomplete: bool
    """auto-complete may be offered: what the player sees proves the win, or may once the
    solver has searched (the solver's ``autocomplete_possible``); false once over"""
    daily: str | None = None
    """a daily deal's play: its UTC day (``YYYY-MM-DD``); ``null`` for any other play"""


class Autocompleted(Play):
    """A play after auto-complete: won, with the moves it played."""

    autocompleted: list[str]
    """the moves played, in the notation, in order (each stored as a move sent to
    ``/moves`` would be)"""


class PlayReplay(_Answer):
    """A player's own play as a game record (``patiencekit replay`` reads it)."""

    game: str
    number: int
    moves: list[str]
    """the moves of the play's line as it stands (after its undos), in order"""
    number_text: str
    """the number's digits"""
    id: str
    ranked: bool
    times: list[float]
    """each move's second from the deal (when it went into the line)"""


class PlayReplayStep(_Answer):
    """The board of a play's replay after its first ``step`` moves, as the player saw it."""

    game: str
    number: int
    number_text: str
    step: int
    steps: int
    piles: list[Pile]
    score: int | None
    """the running score, without time bonus (``null`` for unscored games)"""
    last: str | None
    """the move that led here (``null`` at the deal)"""
    won: bool


class Hint(_Answer):
    """A hint for a casual play."""

    hint: str | None
    """the solver's move from what the player sees, ``null`` when it has none"""
    n: int
    """the moves of the play the hint is for"""
    words: str | None
    """the hint in words for the player (``Game.describe``), ``null`` with no hint"""


def play_json(
    play_id: str,
    ranked: bool,
    game: Game,
    over: bool | None = None,
    reveal: bool = False,
    daily: str | None = None,
) -> dict[str, Any]:
    """A play as the API sends it (:class:`Play`): only what the player may see.

    ``over`` is ``game.is_over()`` when the caller knows it already; ``daily`` is a daily
    deal's play's day (the row's ``daily``). A ranked play's
    deal number is ``null`` unless ``reveal`` (its play has ended: RULES.md, "Fair
    competition"); ``number_text`` is the number's digits (JSON numbers above 2**53 lose
    theirs in a browser).
    """
    view = game.view().to_json()
    won = game.is_won()
    if over is None:
        over = game.is_over()
    last = game.last_move
    scored = game.rules.scored
    shown = not ranked or reveal
    return {
        "id": play_id,
        "game": game.id,
        "name": game.rules.name,
        "number": game.number if shown else None,
        "number_text": str(game.number) if shown else None,
        "ranked": ranked,
        "n": game.state.history_length,
        "moves_made": game.moves_made,
        "piles": view["piles"],
        "legal_moves": [] if over else game.legal_moves.texts(),
        "score": game.score,
        "time_bonus": game.time_bonus if scored else None,
        "elapsed": round(game.elapsed, 3),
        "won": won,
        "over": over,
        "can_undo": game.can_undo,
        "can_redo": game.can_redo,
        "redeals_left": view["redeals_left"],
        "last": None if last is None else str(last),
        "autocomplete": not over
        and autocomplete_offered(game, any(p["face_down"] for p in view["piles"])),
        "daily": daily,
    }


def autocomplete_offered(game: Game, hidden: bool) -> bool:
    """Whether the page may offer auto-complete now: the solver's ``autocomplete_possible``
    (a function of the player's view); ``hidden``: the view hides some card.

    Every answer of a move carries it, so it is read off the view at hand where that
    function's contract allows: in the games the Klondike search does not serve it is
    true exactly when nothing is hidden, and in Klondike it is false while a column holds
    a face-down card (its simple rule needs every column card in sight). Only a Klondike
    play near its end asks the solver (imported then: the server process loads it only
    when one comes that far; its searches run in the hint workers).
    tests/server/test_autocomplete.py checks it against the solver.
    """
    state = game.state
    if state.is_won():
        return False
    facts = FACTS.get(game.id)
    if facts is None or facts.solver is not Solver.KLONDIKE:
        return not hidden
    if any(state.down[i] for i in game.tables.columns):
        return False
    from patiencekit.solver import autocomplete_possible

    return autocomplete_possible(game)


def revealed(row: Row[Any], ended: bool) -> bool:
    """Whether a play's number may be sent: a casual play's always, a ranked single game's
    once it has ended; a tournament round's and a daily deal's play never here (their
    tournament shows its deals once it is over, the daily deal its day's once the day is
    over)."""
    return not row.ranked or (ended and row.tournament_id is None and row.daily is None)
