"""Build positions by hand for rule tests.

A layout is a dict of pile labels to card texts, bottom to top, written as in
board text: ``{"c2": "<7H> 9H", "f1": "AC 2C", "w": "KD", "s": "3S AH"}``. Face-down
cards are in ``<..>``; the stock's last card is the next one drawn. Piles not
named are left empty.

>>> import patiencekit
>>> g = patiencekit.new_game("klondike", 1)
>>> set_position(g, {"c1": "<AC> 2H", "s": deck_except("klondike", "AC 2H")})
>>> print(g.board_text().splitlines()[-7])
c1: <AC> 2H
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from patiencekit import Game, get_rules
from patiencekit.cards import card_text, parse_card_index

__all__ = [
    "chain",
    "deck_except",
    "parse_pile",
    "run",
    "set_position",
]

_RANKS = "A23456789TJQK"


def parse_pile(text: str) -> tuple[list[int], int]:
    """Card indexes bottom to top and the number face down, from ``"<7H> 9H"``."""
    cards: list[int] = []
    down = 0
    for token in text.split():
        if token.startswith("<") and token.endswith(">"):
            if down != len(cards):
                raise ValueError(f"face-down card {token} above a face-up card in {text!r}")
            down += 1
            token = token[1:-1]
        cards.append(parse_card_index(token))
    return cards, down


def run(first: str, last: str) -> str:
    """The cards of one suit from ``first`` up to ``last``: ``run("AC", "4C") == "AC 2C 3C 4C"``."""
    a, b = parse_card_index(first), parse_card_index(last)
    if a // 13 != b // 13 or a > b:
        raise ValueError(f"{first}..{last} is not a run of one suit going up")
    return " ".join(card_text(c) for c in range(a, b + 1))


def chain(first: str, length: int, other_suit: str) -> str:
    """A string going down from ``first``, alternating its suit with ``other_suit``.

    ``chain("KS", 4, "H") == "KS QH JS TH"`` (bottom to top, as a column holds it).
    """
    head = parse_card_index(first)
    suits = ["CSHD"[head // 13], other_suit.upper()]
    rank = head % 13
    if length > rank + 1:
        raise ValueError(f"a string from {first} has at most {rank + 1} cards")
    return " ".join(_RANKS[rank - i] + suits[i % 2] for i in range(length))


def deck_except(game_id: str, *texts: str) -> str:
    """Every card of the game's deck(s) but those in ``texts`` (one copy per mention)."""
    decks = get_rules(game_id).decks
    left = Counter({c: decks for c in range(52)})
    for text in texts:
        for token in text.split():
            c = parse_card_index(token.strip("<>"))
            if left[c] == 0:
                raise ValueError(f"{card_text(c)} is used more often than the deck(s) hold it")
            left[c] -= 1
    return " ".join(card_text(c) for c in sorted(left.elements()))


def set_position(
    game: Game,
    layout: Mapping[str, str],
    *,
    score: int = 0,
    redeals: int = 0,
    complete: bool = True,
) -> None:
    """Replace the position of a freshly dealt ``game`` by ``layout``.

    With ``complete`` (the default) the layout must hold every card of the
    game's deck(s) exactly as often as they do, so that no test plays with a
    position the game could never reach for want of cards.
    """
    state = game.state
    if state.history_length or game.won_at is not None:
        raise ValueError("set_position needs a game in which no move has been played")
    t = game.tables
    piles: list[list[int]] = [[] for _ in range(t.pile_count)]
    down = [0] * t.pile_count
    for label, text in layout.items():
        i = t.by_label.get(label)
        if i is None:
            raise KeyError(f"{game.id} has no pile {label!r}; it has {', '.join(t.labels)}")
        cards, face_down = parse_pile(text)
        piles[i] = cards
        down[i] = len(cards) if label == "s" else face_down
    if complete:
        counts = Counter(c for p in piles for c in p)
        want = Counter({c: game.rules.decks for c in range(52)})
        missing = sorted((want - counts).elements())
        extra = sorted((counts - want).elements())
        if missing or extra:
            raise ValueError(
                f"the layout is not {game.rules.decks} full deck(s): "
                f"missing {[card_text(c) for c in missing]}, extra {[card_text(c) for c in extra]}"
            )
    state.piles = piles
    state.down = down
    state.score = score
    state.redeals = redeals
