"""The ``patiencekit`` command line: list games, show rules and deals, play, replay.

Every error about the input (an unknown game, a bad game number, a malformed
or illegal game record) prints a clear message on stderr and exits with
status 2; ``--json`` output is exactly the documented shape and nothing else.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from patiencekit import __version__, solver
from patiencekit.errors import (
    InvalidRecordError,
    PatienceError,
    ReplayError,
)
from patiencekit.game import Game, new_game
from patiencekit.games import GAMES, get_rules
from patiencekit.i18n import LANGUAGES
from patiencekit.notation import Record, format_record, parse_record
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

__all__ = ["ReplayError", "app", "load_game", "main", "read_record", "save_game"]

#: exit status for any error in the input
EXIT_USAGE = 2

app = typer.Typer(
    name="patiencekit",
    help="Patience (solitaire) games: list them, read their rules, deal, play and replay.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
NumberOption = Annotated[
    int | None,
    typer.Option(
        "--number",
        "-n",
        "--seed",
        help="The game number (the deal); a random one when left out.",
        show_default=False,
    ),
]


def _out() -> Console:
    return Console(highlight=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with status 2."""
    _err().print(Text(f"error: {message}", style="red"), soft_wrap=True)
    raise typer.Exit(EXIT_USAGE)


def _rules(game_id: str) -> GameRules:
    try:
        return get_rules(game_id)
    except PatienceError as e:
        fail(str(e))


def _new_game(game_id: str, number: int | None, *, undo: bool = True) -> Game:
    """A new game, or exit 2 naming what is wrong with the id or the number."""
    rules = _rules(game_id)
    try:
        return new_game(rules.id, number, undo=undo)
    except (PatienceError, ValueError) as e:
        fail(str(e))


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


# -- records ------------------------------------------------------------------------


def read_record(source: str) -> Record:
    """Read a game record from a file (``-``: stdin); raises :class:`InvalidRecordError`."""
    name = "stdin" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidRecordError(f"cannot read the game record from {name}: {e}") from None
    try:
        return parse_record(text)
    except InvalidRecordError as e:
        raise InvalidRecordError(f"{name}: {e}") from None


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
    record = read_record(source)
    ranked = record.extra.get("ranked") is True
    elapsed = record.extra.get("elapsed")
    if not isinstance(elapsed, int | float) or isinstance(elapsed, bool) or elapsed < 0:
        elapsed = 0.0
    return Game.from_record(record, undo=not ranked, elapsed=float(elapsed))


# -- commands ---------------------------------------------------------------------------


def _version(value: bool) -> None:
    if value:
        typer.echo(f"patiencekit {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Patience (solitaire) games: list them, read their rules, deal, play and replay."""


@app.command()
def games(as_json: JsonOption = False) -> None:
    """List the games: id, name and decks."""
    if as_json:
        _print_json([{"id": g.id, "name": g.name, "decks": g.decks} for g in GAMES.values()])
        return
    table = Table(title="PatienceKit games")
    table.add_column("id", style="bold")
    table.add_column("name")
    table.add_column("decks", justify="right")
    for g in GAMES.values():
        table.add_row(g.id, g.name, str(g.decks))
    _out().print(table)


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="The game id (see: patiencekit games).")],
    as_json: JsonOption = False,
) -> None:
    """Show a game's name and rules."""
    r = _rules(game)
    if as_json:
        _print_json({"id": r.id, "name": r.name, "decks": r.decks, "rules_text": r.rules_text})
        return
    out = _out()
    out.print(Text(r.name, style="bold"))
    out.print(Text(f"id: {r.id}   decks: {r.decks}", style="dim"))
    out.print()
    out.print(Text(r.rules_text))


@app.command()
def deal(
    game: Annotated[str, typer.Argument(help="The game id (see: patiencekit games).")],
    number: NumberOption = None,
    as_json: JsonOption = False,
    view: Annotated[
        bool,
        typer.Option(
            "--view",
            help="Show only what the player sees: face-down cards and the stock hidden (with "
            "--json, the player's view, hidden cards null).",
        ),
    ] = False,
) -> None:
    """Show a deal: every pile, face-down cards in <..> (--json: the whole deal, for
    tools; --view: only what the player sees; --view --json: the player's view as JSON,
    hidden cards null)."""
    chosen = random_number() if number is None else number
    g = _new_game(game, chosen)
    if as_json:
        if number is None:
            _err().print(f"(a random deal: game number {chosen})", style="dim")
        _print_json(g.view().to_json() if view else g.deal_json())
        return
    out = _out()
    lines = board_lines(g) if view else deal_text_lines(g.board())
    for line in lines:
        out.print(line, soft_wrap=True)
    if number is None:
        out.print(
            Text(f"(a random deal: show it again with --number {chosen})", style="dim"),
            soft_wrap=True,
        )


@app.command()
def solve(
    game: Annotated[str, typer.Argument(help="The game id (see: patiencekit games).")],
    number: Annotated[int, typer.Option("--number", "-n", help="The game number.")],
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", help="Give up (outcome 'limit') after this long.")
    ] = 30.0,
    max_states: Annotated[
        int | None, typer.Option("--max-states", help="Give up after keeping this many positions.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Solve a deal (thoughtful: the solver knows the face-down cards): solved with the moves,
    unsolvable (proved), or limit."""
    if max_seconds <= 0:
        fail("--max-seconds must be more than 0")
    g = _new_game(game, number)
    result = solver.solve(g, budget=solver.Budget(seconds=max_seconds, states=max_states))
    if as_json:
        _print_json(result.to_json())  # outcome, moves, states, seconds first
        return
    out = _out()
    head = f"{g.rules.name} #{g.number}: "
    if result.outcome == "solved":
        out.print(Text(head + f"solved in {len(result.moves)} moves", style="bold green"))
        out.print(" ".join(result.moves), soft_wrap=True)
    elif result.outcome == "unsolvable":
        out.print(Text(head + "no win exists (the whole game was searched)", style="bold"))
    else:
        out.print(Text(head + f"undecided: the {result.limit} limit was reached", style="yellow"))
    out.print(
        Text(
            f"{result.states:,} positions searched, {result.unique_states:,} distinct, "
            f"{result.seconds:.2f} s",
            style="dim",
        )
    )


@app.command()
def play(
    game: Annotated[
        str | None,
        typer.Argument(help="The game id (see: patiencekit games); not needed with --load."),
    ] = None,
    number: NumberOption = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save", help="Write the game record to this file after every move and on quit."
        ),
    ] = None,
    load: Annotated[
        Path | None,
        typer.Option(
            "--load",
            help="Resume the game saved in this file (it keeps being saved there unless --save).",
        ),
    ] = None,
    ranked: Annotated[bool, typer.Option("--ranked", help="No undo and no redo.")] = False,
    no_clear: Annotated[
        bool, typer.Option("--no-clear", help="Don't clear the screen between moves.")
    ] = False,
    winnable: Annotated[
        bool,
        typer.Option("--winnable", help="Deal a game the solver has proved winnable."),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=f"The language of the game's messages: {', '.join(LANGUAGES)} (default: the "
            "locale's, LC_ALL / LC_MESSAGES / LANG, else en). Moves stay in the notation.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play a game in the terminal: type moves like 'c3 f', 'w c5', 's'; '?' lists them."""
    if lang is None:
        lang = terminal_language()
    elif lang.strip().lower() not in LANGUAGES:
        fail(f"--lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    else:
        lang = lang.strip().lower()
    if load is not None:
        if str(load) == "-":
            fail("--load needs a file: stdin carries the moves you type")
        g = _load(str(load), game, number)
        if save is None:
            save = load
    elif game is None:
        fail("name a game to play (see: patiencekit games), or resume one with --load FILE")
    else:
        if number is None:
            rules = _rules(game)
            try:
                number = solver.winnable_number(rules.id) if winnable else random_number()
            except TimeoutError as e:
                fail(str(e))
        g = _new_game(game, number, undo=not ranked)
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


def _load(source: str, game: str | None, number: int | None) -> Game:
    try:
        g = load_game(source)
    except ReplayError as e:
        fail(f"{source}: {e}")
    except PatienceError as e:
        fail(str(e) if isinstance(e, InvalidRecordError) else f"{source}: {e}")
    if game is not None and _rules(game).id != g.id:
        fail(f"{source} holds a game of {g.id}, not {game}")
    if number is not None and number != g.number:
        fail(f"{source} holds game number {g.number}, not {number}")
    return g


@app.command()
def replay(
    file: Annotated[str, typer.Argument(help="A game record (JSON); - reads stdin.")],
    as_json: JsonOption = False,
) -> None:
    """Replay a game record {"game", "number", "moves"}: the final board and a summary."""
    try:
        record = read_record(file)
        _rules(record.game)
        g = Game.from_record(record)
    except ReplayError as e:
        if not as_json:
            out = _out()
            out.print(Text(f"The position before move {e.position}:", style="bold"))
            for line in board_lines(e.game):
                out.print(line, soft_wrap=True)
        fail(str(e))
    except PatienceError as e:
        fail(str(e))
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
    for line in board_lines(g):
        out.print(line, soft_wrap=True)
    summary = f"{g.id} #{g.number}: {len(g.moves)} moves, " + ("won" if g.is_won() else "not won")
    if score is not None:
        summary += f", score {score} (without the time bonus)"
    out.print(Text(summary + ".", style="bold"), soft_wrap=True)


app.command("serve", help="Start the web app on http://127.0.0.1:8000 (SQLite in ./data).")(serve)
app.command("close-day", help="Award the medals of the UTC days that are over (idempotent).")(
    close_day
)
app.command("study")(study)


def main() -> None:
    """The ``patiencekit`` entry point."""
    app()


if __name__ == "__main__":
    main()
