"""The board's settings, sound and motion, in Chromium against the real server.

Settings (js/settings.js, remembered in localStorage, on <html> before the first paint): the card
back and the felt change the computed styles of a face-down card and of the board; the
left-handed layout mirrors the stock, waste and foundations of every layout family; the
animation speed sets how long motion takes, and off means no animation at all; sound (off by
default) makes an AudioContext only after a gesture and plays on moves (``window.pkSound``
counts what was played). The dialog works with the keyboard, in English and Dutch.

Motion: quick u, r, s presses end with every card exactly at its place; a card on its way to
a place it keeps goes on instead of starting again; the flip, the deal and the win cascade run
(``document.getAnimations()`` while they do), and none of them under reduced motion.

The Web Animations timeline is slowed down through the DevTools protocol where a test must see
motion while it runs (``Animation.setPlaybackRate``): the checks wait for states, never for a
time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from play_helpers import current, open_deal, wait_moves

from patiencekit.server.pages import page_html

pytestmark = pytest.mark.browser

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"

#: running motion: an animation that takes time (reduced motion's CSS animations last 0.001 ms)
MOVING = (
    "() => document.getAnimations().filter(a => a.playState !== 'finished'"
    " && a.effect.getComputedTiming().activeDuration > 1)"
)

#: every card whose rect on the screen is not its place in its pile (its transform aside)
MISPLACED = """() => [...document.querySelectorAll('#board .card')].flatMap(c => {
  const r = c.getBoundingClientRect();
  const p = c.closest('.pile').getBoundingClientRect();
  const x = p.left + c.offsetLeft, y = p.top + c.offsetTop;
  const off = Math.abs(r.left - x) > 0.5 || Math.abs(r.top - y) > 0.5
    || Math.abs(r.width - c.offsetWidth) > 0.5 || Math.abs(r.height - c.offsetHeight) > 0.5;
  return off ? [[c.closest('.pile').dataset.label, c.dataset.i, r.left - x, r.top - y]] : [];
})"""


# -- helpers ---------------------------------------------------------------------------------


def timeline(page: Any, rate: float) -> None:
    """Runs every animation of the page at ``rate`` times its speed (1: as it is)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": rate})


def moving(page: Any) -> int:
    count: int = page.evaluate(f"({MOVING})().length")
    return count


def settle(page: Any) -> None:
    """Waits for every finite animation to end."""
    page.evaluate(
        "() => Promise.all(document.getAnimations()"
        ".filter(a => a.effect.getTiming().iterations !== Infinity).map(a => a.finished))"
    )


def focus_board(page: Any) -> None:
    page.locator("#board .pile").first.focus()


def open_settings(page: Any) -> Any:
    page.click("#settings")
    dialog = page.locator("dialog.settings-dialog")
    dialog.wait_for()
    return dialog


def choose(page: Any, name: str, value: str | None = None) -> None:
    """Picks a setting in the open dialog (a radio's value, or a checkbox)."""
    testid = f"settings-{name}-{value}" if value else f"settings-{name}"
    page.click(f"[data-testid={testid}]")


def close_settings(page: Any) -> None:
    page.click("[data-testid=settings-done]")
    page.locator("dialog.settings-dialog").wait_for(state="hidden")


def store(page: Any, **values: str) -> None:
    """Settings stored before the page loads (as a previous visit would have left them)."""
    script = "".join(f"localStorage.setItem('pk-{k}', {json.dumps(v)});" for k, v in values.items())
    page.add_init_script(script)


def back_image(page: Any) -> str:
    image: str = page.locator("#board .card.back").first.evaluate(
        "e => getComputedStyle(e).backgroundImage"
    )
    return image


def felt(page: Any) -> str:
    image: str = page.evaluate("getComputedStyle(document.getElementById('board')).backgroundImage")
    return image


def near_win(page: Any, server: str) -> dict[str, Any]:
    """Klondike draw 1's golden game played up to its last move (sent as the page would);
    the page shows it; the last move, still to play."""
    record = json.loads((GOLDEN / "klondike-draw1.json").read_text())
    open_deal(page, server, record["game"], record["number"])
    play = current(page)
    csrf = page.request.get(f"{server}/api/session").json()["csrf"]
    n = play["n"]
    for move in record["moves"][:-1]:
        r = page.request.post(
            f"{server}/api/plays/{play['id']}/moves",
            data=json.dumps({"move": move, "n": n}),
            headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
        )
        assert r.ok, r.text()
        n = r.json()["n"]
    page.reload()
    page.wait_for_function("n => window.pk?.play && window.pk?.play?.n === n", arg=n)
    return {"move": record["moves"][-1], "n": n + 1}


def type_move(page: Any, text: str) -> None:
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")


# -- the settings ----------------------------------------------------------------------------


def test_card_back_and_felt_change_the_board(page: Any, server: str) -> None:
    open_deal(page, server, "klondike-draw1", 2)
    assert page.evaluate("document.documentElement.dataset.back") == "blue"
    default_back, default_felt = back_image(page), felt(page)
    assert "repeating-linear-gradient(45deg" in default_back
    assert "rgb(47, 138, 87)" in default_felt  # the green felt
    open_settings(page)
    seen = {default_back}
    for back, mark in [
        ("red", "radial-gradient"),
        ("green", "repeating-conic-gradient"),
        ("charcoal", "rgb(59, 64, 73)"),
    ]:
        choose(page, "back", back)
        assert page.evaluate("document.documentElement.dataset.back") == back
        image = back_image(page)
        assert mark in image and image not in seen, (back, image)
        seen.add(image)
    for colour, rgb in [
        ("blue", "rgb(46, 111, 156)"),
        ("red", "rgb(147, 48, 61)"),
        ("grey", "rgb(95, 107, 112)"),
    ]:
        choose(page, "felt", colour)
        assert rgb in felt(page), (colour, felt(page))
    close_settings(page)
    # The dark theme has its own shade of each felt.
    page.click("[data-theme-toggle]")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    assert "rgb(44, 50, 53)" in felt(page)


def test_settings_are_on_the_page_before_it_paints_and_survive_a_reload(
    page: Any, server: str
) -> None:
    # What <html> carries when the body starts: set by the classic script in the head, before
    # any module runs (so the board never flashes from the defaults).
    page.add_init_script(
        """new MutationObserver((_, obs) => {
             if (document.body) {
               window.firstPaint = { ...document.documentElement.dataset };
               obs.disconnect();
             }
           }).observe(document, { childList: true, subtree: true });"""
    )
    open_deal(page, server, "klondike-draw1", 2)
    assert page.evaluate("window.firstPaint") == {
        "theme": "light",
        "back": "blue",
        "felt": "green",
        "hand": "right",
        "motion": "normal",
    }
    open_settings(page)
    choose(page, "back", "green")
    choose(page, "felt", "grey")
    choose(page, "hand")
    choose(page, "speed", "fast")
    choose(page, "sound")
    close_settings(page)
    page.reload()
    page.wait_for_function("() => window.pk?.play")
    assert page.evaluate("window.firstPaint") == {
        "theme": "light",
        "back": "green",
        "felt": "grey",
        "hand": "left",
        "motion": "fast",
    }
    # Sound is remembered, but waits for a gesture of the player's.
    assert page.evaluate("window.pkSound.state") is None
    dialog = open_settings(page)
    checked = dialog.locator("input:checked").evaluate_all("els => els.map(e => e.dataset.testid)")
    assert checked == [
        "settings-back-green",
        "settings-felt-grey",
        "settings-hand",
        "settings-speed-fast",
        "settings-sound",
    ]
    assert page.evaluate("window.pkSound.state") is not None


GAMES_BY_FAMILY = {
    "seven-columns": "klondike",
    "columns-and-hand": "patiencemax",
    "reserve-between": "patriarchs",
    "left-piles": "royal-cotillion",
    "two-rows": "contradance",
    "three-rows": "captured-queens",
    "index-cards": "senior-wrangler",
}

PLACES = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  return [...document.querySelectorAll('#board .pile')].map(e => {
    const r = e.getBoundingClientRect();
    return { label: e.dataset.label, kind: e.dataset.kind, x: r.left + r.width / 2 - board.left,
             y: Math.round(r.top - board.top), w: r.width, width: board.width };
  });
}"""


def by_row(places: list[dict[str, Any]], kind: str, mirror: bool) -> dict[int, list[float]]:
    rows: dict[int, list[float]] = {}
    for p in places:
        if p["kind"] == kind:
            rows.setdefault(p["y"], []).append(p["width"] - p["x"] if mirror else p["x"])
    return {y: sorted(xs) for y, xs in rows.items()}


def close(a: dict[int, list[float]], b: dict[int, list[float]]) -> bool:
    return a.keys() == b.keys() and all(
        len(a[y]) == len(b[y]) and all(abs(p - q) < 1.5 for p, q in zip(a[y], b[y], strict=True))
        for y in a
    )


def test_left_handed_mirrors_every_layout_family(page: Any, server: str) -> None:
    games = page.request.get(f"{server}/api/games").json()
    assert {g["layout"] for g in games} == set(GAMES_BY_FAMILY)
    swapped = []
    page.goto(f"{server}/")
    for family, game in GAMES_BY_FAMILY.items():
        page.evaluate("localStorage.removeItem('pk-hand')")
        open_deal(page, server, game, 1)
        right = page.evaluate(PLACES)
        page.evaluate("localStorage.setItem('pk-hand', 'left')")
        open_deal(page, server, game, 1)
        assert page.evaluate("document.documentElement.dataset.hand") == "left"
        left = page.evaluate(PLACES)
        for kind in (
            "stock",
            "waste",
            "foundation",
            "reserve",
            "hand",
            "column",
            "packet",
            "index",
        ):
            # Each row of piles of a kind is where the mirror puts it.
            assert close(by_row(right, kind, mirror=True), by_row(left, kind, mirror=False)), (
                family,
                kind,
            )
        # The piles that changed sides (none where the board is symmetric).
        xs_right = {p["label"]: p["x"] for p in right}
        if any(
            abs(xs_right[p["label"]] - p["x"]) > 1.5
            for p in left
            if p["kind"] in ("stock", "foundation")
        ):
            swapped.append(family)
        # Piles of a kind side by side still read from left to right: column 1 the leftmost.
        for kind in ("column", "foundation", "reserve"):
            rows = sorted((p for p in left if p["kind"] == kind), key=lambda p: (p["y"], p["x"]))
            numbers = [int(p["label"].lstrip("cfr")) for p in rows]
            runs = [
                numbers[k] < numbers[k + 1]
                for k in range(len(rows) - 1)
                if rows[k]["y"] == rows[k + 1]["y"]
                and rows[k + 1]["x"] - rows[k]["x"] < rows[k]["w"] + 20  # side by side
            ]
            assert all(runs), (family, kind, numbers)
        if family == "seven-columns":
            xs = {p["label"]: p["x"] for p in left}
            assert xs["s"] > xs["w"] > xs["f4"] > xs["f1"], xs  # stock on the right
            assert [xs[f"c{i}"] for i in range(1, 8)] == sorted(xs[f"c{i}"] for i in range(1, 8))
    # Where the board is not symmetric, the stock and the foundations did swap sides.
    assert set(swapped) == {
        "seven-columns",
        "reserve-between",
        "left-piles",
        "two-rows",
        "three-rows",
    }


STOCK_X = "document.querySelector('#board .pile[data-label=\"s\"]').getBoundingClientRect().x"


def test_left_handed_from_the_dialog_redraws_the_board_at_once(page: Any, server: str) -> None:
    open_deal(page, server, "klondike", 3)
    stock_x = page.locator('#board .pile[data-label="s"]').bounding_box()["x"]
    open_settings(page)
    choose(page, "hand")
    page.wait_for_function(
        f"x => {STOCK_X} > x + 300",
        arg=stock_x,
    )
    assert page.locator("#board .pile").count() == 13
    choose(page, "hand")
    page.wait_for_function(
        f"x => Math.abs({STOCK_X} - x) < 1",
        arg=stock_x,
    )


@pytest.mark.parametrize("speed", ["off", "normal", "fast"])
def test_animation_speed(page: Any, server: str, speed: str) -> None:
    store(page, speed=speed)
    # The most animations seen running on any frame.
    page.add_init_script(
        f"""window.most = 0;
           const look = () => {{
             window.most = Math.max(window.most, ({MOVING})().length);
             requestAnimationFrame(look);
           }};
           requestAnimationFrame(look);"""
    )
    open_deal(page, server, "klondike-draw1", 2)
    assert page.evaluate("document.documentElement.dataset.motion") == speed
    page.click("#new-deal")  # a new deal is dealt
    page.wait_for_function("() => window.pk?.play?.number !== 2 && window.pk?.play?.n === 0")
    page.goto(f"{server}/play/klondike-draw1?number=2")
    page.wait_for_function("() => window.pk?.play")
    settle(page)
    timeline(page, 0.2)
    type_move(page, "c5 c2")  # a slide, and the card under it turns over
    wait_moves(page, 1)
    durations = page.evaluate(
        "() => document.getAnimations().filter(a => a.effect.target.dataset.card === 'QH')"
        ".map(a => a.effect.getTiming().duration)"
    )
    focus_board(page)
    page.keyboard.press("s")
    wait_moves(page, 2)
    page.keyboard.press("u")
    wait_moves(page, 1)
    timeline(page, 1)
    settle(page)
    if speed == "off":
        assert page.evaluate("window.most") == 0 and durations == []
    else:
        assert page.evaluate("window.most") > 0
        assert durations == [170 if speed == "normal" else pytest.approx(170 * 0.55)]
    assert page.evaluate(MISPLACED) == []


def test_sound_is_off_until_turned_on_then_moves_play(page: Any, server: str) -> None:
    open_deal(page, server, "klondike-draw1", 2)
    focus_board(page)
    page.keyboard.press("s")
    wait_moves(page, 1)
    # Off by default: no AudioContext at all, nothing played.
    assert page.evaluate("window.pkSound.state") is None
    assert sum(page.evaluate("window.pkSound.played").values()) == 0
    open_settings(page)
    choose(page, "sound")  # a click: the AudioContext may start
    page.wait_for_function("() => window.pkSound.state === 'running'")
    close_settings(page)
    before = page.evaluate("({ ...window.pkSound.played })")
    focus_board(page)
    page.keyboard.press("u")  # the card goes back onto the stock: a turn
    wait_moves(page, 0)
    type_move(page, "c5 c2")  # a card put down, and the one it uncovered turned
    wait_moves(page, 1)
    played = page.evaluate("({ ...window.pkSound.played })")
    assert played["flip"] == before["flip"] + 2 and played["place"] == before["place"] + 1
    # Off again: nothing more.
    open_settings(page)
    choose(page, "sound")
    close_settings(page)
    focus_board(page)
    page.keyboard.press("s")
    wait_moves(page, 2)
    assert page.evaluate("({ ...window.pkSound.played })") == played


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("Settings", "Board settings", "Card back", "Left-handed")),
        ("nl", ("Instellingen", "Instellingen van het speelveld", "Achterkant", "Linkshandig")),
    ],
)
def test_the_dialog_works_with_the_keyboard(
    page: Any, server: str, lang: str, words: tuple[str, str, str, str]
) -> None:
    page.goto(f"{server}/play/klondike-draw1?number=2&lang={lang}")
    page.wait_for_function("() => window.pk?.play")
    button, title, legend, left = words
    assert page.locator("#settings").inner_text().strip() == button
    page.locator("#settings").focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog.settings-dialog")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == title
    assert dialog.locator("legend").first.inner_text() == legend
    assert left in dialog.inner_text()
    assert page.evaluate("document.activeElement.dataset.testid") == "settings-back-blue"
    page.keyboard.press("ArrowRight")  # the next back
    assert page.evaluate("document.documentElement.dataset.back") == "red"
    page.keyboard.press("Tab")  # to the felts
    assert page.evaluate("document.activeElement.dataset.testid") == "settings-felt-green"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.documentElement.dataset.felt") == "blue"
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # left-handed
    assert page.evaluate("document.documentElement.dataset.hand") == "left"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "settings-speed-normal"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.documentElement.dataset.motion") == "off"
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # sound on
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "settings-done"
    # The board's keys wait while the dialog is open.
    page.keyboard.press("s")
    page.keyboard.press("u")
    page.keyboard.press("Tab")  # the focus stays in the dialog, back to its first choice
    assert page.evaluate("document.activeElement.dataset.testid") == "settings-back-red"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "settings-done"
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.id") == "settings"
    assert current(page)["n"] == 0
    stored = page.evaluate(
        "() => ['back', 'felt', 'hand', 'speed', 'sound'].map(k => localStorage.getItem('pk-' + k))"
    )
    assert stored == ["red", "blue", "left", "off", "on"]
    # Enter on the button opens it again, with the choices made.
    page.keyboard.press("Enter")
    dialog.wait_for()
    assert dialog.locator("[data-testid=settings-back-red]").is_checked()
    page.keyboard.press("Escape")


@pytest.mark.parametrize("name", ["play.html", "tournament.html", "daily-deal.html"])
def test_every_board_page_has_the_settings(name: str) -> None:
    html = page_html(name)
    assert html is not None
    assert html.count(' id="settings"') == 1 and "css/settings.css" in html
    # Its looks are applied by a classic script in the head, before the page's module.
    assert html.index('src="/static/js/settings-init.js"') < html.index('type="module"')
    assert html.index('src="/static/js/settings-init.js"') < html.index("<body")


# -- motion ----------------------------------------------------------------------------------


def test_quick_undo_redo_stock_keys_leave_every_card_at_its_place(page: Any, server: str) -> None:
    open_deal(page, server, "klondike-draw1", 2)
    type_move(page, "c5 c2")
    wait_moves(page, 1)
    settle(page)
    # Slowed down, so that every answer comes while the cards of the one before still move.
    timeline(page, 0.1)
    focus_board(page)
    for key in "urs":
        page.keyboard.press(key)
    page.wait_for_function("() => window.pk?.play?.n === 2 && window.pk?.play?.last === 's'")
    assert page.text_content("#error") == ""
    timeline(page, 1)
    settle(page)
    assert moving(page) == 0
    assert page.evaluate(MISPLACED) == []
    # The cards drawn are the play's: the queen back on column 2, the stock's card on the waste.
    assert (
        page.locator('#board .pile[data-label="c2"] > .card').last.get_attribute("data-card")
        == "QH"
    )
    assert page.locator('#board .pile[data-label="w"] > .card').count() == 1


def test_a_card_on_its_way_goes_on_when_the_next_answer_leaves_it_be(
    page: Any, server: str
) -> None:
    open_deal(page, server, "klondike-draw1", 2)
    type_move(page, "c5 c2")
    wait_moves(page, 1)
    settle(page)
    timeline(page, 0.05)
    focus_board(page)
    page.keyboard.press("u")  # the queen slides back to column 5 ...
    wait_moves(page, 0)
    queen = "() => document.getAnimations().filter(a => a.effect.target.dataset.card === 'QH')"
    page.wait_for_function(f"() => ({queen})().some(a => a.currentTime > 0)")
    t_before = page.evaluate(f"() => ({queen})()[0].currentTime")
    page.keyboard.press("s")  # ... and is still on its way when the stock turns
    wait_moves(page, 1)
    # Drawn anew, it goes on from where its slide had got to, instead of starting again.
    slides = page.evaluate(f"() => ({queen})().map(a => a.currentTime)")
    assert len(slides) == 1 and slides[0] >= t_before, (t_before, slides)
    timeline(page, 1)
    settle(page)
    assert page.evaluate(MISPLACED) == []


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_flip_deal_and_cascade_run_unless_motion_is_reduced(
    page: Any, server: str, motion: str
) -> None:
    page.emulate_media(reduced_motion=motion)
    runs = motion == "no-preference"
    open_deal(page, server, "klondike-draw1", 2)
    timeline(page, 0.1)
    # The deal: every card but the stock's flies from the stock.
    page.click("#new-deal")
    page.wait_for_function("() => window.pk?.play?.number !== 2 && window.pk?.play?.n === 0")
    dealt = page.evaluate(
        "() => new Set(document.getAnimations()"
        ".filter(a => a.effect.getTiming().fill === 'backwards')"
        ".map(a => a.effect.target.closest('.card'))).size"
    )
    assert dealt == (28 if runs else 0)
    assert (moving(page) > 0) == runs
    timeline(page, 1)
    settle(page)

    # A card turning face up: the one the move uncovers in column 5.
    page.goto(f"{server}/play/klondike-draw1?number=2")
    page.wait_for_function("() => window.pk?.play")
    settle(page)
    timeline(page, 0.1)
    type_move(page, "c5 c2")
    wait_moves(page, 1)
    turning = page.evaluate(
        "() => document.getAnimations().filter(a => a.effect.target.matches("
        "'.pile[data-label=\"c5\"] > .card:last-of-type')"
        " && a.effect.target.querySelector('.turn-back'))"
        ".map(a => a.effect.getKeyframes().map(k => k.transform))"
    )
    assert turning == ([["none", "scaleX(0)", "none"]] if runs else [])
    timeline(page, 1)
    settle(page)

    # The win cascade, then the win; a key stops it (and does nothing else).
    last = near_win(page, server)
    page.evaluate(
        """() => { window.cascaded = false;
             new MutationObserver(() => {
               if (document.querySelector('.win-cascade')) window.cascaded = true;
             }).observe(document.body, { childList: true }); }"""
    )
    type_move(page, last["move"])
    if runs:
        page.wait_for_selector(".win-cascade")
        assert page.evaluate(
            "() => document.getAnimations()"
            ".some(a => a.effect.target.classList.contains('win-cascade'))"
        )
        assert page.locator("#win").is_hidden()
        focus_board(page)
        page.keyboard.press("u")
        page.wait_for_selector(".win-cascade", state="detached")
    page.wait_for_selector("#win:not([hidden])")
    assert page.evaluate("window.cascaded") == runs
    play = current(page)
    assert play["won"] is True and play["n"] == last["n"]  # the key undid nothing
    assert page.locator(".win-cascade").count() == 0
