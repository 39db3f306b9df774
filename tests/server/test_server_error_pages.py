"""The HTML error pages: an address that is not a page, and the page of nothing (an unknown
game, player, tournament or play), answer 404 with a page in the reader's language and a way
home; another player's play (``/p/{id}``) answers 403 with a page that says so, with a link to
play the same deal when it is casual and never a ranked deal's number. The API keeps its JSON
errors."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from ranked_helpers import face_up, numbers_dealing, ranked_play

from patiencekit.server.pages import page_html

NL = {"Accept-Language": "nl-NL,nl;q=0.9"}
DASH = "\N{EN DASH}"
ES = {"Accept-Language": "es"}


def _html(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    assert r.headers["cache-control"] == "no-cache"
    text: str = r.text
    assert text.startswith("<!doctype html>") and 'data-testid="error-page"' in text
    return text


def _main(text: str) -> str:
    """The words of the page's own part (its <main>), tags left out."""
    found = re.search(r'<main class="page error-page"[^>]*>(.*?)</main>', text, re.S)
    assert found is not None
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", found[1]).split()))


def _links(text: str) -> list[str]:
    found = re.search(r'<main class="page error-page"[^>]*>(.*?)</main>', text, re.S)
    assert found is not None
    return re.findall(r'<a [^>]*href="([^"]*)"', found[1])


@pytest.mark.parametrize("path", ["/nothing", "/no/such/page", "/static/no-such-file.js"])
def test_an_address_that_is_no_page_is_an_html_404_with_a_way_home(api, path):
    r = api.get(path)
    text = _html(r, 404)
    assert "pk_csrf=" in r.headers.get("set-cookie", "")  # the header's session works
    assert f"<title>Page not found {DASH} PatienceKit</title>" in text
    assert _main(text) == "Page not found There is no page at this address. Back to the games"
    assert _links(text) == ["/"]
    assert '<script type="module" src="/static/js/error-page.js"></script>' in text
    assert "{{" not in text and '"error"' not in text


def test_the_error_page_is_in_the_readers_language(api):
    text = _html(api.client.get("/nothing", headers=NL), 404)
    assert '<html lang="nl">' in text
    assert _main(text) == (
        "Pagina niet gevonden Op dit adres staat geen pagina. Terug naar de spellen"
    )
    text = _html(api.client.get("/nothing?lang=es"), 404)
    assert '<html lang="es">' in text
    assert f"<title>Página no encontrada {DASH} PatienceKit</title>" in text
    assert "Volver a los juegos" in _main(text)


@pytest.mark.parametrize("path", ["/api/nothing", "/api/plays/" + "0" * 32, "/api/players/nobody"])
def test_the_api_keeps_its_json_errors(api, path):
    r = api.get(path)
    assert r.status_code == 404
    assert r.headers["content-type"] == "application/json"
    assert set(r.json()) == {"error"} and r.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/players/nobody", "There is no player called nobody."),
        ("/stats/nobody", "There is no player called nobody."),
        ("/tournaments/4242", "There is no tournament 4242."),
        ("/tournaments/not-a-number", "There is no tournament not-a-number."),
        ("/tournaments/99999999999999999999", "There is no tournament 99999999999999999999."),
        ("/top100/patriarchs", "There is no Top 100 of patriarchs."),
        ("/rules/freecell", "There is no game 'freecell'."),
        ("/play/freecell", "There is no game 'freecell'."),
        ("/p/" + "0" * 32, "There is no game at this address."),
        ("/p/not-a-play", "There is no game at this address."),
    ],
)
def test_the_page_of_nothing_is_a_404_that_says_what_is_not_there(api, path, words):
    text = _html(api.get(path), 404)
    assert _main(text).startswith(f"Page not found {words}")
    assert _links(text) == ["/"]


def test_the_words_of_an_address_are_escaped(api):
    text = _html(api.get("/players/%3Cscript%3Eann"), 404)
    assert "<script>ann" not in text and "&lt;script&gt;ann" in text


def test_a_known_player_and_tournament_have_their_pages(api):
    assert api.signup("known_player").status_code == 201
    r = api.post("/api/tournaments", {"game": "klondike", "size": 2})
    assert r.status_code == 201
    for path, page in [
        ("/players/known_player", "profile.html"),
        ("/stats/Known_Player", "stats.html"),
        (f"/tournaments/{r.json()['id']}", "tournament.html"),
        ("/top100/klondike-draw1", "top100.html"),
    ]:
        answer = api.get(path)
        assert answer.status_code == 200 and answer.text == page_html(page), path


# -- another player's play ------------------------------------------------------------------


def test_a_casual_play_opened_by_another_browser_says_whose_it_is_and_offers_its_deal(
    api, other_api
):
    play = api.play_ok(api.new_play("klondike", 24), "s")
    mine = api.get(f"/p/{play['id']}")
    assert mine.status_code == 200 and mine.text == page_html("play.html")
    text = _html(other_api.get(f"/p/{play['id']}"), 403)
    assert f"<title>Another player&#x27;s game {DASH} PatienceKit</title>" in text
    assert _main(text) == (
        "Another player's game This game belongs to another player: only they can see it and "
        "play on. It is Solitaire (Klondike, draw 3), deal #24: you can play that deal "
        "yourself. Play deal #24 Sign in Back to the games"
    )
    assert _links(text) == ["/play/klondike?number=24", "/signin?next=%2Fp%2F" + play["id"], "/"]
    # no live button, no board, no script that acts on the play
    assert "<button" not in text and "play.js" not in text and 'id="board"' not in text
    # and the API still refuses it
    assert other_api.get(f"/api/plays/{play['id']}").status_code == 403


def test_a_signed_in_stranger_is_not_asked_to_sign_in(api, other_api):
    play = api.new_play("klondike-draw1", 31)
    assert other_api.signup("stranger").status_code == 201
    text = _html(other_api.get(f"/p/{play['id']}"), 403)
    assert _links(text) == ["/play/klondike-draw1?number=31", "/"]


def test_the_page_of_another_players_play_in_dutch_and_spanish(api, other_api):
    play = api.new_play("patriarchs", 7)
    text = _html(other_api.client.get(f"/p/{play['id']}", headers=NL), 403)
    assert '<html lang="nl">' in text
    assert _main(text).startswith("Het spel van een andere speler Dit spel is van een andere")
    assert "Speel spel #7" in _main(text)
    text = _html(other_api.client.get(f"/p/{play['id']}", headers=ES), 403)
    assert _main(text).startswith("La partida de otro jugador")
    assert "Jugar el reparto n.º 7" in _main(text)


@pytest.mark.parametrize("ended", [False, True])
def test_a_ranked_play_opened_by_another_never_shows_its_deal(api, other_api, ended):
    """RULES.md, "Fair competition": a ranked deal's number is not sent to its player until
    the play has ended, and to nobody else here at all (a ranked deal is no casual deal)."""
    number = 10**19 + 4_242_424_242
    assert api.signup("ranked_owner").status_code == 201
    play = ranked_play(api, "klondike", number)
    if ended:
        r = api.post(f"/api/plays/{play['id']}/finish", {"n": 0})
        assert r.status_code == 200 and r.json()["number_text"] == str(number)
    seen = face_up("klondike", number)
    for signed_in in (False, True):
        if signed_in:
            assert other_api.signup("ranked_stranger").status_code == 201
        text = _html(other_api.get(f"/p/{play['id']}"), 403)
        assert _main(text).startswith("Another player's game")
        assert str(number) not in text and "/play/" not in text
        assert numbers_dealing("klondike", seen, [text]) == set()
