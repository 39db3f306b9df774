"""The command line in the player's language: ``games``, ``rules``, ``deal``, ``solve`` and
``replay`` follow ``--lang`` or the locale, as ``play`` does; the help follows the locale; a
text not in the notation and a malformed game record are said in words; the JSON keys stay.

Each check says what the Dutch or Spanish output holds and which English words it no longer
holds; the English output is the one ``tests/test_cli.py`` checks, unchanged.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import patiencekit
from patiencekit import game_texts
from patiencekit.cli import app
from patiencekit.games import FACTS

SRC = Path(__file__).resolve().parent.parent / "src"

#: no locale that names a language (the runner's default), and the Dutch and Spanish ones
NEUTRAL = {"LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None, "LANG": "C.UTF-8"}
DUTCH = {**NEUTRAL, "LANG": "nl_NL.UTF-8"}
SPANISH = {**NEUTRAL, "LANG": "es_ES.UTF-8"}
runner = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "TTY_COMPATIBLE": None, **NEUTRAL})

SHORT = {"game": "klondike", "number": 24, "moves": ["c3 f", "s", "c4 c2"]}


def run(*args: str, locale: dict[str, str | None] | None = None, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env=locale)


def words(text: str) -> str:
    """The output with its lines joined (Rich wraps text to the screen)."""
    return " ".join(text.replace("│", " ").split())


def program(*args: str, locale: dict[str, str | None]) -> subprocess.CompletedProcess[str]:
    """``python -m patiencekit ARGS`` in a process of its own, in ``locale``: the help is
    made from the locale when the command line is imported."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    for key, value in locale.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "100"
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "patiencekit", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
        encoding="utf-8",
    )


# -- rules -----------------------------------------------------------------------------------


def test_rules_follow_the_locale_in_sections():
    result = run("rules", "klondike", locale=DUTCH)
    assert result.exit_code == 0, result.output
    text = words(result.stdout)
    assert "Solitaire (Klondike, 3 kaarten draaien)" in text
    assert "id: klondike kaartspellen: 1" in text
    for heading in ("De opbouw", "Zo speel je", "De stock", "Winnen", "Puntentelling"):
        assert heading in result.stdout
    assert "Bouw de vier azenstapels op per kleur, van aas tot heer." in text
    for english in ("draw 3", "decks:", "The layout", "Build the four foundations", "Score"):
        assert english not in text, english


def test_rules_lang_beats_the_locale():
    result = run("rules", "senior-wrangler", "--lang", "es", locale=DUTCH)
    assert result.exit_code == 0, result.output
    text = words(result.stdout)
    assert "Los paquetes" in text and "Para ganar" in text and "barajas: 2" in text
    assert "De opbouw" not in text and "The packets" not in text
    # and English when asked, whatever the locale
    english = words(run("rules", "senior-wrangler", "--lang", "en", locale=SPANISH).stdout)
    assert "The packets" in english and "decks: 2" in english


def test_rules_json_keeps_its_keys_in_every_language():
    rules = patiencekit.get_rules("klondike")
    english = json.loads(run("rules", "klondike", "--json").stdout)
    assert {k: english[k] for k in ("id", "name", "decks", "rules_text")} == {
        "id": "klondike",
        "name": "Solitaire (Klondike, draw 3)",
        "decks": 1,
        "rules_text": rules.rules_text,
    }
    assert list(english) == ["id", "name", "decks", "rules_text", "lang", "sections"]
    assert english["lang"] == "en" and english["sections"][0]["heading"] == "The layout"
    spanish = json.loads(run("rules", "klondike", "--json", "--lang", "es").stdout)
    assert list(spanish) == list(english)
    assert spanish["id"] == "klondike" and spanish["decks"] == 1 and spanish["lang"] == "es"
    assert spanish["name"] == "Solitaire (Klondike, robar 3)"
    assert spanish["rules_text"] == game_texts.rules_text(rules, "es")
    assert spanish["rules_text"].startswith("Una baraja. Siete columnas")
    assert spanish["sections"] == game_texts.rules_sections(rules, "es")
    assert all(set(s) == {"heading", "text"} for s in spanish["sections"])
    assert "foundation" not in spanish["rules_text"]
    dutch = json.loads(run("rules", "patriarchs", "--json", locale=DUTCH).stdout)
    assert dutch["lang"] == "nl" and "azenstapels" in dutch["rules_text"]


# -- games -----------------------------------------------------------------------------------


def test_games_follow_the_locale():
    result = run("games", locale=SPANISH)
    assert result.exit_code == 0, result.output
    text = words(result.stdout)
    assert "Juegos de PatienceKit" in text and "nombre" in text
    assert "Solitaire Simple (Klondike, robar 1)" in text
    assert "PatienceMax (todo a los montones)" in text
    for facts in FACTS.values():
        assert words(game_texts.blurb(facts.blurb, "es")) in text
        assert facts.blurb not in text
    assert "Dos barajas." in text and "Una baraja." in text
    assert "PatienceKit games" not in text and "draw 1" not in text


def test_games_json_keeps_its_keys():
    dutch = json.loads(run("games", "--json", "--lang", "nl").stdout)
    assert [set(g) for g in dutch] == [{"id", "name", "decks"}] * len(patiencekit.GAMES)
    assert [g["id"] for g in dutch] == list(patiencekit.GAMES)
    assert dutch[0] == {"id": "klondike", "name": "Solitaire (Klondike, 3 kaarten draaien)",
                        "decks": 1}


# -- the help ----------------------------------------------------------------------------------


def test_the_help_follows_the_locale():
    dutch = program("--help", locale=DUTCH)
    assert dutch.returncode == 0, dutch.stderr
    text = words(dutch.stdout)
    assert "Patiencespellen: bekijk de lijst" in text
    assert "Opties" in text and "Opdrachten" in text
    assert "Toon de naam en de spelregels van een spel." in text
    assert "Toon deze hulp en stop." in text
    for english in ("Options", "Commands", "List the games", "Show this message and exit."):
        assert english not in text, english
    spanish = words(program("replay", "--help", locale=SPANISH).stdout)
    assert "Reproduce un registro de partida" in spanish
    assert "Argumentos" in spanish and "Opciones" in spanish
    assert "El idioma de los textos: en, nl, es" in spanish
    assert "Print JSON" not in spanish and "Arguments" not in spanish


def test_the_help_is_english_without_a_locale_of_ours_and_lang_does_not_change_it():
    """--help is printed before --lang is read: the help follows the locale alone."""
    english = words(program("rules", "--lang", "nl", "--help", locale=NEUTRAL).stdout)
    assert "Show a game's name and rules." in english and "Options" in english
    assert "Toon" not in english
    assert "Show this message and exit." in words(
        program("--help", locale={**NEUTRAL, "LANG": "fr_FR.UTF-8"}).stdout
    )


# -- play: a text that is not a move -----------------------------------------------------------


def test_play_says_a_malformed_move_in_the_language():
    result = run("play", "klondike", "-n", "24", "--lang", "es", input="c3 x9\ns 3\nw c2 2\nq\n")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "'c3 x9' no es un movimiento: 'x9' no es una pila (las pilas son c1.." in text
    assert "'s 3' no es un movimiento: detrás de 's' no va nada." in text
    assert "solo una columna da varias cartas a la vez, 'w' no." in text
    assert text.count("Escribe ? para ver los movimientos posibles, h para la ayuda.") == 3
    assert "is not a move" not in text and "is not a pile" not in text


def test_play_help_gives_the_rules_in_the_language():
    result = run("play", "klondike", "-n", "24", input="h\nq\n", locale=DUTCH)
    text = words(result.stdout)
    assert "Solitaire (Klondike, 3 kaarten draaien)" in text
    assert "De opbouw" in text and "Draai steeds drie kaarten van de stock open" in text
    assert "Turn three cards" not in text and "Engels" not in text


# -- deal, solve ------------------------------------------------------------------------------


def test_deal_notes_and_errors_in_the_language():
    result = run("deal", "klondike-draw1", "--lang", "es")
    assert result.exit_code == 0, result.output
    assert "(un reparto al azar: vuelve a verlo con --number " in result.stdout
    assert "a random deal" not in result.stdout
    # the board text itself is the notation's, in every language
    board = run("deal", "klondike", "-n", "24", "--lang", "nl").stdout
    assert board == run("deal", "klondike", "-n", "24").stdout
    view = words(run("deal", "klondike", "-n", "24", "--view", locale=DUTCH).stdout)
    assert "Solitaire (Klondike, 3 kaarten draaien) #24" in view and "Zetten 0" in view
    bad = run("deal", "klondike", "-n", "-3", locale=DUTCH)
    assert bad.exit_code == 2 and bad.stdout == ""
    assert "fout: Het spelnummer moet van 0 tot " in bad.stderr and "-3" in bad.stderr
    unknown = run("deal", "klondyke", "--lang", "es")
    assert unknown.exit_code == 2
    assert "error: Ningún juego se llama 'klondyke'. Los juegos son: klondike," in words(
        unknown.stderr
    )


def test_solve_says_the_outcome_in_the_language():
    result = run("solve", "klondike", "-n", "24", "--lang", "nl")
    assert result.exit_code == 0, result.output
    assert "Solitaire (Klondike, 3 kaarten draaien) #24: opgelost in " in result.stdout
    assert "posities doorzocht" in result.stdout and "solved" not in result.stdout


# -- replay ---------------------------------------------------------------------------------------


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_replay_summary_in_the_language(tmp_path):
    path = write(tmp_path / "game.json", SHORT)
    result = run("replay", str(path), locale=DUTCH)
    assert result.exit_code == 0, result.output
    assert "klondike #24: 3 zetten, niet gewonnen, 65 punten (zonder de tijdbonus)." in (
        result.stdout
    )
    assert "Punten 65" in result.stdout and "moves" not in result.stdout
    # --json is the same in every language
    assert run("replay", str(path), "--json", "--lang", "es").stdout == run(
        "replay", str(path), "--json"
    ).stdout


def test_replay_illegal_move_in_the_language(tmp_path):
    record = {"game": "klondike", "number": 24, "moves": ["c3 f", "s", "c1 c2", "s"]}
    path = write(tmp_path / "bad.json", record)
    result = run("replay", str(path), "--lang", "es")
    assert result.exit_code == 2
    assert "La posición antes del movimiento 3:" in result.stdout
    said = words(result.stderr)
    assert said.startswith("error: el movimiento 3 del registro, 'c1 c2', no se puede jugar:")
    assert "El cinco de tréboles no puede ir sobre el nueve de corazones" in said
    assert "5C cannot go on 9H" not in said and "before move" not in result.stdout


def test_replay_move_not_in_the_notation_in_the_language(tmp_path):
    path = write(tmp_path / "bad.json", {"game": "klondike", "number": 24, "moves": ["s", "zz"]})
    result = run("replay", str(path), "--json", locale=DUTCH)
    assert result.exit_code == 2 and result.stdout == ""
    said = words(result.stderr)
    assert "fout: zet 2 van het spelverslag, 'zz', kan niet gespeeld worden:" in said
    assert "'zz' is geen zet: schrijf VAN NAAR [AANTAL]" in said
    assert "is not a move" not in said


@pytest.mark.parametrize(
    ("content", "dutch"),
    [
        ("this is not json", "Het spelverslag is geen geldige JSON (regel 1, kolom 1)."),
        ('{"game": "klondike", "moves": []}', 'Het spelverslag heeft geen "number".'),
        ('["klondike", 1, []]', "Een spelverslag is een JSON-object met game, number en moves."),
        ('{"game": "klondike", "number": -4, "moves": []}',
         '"number" moet een geheel getal vanaf 0 zijn, niet -4.'),
        ('{"game": "klondike", "number": 1, "moves": "s"}', '"moves" moet een lijst van zetten'),
    ],
)
def test_replay_malformed_record_in_the_language(tmp_path, content, dutch):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("replay", str(path), "--lang", "nl")
    assert result.exit_code == 2 and result.stdout == ""
    said = words(result.stderr)
    assert said.startswith(f"fout: {path}: "), said
    assert dutch in said
    assert "must be" not in said and "has no" not in said and "not valid" not in said


def test_load_a_corrupt_save_in_the_language(tmp_path):
    save = write(tmp_path / "g.json", {"game": "nope", "number": 1, "moves": []})
    result = run("play", "--load", str(save), "--lang", "es", input="q\n")
    assert result.exit_code == 2
    assert "Ningún juego se llama 'nope'" in words(result.stderr)
    assert "g.json" in result.stderr
    other = write(tmp_path / "k.json", {"game": "klondike", "number": 24, "moves": []})
    result = run("play", "patriarchs", "--load", str(other), input="q\n", locale=DUTCH)
    assert result.exit_code == 2
    assert "bevat een spel klondike, niet patriarchs" in words(result.stderr)
