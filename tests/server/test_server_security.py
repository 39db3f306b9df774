"""What a player must never get: hidden cards, a way round CSRF, an oversized body."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
from typing import Any

import pytest

from patiencekit import new_game
from patiencekit.server.middleware import BodyLimitMiddleware


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["error"]["code"] == code, body
    return body


def _hidden_cards(game_id: str, number: int, moves: list[str] = ()) -> tuple[set[str], set[str]]:
    """The face-down cards and the stock's cards of a deal (the whole truth, from the engine)."""
    game = new_game(game_id, number)
    for m in moves:
        game.play(m)
    full = game.deal_json()
    down: set[str] = set()
    stock: set[str] = set()
    for pile in full["piles"]:
        if pile["kind"] == "stock":
            stock |= set(pile["cards"])
        else:
            down |= set(pile["cards"][: pile["face_down"]])
    return down, stock


def _texts(value: Any) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in (k, *_texts(v))]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _assert_no_leak(raw: str, hidden: set[str]) -> None:
    tokens = {tok.upper() for s in _texts(json.loads(raw)) for tok in re.split(r"[\s,:;()]+", s)}
    assert not hidden & tokens, sorted(hidden & tokens)
    for card in hidden:
        assert card not in raw, card


@pytest.mark.parametrize("number", [24, 1, 10**20 - 1])
def test_a_fresh_klondike_deal_never_shows_a_face_down_or_stock_card(api, number):
    r = api.post("/api/games/klondike/play", {"number": number})
    assert r.status_code == 201
    down, stock = _hidden_cards("klondike", number)
    assert len(down) == 21 and len(stock) == 24
    raw = r.text
    _assert_no_leak(raw, down | stock)
    play = r.json()
    # The hidden cards are there as nulls: the player sees how many, not which.
    piles = {p["label"]: p for p in play["piles"]}
    assert piles["s"]["cards"] == [None] * 24 and piles["s"]["face_down"] == 24
    assert sum(p["face_down"] for p in play["piles"] if p["kind"] == "column") == 21
    # Neither does reading it back, nor the legal moves.
    again = api.get(f"/api/plays/{play['id']}")
    _assert_no_leak(again.text, down | stock)
    _assert_no_leak(json.dumps(play["legal_moves"]), down | stock)


def test_after_moves_only_the_turned_cards_show(api):
    play = api.new_play("klondike-draw1", 24)
    moves = ["c3 f", "s", "s", "c4 c2"]
    for m in moves:
        r = api.move(play, m)
        assert r.status_code == 200
        play = r.json()
    down, stock = _hidden_cards("klondike-draw1", 24, moves)
    _assert_no_leak(r.text, down | stock)
    waste = next(p for p in play["piles"] if p["label"] == "w")
    assert None not in waste["cards"] and len(waste["cards"]) == 2


def test_error_messages_never_name_a_hidden_card(api):
    play = api.new_play("klondike", 24)
    down, stock = _hidden_cards("klondike", 24)
    engine = new_game("klondike", 24)
    labels = [f"c{i}" for i in range(1, 8)] + ["w", "f1", "f"]
    messages = []
    for src in labels:
        for dst in labels:
            for count in ("", " 2"):
                move = f"{src} {dst}{count}"
                if move in engine.legal_moves:
                    continue
                r = api.move(play, move)
                assert r.status_code == 400, r.text
                messages.append(r.json()["error"]["message"])
    assert len(messages) > 150
    _assert_no_leak(json.dumps(messages), down | stock)


def test_double_click_on_a_hidden_card_answers_as_for_any_other(api):
    play = api.new_play("klondike", 24)
    down, stock = _hidden_cards("klondike", 24)
    answers = set()
    for card in sorted(down | stock):
        r = api.post(f"/api/plays/{play['id']}/foundation", {"card": card, "n": 0})
        assert r.status_code == 400
        answers.add(r.json()["error"]["message"].replace(card, "XX"))
    visible_not_playable = "9H"  # c2's top card on deal 24, which no foundation takes
    r = api.post(f"/api/plays/{play['id']}/foundation", {"card": visible_not_playable, "n": 0})
    answers.add(r.json()["error"]["message"].replace(visible_not_playable, "XX"))
    assert answers == {"no foundation takes XX now"}


# -- CSRF ----------------------------------------------------------------------------------------


def test_state_changing_requests_need_the_csrf_header(api):
    api.session()
    for path, body in [
        ("/api/games/klondike/play", {"number": 1}),
        ("/api/auth/signup", {"name": "Oscar", "password": "long enough"}),
        ("/api/auth/signin", {"name": "Oscar", "password": "long enough"}),
        ("/api/auth/signout", None),
    ]:
        _error(api.client.post(path, json=body), 403, "forbidden")
        r = api.client.post(path, json=body, headers={"X-CSRF-Token": "not the cookie"})
        _error(r, 403, "forbidden")
    assert api.session()["user"] is None


def test_moves_need_the_csrf_header(api):
    play = api.new_play("klondike", 24)
    _error(api.client.post(f"/api/plays/{play['id']}/moves", json={"move": "s", "n": 0}), 403,
           "forbidden")  # fmt: skip
    assert api.get(f"/api/plays/{play['id']}").json()["n"] == 0


def test_a_planted_token_without_the_servers_signature_is_refused(make_api):
    api = make_api(cookies={"pk_csrf": "planted.by-another-site"})
    r = api.client.post(
        "/api/games/klondike/play", json={}, headers={"X-CSRF-Token": "planted.by-another-site"}
    )
    _error(r, 403, "forbidden")
    # GET /api/session replaces it with a good one.
    assert api.session()["csrf"] != "planted.by-another-site"
    assert api.post("/api/games/klondike/play", {}).status_code == 201


def test_pages_set_the_csrf_cookie(api):
    r = api.get("/")
    token = api.client.cookies.get("pk_csrf")
    assert r.status_code == 200 and token
    r = api.client.post("/api/games/klondike/play", json={}, headers={"X-CSRF-Token": token})
    assert r.status_code == 201


# -- oversized bodies -----------------------------------------------------------------------


def test_a_body_over_16_kib_is_refused(api):
    play = api.new_play("klondike", 24)
    big = json.dumps({"move": "s", "n": 0, "pad": "x" * 17000})
    r = api.post(
        f"/api/plays/{play['id']}/moves", content=big, headers={"content-type": "application/json"}
    )
    body = _error(r, 413, "too_large")
    assert "16384" in body["error"]["message"]
    assert api.get(f"/api/plays/{play['id']}").json()["n"] == 0
    # Just under the limit is fine (and the extra key is ignored).
    ok = json.dumps({"move": "s", "n": 0, "pad": "x" * 16000})
    r = api.post(
        f"/api/plays/{play['id']}/moves", content=ok, headers={"content-type": "application/json"}
    )
    assert r.status_code == 200, r.text


def _asgi_call(app: Any, chunks: list[bytes], headers: list[tuple[bytes, bytes]]) -> list[Any]:
    sent: list[Any] = []
    incoming = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]

    async def receive() -> Any:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/x", "headers": headers}
    # A loop in a thread of its own: a browser test in the same worker (Playwright's sync
    # API) may have left an event loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result(timeout=30)
    return sent


def test_a_streamed_body_is_cut_off_at_the_limit():
    reached = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        message = await receive()
        reached.append(message["body"])

    limited = BodyLimitMiddleware(inner, max_bytes=100)
    # No Content-Length: counted while it streams in.
    sent = _asgi_call(limited, [b"x" * 60, b"x" * 60, b"never read"], [])
    assert sent[0]["status"] == 413 and not reached
    assert json.loads(sent[1]["body"])["error"]["code"] == "too_large"
    # A declared length over the limit is refused before reading.
    sent = _asgi_call(limited, [b"x"], [(b"content-length", b"101")])
    assert sent[0]["status"] == 413 and not reached
    # Under the limit, the chunks arrive joined.
    sent = _asgi_call(limited, [b"a" * 50, b"b" * 50], [])
    assert reached == [b"a" * 50 + b"b" * 50]


def test_security_headers(api):
    for path in ("/", "/api/health", "/api/nothing"):
        r = api.get(path)
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"


def test_no_server_timing_header_unless_the_bench_asks(api, settings, clock):
    """Server-Timing is off by default: a move's time to answer can depend on hidden cards
    (the draws to the next playable stock card). The load bench turns it on
    (PATIENCEKIT_SERVER_TIMING=1)."""
    import dataclasses
    import re

    from fastapi.testclient import TestClient

    from patiencekit.server.app import create_app
    from patiencekit.server.config import Settings

    play = api.new_play("klondike", 24)
    for r in (api.get("/api/health"), api.get("/"), api.move(play, "s")):
        assert "server-timing" not in r.headers
    assert Settings.from_env({}).server_timing is False
    assert Settings.from_env({"PATIENCEKIT_SERVER_TIMING": "1"}).server_timing is True
    timed = create_app(dataclasses.replace(settings, server_timing=True), clock=clock)
    try:
        r = TestClient(timed).get("/api/health")
        match = re.fullmatch(r"app;dur=(\d+\.\d{3})", r.headers["server-timing"])
        assert match is not None
    finally:
        timed.state.db.dispose()
