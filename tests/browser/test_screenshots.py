"""Screenshots of every board, compared with the references in tests/browser/screenshots/.

Each game's deal 5 on its play page, on a phone (390 x 844) and a desktop (1280 x 800), as a
new guest sees it in English, is compared pixel by pixel with its reference PNG: a pixel
differs when one of its channels is more than THRESHOLD apart, and at most TOLERANCE of the
pixels may differ (anti-aliasing may move a little between Chromium builds; a pile moved by
a few pixels does not pass, as the last test shows).

What would change from one run to the next is held still: reduced motion (no slides),
the light theme, one font stack that Debian's Chromium has (DejaVu), no text caret, and the
clock and the share link (its address has the test server's port) masked.

When a layout changes on purpose, make the references anew and look at them before you
commit them:

    PK_UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/browser/test_screenshots.py

A failed comparison leaves the screenshot and a picture of the differing pixels beside it
in pytest's temporary folder (the message says where).
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from layout_helpers import DESKTOP, PHONE_390
from PIL import Image, ImageChops

from patiencekit.games import GAMES

pytestmark = pytest.mark.browser

REFERENCES = Path(__file__).resolve().parent / "screenshots"
UPDATE = os.environ.get("PK_UPDATE_SCREENSHOTS") == "1"
NUMBER = 5
#: a channel apart by more than this (of 255) makes a pixel differ
THRESHOLD = 40
#: the share of differing pixels a screenshot may have
TOLERANCE = 0.002
SIZES = {"phone": PHONE_390, "desktop": DESKTOP}

STEADY_CSS = """
  :root, body, button, input, select, textarea, .site-header, .board {
    font-family: "DejaVu Sans", sans-serif !important;
  }
  kbd, code, .move-form input { font-family: "DejaVu Sans Mono", monospace !important; }
  /* the share link's address has the server's port: its width must not move the button */
  #share-link { display: inline-block; width: 22rem; max-width: 100%; overflow: hidden; }
  *, *::before, *::after {
    animation: none !important; transition: none !important; caret-color: transparent !important;
  }
"""


def take(browser: Any, server: str, game: str, size: str, extra_css: str = "") -> Image.Image:
    """The screenshot of deal NUMBER of ``game`` at ``size``, as the page is drawn."""
    phone = size == "phone"
    ctx = browser.new_context(
        viewport=SIZES[size],
        device_scale_factor=1,
        is_mobile=phone,
        has_touch=phone,
        locale="en-US",
        timezone_id="UTC",
        color_scheme="light",
        reduced_motion="reduce",
        # the steady style sheet is added inline, which the pages' policy forbids
        bypass_csp=True,
    )
    ctx.set_default_timeout(10_000)
    try:
        page = ctx.new_page()
        page.goto(f"{server}/play/{game}?number={NUMBER}")
        page.wait_for_function("() => window.pk?.play")
        page.wait_for_selector("#site-nav a", state="attached")
        page.add_style_tag(content=STEADY_CSS + extra_css)
        # The fonts loaded, the board measured again for them, two frames drawn.
        page.evaluate(
            "async () => { await document.fonts.ready; window.dispatchEvent(new Event('resize'));"
            " await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); }"
        )
        png = page.screenshot(
            mask=[page.locator("#m-time"), page.locator("#share-link")],
            animations="disabled",
            caret="hide",
        )
    finally:
        ctx.close()
    return Image.open(io.BytesIO(png)).convert("RGB")


def difference(reference: Image.Image, shot: Image.Image) -> tuple[float, Image.Image]:
    """The share of pixels that differ (by more than THRESHOLD in a channel), and a picture of
    them (white where they differ)."""
    if reference.size != shot.size:
        return 1.0, Image.new("L", shot.size, 255)
    diff = ImageChops.difference(reference, shot)
    channels = diff.split()
    most = channels[0]
    for channel in channels[1:]:
        most = ImageChops.lighter(most, channel)
    mask = most.point(lambda v: 255 if v > THRESHOLD else 0)
    differing = mask.histogram()[255]
    return differing / (shot.width * shot.height), mask


def reference_path(game: str, size: str) -> Path:
    return REFERENCES / f"{game}-{size}.png"


def check(shot: Image.Image, game: str, size: str, out: Path) -> None:
    path = reference_path(game, size)
    if UPDATE:
        REFERENCES.mkdir(exist_ok=True)
        shot.save(path, optimize=True)
        return
    assert path.is_file(), (
        f"no reference {path.name}: make it with PK_UPDATE_SCREENSHOTS=1 (and look at it)"
    )
    share, mask = difference(Image.open(path).convert("RGB"), shot)
    if share > TOLERANCE:
        shot.save(out / f"{game}-{size}.png")
        mask.save(out / f"{game}-{size}-diff.png")
    assert share <= TOLERANCE, (
        f"{game} at {size}: {share:.2%} of the pixels differ from {path.name} "
        f"(at most {TOLERANCE:.2%}); the screenshot and its difference are in {out}"
    )


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_the_board_looks_as_its_reference(
    browser: Any, server: str, game: str, size: str, tmp_path: Path
) -> None:
    check(take(browser, server, game, size), game, size, tmp_path)


def test_every_reference_is_of_a_game() -> None:
    names = {p.name for p in REFERENCES.glob("*.png")}
    assert names == {f"{g}-{s}.png" for g in GAMES for s in SIZES}


def test_a_moved_pile_fails_the_comparison(browser: Any, server: str) -> None:
    """The comparison catches a layout change: the third column moved by 12 px, or the
    cards drawn 4 % larger, differ from the reference beyond the tolerance; the same board
    again does not."""
    reference = Image.open(reference_path("klondike", "desktop")).convert("RGB")
    same, _ = difference(reference, take(browser, server, "klondike", "desktop"))
    assert same <= TOLERANCE
    moved = take(
        browser,
        server,
        "klondike",
        "desktop",
        '#board .pile[data-label="c3"] { transform: translateX(12px); }',
    )
    share, _ = difference(reference, moved)
    assert share > TOLERANCE, share
    larger = take(browser, server, "klondike", "desktop", "#board .card { scale: 1.04; }")
    share, _ = difference(reference, larger)
    assert share > TOLERANCE, share
