"""What a player asks of a play (:class:`Action`), checked and applied to its game.

The same check runs on the full path (``service``) and on a kept game (``fastpath``): the
engine decides every rule, this module only says in which order the refusals come
(ranked, move number, game over, the move itself: docs/api.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from patiencekit.cards import card_text, parse_card_index
from patiencekit.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    PatienceError,
)
from patiencekit.game import Game
from patiencekit.i18n import LANGUAGES, N_
from patiencekit.server.errors import ApiError
from patiencekit.words import refusal_words

__all__ = [
    "Action",
    "ActionKind",
    "EngineRefusal",
    "Unchanged",
    "apply_action",
    "check_action",
    "engine_message",
    "stored_first",
]

ActionKind = Literal["move", "foundation", "undo", "redo", "restart"]


@dataclass(frozen=True, slots=True)
class Action:
    """One action on a play: ``n`` is the number of moves the client has seen (a stale
    ``n`` is a conflict); ``move`` goes with ``move``, one of ``pile`` and ``card`` with
    ``foundation`` (a double-click), nothing with ``undo``, ``redo`` and ``restart``.

    >>> Action("move", 3, move="s").event_kind, Action("foundation", 3, pile="c1").event_kind
    ('move', 'move')
    """

    kind: ActionKind
    n: int
    move: str | None = None
    pile: str | None = None
    card: str | None = None

    @property
    def event_kind(self) -> str:
        """The event the accepted action is stored as (a double-click is a move)."""
        return "move" if self.kind == "foundation" else self.kind


class Unchanged(Exception):
    """The action has nothing to do (a restart at the deal)."""


def engine_message(error: PatienceError, lang: str, game: Game | None = None) -> str:
    """The engine's refusal of a move or a card (an illegal move, a text not in the
    notation) as a sentence for the player in ``lang``: where the request's language and
    the engine's words meet.

    An illegal move is said in words (:func:`patiencekit.words.refusal_words`, naming only
    cards in sight) when ``game`` is the game at the position that refused it; anything
    else is said as the engine says it, in English (a text not in the notation).

    >>> import patiencekit
    >>> g = patiencekit.new_game("klondike", 24)
    >>> try:
    ...     g.play("c1 c2")
    ... except patiencekit.IllegalMoveError as e:
    ...     print(engine_message(e, "nl", g))
    ...     print(engine_message(e, "en"))
    De klaveren vijf kan niet op de harten negen: daar hoort een zwarte acht op.
    c1 c2: 5C cannot go on 9H: needs an 8 of the other colour
    """
    if isinstance(error, IllegalMoveError):
        if game is not None:
            return refusal_words(game, error, lang)
        return f"{error.move}: {error.reason}"
    return str(error)


class EngineRefusal(ApiError):
    """A refusal in the engine's own words (:func:`engine_message`), said in the request's
    language when the answer is sent. The words are made when the refusal is raised, in
    every language, while ``game`` is still at the position that refused the move."""

    def __init__(
        self, status: int, code: str, error: PatienceError, game: Game | None = None
    ) -> None:
        self.texts = {lang: engine_message(error, lang, game) for lang in LANGUAGES}
        super().__init__(status, code, self.texts["en"])
        self.error = error

    def text(self, lang: str) -> str:
        return self.texts.get(lang) or self.texts["en"]


def stored_first() -> ApiError:
    """The refusal of an action whose write found the play moved on meanwhile."""
    return ApiError(409, "conflict", N_("another move was stored first: reload the play"))


#: why a ranked game refuses a take-back
_NOT_RANKED = {
    "undo": N_("a ranked game has no undo"),
    "redo": N_("a ranked game has no redo"),
    "restart": N_("a ranked game has no restart"),
}


def check_action(game: Game, action: Action, *, ranked: bool, ended: bool) -> None:
    """The refusals of ``action`` that come before the engine's own, in their order (ranked,
    move number, game over): raises :class:`ApiError`; the game is not changed.

    ``apply_action`` makes these checks first; auto-complete (a series of moves) makes them
    once before it asks for its line.
    """
    kind = action.kind
    if kind in ("undo", "redo", "restart") and ranked:
        raise ApiError(403, "forbidden", _NOT_RANKED[kind])
    current = game.state.history_length
    if action.n != current:
        raise ApiError(
            409,
            "conflict",
            N_("the play has moved on: it is at move {current}, not {n}; reload it"),
            params={"current": current, "n": action.n},
        )
    if kind in ("move", "foundation") and ended and not game.is_won():
        raise ApiError(409, "game_over", N_("this ranked game is finished: no more moves"))
    if kind in ("move", "foundation") and game.is_over():
        if game.is_won():
            raise ApiError(409, "game_over", N_("the game is won: no more moves"))
        raise ApiError(409, "game_over", N_("no move is left: the game is over"))


def apply_action(game: Game, action: Action, *, ranked: bool, ended: bool) -> str | None:
    """Check ``action`` and apply it to ``game``; the move as played (None for the others).

    Raises :class:`ApiError` for a refusal and :class:`Unchanged` for nothing to do; either
    way the game is as it was.
    """
    check_action(game, action, ranked=ranked, ended=ended)
    kind = action.kind
    try:
        if kind == "foundation":
            return str(game.play(_foundation_move(game, action.pile, action.card)))
        if kind == "move":
            assert action.move is not None
            return str(game.play(action.move))
        if kind == "undo":
            game.undo()
        elif kind == "redo":
            game.redo()
        elif kind == "restart":
            if not game.can_undo:
                raise Unchanged
            # a new attempt at the deal: its clock and move counter start again
            game.restart(afresh=True)
        else:
            raise ValueError(f"unknown action {kind!r}")
    except InvalidMoveError as e:
        raise EngineRefusal(400, "bad_request", e) from None
    except IllegalMoveError as e:
        # The engine's reasons name no card the player cannot see (Game.refusal).
        raise EngineRefusal(400, "illegal_move", e, game) from None
    return None


def _foundation_move(game: Game, pile: str | None, card: str | None) -> str:
    """The move a double-click makes: the card (or the pile's top card) to its foundation."""
    if pile is not None:
        label = pile.strip().lower()
        if label not in game.tables.by_label:
            raise ApiError(
                400, "illegal_move", N_("this game has no pile {pile!r}"), params={"pile": pile}
            )
        labels = [label]
        none_takes = ApiError(
            400,
            "illegal_move",
            N_("no foundation takes the top card of {pile} now"),
            params={"pile": label},
        )
    else:
        assert card is not None
        try:
            text = card_text(parse_card_index(card))
        except InvalidCardError as e:
            raise EngineRefusal(400, "bad_request", e) from None
        # Only cards the player can see on top of a pile: never a face-down card.
        labels = [p.label for p in game.view().piles if p.cards and str(p.cards[-1]) == text]
        none_takes = ApiError(
            400, "illegal_move", N_("no foundation takes {card} now"), params={"card": text}
        )
    for label in labels:
        move = game.foundation_move(label)
        if move is not None:
            return str(move)
    raise none_takes
