"""The Top 100 page in Chromium: cups and medals as seed 003's table shows them (each count that
is not 0 beside the cup or medal of its place, zero counts left out, "no cups" / "no medals"
when all are 0), and the rank explained in words.

The lines are the seed's own (tests/server/data/seed003-top100.tsv), served to the page in
place of the API's answer, with counts by place where the seed leaves its zeros out. The
tournament test (test_tournament_pages.py) checks the same marks on the real server's lines.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from patiencekit.server.competition.scoring import points_for_rank, rank

pytestmark = pytest.mark.browser
#: "rank 100 at 9,605": a rank and its fewest points, as the page writes them
FIGURE = re.compile(r"rank (\d+) at ([\d,]+)", re.IGNORECASE)

#: seed 003's Top 100 Solitaire, rows 1, 52, 9 and 17, with their counts by place
LINES = [
    {
        "position": 1,
        "rank": 350,
        "name": "kestertje",
        "points": 632_350,
        "games": 9_000,
        "cups": [798, 16_301, 1_126, 1_096],
        "medals": [116, 148, 156, 160, 108],
    },
    {
        "position": 52,
        "rank": 84,
        "name": "Anna51",  # "2 1 geen medailles"
        "points": 7_505,
        "games": 60,
        "cups": [2, 0, 1, 0],
        "medals": [0, 0, 0, 0, 0],
    },
    {
        "position": 9,
        "rank": 261,
        "name": "Digi47",  # "geen bekers 366 1"
        "points": 46_375,
        "games": 700,
        "cups": [0, 0, 0, 0],
        "medals": [0, 366, 0, 0, 1],
    },
    {
        "position": 17,
        "rank": 174,
        "name": "robbie966",  # "geen bekers geen medailles"
        "points": 23_304,
        "games": 300,
        "cups": [0, 0, 0, 0],
        "medals": [0, 0, 0, 0, 0],
    },
]


def awards(cell: Any) -> list[tuple[str, str, str, str]]:
    """A cell's marks: (place, the place written on the mark, count, tooltip) for each one."""
    shown: list[list[str]] = cell.locator(".award").evaluate_all(
        """els => els.map(e => [
            e.dataset.place,
            e.querySelector("svg.mark text").textContent,
            e.querySelector(".count").textContent,
            e.title,
        ])"""
    )
    return [(a, b, c, d) for a, b, c, d in shown]


def show_lines(page: Any, server: str) -> None:
    board = {
        "game": "klondike",
        "name": "Solitaire (Klondike, draw 3)",
        "players": LINES,
        "me": None,
    }
    page.route(
        re.compile(r"/api/top100/klondike$"),
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(board)
        ),
    )
    page.goto(f"{server}/top100/klondike")
    page.wait_for_function("() => window.pk?.board")


def test_each_count_is_beside_its_own_mark_and_zero_counts_are_left_out(
    page: Any, server: str
) -> None:
    show_lines(page, server)

    def row(name: str) -> Any:
        return page.locator(f'#top tr[data-name="{name}"]')

    # Every count (none is 0): nine marks, in place order.
    top = row("kestertje")
    assert awards(top.locator(".counts.cups")) == [
        ("1", "1", "798", "798 1st place cups"),
        ("2", "2", "16,301", "16,301 2nd place cups"),
        ("3", "3", "1,126", "1,126 3rd place cups"),
        ("4", "4", "1,096", "1,096 4th place cups"),
    ]
    assert [a[2] for a in awards(top.locator(".counts.medals"))] == [
        "116",
        "148",
        "156",
        "160",
        "108",
    ]
    assert top.locator(".rank").text_content() == "Rank 350"
    assert top.locator(".points").text_content() == "632,350 points"

    # Some counts 0: only the others show, each beside the mark of its own place.
    anna = row("Anna51")
    assert awards(anna.locator(".counts.cups")) == [
        ("1", "1", "2", "2 1st place cups"),
        ("3", "3", "1", "1 3rd place cup"),
    ]
    assert anna.locator(".counts.medals").text_content() == "no medals"
    assert anna.locator(".counts.medals .award").count() == 0
    digi = row("Digi47")
    assert digi.locator(".counts.cups").text_content() == "no cups"
    assert awards(digi.locator(".counts.medals")) == [
        ("2", "2", "366", "366 2nd place medals"),
        ("5", "5", "1", "1 5th place medal"),
    ]
    # Screen readers hear the place in words before each count.
    # (the marks are hidden from them; the words are hidden from sight)
    assert digi.locator(".counts.medals .visually-hidden").all_text_contents() == [
        "2nd place medals: ",
        "5th place medal: ",
    ]
    assert digi.locator(".counts.medals svg.mark").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-hidden'))"
    ) == ["true", "true"]

    # Every count 0: "no cups", "no medals", no mark at all.
    none = row("robbie966")
    assert none.locator(".counts.cups").text_content() == "no cups"
    assert none.locator(".counts.medals").text_content() == "no medals"
    assert none.locator(".award, .mark").count() == 0

    # No count of 0 anywhere, as in the seed's table; the places' colours differ.
    assert "0" not in page.locator("#top .award .count").all_text_contents()
    fills = page.evaluate(
        """() => [1, 2, 3, 4, 5].map(n => {
            const mark = document.querySelector(`#top .award.place-${n} .metal`);
            return mark ? getComputedStyle(mark).fill : null;
        })"""
    )
    assert None not in fills and len(set(fills)) == 5, fills


def test_the_page_says_what_the_rank_is_and_how_it_grows(page: Any, server: str) -> None:
    show_lines(page, server)
    words = " ".join(page.text_content("#rank-words").split())
    for said in (
        "from 1 to 350",
        "rank 2 takes 50 points",
        "rank r costs r + 46 points more than rank r \u2212 1",
        "rank 100 at 9,605",
        "Rank 350, the highest, is reached at 77,480 points",
        "the highest r from 1 to 350 for which (r² + 93·r \u2212 90) / 2 is no more than",
        "with fewer than 50 points it is 1",
        "“no cups” or “no medals” means none at all",
    ):
        assert said in words, said
    # The figures the page gives are the formula's.
    figures = [(int(r), int(p.replace(",", ""))) for r, p in re.findall(FIGURE, words)]
    assert len(figures) >= 4, words
    for r, points in figures:
        assert points_for_rank(r) == points and rank(points) == r and rank(points - 1) == r - 1
