"""The server in the reader's language: pages, ``/api/games`` and the error ``message`` (the
``code`` and the JSON shape stay)."""

from __future__ import annotations

import re

import pytest

from patiencekit.game_texts import rules_text
from patiencekit.games import GAMES
from patiencekit.server.language import LANG_COOKIE
from patiencekit.server.pages import page_html

NL = {"Accept-Language": "nl-NL,nl;q=0.9,en;q=0.5"}
ES = {"Accept-Language": "es-ES,es;q=0.9"}


def _error(r):
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    return body["error"]


@pytest.mark.parametrize(
    ("headers", "wanted"),
    [
        ({}, "no player is called 'nobody'"),
        (NL, "er is geen speler die 'nobody' heet"),
        (ES, "ningún jugador se llama 'nobody'"),
    ],
)
def test_an_error_message_comes_in_the_request_language_with_the_same_code(api, headers, wanted):
    r = api.client.get("/api/stats/nobody", headers=headers)
    assert r.status_code == 404
    assert _error(r) == {"code": "not_found", "message": wanted}


def test_refusals_of_the_play_come_in_dutch_and_spanish(api):
    play = api.new_play("klondike", 24)
    english = _error(api.post(f"/api/plays/{play['id']}/undo", {"n": 0}))
    dutch = _error(api.post(f"/api/plays/{play['id']}/undo", {"n": 5}, headers=NL))
    spanish = _error(api.post(f"/api/plays/{play['id']}/undo", {"n": 5}, headers=ES))
    assert english["code"] == "illegal_move"  # nothing to take back: the engine's own words
    assert dutch == {
        "code": "conflict",
        "message": "het spel is verder: het staat bij zet 0, niet 5; laad het opnieuw",
    }
    assert spanish["code"] == "conflict" and spanish["message"].startswith("la partida ha avanzado")
    # a field refused by the checks, and a body that is not JSON
    assert _error(api.post(f"/api/plays/{play['id']}/undo", {}, headers=NL)) == {
        "code": "bad_request",
        "message": "n ontbreekt",
    }
    json_type = {"Content-Type": "application/json"}
    r = api.post(f"/api/plays/{play['id']}/undo", content=b"{", headers={**ES, **json_type})
    assert r.status_code == 400
    assert _error(r) == {
        "code": "bad_request",
        "message": "el cuerpo de la petición no es JSON válido",
    }
    r = api.post(f"/api/plays/{play['id']}/moves", {"move": "s", "n": "0"}, headers=NL)
    assert _error(r) == {"code": "bad_request", "message": "n: hier hoort een geheel getal"}


@pytest.mark.parametrize(
    ("headers", "wanted"),
    [
        ({}, "The five of clubs can't go on the nine of hearts: it needs a black eight."),
        (NL, "De klaveren vijf kan niet op de harten negen: daar hoort een zwarte acht op."),
        (
            ES,
            "El cinco de tréboles no puede ir sobre el nueve de corazones: necesita un ocho negro.",
        ),
    ],
)
def test_the_engines_refusals_come_in_words_in_the_language(api, headers, wanted):
    """An illegal move is refused in a player's sentence (patiencekit.words), in the
    request's language, on the full path and on the kept game alike; the game is unchanged."""
    play = api.new_play("klondike", 24)
    for _ in range(2):  # the first move loads the play, the second finds it kept
        r = api.post(f"/api/plays/{play['id']}/moves", {"move": "c1 c2", "n": 0}, headers=headers)
        assert r.status_code == 400
        assert _error(r) == {"code": "illegal_move", "message": wanted}
    assert api.client.get(f"/api/plays/{play['id']}").json()["n"] == 0


def test_a_hint_comes_in_words_in_the_language(api):
    play = api.new_play("klondike", 24)
    english = api.post(f"/api/plays/{play['id']}/hint", {}).json()
    dutch = api.post(f"/api/plays/{play['id']}/hint", {}, headers=NL).json()
    assert english["hint"] == dutch["hint"] and english["hint"]
    assert english["words"] != dutch["words"]
    assert dutch["words"].startswith(("Verplaats", "Trek", "Draai", "Leg")), dutch


def test_refusals_before_the_routes_come_in_the_language_too(api):
    # CSRF (the middleware), a body too large, an unknown address
    r = api.client.post("/api/auth/signout", json={}, headers=ES)
    assert r.status_code == 403
    assert _error(r)["code"] == "forbidden" and "cabecera X-CSRF-Token" in _error(r)["message"]
    r = api.post("/api/auth/signin", content=b"x" * 20000, headers=NL)
    assert r.status_code == 413
    assert _error(r) == {
        "code": "too_large",
        "message": "de inhoud van het verzoek is groter dan 16384 bytes",
    }
    r = api.client.get("/api/nothing-here", headers=NL)
    assert _error(r) == {"code": "not_found", "message": "op dit adres is niets te vinden"}


def test_the_cookie_beats_the_header_and_lang_beats_both(api):
    api.client.cookies.set(LANG_COOKIE, "es")
    r = api.client.get("/api/stats/nobody", headers=NL)
    assert _error(r)["message"] == "ningún jugador se llama 'nobody'"
    r = api.client.get("/api/stats/nobody?lang=nl", headers=ES)
    assert _error(r)["message"] == "er is geen speler die 'nobody' heet"
    api.client.cookies.set(LANG_COOKIE, "xx")  # no catalogue: the header decides
    assert _error(api.client.get("/api/stats/nobody", headers=NL))["message"].startswith("er is")


@pytest.mark.parametrize(("headers", "lang"), [({}, "en"), (NL, "nl"), (ES, "es")])
def test_each_page_comes_in_the_negotiated_language(api, headers, lang):
    for path, page in [
        ("/", "lobby.html"),
        ("/play/klondike", "play.html"),
        ("/top100", "top100.html"),
    ]:
        r = api.client.get(path, headers=headers)
        assert r.status_code == 200
        assert r.text == page_html(page, lang)
        assert f'<html lang="{lang}">' in r.text
        assert r.headers["content-language"] == lang
        assert "Accept-Language" in r.headers["vary"]
        assert "{{" not in r.text and "{lang}" not in r.text


def test_the_dutch_pages_say_the_seed_words():
    top = page_html("top100.html", "nl")
    assert top is not None
    assert re.search(r'<th scope="col">Rang</th>', top)
    assert '<th scope="col">Bekers</th>' in top and '<th scope="col">Medailles</th>' in top
    assert "&ldquo;geen bekers&rdquo;" in top
    lobby = page_html("lobby.html", "nl")
    assert lobby is not None and "<h1>Patiencespellen</h1>" in lobby
    assert '<a href="?lang=nl" hreflang="nl" lang="nl" data-lang="nl" aria-current="true">' in lobby
    assert page_html("lobby.html", "es").count('aria-current="true"') == 1  # type: ignore[union-attr]


def test_lang_switches_the_page_and_is_remembered(api):
    r = api.client.get("/?lang=es", headers=NL)
    assert '<html lang="es">' in r.text
    assert f"{LANG_COOKIE}=es" in r.headers.get("set-cookie", "")
    # the next page, with no ?lang, comes in Spanish still, whatever the browser asks
    r = api.client.get("/tournaments", headers=NL)
    assert '<html lang="es">' in r.text and "<h1>Torneos</h1>" in r.text
    assert LANG_COOKIE not in r.headers.get("set-cookie", "")  # nothing new to remember
    r = api.client.get("/?lang=klingon", headers=NL)  # unknown: ignored
    assert '<html lang="es">' in r.text


def test_the_games_come_with_their_words_in_the_language(api):
    english = api.client.get("/api/games").json()
    dutch = api.client.get("/api/games", headers=NL).json()
    spanish = api.client.get("/api/games", headers=ES).json()
    assert [g["id"] for g in dutch] == [g["id"] for g in english]
    assert [g["name"] for g in dutch] == [g["name"] for g in english]  # the key stays English
    # the name to show is in the language: the proper names stay, the variant's words do not
    assert [g["local_name"] for g in english] == [g["name"] for g in english]
    by_id = {g["id"]: g for g in dutch}
    assert by_id["klondike"]["local_name"] == "Solitaire (Klondike, 3 kaarten draaien)"
    spanish_names = {g["id"]: g["local_name"] for g in spanish}
    assert spanish_names["klondike"] == "Solitaire (Klondike, robar 3)"
    for en, nl, es in zip(english, dutch, spanish, strict=True):
        assert set(nl) == set(en) == set(es)
        assert nl["blurb"] != en["blurb"] and es["blurb"] != en["blurb"]
        # the rules in full: the registry's in English, the same sections' words in the others
        assert en["rules_text"] == GAMES[en["id"]].rules_text
        assert nl["rules_text"] == rules_text(GAMES[en["id"]], "nl") != en["rules_text"]
        assert es["rules_text"] == rules_text(GAMES[en["id"]], "es") != en["rules_text"]
        assert nl["rules_sections"][0]["text"] in nl["rules_text"]
        assert [s["heading"] for s in en["rules_sections"]][-1] in ("To win", "Scoring")
    cotillion = {g["id"]: g for g in dutch}["royal-cotillion"]
    assert cotillion["pile_words"] == {"column": "linkerstapel"}
    assert {g["id"]: g for g in spanish}["klondike"]["rules_sections"][0]["heading"] == (
        "La disposición"
    )
    klondike = {g["id"]: g for g in dutch}["klondike"]["rules_text"]
    assert klondike.startswith("Eén kaartspel. Zeven rijen: rij n heeft n kaarten")
    assert "\n\nPuntentelling: van de gedraaide kaarten naar een rij +25" in klondike
    assert "foundation" not in klondike and "Score" not in klondike
