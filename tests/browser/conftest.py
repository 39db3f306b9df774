"""Browser tests: the real server in a subprocess, Debian's Chromium driven by Playwright.

The server runs as ``python -m patiencekit.server --port P`` (what ``patiencekit serve``
runs) with its own temporary data folder. Chromium is ``PATIENCEKIT_CHROMIUM`` if set,
else ``/usr/bin/chromium`` (Debian's), else ``chromium`` or ``chromium-browser`` on the
``PATH`` (``tests/conftest.py`` finds it, and stops a run without it at once with one line
that says how to install it); Playwright's own browser download is never used. Without
Chromium or Playwright the browser tests FAIL, unless ``PATIENCEKIT_ALLOW_NO_BROWSER=1``
lets them skip.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
# The tests import this checkout's package, which the server below runs (installed or not).
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))
CHROMIUM_ENV = "PATIENCEKIT_CHROMIUM"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Chromium through the pages (Playwright)")


def _no_browser(reason: str) -> None:
    if os.environ.get("PATIENCEKIT_ALLOW_NO_BROWSER") == "1":
        pytest.skip(f"{reason} (allowed by PATIENCEKIT_ALLOW_NO_BROWSER=1)")
    pytest.fail(
        f"{reason}: the browser tests need it (apt-get install chromium; pip install playwright), "
        "or set PATIENCEKIT_ALLOW_NO_BROWSER=1 to skip them",
        pytrace=False,
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a fresh server (its own SQLite database)."""
    data = tmp_path_factory.mktemp("pk-data")
    port = _free_port()
    env = dict(os.environ)
    env["PATIENCEKIT_DATA_DIR"] = str(data)
    env["PATIENCEKIT_ENV"] = "development"
    env.pop("PATIENCEKIT_DATABASE_URL", None)
    # Every browser test of a worker signs up or becomes a guest from 127.0.0.1 on this one
    # server: the per-address limits (20 sign-ups an hour, 60 guests in 10 minutes) would refuse
    # them once the suite runs fast enough. The limits are tested in tests/server.
    env["PATIENCEKIT_SIGNUPS_PER_ADDRESS"] = "100000"
    env["PATIENCEKIT_GUESTS_PER_ADDRESS"] = "100000"
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), *filter(None, [env.get("PYTHONPATH")])])
    log = (data / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "patiencekit.server", "--host", "127.0.0.1", "--port", str(port)],
        cwd=data,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60  # a safety net: start-up takes ~1 s
    try:
        while True:
            if proc.poll() is not None:
                log.flush()
                pytest.fail(
                    f"the server exited with {proc.returncode}:\n"
                    + (data / "server.log").read_text()
                )
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=1) as r:
                    if json.load(r).get("ok"):
                        break
            except (urllib.error.URLError, OSError, ValueError):
                pass
            if time.monotonic() > deadline:
                pytest.fail("the server did not answer /api/health within 60 s")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Chromium, headless, launched once per test process."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _no_browser("Playwright for Python is not installed")
    # tests/conftest.py exports the Chromium it found (or the one given) in CHROMIUM_ENV
    chromium = os.environ.get(CHROMIUM_ENV) or "/usr/bin/chromium"
    if not Path(chromium).is_file():
        _no_browser(f"Chromium is not installed at {chromium}")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


class PageErrors:
    """Console errors and uncaught exceptions of a page."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def unexpected(self) -> list[str]:
        # A refused request (4xx) is logged by Chromium as a failed resource; tests that
        # provoke one on purpose call `allow_http_errors`.
        return [e for e in self.items if not (self.http_ok and "Failed to load resource" in e)]

    http_ok = False


@pytest.fixture
def page_errors() -> PageErrors:
    return PageErrors()


def _new_page(browser: Any, errors: PageErrors, **context: Any) -> tuple[Any, Any]:
    ctx = browser.new_context(**context)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    page.on("console", lambda m: errors.items.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.items.append(f"uncaught: {e}"))
    return ctx, page


@pytest.fixture
def page(browser: Any, page_errors: PageErrors) -> Iterator[Any]:
    """A desktop-sized page in a fresh context (no cookies: a new guest)."""
    ctx, pg = _new_page(browser, page_errors, viewport=DESKTOP)
    try:
        yield pg
    finally:
        ctx.close()
    assert page_errors.unexpected() == [], f"console errors: {page_errors.unexpected()}"


@pytest.fixture
def phone(browser: Any, page_errors: PageErrors) -> Iterator[Any]:
    """A phone in portrait: 375 x 740, touch."""
    ctx, pg = _new_page(
        browser, page_errors, viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    try:
        yield pg
    finally:
        ctx.close()
    assert page_errors.unexpected() == [], f"console errors: {page_errors.unexpected()}"
