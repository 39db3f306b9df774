"""The statistics page in Chromium: a player with a known set of ended games sees the charts
drawn as SVG (a point or bar per game), the history of their games newest first, and a replay
that opens and steps; in English and in Dutch. Another reader sees the same charts and
history, without the replays of the player's own games."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from test_browser_i18n import TEXTS, english_left

pytestmark = pytest.mark.browser

WIN = json.loads(
    (Path(__file__).resolve().parents[1] / "server" / "data" / "klondike-win.json").read_text()
)
#: the player's Klondike games, oldest first: left for a new deal, won, won, left, won; then
#: one in progress (not counted)
GAMES = ["abandoned", "won", "won", "abandoned", "won"]


class Client:
    """A browser context's API requests (its cookies, the CSRF header)."""

    def __init__(self, ctx: Any, server: str) -> None:
        self.request = ctx.request
        self.server = server
        self.csrf = self.request.get(f"{server}/api/session").json()["csrf"]

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = self.request.post(
            self.server + path,
            data=json.dumps(body),
            headers={"X-CSRF-Token": self.csrf, "Content-Type": "application/json"},
        )
        assert r.ok, r.text()
        answer: dict[str, Any] = r.json()
        return answer

    def play(self, number: int, moves: list[str]) -> dict[str, Any]:
        play = self.post("/api/games/klondike/play", {"number": number})
        for move in moves:
            play = self.post(f"/api/plays/{play['id']}/moves", {"move": move, "n": play["n"]})
        return play


@pytest.fixture(scope="module")
def player(browser: Any, server: str) -> Any:
    """A new account with the Klondike games of ``GAMES`` and one in progress: its name and
    its cookies (``storage_state``)."""
    ctx = browser.new_context()
    try:
        api = Client(ctx, server)
        name = f"s{uuid.uuid4().hex[:10]}"
        api.post("/api/auth/signup", {"name": name, "password": "correct horse battery"})
        for how in GAMES:
            play = api.play(WIN["number"], WIN["moves"]) if how == "won" else api.play(24, ["s"])
            assert play["won"] is (how == "won")
        api.play(24, ["s"])  # in progress
        yield {"name": name, "state": ctx.storage_state()}
    finally:
        ctx.close()


@pytest.fixture
def own(browser: Any, player: Any, page_errors: Any) -> Any:
    """The player's own browser (a desktop, English unless the address says otherwise)."""
    desktop = {"width": 1280, "height": 900}
    ctx = browser.new_context(storage_state=player["state"], viewport=desktop)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    page.on("console", lambda m: page_errors.items.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page_errors.items.append(f"uncaught: {e}"))
    yield page
    ctx.close()
    assert page_errors.unexpected() == []


def open_stats(page: Any, server: str, name: str, query: str = "") -> None:
    page.goto(f"{server}/stats/{name}{query}")
    page.wait_for_function(
        "() => window.pk?.history && window.pk.charts"
        " && document.querySelectorAll('#charts figure').length === 4"
    )


def chart_facts(page: Any) -> dict[str, Any]:
    """Per chart: its points, hollow points, bars, marked bars, table rows, and the words its
    SVG is named by (title and description)."""
    facts: dict[str, Any] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#charts figure')].map((f) => {
          const svg = f.querySelector('svg');
          const named = svg ? svg.getAttribute('aria-labelledby').split(' ')
            .map((id) => document.getElementById(id).textContent) : [];
          return [f.dataset.chart, {
            points: f.querySelectorAll('svg .point').length,
            hollow: f.querySelectorAll('svg .point.hollow').length,
            bars: f.querySelectorAll('svg .bar').length,
            marked: f.querySelectorAll('svg .bar.mark').length,
            rows: f.querySelectorAll('table tbody tr').length,
            table: [...f.querySelectorAll('table tbody tr')].map((tr) =>
              [...tr.children].map((c) => c.textContent)),
            legend: [...f.querySelectorAll('.chart-legend li')].map((li) => li.textContent),
            legend_hollow: [...f.querySelectorAll('.chart-legend li')]
              .map((li) => li.dataset.hollow),
            role: svg ? svg.getAttribute('role') : null,
            named,
            caption: f.querySelector('figcaption').textContent,
          }];
        }))"""
    )
    return facts


def history_rows(page: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = page.evaluate(
        """() => [...document.querySelectorAll('#history tbody tr[data-result]')].map((tr) => ({
          result: tr.dataset.result, id: tr.dataset.id || null,
          cells: [...tr.children].map((c) => c.textContent.trim()),
          replay: !!tr.querySelector('button.replay-button'),
        }))"""
    )
    return rows


def step_to(page: Any, k: int) -> None:
    page.wait_for_function("(k) => window.pk?.replay && window.pk?.replay?.step === k", arg=k)


def test_the_charts_history_and_a_replay_in_english(own: Any, server: str, player: Any) -> None:
    name = player["name"]
    open_stats(own, server, name)
    assert own.text_content("#title") == f"Statistics of {name}"
    row = own.locator('#stats tbody tr[data-game="klondike"] td').all_text_contents()
    assert row[:2] == ["5", "3"]  # played (the game in progress is not), won
    charts = chart_facts(own)
    assert list(charts) == ["rate", "score", "time", "streak"]
    assert (charts["rate"]["points"], charts["rate"]["hollow"], charts["rate"]["rows"]) == (5, 2, 5)
    # Every ended game's score (a loss has one: 0 here), the games not won hollow, a legend
    # and the table saying which is which; the times are the wins' only, as the title says.
    score = charts["score"]
    assert (score["points"], score["hollow"], score["rows"]) == (5, 2, 5)
    assert score["caption"] == "Score of each ended game"
    assert score["legend"] == ["won", "not won (lost, given up or left)"]
    assert score["legend_hollow"] == ["false", "true"]
    assert score["named"][1].startswith("5 ended games, 3 of them won, oldest first")
    results = [r[2] for r in score["table"]]
    assert results == ["abandoned", "won", "won", "abandoned", "won"]
    points = [int(r[3].replace(",", "")) for r in score["table"]]
    assert [p > 0 for p in points] == [False, True, True, False, True]
    assert (charts["time"]["points"], charts["time"]["rows"]) == (3, 3)
    assert charts["time"]["caption"] == "Time of each won game"
    assert charts["time"]["legend"] == []
    # wins in a row: 0 1 2 0 1, the best (2) marked
    assert (charts["streak"]["bars"], charts["streak"]["marked"]) == (5, 1)
    assert charts["rate"]["caption"] == "Win rate over the last 10 games"
    for facts in charts.values():
        assert facts["role"] == "img" and len(facts["named"]) == 2 and all(facts["named"])
    title, desc = charts["rate"]["named"]
    assert title == "Win rate over the last 10 games"
    assert desc.startswith("5 ended games, oldest first.") and "from 0% to 60%" in desc
    assert "Current streak: 1, best: 2." in charts["streak"]["named"][1]
    hollow = own.locator('#charts figure[data-chart="rate"] svg .point.hollow')
    assert hollow.first.get_attribute("data-n") == "1"
    # The colours are the theme's: the dark theme draws them in its own.
    fill = "() => getComputedStyle(document.querySelector('#charts .point:not(.hollow)')).fill"
    accent = "() => getComputedStyle(document.documentElement).getPropertyValue('--accent')"
    light = own.evaluate(fill)
    own.click("[data-theme-toggle]")
    own.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    assert own.evaluate(fill) != light
    assert own.evaluate(accent).strip() == "#3fa36a"
    # The history: newest first, each with its replay (the player's own).
    rows = history_rows(own)
    assert [r["result"] for r in rows] == list(reversed(GAMES))
    assert [r["cells"][2] for r in rows] == ["won", "abandoned", "won", "won", "abandoned"]
    assert all(r["replay"] and r["id"] for r in rows)
    assert [r["cells"][5] for r in rows] == ["124", "1", "124", "124", "1"]
    assert own.text_content("#history-range") == "1\u20135 of 5 games"
    assert own.is_disabled("#history-newer") and own.is_disabled("#history-older")
    # A replay opens at the deal and steps.
    own.locator("#history tbody tr").first.get_by_role("button").click()
    own.wait_for_selector("#replay", state="visible")
    step_to(own, 0)
    assert own.text_content("#r-step") == "0 / 124"
    assert own.text_content("#r-move") == "the deal"
    assert own.text_content("#replay-title").startswith("Replay: ")
    assert ", deal 1 (won)" in own.text_content("#replay-title")
    assert own.locator("#replay-board .card").count() > 0
    own.get_by_role("button", name="Next move").click()
    step_to(own, 1)
    first = own.evaluate("window.pk.replay.record.moves[0]")
    assert own.text_content("#r-step") == "1 / 124"
    assert own.text_content("#r-move") == f"move 1: {first}"
    own.get_by_role("button", name="Last position").click()
    step_to(own, 124)
    assert own.evaluate("window.pk.replay.view.won") is True
    assert own.is_disabled("[data-replay=next]") and not own.is_disabled("[data-replay=prev]")


def test_the_page_in_dutch(own: Any, server: str, player: Any) -> None:
    name = player["name"]
    open_stats(own, server, name, "?lang=nl")
    assert own.evaluate("document.documentElement.lang") == "nl"
    assert own.text_content("#title") == f"Statistieken van {name}"
    charts = chart_facts(own)
    assert [charts[c]["points"] for c in ("rate", "score", "time")] == [5, 5, 3]
    assert charts["streak"]["bars"] == 5
    not_won = "niet gewonnen (verloren, opgegeven of verlaten)"
    assert charts["score"]["legend"] == ["gewonnen", not_won]
    assert charts["rate"]["caption"] == "Winstpercentage over de laatste 10 spellen"
    assert charts["rate"]["named"][1].startswith("5 afgelopen spellen, het oudste eerst.")
    rows = history_rows(own)
    words = ["gewonnen", "verlaten", "gewonnen", "gewonnen", "verlaten"]
    assert [r["cells"][2] for r in rows] == words
    assert own.text_content("#history-range") == "1\u20135 van 5 spellen"
    own.locator("#history tbody tr").first.get_by_role("button", name="Herhaling").click()
    own.wait_for_selector("#replay", state="visible")
    step_to(own, 0)
    assert own.text_content("#r-move") == "het begin"
    own.get_by_role("button", name="Volgende zet").click()
    step_to(own, 1)
    first = own.evaluate("window.pk.replay.record.moves[0]")
    assert own.text_content("#r-move") == f"zet 1: {first}"
    assert english_left(own.evaluate(TEXTS)) == []


def test_another_reader_sees_no_replay_of_the_players_games(
    page: Any, server: str, player: Any
) -> None:
    open_stats(page, server, player["name"])
    assert chart_facts(page)["rate"]["points"] == 5
    rows = history_rows(page)
    assert [r["result"] for r in rows] == list(reversed(GAMES))
    assert not any(r["replay"] or r["id"] for r in rows)
    assert page.evaluate("window.pk.history.games.every((g) => g.number === null)")


def test_the_history_fits_a_phone(browser: Any, server: str, player: Any, page_errors: Any) -> None:
    """At 390 px the history is one block per game (as the other tables below 600 px): neither
    the page nor the history's own box scrolls sideways, its replay open or not."""
    ctx = browser.new_context(
        storage_state=player["state"],
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    page.on("console", lambda m: page_errors.items.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page_errors.items.append(f"uncaught: {e}"))
    fits = """() => {
      const s = document.scrollingElement;
      const table = document.querySelector('#history');
      const wrap = table.closest('.table-wrap');
      const rows = [...table.tBodies[0].rows];
      return {
        page: [s.scrollWidth, s.clientWidth],
        box: [wrap.scrollWidth, wrap.clientWidth],
        rows: rows.length,
        blocks: rows.every((tr) => getComputedStyle(tr).display === 'grid'),
        inside: rows.every((tr) => tr.getBoundingClientRect().right <= s.clientWidth),
      };
    }"""
    try:
        open_stats(page, server, player["name"])
        facts = page.evaluate(fits)
        assert facts["rows"] == len(GAMES) and facts["blocks"] and facts["inside"], facts
        assert facts["page"][0] <= facts["page"][1], facts
        assert facts["box"][0] <= facts["box"][1], facts
        # each cell under its column's words
        first = page.locator("#history tbody tr").first
        labels = first.locator("td").evaluate_all("(tds) => tds.map((td) => td.dataset.label)")
        assert labels == ["Date", "Result", "Score", "Time", "Moves", "Replay"]
        first.get_by_role("button").click()
        step_to(page, 0)
        facts = page.evaluate(fits)
        assert facts["page"][0] <= facts["page"][1], facts
    finally:
        ctx.close()
    assert page_errors.unexpected() == []
