"""The pages and static files the app serves."""

from __future__ import annotations

import pytest

from patiencekit.server.pages import STATIC_DIR


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/", "lobby.html"),
        ("/rules/klondike", "rules.html"),
        ("/play/senior-wrangler", "play.html"),
        ("/play/klondike?number=24", "play.html"),
        ("/p/0123456789abcdef0123456789abcdef", "play.html"),
        ("/stats/someone", "stats.html"),
        ("/signin", "signin.html"),
        ("/signup", "signup.html"),
    ],
)
def test_each_page_is_its_html_file_with_a_csrf_cookie(api, path, page):
    r = api.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "pk_csrf=" in r.headers.get("set-cookie", "")
    file = STATIC_DIR / page
    if file.is_file():
        assert r.text == file.read_text(encoding="utf-8")
    else:
        assert "PatienceKit" in r.text  # a placeholder until the page is written


@pytest.mark.parametrize("path", ["/rules/freecell", "/play/freecell"])
def test_pages_of_unknown_games_are_not_found(api, path):
    r = api.get(path)
    assert r.status_code == 404 and "freecell" in r.text


def test_static_files(api):
    files = [p for p in STATIC_DIR.rglob("*") if p.is_file()] if STATIC_DIR.is_dir() else []
    for file in files[:5]:
        r = api.get("/static/" + file.relative_to(STATIC_DIR).as_posix())
        assert r.status_code == 200 and r.content == file.read_bytes()
    assert api.get("/static/no-such-file.js").status_code == 404
    assert api.get("/static/../app.py").status_code == 404
