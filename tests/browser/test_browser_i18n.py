"""The pages in Dutch and Spanish in Chromium: chosen from the browser's language, switched
in the header's language menu and remembered, with no English left on the Dutch lobby and
play page (every English text of the catalogue that Dutch says otherwise)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from i18n_helpers import TEXTS, english_left


def _reader(browser: Any, page_errors: Any, locale: str) -> Iterator[Any]:
    """A page in a fresh context whose browser's language is ``locale``; no uncaught
    exception by the end."""
    ctx = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    page.on("pageerror", lambda e: page_errors.items.append(f"uncaught: {e}"))
    yield page
    ctx.close()
    assert page_errors.unexpected() == []


@pytest.fixture
def dutch(browser: Any, page_errors: Any) -> Iterator[Any]:
    yield from _reader(browser, page_errors, "nl-NL")


@pytest.fixture
def spanish(browser: Any, page_errors: Any) -> Iterator[Any]:
    yield from _reader(browser, page_errors, "es-ES")


def test_the_english_check_finds_english() -> None:
    assert english_left(["Undo", "Ongedaan maken", "Score", "Patience  games"]) == [
        "Patience  games",
        "Undo",
    ]


def test_the_dutch_lobby_has_no_english_left(dutch: Any, server: str) -> None:
    dutch.goto(server + "/")
    dutch.wait_for_selector(".game-tile")
    assert dutch.evaluate("document.documentElement.lang") == "nl"
    assert dutch.text_content("h1") == "Patiencespellen"
    assert "speel meteen" in dutch.text_content("#welcome")
    tile = dutch.locator('.game-tile[data-game="klondike"]')
    assert "Eén kaartspel" in tile.text_content()
    # the game's name too (GET /api/games' local_name), not only the catalogue's words
    assert tile.locator("h2").text_content() == "Solitaire (Klondike, 3 kaarten draaien)"
    assert tile.get_by_role("link", name="Spelen").count() == 1
    texts = dutch.evaluate(TEXTS)
    assert english_left(texts) == []
    assert "Toernooien" in " ".join(texts) or "Toernooien" in dutch.content()


def test_the_dutch_play_page_has_no_english_left(dutch: Any, server: str) -> None:
    dutch.goto(f"{server}/play/klondike?number=24")
    dutch.wait_for_function("() => window.pk?.play")
    assert dutch.evaluate("document.documentElement.lang") == "nl"
    assert dutch.text_content("#undo").strip() == "Ongedaan maken"
    # card and pile names in the board's labels
    labels = dutch.eval_on_selector_all(
        "#board [aria-label]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert any(re.search(r"^rij 1, 1 kaart, bovenop: klaveren vijf$", label) for label in labels), (
        labels
    )
    assert any(label.startswith("stock, 24 kaarten") for label in labels), labels
    # a move said in words
    dutch.keyboard.press("s")
    dutch.wait_for_function("() => window.pk?.play?.n === 1")
    dutch.wait_for_function(
        "() => /De stock gedraaid/.test(document.getElementById('announce').textContent)"
    )
    # a refusal from the server, in Dutch
    dutch.fill("#move-input", "c9 c1")
    dutch.press("#move-input", "Enter")
    dutch.wait_for_function("() => document.getElementById('error').textContent !== ''")
    texts = dutch.evaluate(TEXTS)
    assert english_left(texts) == []


def _top100_headings(page: Any, server: str) -> list[str]:
    """The Top 100's column headings, once its table is there."""
    page.goto(server + "/top100")
    page.wait_for_function("() => window.pk?.board")
    headings: list[str] = page.locator("#top thead th").all_text_contents()
    return headings


def test_the_top100_in_dutch_and_spanish(dutch: Any, spanish: Any, server: str) -> None:
    headings = _top100_headings(dutch, server)
    assert headings == ["#", "Rang", "Naam", "Bekers", "Medailles", "Punten"]
    assert "geen bekers" in dutch.text_content("#rank-words")
    assert english_left(dutch.evaluate(TEXTS)) == []
    headings = _top100_headings(spanish, server)
    assert spanish.evaluate("document.documentElement.lang") == "es"
    assert headings == ["#", "Rango", "Nombre", "Copas", "Medallas", "Puntos"]


def test_the_spanish_lobby_and_play_page(spanish: Any, server: str) -> None:
    spanish.goto(server + "/")
    spanish.wait_for_selector(".game-tile")
    assert spanish.text_content("h1") == "Solitarios"
    assert "Una baraja" in spanish.locator('.game-tile[data-game="klondike"]').text_content()
    name = "Solitaire (Klondike, robar 3)"
    assert spanish.locator('.game-tile[data-game="klondike"] h2').text_content() == name
    spanish.goto(f"{server}/play/klondike?number=24")
    spanish.wait_for_function("() => window.pk?.play")
    assert spanish.text_content("#game-name") == name
    assert spanish.text_content("#new-deal").strip() == "Nuevo reparto"
    labels = spanish.eval_on_selector_all(
        "#board [aria-label]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert "columna 1, 1 carta, arriba: cinco de tréboles" in labels, labels
    spanish.goto(f"{server}/rules/klondike")
    spanish.wait_for_selector("#rules h2")
    assert spanish.locator("#rules h2").all_text_contents() == [
        "La disposición",
        "Cómo se juega",
        "El mazo",
        "Para ganar",
        "Puntuación",
    ]


def test_the_language_menu_switches_and_remembers(page: Any, server: str) -> None:
    page.goto(f"{server}/play/klondike?number=24")
    page.wait_for_function("() => window.pk?.play")
    assert page.evaluate("document.documentElement.lang") == "en"  # the test browser's
    play_id = page.evaluate("window.pk.play.id")
    page.click("#lang-menu summary")
    page.click('#lang-menu a[data-lang="nl"]')
    page.wait_for_function(
        "() => document.documentElement.lang === 'nl' && window.pk?.play"
    )
    # the same play, now in Dutch, and ?lang has left the address bar
    assert page.evaluate("window.pk.play.id") == play_id
    assert page.url == f"{server}/play/klondike?number=24"
    assert page.text_content("#undo").strip() == "Ongedaan maken"
    assert page.locator('#lang-menu a[aria-current="true"]').text_content() == "Nederlands"
    # remembered: another page, no ?lang
    page.goto(server + "/tournaments")
    assert page.evaluate("document.documentElement.lang") == "nl"
    assert page.text_content("h1") == "Toernooien"
    # ?lang= switches too
    page.goto(server + "/?lang=es")
    page.wait_for_selector(".game-tile")
    assert page.text_content("h1") == "Solitarios" and page.url == server + "/"
    page.goto(server + "/top100")
    assert page.evaluate("document.documentElement.lang") == "es"
    page.goto(server + "/?lang=en")
    assert page.text_content("h1") == "Patience games"
