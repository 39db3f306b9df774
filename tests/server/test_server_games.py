"""``GET /api/games``: the registry's games with the facts the pages draw them with, and the
answer's schema in ``/api/openapi.json``.

The expected values below are what the pages wrote out for themselves before the registry
served them (``lobby.js`` DECOR and BLURB, ``layout.js``, ``competition-api.js``): the
answer must say the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from patiencekit.games import FACTS, GAMES
from patiencekit.games.winnable_numbers import WINNABLE

#: today's keys (docs/api.md) and those the registry adds
OLD_KEYS = {"id", "name", "decks", "rules_text", "winnable_deals"}
NEW_KEYS = {
    "local_name",
    "short_name",
    "blurb",
    "lobby_cards",
    "layout",
    "ranked",
    "scored",
    "draw",
    "redeals",
    "turn",
    "foundation_bases",
    "pile_words",
    "solver",
    # the rules page's sections, in the request's language (patiencekit/game_texts.py)
    "rules_sections",
    # the piles at the deal, without cards (the rules page's picture of the layout)
    "deal_piles",
}

#: layout.js: which layout family drew each game
LAYOUTS = {
    "klondike": "seven-columns",
    "klondike-draw1": "seven-columns",
    "patiencemax": "columns-and-hand",
    "patiencemax-all-to-piles": "columns-and-hand",
    "patriarchs": "reserve-between",
    "picture-patience": "reserve-between",
    "odd-and-even": "reserve-between",
    "royal-cotillion": "left-piles",
    "contradance": "two-rows",
    "captured-queens": "three-rows",
    "senior-wrangler": "index-cards",
}

#: layout.js: the hint in each empty foundation ("A" + suit letter, or a rank alone)
CSHD = "CSHD"
HINTS = {
    "klondike": [f"A{s}" for s in CSHD],
    "klondike-draw1": [f"A{s}" for s in CSHD],
    "patiencemax": ["A"] * 8,
    "patiencemax-all-to-piles": ["A"] * 8,
    "patriarchs": [f"A{s}" for s in CSHD] + [f"K{s}" for s in CSHD],
    "picture-patience": [f"A{s}" for s in CSHD] + [f"K{s}" for s in CSHD],
    "odd-and-even": [f"A{s}" for s in CSHD] + [f"2{s}" for s in CSHD],
    "royal-cotillion": [f"A{s}" for s in CSHD] + [f"2{s}" for s in CSHD],
    "contradance": [f"5{s}" for s in "CCSSHHDD"] + [f"6{s}" for s in "CCSSHHDD"],
    "captured-queens": [f"{r}{s}" for r in "5Q6" for s in CSHD],
    "senior-wrangler": list("468TQA35"),
}

#: lobby.js DECOR
LOBBY_CARDS = {
    "klondike": ["KS", "QH", "JC"],
    "klondike-draw1": ["AH", "2S", "3D"],
    "patiencemax": ["KD", "QC", "KH"],
    "patiencemax-all-to-piles": ["AS", "AH", "AD"],
    "patriarchs": ["AC", "KC", "5H"],
    "picture-patience": ["KH", "AH", "QS"],
    "odd-and-even": ["AD", "3D", "5D"],
    "royal-cotillion": ["2S", "4S", "6S"],
    "contradance": ["5C", "6C", "7H"],
    "captured-queens": ["QH", "QS", "QD"],
    "senior-wrangler": ["2H", "4C", "6D"],
}

#: the stock as the rules say it: (draw, redeals, turn)
STOCKS = {
    "klondike": (3, None, "redeal"),
    "klondike-draw1": (1, None, "redeal"),
    "patiencemax": (0, 0, None),
    "patiencemax-all-to-piles": (0, 0, None),
    "patriarchs": (1, 1, "redeal"),
    "picture-patience": (1, 0, None),
    "odd-and-even": (1, 1, "redeal"),
    "royal-cotillion": (1, 0, None),
    "contradance": (1, 1, "redeal"),
    "captured-queens": (1, 2, "redeal"),
    "senior-wrangler": (0, 8, "next-packet"),
}


@pytest.fixture(scope="module")
def client(module_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(module_app) as c:
        yield c


@pytest.fixture(scope="module")
def games(client: TestClient) -> dict[str, dict[str, Any]]:
    r = client.get("/api/games")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    listed = r.json()
    assert [g["id"] for g in listed] == list(GAMES), "in the registry's order"
    return {g["id"]: g for g in listed}


def test_every_game_has_todays_keys_and_the_registrys(games: dict[str, Any]) -> None:
    for g in games.values():
        assert set(g) == OLD_KEYS | NEW_KEYS, g["id"]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_todays_keys_are_unchanged(games: dict[str, Any], game_id: str) -> None:
    g, rules = games[game_id], GAMES[game_id]
    assert (g["name"], g["decks"], g["rules_text"]) == (rules.name, rules.decks, rules.rules_text)
    assert g["winnable_deals"] == len(WINNABLE.get(game_id, ()))


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_registrys_facts(games: dict[str, Any], game_id: str) -> None:
    g, rules, facts = games[game_id], GAMES[game_id], FACTS[game_id]
    assert g["short_name"] == facts.short_name and g["blurb"] == facts.blurb
    assert g["lobby_cards"] == list(facts.lobby_cards)
    assert g["layout"] == facts.layout.value
    assert g["ranked"] is facts.ranked and g["scored"] is rules.scored
    assert g["solver"] == facts.solver.value
    assert g["pile_words"] == {k.value: w for k, w in facts.pile_words.items()}
    assert len(g["foundation_bases"]) == len(rules.foundations)
    for base in g["foundation_bases"]:
        assert set(base) == {"rank", "suit"}
        assert base["rank"] in "A23456789TJQK" and base["suit"] in (None, "C", "S", "H", "D")
    assert isinstance(g["draw"], int) and g["turn"] in (None, "redeal", "next-packet")


@pytest.mark.parametrize("game_id", list(LAYOUTS))
def test_what_the_pages_wrote_out_before(games: dict[str, Any], game_id: str) -> None:
    g = games[game_id]
    assert g["lobby_cards"] == LOBBY_CARDS[game_id]
    assert g["layout"] == LAYOUTS[game_id]
    assert g["ranked"] is (game_id in ("klondike", "klondike-draw1"))
    assert g["scored"] is (game_id in ("klondike", "klondike-draw1"))
    assert g["solver"] == ("klondike" if game_id in ("klondike", "klondike-draw1") else "generic")
    assert (g["draw"], g["redeals"], g["turn"]) == STOCKS[game_id]
    bases = [b["rank"] + (b["suit"] or "") for b in g["foundation_bases"]]
    assert bases == HINTS[game_id]
    assert g["pile_words"] == ({"column": "left pile"} if game_id == "royal-cotillion" else {})


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_deal_piles_are_a_plays_piles_without_the_cards(
    games: dict[str, Any], game_id: str
) -> None:
    from patiencekit.game import new_game

    for number in (1, 2, 10**19 + 7):
        view = new_game(game_id, number).view().to_json()["piles"]
        assert games[game_id]["deal_piles"] == [
            {
                "kind": p["kind"],
                "index": p["index"],
                "label": p["label"],
                "cards": len(p["cards"]),
                "face_down": p["face_down"],
            }
            for p in view
        ], number


def test_the_short_names_the_competition_pages_used(games: dict[str, Any]) -> None:
    assert games["klondike"]["short_name"] == "Solitaire"
    assert games["klondike-draw1"]["short_name"] == "Solitaire Simple"


def test_the_blurbs_are_the_lobbys(games: dict[str, Any]) -> None:
    assert games["senior-wrangler"]["blurb"] == (
        "Eight index cards set each foundation's step, from 2 to 9, ignoring suits. "
        "A game of counting."
    )
    assert games["klondike"]["blurb"].startswith("The classic Solitaire: build the four suits")


# -- the schema ------------------------------------------------------------------------


def test_the_openapi_schema_describes_the_answer(client: TestClient, games: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="the test extra is not installed")
    spec = client.get("/api/openapi.json").json()
    operation = spec["paths"]["/api/games"]["get"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    # (an older route of the same path, registered after catalogue's, replaces its operation
    # in the schema: FastAPI keeps the last one)
    assert "items" in schema, f"GET /api/games is not catalogue's list_games: {operation}"
    assert schema["type"] == "array"
    assert schema["items"] == {"$ref": "#/components/schemas/GameEntry"}
    entry = spec["components"]["schemas"]["GameEntry"]
    assert set(entry["required"]) == OLD_KEYS | NEW_KEYS
    assert entry["additionalProperties"] is False
    # the answer is valid under its schema
    jsonschema.validate(list(games.values()), {**schema, "components": spec["components"]})
    assert not any(s.startswith("5") for s in operation["responses"])  # no database, no 5xx
