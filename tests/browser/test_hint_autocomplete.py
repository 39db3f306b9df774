"""The hint drawn on the board and auto-complete, in Chromium against the real server.

The hint: the card(s) the server's hint moves are marked ``hint-from`` and the pile they go to
``hint-to``, the hint is said in words (the server's ``words``) in ``#hint-text`` and to a
screen reader, and the marks go with the next action. Auto-complete: its button shows only
while the play's ``autocomplete`` is true; it plays the server's line through card by card
(the positions are checked against the engine's), then shows the win; at a fresh deal the
button is hidden, ``a`` sends nothing, and a refusal is shown as any other.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from play_helpers import current, open_deal, wait_moves

import patiencekit
from patiencekit.server.pages import page_html
from patiencekit.solver import Budget, autocomplete_line, autocomplete_possible, solve

pytestmark = pytest.mark.browser

#: Klondike draw 3, deal 5: its solver line proves a win after 85 moves; the auto-complete
#: line from there turns the stock once (a card the view does not show, named by where it ends)
DRAW3 = ("klondike", 5)
#: Klondike draw 1, deal 4: the auto-complete line turns the stock four times
DRAW1 = ("klondike-draw1", 4)


# -- helpers ---------------------------------------------------------------------------------


def post(page: Any, server: str, path: str, body: dict[str, Any]) -> Any:
    """A POST of the page's own session (its cookies and CSRF token), as the page sends one."""
    csrf = page.request.get(f"{server}/api/session").json()["csrf"]
    return page.request.post(
        f"{server}{path}",
        data=json.dumps(body),
        headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
    )


def marked(page: Any, cls: str) -> list[dict[str, Any]]:
    """Every element of the board with class ``cls``: its pile's label, whether it is a card,
    its index in the pile (cards) and its card code."""
    found: list[dict[str, Any]] = page.locator(f"#board .{cls}").evaluate_all(
        "els => els.map(e => ({label: e.closest('.pile').dataset.label,"
        " card: e.classList.contains('card'), i: e.dataset.i === undefined ? null :"
        " Number(e.dataset.i), code: e.dataset.card || null}))"
    )
    return found


def pile_of(play: dict[str, Any], label: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in play["piles"] if p["label"] == label)
    return found


def autocomplete_position(game_id: str, number: int) -> tuple[list[str], list[str]]:
    """The solver's winning line of a deal up to the first position where the player's view
    proves a win, and the auto-complete line from there (the engine's)."""
    result = solve(game_id, number, budget=Budget(seconds=None, states=300_000))
    assert result.outcome == "solved", (game_id, number, result.outcome)
    game = patiencekit.new_game(game_id, number)
    played: list[str] = []
    for move in result.moves:
        if autocomplete_possible(game):
            break
        game.play(move)
        played.append(move)
    line = autocomplete_line(game)
    assert line, (game_id, number)
    return played, line


# -- the hint ----------------------------------------------------------------------------------


def test_the_hint_is_drawn_on_the_board_and_said_in_words(page: Any, server: str) -> None:
    play = open_deal(page, server, "klondike", 24)
    assert page.locator("#board .hint-from, #board .hint-to").count() == 0
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#board .hint-from') !== null")
    # The API's hint for the same play (the solver's hint is a function of the view).
    answer = post(page, server, f"/api/plays/{play['id']}/hint", {}).json()
    hint = answer["hint"]
    assert hint and answer["n"] == 0
    src, dst, *rest = hint.split()
    count = int(rest[0]) if rest else 1
    source = pile_of(play, src)
    top = len(source["cards"])
    froms = marked(page, "hint-from")
    assert {m["label"] for m in froms} == {src}
    assert all(m["card"] for m in froms)
    assert sorted(m["i"] for m in froms) == list(range(top - count, top))
    assert [m["code"] for m in sorted(froms, key=lambda m: m["i"])] == source["cards"][-count:]
    assert [m["label"] for m in marked(page, "hint-to")] == [dst]
    # The highlight can be seen: a ring around the card, another around the target.
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('#board .card.hint-from'));"
        " return [s.outlineStyle, s.outlineWidth]; }"
    )
    assert ring[0] == "solid" and float(ring[1].removesuffix("px")) >= 3
    target = page.locator(f'#board .pile[data-label="{dst}"]')
    cards = target.locator(":scope > .card")
    spot = cards.last if cards.count() else target.locator(".slot")
    assert spot.evaluate("e => getComputedStyle(e).outlineStyle") == "dashed"
    # Said in words, on the page and to a screen reader (the notation only without words).
    words = answer.get("words")
    text = page.text_content("#hint-text")
    if words:
        assert text == f"Hint: {words}"
        assert hint not in text
    else:
        assert text == f"Hint: {hint}"
    page.wait_for_function("t => document.getElementById('announce').textContent === t", arg=text)
    # The next move takes the highlight and the words away.
    page.fill("#move-input", hint)
    page.press("#move-input", "Enter")
    wait_moves(page, 1)
    assert page.locator("#board .hint-from, #board .hint-to, #board .hint-source").count() == 0
    assert page.text_content("#hint-text") == ""
    # h asks again; an undo (an action) takes it away too.
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("h")
    page.wait_for_function("() => document.querySelector('#board .hint-from') !== null")
    assert page.text_content("#hint-text").startswith("Hint: ")
    page.keyboard.press("u")
    wait_moves(page, 0)
    assert page.locator("#board .hint-from, #board .hint-to").count() == 0


def test_every_kind_of_move_is_drawn_as_a_hint(page: Any, server: str) -> None:
    """The board's own drawing of a hint, for each form of the notation: a string of cards,
    a card from the waste, the stock (s, and t on an empty stock), a bare foundation."""
    open_deal(page, server, "klondike", 24)
    result = page.evaluate(
        """async () => {
          const { BoardView } = await import('/static/js/board-view.js');
          const { games } = await import('/static/js/games.js');
          const root = document.createElement('section');
          document.body.appendChild(root);
          const view = new BoardView(root, await games());
          const base = window.pk.play;
          const piles = base.piles.map(p => ({ ...p, cards: [...p.cards] }));
          const pile = l => piles.find(p => p.label === l);
          pile('c1').cards = ['KS', 'QH', 'JC', 'TD'];
          pile('w').cards = ['9D', '4H'];
          const marks = (move, play) => {
            view.setPlay(play, { animate: false });
            const drawn = view.showHint(move);
            const get = cls => [...root.querySelectorAll('.' + cls)].map(e => [
              e.closest('.pile').dataset.label,
              e.classList.contains('card') ? Number(e.dataset.i) : null,
            ]);
            return { drawn, from: get('hint-from'), to: get('hint-to') };
          };
          const play = { ...base, piles, legal_moves: ['w f2'] };
          const out = {
            string: marks('c1 c4 3', play),
            waste: marks('w c5', play),
            stock: marks('s', play),
            bare: marks('w f', play),
            nothing: marks('x9 c1', play),
          };
          const emptied = piles.map(p => p.label === 's' ? { ...p, cards: [] } : p);
          out.turn = marks('t', { ...play, piles: emptied, legal_moves: ['t'] });
          view.setPlay(play, { animate: false });
          out.redrawn = root.querySelectorAll('.hint-from, .hint-to').length;
          root.remove();
          return out;
        }"""
    )
    assert result["string"] == {
        "drawn": True,
        "from": [["c1", 1], ["c1", 2], ["c1", 3]],
        "to": [["c4", None]],
    }
    assert result["waste"] == {"drawn": True, "from": [["w", 1]], "to": [["c5", None]]}
    stock_top = len(pile_of(current(page), "s")["cards"]) - 1
    assert result["stock"] == {"drawn": True, "from": [["s", stock_top]], "to": []}
    assert result["bare"] == {"drawn": True, "from": [["w", 1]], "to": [["f2", None]]}
    assert result["nothing"] == {"drawn": False, "from": [], "to": []}
    assert result["turn"] == {"drawn": True, "from": [["s", None]], "to": []}
    assert result["redrawn"] == 0


# -- the line played through -------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "number"), [DRAW3, DRAW1])
def test_the_line_is_played_through_as_the_engine_plays_it(
    page: Any, server: str, game_id: str, number: int
) -> None:
    """What the board draws between the play before auto-complete and the won play: each
    move's position as the engine's view has it (a card turned from the stock is named by its
    place in the won play; the stock's cards stay face down)."""
    played, line = autocomplete_position(game_id, number)
    game = patiencekit.new_game(game_id, number)
    for move in played:
        game.play(move)
    start = game.view().to_json()["piles"]
    truth = []
    for move in line:
        game.play(move)
        truth.append(game.view().to_json()["piles"])
    assert game.is_won()
    open_deal(page, server, game_id, number)
    draw = next(
        g["draw"] for g in page.request.get(f"{server}/api/games").json() if g["id"] == game_id
    )
    drawn = page.evaluate(
        """async ([start, line, end, draw]) => {
          const { linePositions } = await import('/static/js/board-view.js');
          return linePositions(start, line, end, draw);
        }""",
        [start, line, truth[-1], draw],
    )
    assert drawn is not None and len(drawn) == len(line)
    assert any(m in ("s", "t") for m in line)
    for k, (mine, engine) in enumerate(zip(drawn, truth, strict=True)):
        for a, b in zip(mine, engine, strict=True):
            assert a["label"] == b["label"] and a["cards"] == b["cards"], (k, line[k], a["label"])
    # A line it cannot follow draws nothing in between (the won play is then shown at once).
    wrong = page.evaluate(
        """async ([start, end, draw]) => {
          const { linePositions } = await import('/static/js/board-view.js');
          return linePositions(start, ['c1 c9'], end, draw);
        }""",
        [start, truth[-1], draw],
    )
    assert wrong is None


# -- auto-complete -------------------------------------------------------------------------------


def reach_autocomplete(page: Any, server: str, game_id: str, number: int) -> dict[str, Any]:
    """A casual play of the deal (the page's session) played through the API along the
    solver's winning line until its answer's ``autocomplete`` is true; that answer."""
    result = solve(game_id, number, budget=Budget(seconds=None, states=300_000))
    assert result.outcome == "solved", (game_id, number, result.outcome)
    open_deal(page, server, game_id, number)
    play_id = current(page)["id"]
    for k, move in enumerate(result.moves):
        r = post(page, server, f"/api/plays/{play_id}/moves", {"move": move, "n": k})
        assert r.ok, r.text()
        answer: dict[str, Any] = r.json()
        assert "autocomplete" in answer, "the play JSON has no autocomplete flag"
        if answer["autocomplete"]:
            assert not answer["won"]
            return answer
    pytest.fail(f"{game_id} #{number}: auto-complete was never offered along the solver's line")


def foundation_cards(play: dict[str, Any]) -> int:
    return sum(len(p["cards"]) for p in play["piles"] if p["kind"] == "foundation")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_auto_complete_button_plays_the_cards_home(page: Any, server: str, motion: str) -> None:
    page.emulate_media(reduced_motion=motion)
    answer = reach_autocomplete(page, server, *DRAW3)
    page.goto(f"{server}/p/{answer['id']}")
    page.wait_for_function(
        "n => window.pk?.play && window.pk.play.n === n", arg=answer["n"]
    )
    button = page.locator("#autocomplete")
    assert button.is_visible() and button.inner_text() == "Auto-complete"
    # Whether the cards are played through one by one (the board says so meanwhile).
    page.evaluate(
        """() => {
          window.seen = { autoplaying: false };
          const board = document.getElementById('board');
          new MutationObserver(() => {
            if (board.classList.contains('autoplaying')) window.seen.autoplaying = true;
          }).observe(board, { attributes: true, attributeFilter: ['class'] });
        }"""
    )
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(r) if r.url.endswith("/autocomplete") else None)
    button.click()
    page.keyboard.press("a")  # pressed again while it runs: nothing more is sent
    page.wait_for_selector("#win:not([hidden])", timeout=20_000)
    assert len(sent) == 1 and json.loads(sent[0].post_data) == {"n": answer["n"]}
    assert page.text_content("#error") == ""
    play = current(page)
    assert play["won"] is True and play["autocompleted"]
    assert foundation_cards(play) == 52
    assert all(not p["cards"] for p in play["piles"] if p["kind"] != "foundation")
    # The board shows it: a king on top of every foundation, no card anywhere else.
    tops = page.locator("#board .pile.kind-foundation > .card:last-of-type").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert len(tops) == 4 and all(code.startswith("K") for code in tops)
    assert page.locator("#board .pile:not(.kind-foundation) .card").count() == 0
    assert button.is_hidden()
    assert page.text_content("#m-moves") == str(play["n"])
    seen = page.evaluate("window.seen")
    if motion == "reduce":
        assert seen["autoplaying"] is False  # the won play at once
    else:
        assert seen["autoplaying"] is True  # card by card
    assert page.locator("#board .card.hint-from").count() == 0
    truth = page.request.get(f"{server}/api/plays/{answer['id']}").json()
    assert truth["won"] is True and truth["n"] == play["n"]


def test_a_at_a_fresh_deal_sends_nothing_and_a_refusal_is_shown(
    page: Any, server: str, page_errors: Any
) -> None:
    page_errors.http_ok = True
    play = open_deal(page, server, "klondike", 24)
    assert play.get("autocomplete") is not True
    assert page.locator("#autocomplete").is_hidden()
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/autocomplete" in r.url else None)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("a")
    page.wait_for_function(
        "() => document.getElementById('hint-text').textContent.includes('Auto-complete')"
    )
    assert sent == []
    assert page.text_content("#error") == ""
    assert current(page)["n"] == 0
    # The button pressed anyway (hidden, so only by a script): the server refuses, the page
    # says why, and nothing changes.
    with page.expect_response(lambda r: r.url.endswith("/autocomplete")) as answered:
        page.evaluate("document.getElementById('autocomplete').click()")
    assert answered.value.status == 409
    body = answered.value.json()
    assert body["error"]["code"] == "no_autocomplete"
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    assert page.text_content("#error") == body["error"]["message"]
    assert current(page)["n"] == 0 and page.locator("#autocomplete").is_hidden()


def test_the_tournament_round_has_the_button_hidden_until_offered() -> None:
    html = page_html("tournament.html")
    assert html is not None
    button = re.search(r"<button [^>]*id=\"autocomplete\"[^>]*>", html)
    assert button is not None and " hidden" in button.group(0)
    assert 'aria-keyshortcuts="a"' in button.group(0)
