"""The rules page in Chromium: the picture of the layout at the deal (drawn by the play page's
BoardView from ``GET /api/games``' ``deal_piles``, no play started, nothing in it to click or
focus) with its legend of the game's pile words, and the Controls section, in English and
Dutch, on a desktop and a phone."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

TIMES = "\u00d7"  # the legend's multiplication sign

#: what the picture holds: its piles, by kind, and anything that could take a click or the focus
PICTURE = """() => {
  const root = document.getElementById('layout-picture');
  const piles = [...root.querySelectorAll('.pile')];
  return {
    role: root.getAttribute('role'),
    label: root.getAttribute('aria-label'),
    piles: piles.map((p) => p.dataset.label),
    kinds: piles.map((p) => p.dataset.kind),
    focusable: root.querySelectorAll('[tabindex], button, a, input, [role=button]').length,
    movable: root.querySelectorAll('.movable').length,
    faceUp: root.querySelectorAll('.card:not(.back)').length,
    backs: root.querySelectorAll('.card.back').length,
    legend: [...document.querySelectorAll('#legend li')].map((li) => li.textContent),
    width: root.getBoundingClientRect().width,
    right: root.getBoundingClientRect().right,
    page: document.documentElement.clientWidth,
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""

CONTROLS = """() => {
  const s = document.getElementById('controls');
  return s && !s.hidden ? {heading: s.querySelector('h2').textContent,
    kbd: [...s.querySelectorAll('kbd')].map((k) => k.textContent),
    text: s.textContent} : null;
}"""


def _open(page: Any, server: str, game_id: str, lang: str = "en") -> dict[str, Any]:
    page.goto(f"{server}/rules/{game_id}?lang={lang}")
    page.wait_for_function(
        "() => document.querySelectorAll('#layout-picture .pile').length > 0"
        " && document.querySelectorAll('#legend li').length > 0"
    )
    picture: dict[str, Any] = page.evaluate(PICTURE)
    return picture


@pytest.mark.parametrize(
    ("game_id", "legend"),
    [
        # seven columns: the stock and waste, four foundations, seven columns
        ("klondike", ["Stock", "Waste", f"Foundation {TIMES} 4", f"Column {TIMES} 7"]),
        # left piles: the game's own word for its columns
        ("royal-cotillion", None),
    ],
)
def test_the_rules_page_draws_the_layout_at_the_deal(
    page: Any, server: str, game_id: str, legend: list[str] | None
) -> None:
    games = {g["id"]: g for g in page.request.get(f"{server}/api/games").json()}
    game = games[game_id]
    picture = _open(page, server, game_id)
    deal = game["deal_piles"]
    assert sorted(picture["piles"]) == sorted(p["label"] for p in deal)
    assert len(picture["piles"]) == len(deal)
    assert picture["role"] == "img"
    assert picture["label"] == f"The layout of {game['short_name']} at the deal"
    # nothing to click, drag or focus: no tabindex, no button, no movable card, no face
    assert picture["focusable"] == 0 and picture["movable"] == 0
    assert picture["faceUp"] == 0 and picture["backs"] > 0
    # the legend says each kind of pile in the game's words, with its count
    kinds = list(dict.fromkeys(p["kind"] for p in deal))
    assert len(picture["legend"]) == len(kinds)
    if legend is not None:
        assert picture["legend"] == legend
    else:
        word = game["pile_words"]["column"]
        n = sum(1 for p in deal if p["kind"] == "column")
        assert f"{word[0].upper()}{word[1:]} {TIMES} {n}" in picture["legend"]
    # no play was started to draw it: the page asked only for the list of games
    urls = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
    assert not [u for u in urls if "/api/plays" in u or u.endswith("/play")], urls
    # scaled down beside the text on a desktop
    assert picture["width"] <= 26 * 16 + 1 and picture["right"] <= picture["page"]


def test_the_picture_fits_a_phone(phone: Any, server: str) -> None:
    picture = _open(phone, server, "senior-wrangler")
    assert picture["focusable"] == 0
    assert picture["right"] <= picture["page"] + 0.5
    assert picture["scrollWidth"] <= picture["page"]


def test_the_controls_section_in_english_and_dutch(page: Any, server: str) -> None:
    _open(page, server, "klondike")
    english = page.evaluate(CONTROLS)
    assert english["heading"] == "Controls"
    assert {"u", "r", "s", "h", "a", "/"} <= set(english["kbd"])
    text = " ".join(english["text"].split())
    assert "Double-click" in text and "drag" in text and "c1 c4 3" in text
    _open(page, server, "royal-cotillion", "nl")
    assert page.evaluate("document.documentElement.lang") == "nl"
    dutch = page.evaluate(CONTROLS)
    assert dutch["heading"] == "Bediening"
    assert {"u", "r", "s", "h", "a", "/"} <= set(dutch["kbd"])
    text = " ".join(dutch["text"].split())
    assert "Dubbelklik" in text and "sleep" in text and "c1 c4 3" in text
    label = page.get_attribute("#layout-picture", "aria-label")
    assert label is not None and label.startswith("De opstelling van ")
