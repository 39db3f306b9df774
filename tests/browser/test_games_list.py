"""The pages take every game fact from ``GET /api/games``: served a changed list, they follow it
(the lobby's blurbs and cards, a board's layout, pile words and foundation hints, which games
have a Top 100 and tournaments), so no page keeps a fact of its own."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser

GAMES = re.compile(r"/api/games$")


def serve_games(page: Any, server: str, change: Any) -> list[dict[str, Any]]:
    """Serve the page the real list, changed by change(list) (by game id)."""
    games: list[dict[str, Any]] = page.request.get(f"{server}/api/games").json()
    changed = copy.deepcopy(games)
    change({g["id"]: g for g in changed})
    page.route(
        GAMES,
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(changed)
        ),
    )
    return changed


def test_the_lobby_shows_each_games_blurb_and_cards(page: Any, server: str) -> None:
    def change(by_id: dict[str, Any]) -> None:
        first = next(iter(by_id.values()))
        first["blurb"] = "A blurb of the list's own."
        first["lobby_cards"] = ["2C", "3C", "4C"]

    games = serve_games(page, server, change)
    page.goto(f"{server}/")
    tile = page.locator(f'.game-tile[data-game="{games[0]["id"]}"]')
    tile.wait_for()
    assert "A blurb of the list's own." in tile.text_content()
    cards = tile.locator(".minis .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert cards == ["2C", "3C", "4C"]
    assert page.locator(".game-tile").count() == len(games)


def test_a_board_follows_the_lists_layout_words_and_bases(page: Any, server: str) -> None:
    # A game of the klondike family turning one card: told it turns three, the page fans its
    # waste; told its columns are "tableaus" and its first foundation starts at the king of
    # hearts, it says so.
    games: list[dict[str, Any]] = page.request.get(f"{server}/api/games").json()
    game = next(g for g in games if g["layout"] == "seven-columns" and g["draw"] == 1)

    def change(by_id: dict[str, Any]) -> None:
        g = by_id[game["id"]]
        g["draw"] = 3
        g["pile_words"] = {"column": "tableau"}
        g["foundation_bases"][0] = {"rank": "K", "suit": "H"}

    serve_games(page, server, change)
    page.goto(f"{server}/play/{game['id']}?number=2")
    page.wait_for_function("() => window.pk?.play")
    pile = page.locator('#board .pile[data-label="c1"]')
    assert pile.get_attribute("aria-label").startswith("tableau 1, ")
    waste = page.locator('#board .pile[data-label="w"]')
    assert "fan-waste3" in (waste.get_attribute("class") or "")
    hint = page.locator('#board .pile[data-label="f1"] .slot .hint')
    assert hint.locator(".hint-rank").text_content() == "K"
    assert "red" in (hint.get_attribute("class") or "")
    # Picked up, a card is said to come from a tableau.
    page.locator('#board .pile[data-label="c5"] > .card').last.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=announce]').textContent.includes('tableau 5')"
    )


def test_the_ranked_games_are_the_lists(page: Any, server: str) -> None:
    # Told that only the second ranked game and a game of no rank are ranked, the Top 100 has
    # their two tabs and opens on the first of them; the tournaments' form offers the same two.
    games: list[dict[str, Any]] = page.request.get(f"{server}/api/games").json()
    ranked = [g for g in games if g["ranked"]]
    other = next(g for g in games if not g["ranked"])
    assert len(ranked) >= 2

    def change(by_id: dict[str, Any]) -> None:
        by_id[ranked[0]["id"]]["ranked"] = False
        by_id[other["id"]]["ranked"] = True

    changed = serve_games(page, server, change)
    now = [g for g in changed if g["ranked"]]
    page.goto(f"{server}/top100")
    page.wait_for_function("() => window.pk?.board")
    tabs = page.locator("#variants a")
    assert tabs.all_text_contents() == [g["short_name"] for g in now]
    assert page.locator("#variants a[aria-current=page]").text_content() == now[0]["short_name"]
    assert page.evaluate("window.pk.board.game") == now[0]["id"]
    page.goto(f"{server}/tournaments")
    page.wait_for_selector("#new-game option", state="attached")
    values = page.locator("#new-game option").evaluate_all("els => els.map(e => e.value)")
    assert values == [g["id"] for g in now]
