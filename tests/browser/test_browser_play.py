"""The play page in Chromium against the real server: every way of moving a card, undo,
reload, errors, the clock and score, a whole won game, every game's board, a phone."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from play_helpers import current, open_deal, wait_moves

import patiencekit
from patiencekit import IllegalMoveError
from patiencekit.words import refusal_words

pytestmark = pytest.mark.browser

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"


# -- helpers ---------------------------------------------------------------------------------


def pile(page: Any, label: str) -> Any:
    return page.locator(f'#board .pile[data-label="{label}"]')


def top_card(page: Any, label: str) -> Any:
    return page.locator(f'#board .pile[data-label="{label}"] > .card').last


def shown_cards(page: Any, label: str) -> list[str]:
    """The accessible names of the cards the page draws in a pile, bottom to top."""
    names: list[str] = (
        pile(page, label)
        .locator(".card")
        .evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    )
    return names


def server_play(page: Any, server: str, play_id: str) -> dict[str, Any]:
    """The play as the server has it (same browser session)."""
    r = page.request.get(f"{server}/api/plays/{play_id}")
    assert r.ok, r.text()
    data: dict[str, Any] = r.json()
    return data


def center(box: dict[str, float]) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page: Any, src: str, dst: str, depth: int = 0) -> None:
    """Press on a card of pile src (depth 0: the top card), move, release over pile dst."""
    settle(page)
    cards = pile(page, src).locator(".card")
    card = cards.nth(cards.count() - 1 - depth)
    box = card.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + min(8, box["height"] / 4)
    target = pile(page, dst).locator(".card")
    tbox = target.last.bounding_box() if target.count() else pile(page, dst).bounding_box()
    tx, ty = center(tbox)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y + 12, steps=3)
    page.mouse.move(tx, ty, steps=12)
    page.mouse.up()


def settle(page: Any) -> None:
    """Wait for the cards to stop sliding (a move is animated for a moment)."""
    page.evaluate(
        "() => Promise.all(document.getAnimations()"
        ".filter(a => a.effect.getTiming().iterations !== Infinity).map(a => a.finished))"
    )


def type_move(page: Any, text: str) -> None:
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")


NAMES = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
NUMBERS = ["", "", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
SUITS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}


def said(card: str) -> str:
    """'7H' -> 'seven of hearts' (what a screen reader should say)."""
    rank = NAMES.get(card[0]) or NUMBERS[int(card[0])]
    return f"{rank} of {SUITS[card[1]]}"


# -- moving cards ------------------------------------------------------------------------------


def test_mouse_drag_moves_a_card_between_columns(page: Any, server: str) -> None:
    # Klondike draw 1, deal 2: c5 c2 and c7 c6 are legal at the start.
    play = open_deal(page, server, "klondike-draw1", 2)
    assert "c5 c2" in play["legal_moves"]
    moving = play["piles"][[p["label"] for p in play["piles"]].index("c5")]["cards"][-1]
    before_c2 = shown_cards(page, "c2")
    mouse_drag(page, "c5", "c2")
    play = wait_moves(page, 1)
    assert play["last"] == "c5 c2"
    assert server_play(page, server, play["id"])["last"] == "c5 c2"
    assert shown_cards(page, "c2") == [*before_c2, said(moving)]
    assert said(moving) not in shown_cards(page, "c5")
    # No pile is left highlighted once the drag is over.
    assert page.locator("#board .drop-hover, #board .lifted").count() == 0


def test_drag_dropped_nowhere_or_refused_changes_nothing(
    page: Any, server: str, page_errors: Any
) -> None:
    page_errors.http_ok = True
    open_deal(page, server, "klondike-draw1", 2)
    before = shown_cards(page, "c3")
    mouse_drag(page, "c3", "c1")  # not a legal move: the server refuses it
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    assert current(page)["n"] == 0
    assert shown_cards(page, "c3") == before
    engine = patiencekit.new_game("klondike-draw1", 2)
    with pytest.raises(IllegalMoveError) as refused:
        engine.play("c3 c1")
    # the server's refusal, in the player's words (patiencekit.words)
    assert page.text_content("#error") == refusal_words(engine, refused.value)


def test_double_click_sends_a_card_to_its_foundation(page: Any, server: str) -> None:
    # Deal 1 of draw 1: the ace of hearts lies on c6, the foundations are clubs, spades,
    # hearts, diamonds, so it goes to f3.
    open_deal(page, server, "klondike-draw1", 1)
    assert top_card(page, "c6").get_attribute("aria-label") == "ace of hearts"
    top_card(page, "c6").dblclick()
    play = wait_moves(page, 1)
    assert play["last"] == "c6 f3"
    assert shown_cards(page, "f3") == ["ace of hearts"]
    assert server_play(page, server, play["id"])["n"] == 1


def test_click_then_click_moves_a_card(page: Any, server: str) -> None:
    open_deal(page, server, "klondike-draw1", 2)
    top_card(page, "c7").click()
    assert page.locator("#board .card.selected").count() == 1
    # The legal target is highlighted while the card is picked up.
    assert "target" in (pile(page, "c6").get_attribute("class") or "")
    pile(page, "c6").click()
    play = wait_moves(page, 1)
    assert play["last"] == "c7 c6"
    assert page.locator("#board .card.selected").count() == 0


def test_keyboard_only_moves(page: Any, server: str) -> None:
    open_deal(page, server, "klondike-draw1", 1)
    # Tab from the top of the page until the focus reaches column 6.
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.label") == "c6":
            break
    else:
        pytest.fail("Tab never reached column 6")
    # The focus is visible: an outline around the pile's top card.
    outline = page.evaluate(
        "getComputedStyle(document.activeElement.querySelector('.card:last-of-type')).outlineStyle"
    )
    assert outline not in ("", "none")
    page.keyboard.press("f")  # to the foundation
    play = wait_moves(page, 1)
    assert play["last"] == "c6 f3"
    # Pick up c7's card with Enter, walk to foundation 2 with the arrows, drop it with Enter.
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.label") == "c7"
    page.keyboard.press("Enter")
    assert page.locator("#board .card.selected").count() == 1
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.label") == "f2"
    page.keyboard.press("Space")
    play = wait_moves(page, 2)
    assert play["last"] == "c7 f2"
    # Stock by keyboard, then undo (u), redo (Ctrl+Y), undo (Ctrl+Z).
    page.keyboard.press("s")
    play = wait_moves(page, 3)
    assert play["last"] == "s"
    page.keyboard.press("u")
    wait_moves(page, 2)
    page.keyboard.press("Control+y")
    wait_moves(page, 3)
    page.keyboard.press("Control+z")
    wait_moves(page, 2)


def test_finger_drag_on_a_phone(phone: Any, server: str) -> None:
    # A real touch gesture (Chromium's touch events through CDP): the board listens to
    # pointer events, so a finger drags like a mouse.
    open_deal(phone, server, "klondike-draw1", 2)
    settle(phone)  # the cards are dealt first: measured where they land
    src = top_card(phone, "c5").bounding_box()
    dst = top_card(phone, "c2").bounding_box()
    x, y = src["x"] + src["width"] / 2, src["y"] + 8
    tx, ty = center(dst)
    cdp = phone.context.new_cdp_session(phone)
    touch = "Input.dispatchTouchEvent"
    cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, 11):
        point = {"x": x + (tx - x) * k / 10, "y": y + (ty - y) * k / 10}
        cdp.send(touch, {"type": "touchMove", "touchPoints": [point]})
    cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    assert wait_moves(phone, 1)["last"] == "c5 c2"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375


def test_quick_key_presses_all_count(page: Any, server: str) -> None:
    # Five presses of s before the first answer arrives: each is sent after the previous
    # answer (with its move count), so none collides with another.
    open_deal(page, server, "klondike-draw1", 1)
    page.locator("#board").focus()
    for _ in range(5):
        page.keyboard.press("s")
    play = wait_moves(page, 5)
    assert play["legal_moves"] and len(shown_cards(page, "w")) == 2  # the top two are drawn
    assert page.text_content("#error") == ""
    assert server_play(page, server, play["id"])["n"] == 5


def test_tap_then_tap_on_a_phone(phone: Any, server: str) -> None:
    open_deal(phone, server, "klondike-draw1", 2)
    top_card(phone, "c5").tap()
    pile(phone, "c2").tap()
    assert wait_moves(phone, 1)["last"] == "c5 c2"


def test_typed_move_and_a_refused_move(page: Any, server: str, page_errors: Any) -> None:
    page_errors.http_ok = True
    open_deal(page, server, "klondike-draw1", 1)
    type_move(page, "c7 F")  # case does not matter; a bare f finds the foundation
    play = wait_moves(page, 1)
    assert play["last"] == "c7 f2"
    assert page.input_value("#move-input") == ""
    before = {p["label"]: shown_cards(page, p["label"]) for p in play["piles"]}
    engine = patiencekit.new_game("klondike-draw1", 1)
    engine.play("c7 f2")
    with pytest.raises(IllegalMoveError) as refused:
        engine.play("c1 c2")
    type_move(page, "c1 c2")
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    assert page.text_content("#error") == refusal_words(engine, refused.value)
    assert current(page)["n"] == 1
    assert {p["label"]: shown_cards(page, p["label"]) for p in play["piles"]} == before
    assert page.input_value("#move-input") == "c1 c2"  # kept, to fix it
    # The next accepted move clears the message.
    type_move(page, "s")
    wait_moves(page, 2)
    assert page.text_content("#error") == ""


# -- undo, reload, restart, deals ---------------------------------------------------------------


def test_undo_redo_and_restart_buttons(page: Any, server: str) -> None:
    start = open_deal(page, server, "klondike-draw1", 1)
    assert page.is_disabled("#undo")
    type_move(page, "c6 f3")
    wait_moves(page, 1)
    type_move(page, "c7 f2")
    wait_moves(page, 2)
    page.click("#undo")
    play = wait_moves(page, 1)
    assert play["last"] == "c6 f3"
    assert shown_cards(page, "f2") == []
    assert shown_cards(page, "c7")[-1] == "ace of spades"
    assert page.is_enabled("#redo")
    page.click("#redo")
    wait_moves(page, 2)
    assert shown_cards(page, "f2") == ["ace of spades"]
    page.click("#restart")
    play = wait_moves(page, 0)
    assert play["piles"] == start["piles"]
    assert page.text_content("#m-score") == "0"


def test_reload_resumes_the_same_position(page: Any, server: str) -> None:
    open_deal(page, server, "klondike", 24)
    assert page.url == f"{server}/play/klondike?number=24"  # the URL names the deal
    type_move(page, "s")
    wait_moves(page, 1)
    before = current(page)
    drawn = shown_cards(page, "w")
    assert len(drawn) >= 3  # draw 3: the waste is fanned, three cards show
    page.reload()
    page.wait_for_function("() => window.pk?.play")
    after = current(page)
    assert page.url == f"{server}/play/klondike?number=24"
    assert after["id"] == before["id"]
    assert after["n"] == 1
    assert after["piles"] == before["piles"]
    assert shown_cards(page, "w") == drawn
    assert page.text_content("#m-moves") == "1"


def test_share_link_and_deal_number(page: Any, server: str) -> None:
    open_deal(page, server, "klondike", 24)
    assert page.text_content("#deal-no") == "#24"
    link = page.get_attribute("#share-link", "href")
    assert link == f"{server}/play/klondike?number=24"
    page.fill("#number-input", "31")
    page.click("#number-form button[type=submit]")
    page.wait_for_function("() => window.pk?.play?.number === 31")
    assert page.text_content("#deal-no") == "#31"
    assert page.get_attribute("#share-link", "href") == f"{server}/play/klondike?number=31"
    engine = patiencekit.new_game("klondike", 31).view().to_json()
    assert current(page)["piles"] == engine["piles"]
    # Deal numbers go past JavaScript's exact integers (up to 10^20 - 1): sent and shown exactly.
    big = 12345678901234567890
    open_deal(page, server, "klondike", big)
    assert page.text_content("#deal-no") == f"#{big}"
    assert page.get_attribute("#share-link", "href") == f"{server}/play/klondike?number={big}"
    assert current(page)["piles"] == patiencekit.new_game("klondike", big).view().to_json()["piles"]
    # A new random deal gets a new play.
    first = current(page)["id"]
    page.click("#new-deal")
    page.wait_for_function("id => window.pk?.play && window.pk.play.id !== id", arg=first)
    assert page.url == f"{server}/play/klondike?number={current(page)['number_text']}"


def test_klondike_score_and_clock(page: Any, server: str) -> None:
    open_deal(page, server, "klondike-draw1", 1)
    assert page.is_visible("#m-score") and page.text_content("#m-score") == "0"
    engine = patiencekit.new_game("klondike-draw1", 1)
    engine.play("c6 f3")
    assert engine.score == 45  # 25 to the foundation, 20 for the card turned up
    type_move(page, "c6 f3")
    play = wait_moves(page, 1)
    assert play["score"] == engine.score
    assert page.text_content("#m-score") == str(engine.score)
    assert page.text_content("#m-bonus") == "\u2013"  # a dash: paid only on a win
    # The clock runs on between answers.
    page.wait_for_function(
        "() => document.getElementById('m-time').textContent !== '0:00'", timeout=4000
    )
    assert re.fullmatch(r"0:0[1-4]", page.text_content("#m-time"))


# -- a whole game ----------------------------------------------------------------------------------


def golden(game: str) -> dict[str, Any]:
    path = GOLDEN / f"{game}.json"
    assert path.is_file(), f"missing golden record {path}"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert data["game"] == game
    return data


def test_a_golden_game_is_won_through_the_page(page: Any, server: str) -> None:
    record = golden("klondike-draw1")
    open_deal(page, server, record["game"], record["number"])
    ways = {"drag": 0, "string drag": 0, "double-click": 0, "typed": 0}
    to_foundation = to_column = strings = 0
    for i, move in enumerate(record["moves"]):
        parts = move.split()
        single = len(parts) == 2
        strings += len(parts) == 3
        if single and parts[0].startswith("c") and parts[1].startswith("f"):
            to_foundation += 1
        if single and parts[0][0] in "cw" and parts[1].startswith("c"):
            to_column += 1
        # Every 4th column-to-foundation move by double-click, every 3rd single-card move
        # onto a column and every other string by a mouse drag, the rest typed in the box.
        if single and parts[0][0] == "c" and parts[1][0] == "f" and to_foundation % 4 == 1:
            top_card(page, parts[0]).dblclick()
            ways["double-click"] += 1
        elif single and parts[0][0] in "cw" and parts[1].startswith("c") and to_column % 3 == 1:
            mouse_drag(page, parts[0], parts[1])
            ways["drag"] += 1
        elif len(parts) == 3 and strings % 2 == 1:
            mouse_drag(page, parts[0], parts[1], depth=int(parts[2]) - 1)
            ways["string drag"] += 1
        else:
            type_move(page, move)
            ways["typed"] += 1
        play = wait_moves(page, i + 1)
        assert play["last"] == move, f"move {i + 1}: the page played {play['last']}, not {move}"
    assert ways["drag"] >= 3 and ways["double-click"] >= 3 and ways["string drag"] >= 2, ways
    page.wait_for_selector("#win:not([hidden])")
    assert play["won"] is True
    truth = server_play(page, server, play["id"])
    assert truth["won"] is True
    assert truth["score"] == record["result"]["score"] + truth["time_bonus"]
    assert truth["time_bonus"] > 0
    assert page.text_content("#win-score") == str(truth["score"])
    assert page.text_content("#m-score") == str(truth["score"])
    assert page.text_content("#m-bonus") == str(truth["time_bonus"])
    assert page.text_content("#win-moves") == str(len(record["moves"]))
    assert "You won" in page.text_content("#win-title")
    assert page.locator("#win .confetti span").count() > 0
    assert sum(len(shown_cards(page, f"f{i}")) for i in range(1, 5)) >= 4


def test_no_moves_left_is_offered_as_game_over(page: Any, server: str) -> None:
    # PatienceMax deal 4: always playing the first legal move blocks the game in 4 moves
    # (the line comes from the engine, so the test follows the rules, not a guess).
    game = patiencekit.new_game("patiencemax", 4)
    moves: list[str] = []
    while not game.is_over():
        move = str(next(iter(game.legal_moves)))
        game.play(move)
        moves.append(move)
        assert len(moves) < 50
    assert not game.is_won()
    open_deal(page, server, "patiencemax", 4)
    for i, move in enumerate(moves):
        type_move(page, move)
        wait_moves(page, i + 1)
    page.wait_for_selector("#over:not([hidden])")
    assert current(page)["over"] is True and current(page)["won"] is False
    page.click("#over-undo")
    wait_moves(page, len(moves) - 1)
    assert page.is_hidden("#over")


# -- every board, and a phone ----------------------------------------------------------------

EXPECTED_PILES = {
    "klondike": {"stock": 1, "waste": 1, "foundation": 4, "column": 7},
    "klondike-draw1": {"stock": 1, "waste": 1, "foundation": 4, "column": 7},
    "patiencemax": {"foundation": 8, "column": 10, "hand": 4},
    "patiencemax-all-to-piles": {"foundation": 8, "column": 10, "hand": 4},
    "patriarchs": {"stock": 1, "waste": 1, "foundation": 8, "reserve": 9},
    "picture-patience": {"stock": 1, "waste": 1, "foundation": 8, "reserve": 9},
    "odd-and-even": {"stock": 1, "waste": 1, "foundation": 8, "reserve": 9},
    "royal-cotillion": {"stock": 1, "waste": 1, "foundation": 8, "column": 4, "reserve": 16},
    "contradance": {"stock": 1, "waste": 1, "foundation": 16},
    "captured-queens": {"stock": 1, "waste": 1, "foundation": 12},
    "senior-wrangler": {"foundation": 8, "packet": 8, "index": 8},
}


def test_every_game_board_renders(page: Any, server: str) -> None:
    games = page.request.get(f"{server}/api/games").json()
    assert {g["id"] for g in games} == set(EXPECTED_PILES)
    for g in games:
        play = open_deal(page, server, g["id"], 5)
        kinds: dict[str, int] = page.locator("#board .pile").evaluate_all(
            "els => els.reduce((m, e) => (m[e.dataset.kind] = (m[e.dataset.kind] || 0) + 1, m), {})"
        )
        assert kinds == EXPECTED_PILES[g["id"]], g["id"]
        # Every visible card is drawn with its name; face-up cards as SVG faces.
        for p in play["piles"]:
            el = pile(page, p["label"])
            assert el.get_attribute("aria-label"), p["label"]
            cards = p["cards"]
            if not cards:
                continue
            top = cards[-1]
            assert top_card(page, p["label"]).get_attribute("aria-label") == (
                "face-down card" if top is None else said(top)
            ), (g["id"], p["label"])
            if top is not None:
                assert top_card(page, p["label"]).locator("svg").count() == 1
        # Each pile sits inside the board and no two piles' slots overlap.
        boxes = page.locator("#board .pile > .slot").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; })"
        )
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                e = 0.5  # px of rounding
                apart = a[2] <= b[0] + e or b[2] <= a[0] + e or a[3] <= b[1] + e or b[3] <= a[1] + e
                assert apart, (g["id"], a, b)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280


def test_phone_portrait_nothing_overflows_sideways(phone: Any, server: str) -> None:
    for game in ("klondike", "patiencemax", "royal-cotillion", "senior-wrangler"):
        open_deal(phone, server, game, 7)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375, game
        rights = phone.locator("#board .card, #board .slot").evaluate_all(
            "els => els.map(e => [e.getBoundingClientRect().left, e.getBoundingClientRect().right])"
        )
        assert rights, game
        assert all(left >= 0 and right <= 375 for left, right in rights), game
        # Cards still readable: at least 30 px wide.
        width = phone.evaluate(
            "getComputedStyle(document.getElementById('board')).getPropertyValue('--card-w')"
        )
        assert int(width.strip().removesuffix("px")) >= 30, (game, width)


def test_hint_button_and_h_key_show_the_servers_hint(page: Any, server: str) -> None:
    open_deal(page, server, "klondike", 24)
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#hint-text').textContent.length > 0")
    # The hint c3 f1, said in words and drawn on the board (test_hint_autocomplete.py).
    assert page.text_content("#hint-text") == "Hint: Move the A♣ from column 3 to its foundation"
    assert "hint-from" in (top_card(page, "c3").get_attribute("class") or "")
    assert "hint-to" in (pile(page, "f1").get_attribute("class") or "")
    type_move(page, "c3 f1")
    wait_moves(page, 1)
    assert page.text_content("#hint-text") == ""  # a move clears the old hint
    page.evaluate("document.activeElement.blur()")  # keys typed in the move box are moves
    page.keyboard.press("h")
    page.wait_for_function("() => document.querySelector('#hint-text').textContent.length > 0")
    assert page.text_content("#hint-text").startswith("Hint: ")


def test_winnable_deals_only_deals_a_proved_number(page: Any, server: str) -> None:
    from patiencekit.games.winnable_numbers import WINNABLE

    open_deal(page, server, "klondike-draw1", 5)
    page.check("#winnable-only")
    page.click("#new-deal")
    page.wait_for_function("() => window.pk?.play && String(window.pk?.play?.number) !== '5'")
    number = int(current(page)["number"])
    assert number in WINNABLE["klondike-draw1"]
    page.reload()
    assert page.is_checked("#winnable-only")  # the choice is remembered
