"""The pages' files, checked without a browser: every page exists, every file a page (as
served: with the shared head and header of ``_head.html`` and ``_header.html``) or a module
names exists, every imported name is exported, nothing is fetched from another site, and there
is no build step (plain ES modules and CSS)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from patiencekit.server.pages import page_html

STATIC = Path(__file__).resolve().parents[2] / "src" / "patiencekit" / "server" / "static"
PAGES = ["lobby.html", "rules.html", "play.html", "stats.html", "signin.html", "signup.html"]
MODULES = sorted(STATIC.glob("js/*.js"))

ATTR = re.compile(r'\b(?:src|href)="([^"]*)"')
IMPORT = re.compile(r'^import\s+(?:\{([^}]*)\}\s+from\s+)?"([^"]+)";', re.M)
EXPORTED = re.compile(
    r"^export\s+(?:async\s+)?(?:function\*?|class|const|let)\s+([A-Za-z_$][\w$]*)", re.M
)
EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}", re.M)


def exports(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    names = set(EXPORTED.findall(text))
    for group in EXPORT_LIST.findall(text):
        names.update(n.split(" as ")[-1].strip() for n in group.split(",") if n.strip())
    return names


@pytest.mark.parametrize("name", PAGES)
def test_page_exists_and_names_only_files_that_exist(name: str) -> None:
    html = page_html(name)
    assert html is not None, f"{name} is missing"
    assert html.startswith("<!doctype html>")
    assert '<html lang="en">' in html
    assert '<meta name="viewport"' in html and '<meta charset="utf-8">' in html
    # The theme is set before the style sheets load, so a dark page never flashes white.
    assert html.index("theme-init.js") < html.index(".css")
    for url in ATTR.findall(html):
        if url.startswith(("data:", "#")) or url == "/" or not url.startswith("/static/"):
            assert not url.startswith(("http:", "https:", "//")), f"{name} loads {url}"
            continue
        assert (STATIC / url.removeprefix("/static/")).is_file(), f"{name}: {url} is missing"


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_module_imports_resolve(module: Path) -> None:
    text = module.read_text(encoding="utf-8")
    for names, target in IMPORT.findall(text):
        assert target.startswith("./") and target.endswith(".js"), f"{module.name}: {target}"
        path = module.parent / target
        assert path.is_file(), f"{module.name} imports {target}, which is missing"
        wanted = {n.split(" as ")[0].strip() for n in names.split(",") if n.strip()}
        missing = wanted - exports(path)
        assert not missing, f"{module.name} imports {sorted(missing)} that {target} lacks"


def test_nothing_is_fetched_from_another_site_and_there_is_no_build_step() -> None:
    files = [p for p in STATIC.rglob("*") if p.is_file()]
    suffixes = {p.suffix for p in files}
    # no images, no TypeScript; the pages' catalogues are JSON (i18n/<lang>.json)
    assert suffixes <= {".html", ".js", ".css", ".md", ".json"}, suffixes
    assert {p.relative_to(STATIC).as_posix() for p in files if p.suffix == ".json"} == {
        "i18n/en.json",
        "i18n/nl.json",
        "i18n/es.json",
    }
    assert not any(p.name in ("package.json", "package-lock.json") for p in files)
    for p in files:
        text = p.read_text(encoding="utf-8")
        if p.suffix == ".css":
            for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", text):
                assert url.startswith("data:"), f"{p.name} loads {url}"
        if p.suffix == ".js":
            assert not re.search(r"""(fetch|import)\(\s*['"`](https?:)?//""", text), p.name
            assert "http://" not in text.replace("http://www.w3.org", ""), p.name


#: a comment: ``// ...`` to the end of the line (not in a URL's ``://``), or ``/* ... */``
COMMENT = re.compile(r"(?<![:\\])//[^\n]*|/\*.*?\*/", re.S)
#: the table of layout families in layout.js, the one place the pages name a family
FAMILY_TABLE = re.compile(r"^const FAMILIES = \{\n(?P<body>.*?)^\};\n", re.M | re.S)
FAMILY_KEY = re.compile(r'^\s*"?([a-z][a-z0-9-]*)"?\s*:', re.M)


def game_words() -> dict[str, re.Pattern[str]]:
    """Every id and alias of the registry, each as a whole word in any case, "-" or a space
    between its parts ("royal-cotillion", "Royal Cotillion", "solitaire")."""
    from patiencekit.games import GAMES

    words = {w for g in GAMES.values() for w in (g.id, *g.aliases)}
    return {
        w: re.compile(
            r"(?<![\w-])" + r"[-\s]".join(map(re.escape, w.split("-"))) + r"(?![\w-])", re.I
        )
        for w in words
    }


def test_no_game_is_named_in_the_scripts() -> None:
    # Every game fact comes from GET /api/games (js/games.js): no script writes a game's id or
    # alias, not even in a comment (the layout families have names of their own).
    found = []
    for module in MODULES:
        text = module.read_text(encoding="utf-8")
        for word, pattern in game_words().items():
            found += [f"{module.name}: {word} in {m.group(0)!r}" for m in pattern.finditer(text)]
    assert found == []


def test_every_layout_family_has_its_layout() -> None:
    from patiencekit.games.facts import Layout

    text = (STATIC / "js" / "layout.js").read_text(encoding="utf-8")
    table = FAMILY_TABLE.search(text)
    assert table, "layout.js has no FAMILIES table"
    body = COMMENT.sub("", table["body"])
    assert set(FAMILY_KEY.findall(body)) == {f.value for f in Layout}
