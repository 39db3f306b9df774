"""The daily deal in Chromium against the real server: a player finds it from the lobby, plays
today's deal of Solitaire on its page (a ranked play: no number, no undo or hint), gives it up,
and sees themselves in the day's table; a second attempt is refused. In Dutch, the daily deals
have no English left."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from i18n_helpers import TEXTS, english_left

from patiencekit.server.pages import page_html

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "src" / "patiencekit" / "server" / "static"
DESKTOP = {"width": 1280, "height": 800}
#: a daily deal's number has 20 digits (as a ranked deal's); nothing this long is shown
LONG_NUMBER = re.compile(r"\d{15,}")


@pytest.mark.parametrize("name", ["daily.html", "daily-deal.html"])
def test_the_daily_pages_name_only_files_that_exist(name: str) -> None:
    html = page_html(name)
    assert html is not None, f"{name} is missing"
    for url in re.findall(r'\b(?:src|href)="(/static/[^"]*)"', html):
        assert (STATIC / url.removeprefix("/static/")).is_file(), f"{name}: {url} is missing"


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_the_lobby_links_to_the_daily_deals(lang: str) -> None:
    html = page_html("lobby.html", lang)
    assert html is not None and '<a href="/daily" id="daily-link">' in html


def _sign_up(ctx: Any, server: str) -> str:
    name = f"d{uuid.uuid4().hex[:10]}"
    csrf = ctx.request.get(f"{server}/api/session").json()["csrf"]
    r = ctx.request.post(
        f"{server}/api/auth/signup",
        data=json.dumps({"name": name, "password": "correct horse battery"}),
        headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
    )
    assert r.status == 201, r.text()
    return name


def test_a_player_plays_todays_deal_and_finds_themselves_in_the_table(
    browser: Any, server: str
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(10_000)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        name = _sign_up(ctx, server)
        # From the lobby to the daily deals, then Solitaire's.
        page.goto(server)
        page.click("#daily-link")
        page.wait_for_url(f"{server}/daily")
        row = page.locator('#games tr[data-game="klondike"]')
        row.get_by_role("link", name="Play").click()
        page.wait_for_url(f"{server}/daily/klondike")
        page.wait_for_function("() => window.pk && window.pk.daily")
        assert page.locator("#play-daily").is_visible()
        assert page.locator("#yesterday-deal").is_hidden()
        # Today's deal on the board: ranked, no number anywhere, no undo or hint.
        page.click("#play-daily")
        page.wait_for_function("() => window.pk.play && window.pk.play.n === 0")
        play = page.evaluate("window.pk.play")
        assert play["ranked"] is True and play["number"] is None and play["number_text"] is None
        assert page.locator("#board .pile").count() > 0
        assert page.locator("#undo").count() == 0 and page.locator("#hint").count() == 0
        assert LONG_NUMBER.search(page.content()) is None
        assert page.locator("#play-daily").is_hidden()
        # Two turns of the stock (the s key), then give up: it counts as it stands.
        for n in (1, 2):
            page.keyboard.press("s")
            page.wait_for_function("n => window.pk.play.n === n", arg=n)
        page.click("#give-up")
        page.click("#give-up-yes")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=notice]').textContent.includes('gave up')"
        )
        # The day's table has the player in it, marked as theirs; no second attempt.
        mine = page.locator(f'#today-table tr[data-name="{name}"]')
        mine.wait_for()
        assert "me" in (mine.get_attribute("class") or "")
        cells = mine.locator("td").all_inner_texts()
        assert cells[-2:] == ["2", "gave up"]  # moves, result
        assert page.locator("#played-daily").is_visible()
        assert page.locator("#play-daily").is_hidden() and page.locator("#round").is_visible()
        assert LONG_NUMBER.search(page.content()) is None
        day = page.evaluate("window.pk.daily")
        assert day["number"] is None and day["me"]["status"] == "ended"
        assert any(line["name"] == name for line in day["table"])
        csrf = ctx.request.get(f"{server}/api/session").json()["csrf"]
        again = ctx.request.post(
            f"{server}/api/daily/klondike/play", headers={"X-CSRF-Token": csrf}
        )
        assert again.status == 409 and again.json()["error"]["code"] == "daily_played"
        # Seen again later: the list says the deal is played.
        page.goto(f"{server}/daily")
        mine_cell = '#games tr[data-game="klondike"] [data-testid=mine]:has-text("played")'
        page.wait_for_selector(mine_cell)
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("lang", "nobody"),
    [("en", "Nobody played this day."), ("nl", "Niemand heeft op deze dag gespeeld."),
     ("es", "Nadie jugó este día.")],
)  # fmt: skip
def test_a_day_nobody_played_says_so(browser: Any, server: str, lang: str, nobody: str) -> None:
    """Yesterday's deal of a game nobody played (this server is new): the page says so in the
    reader's language, with no table and no deal; the days before it can be looked at one by
    one, and say so too, and the way back ends at yesterday."""
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(10_000)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{server}/daily/royal-cotillion?lang={lang}")
        page.wait_for_function("() => window.pk && window.pk.yesterday")
        day = page.evaluate("window.pk.yesterday")
        assert day["over"] and day["dealt"] is False and day["table"] == []
        assert page.locator("[data-testid=nobody-played]").inner_text() == nobody
        assert page.locator("#yesterday-wrap").is_hidden()
        assert page.locator("#yesterday-deal").is_hidden()
        assert page.locator("#later-day").is_hidden()
        yesterday_title = page.text_content("#yesterday-title")
        # The day before: its own title, nobody played it either; then back to yesterday.
        page.click("#earlier-day")
        page.wait_for_function("d => window.pk.yesterday.day < d", arg=day["day"])
        assert page.evaluate("window.pk.yesterday.previous") < day["previous"]
        assert page.text_content("#yesterday-title") != yesterday_title
        assert page.locator("[data-testid=nobody-played]").inner_text() == nobody
        page.click("#later-day")
        page.wait_for_function("d => window.pk.yesterday.day === d", arg=day["day"])
        assert page.text_content("#yesterday-title") == yesterday_title
        assert page.locator("#later-day").is_hidden()
        if lang != "en":
            assert english_left(page.evaluate(TEXTS)) == []
        assert errors == []
    finally:
        ctx.close()


def test_the_daily_deals_in_dutch_have_no_english_left(browser: Any, server: str) -> None:
    """/daily for a Dutch reader (the browser's language): every word from the catalogue, the
    day as a Dutch date; then a game's daily deal page alike."""
    ctx = browser.new_context(locale="nl-NL", viewport=DESKTOP)
    ctx.set_default_timeout(10_000)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{server}/daily")
        row = page.locator('#games tr[data-game="klondike"]')
        row.wait_for()
        assert page.evaluate("document.documentElement.lang") == "nl"
        assert page.text_content("h1") == "Spellen van de dag"
        assert page.title() == "Spellen van de dag \u2013 PatienceKit"
        assert "Meld je aan" in page.text_content("#signin-note")
        # a guest sees each game's table, not a Play button
        assert row.get_by_role("link", name="Klassement").count() == 1
        today = page.text_content("#today") or ""
        assert today != "\u2013" and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", today), today
        assert english_left(page.evaluate(TEXTS)) == []
        # the game's daily deal page, in Dutch too
        row.get_by_role("link", name="Klassement").click()
        page.wait_for_url(f"{server}/daily/klondike")
        page.wait_for_function("() => window.pk && window.pk.daily && window.pk.yesterday")
        assert (page.text_content("h1") or "").endswith(": spel van de dag")
        assert page.locator("#signin-daily").inner_text() == "Meld je aan om te spelen"
        assert english_left(page.evaluate(TEXTS)) == []
        assert errors == []
    finally:
        ctx.close()
