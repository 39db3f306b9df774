"""Helpers of the browser tests (``from layout_helpers import ...``; first those of the layout,
screenshot and accessibility tests): pages at a given size and language, accounts and
tournaments made through the API."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

PHONE_390 = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "correct horse battery"


@contextmanager
def opened(
    browser: Any, viewport: dict[str, int], *, lang: str = "en", phone: bool | None = None
) -> Iterator[tuple[Any, list[str]]]:
    """A page in a fresh context of this size whose browser asks for ``lang``, and the list of
    its console errors and uncaught exceptions (checked empty at the end)."""
    phone = viewport["width"] < 600 if phone is None else phone
    ctx = browser.new_context(
        viewport=viewport,
        locale={"en": "en-US", "nl": "nl-NL", "es": "es-ES"}[lang],
        extra_http_headers={"Accept-Language": lang},
        is_mobile=phone,
        has_touch=phone,
    )
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
    try:
        yield page, errors
        assert [e for e in errors if "Failed to load resource" not in e] == []
    finally:
        ctx.close()


def post(ctx_request: Any, server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A POST with the session's CSRF token (from GET /api/session); its answer."""
    csrf = ctx_request.get(f"{server}/api/session").json()["csrf"]
    return ctx_request.post(
        f"{server}{path}",
        data=json.dumps(body or {}),
        headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
    )


def sign_up(page: Any, server: str, prefix: str = "p") -> str:
    """A new account signed in in the page's context; its name."""
    return sign_up_context(page.context, server, prefix)


def sign_up_context(ctx: Any, server: str, prefix: str = "p") -> str:
    """A new account signed in in the browser context ``ctx``; its name (``prefix`` and ten
    random hexadecimal digits)."""
    name = f"{prefix}{uuid.uuid4().hex[:10]}"
    r = post(ctx.request, server, "/api/auth/signup", {"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    return name


def tournament(page: Any, other: Any, server: str, *, finish: bool) -> int:
    """A tournament of two (the page's player and ``other``'s), running, or finished with
    every round given up after one turn of the stock; its id."""
    t = post(page.context.request, server, "/api/tournaments", {"game": "klondike", "size": 2})
    assert t.status == 201, t.text()
    tid: int = t.json()["id"]
    assert post(other.context.request, server, f"/api/tournaments/{tid}/join").status == 200
    if finish:
        for p in (page, other):
            for r in (1, 2, 3):
                play = post(p.context.request, server, f"/api/tournaments/{tid}/rounds/{r}/play")
                pid = play.json()["id"]
                post(p.context.request, server, f"/api/plays/{pid}/moves", {"move": "s", "n": 0})
                end = post(p.context.request, server, f"/api/plays/{pid}/finish", {"n": 1})
                assert end.status == 200, end.text()
    return tid


def casual_games(page: Any, server: str, games: tuple[str, ...] = ("klondike",)) -> None:
    """A casual play of each game for the page's player, with one move (its statistics)."""
    for game in games:
        play = post(page.context.request, server, f"/api/games/{game}/play", {"number": 3})
        assert play.status == 201, play.text()
