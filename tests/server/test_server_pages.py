"""The pages and static files the app serves."""

from __future__ import annotations

import re

import pytest

from patiencekit.server.pages import STATIC_DIR, page_html

DASH = "\N{EN DASH}"
#: every page, at one of its addresses, with its own title
PAGES = {
    "lobby.html": ("/", f"PatienceKit {DASH} patience games"),
    "rules.html": ("/rules/klondike", f"Rules {DASH} PatienceKit"),
    "play.html": ("/play/klondike", f"Play {DASH} PatienceKit"),
    "stats.html": ("/stats/{player}", f"Statistics {DASH} PatienceKit"),
    "signin.html": ("/signin", f"Sign in {DASH} PatienceKit"),
    "signup.html": ("/signup", f"Sign up {DASH} PatienceKit"),
    "tournaments.html": ("/tournaments", f"Tournaments {DASH} PatienceKit"),
    "tournament.html": ("/tournaments/{tournament}", f"Tournament {DASH} PatienceKit"),
    "top100.html": ("/top100/klondike", f"Top 100 {DASH} PatienceKit"),
    "profile.html": ("/players/{player}", f"Player {DASH} PatienceKit"),
    "daily.html": ("/daily", f"Daily deals {DASH} PatienceKit"),
    "daily-deal.html": ("/daily/klondike", f"Daily deal {DASH} PatienceKit"),
    "error.html": ("/no-such-page", f"Page not found {DASH} PatienceKit"),
}
#: what the shared fragments hold, each of which a served page has exactly once
SHARED = [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport"',
    '<meta name="color-scheme" content="light dark">',
    '<link rel="icon"',
    '<script src="/static/js/theme-init.js"></script>',
    '<link rel="stylesheet" href="/static/css/pk.css">',
    '<header class="site-header">',
    '<a class="brand" href="/">',
    '<nav class="site-nav" id="site-nav" aria-label="Site"></nav>',
]


def there_is_something(api, make_api):
    """A player, their tournament and their play (made in another browser, whose session
    ``api`` then shares, so that ``api`` has no CSRF cookie yet): the page addresses'
    ``{player}``, ``{tournament}`` and ``{play}``."""
    maker = make_api()
    assert maker.signup("someone").status_code == 201
    r = maker.post("/api/tournaments", {"game": "klondike", "size": 2})
    assert r.status_code == 201, r.text
    play = maker.new_play("klondike", 24)
    api.client.cookies.set("pk_session", maker.client.cookies["pk_session"])
    return {"player": "someone", "tournament": r.json()["id"], "play": play["id"]}


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/", "lobby.html"),
        ("/rules/klondike", "rules.html"),
        ("/play/senior-wrangler", "play.html"),
        ("/play/klondike?number=24", "play.html"),
        ("/p/{play}", "play.html"),
        ("/stats/{player}", "stats.html"),
        ("/signin", "signin.html"),
        ("/signup", "signup.html"),
        ("/tournaments", "tournaments.html"),
        ("/tournaments/{tournament}", "tournament.html"),
        ("/top100", "top100.html"),
        ("/top100/klondike-draw1", "top100.html"),
        ("/players/{player}", "profile.html"),
        ("/players/SOMEONE", "profile.html"),  # names are the same whatever their case
        ("/daily", "daily.html"),
        ("/daily/patiencemax", "daily-deal.html"),
    ],
)
def test_each_page_is_its_html_file_with_a_csrf_cookie(api, make_api, path, page):
    r = api.get(path.format(**there_is_something(api, make_api)))
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    assert r.headers["cache-control"] == "no-cache"
    assert "pk_csrf=" in r.headers.get("set-cookie", "")
    served = page_html(page)
    if served is not None:
        assert r.text == served
    else:
        assert "PatienceKit" in r.text  # a placeholder until the page is written


def test_every_page_file_is_served_and_checked():
    on_disk = {p.name for p in STATIC_DIR.glob("*.html") if not p.name.startswith("_")}
    assert on_disk == set(PAGES)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_page_has_the_shared_head_and_header_once_and_its_own_title(api, make_api, page):
    path, title = PAGES[page]
    text = api.get(path.format(**there_is_something(api, make_api))).text
    assert text.startswith("<!doctype html>\n")
    assert text.index('<meta charset="utf-8">') < 1024  # where a browser looks for it
    for part in SHARED:
        assert text.count(part) == 1, f"{page} has {part!r} {text.count(part)} times"
    assert re.findall(r"<title>(.*?)</title>", text) == [title]
    # The theme is set before the style sheets load; the page's own sheets come after pk.css.
    assert text.index("theme-init.js") < text.index('rel="stylesheet"')
    assert re.findall(r'<link rel="stylesheet" href="([^"]*)">', text)[0] == "/static/css/pk.css"
    assert text.index("</head>") < text.index("<body") < text.index('<header class="site-header">')
    assert "<!-- pk:" not in text and "{viewport}" not in text


def test_the_board_pages_cover_the_whole_screen():
    for page in sorted(PAGES):
        viewport = re.findall(r'<meta name="viewport" content="([^"]*)">', page_html(page) or "")
        cover = page in ("play.html", "tournament.html", "daily-deal.html")
        wanted = "width=device-width, initial-scale=1" + (", viewport-fit=cover" if cover else "")
        assert viewport == [wanted], page


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_page_files_hold_only_their_own_part(page):
    text = (STATIC_DIR / page).read_text(encoding="utf-8")
    assert re.match(r"<!-- pk:head( viewport-fit=cover)? -->\n  <title>", text)
    assert len(re.findall(r"<!-- pk:head[ -]", text)) == 1
    assert text.count("<!-- pk:header -->") == 1
    for part in SHARED:
        assert part not in text, f"{page} repeats {part!r}, which is in a shared fragment"


def test_the_pages_with_a_replay_share_its_section():
    """The tournament's and the daily deal's replay: one section, ``_replay.html``, which
    each page has once, where its marker is, and which no page file repeats."""
    fragment = (STATIC_DIR / "_replay.html").read_text(encoding="utf-8")
    assert fragment.startswith('    <section class="section" id="replay" hidden')
    for page in sorted(PAGES):
        text = (STATIC_DIR / page).read_text(encoding="utf-8")
        assert 'id="replay-title"' not in text or page == "stats.html", page  # stats: its own
        served = page_html(page) or ""
        if page in ("tournament.html", "daily-deal.html"):
            assert text.count("    <!-- pk:replay -->\n") == 1, page
            assert served.count('<section class="section" id="replay" hidden') == 1, page
            assert served.count('data-replay="download"') == 1, page
        else:
            assert "<!-- pk:replay" not in text, page


@pytest.mark.parametrize("path", ["/rules/freecell", "/play/freecell", "/daily/freecell"])
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


def test_a_page_is_put_together_from_its_markers(tmp_path, monkeypatch):
    from patiencekit.server import pages

    (tmp_path / "_head.html").write_text('<head>\n  <meta content="a{viewport}">\n')
    (tmp_path / "_header.html").write_text("  <header></header>\n")
    (tmp_path / "_replay.html").write_text('    <section id="replay"></section>\n')
    (tmp_path / "p.html").write_text(
        "<!-- pk:head viewport-fit=cover -->\n  <title>P</title>\n<body>\n  <!-- pk:header -->\n"
        "  <main>\n    <!-- pk:replay -->\n  </main>\n"
    )
    (tmp_path / "q.html").write_text("<!-- pk:head -->\n<body>\n  <!-- pk:heading -->\n")
    (tmp_path / "r.html").write_text("<!-- pk:head -->\n<body>\n  <!-- pk:header x=y -->\n")
    (tmp_path / "s.html").write_text("<!-- pk:head -->\n<body>\n  <!-- pk:replay x=y -->\n")
    monkeypatch.setattr(pages, "STATIC_DIR", tmp_path)
    pages.page_html.cache_clear()
    try:
        assert pages.page_html("p.html") == (
            '<head>\n  <meta content="a, viewport-fit=cover">\n  <title>P</title>\n'
            '<body>\n  <header></header>\n  <main>\n    <section id="replay"></section>\n'
            "  </main>\n"
        )
        assert pages.page_html("missing.html") is None
        for bad in ("q.html", "r.html", "s.html"):  # an unknown marker is an error, not left in
            with pytest.raises(ValueError, match=bad):
                pages.page_html(bad)
    finally:
        pages.page_html.cache_clear()
