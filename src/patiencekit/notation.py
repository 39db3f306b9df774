"""Text formats: moves, positions (board text) and game records.

Every format is a parse/format pair that round-trips.

Moves (RULES.md "Notation and records"): ``SRC DST`` moves one card,
``SRC DST N`` a string of N cards from a column, ``s`` turns stock cards onto
the waste, ``t`` turns the waste over (or deals the next packet). Piles are
``c1``.. columns, ``f1``.. foundations, ``h1``..``h4`` hand cells, ``r1``..
reserve spaces, ``p1``..``p8`` packets and ``w`` the waste; a bare ``f`` or
``h`` as destination means the first foundation that takes the card, a free
hand cell. Case and extra spaces don't matter.

>>> Move.parse("C1  c4 3")
Move.parse('c1 c4 3')
>>> str(Move.parse("W F")), str(Move.parse("s")), Move.parse("c3 c4 1") == Move.parse("c3 c4")
('w f', 's', True)
>>> Move.parse("c3 x9")
Traceback (most recent call last):
...
patiencekit.errors.InvalidMoveError: 'c3 x9' is not a move: 'x9' is not a pile ...

Game records are JSON objects ``{"game": ID, "number": N, "moves": [...]}``:

>>> rec = parse_record('{"game": "klondike", "number": 24, "moves": ["s", "w f"]}')
>>> rec.moves, format_record(rec)
(('s', 'w f'), '{"game": "klondike", "number": 24, "moves": ["s", "w f"]}')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from patiencekit.cards import card_text, parse_card_index
from patiencekit.errors import InvalidCardError, InvalidMoveError, InvalidRecordError

__all__ = [
    "Move",
    "Record",
    "format_board",
    "format_record",
    "move_text",
    "parse_board",
    "parse_record",
]

_SOURCE = re.compile(r"^(?:[cfhrpi][1-9][0-9]?|w)$")
_DEST = re.compile(r"^(?:[cfhrp][1-9][0-9]?|f|h)$")
_PILES_HINT = "piles are c1.., f1.., h1.., r1.., p1.., w"


@dataclass(frozen=True, slots=True)
class Move:
    """A move in the notation: ``Move("c3", "f")``, ``Move("c1", "c4", 3)``, ``Move("s")``.

    ``src`` is a pile label or ``"s"`` / ``"t"`` for the stock actions; ``dst``
    may be a bare ``"f"`` or ``"h"`` until a game resolves it.

    >>> Move("c1", "c4", 3).is_stock, Move("t").is_stock
    (False, True)
    """

    src: str
    dst: str = ""
    count: int = 1

    def __post_init__(self) -> None:
        if self.src in ("s", "t"):
            if self.dst or self.count != 1:
                raise InvalidMoveError(f"{self.src!r} takes no destination or count")
            return
        if not _SOURCE.match(self.src):
            raise InvalidMoveError(f"{self.src!r} is not a pile to move from ({_PILES_HINT})")
        if not _DEST.match(self.dst):
            raise InvalidMoveError(f"{self.dst!r} is not a pile to move to ({_PILES_HINT})")
        if self.count < 1:
            raise InvalidMoveError(f"a move takes at least one card, not {self.count}")
        if self.count > 1 and not self.src.startswith("c"):
            raise InvalidMoveError(f"only a column gives several cards at once, not {self.src!r}")

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move; raises :class:`InvalidMoveError` naming the text and the problem."""
        parts = text.strip().lower().split()
        if not parts:
            raise InvalidMoveError("an empty text is not a move: type e.g. 'c3 f', 'w c5' or 's'")
        if parts[0] in ("s", "t"):
            if len(parts) != 1:
                raise InvalidMoveError(f"{text!r} is not a move: {parts[0]!r} stands alone")
            return cls(parts[0])
        if len(parts) not in (2, 3):
            raise InvalidMoveError(
                f"{text!r} is not a move: write SOURCE DESTINATION [COUNT], like 'c1 c4 3', "
                "or 's' / 't'"
            )
        src, dst = parts[0], parts[1]
        if not _SOURCE.match(src):
            raise InvalidMoveError(f"{text!r} is not a move: {src!r} is not a pile ({_PILES_HINT})")
        if dst in ("w", "s"):
            pile = "waste" if dst == "w" else "stock"
            raise InvalidMoveError(f"{text!r} is not a move: nothing can be put on the {pile}")
        if not _DEST.match(dst):
            raise InvalidMoveError(f"{text!r} is not a move: {dst!r} is not a pile ({_PILES_HINT})")
        count = 1
        if len(parts) == 3:
            if not parts[2].isdigit() or int(parts[2]) < 1:
                raise InvalidMoveError(
                    f"{text!r} is not a move: the count {parts[2]!r} must be a whole number"
                    " from 1 up"
                )
            count = int(parts[2])
        try:
            return cls(src, dst, count)
        except InvalidMoveError as e:
            raise InvalidMoveError(f"{text!r} is not a move: {e}") from None

    @property
    def is_stock(self) -> bool:
        """True for ``s`` and ``t``."""
        return self.src in ("s", "t")

    def __str__(self) -> str:
        if self.is_stock:
            return self.src
        return move_text(self.src, self.dst, self.count)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def move_text(src: str, dst: str, count: int = 1) -> str:
    """The notation of a move between two piles (the count only when it is not 1).

    >>> move_text("c1", "c4", 3), move_text("w", "f1")
    ('c1 c4 3', 'w f1')
    """
    if count != 1:
        return f"{src} {dst} {count}"
    return f"{src} {dst}"


@dataclass(frozen=True, slots=True)
class Record:
    """A game record: the game id, the game number and the moves in the notation.

    ``extra`` keeps any other keys of the JSON object (e.g. per-move times).
    """

    game: str
    number: int
    moves: tuple[str, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (extra keys after the three standard ones)."""
        return {"game": self.game, "number": self.number, "moves": list(self.moves), **self.extra}


def parse_record(text: str | bytes) -> Record:
    """Read a game record from JSON text; raises :class:`InvalidRecordError`.

    >>> parse_record('{"game": "klondike"}')
    Traceback (most recent call last):
    ...
    patiencekit.errors.InvalidRecordError: the game record has no "number"
    """
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise InvalidRecordError(f"the game record is not valid JSON: {e}") from None
    return record_from_json(data)


def record_from_json(data: object) -> Record:
    """Check a decoded JSON value and make a :class:`Record` of it."""
    if not isinstance(data, dict):
        raise InvalidRecordError("a game record is a JSON object with game, number and moves")
    for key in ("game", "number", "moves"):
        if key not in data:
            raise InvalidRecordError(f'the game record has no "{key}"')
    game, number, moves = data["game"], data["number"], data["moves"]
    if not isinstance(game, str):
        raise InvalidRecordError(f'"game" must be a text (a game id), not {game!r}')
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise InvalidRecordError(f'"number" must be a whole number from 0 up, not {number!r}')
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InvalidRecordError('"moves" must be a list of moves as texts, like ["c3 f", "s"]')
    extra = {k: v for k, v in data.items() if k not in ("game", "number", "moves")}
    return Record(game, number, tuple(moves), extra)


def format_record(record: Record) -> str:
    """The record as one line of JSON."""
    return json.dumps(record.to_json(), ensure_ascii=False)


# -- positions -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """A position as text knows it: game id, number, redeals used, score and piles.

    ``piles`` maps each pile label (``s``, ``w``, ``f1``, ``c1``...) to its
    cards bottom to top (card indexes) and the number face down.
    """

    game: str
    number: int
    redeals: int
    score: int
    piles: tuple[tuple[str, tuple[int, ...], int], ...]


def format_board(board: Board) -> str:
    """The board text: a header, then one pile per line, face-down cards in ``<..>``.

    >>> b = Board("klondike", 7, 0, 25, (("w", (), 0), ("c1", (0, 14), 1)))
    >>> print(format_board(b))
    klondike #7
    redeals: 0  score: 25
    w:
    c1: <AC> 2S
    >>> parse_board(format_board(b)) == b
    True
    """
    lines = [f"{board.game} #{board.number}", f"redeals: {board.redeals}  score: {board.score}"]
    for label, cards, down in board.piles:
        text = " ".join(
            f"<{card_text(c)}>" if i < down else card_text(c) for i, c in enumerate(cards)
        )
        lines.append(f"{label}: {text}".rstrip())
    return "\n".join(lines)


_HEADER = re.compile(r"^\s*([a-z0-9-]+)\s+#(\d+)\s*$")
_COUNTERS = re.compile(r"^\s*redeals:\s*(\d+)\s+score:\s*(\d+)\s*$")
_PILE = re.compile(r"^\s*([a-z]\d*):(.*)$")


def parse_board(text: str) -> Board:
    """Read a board text written by :func:`format_board`; raises :class:`InvalidRecordError`."""
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) < 2:
        raise InvalidRecordError(
            "a board text starts with 'GAME #NUMBER' and 'redeals: N  score: N'"
        )
    head = _HEADER.match(lines[0].lower())
    if not head:
        raise InvalidRecordError(f"line 1 {lines[0]!r} should be 'GAME #NUMBER'")
    counters = _COUNTERS.match(lines[1].lower())
    if not counters:
        raise InvalidRecordError(f"line 2 {lines[1]!r} should be 'redeals: N  score: N'")
    piles: list[tuple[str, tuple[int, ...], int]] = []
    for n, line in enumerate(lines[2:], start=3):
        m = _PILE.match(line.lower())
        if not m:
            raise InvalidRecordError(f"line {n} {line!r} should be 'PILE: CARDS'")
        cards: list[int] = []
        down = 0
        for token in m.group(2).split():
            hidden = token.startswith("<") and token.endswith(">")
            if hidden:
                if down != len(cards):
                    raise InvalidRecordError(
                        f"line {n}: face-down card {token} above a face-up card"
                    )
                down += 1
                token = token[1:-1]
            try:
                cards.append(parse_card_index(token))
            except InvalidCardError as e:
                raise InvalidRecordError(f"line {n}: {e}") from None
        piles.append((m.group(1), tuple(cards), down))
    return Board(
        head.group(1),
        int(head.group(2)),
        int(counters.group(1)),
        int(counters.group(2)),
        tuple(piles),
    )


def moves_text(moves: Sequence[Move]) -> list[str]:
    """Moves as texts, for a record."""
    return [str(m) for m in moves]
