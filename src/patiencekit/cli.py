"""The ``patiencekit`` command line: list games, show rules and deals, play, replay.

Every error about the input (an unknown game, a bad game number, a malformed
or illegal game record) prints a clear message on stderr and exits with
status 2; ``--json`` output is exactly the documented shape and nothing else.

It speaks the player's language (:data:`patiencekit.i18n.LANGUAGES`): ``--lang`` on a
command, else the locale's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``:
:func:`patiencekit.tui.terminal_language`), else English. The games' names and rules, the
messages, and the errors about the input are in it: a text not in the notation and a
malformed game record in the words of :mod:`patiencekit.words`; in English the errors are
the engine's own messages, as before. The notation, the board text of ``deal`` and the JSON
keys stay as they are. The help (``--help``) is printed before ``--lang`` is read: it
follows the locale alone, read once when the command line is made (:data:`HELP_LANGUAGE`);
the usage lines and Typer's own markers (``[default: ...]``) stay English, as do the options
of ``serve``, ``close-day`` and ``study``. The command line's sentences are msgids of the
``terminal`` catalogues, beside the terminal game's.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

from patiencekit import __version__, game_texts, solver
from patiencekit.deals import MAX_GAME_NUMBER
from patiencekit.errors import (
    InvalidMoveError,
    InvalidRecordError,
    PatienceError,
    ReplayError,
    UnknownGameError,
)
from patiencekit.game import Game, new_game
from patiencekit.games import FACTS, GAMES, get_rules
from patiencekit.i18n import LANGUAGES
from patiencekit.notation import Move, Record, format_record, parse_record
from patiencekit.rules import GameRules
from patiencekit.server.cli import serve
from patiencekit.server.competition.cli import close_day
from patiencekit.study_cli import study
from patiencekit.tui import (
    PlaySession,
    board_lines,
    deal_text_lines,
    random_number,
    terminal_language,
)
from patiencekit.words import notation_words, record_words, refusal_words, translate

__all__ = [
    "HELP_LANGUAGE",
    "ReplayError",
    "app",
    "load_game",
    "main",
    "read_record",
    "save_game",
]

_Function = TypeVar("_Function", bound=Callable[..., Any])

#: exit status for any error in the input
EXIT_USAGE = 2

#: the catalogues' domain of the command line's sentences (the terminal game's too)
DOMAIN = "terminal"

#: the language of the help: the locale's when the command line is made (``--help`` is
#: printed before ``--lang`` is read)
HELP_LANGUAGE = terminal_language()


def _h(message: str) -> str:
    """A help text in the locale's language (the tests find every message given to this
    function, by Babel's extraction of its first argument)."""
    return translate(message, HELP_LANGUAGE, domain=DOMAIN)


def _tr(lang: str, message: str, /, **params: object) -> str:
    """The command line's ``message`` in ``lang``, its placeholders filled (the tests find
    every message given to this function, by Babel's extraction of its second argument)."""
    text = translate(message, lang, domain=DOMAIN)
    return text.format_map(params) if params else text


#: the titles of the help's panels
ARGUMENTS = _h("Arguments")
OPTIONS = _h("Options")
COMMANDS = _h("Commands")


def _help_option(option: Any) -> Any:
    """``--help`` itself, said in the help's language among the other options (Typer's or
    Click's option: its ``help``, and the panel Typer shows it in)."""
    if option is not None:
        option.help = _h("Show this message and exit.")
        option.rich_help_panel = OPTIONS
    return option


class _Group(TyperGroup):
    """The ``patiencekit`` group, its ``--help`` in the help's language."""

    def get_help_option(self, ctx: Any) -> Any:
        return _help_option(super().get_help_option(ctx))


class _Command(TyperCommand):
    """A command of this module, its ``--help`` in the help's language (``serve``,
    ``close-day`` and ``study`` keep theirs, as their options are in English)."""

    def get_help_option(self, ctx: Any) -> Any:
        return _help_option(super().get_help_option(ctx))


app = typer.Typer(
    name="patiencekit",
    cls=_Group,
    help=_h("Patience (solitaire) games: list them, read their rules, deal, play and replay."),
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _command(help: str) -> Callable[[_Function], _Function]:
    """``@app.command`` for a command of this module: its help (already in the help's
    language) and its panels."""
    return app.command(cls=_Command, help=help, rich_help_panel=COMMANDS)


def _option(*names: str, help: str, **more: Any) -> Any:
    """``typer.Option`` with its help (already in the help's language) in the options'
    panel."""
    return typer.Option(*names, help=help, rich_help_panel=OPTIONS, **more)


GameArgument = Annotated[
    str,
    typer.Argument(help=_h("The game id (see: patiencekit games)."), rich_help_panel=ARGUMENTS),
]
JsonOption = Annotated[bool, _option("--json", help=_h("Print JSON instead of text."))]
NumberOption = Annotated[
    int | None,
    _option(
        "--number",
        "-n",
        "--seed",
        help=_h("The game number (the deal); a random one when left out."),
        show_default=False,
    ),
]
LangOption = Annotated[
    str | None,
    _option(
        "--lang",
        help=_h(
            "The language of the words: {languages} (default: the locale's, LC_ALL / "
            "LC_MESSAGES / LANG, else en)."
        ).format(languages=", ".join(LANGUAGES)),
        show_default=False,
    ),
]


def _out() -> Console:
    return Console(highlight=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


def fail(message: str, lang: str = "en") -> NoReturn:
    """Print ``error: message`` (in ``lang``) on stderr and exit with status 2."""
    _err().print(Text(_tr(lang, "error: {message}", message=message), style="red"), soft_wrap=True)
    raise typer.Exit(EXIT_USAGE)


def _language(lang: str | None) -> str:
    """The language of ``--lang``, else the locale's; exit 2 for one there are no words in."""
    if lang is None:
        return terminal_language()
    chosen = lang.strip().lower()
    if chosen not in LANGUAGES:
        fail(
            _tr(
                terminal_language(),
                "--lang must be one of {languages}, not {lang}",
                languages=", ".join(LANGUAGES),
                lang=repr(lang),
            ),
            terminal_language(),
        )
    return chosen


def _rules(game_id: str, lang: str = "en") -> GameRules:
    try:
        return get_rules(game_id)
    except UnknownGameError as e:
        if lang == "en":
            fail(str(e))
        fail(_unknown_game(game_id, lang), lang)
    except PatienceError as e:
        fail(str(e), lang)


def _unknown_game(game_id: str, lang: str) -> str:
    """The error of a game id no game has, naming the games (as the registry says it in
    English)."""
    return _tr(
        lang,
        "No game is called {game}. The games are: {games}.",
        game=repr(game_id),
        games=", ".join(GAMES),
    )


def _check_number(number: int, lang: str) -> None:
    """Exit 2 for a game number no deal has (in English as the engine says it)."""
    if not 0 <= number <= MAX_GAME_NUMBER:
        fail(
            _tr(
                lang,
                "The game number must be from 0 to {most}; got {number}.",
                most=MAX_GAME_NUMBER,
                number=number,
            ),
            lang,
        )


def _new_game(game_id: str, number: int | None, *, undo: bool = True, lang: str = "en") -> Game:
    """A new game, or exit 2 naming what is wrong with the id or the number."""
    rules = _rules(game_id, lang)
    if number is not None:
        _check_number(number, lang)
    try:
        return new_game(rules.id, number, undo=undo)
    except (PatienceError, ValueError) as e:
        fail(str(e), lang)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


# -- records ------------------------------------------------------------------------


def _source_name(source: str) -> str:
    return "stdin" if source == "-" else source


def _read_text(source: str) -> str:
    """The text of a file (``-``: stdin); raises :class:`InvalidRecordError`."""
    try:
        return sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidRecordError(
            f"cannot read the game record from {_source_name(source)}: {e}"
        ) from None


def read_record(source: str) -> Record:
    """Read a game record from a file (``-``: stdin); raises :class:`InvalidRecordError`."""
    text = _read_text(source)
    try:
        return parse_record(text)
    except InvalidRecordError as e:
        raise InvalidRecordError(f"{_source_name(source)}: {e}") from None


def save_game(game: Game, path: Path) -> str:
    """Write the game record (with the time played) to ``path``, atomically; returns the path."""
    extra: dict[str, Any] = {"elapsed": round(game.elapsed, 3)}
    if not game.undo_allowed:
        extra["ranked"] = True
    record = replace(game.record(), extra=extra)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(format_record(record) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return str(path)


def load_game(source: str) -> Game:
    """Resume a saved game: replay its record and restore the time played.

    Raises :class:`InvalidRecordError`, :class:`ReplayError` or :class:`PatienceError`.
    """
    return _resumed(read_record(source))


def _resumed(record: Record) -> Game:
    """The game of a saved record, its time played restored (ranked if it says so)."""
    ranked = record.extra.get("ranked") is True
    elapsed = record.extra.get("elapsed")
    if not isinstance(elapsed, int | float) or isinstance(elapsed, bool) or elapsed < 0:
        elapsed = 0.0
    return Game.from_record(record, undo=not ranked, elapsed=float(elapsed))


def _record(source: str, lang: str) -> Record:
    """The game record of a file (``-``: stdin), or exit 2 saying what is wrong with it (in
    English as the notation says it, in the other languages in words)."""
    name = _source_name(source)
    try:
        text = _read_text(source)
    except InvalidRecordError as e:
        if lang == "en":
            fail(str(e))
        fail(_tr(lang, "cannot read the game record from {name}", name=name), lang)
    try:
        record = parse_record(text)
    except InvalidRecordError as e:
        fail(f"{name}: {e if lang == 'en' else record_words(text, lang)}", lang)
    return record


def _replay_error(error: ReplayError, lang: str) -> str:
    """A record's move that cannot be played: in English as the engine says it (the
    notation's contract), in the other languages in words (a refusal naming only cards in
    sight, or what is wrong with a text not in the notation)."""
    if lang == "en":
        return str(error)
    try:
        Move.parse(error.move)
    except InvalidMoveError:
        reason = notation_words(error.move, lang)
    else:
        reason = refusal_words(error.game, error, lang)
    return _tr(
        lang,
        "move {position} of the record, {move}, cannot be played: {reason}",
        position=error.position,
        move=repr(error.move),
        reason=reason,
    )


# -- commands ---------------------------------------------------------------------------


def _version(value: bool) -> None:
    if value:
        typer.echo(f"patiencekit {__version__}")
        raise typer.Exit()


@app.callback(
    help=_h("Patience (solitaire) games: list them, read their rules, deal, play and replay.")
)
def _main(
    version: Annotated[
        bool,
        _option("--version", callback=_version, is_eager=True, help=_h("Print the version.")),
    ] = False,
) -> None:
    """The group's options (``--version``)."""


@_command(help=_h("List the games: id, name, decks and what each is like."))
def games(as_json: JsonOption = False, lang: LangOption = None) -> None:
    """``patiencekit games``: names and lines in the language; ``--json`` as before, its
    names in the language."""
    lang = _language(lang)
    if as_json:
        _print_json(
            [
                {"id": g.id, "name": game_texts.name(g, lang), "decks": g.decks}
                for g in GAMES.values()
            ]
        )
        return
    table = Table(title=_tr(lang, "PatienceKit games"))
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column(_tr(lang, "name"))
    for g in GAMES.values():
        cell = Text(game_texts.name(g, lang))
        about = (
            f"{game_texts.decks_words(g.decks, lang)} {game_texts.blurb(FACTS[g.id].blurb, lang)}"
        )
        cell.append("\n" + about, style="dim")
        table.add_row(g.id, cell)
    _out().print(table)


@_command(help=_h("Show a game's name and rules."))
def rules(game: GameArgument, as_json: JsonOption = False, lang: LangOption = None) -> None:
    """``patiencekit rules GAME``: the rules in sections, each with its heading; ``--json``
    keeps ``id``, ``name``, ``decks`` and ``rules_text`` (the rules in full) and adds
    ``lang`` and ``sections``."""
    lang = _language(lang)
    r = _rules(game, lang)
    name = game_texts.name(r, lang)
    sections = game_texts.rules_sections(r, lang)
    if as_json:
        _print_json(
            {
                "id": r.id,
                "name": name,
                "decks": r.decks,
                "rules_text": game_texts.rules_text(r, lang),
                "lang": lang,
                "sections": sections,
            }
        )
        return
    out = _out()
    out.print(Text(name, style="bold"))
    out.print(Text(_tr(lang, "id: {id}   decks: {decks}", id=r.id, decks=r.decks), style="dim"))
    for section in sections:
        out.print()
        out.print(Text(section["heading"], style="bold"))
        out.print(Text(section["text"]))


@_command(
    help=_h(
        "Show a deal: every pile, face-down cards in <..> (--json: the whole deal, for tools; "
        "--view: only what the player sees; --view --json: the player's view as JSON, hidden "
        "cards null)."
    )
)
def deal(
    game: GameArgument,
    number: NumberOption = None,
    as_json: JsonOption = False,
    view: Annotated[
        bool,
        _option(
            "--view",
            help=_h(
                "Show only what the player sees: face-down cards and the stock hidden (with "
                "--json, the player's view, hidden cards null)."
            ),
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    """``patiencekit deal GAME``: the board text (the notation's, in every language) or the
    player's board (``--view``, its status line in the language)."""
    lang = _language(lang)
    chosen = random_number() if number is None else number
    g = _new_game(game, chosen, lang=lang)
    if as_json:
        if number is None:
            note = _tr(lang, "(a random deal: game number {number})", number=chosen)
            _err().print(note, style="dim")
        _print_json(g.view().to_json() if view else g.deal_json())
        return
    out = _out()
    lines = board_lines(g, lang) if view else deal_text_lines(g.board())
    for line in lines:
        out.print(line, soft_wrap=True)
    if number is None:
        note = _tr(lang, "(a random deal: show it again with --number {number})", number=chosen)
        out.print(Text(note, style="dim"), soft_wrap=True)


@_command(
    help=_h(
        "Solve a deal (thoughtful: the solver knows the face-down cards): solved with the "
        "moves, unsolvable (proved), or limit."
    )
)
def solve(
    game: GameArgument,
    number: Annotated[int, _option("--number", "-n", help=_h("The game number."))],
    max_seconds: Annotated[
        float,
        _option("--max-seconds", help=_h("Give up (outcome 'limit') after this long.")),
    ] = 30.0,
    max_states: Annotated[
        int | None,
        _option("--max-states", help=_h("Give up after keeping this many positions.")),
    ] = None,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """``patiencekit solve GAME -n N``: the outcome in the language (``--json``: the
    solver's record)."""
    lang = _language(lang)
    if max_seconds <= 0:
        fail(_tr(lang, "--max-seconds must be more than 0"), lang)
    g = _new_game(game, number, lang=lang)
    result = solver.solve(g, budget=solver.Budget(seconds=max_seconds, states=max_states))
    if as_json:
        _print_json(result.to_json())  # outcome, moves, states, seconds first
        return
    out = _out()
    name = game_texts.name(g.rules, lang)
    if result.outcome == "solved":
        said = _tr(
            lang,
            "{game} #{number}: solved in {moves} moves",
            game=name,
            number=g.number,
            moves=len(result.moves),
        )
        out.print(Text(said, style="bold green"))
        out.print(" ".join(result.moves), soft_wrap=True)
    elif result.outcome == "unsolvable":
        said = _tr(
            lang,
            "{game} #{number}: no win exists (the whole game was searched)",
            game=name,
            number=g.number,
        )
        out.print(Text(said, style="bold"))
    else:
        facts = {"game": name, "number": g.number}
        if result.limit == "time":
            said = _tr(lang, "{game} #{number}: undecided: the time limit was reached", **facts)
        elif result.limit == "states":
            said = _tr(lang, "{game} #{number}: undecided: the states limit was reached", **facts)
        elif result.limit == "memory":
            said = _tr(lang, "{game} #{number}: undecided: the memory limit was reached", **facts)
        else:
            said = _tr(lang, "{game} #{number}: undecided: a limit was reached", **facts)
        out.print(Text(said, style="yellow"))
    states, unique, seconds = (
        f"{result.states:,}",
        f"{result.unique_states:,}",
        f"{result.seconds:.2f}",
    )
    said = _tr(
        lang,
        "{states} positions searched, {unique} distinct, {seconds} s",
        states=states,
        unique=unique,
        seconds=seconds,
    )
    out.print(Text(said, style="dim"))


@_command(
    help=_h("Play a game in the terminal: type moves like 'c3 f', 'w c5', 's'; '?' lists them.")
)
def play(
    game: Annotated[
        str | None,
        typer.Argument(
            help=_h("The game id (see: patiencekit games); not needed with --load."),
            rich_help_panel=ARGUMENTS,
        ),
    ] = None,
    number: NumberOption = None,
    save: Annotated[
        Path | None,
        _option(
            "--save",
            help=_h("Write the game record to this file after every move and on quit."),
        ),
    ] = None,
    load: Annotated[
        Path | None,
        _option(
            "--load",
            help=_h(
                "Resume the game saved in this file (it keeps being saved there unless --save)."
            ),
        ),
    ] = None,
    ranked: Annotated[bool, _option("--ranked", help=_h("No undo and no redo."))] = False,
    no_clear: Annotated[
        bool, _option("--no-clear", help=_h("Don't clear the screen between moves."))
    ] = False,
    winnable: Annotated[
        bool,
        _option("--winnable", help=_h("Deal a game the solver has proved winnable.")),
    ] = False,
    lang: Annotated[
        str | None,
        _option(
            "--lang",
            help=_h(
                "The language of the game's messages: {languages} (default: the locale's, "
                "LC_ALL / LC_MESSAGES / LANG, else en). Moves stay in the notation."
            ).format(languages=", ".join(LANGUAGES)),
            show_default=False,
        ),
    ] = None,
) -> None:
    """``patiencekit play GAME``: the interactive game (:class:`~patiencekit.tui.PlaySession`)."""
    lang = _language(lang)
    if load is not None:
        if str(load) == "-":
            fail(_tr(lang, "--load needs a file: stdin carries the moves you type"), lang)
        g = _load(str(load), game, number, lang)
        if save is None:
            save = load
    elif game is None:
        fail(
            _tr(
                lang,
                "name a game to play (see: patiencekit games), or resume one with --load FILE",
            ),
            lang,
        )
    else:
        if number is None:
            rules = _rules(game, lang)
            try:
                number = solver.winnable_number(rules.id) if winnable else random_number()
            except TimeoutError as e:
                fail(str(e), lang)
        g = _new_game(game, number, undo=not ranked, lang=lang)
    console = _out()
    interactive = sys.stdin.isatty()
    if interactive:
        with contextlib.suppress(ImportError):  # not on every platform
            import readline  # noqa: F401  (line editing and history for input())
    save_path = save

    def saver(current: Game) -> str:
        assert save_path is not None
        return save_game(current, save_path)

    session = PlaySession(
        g,
        console,
        save=saver if save_path is not None else None,
        echo=not interactive,
        clear=interactive and console.is_terminal and not no_clear,
        lang=lang,
    )
    raise typer.Exit(session.run())


def _load(source: str, game: str | None, number: int | None, lang: str) -> Game:
    record = _record(source, lang)
    try:
        get_rules(record.game)
    except UnknownGameError as e:
        fail(f"{source}: {e if lang == 'en' else _unknown_game(record.game, lang)}", lang)
    if record.number > MAX_GAME_NUMBER:
        _check_number(record.number, lang)
    try:
        g = _resumed(record)
    except ReplayError as e:
        fail(f"{source}: {_replay_error(e, lang)}", lang)
    except PatienceError as e:
        fail(f"{source}: {e}", lang)
    if game is not None and _rules(game, lang).id != g.id:
        fail(
            _tr(
                lang,
                "{source} holds a game of {game}, not {wanted}",
                source=source,
                game=g.id,
                wanted=game,
            ),
            lang,
        )
    if number is not None and number != g.number:
        fail(
            _tr(
                lang,
                "{source} holds game number {number}, not {wanted}",
                source=source,
                number=g.number,
                wanted=number,
            ),
            lang,
        )
    return g


@_command(
    help=_h(
        "Replay a game record (a JSON object with game, number and moves): the final board "
        "and a summary."
    )
)
def replay(
    file: Annotated[
        str,
        typer.Argument(help=_h("A game record (JSON); - reads stdin."), rich_help_panel=ARGUMENTS),
    ],
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    """``patiencekit replay FILE``: the board after the record's moves and a summary in the
    language; an illegal move or a text not in the notation stops it (exit 2)."""
    lang = _language(lang)
    record = _record(file, lang)
    _rules(record.game, lang)
    _check_number(record.number, lang)
    try:
        g = Game.from_record(record)
    except ReplayError as e:
        if not as_json:
            out = _out()
            said = _tr(lang, "The position before move {position}:", position=e.position)
            out.print(Text(said, style="bold"))
            for line in board_lines(e.game, lang):
                out.print(line, soft_wrap=True)
        fail(_replay_error(e, lang), lang)
    except PatienceError as e:
        fail(str(e), lang)
    score = g.base_score
    if as_json:
        _print_json(
            {
                "won": g.is_won(),
                "score": score,
                "moves": len(g.moves),
                "piles": g.deal_json()["piles"],
            }
        )
        return
    out = _out()
    for line in board_lines(g, lang):
        out.print(line, soft_wrap=True)
    facts = {"game": g.id, "number": g.number, "moves": len(g.moves), "score": score}
    if score is None and g.is_won():
        summary = _tr(lang, "{game} #{number}: {moves} moves, won.", **facts)
    elif score is None:
        summary = _tr(lang, "{game} #{number}: {moves} moves, not won.", **facts)
    elif g.is_won():
        summary = _tr(
            lang,
            "{game} #{number}: {moves} moves, won, score {score} (without the time bonus).",
            **facts,
        )
    else:
        summary = _tr(
            lang,
            "{game} #{number}: {moves} moves, not won, score {score} (without the time bonus).",
            **facts,
        )
    out.print(Text(summary, style="bold"), soft_wrap=True)


app.command(
    "serve",
    help=_h("Start the web app on http://127.0.0.1:8000 (SQLite in ./data)."),
    rich_help_panel=COMMANDS,
)(serve)
app.command(
    "close-day",
    help=_h("Award the medals of the UTC days that are over (idempotent)."),
    rich_help_panel=COMMANDS,
)(close_day)
app.command(
    "study",
    help=_h(
        "Solve many deals of a game: win rate with a 95% interval, time percentiles, CSV/JSON."
    ),
    rich_help_panel=COMMANDS,
)(study)


def main() -> None:
    """The ``patiencekit`` entry point."""
    app()


if __name__ == "__main__":
    main()
