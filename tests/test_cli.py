"""The command line: games, rules, deal, play (driven through stdin) and replay."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import patiencekit
from patiencekit import GAMES
from patiencekit.cli import app
from patiencekit.solver import Budget, autocomplete_possible, hint, solve
from patiencekit.tui import SCREEN_WIDTH, PlaySession, board_lines, board_text
from patiencekit.words import move_words, refusal_words

REPO_ROOT = Path(__file__).resolve().parent.parent
SRC = REPO_ROOT / "src"

#: no locale that names a language: the terminal speaks English whatever the machine's locale
NEUTRAL_LOCALE = {"LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None, "LANG": "C.UTF-8"}
# Colours off and a fixed environment: the output is plain text.
runner = CliRunner(
    env={"NO_COLOR": "1", "FORCE_COLOR": None, "TTY_COMPATIBLE": None, **NEUTRAL_LOCALE}
)

KLONDIKE_24_COLUMN_7 = ["4C", "AH", "2S", "6C", "6H", "TH", "KH"]


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# -- games, rules ----------------------------------------------------------------------


def test_games_lists_every_game():
    result = run("games")
    assert result.exit_code == 0, result.output
    for g in patiencekit.GAMES.values():
        assert g.id in result.stdout
        assert g.name in result.stdout


def test_games_json():
    result = run("games", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    games = patiencekit.GAMES.values()
    assert data == [{"id": g.id, "name": g.name, "decks": g.decks} for g in games]
    assert {"id": "patiencemax", "name": "PatienceMax", "decks": 2} in data
    assert len(data) == len(GAMES)


def test_rules_text_and_json():
    result = run("rules", "klondike")
    assert result.exit_code == 0
    assert "Solitaire (Klondike, draw 3)" in result.stdout
    # Rich wraps the text to the screen: compare words, not lines
    assert " ".join(result.stdout.split()).count("Build the four foundations up by suit") == 1
    data = json.loads(run("rules", "Solitaire", "--json").stdout)
    assert data["id"] == "klondike"
    assert data["name"] == "Solitaire (Klondike, draw 3)"
    assert data["rules_text"] == patiencekit.get_rules("klondike").rules_text


@pytest.mark.parametrize("command", ["rules", "deal", "play"])
def test_unknown_game_lists_the_games(command):
    result = run(command, "klondyke", input="q\n")
    assert result.exit_code == 2
    assert "klondyke" in result.stderr
    for gid in patiencekit.GAMES:
        assert gid in result.stderr
    assert result.stdout == ""


# -- deal ----------------------------------------------------------------------------------


def test_deal_json_shape_klondike_24():
    result = run("deal", "klondike", "--number", "24", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"game", "number", "piles"}
    assert data["game"] == "klondike" and data["number"] == 24
    for pile in data["piles"]:
        assert set(pile) == {"kind", "index", "face_down", "cards"}
    kinds = [p["kind"] for p in data["piles"]]
    assert kinds.count("column") == 7
    assert kinds.count("stock") == 1 and kinds.count("waste") == 1
    assert kinds.count("foundation") == 4
    assert len(kinds) == 13
    columns = [p for p in data["piles"] if p["kind"] == "column"]
    assert [p["index"] for p in columns] == [1, 2, 3, 4, 5, 6, 7]
    assert [p["face_down"] for p in columns] == [0, 1, 2, 3, 4, 5, 6]
    assert [len(p["cards"]) for p in columns] == [1, 2, 3, 4, 5, 6, 7]
    assert columns[6]["cards"] == KLONDIKE_24_COLUMN_7
    assert columns[6]["face_down"] == 6
    (stock,) = [p for p in data["piles"] if p["kind"] == "stock"]
    assert len(stock["cards"]) == 24 and stock["face_down"] == 24
    (waste,) = [p for p in data["piles"] if p["kind"] == "waste"]
    assert waste["cards"] == [] and waste["face_down"] == 0
    assert all(p["cards"] == [] for p in data["piles"] if p["kind"] == "foundation")
    # all 52 cards, once each
    cards = [c for p in data["piles"] for c in p["cards"]]
    assert len(cards) == 52 and len(set(cards)) == 52
    # and it is exactly the engine's deal_json()
    assert data == patiencekit.new_game("klondike", 24).deal_json()


def test_deal_json_alias_and_seed_option():
    a = json.loads(run("deal", "solitaire", "--seed", "24", "--json").stdout)
    b = json.loads(run("deal", "klondike", "-n", "24", "--json").stdout)
    assert a == b


def test_deal_text_is_the_board_text():
    result = run("deal", "klondike", "--number", "24")
    assert result.exit_code == 0
    expected = patiencekit.new_game("klondike", 24).board_text()
    assert result.stdout.rstrip("\n") == expected
    assert "c7: <4C> <AH> <2S> <6C> <6H> <TH> KH" in result.stdout


def test_deal_view_shows_the_players_board():
    result = run("deal", "patiencemax", "--number", "1", "--view")
    assert result.exit_code == 0
    assert "PatienceMax" in result.stdout and "#1" in result.stdout
    assert "c10" in result.stdout and "h4" in result.stdout


@pytest.mark.parametrize("game_id", ["klondike", "patriarchs", "captured-queens"])
def test_deal_view_json_is_the_players_view(game_id):
    """Issue 10: ``deal GAME --view --json`` prints the player's view (hidden cards null),
    not every hidden card; the keys of ``deal --json`` are all there (keys are only added)."""
    result = run("deal", game_id, "--number", "24", "--view", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    game = patiencekit.new_game(game_id, 24)
    assert data == game.view().to_json()
    full = game.deal_json()
    assert set(full) <= set(data)
    assert len(data["piles"]) == len(full["piles"])
    for seen, whole in zip(data["piles"], full["piles"], strict=True):
        assert set(whole) <= set(seen)
        assert (seen["kind"], seen["index"], seen["face_down"]) == (
            whole["kind"], whole["index"], whole["face_down"],
        )
        down = whole["face_down"]
        assert seen["cards"][:down] == [None] * down
        assert seen["cards"][down:] == whole["cards"][down:]
    (stock,) = [p for p in data["piles"] if p["kind"] == "stock"]
    assert stock["cards"] and set(stock["cards"]) == {None}
    # no hidden card's text appears anywhere in the output (one deck: each card once)
    if game.rules.decks == 1:
        hidden = {c for p in full["piles"] for c in p["cards"][: p["face_down"]]}
        assert hidden and not any(f'"{c}"' in result.stdout for c in hidden)
    # plain --json is still the whole deal
    assert json.loads(run("deal", game_id, "--number", "24", "--json").stdout) == full


def test_deal_without_number_prints_a_replayable_number():
    result = run("deal", "klondike-draw1")
    assert result.exit_code == 0
    m = re.search(r"--number (\d+)", result.stdout)
    assert m, result.stdout
    again = run("deal", "klondike-draw1", "--number", m.group(1))
    assert again.stdout.rstrip("\n") in result.stdout


def test_deal_json_without_number_keeps_stdout_pure_json():
    result = run("deal", "patriarchs", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert str(data["number"]) in result.stderr
    again = json.loads(run("deal", "patriarchs", "--number", str(data["number"]), "--json").stdout)
    assert again == data


@pytest.mark.parametrize("number", ["-1", str(10**20)])
def test_deal_bad_number(number):
    result = run("deal", "klondike", "--number", number, "--json")
    assert result.exit_code == 2
    assert "game number" in result.stderr
    assert number in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("game_id", list(patiencekit.GAMES))
def test_every_board_fits_80_columns(game_id):
    game = patiencekit.new_game(game_id, 7)
    lines = board_lines(game)
    assert max(line.cell_len for line in lines) <= SCREEN_WIDTH
    text = board_text(game, colour=False)
    # every visible card of the view is on the board
    for pile in game.view().piles:
        if pile.kind.value in ("foundation", "hand", "reserve", "packet", "index"):
            top = pile.cards[-1] if pile.cards else None
            if top is not None:
                assert top.symbol_text in text


def test_board_colours_red_suits_and_shows_backs():
    game = patiencekit.new_game("klondike", 24)
    coloured = board_text(game, colour=True)
    plain = board_text(game, colour=False)
    assert "\x1b[" not in plain
    # column 2's face-up card is 9H (red); column 1's is 5C (black)
    assert re.search(r"\x1b\[[0-9;]*31m9♥", coloured)
    assert not re.search(r"\x1b\[[0-9;]*31m5♣", coloured)
    assert "5♣" in coloured
    assert plain.count("░░") == 21 + 1  # 21 face-down column cards, the stock's back
    assert "s ░░ 24" in plain
    # a foundation's card is as bright as any other (not dimmed like the labels)
    game.play("c3 f")
    assert re.search(r"f1 \x1b\[0m\x1b\[1mA♣", board_text(game, colour=True))


def test_draw3_waste_fans_the_top_three():
    game = patiencekit.new_game("klondike", 24)
    game.play("s")
    game.play("s")
    waste = game.deal_json()["piles"][1]["cards"]
    assert len(waste) == 6
    plain = board_text(game, colour=False)
    top3 = " ".join(patiencekit.Card.parse(c).symbol_text for c in waste[-3:])
    assert f"w {top3} (6)" in plain
    assert "s ░░ 18" in plain


# -- replay ---------------------------------------------------------------------------------


SHORT = {"game": "klondike", "number": 24, "moves": ["c3 f", "s", "c4 c2"]}


def test_replay_json_short_record(tmp_path):
    path = write(tmp_path / "game.json", SHORT)
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"won", "score", "moves", "piles"}
    assert data["won"] is False
    # column to foundation +25, two face-down cards turned up +20 each
    assert data["score"] == 65
    assert data["moves"] == 3
    game = patiencekit.new_game("klondike", 24)
    for move in SHORT["moves"]:
        game.play(move)
    assert data["piles"] == game.deal_json()["piles"]
    foundations = [p for p in data["piles"] if p["kind"] == "foundation"]
    assert foundations[0]["cards"] == ["AC"]


def test_replay_unscored_game_has_null_score(tmp_path):
    game = patiencekit.new_game("patiencemax", 3)
    moves = [str(m) for m in list(game.legal_moves)[:1]]
    path = write(tmp_path / "pm.json", {"game": "patiencemax", "number": 3, "moves": moves})
    data = json.loads(run("replay", str(path), "--json").stdout)
    assert data["score"] is None
    assert data["moves"] == 1
    game.play(moves[0])
    assert data["piles"] == game.deal_json()["piles"]


def test_replay_text_prints_board_and_summary(tmp_path):
    path = write(tmp_path / "game.json", SHORT)
    result = run("replay", str(path))
    assert result.exit_code == 0
    assert "Solitaire (Klondike, draw 3)" in result.stdout
    assert "klondike #24: 3 moves, not won, score 65" in result.stdout


def test_replay_from_stdin():
    result = run("replay", "-", "--json", input=json.dumps(SHORT))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["moves"] == 3


def test_replay_illegal_move_names_position_move_and_reason(tmp_path):
    record = {"game": "klondike", "number": 24, "moves": ["c3 f", "s", "c1 c2", "s"]}
    path = write(tmp_path / "bad.json", record)
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "move 3" in result.stderr
    assert "c1 c2" in result.stderr
    assert "5C cannot go on 9H" in result.stderr
    # without --json the position before the bad move is shown
    text = run("replay", str(path))
    assert text.exit_code == 2
    assert "before move 3" in text.stdout


def test_replay_move_that_is_not_notation(tmp_path):
    path = write(tmp_path / "bad.json", {"game": "klondike", "number": 24, "moves": ["s", "zz"]})
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2
    assert "move 2" in result.stderr and "'zz'" in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("this is not json", "not valid JSON"),
        ('{"game": "klondike", "moves": []}', '"number"'),
        ('{"game": "klondike", "number": 1}', '"moves"'),
        ('["klondike", 1, []]', "JSON object"),
        ('{"game": "nope", "number": 1, "moves": []}', "klondike-draw1"),
        ('{"game": "klondike", "number": -4, "moves": []}', "number"),
        ('{"game": "klondike", "number": 1, "moves": "s"}', "moves"),
    ],
)
def test_replay_malformed_file(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.output


def test_replay_missing_file(tmp_path):
    result = run("replay", str(tmp_path / "missing.json"))
    assert result.exit_code == 2
    assert "missing.json" in result.stderr


# -- play ----------------------------------------------------------------------------------


def play(*commands: str, args: tuple[str, ...] = ("klondike", "--number", "24")):
    return run("play", *args, input="".join(c + "\n" for c in commands))


def test_play_typo_then_the_game_goes_on(tmp_path):
    save = tmp_path / "g.json"
    result = play("c3 x9", "c3 f", "q", args=("klondike", "-n", "24", "--save", str(save)))
    assert result.exit_code == 0, result.output
    assert "'c3 x9' is not a move" in result.stdout
    assert "Played c3 f1" in result.stdout
    assert json.loads(save.read_text())["moves"] == ["c3 f1"]


def test_play_question_mark_lists_the_legal_moves():
    result = play("?", "q")
    assert result.exit_code == 0
    listed = result.stdout.split("Legal moves", 1)[1].splitlines()[0]
    expected = list(patiencekit.new_game("klondike", 24).legal_moves)
    assert f"({len(expected)})" in listed
    for move in expected:
        assert str(move) in listed
    assert "c3 f1 (A♣)" in listed


def test_play_illegal_move_is_refused_with_the_engines_reason_in_words(tmp_path):
    save = tmp_path / "g.json"
    result = play("c1 c2", "s", "q", args=("klondike", "-n", "24", "--save", str(save)))
    assert result.exit_code == 0
    game = patiencekit.new_game("klondike", 24)
    with pytest.raises(patiencekit.IllegalMoveError) as refused:
        game.play("c1 c2")
    words = refusal_words(game, refused.value)
    assert words == "The five of clubs can't go on the nine of hearts: it needs a black eight."
    assert f"Not allowed (c1 c2): {words}" in result.stdout
    # the refused move left no trace: only the stock turn was played
    assert json.loads(save.read_text())["moves"] == ["s"]


def test_play_undo_and_redo(tmp_path):
    save = tmp_path / "g.json"
    args = ("klondike", "-n", "24", "--save", str(save))
    result = play("c3 f", "s", "u", "q", args=args)
    assert "Undid s" in result.stdout
    assert json.loads(save.read_text())["moves"] == ["c3 f1"]
    result = play("c3 f", "s", "u", "r", "q", args=args)
    assert "Redid s" in result.stdout
    assert json.loads(save.read_text())["moves"] == ["c3 f1", "s"]
    result = play("u", "q")
    assert "Not allowed (undo): There is no move to take back." in result.stdout
    result = play("restart", "q")
    assert "Not allowed (restart): There is no move to take back." in result.stdout


def test_play_q_and_eof_quit_cleanly(tmp_path):
    result = play("q", "c3 f")
    assert result.exit_code == 0
    assert "Played" not in result.stdout  # nothing after q is read
    save = tmp_path / "g.json"
    result = run("play", "klondike", "-n", "24", "--save", str(save), input="c3 f\n")
    assert result.exit_code == 0
    assert "Saved to" in result.stdout
    assert json.loads(save.read_text())["moves"] == ["c3 f1"]
    assert run("play", "klondike", input="").exit_code == 0


def test_play_shows_score_time_and_moves():
    result = play("c3 f", "q")
    assert "Score 0   Time 0:00   Moves 0" in result.stdout
    assert "Score 45   Time 0:00   Moves 1" in result.stdout


def test_play_single_card_or_pile_goes_to_a_foundation(tmp_path):
    result = play("ac", "q")
    assert "Played c3 f1 (A♣)" in result.stdout
    result = play("c3", "q")
    assert "Played c3 f1 (A♣)" in result.stdout
    result = play("c7", "7h", "xyz", "q")
    assert "Not allowed (c7 f): No foundation takes the king of hearts now." in result.stdout
    assert "The seven of hearts is not the playable card of any pile." in result.stdout
    assert "'xyz' is not a move or a card" in result.stdout
    assert "Played" not in result.stdout


def test_play_help_and_new_deal():
    result = play("h", "n 5", "q")
    assert "u / r" in result.stdout
    assert "Turn three cards at a time" in " ".join(result.stdout.split())
    assert "Solitaire (Klondike, draw 3)  #5" in result.stdout
    result = play("n x", "q")
    assert "whole number" in result.stdout


def test_play_random_deal_prints_its_number():
    result = run("play", "captured-queens", input="q\n")
    m = re.search(r"Game number (\d+)", result.stdout)
    assert m
    assert f"--number {m.group(1)}" in result.stdout


def test_play_other_games_boards():
    result = play("?", "q", args=("senior-wrangler", "-n", "2"))
    assert result.exit_code == 0
    assert "p1" in result.stdout and "i8" in result.stdout
    result = play("t", "s", "q", args=("royal-cotillion", "-n", "2"))
    assert "r16" in result.stdout and "Played s" in result.stdout


def test_play_ranked_refuses_undo():
    result = play("s", "u", "q", args=("klondike", "-n", "24", "--ranked"))
    assert "ranked game" in result.stdout


def test_save_and_load_round_trip(tmp_path):
    save = tmp_path / "g.json"
    play("c3 f", "s", "q", args=("klondike", "-n", "24", "--save", str(save)))
    data = json.loads(save.read_text())
    assert data["game"] == "klondike" and data["number"] == 24
    assert data["moves"] == ["c3 f1", "s"]
    # resume, play on: the file keeps being written
    result = run("play", "--load", str(save), input="c4 c2\nq\n")
    assert result.exit_code == 0, result.output
    assert "Score 45   Time 0:00   Moves 2" in result.stdout
    assert json.loads(save.read_text())["moves"] == ["c3 f1", "s", "c4 c2"]
    # the saved game replays to the same position
    replayed = json.loads(run("replay", str(save), "--json").stdout)
    assert replayed["score"] == 65 and replayed["moves"] == 3


def test_load_restores_the_time_played(tmp_path):
    save = write(tmp_path / "g.json", {"game": "klondike", "number": 24, "moves": [],
                                       "elapsed": 125})
    result = run("play", "klondike", "--load", str(save), input="q\n")
    assert "Time 2:05" in result.stdout


def test_load_into_another_file(tmp_path):
    first = write(tmp_path / "a.json", {"game": "klondike", "number": 24, "moves": ["s"]})
    second = tmp_path / "b.json"
    run("play", "--load", str(first), "--save", str(second), input="s\nq\n")
    assert json.loads(first.read_text())["moves"] == ["s"]
    assert json.loads(second.read_text())["moves"] == ["s", "s"]


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        '{"game": "klondike", "number": 24}',
        '{"game": "klondike", "number": 24, "moves": ["s", "c1 c2"]}',
    ],
)
def test_corrupt_save_file_is_refused_and_left_alone(tmp_path, content):
    save = tmp_path / "g.json"
    save.write_text(content, encoding="utf-8")
    result = run("play", "--load", str(save), input="s\nq\n")
    assert result.exit_code == 2
    assert "g.json" in result.stderr
    assert result.stdout == ""
    assert save.read_text(encoding="utf-8") == content


def test_load_checks_game_and_number(tmp_path):
    save = write(tmp_path / "g.json", {"game": "klondike", "number": 24, "moves": []})
    assert run("play", "patriarchs", "--load", str(save), input="q\n").exit_code == 2
    assert run("play", "--load", str(save), "-n", "3", input="q\n").exit_code == 2
    assert run("play", "klondike", "--load", str(save), "-n", "24", input="q\n").exit_code == 0
    result = run("play", input="q\n")
    assert result.exit_code == 2 and "--load" in result.stderr


# -- the session: win and no moves left --------------------------------------------------


def session_for(game, commands):
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, highlight=False)
    lines = iter(commands)

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    return PlaySession(game, console, read=read, echo=True), out


def test_session_detects_a_win_and_offers_what_next():
    now = [100.0]
    game = patiencekit.new_game("klondike-draw1", 24, clock=lambda: now[0])
    now[0] = 130.0  # the winning move comes 30 seconds after the deal
    s, t = game.state, game.tables
    for i in range(len(s.piles)):
        s.piles[i], s.down[i] = [], 0
    for suit, f in enumerate(t.foundations):  # f1..f4 = clubs, spades, hearts, diamonds
        s.piles[f] = [suit * 13 + rank for rank in range(13)]
    s.piles[t.foundations[3]].pop()
    s.piles[t.by_label["c1"]] = [patiencekit.Card.parse("KD").index]
    session, out = session_for(game, ["c1"])
    assert session.run() == 0
    text = out.getvalue()
    # column to foundation +25, time bonus 1000 - 30 seconds
    assert "Congratulations" in text
    assert "Score 995 (time bonus 970 included)" in text
    assert "time 0:30, 1 moves" in text
    assert "n: a new game, u: undo, q: quit" in text


def test_session_says_when_no_move_is_left():
    game = patiencekit.new_game("klondike", 24)
    s, t = game.state, game.tables
    for i in range(len(s.piles)):
        s.piles[i], s.down[i] = [], 0
    s.piles[t.by_label["c1"]] = [patiencekit.Card.parse("2C").index]
    session, out = session_for(game, ["?", "c1"])
    session.run()
    text = out.getvalue()
    assert "No moves left" in text
    assert "No legal moves" in text
    assert "Congratulations" not in text


# -- as a program ----------------------------------------------------------------------------


def _program(
    *args: str, stdin: str = "", locale: dict[str, str | None] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    for key, value in {**NEUTRAL_LOCALE, **(locale or {})}.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    env["NO_COLOR"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", *args], input=stdin, capture_output=True, text=True,
        env=env, check=False, timeout=60, encoding="utf-8",
    )


def test_python_m_patiencekit_plays_from_a_pipe():
    proc = _program("patiencekit", "play", "klondike", "--number", "24",
                    stdin="oops\nc1 c2\nc3 f\nu\n")
    assert proc.returncode == 0, proc.stderr
    assert "'oops' is not a move or a card" in proc.stdout
    assert "The five of clubs can't go on the nine of hearts" in proc.stdout
    assert "Undid c3 f1" in proc.stdout
    assert "Bye" in proc.stdout  # EOF quits


def test_python_m_patiencekit_cli_exit_status():
    proc = _program("patiencekit.cli", "deal", "nope")
    assert proc.returncode == 2
    assert "klondike" in proc.stderr
    proc = _program("patiencekit.cli", "deal", "klondike", "-n", "24", "--json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == patiencekit.new_game("klondike", 24).deal_json()


def test_play_hint_says_the_move_in_words():
    result = play("hint", "q")
    assert result.exit_code == 0, result.output
    move = hint(patiencekit.new_game("klondike", 24))
    words = patiencekit.new_game("klondike", 24).describe(move)
    assert f"Hint: {words} ({move})" in result.stdout


# -- the player's language -------------------------------------------------------------------

#: what deal 24 of Klondike says to ``c1 c2``, ``hint``, ``u`` and ``h``, in each language
SAID = {
    "nl": (
        "Niet toegestaan (c1 c2): De klaveren vijf kan niet op de harten negen: daar hoort een "
        "zwarte acht op.",
        "Tip: ",
        "Niet toegestaan (undo): Er is geen zet om terug te nemen.",
        "Opdrachten:",
        "Punten 0   Tijd 0:00   Zetten 0",
    ),
    "es": (
        "No permitido (c1 c2): El cinco de tréboles no puede ir sobre el nueve de corazones: "
        "necesita un ocho negro.",
        "Pista: ",
        "No permitido (undo): No hay ningún movimiento que deshacer.",
        "Órdenes:",
        "Puntos 0   Tiempo 0:00   Movimientos 0",
    ),
}


def _hint_line(lang: str) -> str:
    game = patiencekit.new_game("klondike", 24)
    move = hint(game)
    return f"{move_words(game, move, lang)} ({move})"


@pytest.mark.parametrize("lang", ["nl", "es"])
def test_play_lang_gives_refusals_hints_and_help_in_that_language(lang):
    result = play("c1 c2", "hint", "u", "h", "q", args=("klondike", "-n", "24", "--lang", lang))
    assert result.exit_code == 0, result.output
    refusal, hint_word, undo, commands, status = SAID[lang]
    text = result.stdout
    assert refusal in text
    assert f"{hint_word}{_hint_line(lang)}" in text
    assert undo in text and commands in text and status in text
    assert "Not allowed" not in text and "Hint:" not in text and "Commands:" not in text


def test_play_follows_the_locale_and_lang_wins_over_it():
    locale = {"LANG": "es_ES.UTF-8"}
    result = runner.invoke(app, ["play", "klondike", "-n", "24"], input="c1 c2\nhint\nq\n",
                           env=locale)
    assert result.exit_code == 0, result.output
    assert SAID["es"][0] in result.stdout
    assert f"Pista: {_hint_line('es')}" in result.stdout
    assert "Adiós." in result.stdout
    # LC_ALL before LANG; --lang before both
    result = runner.invoke(app, ["play", "klondike", "-n", "24"], input="c1 c2\nq\n",
                           env={"LANG": "es_ES.UTF-8", "LC_ALL": "nl_NL.UTF-8"})
    assert SAID["nl"][0] in result.stdout
    result = runner.invoke(app, ["play", "klondike", "-n", "24", "--lang", "en"],
                           input="c1 c2\nq\n", env=locale)
    assert "Not allowed (c1 c2): The five of clubs" in result.stdout


def test_play_lang_from_a_pipe_in_a_process_of_its_own():
    """As a program: ``LANG=nl_NL.UTF-8`` gives Dutch, a locale of no language of ours
    English."""
    proc = _program("patiencekit", "play", "klondike", "--number", "24",
                    stdin="c1 c2\nc3 f\nu\n", locale={"LANG": "nl_NL.UTF-8"})
    assert proc.returncode == 0, proc.stderr
    assert SAID["nl"][0] in proc.stdout
    assert "Gespeeld: c3 f1 (A♣)." in proc.stdout and "c3 f1 teruggenomen." in proc.stdout
    assert "Tot ziens." in proc.stdout
    proc = _program("patiencekit", "play", "klondike", "--number", "24",
                    stdin="c1 c2\n", locale={"LANG": "fr_FR.UTF-8"})
    assert "Not allowed (c1 c2): The five of clubs" in proc.stdout


def test_play_unknown_lang_is_refused():
    result = play("q", args=("klondike", "-n", "24", "--lang", "fr"))
    assert result.exit_code == 2
    assert "--lang must be one of en, nl, es" in result.stderr


@pytest.mark.parametrize("lang", ["nl", "es"])
def test_session_win_and_typos_in_the_language(lang):
    """The session's own sentences (a typo, a card alone, a win) are translated too."""
    game = patiencekit.new_game("klondike-draw1", 24)
    s, t = game.state, game.tables
    for i in range(len(s.piles)):
        s.piles[i], s.down[i] = [], 0
    for suit, f in enumerate(t.foundations):
        s.piles[f] = [suit * 13 + rank for rank in range(13)]
    s.piles[t.foundations[3]].pop()
    s.piles[t.by_label["c1"]] = [patiencekit.Card.parse("KD").index]
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None, highlight=False)
    lines = iter(["c1 x9", "oops", "7h", "c1"])

    def read(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    PlaySession(game, console, read=read, echo=True, lang=lang).run()
    text = out.getvalue()
    expected = {
        "nl": ["'c1 x9' is geen zet", "'oops' is geen zet en geen kaart",
               "De harten zeven is van geen enkele stapel", "Gefeliciteerd, je hebt"],
        "es": ["'c1 x9' no es un movimiento", "'oops' no es un movimiento ni una carta",
               "El siete de corazones no es la carta jugable", "¡Enhorabuena, has ganado"],
    }[lang]
    for said in expected:
        assert said in text, (said, text)
    assert "Congratulations" not in text and "is not a move" not in text


def test_play_a_refuses_then_finishes_once_the_view_proves_the_win(tmp_path):
    refused = play("a", "q")
    assert "Nothing you can see proves a win yet" in refused.stdout
    # a game near its end: the solver's line of deal 24 (draw 1), played up to where what
    # the player sees proves the win
    game = patiencekit.new_game("klondike-draw1", 24)
    line = solve(game, budget=Budget(seconds=None, states=200_000)).moves
    for m in line:
        if autocomplete_possible(game):
            break
        game.play(m)
    assert not game.is_won() and autocomplete_possible(game)
    save = tmp_path / "near.json"
    save.write_text(json.dumps(game.record().to_json()))
    result = run("play", "--load", str(save), "--save", str(save), input="a\nq\n")
    assert result.exit_code == 0, result.output
    assert "Auto-completed" in result.stdout
    assert patiencekit.Game.from_record(json.loads(save.read_text())).is_won()
