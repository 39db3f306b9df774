"""axe-core (Deque's accessibility engine, bundled by the PyPI package axe-playwright-python) on
every page, in English and Dutch: the lobby, the board of each layout family, the rules, the
statistics, sign in and up, the tournaments, a tournament (finished, and a round on its board),
the Top 100 and a profile; on a desktop, and on a phone with its menus open. No serious or
critical violation may be left. Every rule axe runs by default, and label-content-name-mismatch
(an experimental one, so off by default: every card failed it)."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from layout_helpers import DESKTOP, PHONE_390, casual_games, opened, sign_up, tournament

pytestmark = pytest.mark.browser

OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}
AXE = Axe()


def serious(page: Any, where: str) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now, one line each
    (the rule, its impact, where)."""
    found = AXE.run(page, options=OPTIONS).response["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes'][:3]]}"
        f" {v['nodes'][0]['html'][:100]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def family_games(page: Any, server: str) -> list[str]:
    """One game of each layout family (the first the registry lists)."""
    games: list[dict[str, Any]] = page.request.get(f"{server}/api/games").json()
    first: dict[str, str] = {}
    for g in games:
        first.setdefault(g["layout"], g["id"])
    return list(first.values())


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_no_serious_violation_on_any_page(browser: Any, server: str, lang: str) -> None:
    with opened(browser, DESKTOP, lang=lang) as (page, _), opened(browser, DESKTOP) as (other, _):
        name = sign_up(page, server)
        sign_up(other, server)
        finished = tournament(page, other, server, finish=True)
        running = tournament(page, other, server, finish=False)
        casual_games(page, server)
        pages: list[tuple[str, str]] = [
            ("/", "#games li"),
            ("/rules/klondike", ".rules-text h2"),
            (f"/stats/{name}", "#stats tbody tr"),
            ("/tournaments", "#list tbody tr"),
            (f"/tournaments/{finished}", "#entrants tbody tr"),
            ("/top100", "#top tbody tr"),
            (f"/players/{name}", "#tournaments tbody tr"),
            ("/daily", "#games tbody tr"),
            ("/daily/klondike", "#today-title"),
            ("/no-such-page", "#site-nav a"),  # the error page
        ]
        pages += [(f"/play/{game}?number=5", "#board .pile") for game in family_games(page, server)]
        found: list[str] = []
        for path, ready in pages:
            page.goto(server + path)
            page.wait_for_selector(ready)
            page.wait_for_selector("#site-nav a", state="attached")
            assert page.evaluate("document.documentElement.lang") == lang, path
            found += serious(page, path)
        # The board's settings dialog, open.
        page.goto(f"{server}/play/klondike?number=5")
        page.wait_for_selector("#board .pile")
        page.click("#settings")
        page.wait_for_selector("dialog[open]")
        found += serious(page, "/play/klondike (the settings dialog)")
        # A round played on the tournament's page; then a finished one's replay.
        page.goto(f"{server}/tournaments/{running}")
        page.click("#play-round")
        page.wait_for_selector("#round:not([hidden]) #board .card")
        found += serious(page, f"/tournaments/{running} (a round)")
        page.goto(f"{server}/tournaments/{finished}")
        page.locator("#entrants .replay-button").first.click()
        page.wait_for_selector("#replay:not([hidden]) #replay-board .card")
        found += serious(page, f"/tournaments/{finished} (a replay)")
        # Signed out: the forms.
        page.context.clear_cookies()
        for path in ("/signin", "/signup"):
            page.goto(server + path)
            page.wait_for_selector("#auth-form")
            found += serious(page, path)
        assert found == []


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_no_serious_violation_on_a_phone_with_the_menus_open(
    browser: Any, server: str, lang: str
) -> None:
    with opened(browser, PHONE_390, lang=lang) as (page, _):
        found: list[str] = []
        page.goto(f"{server}/play/klondike?number=5")
        page.wait_for_function("() => window.pk?.play")
        page.wait_for_selector("#site-nav a", state="attached")
        found += serious(page, "play")
        page.click("#toolbar-more-toggle")
        found += serious(page, "play, More open")
        page.click("[data-testid=nav-toggle]")
        found += serious(page, "play, Menu open")
        page.goto(f"{server}/")
        page.wait_for_selector("#games li")
        found += serious(page, "lobby")
        assert found == []


def test_the_check_finds_a_planted_fault(page: Any, server: str) -> None:
    """The check can fail: a card that says "5" but is named "five of clubs", a button
    without a name and faint text are each found."""
    page.goto(f"{server}/play/klondike?number=5")
    page.wait_for_function("() => window.pk?.play")
    assert serious(page, "play") == []
    page.evaluate(
        """() => {
          const card = document.querySelector('#board .card.movable');
          const face = document.createElementNS('http://www.w3.org/2000/svg', 'text');
          face.textContent = '5';
          face.setAttribute('x', '10'); face.setAttribute('y', '30');
          card.querySelector('svg').append(face);
          const nameless = document.createElement('button');
          nameless.innerHTML = '<svg viewBox="0 0 10 10" aria-hidden="true"></svg>';
          document.querySelector('.toolbar').append(nameless);
          const faint = document.createElement('p');
          faint.textContent = 'barely there';
          faint.style.color = '#eeeeee';
          document.querySelector('main').append(faint);
        }"""
    )
    rules = {line.split(": ")[1].split(" ")[0] for line in serious(page, "play")}
    assert {"label-content-name-mismatch", "button-name", "color-contrast"} <= rules, rules
