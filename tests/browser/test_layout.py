"""The pages' layout in Chromium, on a phone (390 x 844) and a desktop (1280 x 800): the play
page's compact toolbar (the other actions behind "More"), the "winnable deals only" check
box, the header's sections (tournaments and the Top 100) and its menu on a phone, tables that
fit a phone, the tournament board's cards as large as the casual board's, the cards' faces.

Each test measures what a player sees (boxes on the screen), so that it fails on the flaw
it is about."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from layout_helpers import DESKTOP, PHONE_390, opened

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "src" / "patiencekit" / "server" / "static"
LANGS = ("en", "nl", "es")


def words(lang: str) -> dict[str, Any]:
    texts: dict[str, Any] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return texts


def box(page: Any, selector: str) -> dict[str, float]:
    """The element's box on the screen (left, top, right, bottom, width, height)."""
    b: dict[str, float] = page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect(); return {left: r.left, top: r.top,"
        " right: r.right, bottom: r.bottom, width: r.width, height: r.height}; }",
    )
    return b


def shown(page: Any, selector: str) -> bool:
    visible: bool = page.locator(selector).is_visible()
    return visible


def open_board(page: Any, server: str, game: str = "klondike", number: int = 5) -> None:
    page.goto(f"{server}/play/{game}?number={number}")
    page.wait_for_function("() => window.pk?.play")
    page.wait_for_selector("#site-nav a", state="attached")


# -- the play page's toolbar ------------------------------------------------------------------

SECONDARY = ("#restart", "#winnable-only", "#number-input", "#rules-link")
MAIN = ("#undo", "#redo", "#hint", "#new-deal")


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_toolbar_is_one_row_and_the_board_gets_the_room(
    browser: Any, server: str, lang: str
) -> None:
    with opened(browser, PHONE_390, lang=lang) as (page, _):
        open_board(page, server)
        toolbar = box(page, ".toolbar")
        board = box(page, "#board")
        # One row of buttons (2.1 rem at most, and its padding), where it took four.
        assert toolbar["height"] <= 48, toolbar
        # The header, the title and meters and the toolbar take at most a fifth of the
        # screen above the board (they took 35 %).
        assert board["top"] <= 0.2 * PHONE_390["height"], board
        for sel in MAIN:
            assert shown(page, sel), sel
        for sel in SECONDARY:
            assert not shown(page, sel), sel
        # Nothing of the toolbar leaves the screen.
        rights = page.locator(".toolbar > :is(button, .button):visible").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().right)"
        )
        assert rights and max(rights) <= PHONE_390["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]


#: Klondike deal 1 won (tests/server/data): what the player sees proves the win after 110 moves
WIN = json.loads(
    (Path(__file__).resolve().parents[1] / "server" / "data" / "klondike-win.json").read_text()
)
AUTOCOMPLETE_AT = 110


def toolbar_in_one_row(page: Any) -> None:
    """The toolbar is one row of buttons inside the screen, and the page is no wider."""
    toolbar = box(page, ".toolbar")
    assert toolbar["height"] <= 48, toolbar
    buttons = page.locator(".toolbar > :is(button, .button):visible")
    tops = buttons.evaluate_all("els => els.map(e => Math.round(e.getBoundingClientRect().top))")
    assert len(set(tops)) == 1, tops
    rights = buttons.evaluate_all("els => els.map(e => e.getBoundingClientRect().right)")
    assert max(rights) <= PHONE_390["width"], rights
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_toolbar_keeps_one_row_with_auto_complete(
    browser: Any, server: str, lang: str
) -> None:
    """Auto-complete (and Deal next packet) shown at 390 px: the toolbar still takes one row
    (it took two), its actions as icons named by their words."""
    said = words(lang)
    with opened(browser, PHONE_390, lang=lang) as (page, _):
        open_board(page, server, "klondike", WIN["number"])
        play = page.evaluate("window.pk.play")
        request = page.context.request
        csrf = request.get(f"{server}/api/session").json()["csrf"]
        for move in WIN["moves"][:AUTOCOMPLETE_AT]:
            r = request.post(
                f"{server}/api/plays/{play['id']}/moves",
                data=json.dumps({"move": move, "n": play["n"]}),
                headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"},
            )
            assert r.ok, r.text()
            play = r.json()
        assert play["autocomplete"] is True
        page.goto(f"{server}/p/{play['id']}")
        page.wait_for_function("n => window.pk?.play && window.pk?.play?.n === n",
                               arg=AUTOCOMPLETE_AT)  # fmt: skip
        button = page.get_by_role("button", name=said["play.autocomplete"], exact=True)
        assert button.is_visible() and button.get_attribute("id") == "autocomplete"
        for sel in (*MAIN, "#toolbar-more-toggle"):
            assert shown(page, sel), sel
        toolbar_in_one_row(page)
        # Senior Wrangler shows Auto-complete and Deal next packet from its deal on.
        open_board(page, server, "senior-wrangler", 5)
        for sel in ("#autocomplete", "#deal-next", *MAIN):
            assert shown(page, sel), sel
        toolbar_in_one_row(page)


def test_the_more_menu_works_with_the_keyboard(browser: Any, server: str) -> None:
    with opened(browser, PHONE_390) as (page, _):
        open_board(page, server)
        toggle = page.locator("#toolbar-more-toggle")
        assert toggle.get_attribute("aria-expanded") == "false"
        assert toggle.get_attribute("aria-controls") == "toolbar-more"
        toggle.focus()
        page.keyboard.press("Enter")
        assert toggle.get_attribute("aria-expanded") == "true"
        for sel in SECONDARY:
            assert shown(page, sel), sel
        # The panel comes next in the Tab order, and stays open while the focus is in it.
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.closest('#toolbar-more') !== null")
        assert focused
        # The panel is drawn over the board, inside the screen.
        panel = box(page, "#toolbar-more")
        assert panel["left"] >= 0 and panel["right"] <= PHONE_390["width"], panel
        # Escape closes it and gives the focus back to its button.
        page.keyboard.press("Escape")
        assert toggle.get_attribute("aria-expanded") == "false"
        assert not shown(page, "#number-input")
        assert page.evaluate("document.activeElement.id") == "toolbar-more-toggle"
        # Space opens it again; a deal number played from it deals that deal.
        page.keyboard.press(" ")
        assert shown(page, "#number-input")
        page.fill("#number-input", "77")
        page.press("#number-input", "Enter")
        page.wait_for_function("() => window.pk?.play && String(window.pk?.play?.number) === '77'")
        # A tap elsewhere closes it.
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "true"
        page.locator("#board").click(position={"x": 5, "y": 5})
        assert toggle.get_attribute("aria-expanded") == "false"


def test_on_a_desktop_every_action_is_in_the_toolbar_row(browser: Any, server: str) -> None:
    with opened(browser, DESKTOP) as (page, _):
        open_board(page, server)
        assert not shown(page, "#toolbar-more-toggle")
        for sel in (*MAIN, *SECONDARY):
            assert shown(page, sel), sel
        assert box(page, ".toolbar")["height"] <= 48


def test_the_winnable_check_box_is_a_check_box_beside_its_words(page: Any, server: str) -> None:
    open_board(page, server)
    check = box(page, "#winnable-only")
    # A check box's own size, not the deal number field's 8.5 rem.
    assert check["width"] <= 24 and check["height"] <= 24, check
    text = page.evaluate(
        """() => {
          const label = document.getElementById('winnable-only').closest('label');
          const node = [...label.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
          const range = document.createRange();
          range.selectNodeContents(node);
          const r = range.getBoundingClientRect();
          return {left: r.left, top: r.top, bottom: r.bottom};
        }"""
    )
    # Its words start just after it (they started 75 px away), on its line.
    assert 0 <= text["left"] - check["right"] <= 12, (check, text)
    middle = (check["top"] + check["bottom"]) / 2
    assert text["top"] <= middle <= text["bottom"]
    # The deal number field keeps its width.
    assert box(page, "#number-input")["width"] >= 100


# -- the header ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_header_links_to_the_tournaments_and_the_top_100(
    browser: Any, server: str, lang: str
) -> None:
    w = words(lang)
    with opened(browser, DESKTOP, lang=lang) as (page, _):
        page.goto(f"{server}/")
        page.wait_for_selector("#site-nav a[href='/tournaments']")
        nav = page.locator("#site-nav")
        tournaments = nav.locator("a[href='/tournaments']")
        top100 = nav.locator("a[href='/top100']")
        assert tournaments.inner_text() == w["layout.nav_tournaments"]
        assert top100.inner_text() == w["layout.nav_top100"]
        assert tournaments.is_visible() and top100.is_visible()
        assert nav.locator("a[aria-current='page']").get_attribute("href") == "/"
        tournaments.click()
        page.wait_for_url(f"{server}/tournaments")
        page.wait_for_selector("#site-nav a[aria-current='page']")
        assert page.locator("#site-nav a[aria-current='page']").get_attribute("href") == (
            "/tournaments"
        )
        page.locator("#site-nav a[href='/top100']").click()
        page.wait_for_url(f"{server}/top100")
        page.wait_for_selector("#site-nav a[aria-current='page']")
        assert page.locator("#site-nav a[aria-current='page']").get_attribute("href") == "/top100"
        # One row on a desktop, every link in sight (no menu button).
        assert not shown(page, "[data-testid=nav-toggle]")
        assert box(page, ".site-header")["height"] <= 56


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_header_is_one_row_and_its_links_are_in_a_menu(
    browser: Any, server: str, lang: str
) -> None:
    w = words(lang)
    with opened(browser, PHONE_390, lang=lang) as (page, _):
        page.goto(f"{server}/play/klondike?number=5")
        page.wait_for_selector("#site-nav a[href='/tournaments']", state="attached")
        # Brand, menu, theme and language on one row (the language menu fell to a second).
        assert box(page, ".site-header")["height"] <= 48
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
        toggle = page.locator("[data-testid=nav-toggle]")
        assert toggle.inner_text().strip() == w["layout.menu"]
        assert not shown(page, "#site-nav a[href='/tournaments']")
        toggle.focus()
        page.keyboard.press("Enter")
        assert toggle.get_attribute("aria-expanded") == "true"
        for href in ("/", "/tournaments", "/top100"):
            link = page.locator(f"#site-nav a[href='{href}']")
            assert link.is_visible(), href
            b = link.bounding_box()
            assert b and b["x"] >= 0 and b["x"] + b["width"] <= PHONE_390["width"], href
        page.keyboard.press("Escape")
        assert not shown(page, "#site-nav a[href='/top100']")
        toggle.click()
        page.locator("#site-nav a[href='/top100']").click()
        page.wait_for_url(f"{server}/top100")


# -- tables on a phone -------------------------------------------------------------------------

FITS = """(table) => {
  const wrap = table.parentElement;
  const cells = [...table.querySelectorAll('tbody td, tbody th')].map((c) => {
    const r = c.getBoundingClientRect();
    return {left: r.left, right: r.right, label: c.dataset.label || null, text: c.textContent};
  });
  return {table: table.scrollWidth, wrap: wrap.clientWidth, cells};
}"""


def assert_fits(page: Any, selector: str) -> list[dict[str, Any]]:
    """The table fits the phone's width (no part of it scrolled out of sight, the page not
    scrolling sideways); its body cells."""
    page.wait_for_selector(f"{selector} tbody tr")
    found: dict[str, Any] = page.eval_on_selector(selector, FITS)
    assert found["table"] <= found["wrap"], (selector, found["table"], found["wrap"])
    for cell in found["cells"]:
        assert cell["left"] >= 0 and cell["right"] <= PHONE_390["width"], (selector, cell)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
    cells: list[dict[str, Any]] = found["cells"]
    return cells


def labels(cells: list[dict[str, Any]]) -> set[str]:
    return {c["label"] for c in cells if c["label"]}


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_competition_and_statistics_tables_fit_a_phone(
    browser: Any, server: str, lang: str
) -> None:
    from layout_helpers import casual_games, sign_up, tournament

    w = words(lang)
    with (
        opened(browser, PHONE_390, lang=lang) as (page, _),
        opened(browser, PHONE_390, lang=lang) as (other, _),
    ):
        name = sign_up(page, server)
        sign_up(other, server)
        finished = tournament(page, other, server, finish=True)
        tournament(page, other, server, finish=False)
        casual_games(page, server, ("klondike", "patiencemax"))

        page.goto(f"{server}/tournaments/{finished}")
        page.wait_for_function(
            "() => window.pk?.tournament && window.pk.tournament.status === 'finished'"
        )
        cells = assert_fits(page, "#entrants")
        # Each cell shown under its column's words, in the page's language.
        assert {w["col.place"], w["col.round1"], w["col.score"], w["col.time"]} <= labels(cells)
        # The replay buttons are in sight and work.
        page.locator("#entrants .replay-button").first.click()
        page.wait_for_selector("#replay:not([hidden])")

        page.goto(f"{server}/tournaments")
        cells = assert_fits(page, "#list")
        assert {w["col.game"], w["col.status"], w["col.players"]} <= labels(cells)

        page.goto(f"{server}/stats/{name}")
        cells = assert_fits(page, "#stats")
        assert {w["col.played"], w["col.win_rate"], w["col.fewest_moves"]} <= labels(cells)

        page.goto(f"{server}/players/{name}")
        page.wait_for_selector("#tournaments tbody tr a")
        assert {w["col.place"], w["col.score"]} <= labels(assert_fits(page, "#tournaments"))
        assert {w["col.best_time"]} <= labels(assert_fits(page, "#stats"))

        # Drawn as blocks, the tables are still tables to a screen reader (Chromium's own
        # accessibility tree: a table of rows of cells under their column headers).
        cdp = page.context.new_cdp_session(page)
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
        roles = {n["role"]["value"] for n in nodes if "role" in n}
        assert {"table", "row", "cell", "columnheader", "rowheader"} <= roles, roles

        # The Top 100 scrolls inside a region of its own, named, that the keyboard reaches.
        page.goto(f"{server}/top100")
        page.wait_for_selector("#top tbody tr")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
        region = page.locator(".table-wrap[role=region]")
        assert region.get_attribute("tabindex") == "0"
        assert region.get_attribute("aria-labelledby") == "title"


# -- the tournament board ----------------------------------------------------------------------

CARD_W = (
    "() => parseFloat(getComputedStyle(document.getElementById('board'))"
    ".getPropertyValue('--card-w'))"
)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_tournament_round_has_the_cards_of_the_casual_board(
    browser: Any, server: str, size: str
) -> None:
    from layout_helpers import sign_up, tournament

    viewport = DESKTOP if size == "desktop" else PHONE_390
    with opened(browser, viewport) as (page, _), opened(browser, viewport) as (other, _):
        sign_up(page, server)
        sign_up(other, server)
        tid = tournament(page, other, server, finish=False)
        open_board(page, server, "klondike", 5)
        casual = page.evaluate(CARD_W)
        page.goto(f"{server}/tournaments/{tid}")
        page.click("#play-round")
        page.wait_for_function("() => window.pk?.play && document.querySelector('#board .card')")
        round_cards = page.evaluate(CARD_W)
        if size == "desktop":
            # The same rule, the same window: the same cards (they were 70 px against 91).
            assert round_cards == casual, (round_cards, casual)
        else:
            # On a phone the width decides; the page's margins differ by a few pixels.
            assert abs(round_cards - casual) <= 0.1 * casual, (round_cards, casual)
        # The round's board is in sight, whole, once it is opened.
        board = box(page, "#board")
        assert board["top"] >= 0 and board["bottom"] <= viewport["height"], board


# -- the cards' faces -------------------------------------------------------------------------

FACES = """async (codes) => {
  const { makeCard } = await import('/static/js/cards.js');
  const out = {};
  for (const code of codes) {
    const card = makeCard(code);
    card.style.cssText = 'position: relative; width: 200px; height: 280px';
    document.body.append(card);
    const boxes = (sel) => [...card.querySelectorAll(sel)].map((e) => {
      const r = e.getBoundingClientRect();
      return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
    });
    out[code] = {
      rank: boxes('.index-rank')[0], mark: boxes('.index-suit')[0], pips: boxes('.pip'),
      text: card.querySelector('svg').textContent, name: card.getAttribute('aria-label'),
    };
    card.remove();
  }
  return out;
}"""


def test_the_small_suit_mark_sits_under_the_rank_not_on_the_pips(page: Any, server: str) -> None:
    page.goto(f"{server}/rules/klondike")
    page.wait_for_selector("main")
    codes = [r + s for s in "SHDC" for r in "23456789T"]
    faces = page.evaluate(FACES, codes)
    for code, face in faces.items():
        rank, mark, pips = face["rank"], face["mark"], face["pips"]
        assert len(pips) == (10 if code[0] == "T" else int(code[0])), code
        # Under the corner's rank, in its column...
        assert mark["top"] >= rank["bottom"] - 0.5, (code, rank, mark)
        assert mark["left"] < rank["right"] and mark["right"] > rank["left"], code
        # ...and above the first row of pips (it sat on it: the 2 of spades looked like a
        # pair of spades over a third).
        first_row = min(p["top"] for p in pips)
        assert mark["bottom"] <= first_row, (code, mark, first_row)


def test_a_face_is_a_picture_named_by_its_card(page: Any, server: str) -> None:
    """The rank is drawn, not written: a face holds no text that could disagree with the
    card's name (axe's label-content-name-mismatch: it showed "5", its name was "five of
    clubs"), and the card is named in the page's words."""
    page.goto(f"{server}/rules/klondike")
    page.wait_for_selector("main")
    faces = page.evaluate(FACES, ["5C", "TH", "JS", "QD", "KC", "AS"])
    assert {code: face["text"] for code, face in faces.items()} == dict.fromkeys(faces, "")
    assert faces["5C"]["name"] == "five of clubs"
    assert faces["TH"]["name"] == "ten of hearts"
    # The index is still drawn: the rank's outline is as wide as a letter or two.
    for code, face in faces.items():
        width = face["rank"]["right"] - face["rank"]["left"]
        assert 10 <= width <= 70, (code, width)


@pytest.mark.parametrize("width", [800, 1024, 1200])
def test_between_phone_and_desktop_the_header_and_toolbar_keep_one_row(
    browser: Any, server: str, width: int
) -> None:
    """Signed in, in Dutch (the longest words): at these widths the header and the toolbar
    each wrapped onto two or three rows; their menus keep them to one."""
    from layout_helpers import sign_up

    with opened(browser, {"width": width, "height": 800}, lang="nl") as (page, _):
        sign_up(page, server, prefix="a-rather-long-name-")
        open_board(page, server)
        page.wait_for_selector("[data-testid=who]", state="attached")
        assert box(page, ".site-header")["height"] <= 56
        assert box(page, ".toolbar")["height"] <= 48
        assert page.evaluate("document.documentElement.scrollWidth") <= width
