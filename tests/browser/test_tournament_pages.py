"""Tournaments in Chromium against the real server: two accounts in two browser contexts make
and join a tournament, play its rounds on the tournament page, see the places, the deals, a
replay, the Top 100 and a profile.

A running round's deal is never sent, so the player here picks scoring moves from what the
page shows, as a person would; once the tournament is over, its published deals let the
engine check the scores.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from layout_helpers import sign_up_context

from patiencekit import Game
from patiencekit.server.pages import page_html

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "src" / "patiencekit" / "server" / "static"
PAGES = ["tournaments.html", "tournament.html", "top100.html", "profile.html"]
DESKTOP = {"width": 1280, "height": 800}
STATUS = "s => window.pk?.tournament && window.pk.tournament.status === s"


@pytest.mark.parametrize("name", PAGES)
def test_the_competition_pages_name_only_files_that_exist(name: str) -> None:
    html = page_html(name)
    assert html is not None, f"{name} is missing"
    assert html.startswith("<!doctype html>") and '<html lang="en">' in html
    assert html.index("theme-init.js") < html.index(".css")
    for url in re.findall(r'\b(?:src|href)="(/static/[^"]*)"', html):
        assert (STATIC / url.removeprefix("/static/")).is_file(), f"{name}: {url} is missing"


def test_the_lobby_links_to_tournaments_and_the_top_100() -> None:
    html = page_html("lobby.html")  # the words (and their links) are the catalogue's
    assert html is not None
    for href in ("/tournaments", "/top100/klondike", "/top100/klondike-draw1"):
        assert f'href="{href}"' in html


class Player:
    """A browser context of its own (its own cookies), signed up as a new account."""

    def __init__(self, browser: Any, server: str, errors: list[str]) -> None:
        self.ctx = browser.new_context(viewport=DESKTOP)
        self.ctx.set_default_timeout(10_000)
        self.page = self.ctx.new_page()
        self.page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        self.name = sign_up_context(self.ctx, server, "t")


MOVE = re.compile(r"^(w|c\d+) (f\d*|c\d+)(?: (\d+))?$")


def gain_in_view(play: dict[str, Any], move: str) -> int:
    """The points a Klondike move gains, as RULES.md scores it, judged from the player's view
    alone: to a foundation +25 (+50 from the waste), waste to a column +25, and +20 when the
    move leaves a column's face-down card on top (it is turned up). 0 for anything else."""
    m = MOVE.match(move)
    if m is None:
        return 0
    src, dst, count = m.group(1), m.group(2), int(m.group(3) or 1)
    if src == "w":
        return 50 if dst.startswith("f") else 25
    pile = next(p for p in play["piles"] if p["label"] == src)
    face_up = len(pile["cards"]) - pile["face_down"]
    turns_one_up = pile["face_down"] > 0 and count == face_up
    gain = (25 if dst.startswith("f") else 0) + (20 if turns_one_up else 0)
    return gain


def next_scoring_move(play: dict[str, Any]) -> tuple[str, int]:
    """The legal move that gains most in view, or the stock turned (0) when none gains."""
    legal = play["legal_moves"]
    best = max(legal, key=lambda m: gain_in_view(play, m))
    if gain_in_view(play, best) > 0:
        return best, gain_in_view(play, best)
    return ("s" if "s" in legal else "t"), 0


def wait_round(page: Any, n: int) -> dict[str, Any]:
    page.wait_for_function(
        "n => window.pk?.play && window.pk.play.n === n && !window.pk.play.over", arg=n
    )
    play: dict[str, Any] = page.evaluate("window.pk.play")
    return play


def give_up(page: Any) -> None:
    page.click("#give-up")
    page.click("#give-up-yes")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=notice]').textContent.includes('gave up')"
    )


def play_round_button(page: Any, n: int) -> None:
    page.wait_for_selector(f"#play-round:has-text('round {n}')")
    page.click("#play-round")
    page.wait_for_function(
        "n => window.pk?.play && document.getElementById('round-title').textContent.startsWith("
        "'Round ' + n)",
        arg=n,
    )


def awards(cell: Any) -> list[tuple[str, str, str]]:
    """A cups or medals cell's marks: (place, count, tooltip) for each count shown."""
    shown: list[list[str]] = cell.locator(".award").evaluate_all(
        "els => els.map(e => [e.dataset.place, e.querySelector('.count').textContent, e.title])"
    )
    return [(place, count, title) for place, count, title in shown]


def round_cell(page: Any, name: str, n: int) -> Any:
    return page.locator(f'#entrants tr[data-name="{name}"] td[data-round="{n}"]')


def test_two_players_join_a_tournament_and_play_its_rounds(browser: Any, server: str) -> None:
    errors: list[str] = []
    ann, bob = Player(browser, server, errors), Player(browser, server, errors)
    a, b = ann.page, bob.page
    try:
        # ann makes a tournament of Klondike draw 1 for two players.
        a.goto(f"{server}/tournaments")
        a.wait_for_selector("#new-form:not([hidden])")
        a.select_option("#new-game", "klondike-draw1")
        a.select_option("#new-size", "2")
        a.click("#new-submit")
        a.wait_for_url(re.compile(r"/tournaments/\d+$"))
        tid = int(a.url.rsplit("/", 1)[1])
        a.wait_for_function("() => window.pk?.tournament")
        assert a.text_content("[data-testid=status]") == "open"
        assert "Waiting for 1 more player" in a.text_content("#actions")

        # bob finds it among the open ones and joins: it is full, so it starts.
        b.goto(f"{server}/tournaments?status=open")
        b.locator(f'#list tr[data-id="{tid}"]').get_by_role("button", name="Join").click()
        b.wait_for_url(f"{server}/tournaments/{tid}")
        b.wait_for_function(STATUS, arg="running")
        assert b.evaluate("window.pk.tournament.deals") is None

        # bob plays round 1 on the page: typed moves that score, then gives up. The page shows
        # the round, never its deal's number, and offers no link to it.
        play_round_button(b, 1)
        play = wait_round(b, 0)
        assert play["ranked"] is True and play["game"] == "klondike-draw1"
        assert play["number"] is None
        assert b.text_content("#round-title") == "Round 1 of 3"
        assert b.locator("#round a[href*='number=']").count() == 0
        line: list[str] = []
        score = scored = 0
        while scored < 3 and len(line) < 80:
            text, gain = next_scoring_move(play)
            b.fill("#move-input", text)
            b.press("#move-input", "Enter")
            line.append(text)
            play = wait_round(b, len(line))
            score, scored = score + gain, scored + (gain > 0)
            assert play["score"] == score, (line, play["score"], score)
        assert score > 0
        assert b.text_content("[data-testid=score]") == str(score)
        give_up(b)
        assert f"counts {score} points" in b.text_content("[data-testid=notice]")
        b.wait_for_selector("#play-round:has-text('round 2')")
        assert round_cell(b, bob.name, 1).locator(".score").text_content() == str(score)

        # ann sees bob's score, and plays round 1 with the mouse: a click turns the stock.
        a.reload()
        a.wait_for_function(STATUS, arg="running")
        assert round_cell(a, bob.name, 1).locator(".score").text_content() == str(score)
        play_round_button(a, 1)
        wait_round(a, 0)
        a.click('#board .pile[data-label="s"]')
        wait_round(a, 1)
        assert a.evaluate("window.pk.play.last") == "s"
        give_up(a)

        # Rounds 2 and 3, given up at once; the last one ends the tournament.
        for n in (2, 3):
            for page in (a, b):
                play_round_button(page, n)
                wait_round(page, 0)
                give_up(page)
        a.reload()
        a.wait_for_function(STATUS, arg="finished")
        t = a.evaluate("window.pk.tournament")
        assert [(e["name"], e["place"], e["score"]) for e in t["entrants"]] == [
            (bob.name, 1, score),
            (ann.name, 2, 0),
        ]
        assert len(t["deals"]) == 3
        deals = [int(d) for d in t["deals_text"]]
        assert a.text_content("[data-testid=deals]") == "Deals " + ", ".join(t["deals_text"])
        assert a.locator(f'#entrants tr[data-name="{bob.name}"] td').first.text_content() == "1st"

        # bob's replay of round 1, step by step, and its record to download.
        a.get_by_role("button", name=f"Replay of {bob.name}, round 1").click()
        a.wait_for_selector("#replay:not([hidden])")
        a.wait_for_function(
            "n => document.getElementById('r-step').textContent === `0 / ${n}`", arg=len(line)
        )
        assert a.text_content("#r-step") == f"0 / {len(line)}"
        a.click("#r-next")
        a.wait_for_function("() => document.getElementById('r-step').textContent.startsWith('1 /')")
        assert a.text_content("#r-move") == f"move 1: {line[0]}"
        assert a.get_attribute("#r-download", "href").startswith("blob:")
        assert a.evaluate("window.pk.replay.record.moves") == line
        assert f"deal {deals[0]}" in a.text_content("#replay-title")
        # The record to download keeps the deal's every digit, and the engine replays it to
        # bob's score (the one the page showed while he played).
        record = json.loads(a.evaluate("window.pk.replay.text"))
        assert record["number"] == deals[0] and record["moves"] == line
        assert Game.from_record(record).base_score == score == record["result"]["score"]
        assert a.locator("#replay-board .pile").count() > 0

        # The Top 100 of Klondike draw 1: bob's line with his cup, and no medals yet.
        b.goto(f"{server}/top100/klondike-draw1")
        row = b.locator(f'#top tr[data-name="{bob.name}"]')
        row.wait_for()
        assert "me" in (row.get_attribute("class") or "")
        assert row.locator(".counts.medals").text_content() == "no medals"
        # One cup, of 1st place: its count beside its mark; the places never had are left out.
        assert awards(row.locator(".counts.cups")) == [("1", "1", "1 1st place cup")]
        assert row.locator(".points").text_content() == f"{score:,} points"
        ann_row = b.locator(f'#top tr[data-name="{ann.name}"]')
        assert awards(ann_row.locator(".counts.cups")) == [("2", "1", "1 2nd place cup")]

        # ann's profile: the tournament and its place.
        b.goto(f"{server}/players/{ann.name}")
        b.wait_for_selector(f'#tournaments tr[data-id="{tid}"]')
        assert b.locator(f'#tournaments tr[data-id="{tid}"] .place').text_content() == "2nd"
        assert b.locator('#standings [data-game="klondike-draw1"]').is_visible()
    finally:
        ann.ctx.close()
        bob.ctx.close()
    assert errors == [], f"console errors: {errors}"
