"""``GET /api/games``: every game of the registry with the facts the pages need.

The registry (:mod:`patiencekit.games`) is the one source: each game's rules say
its names, decks, rules text, whether it is scored, its stock and its
foundations' base cards; its :class:`~patiencekit.games.facts.GameFacts` say how
it is shown (short name, lobby tile, layout family, pile words), whether it is
ranked and which solver serves it. The pages write no game id or fact of their
own: they read this list (``static/js/games.js``).

The words of the answer (each game's ``rules_text``, ``rules_sections``, ``blurb`` and
``pile_words``) are in the request's language (``language.scope_language``;
:mod:`patiencekit.game_texts`, which the terminal says them from too); names stay the games'
own, and ``rules_text`` in English is the registry's. The answer never changes while the
server runs: it is built and checked against its model once per language, then served as
the same bytes.
"""

from __future__ import annotations

import functools
from typing import Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from patiencekit import game_texts
from patiencekit.cards import Suit
from patiencekit.game import new_game
from patiencekit.games import FACTS, GAMES
from patiencekit.games.facts import Layout, Solver, foundation_bases, stock_facts
from patiencekit.games.winnable_numbers import WINNABLE
from patiencekit.i18n import DEFAULT_LANGUAGE
from patiencekit.rules import GameRules, PileKind, Turn
from patiencekit.server.deps import json_response
from patiencekit.server.language import scope_language

__all__ = [
    "DealPile",
    "FoundationBaseEntry",
    "GameEntry",
    "RulesSection",
    "deal_piles",
    "game_entry",
    "router",
]

SuitLetter = Literal["C", "S", "H", "D"]
RankLetter = Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


class FoundationBaseEntry(BaseModel):
    """What an empty foundation takes: the rank of its base card, and its suit if fixed."""

    model_config = ConfigDict(extra="forbid")

    rank: RankLetter = Field(description="the base card's rank letter (T for ten)")
    suit: SuitLetter | None = Field(description="the base card's suit; null: any suit")


class DealPile(BaseModel):
    """A pile of the layout at the deal: where it is and how many cards it holds, no card."""

    model_config = ConfigDict(extra="forbid")

    kind: PileKind = Field(description="the pile's kind, as a play's piles say it")
    index: int = Field(description="its number among the piles of its kind, from 1")
    label: str = Field(description="its name in the move notation: c3, f1, w, s")
    cards: int = Field(description="how many cards it holds at the deal")
    face_down: int = Field(description="how many of them are hidden at the deal")


class RulesSection(BaseModel):
    """A section of a game's rules page."""

    model_config = ConfigDict(extra="forbid")

    heading: str = Field(description="the section's heading: 'The layout', 'To win', ...")
    text: str = Field(description="its sentences")


class GameEntry(BaseModel):
    """One game of ``GET /api/games``."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="the game's stable id, as in /play/{id}")
    name: str = Field(description="the full name: 'Solitaire (Klondike, draw 3)'")
    local_name: str = Field(
        description="the full name in the request's language: 'Solitaire (Klondike, robar 3)'"
    )
    decks: int = Field(description="1 or 2")
    rules_text: str = Field(
        description="the rules in full in the request's language (in English the registry's)"
    )
    rules_sections: list[RulesSection] = Field(
        description="the rules page's sections in the request's language, each with a heading"
    )
    winnable_deals: int = Field(description="deals the solver has proved winnable")
    short_name: str = Field(description="the name where space is short: 'Solitaire'")
    blurb: str = Field(description="a line for the lobby tile (in the request's language)")
    lobby_cards: list[str] = Field(description="three cards decorating the lobby tile")
    layout: Layout = Field(description="the board layout family the pages draw it with")
    ranked: bool = Field(description="tournaments, ranked play and a Top 100")
    scored: bool = Field(description="Klondike's points")
    draw: int = Field(description="cards turned per s; 0 when the game has no stock")
    redeals: int | None = Field(description="how often t may be played; null: unlimited")
    turn: Turn | None = Field(description="what t does; null when the game has no t")
    foundation_bases: list[FoundationBaseEntry] = Field(
        description="each foundation's base card, in layout order"
    )
    pile_words: dict[PileKind, str] = Field(
        description="the game's own word for a kind of pile, where the usual one does not fit"
    )
    solver: Solver = Field(description="the search that solves it and gives its hints")
    deal_piles: list[DealPile] = Field(
        description="the piles at the deal, in a play's order: the same for every deal"
    )


def game_entry(rules: GameRules, lang: str = DEFAULT_LANGUAGE) -> GameEntry:
    """The ``GET /api/games`` item of a game of the registry, its words in ``lang``."""
    facts = FACTS[rules.id]
    stock = stock_facts(rules)
    return GameEntry(
        id=rules.id,
        name=rules.name,
        local_name=game_texts.name(rules, lang),
        decks=rules.decks,
        rules_text=game_texts.rules_text(rules, lang),
        rules_sections=[
            RulesSection.model_validate(section)
            for section in game_texts.rules_sections(rules, lang)
        ],
        winnable_deals=len(WINNABLE.get(rules.id, ())),
        short_name=facts.short_name,
        blurb=game_texts.blurb(facts.blurb, lang),
        lobby_cards=list(facts.lobby_cards),
        layout=facts.layout,
        ranked=facts.ranked,
        scored=rules.scored,
        draw=stock.draw,
        redeals=stock.redeals,
        turn=stock.turn,
        foundation_bases=[
            FoundationBaseEntry.model_validate(
                {"rank": b.rank.letter, "suit": _suit_letter(b.suit)}
            )
            for b in foundation_bases(rules)
        ],
        pile_words=game_texts.pile_words(facts.pile_words, lang),
        solver=facts.solver,
        deal_piles=deal_piles(rules),
    )


def deal_piles(rules: GameRules) -> list[DealPile]:
    """The piles of ``rules`` at the deal, as a play's ``piles`` say them, without the cards:
    how many each holds and how many of them are face down (the same for every deal, so
    this tells nothing of one), for the rules page's picture of the layout."""
    view = new_game(rules.id, 1).view()
    return [
        DealPile(
            kind=p.kind, index=p.index, label=p.label, cards=len(p.cards), face_down=p.face_down
        )
        for p in view.piles
    ]


def _suit_letter(suit: Suit | None) -> str | None:
    return None if suit is None else suit.letter


@functools.cache
def _answer(lang: str) -> bytes:
    """The answer's body in ``lang``, built once."""
    games = [game_entry(rules, lang).model_dump(mode="json") for rules in GAMES.values()]
    return bytes(json_response(games).body)


router = APIRouter()


@router.get("/games", response_model=list[GameEntry])
def list_games(request: Request) -> Response:
    """Every game, in the registry's order, with its facts: what the pages show of it, how
    its board is laid out, whether it is ranked, and how many of its deals the solver has
    proved winnable (those "winnable deals only" draws from)."""
    lang = scope_language(request.scope)
    return Response(
        _answer(lang),
        media_type="application/json",
        headers={"content-language": lang, "vary": "Accept-Language, Cookie"},
    )
