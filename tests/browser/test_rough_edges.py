"""The rough edges of issue 13, each in Chromium against the real server: "Winnable deals
only" for the first deal, an address another browser can open, HTML error pages, Restart's
clock, the move counter, the note on games with few winnable deals and the tournament page
that starts without a reload."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from layout_helpers import sign_up_context
from play_helpers import current, open_deal, wait_moves

from patiencekit.games import get_rules
from patiencekit.games.winnable_numbers import WINNABLE

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PLAYED = "() => window.pk?.play"


def _context(browser: Any, errors: list[str], **options: Any) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport=DESKTOP, **options)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    return ctx, page


def _type(page: Any, move: str) -> None:
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")


# -- 1. "Winnable deals only" for the first deal; 6. the note on few winnable deals ---------


def _few_winnable(target: Any, game: str = "picture-patience", count: int = 1) -> None:
    """Make the page (or the context) see ``count`` shipped winnable deals for ``game`` in
    GET /api/games, as a game with few proved deals would list (every game ships 200 or
    more now): the server's answer with that one key changed."""

    def handle(route: Any) -> None:
        response = route.fetch()
        listed = response.json()
        for item in listed:
            if item["id"] == game:
                item["winnable_deals"] = count
        route.fulfill(response=response, json=listed)

    target.route("**/api/games", handle)


def test_winnable_only_deals_the_first_deal_opened_from_the_lobby(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('pk-winnable', '1')")  # ticked on an earlier visit
    page.reload()
    tile = page.locator('#games .game-tile[data-game="picture-patience"]')
    tile.get_by_role("link", name="Play").click()
    page.wait_for_function(PLAYED)
    play = current(page)
    assert play["game"] == "picture-patience" and play["number"] in WINNABLE["picture-patience"]
    assert page.is_checked("#winnable-only")
    # and a game with many: a proved number too, from the lobby's link
    page.goto(server + "/")
    page.locator('#games .game-tile[data-game="klondike-draw1"]').get_by_role(
        "link", name="Play"
    ).click()
    page.wait_for_function("() => window.pk?.play && window.pk?.play?.game")
    assert int(current(page)["number"]) in WINNABLE["klondike-draw1"]


def test_a_game_with_few_winnable_deals_says_so_while_winnable_only_is_ticked(
    page: Any, server: str
) -> None:
    games = {g["id"]: g for g in page.request.get(f"{server}/api/games").json()}
    # the key the note comes from: every shipped deal, and one as a game with one would list
    assert games["picture-patience"]["winnable_deals"] == len(WINNABLE["picture-patience"])
    _few_winnable(page)
    note = page.locator("[data-testid=winnable-note]")
    open_deal(page, server, "picture-patience", 5)
    assert not note.is_visible()  # not ticked
    page.check("#winnable-only")
    name = get_rules("picture-patience").name
    assert note.is_visible()
    assert note.text_content() == (
        f"Only one deal of {name} is proved winnable so far: “Winnable deals only” deals "
        "that one every time."
    )
    page.uncheck("#winnable-only")
    assert not note.is_visible()
    page.check("#winnable-only")
    # Klondike has hundreds: no note
    open_deal(page, server, "klondike-draw1", 5)
    assert page.is_checked("#winnable-only") and not note.is_visible()


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("nl-NL", "Van Picture Patience is tot nu toe maar één spel bewezen winbaar"),
        ("es-ES", "De Picture Patience solo hay, por ahora, un reparto demostrado ganable"),
    ],
)
def test_the_few_winnable_note_in_dutch_and_spanish(
    browser: Any, server: str, locale: str, words: str
) -> None:
    errors: list[str] = []
    ctx, page = _context(browser, errors, locale=locale)
    _few_winnable(ctx)
    try:
        page.goto(server + "/")
        page.evaluate("localStorage.setItem('pk-winnable', '1')")
        page.goto(f"{server}/play/picture-patience")
        page.wait_for_function(PLAYED)
        assert page.locator("[data-testid=winnable-note]").text_content().startswith(words)
    finally:
        ctx.close()
    assert errors == []


# -- 2. an address another browser can open ------------------------------------------------


def test_the_address_is_the_deal_and_a_reload_resumes_the_play(page: Any, server: str) -> None:
    play = open_deal(page, server, "klondike", 24)
    assert page.url == f"{server}/play/klondike?number=24"
    _type(page, "s")
    wait_moves(page, 1)
    page.reload()
    page.wait_for_function(PLAYED)
    again = current(page)
    assert (again["id"], again["n"]) == (play["id"], 1)
    assert page.url == f"{server}/play/klondike?number=24"
    # switching the language opens the address anew: still the same play
    page.click("#lang-menu summary")
    page.click('#lang-menu a[data-lang="es"]')
    page.wait_for_function(
        "() => document.documentElement.lang === 'es' && window.pk?.play"
    )
    assert (current(page)["id"], current(page)["n"]) == (play["id"], 1)
    assert page.url == f"{server}/play/klondike?number=24"
    # a random deal's address becomes its number; back in this tab, the address before is
    # still that play
    page.goto(f"{server}/play/klondike-draw1?lang=en")
    page.wait_for_function(PLAYED)
    random = current(page)
    assert page.url == f"{server}/play/klondike-draw1?number={random['number_text']}"
    page.go_back()
    page.wait_for_function(
        "id => window.pk?.play && window.pk.play.id === id", arg=play["id"]
    )
    assert page.url == f"{server}/play/klondike?number=24"


def test_another_browser_opens_the_address_as_a_new_play_of_the_same_deal(
    browser: Any, server: str
) -> None:
    errors: list[str] = []
    ctx_a, a = _context(browser, errors)
    ctx_b, b = _context(browser, errors)
    try:
        mine = open_deal(a, server, "patriarchs", 77)
        _type(a, "s")
        wait_moves(a, 1)
        b.goto(a.url)  # the address bar, pasted in another browser
        b.wait_for_function(PLAYED)
        theirs = current(b)
        assert theirs["id"] != mine["id"] and theirs["n"] == 0
        assert (theirs["game"], theirs["number"]) == ("patriarchs", 77)
        assert b.locator("#undo").is_visible() and b.is_disabled("#undo")
        assert b.url == f"{server}/play/patriarchs?number=77"
        # a's play goes on where it was
        a.reload()
        a.wait_for_function(PLAYED)
        assert (current(a)["id"], current(a)["n"]) == (mine["id"], 1)
    finally:
        ctx_a.close()
        ctx_b.close()
    assert errors == []


def test_someone_elses_play_address_is_a_clear_page_with_the_same_deal(
    browser: Any, server: str
) -> None:
    errors: list[str] = []
    ctx_a, a = _context(browser, errors)
    ctx_b, b = _context(browser, errors)
    try:
        mine = open_deal(a, server, "klondike", 24)
        answer = b.goto(f"{server}/p/{mine['id']}")  # an old /p/ link, or one copied by hand
        assert answer is not None and answer.status == 403
        assert b.text_content("h1") == "Another player's game"
        main = b.locator("main")
        assert "deal #24" in main.text_content()
        assert main.locator("button").count() == 0 and b.locator("#board").count() == 0
        assert b.evaluate("window.pk === undefined")  # no play page behind it
        b.get_by_role("link", name="Play deal #24").click()
        b.wait_for_function(PLAYED)
        theirs = current(b)
        assert theirs["id"] != mine["id"] and theirs["number"] == 24 and theirs["n"] == 0
        # the owner's own /p/ link is their play, and its address becomes the deal's
        a.goto(f"{server}/p/{mine['id']}")
        a.wait_for_function(PLAYED)
        assert current(a)["id"] == mine["id"]
        assert a.url == f"{server}/play/klondike?number=24"
    finally:
        ctx_a.close()
        ctx_b.close()
    # the 403 of b's page is a document Chromium reports; nothing else
    assert [e for e in errors if "403" not in e] == []


# -- 3. HTML error pages ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/nothing", "There is no page at this address."),
        ("/players/nobody-at-all", "There is no player called nobody-at-all."),
        ("/tournaments/987654", "There is no tournament 987654."),
    ],
)
def test_a_page_of_nothing_is_an_html_page_with_a_way_home(
    page: Any, server: str, page_errors: Any, path: str, words: str
) -> None:
    page_errors.http_ok = True  # the page itself is a 404
    answer = page.goto(server + path)
    assert answer is not None and answer.status == 404
    assert page.text_content("h1") == "Page not found"
    assert words in page.text_content("main")
    page.wait_for_selector("#site-nav a")  # the header works (the session, sign in)
    page.get_by_role("link", name="Back to the games").click()
    page.wait_for_selector("#games .game-tile")
    assert page.url == server + "/"


def test_the_error_page_in_dutch(browser: Any, server: str) -> None:
    errors: list[str] = []
    ctx, page = _context(browser, errors, locale="nl-NL")
    try:
        answer = page.goto(f"{server}/players/niemand-hier")
        assert answer is not None and answer.status == 404
        assert page.evaluate("document.documentElement.lang") == "nl"
        assert page.text_content("h1") == "Pagina niet gevonden"
        assert "Er is geen speler die niemand-hier heet." in page.text_content("main")
        assert page.get_by_role("link", name="Terug naar de spellen").is_visible()
    finally:
        ctx.close()
    assert [e for e in errors if "404" not in e] == []


# -- 4. Restart's clock; 5. the move counter --------------------------------------------------


def _seconds(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def test_restart_starts_the_clock_again(page: Any, server: str) -> None:
    open_deal(page, server, "klondike-draw1", 1)
    _type(page, "c6 f3")
    wait_moves(page, 1)
    page.wait_for_function("() => document.getElementById('m-time').textContent >= '0:03'")
    before = _seconds(page.text_content("#m-time"))
    page.click("#restart")
    play = wait_moves(page, 0)
    assert play["elapsed"] < before
    assert _seconds(page.text_content("#m-time")) < before
    assert page.text_content("#m-moves") == "0"


def test_the_moves_meter_counts_moves_made_and_undo_does_not_take_them_back(
    page: Any, server: str
) -> None:
    open_deal(page, server, "klondike-draw1", 1)
    _type(page, "c6 f3")
    wait_moves(page, 1)
    _type(page, "c7 f2")
    wait_moves(page, 2)
    assert page.text_content("#m-moves") == "2"
    page.click("#undo")
    wait_moves(page, 1)
    assert page.text_content("#m-moves") == "2"
    page.click("#redo")
    wait_moves(page, 2)
    assert page.text_content("#m-moves") == "3"
    page.reload()  # the server's count, not the page's
    page.wait_for_function(PLAYED)
    assert page.text_content("#m-moves") == "3"


# -- 7. the tournament page while it waits ----------------------------------------------------


def test_the_waiting_tournament_page_starts_without_a_reload(browser: Any, server: str) -> None:
    errors: list[str] = []
    ctx_a, a = _context(browser, errors)
    ctx_b, b = _context(browser, errors)
    try:
        sign_up_context(ctx_a, server, "e")
        sign_up_context(ctx_b, server, "e")
        csrf = ctx_a.request.get(f"{server}/api/session").json()["csrf"]
        made = ctx_a.request.post(
            f"{server}/api/tournaments",
            data=json.dumps({"game": "klondike", "size": 2}),
            headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
        )
        assert made.status == 201, made.text()
        tid = made.json()["id"]
        a.goto(f"{server}/tournaments/{tid}")
        a.wait_for_function("() => window.pk?.tournament?.status === 'open'")
        assert "Waiting for 1 more player" in a.text_content("#actions")
        loads = []
        a.on("load", lambda _: loads.append(1))
        # the other player joins on their own page
        b.goto(f"{server}/tournaments/{tid}")
        b.get_by_role("button", name=re.compile("Join")).click()
        b.wait_for_function("() => window.pk?.tournament?.status === 'running'")
        # the first page sees it fill and start, with round 1 to play, and is not reloaded
        a.wait_for_function("() => window.pk?.tournament?.status === 'running'")
        a.wait_for_selector("#play-round:has-text('round 1')")
        assert a.text_content("[data-testid=status]") == "running"
        assert a.text_content("[data-testid=notice]") == (
            "The tournament is full and has started: round 1 can be played now."
        )
        assert loads == []
        a.click("#play-round")
        a.wait_for_function(
            "() => window.pk?.play && window.pk.play.ranked && window.pk.play.n === 0"
        )
        assert a.text_content("#round-title") == "Round 1 of 3"
    finally:
        ctx_a.close()
        ctx_b.close()
    assert errors == []
