"""The terminal face of a game: the board drawn with Rich, and the interactive loop.

Nothing here reads or writes files: :class:`PlaySession` is given a function
that reads a line (``input`` by default, so it runs on a terminal as well as on
piped stdin) and, optionally, a function that saves the game after each change.

It speaks the player's language (:data:`patiencekit.words.LANGUAGES`: ``lang``, which
:func:`terminal_language` reads from the locale): refusals, hints, a text that is not a
move, the help, the game's name and rules (:mod:`patiencekit.game_texts`) and every message;
the moves stay in the notation. Its own sentences are in the ``terminal``
catalogues beside the ``words`` ones (``locale/<lang>/LC_MESSAGES/terminal.po``).

>>> import patiencekit
>>> game = patiencekit.new_game("klondike", 24)
>>> for line in board_text(game, colour=False).splitlines()[3:8]:
...     print(line)
s ░░ 24   w ··          f1 ··   f2 ··   f3 ··   f4 ··
<BLANKLINE>
c1   c2   c3   c4   c5   c6   c7
5♣   ░░   ░░   ░░   ░░   ░░   ░░
     9♥   ░░   ░░   ░░   ░░   ░░
"""

from __future__ import annotations

import io
import math
import os
import random
from collections.abc import Callable, Mapping, Sequence

from rich.console import Console
from rich.text import Text

from patiencekit import game_texts
from patiencekit.cards import Card, parse_card_index
from patiencekit.errors import IllegalMoveError, InvalidCardError, InvalidMoveError, PatienceError
from patiencekit.game import Game, GameRefusal, PileView, Refused, new_game
from patiencekit.i18n import LANGUAGES
from patiencekit.notation import Board, Move
from patiencekit.rules import PileKind, Turn
from patiencekit.solver import autocomplete, hint
from patiencekit.words import card_name, move_words, notation_words, refusal_words, translate

__all__ = [
    "BACK",
    "EMPTY",
    "PlaySession",
    "board_lines",
    "board_text",
    "card_cell",
    "deal_text_lines",
    "format_time",
    "random_number",
    "status_line",
    "terminal_language",
]

#: a face-down card
BACK = "░░"
#: an empty pile
EMPTY = "··"
#: the width of the screen the board is laid out for
SCREEN_WIDTH = 80

_RED = "bold red"
_BLACK = "bold"
_BACK_STYLE = "blue"
_DIM = "dim"
_COLUMN_WIDTH = 5
_GAP = "   "

#: kinds of pile drawn as a row of labelled cells, in the order they are drawn
_CELL_KINDS = (PileKind.HAND, PileKind.RESERVE, PileKind.PACKET, PileKind.INDEX)

#: the catalogues' domain of the terminal's own sentences
DOMAIN = "terminal"

#: the commands of the play loop (in English; :meth:`PlaySession.show_help` gives them in
#: the player's language)
HELP = """\
Moves (case and spaces don't matter):
  c3 f        the lowest card of column 3 to a foundation (f2: to foundation 2)
  w c5        the waste's top card to column 5
  c1 c4 3     a string of 3 cards from column 1 to column 4
  s           turn cards from the stock onto the waste
  t           turn the waste over (Senior Wrangler: deal out the next packet)
  7h  or  c3  alone: send that card, or that pile's card, to a foundation if it can go
Piles: c1.. columns, f1.. foundations, h1.. hand, r1.. reserve, p1.. packets, w waste.
Commands:
  ?           list the legal moves          b        show the board again
  u / r       undo / redo                   restart  take every move back
  n [N]       a new deal (number N)         h, help  this help
  hint        a hint from the solver (it sees only what you see)
  a, auto     finish the game when what you see proves the win (no hidden card
              left, or in Klondike no face-down card)
  q           quit"""


def _tr(lang: str, message: str, **params: object) -> str:
    """The terminal's ``message`` in ``lang`` (the tests find every message given to this
    function, by Babel's extraction of its second argument, and to ``PlaySession._t``)."""
    return translate(message, lang, domain=DOMAIN).format_map(params)


def _capital(text: str) -> str:
    """``text`` with a capital first letter (a card's name starts in small letters)."""
    return text[:1].upper() + text[1:]


def terminal_language(environ: Mapping[str, str] | None = None) -> str:
    """The player's language from the locale, as gettext finds it: ``LC_ALL``, else
    ``LC_MESSAGES``, else ``LANG`` (``nl_NL.UTF-8`` is Dutch), with GNU's ``LANGUAGE``
    list (``nl:en``) first unless the locale is C; English when none names a language of
    :data:`~patiencekit.words.LANGUAGES`.

    >>> terminal_language({"LANG": "nl_NL.UTF-8"}), terminal_language({"LC_ALL": "es_ES"})
    ('nl', 'es')
    >>> terminal_language({"LANG": "fr_FR.UTF-8"}), terminal_language({"LANG": "C.UTF-8"})
    ('en', 'en')
    >>> terminal_language({"LANGUAGE": "fr:es", "LANG": "nl_NL.UTF-8", "LC_ALL": ""})
    'es'
    """
    env = os.environ if environ is None else environ
    locale = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    if locale.split(".")[0] in ("", "C", "POSIX"):
        return "en"
    for name in [*env.get("LANGUAGE", "").split(":"), locale]:
        primary = name.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
        if primary in LANGUAGES:
            return primary
    return "en"


def random_number() -> int:
    """A random game number, as :func:`patiencekit.new_game` picks one."""
    return random.randrange(1, 10**9)


def format_time(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) for a number of seconds.

    >>> format_time(65.9), format_time(3725)
    ('1:05', '1:02:05')
    """
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02}:{secs:02}"
    return f"{minutes}:{secs:02}"


def card_cell(card: Card | None) -> Text:
    """A card as two coloured characters (``7♥`` in red), or the back of a card."""
    if card is None:
        return Text(BACK, style=_BACK_STYLE)
    return Text(card.symbol_text, style=_RED if card.is_red else _BLACK)


def _empty() -> Text:
    return Text(EMPTY, style=_DIM)


def _top(pile: PileView) -> Text:
    return card_cell(pile.cards[-1]) if pile.cards else _empty()


def _cell(pile: PileView, label_width: int) -> Text:
    """``f1 K♥``; a packet also shows how many cards it holds: ``p1 K♥ (12)``."""
    cell = Text()
    cell.append(pile.label.ljust(label_width) + " ", style=_DIM)
    cell.append_text(_top(pile))
    if pile.kind is PileKind.PACKET:
        cell.append(f" ({len(pile.cards)})".ljust(5), style=_DIM)
    return cell


def _cell_rows(piles: Sequence[PileView], indent: int = 0) -> list[Text]:
    """Piles as labelled cells, in rows of equal length that fit the screen."""
    if not piles:
        return []
    label_width = max(len(p.label) for p in piles)
    cells = [_cell(p, label_width) for p in piles]
    width = max(c.cell_len for c in cells) + len(_GAP)
    fit = max(1, (SCREEN_WIDTH - indent) // width)
    rows = math.ceil(len(cells) / fit)
    per_row = math.ceil(len(cells) / rows)
    lines = []
    for start in range(0, len(cells), per_row):
        line = Text(" " * indent)
        row = cells[start : start + per_row]
        for n, cell in enumerate(row):
            line.append_text(cell)
            if n < len(row) - 1:
                line.append(" " * (width - cell.cell_len))
        lines.append(line)
    return lines


def _stock_and_waste(game: Game, stock: PileView | None, waste: PileView | None) -> Text:
    """``s ░░ 24   w 3♥ 5♠ 7♦ (12)``: the stock as a count, the waste fanned."""
    line = Text()
    if stock is not None:
        line.append("s ", style=_DIM)
        if stock.cards:
            line.append_text(card_cell(None))
            line.append(f" {len(stock.cards)}")
        else:
            line.append_text(_empty())
            line.append(" 0")
    if waste is not None:
        line.append(_GAP + "w ", style=_DIM)
        draw = game.rules.stock.draw if game.rules.stock is not None else 1
        shown = waste.cards[-max(draw, 1) :]
        if not shown:
            line.append_text(_empty())
        for n, card in enumerate(shown):
            if n:
                line.append(" ")
            line.append_text(card_cell(card))
        if len(waste.cards) > len(shown):
            line.append(f" ({len(waste.cards)})", style=_DIM)
    return line


def _columns(piles: Sequence[PileView]) -> list[Text]:
    """Columns printed vertically, side by side, each headed by its label."""
    header = Text()
    for p in piles:
        header.append(p.label.ljust(_COLUMN_WIDTH), style=_DIM)
    lines = [header]
    depth = max([len(p.cards) for p in piles] + [1])
    for row in range(depth):
        line = Text()
        for p in piles:
            if row < len(p.cards):
                line.append_text(card_cell(p.cards[row]))
            elif row == 0:
                line.append_text(_empty())
            else:
                line.append("  ")
            line.append(" " * (_COLUMN_WIDTH - 2))
        line.rstrip()
        lines.append(line)
    return lines


def status_line(game: Game, lang: str = "en") -> Text:
    """Score (Klondike), time, moves and what is left of the stock's turns, in ``lang``.

    >>> import patiencekit
    >>> print(status_line(patiencekit.new_game("patriarchs", 3), "nl"))
    Tijd 0:00   Zetten 0   Keer omdraaien over 1
    """
    parts: list[str] = []
    if game.score is not None:
        parts.append(_tr(lang, "Score {score}", score=game.score))
    parts.append(_tr(lang, "Time {time}", time=format_time(game.elapsed)))
    parts.append(_tr(lang, "Moves {moves}", moves=len(game.moves)))
    left = game.state.redeals_left()
    stock = game.rules.stock
    if stock is not None and left is not None:
        if stock.turn is Turn.NEXT_PACKET:
            parts.append(_tr(lang, "Packets left {count}", count=left))
        else:
            parts.append(_tr(lang, "Redeals left {count}", count=left))
    return Text("   ".join(parts), style="cyan")


def board_lines(game: Game, lang: str = "en") -> list[Text]:
    """The board as the player sees it: a header, stock and waste, foundations,
    the hand, reserve, packets and index cards, then the columns (the game's name and the
    status line in ``lang``; the piles are labelled in the notation)."""
    view = game.view()
    by_kind: dict[PileKind, list[PileView]] = {}
    for p in view.piles:
        by_kind.setdefault(p.kind, []).append(p)
    header = Text()
    header.append(game_texts.name(game.rules, lang), style="bold")
    header.append(f"  #{game.number}", style=_DIM)
    lines = [header, status_line(game, lang), Text()]

    stock = next(iter(by_kind.get(PileKind.STOCK, [])), None)
    waste = next(iter(by_kind.get(PileKind.WASTE, [])), None)
    foundations = _cell_rows(by_kind.get(PileKind.FOUNDATION, []))
    if stock is not None or waste is not None:
        top = _stock_and_waste(game, stock, waste)
        pad = 24
        if len(foundations) == 1 and top.cell_len < pad and pad + foundations[0].cell_len <= 80:
            top.append(" " * (pad - top.cell_len))
            top.append_text(foundations.pop())
        lines.append(top)
    lines.extend(foundations)
    for kind in _CELL_KINDS:
        lines.extend(_cell_rows(by_kind.get(kind, [])))
    columns = by_kind.get(PileKind.COLUMN, [])
    if columns:
        lines.append(Text())
        lines.extend(_columns(columns))
    for line in lines:
        line.rstrip()
    return lines


def board_text(game: Game, *, colour: bool = True) -> str:
    """The board as one string (with ANSI colours when ``colour``), e.g. for a doctest."""
    out = io.StringIO()
    console = Console(
        file=out, width=SCREEN_WIDTH, force_terminal=colour,
        color_system="standard" if colour else None, no_color=not colour, highlight=False,
    )
    for line in board_lines(game):
        console.print(line, soft_wrap=True)
    return out.getvalue().rstrip("\n")


def deal_text_lines(board: Board) -> list[Text]:
    """The board text of :func:`patiencekit.notation.format_board`, coloured.

    Without colour it is exactly the board text: one pile per line, face-down
    cards in ``<..>``.
    """
    lines = [
        Text(f"{board.game} #{board.number}", style="bold"),
        Text(f"redeals: {board.redeals}  score: {board.score}", style=_DIM),
    ]
    for label, cards, down in board.piles:
        line = Text()
        line.append(f"{label}:", style=_DIM)
        for i, c in enumerate(cards):
            card = Card.from_index(c)
            style = _RED if card.is_red else _BLACK
            if i < down:
                line.append(" ")
                line.append(f"<{card}>", style=f"{style} dim")
            else:
                line.append(" ")
                line.append(str(card), style=style)
        lines.append(line)
    return lines


class PlaySession:
    """An interactive game: draw the board, read a command, answer, repeat.

    ``read`` is called with the prompt and returns a line (``input`` by
    default); ``EOFError`` or ``KeyboardInterrupt`` from it ends the session.
    ``save`` (optional) is called with the game after every change and on quit.
    ``echo`` repeats each command after the prompt, for transcripts of piped
    input; ``clear`` clears the screen before the board is drawn again. ``lang`` is the
    language it speaks (one of :data:`~patiencekit.words.LANGUAGES`).
    """

    def __init__(
        self,
        game: Game,
        console: Console,
        *,
        read: Callable[[str], str] = input,
        save: Callable[[Game], str] | None = None,
        echo: bool = False,
        clear: bool = False,
        lang: str = "en",
    ) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"no words in {lang!r}: the languages are {', '.join(LANGUAGES)}")
        self.lang = lang
        self.game = game
        self.console = console
        self._read = read
        self._save = save
        self._echo = echo
        self._clear = clear

    # -- output ---------------------------------------------------------------

    def say(self, text: str, style: str = "") -> None:
        """Print a message (never taken as markup, never wrapped)."""
        self.console.print(Text(text, style=style), soft_wrap=True)

    def error(self, text: str) -> None:
        """Print a refusal: the game is unchanged."""
        self.say(text, "yellow")

    def _t(self, message: str, **params: object) -> str:
        """``message`` in the session's language."""
        return _tr(self.lang, message, **params)

    def refused(self, error: IllegalMoveError) -> None:
        """Print a refused move or command, in words: "Not allowed (c1 c2): The five of
        clubs can't go on the nine of hearts: it needs a black eight." """
        reason = refusal_words(self.game, error, self.lang)
        self.error(self._t("Not allowed ({move}): {reason}", move=error.move, reason=reason))

    def show_board(self) -> None:
        """Draw the board."""
        if self._clear:
            self.console.clear()
        for line in board_lines(self.game, self.lang):
            self.console.print(line, soft_wrap=True)

    # -- the loop ---------------------------------------------------------------

    def run(self) -> int:
        """Play until the player quits or the input ends; returns the exit status (0)."""
        self.show_board()
        self.say(
            self._t(
                "Game number {number}. Type a move like 'c3 f', 'w c5' or 's'; '?' lists the "
                "legal moves, 'h' shows the help, 'q' quits.",
                number=self.game.number,
            ),
            _DIM,
        )
        self._announce_end()
        while True:
            try:
                line = self._read("> ")
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                self.quit()
                return 0
            if self._echo:
                self.console.print(Text(line), soft_wrap=True)
            if not self.handle(line):
                return 0

    def handle(self, line: str) -> bool:
        """Carry out one command; False when the player quits."""
        words = line.strip().lower().split()
        if not words:
            self.show_board()
            return True
        command, args = words[0], words[1:]
        if command in ("q", "quit", "exit"):
            self.quit()
            return False
        if command in ("h", "help") and not args:
            self.show_help()
        elif command in ("?", "moves") and not args:
            self.show_moves()
        elif command in ("b", "board") and not args:
            self.show_board()
        elif command in ("u", "undo") and not args:
            self._undo_or_redo(undo=True)
        elif command in ("r", "redo") and not args:
            self._undo_or_redo(undo=False)
        elif command == "restart" and not args:
            self._restart()
        elif command == "hint" and not args:
            self.show_hint()
        elif command in ("a", "auto") and not args:
            self.autocomplete()
        elif command in ("n", "new") and len(args) <= 1:
            self.new_deal(args[0] if args else None)
        else:
            self.play(" ".join(words))
        return True

    # -- commands -------------------------------------------------------------------

    def quit(self) -> None:
        """Save (when saving) and say how to come back to this deal."""
        game = self.game
        where = self._do_save()
        if where is not None:
            self.say(
                self._t(
                    "Saved to {where}. Resume with: patiencekit play --load {where}", where=where
                )
            )
        else:
            self.say(
                self._t(
                    "Bye. Play this deal again with: patiencekit play {game} --number {number}",
                    game=game.id,
                    number=game.number,
                )
            )

    def show_help(self) -> None:
        """The commands and the game's rules (in sections, each with its heading)."""
        self.say(self._t(HELP))
        self.say("")
        self.say(game_texts.name(self.game.rules, self.lang), "bold")
        for section in game_texts.rules_sections(self.game.rules, self.lang):
            self.say(section["heading"], _DIM)
            self.console.print(Text(section["text"]))  # wrapped to the screen

    def show_moves(self) -> None:
        """List the legal moves, each with the card it moves."""
        moves = list(self.game.legal_moves)
        if not moves:
            self.say(self._t("No legal moves."), "yellow")
            return
        line = Text(self._t("Legal moves ({count}): ", count=len(moves)))
        for n, move in enumerate(moves):
            if n:
                line.append(", ")
            line.append(str(move), style="bold")
            if not move.is_stock:
                card = self.game.card_at(move.src, move.count - 1)
                if card is not None:
                    line.append(" (")
                    line.append_text(card_cell(card))
                    line.append(")")
        self.console.print(line, soft_wrap=True)

    def show_hint(self) -> None:
        """Ask the solver for a move, using only what the player can see."""
        if not self.game.undo_allowed:
            self.error(self._t("No hints in a ranked game."))
            return
        self.say(self._t("Thinking..."), _DIM)
        move = hint(self.game)
        if move is None:
            self.say(self._t("No move is left that leads somewhere new."), "yellow")
        else:
            words = move_words(self.game, move, self.lang)
            self.say(self._t("Hint: {words} ({move})", words=words, move=move), "bold green")

    def autocomplete(self) -> None:
        """Finish a game whose win follows from what the player sees (ranked games too:
        :func:`patiencekit.solver.autocomplete` never looks at hidden cards)."""
        played = autocomplete(self.game)
        if played is None:
            self.error(
                self._t(
                    "Nothing you can see proves a win yet (auto-complete needs no hidden card, "
                    "or in Klondike no face-down card): play on."
                )
            )
            return
        self._changed(self._t("Auto-completed {count} moves.", count=len(played)))

    def _undo_or_redo(self, *, undo: bool) -> None:
        try:
            move = self.game.undo() if undo else self.game.redo()
        except IllegalMoveError as e:
            self.refused(e)
            return
        if undo:
            self._changed(self._t("Undid {move}.", move=move))
        else:
            self._changed(self._t("Redid {move}.", move=move))

    def _restart(self) -> None:
        if not self.game.can_undo:
            code = Refused.NOTHING_TO_UNDO if self.game.undo_allowed else Refused.RANKED
            self.refused(IllegalMoveError("restart", "no move to take back", GameRefusal(code)))
            return
        self.game.restart()
        self._changed(self._t("Back to the deal; r redoes the moves one by one."))

    def new_deal(self, number_text: str | None) -> None:
        """Start another deal of the same game (a random one without a number)."""
        if number_text is None:
            number = random_number()
        elif number_text.isdigit():
            number = int(number_text)
        else:
            self.error(
                self._t(
                    "The game number must be a whole number from 0 up, not '{text}'.",
                    text=number_text,
                )
            )
            return
        old = self.game
        try:
            self.game = new_game(old.id, number, undo=old.undo_allowed)
        except PatienceError as e:
            self.error(str(e))
            return
        self._changed(
            self._t(
                "New deal: game number {number}. (The last one was #{last}, {moves} moves.)",
                number=number,
                last=old.number,
                moves=len(old.moves),
            )
        )

    def play(self, text: str) -> None:
        """Play a move; a pile label or a card alone goes to a foundation if it can."""
        single = text.split()
        if len(single) == 1 and single[0] not in ("s", "t"):
            self._to_foundation(single[0])
            return
        try:
            move = self.game.play(text)
        except InvalidMoveError:
            # what the notation says is wrong with the text, in words (in English its own
            # message)
            more = self._t("Type ? for the legal moves, h for help.")
            self.error(f"{notation_words(text, self.lang)} {more}")
            return
        except IllegalMoveError as e:
            self.refused(e)
            return
        self._changed(self._describe(move))

    def _to_foundation(self, word: str) -> None:
        """``c3`` or ``7h`` alone: like a double-click, send the card to a foundation."""
        move = self.game.foundation_move(word)
        if move is not None:
            self._changed(self._describe(self.game.play(move)))
            return
        try:
            source = Move(word, "f")
        except InvalidMoveError:
            try:
                index = parse_card_index(word)
            except InvalidCardError:
                self.error(
                    self._t(
                        "'{word}' is not a move or a card: type e.g. 'c3 f', 'w c5', 's' or "
                        "'7h'.",
                        word=word,
                    )
                    + " "
                    + self._t("Type ? for the legal moves, h for help.")
                )
                return
            card = Card.from_index(index)
            playable = any(
                pile.cards and pile.cards[-1] == card
                for pile in self.game.view().piles
                if pile.kind not in (PileKind.STOCK, PileKind.FOUNDATION, PileKind.INDEX)
            )
            name = card_name(card, self.lang)
            if playable:
                self.error(_capital(self._t("{card} can't go to a foundation now.", card=name)))
            else:
                self.error(
                    _capital(self._t("{card} is not the playable card of any pile.", card=name))
                )
            return
        try:
            played = self.game.play(source)
        except IllegalMoveError as e:
            self.refused(e)
            return
        self._changed(self._describe(played))

    def _describe(self, move: Move) -> str:
        card = None if move.is_stock else self.game.card_at(move.dst, move.count - 1)
        if card is None:
            return self._t("Played {move}.", move=move)
        cards = f"{card.symbol_text}{'..' if move.count > 1 else ''}"
        return self._t("Played {move} ({cards}).", move=move, cards=cards)

    # -- after a change ------------------------------------------------------------

    def _do_save(self) -> str | None:
        if self._save is None:
            return None
        try:
            return self._save(self.game)
        except OSError as e:
            self.error(self._t("Could not save the game: {error}", error=e))
            return None

    def _changed(self, note: str) -> None:
        self._do_save()
        self.show_board()
        self.say(note, "green")
        self._announce_end()

    def _announce_end(self) -> None:
        game = self.game
        if game.is_won():
            won = self._t(
                "Congratulations, you won {game} #{number}!",
                game=game.rules.name,
                number=game.number,
            )
            time, moves = format_time(game.elapsed), len(game.moves)
            if game.score is not None and game.time_bonus:
                how = self._t(
                    "Score {score} (time bonus {bonus} included), time {time}, {moves} moves.",
                    score=game.score,
                    bonus=game.time_bonus,
                    time=time,
                    moves=moves,
                )
            elif game.score is not None:
                how = self._t(
                    "Score {score}, time {time}, {moves} moves.",
                    score=game.score,
                    time=time,
                    moves=moves,
                )
            else:
                how = self._t("Time {time}, {moves} moves.", time=time, moves=moves)
            self.say(f"{won} {how}", "bold green")
            self.say(self._t("n: a new game, u: undo, q: quit."))
        elif game.is_over():
            self.say(self._t("No moves left. n: a new game, u: undo, q: quit."), "bold yellow")
