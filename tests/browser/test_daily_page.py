"""The daily deal in Chromium against the real server: a player finds it from the lobby, plays
today's deal of Solitaire on its page (a ranked play: no number, no undo or hint), gives it up,
and sees themselves in the day's table; a second attempt is refused. Yesterday's replays open
on the page. In Dutch, the daily deals have no English left."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from i18n_helpers import TEXTS, english_left
from layout_helpers import opened, sign_up_context

from patiencekit import new_game
from patiencekit.server.pages import page_html
from patiencekit.server.play.replay import view_at

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
        name = sign_up_context(ctx, server, "d")
        # From the lobby to the daily deals, then Solitaire's.
        page.goto(server)
        page.click("#daily-link")
        page.wait_for_url(f"{server}/daily")
        row = page.locator('#games tr[data-game="klondike"]')
        row.get_by_role("link", name="Play").click()
        page.wait_for_url(f"{server}/daily/klondike")
        page.wait_for_function("() => window.pk?.daily")
        assert page.locator("#play-daily").is_visible()
        assert page.locator("#yesterday-deal").is_hidden()
        # Today's deal on the board: ranked, no number anywhere, no undo or hint.
        page.click("#play-daily")
        page.wait_for_function("() => window.pk?.play && window.pk?.play?.n === 0")
        play = page.evaluate("window.pk.play")
        assert play["ranked"] is True and play["number"] is None and play["number_text"] is None
        assert page.locator("#board .pile").count() > 0
        assert page.locator("#undo").count() == 0 and page.locator("#hint").count() == 0
        assert LONG_NUMBER.search(page.content()) is None
        assert page.locator("#play-daily").is_hidden()
        # Two turns of the stock (the s key), then give up: it counts as it stands.
        for n in (1, 2):
            page.keyboard.press("s")
            page.wait_for_function("n => window.pk?.play?.n === n", arg=n)
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
        page.wait_for_function("() => window.pk?.yesterday")
        day = page.evaluate("window.pk.yesterday")
        assert day["over"] and day["dealt"] is False and day["table"] == []
        assert page.locator("[data-testid=nobody-played]").inner_text() == nobody
        assert page.locator("#yesterday-wrap").is_hidden()
        assert page.locator("#yesterday-deal").is_hidden()
        assert page.locator("#later-day").is_hidden()
        yesterday_title = page.text_content("#yesterday-title")
        # The day before: its own title, nobody played it either; then back to yesterday.
        page.click("#earlier-day")
        page.wait_for_function("d => window.pk?.yesterday?.day < d", arg=day["day"])
        assert page.evaluate("window.pk.yesterday.previous") < day["previous"]
        assert page.text_content("#yesterday-title") != yesterday_title
        assert page.locator("[data-testid=nobody-played]").inner_text() == nobody
        page.click("#later-day")
        page.wait_for_function("d => window.pk?.yesterday?.day === d", arg=day["day"])
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
        page.wait_for_function("() => window.pk?.daily && window.pk.yesterday")
        assert (page.text_content("h1") or "").endswith(": spel van de dag")
        assert page.locator("#signin-daily").inner_text() == "Meld je aan om te spelen"
        assert english_left(page.evaluate(TEXTS)) == []
        assert errors == []
    finally:
        ctx.close()


def test_yesterdays_replays_open_on_the_page(browser: Any, server: str) -> None:
    """Yesterday's table of a closed day has a replay button a player, which opens the play
    on the replay's board, steps through it and offers its record; a refused replay is the
    page's error. (The real server's days close at UTC midnight: the test's browser is told
    that yesterday is closed, with its table and its plays' replays, the answers the server
    gives then: tests/server/test_daily.py.)"""
    g = new_game("klondike", 24)
    moves = []
    for _ in range(4):
        moves.append(str(next(iter(g.legal_moves))))
        g.play(moves[-1])
    result = {"outcome": "gave_up", "score": 15, "time": 9.0, "finished_at": 1.0}
    lines = [
        {"place": 1, "name": "zed", "score": 15, "time": 9.0, "moves": 4, "outcome": "gave_up"},
        {"place": 2, "name": "nobody", "score": 0, "time": 1.0, "moves": 0, "outcome": "gave_up"},
    ]
    closed: dict[str, Any] = {}

    def day(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        if not route.request.url.split("?")[0].endswith("/api/daily/klondike"):  # yesterday
            body.update(number=24, number_text="24", over=True, table=lines)
            closed["day"] = body["day"]
        route.fulfill(response=answer, body=json.dumps(body))

    def replay(route: Any) -> None:
        url = route.request.url
        if "/replays/nobody" in url:
            error = {"error": {"code": "not_found", "message": "nobody did not play"}}
            route.fulfill(status=404, content_type="application/json", body=json.dumps(error))
            return
        if "step=" in url:
            k = int(url.split("step=")[1])
            body = view_at("klondike", 24, moves[:k], len(moves))
        else:
            times = [1.0, 2.0, 3.0, 4.0]
            body = {"game": "klondike", "number": 24, "moves": moves, "player": "zed"}
            body.update(day=closed["day"], result=result, times=times)
        route.fulfill(content_type="application/json", body=json.dumps(body))

    # (the refused replay's 404 is logged as a failed resource; any other error fails)
    with opened(browser, DESKTOP) as (page, _errors):
        page.route("**/api/daily/klondike**", day)
        page.route("**/api/daily/klondike/*/replays/**", replay)
        page.goto(f"{server}/daily/klondike")
        page.wait_for_function("() => window.pk?.yesterday && window.pk?.yesterday?.over")
        buttons = page.locator("#yesterday-table .replay-button")
        assert buttons.count() == 2
        assert buttons.first.get_attribute("aria-label") == "Replay of zed"
        buttons.first.click()
        page.wait_for_selector("#replay:not([hidden])")
        assert page.text_content("#r-step") == "0 / 4"
        assert page.text_content("#r-move") == "the deal"
        assert page.is_disabled("#r-prev") and not page.is_disabled("#r-next")
        assert (page.text_content("#replay-title") or "").startswith("Replay: zed, ")
        assert "deal 24 (gave up)" in (page.text_content("#replay-title") or "")
        page.click("#r-next")
        page.wait_for_function("() => document.getElementById('r-step').textContent === '1 / 4'")
        assert page.text_content("#r-move") == f"move 1: {moves[0]}"
        assert page.get_attribute("#r-download", "download") == (
            f"daily-klondike-{closed['day']}-zed.json"
        )
        assert (page.get_attribute("#r-download", "href") or "").startswith("blob:")
        assert page.evaluate("window.pk.replay.record.moves") == moves
        assert page.locator("#replay-board .card").count() > 0
        page.click("#r-close")
        assert page.is_hidden("#replay")
        # A replay the server refuses: its words are the page's error; the next one clears it.
        buttons.nth(1).click()
        page.wait_for_function("() => document.getElementById('error').textContent !== ''")
        assert page.text_content("#error") == "nobody did not play"
        assert page.is_hidden("#replay")
        buttons.first.click()
        page.wait_for_selector("#replay:not([hidden])")
        assert page.text_content("#error") == ""
