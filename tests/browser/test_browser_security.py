"""In Chromium: the pages work under their Content-Security-Policy (no violation at all), and
the sign-in's ``next`` never leads off the site, however it is written."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser

#: records every violation of the page's policy (run before the page's own scripts)
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""

PAGES = [
    ("/", "#site-nav a"),
    ("/rules/klondike", "main"),
    ("/play/klondike-draw1?number=1", None),
    ("/stats/nobody-at-all", "main"),
    ("/signin", "#auth-form"),
    ("/signup", "#auth-form"),
    ("/tournaments", "main"),
    ("/top100/klondike", "main"),
    ("/daily", "#games tbody tr"),
    ("/daily/klondike", "#today-title"),
    ("/no-such-page", "#site-nav a"),  # the error page (its header filled by its module)
]


def test_every_page_runs_under_its_content_security_policy(
    page: Any, server: str, page_errors: Any
) -> None:
    page_errors.http_ok = True  # the statistics of nobody, and no page, are 404s
    page.add_init_script(RECORD_VIOLATIONS)
    for path, ready in PAGES:
        r = page.goto(server + path)
        assert r is not None and "content-security-policy" in r.headers, path
        if ready is None:  # the board: its play is loaded and drawn by the page's modules
            page.wait_for_function("() => window.pk?.play")
            page.fill("#move-input", "c6 f3")
            page.press("#move-input", "Enter")
            page.wait_for_function("() => window.pk?.play?.n === 1")
        else:
            page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__cspViolations") == [], path


EVIL = [
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/\x00/evil.example",
    "https://evil.example",
    "http:evil.example",
    "javascript:alert(1)",
    "data:text/html,x",
    "evil.example",
    "",
]
GOOD = ["/", "/play/klondike?number=3", "/top100/klondike#me", "/%2F%2Fevil.example"]


def test_the_pages_own_check_of_next_keeps_to_the_site(page: Any, server: str) -> None:
    """``static/js/next.js`` as the browser runs it (the browser is what reads "\\" as "/"
    and drops tabs), on values the server would have refused already."""
    page.goto(server + "/signin")
    results = page.evaluate(
        """async (values) => {
             const { safeNext } = await import("/static/js/next.js");
             return values.map((v) => {
               const next = safeNext(v);
               return [next, new URL(next, window.location.href).origin];
             });
           }""",
        EVIL + GOOD,
    )
    origin = server.rstrip("/")
    for value, (next_, where) in zip(EVIL + GOOD, results, strict=True):
        assert where == origin, (value, next_)
        assert next_ == ("/" if value in EVIL else value), value


def test_an_evil_next_link_lands_on_the_sign_in_page(page: Any, server: str) -> None:
    """Following a link with issue 10's ``next=%2F%09%2Fhost`` (and others) keeps the
    browser on the site, and the page passes on no next."""
    for value in ("/\t/evil.example", "//evil.example", "/\\evil.example"):
        page.goto(f"{server}/signin?next={quote(value, safe='')}")
        page.wait_for_selector("#auth-form")
        assert page.url == f"{server}/signin"
        assert page.get_attribute("#other", "href") == "/signup"
    page.goto(f"{server}/signin?next={quote('/top100/klondike', safe='')}")
    page.wait_for_selector("#auth-form")
    assert page.get_attribute("#other", "href") == f"{server}/signup?next=%2Ftop100%2Fklondike"
