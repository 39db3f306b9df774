"""A ranked game in Chromium against the real server (RULES.md, "Fair competition"): the page
says it is ranked and shows no deal number or share link while it runs; "New deal" asks
first, and giving the game up that way counts it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from layout_helpers import sign_up_context

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
#: a ranked deal's number has 20 digits (RANKED_FIRST = 10**19); nothing this long is shown
LONG_NUMBER = re.compile(r"\d{15,}")


def _play(page: Any) -> dict[str, Any]:
    play: dict[str, Any] = page.evaluate("window.pk.play")
    return play


def _my_games(ctx: Any, server: str) -> int:
    me = ctx.request.get(f"{server}/api/top100/klondike").json()["me"]
    return 0 if me is None else int(me["games"])


def test_a_ranked_game_shows_no_number_and_new_deal_asks_then_counts(
    browser: Any, server: str
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(10_000)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
        sign_up_context(ctx, server, "r")
        page.goto(f"{server}/top100/klondike")
        page.click("#play-ranked")
        page.wait_for_url(re.compile(r"/p/[0-9a-f]{32}$"))
        page.wait_for_function("() => window.pk?.play")
        first = _play(page)
        assert first["ranked"] is True and first["number"] is None
        assert page.locator("[data-testid=ranked-badge]").is_visible()
        assert page.locator("#deal-no").inner_text() == ""
        assert not page.locator("[data-testid=share-link]").is_visible()
        assert not page.locator("#undo").is_visible() and not page.locator("#hint").is_visible()
        assert LONG_NUMBER.search(page.content()) is None
        assert LONG_NUMBER.search(page.title()) is None and "ranked" in page.title()
        # One move, so that the game has something to count.
        page.keyboard.press("s")
        page.wait_for_function("() => window.pk?.play?.n === 1")
        assert _my_games(ctx, server) == 0
        # "New deal" asks; saying no changes nothing.
        asked: list[str] = []

        def answer(accept: bool) -> Any:
            def on_dialog(dialog: Any) -> None:
                asked.append(dialog.message)
                dialog.accept() if accept else dialog.dismiss()

            return on_dialog

        page.once("dialog", answer(False))
        page.click("#new-deal")
        page.wait_for_function("() => true")
        assert len(asked) == 1 and "Give up this ranked game" in asked[0]
        assert _play(page)["id"] == first["id"] and _my_games(ctx, server) == 0
        # Saying yes gives it up (it counts) and deals a new ranked game.
        page.once("dialog", answer(True))
        page.click("#new-deal")
        page.wait_for_function("id => window.pk?.play && window.pk.play.id !== id", arg=first["id"])
        second = _play(page)
        assert second["ranked"] is True and second["n"] == 0 and second["number"] is None
        assert len(asked) == 2
        assert _my_games(ctx, server) == 1
        ended = ctx.request.get(f"{server}/api/plays/{first['id']}").json()
        assert ended["over"] is True and len(ended["number_text"]) == 20
        assert page.locator("[data-testid=ranked-badge]").is_visible()
        assert errors == []
    finally:
        ctx.close()
