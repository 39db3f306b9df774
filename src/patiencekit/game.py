"""A game being played: checked moves, unlimited undo/redo, score and clock, the player's view.

>>> import patiencekit
>>> g = patiencekit.new_game("klondike-draw1", 24)
>>> "s" in g.legal_moves, "c1 f" in g.legal_moves
(True, False)
>>> g.play("s")
Move.parse('s')
>>> g.play("c1 c2")
Traceback (most recent call last):
...
patiencekit.errors.IllegalMoveError: c1 c2: 5C cannot go on 9H: needs an 8 of ...
>>> g.undo(); g.moves
Move.parse('s')
[]
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from patiencekit.cards import Card, card_text, parse_card_index
from patiencekit.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    InvalidRecordError,
    ReplayError,
    UnknownGameError,
)
from patiencekit.games import FACTS, get_rules
from patiencekit.notation import (
    Board,
    Move,
    Record,
    format_board,
    parse_board,
    record_from_json,
)
from patiencekit.rules import Direction, GameRules, PileKind, SuitPolicy, Turn
from patiencekit.state import DRAW, TURN, EngineMove, Refusal, State, Tables, Why, tables_for

__all__ = [
    "PILE_KIND_WORDS",
    "Clock",
    "Game",
    "GameRefusal",
    "LegalMoves",
    "PileView",
    "Refused",
    "View",
    "new_game",
]

Clock = Callable[[], float]

#: time bonus on a Klondike win: max(0, 1000 - whole seconds since the deal)
TIME_BONUS_BASE = 1000

_ARTICLE = ["an", "a", "a", "a", "a", "a", "a", "an", "a", "a", "a", "a", "a"]
#: how a reason names a rank: digits for the numbers, words for ace and the court cards
_RANK_SAID = ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"]


_SUIT_SAID = ["clubs", "spades", "hearts", "diamonds"]


def _a_rank(rank: int) -> str:
    """'an 8', 'a 7', 'an ace', 'a queen'."""
    return f"{_ARTICLE[rank]} {_RANK_SAID[rank]}"


def _a_card(card: int) -> str:
    """A card a rule asks for, in words: 'a 2 of clubs', 'an ace of spades'.

    A refusal names the card a foundation needs this way, never by its text (``2C``):
    that card may be face down or in the stock, and the reason must name only cards
    the player can see (a card's text in a reason always stands for a card in sight).
    """
    return f"{_a_rank(card % 13)} of {_SUIT_SAID[card // 13]}"


class Refused(StrEnum):
    """Why the game itself refuses a move or a command, beside the rules of the position
    (:class:`~patiencekit.state.Why`): the code of a :class:`GameRefusal`. The comment says
    what the refusal's ``move`` or ``pile`` holds when it holds anything."""

    GAME_WON = "game-won"
    NO_SUCH_PILE = "no-such-pile"  #: pile: the label asked for ("h1" in Klondike)
    NO_SUCH_KIND = "no-such-kind"  #: pile: the kind asked for by a bare f or h ("hand")
    NO_FOUNDATION_TAKES = "no-foundation-takes"  #: move: (source, -1, count)
    NO_FREE_HAND_CELL = "no-free-hand-cell"
    RANKED = "ranked"  #: undo or redo in a ranked game
    NOTHING_TO_UNDO = "nothing-to-undo"
    NOTHING_TO_REDO = "nothing-to-redo"


@dataclass(frozen=True, slots=True)
class GameRefusal:
    """A refusal by the game rather than by a rule of the position (those are
    :class:`~patiencekit.state.Refusal`): an :class:`IllegalMoveError`'s ``refusal``, for
    words in the player's language.

    >>> try:
    ...     new_game("klondike", 24).undo()
    ... except IllegalMoveError as e:
    ...     print(e, e.refusal.code)
    undo: no move to take back nothing-to-undo
    """

    code: Refused
    move: EngineMove | None = None
    pile: str = ""


def new_game(
    game_id: str,
    number: int | None = None,
    *,
    clock: Clock | None = None,
    undo: bool = True,
    elapsed: float = 0.0,
) -> Game:
    """Start game ``number`` of ``game_id`` (a random number when None).

    ``clock`` returns seconds (default :func:`time.monotonic`); Klondike's
    time bonus counts from this call to the winning move. ``undo=False``
    makes a ranked game: no undo, no redo. ``elapsed`` is time already played
    (a resumed game).

    >>> new_game("patriarchs", 3).number
    3
    """
    rules = get_rules(game_id)
    if number is None:
        number = random.randrange(1, 10**9)
    return Game(rules, number, clock=clock, undo=undo, elapsed=elapsed)


@dataclass(frozen=True, slots=True)
class PileView:
    """One pile as the player may see it: ``None`` stands for a hidden card."""

    kind: PileKind
    index: int
    label: str
    cards: tuple[Card | None, ...]

    @property
    def face_down(self) -> int:
        """How many of its cards are hidden."""
        return sum(1 for c in self.cards if c is None)


@dataclass(frozen=True, slots=True)
class View:
    """The position as the player may see it: no face-down card, no stock order."""

    game: str
    number: int
    piles: tuple[PileView, ...]
    score: int | None
    redeals_left: int | None
    moves: int
    won: bool

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: piles as in ``deal --json`` but hidden cards are ``null``."""
        return {
            "game": self.game,
            "number": self.number,
            "score": self.score,
            "redeals_left": self.redeals_left,
            "moves": self.moves,
            "won": self.won,
            "piles": [
                {
                    "kind": p.kind.value,
                    "index": p.index,
                    "label": p.label,
                    "face_down": p.face_down,
                    "cards": [str(c) if c is not None else None for c in p.cards],
                }
                for p in self.piles
            ],
        }


class LegalMoves:
    """A lazy view of the legal moves: iterate, ``len()``, and ``move in legal_moves``.

    Membership accepts a :class:`Move` or its text; a bare ``f`` or ``h`` is
    legal when some foundation (hand cell) takes the card.
    """

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Move]:
        t = self._game.tables
        return (_to_move(t, m) for m in self._game.engine_moves())

    def __len__(self) -> int:
        return len(self._game.engine_moves())

    def texts(self) -> list[str]:
        """The legal moves in the notation, as ``str(move)`` gives them (cheaper than
        iterating when only the text is needed).

        >>> new_game("klondike", 24).legal_moves.texts()[-1]
        's'
        """
        t = self._game.tables
        return [t.label_of(m) for m in self._game.engine_moves()]

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except InvalidMoveError:
                return False
        if not isinstance(move, Move):
            return False
        try:
            self._game.resolve(move)
        except IllegalMoveError:
            return False
        return True

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


def _to_move(t: Tables, m: EngineMove) -> Move:
    src, dst, n = m
    if src == -1:
        return Move("s")
    if src == -2:
        return Move("t")
    return Move(t.labels[src], t.labels[dst], n)




class Game:
    """A game in play: the rules, the deal number, the position and its history.

    Use :func:`new_game` to start one. ``play`` checks and applies a move;
    ``undo`` / ``redo`` walk the history without limit (unless the game is
    ranked); ``state`` is the fast engine position for solvers.
    """

    def __init__(
        self,
        rules: GameRules,
        number: int,
        *,
        clock: Clock | None = None,
        undo: bool = True,
        elapsed: float = 0.0,
    ) -> None:
        self.rules = rules
        self.number = number
        self.tables = tables_for(rules)
        self.state = State.deal(rules, number)
        self.undo_allowed = undo
        self._clock: Clock = clock or time.monotonic
        self.started_at = self._clock() - elapsed
        self.won_at: float | None = None
        self._redo: list[EngineMove] = []
        #: moves made since the deal or the last fresh restart (:attr:`moves_made`)
        self._made = 0
        #: set up from board text (:meth:`from_board`), not dealt: ``repr`` gives the board
        self._from_board = False

    def __repr__(self) -> str:
        """Python that rebuilds an equal game: its record replayed from the deal, or, for a
        game set up from board text, that board (the position now; not its history).

        >>> g = new_game("klondike", 24)
        >>> _ = g.play("s"), g.play("c3 f")
        >>> g
        Game.from_record({'game': 'klondike', 'number': 24, 'moves': ['s', 'c3 f1']})
        >>> eval(repr(g)).board_text() == g.board_text()
        True
        >>> b = Game.from_board(g.board_text(), undo=False)
        >>> repr(b).startswith("Game.from_board('klondike #24"), eval(repr(b)).undo_allowed
        (True, False)
        >>> eval(repr(b)).board_text() == g.board_text()
        True
        """
        ranked = "" if self.undo_allowed else ", undo=False"
        try:
            registered = get_rules(self.rules.id) == self.rules
        except UnknownGameError:
            registered = False
        if not registered:
            return f"<Game {self.rules.id} #{self.number}, {len(self.moves)} moves>"
        if self._from_board:
            return f"Game.from_board({self.board_text()!r}{ranked})"
        record = {"game": self.id, "number": self.number, "moves": [str(m) for m in self.moves]}
        return f"Game.from_record({record!r}{ranked})"

    # -- reading --------------------------------------------------------------

    @property
    def id(self) -> str:
        """The game id, e.g. ``klondike``."""
        return self.rules.id

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves now (a lazy view)."""
        return LegalMoves(self)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far (undone moves are not in it)."""
        t = self.tables
        return [_to_move(t, m) for m in self.state.history()]

    @property
    def last_move(self) -> Move | None:
        """The last move played (None at the deal); ``moves[-1]`` without the whole list.

        >>> g = new_game("klondike", 24); _ = g.play("s"); g.last_move
        Move.parse('s')
        """
        last = self.state.last()
        return None if last is None else _to_move(self.tables, last)

    def is_won(self) -> bool:
        """True when the game's win condition holds."""
        return self.state.is_won()

    def engine_moves(self) -> list[EngineMove]:
        """The legal moves as engine tuples; none once the game is won."""
        return [] if self.state.is_won() else self.state.moves()

    def is_over(self, *, mode: Literal["player", "thoughtful"] = "player") -> bool:
        """True when the game is won or no move is left, decided from what the player sees.

        Turning the stock over and over is not a move that counts: the game is over
        when no other move can ever be reached by drawing and redealing. In ``player``
        mode (the default, what a platform tells the player: RULES.md, "Fair
        competition") the answer, and the time it takes, follow from :meth:`view`
        alone: it is True only if *every* way the hidden cards (face-down cards and the
        whole stock) could lie among the hidden places gives no move. ``thoughtful``
        mode walks the real stock instead (for analysis; it knows the hidden cards).

        How the player's answer is found (exact for every game here):

        - A move other than ``s`` / ``t`` now: not over. Only cards in sight can move
          (a column's last card is always face up), so this is read off the view.
        - Else nothing changes but the stock and the waste while one only draws and
          redeals (no reserve space is refilled, nothing is turned face up), so a move
          can come only from a new top card of the waste. Which cards can come there:
          while the stock holds a card, any unseen card could be the last card of the
          first turn (every stock place is hidden and any unseen card could lie in any
          of them); after a redeal (when one is left) the stock is the waste and the
          drawn cards in the order they were drawn, and the waste's own cards that then
          end a turn (every ``draw``-th card, and the last one) are seen in order. The
          game is over when none of these cards, laid on the waste as it is, would
          give a move (the engine's move generator is asked, once per distinct card).
        - Games without a stock (PatienceMax) are over when no move is left. Senior
          Wrangler's ``t`` deals out a packet of face-up cards: nothing is hidden, so
          walking its deals is a function of the view. A game with a ``t`` of that kind
          and hidden cards would be said not over (none exists).

        >>> g = new_game("klondike", 24)
        >>> g.is_over(), g.is_over(mode="thoughtful")
        (False, False)
        """
        if self.is_won():
            return True
        if mode == "thoughtful":
            return self._walk_stock_over()
        moves = self.state.moves()
        if any(m[0] >= 0 for m in moves):
            return False
        if not moves:
            return True
        t = self.tables
        if t.stock < 0:
            # ``t`` deals out the next packet (Senior Wrangler): nothing is hidden there
            if any(self._hidden_count(i) for i in range(t.pile_count)):
                return False
            return self._walk_stock_over()
        probe = self.state.copy()
        waste = probe.piles[t.waste]
        for card in self._may_come_to_the_waste():
            waste.append(card)  # as if it were drawn: would it give a move?
            gives = any(m[0] >= 0 for m in probe.moves())
            waste.pop()
            if gives:
                return False
        return True

    def _may_come_to_the_waste(self) -> list[int]:
        """The cards that, as far as the player can tell, may become the waste's top card
        by drawing and redealing alone (see :meth:`is_over`), distinct and sorted."""
        t = self.tables
        s = self.state
        waste = s.piles[t.waste]
        stock_size = len(s.piles[t.stock])
        cards: set[int] = set()
        if stock_size:
            cards.update(self._unseen())
        left = s.redeals_left()
        if left is None or left > 0:
            total = len(waste) + stock_size
            step = max(t.draw, 1)
            ends = {*range(step, total + 1, step), total}
            cards.update(waste[p - 1] for p in ends if 1 <= p <= len(waste))
        return sorted(cards)

    def _unseen(self) -> set[int]:
        """The cards the player cannot see anywhere (hidden in every copy), from the view."""
        left = [self.rules.decks] * 52
        for i, pile in enumerate(self.state.piles):
            for c in pile[self._hidden_count(i) :]:
                left[c] -= 1
        return {c for c in range(52) if left[c] > 0}

    def _walk_stock_over(self) -> bool:
        """The thoughtful answer: draw and redeal through the real stock until a move
        other than ``s`` / ``t`` appears (not over) or the stock repeats (over)."""
        if self.is_won():
            return True
        s = self.state.copy()
        unlimited = s.t.redeals is None
        seen: set[object] = set()
        while True:
            ms = s.moves()
            if not ms:
                return True
            if any(m[0] >= 0 for m in ms):
                return False
            key = (tuple(map(tuple, s.piles)), 0 if unlimited else s.redeals)
            if key in seen:
                return True
            seen.add(key)
            s.push(ms[0])

    @property
    def elapsed(self) -> float:
        """Seconds since the deal (frozen at the winning move)."""
        end = self.won_at if self.won_at is not None else self._clock()
        return end - self.started_at

    @property
    def moves_made(self) -> int:
        """The moves made since the deal (or the last ``restart(afresh=True)``): every move
        played or redone counts, and an undo does not take one back (the player's move
        counter; ``len(moves)`` is the current line).

        >>> g = new_game("klondike-draw1", 24)
        >>> _ = g.play("s"), g.undo(), g.redo(), g.play("s")
        >>> g.moves_made, len(g.moves)
        (3, 2)
        """
        return self._made

    @property
    def time_bonus(self) -> int:
        """Klondike's time bonus: paid only on a win, 1000 minus the whole seconds played."""
        if not self.rules.scored or self.won_at is None:
            return 0
        return max(0, TIME_BONUS_BASE - int(self.won_at - self.started_at))

    @property
    def base_score(self) -> int | None:
        """The running score without the time bonus (what a record replays to)."""
        return self.state.score if self.rules.scored else None

    @property
    def score(self) -> int | None:
        """The live score (Klondike), time bonus included once won; None for unscored games."""
        if not self.rules.scored:
            return None
        return self.state.score + self.time_bonus

    def card_at(self, label: str, depth: int = 0) -> Card | None:
        """The card ``depth`` places below the top of pile ``label`` (None: empty or hidden)."""
        i = self.tables.by_label[label]
        pile = self.state.piles[i]
        pos = len(pile) - 1 - depth
        if pos < 0 or pos < self._hidden_count(i):
            return None
        return Card.from_index(pile[pos])

    def _hidden_count(self, i: int) -> int:
        """How many cards of pile ``i``, from the bottom, the player cannot see: the whole
        stock, else the face-down cards."""
        pile = self.state.piles[i]
        if self.tables.kinds[i] is PileKind.STOCK:
            return len(pile)
        return min(self.state.down[i], len(pile))

    def view(self) -> View:
        """The position as the player may see it (hidden cards are ``None``)."""
        t = self.tables
        piles = []
        counters: dict[PileKind, int] = {}
        for i, kind in enumerate(t.kinds):
            counters[kind] = counters.get(kind, 0) + 1
            pile = self.state.piles[i]
            hidden = self._hidden_count(i)
            cards: tuple[Card | None, ...] = (None,) * hidden + tuple(
                Card.from_index(c) for c in pile[hidden:]
            )
            piles.append(PileView(kind, counters[kind], t.labels[i], cards))
        return View(
            game=self.id,
            number=self.number,
            piles=tuple(piles),
            score=self.score,
            redeals_left=self.state.redeals_left(),
            moves=self.state.history_length,
            won=self.is_won(),
        )

    def deal_json(self) -> dict[str, Any]:
        """The whole position (not the player's view), the ``deal --json`` shape."""
        t = self.tables
        counters: dict[PileKind, int] = {}
        piles = []
        for i, kind in enumerate(t.kinds):
            counters[kind] = counters.get(kind, 0) + 1
            pile = self.state.piles[i]
            down = len(pile) if kind is PileKind.STOCK else self.state.down[i]
            piles.append(
                {
                    "kind": kind.value,
                    "index": counters[kind],
                    "face_down": down,
                    "cards": [card_text(c) for c in pile],
                }
            )
        return {"game": self.id, "number": self.number, "piles": piles}

    def board(self) -> Board:
        """The whole position as a :class:`~patiencekit.notation.Board`."""
        t = self.tables
        s = self.state
        return Board(
            self.id,
            self.number,
            s.redeals,
            s.score,
            tuple(
                (
                    t.labels[i],
                    tuple(s.piles[i]),
                    len(s.piles[i]) if t.kinds[i] is PileKind.STOCK else s.down[i],
                )
                for i in range(t.pile_count)
            ),
        )

    def board_text(self) -> str:
        """The whole position as board text (see :func:`~patiencekit.notation.format_board`)."""
        return format_board(self.board())

    @classmethod
    def from_board(
        cls, board: Board | str, *, clock: Clock | None = None, undo: bool = True
    ) -> Game:
        """A game set up at a position given as board text (or a parsed :class:`Board`).

        The text must list every pile of the game once, hold every card of the
        game exactly as often as the decks give it, and mark face-down cards only
        at the bottom of columns (and every stock card). Raises
        :class:`InvalidRecordError` naming the problem; the history starts empty.

        >>> g = new_game("klondike-draw1", 24)
        >>> Game.from_board(g.board_text()).board_text() == g.board_text()
        True
        """
        if isinstance(board, str):
            board = parse_board(board)
        rules = get_rules(board.game)
        game = cls(rules, board.number, clock=clock, undo=undo)
        t = game.tables
        labels = [label for label, _, _ in board.piles]
        if sorted(labels) != sorted(t.labels):
            missing = sorted(set(t.labels) - set(labels))
            extra = sorted(set(labels) - set(t.labels))
            raise InvalidRecordError(
                f"the board of {rules.id} must list each of its piles once"
                + (f"; missing: {' '.join(missing)}" if missing else "")
                + (f"; not in this game: {' '.join(extra)}" if extra else "")
            )
        counts = [0] * 52
        piles: list[list[int]] = [[] for _ in t.labels]
        down = [0] * len(t.labels)
        for label, cards, face_down in board.piles:
            i = t.by_label[label]
            kind = t.kinds[i]
            if kind is PileKind.STOCK:
                if face_down not in (0, len(cards)):
                    raise InvalidRecordError("stock cards are all face down")
                face_down = 0
            elif face_down and kind is not PileKind.COLUMN:
                raise InvalidRecordError(f"{label}: only columns have face-down cards")
            elif face_down and face_down >= len(cards):  # no move turns a card face up
                raise InvalidRecordError(f"{label}: its last card must be face up")
            if kind is PileKind.FOUNDATION and len(cards) > t.f_size[i]:
                raise InvalidRecordError(f"{label}: holds at most {t.f_size[i]} cards")
            for c in cards:
                counts[c] += 1
            piles[i] = list(cards)
            down[i] = face_down
        wrong = [card_text(c) for c in range(52) if counts[c] != rules.decks]
        if wrong:
            raise InvalidRecordError(
                f"the board must hold each card {rules.decks} time(s); wrong: {' '.join(wrong[:8])}"
            )
        left = t.redeals
        if board.redeals < 0 or (left is not None and board.redeals > left):
            raise InvalidRecordError(f"redeals must be 0..{left}, not {board.redeals}")
        game.state = State(t, piles, down, board.redeals, board.score)
        game._from_board = True
        return game

    def foundation_move(self, what: str) -> Move | None:
        """The legal move sending a card to a foundation, like a double-click.

        ``what`` is a pile label (its playable card) or a card's text (found on
        top of any pile the player can play from). None when no such move is legal.

        >>> g = new_game("klondike-draw1", 24)
        >>> g.foundation_move("c3"), g.foundation_move("5c")
        (Move.parse('c3 f1'), None)
        """
        t = self.tables
        label = what.strip().lower()
        if label in t.by_label:
            sources = [t.by_label[label]]
        else:
            try:
                card = parse_card_index(what)
            except InvalidCardError:
                return None
            sources = [i for i, p in enumerate(self.state.piles) if p and p[-1] == card]
        for m in self.state.moves():
            if m[0] in sources and t.kinds[m[1]] is PileKind.FOUNDATION:
                return _to_move(t, m)
        return None

    def record(self) -> Record:
        """The game record: game id, number and the moves played."""
        return Record(self.id, self.number, tuple(str(m) for m in self.moves))

    @classmethod
    def from_record(
        cls,
        record: Record | dict[str, Any],
        *,
        clock: Clock | None = None,
        undo: bool = True,
        elapsed: float = 0.0,
    ) -> Game:
        """Replay a record from its deal (``clock``, ``undo`` and ``elapsed`` as for
        :func:`new_game`); a move that cannot be played raises :class:`ReplayError`,
        which names its position and keeps the game before it.

        >>> Game.from_record({"game": "klondike", "number": 24, "moves": ["c3 f"]}).last_move
        Move.parse('c3 f1')
        """
        if not isinstance(record, Record):
            record = record_from_json(record)
        game = new_game(record.game, record.number, clock=clock, undo=undo, elapsed=elapsed)
        for position, text in enumerate(record.moves, start=1):
            try:
                game.play(text)
            except IllegalMoveError as e:
                raise ReplayError(position, text, e.reason, game, e.refusal) from None
            except InvalidMoveError as e:
                raise ReplayError(position, text, str(e), game) from None
        return game

    # -- playing ----------------------------------------------------------------

    def resolve(self, move: Move | str) -> EngineMove:
        """The engine move for ``move``, if legal now; else :class:`IllegalMoveError`.

        A bare ``f`` becomes the first foundation (in layout order) that takes
        the card, a bare ``h`` the first free hand cell. Legality and the reason
        both come from :meth:`State.check <patiencekit.state.State.check>`.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if self.is_won():
            raise IllegalMoveError(
                str(move), "the game is won: no more moves", GameRefusal(Refused.GAME_WON)
            )
        state = self.state
        t = self.tables
        if move.src in ("s", "t"):
            m = DRAW if move.src == "s" else TURN
            refusal = state.check(m)
            if refusal is None:
                return m
            raise IllegalMoveError(move.src, self.reason(refusal), refusal)
        src = t.by_label.get(move.src)
        if src is None:
            raise IllegalMoveError(
                str(move),
                f"this game has no pile {move.src}",
                GameRefusal(Refused.NO_SUCH_PILE, pile=move.src),
            )
        if move.dst in ("f", "h"):
            kind = PileKind.FOUNDATION if move.dst == "f" else PileKind.HAND
            targets = [i for i, k in enumerate(t.kinds) if k is kind and i != src]
            if not targets:
                raise IllegalMoveError(
                    str(move),
                    f"this game has no {kind.value}",
                    GameRefusal(Refused.NO_SUCH_KIND, pile=kind.value),
                )
            reasons: dict[str, Refusal] = {}
            for dst in targets:
                refusal = state.check((src, dst, move.count))
                if refusal is None:
                    return (src, dst, move.count)
                reasons.setdefault(self.reason(refusal), refusal)
            said: Refusal | GameRefusal
            if len(reasons) == 1:
                reason, said = next(iter(reasons.items()))
            elif kind is PileKind.FOUNDATION:
                reason = f"no foundation takes {self._moving_card(src, move.count)} now"
                said = GameRefusal(Refused.NO_FOUNDATION_TAKES, (src, -1, move.count))
            else:
                reason = "the hand has no free cell"
                said = GameRefusal(Refused.NO_FREE_HAND_CELL)
            raise IllegalMoveError(str(move), reason, said)
        target = t.by_label.get(move.dst)
        if target is None:
            raise IllegalMoveError(
                str(move),
                f"this game has no pile {move.dst}",
                GameRefusal(Refused.NO_SUCH_PILE, pile=move.dst),
            )
        m = (src, target, move.count)
        refusal = state.check(m)
        if refusal is None:
            return m
        raise IllegalMoveError(str(move), self.reason(refusal), refusal)

    def verify(self, move: Move | str) -> None:
        """Raise :class:`IllegalMoveError` (or :class:`InvalidMoveError`) with the reason, if
        ``move`` is not legal now; do nothing otherwise."""
        self.resolve(move)

    def refusal(self, move: Move | str) -> str | None:
        """Why ``move`` would be refused now, or None when it is legal.

        The reason is the one :meth:`play` raises (:class:`IllegalMoveError`'s
        ``reason``): it keeps the rule's text and names only cards the player can see.
        A card that lies hidden is said by where it is ("a face-down card", "a stock
        card"), and a card a rule asks for by rank and suit in words ("it needs a 2 of
        clubs"), never by its text, so that every card text in a reason is a card in
        the view. A text that is not a move raises :class:`InvalidMoveError`.

        >>> g = new_game("klondike-draw1", 24)
        >>> g.refusal("c3 f3"), g.refusal("c3 f")
        ('AC cannot start f3: it takes an ace of hearts', None)
        >>> g.refusal("c1 c2")
        '5C cannot go on 9H: needs an 8 of the other colour'
        """
        try:
            self.resolve(move)
        except IllegalMoveError as e:
            return e.reason
        return None

    def can_play(self, move: Move | str) -> bool:
        """True if ``move`` is legal now."""
        try:
            self.resolve(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        return True

    def play(self, move: Move | str) -> Move:
        """Check and apply a move (a :class:`Move` or its text); returns the move as played,
        with concrete piles. Raises :class:`InvalidMoveError` for a text that is not a move
        and :class:`IllegalMoveError` naming the move and the reason; the game is unchanged."""
        m = self.resolve(move)
        self._apply(m)
        self._redo.clear()
        self._made += 1
        return _to_move(self.tables, m)

    def _apply(self, m: EngineMove) -> None:
        self.state.push(m)
        if self.won_at is None and self.state.is_won():
            self.won_at = self._clock()

    @property
    def can_undo(self) -> bool:
        """True if there is a move to take back (and undo is allowed)."""
        return self.undo_allowed and self.state.history_length > 0

    @property
    def can_redo(self) -> bool:
        """True if there is an undone move to play again."""
        return self.undo_allowed and bool(self._redo)

    def undo(self) -> Move:
        """Take back the last move, restoring the position and score exactly."""
        if not self.undo_allowed:
            raise IllegalMoveError(
                "undo",
                "this is a ranked game, moves cannot be taken back",
                GameRefusal(Refused.RANKED),
            )
        if not self.state.history_length:
            raise IllegalMoveError(
                "undo", "no move to take back", GameRefusal(Refused.NOTHING_TO_UNDO)
            )
        m = self.state.pop()
        if self.won_at is not None and not self.state.is_won():
            self.won_at = None
        self._redo.append(m)
        return _to_move(self.tables, m)

    def redo(self) -> Move:
        """Play again the last move taken back."""
        if not self.undo_allowed:
            raise IllegalMoveError(
                "redo",
                "this is a ranked game, moves cannot be taken back",
                GameRefusal(Refused.RANKED),
            )
        if not self._redo:
            raise IllegalMoveError(
                "redo", "no move to play again", GameRefusal(Refused.NOTHING_TO_REDO)
            )
        m = self._redo.pop()
        self._apply(m)
        self._made += 1
        return _to_move(self.tables, m)

    def restart(self, *, afresh: bool = False) -> None:
        """Take every move back (the same deal from the start); they can be redone.

        ``afresh``: a new attempt at the deal, as the web platform's Restart is: the clock
        (so Klondike's time bonus) and :attr:`moves_made` start again from now too.

        >>> now = [100.0]
        >>> g = new_game("klondike-draw1", 24, clock=lambda: now[0])
        >>> _ = g.play("s"); now[0] = 160.0
        >>> g.restart(afresh=True); now[0] = 165.0
        >>> g.elapsed, g.moves_made, g.can_redo
        (5.0, 0, True)
        """
        while self.can_undo:
            self.undo()
        if afresh:
            self.started_at = self._clock()
            self._made = 0

    # -- words ------------------------------------------------------------------------

    def describe(self, move: Move | str) -> str:
        """A legal move in English words for players, not the notation.

        The piles are said in the game's own words (its registry facts' ``pile_words``,
        e.g. Royal Cotillion's "left pile"), and ``s`` / ``t`` as what they do in this
        game (draw, turn the waste over, deal out the next packet). Only cards in sight are
        named: the moving card (face up, as every card that can move) and the card it goes
        on; never a face-down or stock card. A move that is not legal now raises what
        :meth:`play` raises (:class:`IllegalMoveError`, or :class:`InvalidMoveError` for a
        text that is not a move); nothing changes either way.

        >>> g = new_game("klondike-draw1", 24)
        >>> g.describe("c3 f"), g.describe("s")
        ('Move the A♣ from column 3 to its foundation', 'Draw a card from the stock')
        >>> g.describe("c1 c2")
        Traceback (most recent call last):
        ...
        patiencekit.errors.IllegalMoveError: c1 c2: 5C cannot go on 9H: needs an 8 of ...
        """
        src, _, n = m = self.resolve(move)
        if src == DRAW[0]:
            return self._draw_words()
        if src == TURN[0]:
            return self._turn_words()
        pile = self.state.piles[src]
        cards = f"the {self._seen_card(src, len(pile) - n)}"
        if n > 1:
            cards += f" and {n - 1} more card{'s' if n > 2 else ''}"
        return f"Move {cards} from {self._pile_name(src)} {self._to_words(m)}"

    def _pile_word(self, kind: PileKind) -> str:
        """The game's word for piles of ``kind`` (its facts'), else the usual one."""
        facts = FACTS.get(self.id)
        word = facts.pile_word(kind) if facts is not None else None
        return word or PILE_KIND_WORDS[kind]

    def _pile_name(self, i: int) -> str:
        """Pile ``i`` for a player: "column 3", "hand cell 2", "the waste"."""
        kind = self.tables.kinds[i]
        word = self._pile_word(kind)
        if kind in (PileKind.STOCK, PileKind.WASTE):
            return f"the {word}"
        return f"{word} {self._pile_number(i)}"

    def _pile_number(self, i: int) -> int:
        """Pile ``i``'s number among the piles of its kind, from 1 (``c3``: 3)."""
        kind = self.tables.kinds[i]
        return sum(1 for k in self.tables.kinds[:i] if k is kind) + 1

    def _seen_card(self, i: int, pos: int) -> str:
        """The card at place ``pos`` of pile ``i`` as a player reads it (``7♥``, ``10♠``),
        or only where it lies when the player cannot see it."""
        if pos >= self._hidden_count(i):
            text = Card.from_index(self.state.piles[i][pos]).symbol_text
            return "10" + text[1:] if text[0] == "T" else text
        return "stock card" if self.tables.kinds[i] is PileKind.STOCK else "face-down card"

    def _to_words(self, move: EngineMove) -> str:
        """Where a card move goes, in words: "onto the 8♠ in column 4", "to its
        foundation", "to the empty column 2"."""
        src, dst, n = move
        t = self.tables
        kind = t.kinds[dst]
        word = self._pile_word(kind)
        number = self._pile_number(dst)
        dpile = self.state.piles[dst]
        if kind is PileKind.FOUNDATION:
            takers = [f for f in t.foundations if self.state.check((src, f, n)) is None]
            suited = all(f.suit is not None for f in self.rules.foundations)
            if suited and takers == [dst] and t.kinds[src] is not PileKind.FOUNDATION:
                return f"to its {word}"
        if kind is PileKind.HAND:  # a cell holds one card: it is free
            return f"to {word} {number}"
        if not dpile:
            return f"to the empty {word} {number}"
        if self._hidden_count(dst) >= len(dpile):
            return f"onto {word} {number}"
        top = self._seen_card(dst, len(dpile) - 1)
        return f"onto the {top} {'in' if kind is PileKind.COLUMN else 'on'} {word} {number}"

    def _draw_words(self) -> str:
        """``s`` in words: "Draw 3 cards from the stock", "Draw the last card from the
        stock" (the player sees how many cards the stock holds, not which)."""
        t = self.tables
        left = len(self.state.piles[t.stock])
        n = min(t.draw, left)
        if n == 1:
            what = "a card" if left > 1 else "the last card"
        else:
            what = f"{n} cards" if left > n else f"the last {n} cards"
        return f"Draw {what} from the {self._pile_word(PileKind.STOCK)}"

    def _turn_words(self) -> str:
        """``t`` in words, as this game has it: the waste turned over to make the stock
        again, or (Senior Wrangler) the next packet dealt out."""
        t = self.tables
        s = self.state
        if t.turn is Turn.NEXT_PACKET:
            word = self._pile_word(PileKind.PACKET)
            return f"Deal out {word} {s.redeals + 1} across the {word}s"
        waste, stock = self._pile_word(PileKind.WASTE), self._pile_word(PileKind.STOCK)
        said = f"Turn the {waste} over to make the {stock} again"
        left = s.redeals_left()
        if left == 1:
            return f"{said}, for the last time"
        if left is not None:
            more = left - 1
            return f"{said} ({more} more turn{'s' if more > 1 else ''} left after this)"
        return said

    # -- reasons ------------------------------------------------------------------

    def _named(self, i: int, pos: int) -> str:
        """The card at place ``pos`` of pile ``i`` (from the bottom), as a reason names it:
        its text if the player can see it, else only where it lies."""
        if pos >= self._hidden_count(i):
            return card_text(self.state.piles[i][pos])
        if self.tables.kinds[i] is PileKind.STOCK:
            return "a stock card"
        return "a face-down card"

    def _moving_card(self, src: int, count: int) -> str:
        pile = self.state.piles[src]
        if len(pile) < count or count < 1:
            return f"the card {count} from the end of {self.tables.labels[src]}"
        return self._named(src, len(pile) - count)

    def reason(self, refusal: Refusal) -> str:
        """A :class:`~patiencekit.state.Refusal` (from :meth:`State.check
        <patiencekit.state.State.check>`) in words, as :meth:`play` and :meth:`refusal` give
        it: the rule, naming only cards the player can see.

        >>> g = new_game("klondike-draw1", 24)
        >>> c1, c2 = g.tables.by_label["c1"], g.tables.by_label["c2"]
        >>> g.reason(g.state.check((c1, c2, 1)))
        '5C cannot go on 9H: needs an 8 of the other colour'
        """
        t = self.tables
        piles = self.state.piles
        code = refusal.code
        src, dst, n = refusal.move
        words = _FIXED.get(code)
        if words is not None:
            return words
        if src < 0:
            return self._stock_reason(refusal)
        sl, dl = t.labels[src], t.labels[dst]
        if code is Why.SOURCE_EMPTY:
            return f"{sl} is empty"
        if code is Why.STOCK_CARDS_ARE_DRAWN:
            return "stock cards are turned onto the waste with s"
        if code is Why.BASE_CARD_STAYS:
            return f"the base card {self._named(src, 0)} never leaves {sl}"
        if code is Why.ONE_CARD_FROM_PILE:
            return f"only one card at a time moves from {sl}"
        if code is Why.TOO_FEW_FACE_UP:
            up = refusal.params[0]
            return f"{sl} has only {up} face-up card{'s' if up != 1 else ''}"
        if code is Why.NOT_A_STRING:
            return f"the last {n} cards of {sl} are not a string ({_string_said(t)})"
        if code is Why.FACE_DOWN:
            return f"the last card of {sl} is face down"
        if code is Why.COLUMN_TO_FOUNDATIONS_ONLY:
            return f"cards from {sl} play only to the foundations"
        if code is Why.NOT_BUILT_ON:
            return f"nothing is built on {dl} in this game"
        if code is Why.FOUNDATION_COMPLETE:
            return f"{dl} is complete"
        if code is Why.HAND_FULL:
            return f"the hand is full ({len(t.hand)} cards)"
        if code is Why.HAND_CELL_TAKEN:
            return f"{dl} is taken"
        if code is Why.RESERVE_TAKEN:
            return f"{dl} is taken: reserve cards are never built on"
        if code is Why.NOTHING_GOES_ON_PILE:
            return f"nothing can be put on the {t.kinds[dst].value}"
        # the rules about the moving card (in sight: the checks before made sure of it)
        ct = self._named(src, len(piles[src]) - n)
        dpile = piles[dst]
        if code is Why.EMPTY_COLUMN_WANTS:
            takes = [c for c in range(13) if t.empty_takes[c]]
            said = " or ".join(_a_rank(r) for r in takes)
            return f"{ct} cannot go on the empty column {dl}: it takes only {said}" + (
                f" or a string headed by {said}" if t.column_strings else ""
            )
        tt = self._named(dst, len(dpile) - 1) if dpile else dl
        if code is Why.NOTHING_GOES_ON_CARD:
            return f"{ct} cannot go on {tt}: nothing goes on {_a_rank(dpile[-1] % 13)}"
        if code is Why.DOES_NOT_FIT:
            return f"{ct} cannot go on {tt}: needs {_build_wants(t, dpile[-1])}"
        acc = t.f_base[dst] if not dpile else t.f_next[dst][dpile[-1]]
        if code is Why.FOUNDATION_DOES_NOT_START:
            return f"{ct} cannot start {dl}: it takes {_alternatives(acc)}"
        if code is Why.FOUNDATION_DOES_NOT_TAKE:
            return f"{ct} cannot go on {dl} (top {tt}): it needs {_alternatives(acc)}"
        raise ValueError(f"no words for {refusal!r}")  # pragma: no cover - every code is said

    def _stock_reason(self, refusal: Refusal) -> str:
        """The words for a refused ``s`` or ``t``."""
        t = self.tables
        code = refusal.code
        if code is Why.NO_STOCK:
            if refusal.move == DRAW and t.turn is Turn.NEXT_PACKET:
                return "this game has no stock: t deals out the next packet"
            return "this game has no stock"
        if code is Why.ALL_PACKETS_DEALT:
            return f"all {refusal.params[0]} packets have been dealt out"
        if code is Why.PACKET_CARD_PLAYS:
            src, dst, n = refusal.params
            return (
                "the next packet is dealt out only when no packet card can be played "
                f"({t.label_of((src, dst, n))} is possible)"
            )
        if code is Why.NO_REDEAL_LEFT:
            return f"no redeal is left (this game allows {refusal.params[0]})"
        raise ValueError(f"no words for {refusal!r}")  # pragma: no cover - every code is said


#: the usual words for each kind of pile (a game's facts may have their own: ``pile_words``),
#: as the pages say them (``static/js/layout.js``); the English of ``patiencekit.words`` too
PILE_KIND_WORDS: dict[PileKind, str] = {
    PileKind.STOCK: "stock",
    PileKind.WASTE: "waste",
    PileKind.FOUNDATION: "foundation",
    PileKind.COLUMN: "column",
    PileKind.HAND: "hand cell",
    PileKind.RESERVE: "reserve",
    PileKind.PACKET: "packet",
    PileKind.INDEX: "index card",
}

#: the words of the refusals that need no card, pile or number
_FIXED: dict[Why, str] = {
    Why.SAME_PILE: "a card cannot move onto its own pile",
    Why.INDEX_CARDS_STAY: "index cards never move",
    Why.FOUNDATION_KEEPS_ALL: "cards never leave the foundations in this game",
    Why.KING_STAYS: "a king never leaves its foundation",
    Why.FOUNDATION_TO_FOUNDATIONS_ONLY: (
        "foundation cards go only to other foundations in this game"
    ),
    Why.FOUNDATION_TO_COLUMNS_ONLY: "foundation cards go back only to the columns in this game",
    Why.PACKET_TO_FOUNDATIONS_ONLY: "packet cards play only to the foundations",
    Why.RESERVE_TO_FOUNDATIONS_ONLY: "reserve cards play only to the foundations",
    Why.HAND_NOT_TO_COLUMNS: "hand cards cannot go to a column here",
    Why.EMPTY_COLUMN_TAKES_NOTHING: "nothing may fill an empty column",
    Why.ONE_CARD_TO_FOUNDATION: "only one card at a time goes to a foundation",
    Why.HAND_FROM_COLUMNS_ONLY: "cards go into the hand only from a column",
    Why.ONE_CARD_TO_HAND: "only one card at a time goes into the hand",
    Why.RESERVE_FROM_WASTE_ONLY: "an empty reserve space takes only the waste's top card",
    Why.STOCK_EMPTY: "the stock is empty: turn the waste over with t",
    Why.STOCK_AND_WASTE_EMPTY: "the stock and the waste are empty",
    Why.NO_REDEAL_FOR_STOCK: "the stock is empty and no redeal is left",
    Why.STOCK_NOT_EMPTY: (
        "the stock still has cards: the waste is turned over only when it is empty"
    ),
    Why.WASTE_EMPTY: "the waste is empty: nothing to turn over",
}

_SUITS_SAID = {
    SuitPolicy.ALTERNATE_COLOUR: "of the other colour",
    SuitPolicy.SAME_SUIT: "of the same suit",
    SuitPolicy.SAME_COLOUR: "of the same colour",
    SuitPolicy.ANY_SUIT: "of any suit",
}
_STEP_SAID = [
    "", "one rank", "two ranks", "three ranks", "four ranks", "five ranks", "six ranks",
    "seven ranks", "eight ranks", "nine ranks", "ten ranks", "eleven ranks", "twelve ranks",
]
_DIRECTION_SAID = {
    Direction.DOWN: "lower",
    Direction.UP: "higher",
    Direction.EITHER: "higher or lower",
}


def _build_wants(t: Tables, top: int) -> str:
    """What a column's top card takes, by the game's build rule: 'an 8 of the other colour'."""
    ranks = t.build.ranks_on(top % 13)
    return " or ".join(_a_rank(r) for r in ranks) + " " + _SUITS_SAID[t.build.suits]


def _string_said(t: Tables) -> str:
    """What makes a string, by the game's build rule: 'each one rank lower and of the other
    colour'."""
    b = t.build
    said = f"each {_STEP_SAID[b.step]} {_DIRECTION_SAID.get(b.direction, '')}".rstrip()
    if b.suits is not SuitPolicy.ANY_SUIT:
        said += " and " + _SUITS_SAID[b.suits]
    return said


def _alternatives(cards: tuple[int, ...]) -> str:
    """'a 6 of hearts' or 'a 6 of any suit' for a set of acceptable cards, in words (see
    :func:`_a_card`)."""
    if len(cards) == 1:
        return _a_card(cards[0])
    ranks = {c % 13 for c in cards}
    if len(ranks) == 1:
        r = ranks.pop()
        return _a_rank(r) + " of any suit"
    return " or ".join(_a_card(c) for c in cards)
