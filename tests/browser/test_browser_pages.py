"""The other pages in Chromium: lobby, rules, sign up / in / out, statistics, the theme."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_lobby_lists_every_game_with_rules_and_play(page: Any, server: str) -> None:
    games = page.request.get(f"{server}/api/games").json()
    page.goto(server + "/")
    page.wait_for_selector("#games .game-tile")
    tiles = page.locator("#games .game-tile")
    assert tiles.count() == len(games)
    for g in games:
        tile = page.locator(f'#games .game-tile[data-game="{g["id"]}"]')
        assert tile.locator("h2").text_content() == g["name"]
        assert tile.get_by_role("link", name="Play").get_attribute("href") == f"/play/{g['id']}"
        assert tile.get_by_role("link", name="Rules").get_attribute("href") == f"/rules/{g['id']}"
        # how many deals "Winnable deals only" draws from
        n = g["winnable_deals"]
        decks = "One deck" if g["decks"] == 1 else f"{g['decks']} decks"
        proved = f" · {n:,} {'deal' if n == 1 else 'deals'} proved winnable" if n else ""
        assert tile.locator(".decks").text_content() == decks + proved
    # The session shows in the header: a new visitor may sign in or up.
    assert page.get_by_role("link", name="Sign in").is_visible()
    assert page.get_by_role("link", name="Sign up").is_visible()
    tile = page.locator('#games .game-tile[data-game="patriarchs"]')
    tile.get_by_role("link", name="Play").click()
    page.wait_for_function("() => window.pk?.play")
    assert page.evaluate("window.pk.play.game") == "patriarchs"
    # the address is the deal's, which another browser can open too
    number = page.evaluate("window.pk.play.number_text")
    assert page.url == f"{server}/play/patriarchs?number={number}"


def test_rules_page_shows_the_rules_text(page: Any, server: str) -> None:
    games = {g["id"]: g for g in page.request.get(f"{server}/api/games").json()}
    page.goto(f"{server}/rules/senior-wrangler")
    page.wait_for_function("() => document.getElementById('title').textContent !== 'Rules'")
    assert page.text_content("#title") == games["senior-wrangler"]["name"]
    # the rules in sections, each with its heading (the request's language: English here)
    sections = games["senior-wrangler"]["rules_sections"]
    assert page.locator("#rules h2").all_text_contents() == [s["heading"] for s in sections]
    text = " ".join(page.text_content("#rules").split())
    for section in sections:
        assert " ".join(section["text"].split()) in text
    assert "Eight index cards, one each of ranks 2 to 9, never move." in text
    assert page.get_attribute("#play", "href") == "/play/senior-wrangler"


def test_signup_signout_signin_and_stats(page: Any, server: str, page_errors: Any) -> None:
    page_errors.http_ok = True  # the wrong password below is a 401
    name = f"p{uuid.uuid4().hex[:10]}"
    password = "correct horse battery"
    # A guest plays first: the game is kept when the guest signs up.
    page.goto(f"{server}/play/klondike-draw1?number=1")
    page.wait_for_function("() => window.pk?.play")
    play_url = page.url
    page.fill("#move-input", "c6 f3")
    page.press("#move-input", "Enter")
    page.wait_for_function("() => window.pk?.play?.n === 1")
    page.goto(f"{server}/signup?next=/")
    page.fill("#name", name)
    page.fill("#password", password)
    page.click("#auth-form button[type=submit]")
    page.wait_for_url(f"{server}/")
    page.wait_for_selector("[data-testid=who]")
    assert page.text_content("[data-testid=who]") == f"Signed in as {name}"
    page.goto(play_url)
    page.wait_for_function("() => window.pk?.play")
    assert page.evaluate("window.pk.play.n") == 1
    # Statistics: the page shows what the API says.
    page.goto(f"{server}/stats/{name}")
    stats = page.request.get(f"{server}/api/stats/{name}").json()
    page.wait_for_selector("#stats tbody tr")
    rows = page.locator("#stats tbody tr[data-game]")
    assert rows.count() == len(stats)
    for game_id, s in stats.items():
        cells = page.locator(f'#stats tbody tr[data-game="{game_id}"] td').all_text_contents()
        assert cells[0] == str(s["played"]) and cells[1] == str(s["won"])
    # Sign out, then a wrong password, then the right one.
    page.goto(server + "/")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_selector("#site-nav a[href^='/signin']")
    page.goto(f"{server}/signin")
    page.fill("#name", name)
    page.fill("#password", "not the password")
    page.click("#auth-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    assert page.url == f"{server}/signin"
    page.fill("#password", password)
    page.click("#auth-form button[type=submit]")
    page.wait_for_url(f"{server}/")
    page.wait_for_selector("[data-testid=who]")
    assert page.text_content("[data-testid=who]") == f"Signed in as {name}"


def test_dark_theme_follows_the_system_and_the_toggle_sticks(browser: Any, server: str) -> None:
    ctx = browser.new_context(color_scheme="dark")
    try:
        page = ctx.new_page()
        page.goto(f"{server}/play/klondike?number=3")
        page.wait_for_function("() => window.pk?.play")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        felt_dark = page.evaluate("getComputedStyle(document.body).backgroundColor")
        page.click("[data-theme-toggle]")
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") != felt_dark
        page.reload()
        page.wait_for_function("() => window.pk?.play")
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        assert page.evaluate("localStorage.getItem('pk-theme')") == "light"
    finally:
        ctx.close()


def test_a_play_that_does_not_exist_says_so(page: Any, server: str, page_errors: Any) -> None:
    page_errors.http_ok = True
    answer = page.goto(f"{server}/p/no-such-play")
    assert answer is not None and answer.status == 404  # the server's error page
    assert page.text_content("h1") == "Page not found"
    assert "There is no game at this address." in page.text_content("main")
    assert page.locator("#board").count() == 0
    assert page.get_by_role("link", name="Back to the games").is_visible()
