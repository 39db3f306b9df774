"""The browser pages: plain HTML files from ``static/``, each served with a CSRF cookie.

What every page shares is written once, in two fragments, and a page file holds only its own
part (its title, style sheets, module and body) with a marker, on a line of its own, where each
fragment goes:

- ``<!-- pk:head -->`` (the page's first line) becomes ``static/_head.html``: the doctype,
  ``<html>``, the opening of ``<head>`` with the charset, viewport, colour scheme and icon, then
  the theme script and ``css/pk.css``. Words after ``pk:head`` are added to the viewport's
  settings (its ``{viewport}``): ``<!-- pk:head viewport-fit=cover -->``.
- ``<!-- pk:header -->`` becomes ``static/_header.html``: the site header (brand, nav and the
  language menu).
- ``<!-- pk:replay -->`` becomes ``static/_replay.html``: the replay section of the
  tournament and daily deal pages (its controls and board, for ``js/replay.js``'s
  ``pageReplay``).

Every visible word of a page file and its fragments is a marker ``{{key}}`` of the pages'
catalogue, ``static/i18n/<lang>.json`` (the one the scripts read too, ``js/i18n.js``): it is
replaced by the key's text in the page's language, HTML-escaped, or as it is for a key ending
in ``_html`` (the catalogue's own markup: links, ``<kbd>``); ``{lang}`` in ``_head.html``
becomes the language (``<html lang>``). A page is put together once per process and language
(``page_html``), in the reader's language (``language.scope_language``: ``?lang=``, which
also sets the ``pk_lang`` cookie, then the cookie, then ``Accept-Language``).

An address that is not a page, and a page of nothing (an unknown game, player, tournament or
play), answers 404 with ``static/error.html`` in the reader's language, its words said for
the case (:func:`error_page`), with a way home; another player's play (``/p/{id}``) answers
403 the same way, with a link to play its deal when that is casual. Only ``/api/`` answers
in JSON (:func:`install_error_pages`).
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlalchemy import select
from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles

from patiencekit.errors import UnknownGameError
from patiencekit.games import get_rules
from patiencekit.i18n import DEFAULT_LANGUAGE, LANGUAGES
from patiencekit.server.accounts import name_key
from patiencekit.server.db import Database, users
from patiencekit.server.deps import ClientDep, DbDep, ensure_csrf_cookie
from patiencekit.server.errors import http_error
from patiencekit.server.language import (
    LANG_COOKIE,
    asked_language,
    scope_language,
    set_language_cookie,
)
from patiencekit.server.play import service as plays

__all__ = [
    "STATIC_DIR",
    "Said",
    "StaticDir",
    "catalogue_keys",
    "error_page",
    "install_error_pages",
    "not_found_page",
    "page_catalogue",
    "page_html",
    "player_exists",
    "router",
    "safe_next",
]

STATIC_DIR = Path(__file__).resolve().parent / "static"

_PLACEHOLDER = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>PatienceKit</title></head>
<body><h1>PatienceKit</h1><p>{text}</p></body></html>
"""


#: a marker line: ``<!-- pk:head [setting=value ...] -->``, ``<!-- pk:header -->`` or
#: ``<!-- pk:replay -->``
_MARKER = re.compile(
    r"^[ \t]*<!-- pk:(?P<name>head|header|replay)(?P<settings>(?: [a-z-]+=[a-z0-9.-]+)*) -->\n",
    re.M,
)
_FRAGMENTS = {"head": "_head.html", "header": "_header.html", "replay": "_replay.html"}
#: a word of the catalogue: ``{{key}}``
_WORD = re.compile(r"\{\{([a-z0-9_.]+)\}\}")


@functools.cache
def page_catalogue(lang: str) -> dict[str, object]:
    """The pages' catalogue of ``lang`` (``static/i18n/<lang>.json``): key → text, or for a
    text with a count, plural category → text."""
    path = STATIC_DIR / "i18n" / f"{lang}.json"
    if not path.is_file():
        return {}
    words: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return words


def catalogue_keys(text: str) -> list[str]:
    """The catalogue's keys a page file names (``{{key}}``).

    >>> catalogue_keys('<h1>{{lobby.heading}}</h1><p title="{{play.hint_title}}">')
    ['lobby.heading', 'play.hint_title']
    """
    return _WORD.findall(text)


def _translate(text: str, lang: str, filename: str) -> str:
    words = page_catalogue(lang)
    fallback = page_catalogue(DEFAULT_LANGUAGE)

    def word(marker: re.Match[str]) -> str:
        key = marker[1]
        value = words.get(key, fallback.get(key))
        if not isinstance(value, str):
            raise ValueError(f"{filename}: {{{{{key}}}}} is not a text of the pages' catalogue")
        return value if key.endswith("_html") else html.escape(value, quote=True)

    return _WORD.sub(word, text)


@functools.cache
def page_html(filename: str, lang: str = DEFAULT_LANGUAGE) -> str | None:
    """The page ``static/<filename>`` as served in ``lang`` (its markers replaced by the
    shared fragments, its words by the catalogue's); None while the file does not exist."""
    path = STATIC_DIR / filename
    if not path.is_file():
        return None
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for {lang!r}")

    def fragment(marker: re.Match[str]) -> str:
        name, settings = marker["name"], marker["settings"].split()
        text = (STATIC_DIR / _FRAGMENTS[name]).read_text(encoding="utf-8")
        if name == "head":
            return text.replace("{viewport}", "".join(f", {s}" for s in settings)).replace(
                "{lang}", lang
            )
        if settings:
            raise ValueError(f"{filename}: <!-- pk:{name} --> takes no settings")
        if name == "header":
            # the language menu: the page's own language is the current one
            return text.replace(f'data-lang="{lang}"', f'data-lang="{lang}" aria-current="true"')
        return text

    page = _MARKER.sub(fragment, path.read_text(encoding="utf-8"))
    if "<!-- pk:" in page:
        raise ValueError(f"{filename}: a marker that is not <!-- pk:head|header|replay -->")
    page = _translate(page, lang, filename)
    if "{{" in page:
        raise ValueError(f"{filename}: a word marker that is not {{{{key}}}}")
    return page


def _page(request: Request, filename: str, status: int = 200) -> Response:
    lang = scope_language(request.scope)
    page = page_html(filename, lang)
    response: Response
    if page is not None:
        response = HTMLResponse(page, status_code=status, headers={"cache-control": "no-cache"})
    else:  # the page is not written yet
        response = HTMLResponse(
            _PLACEHOLDER.format(lang=lang, text=html.escape(f"{filename} is coming soon.")),
            status_code=status,
        )
    return _served(request, response, lang)


def _served(request: Request, response: Response, lang: str) -> Response:
    """What every page answer carries: its language, and the CSRF cookie."""
    response.headers["content-language"] = lang
    response.headers["vary"] = "Accept-Language, Cookie"
    asked = asked_language(request.scope)
    if asked is not None and request.cookies.get(LANG_COOKIE) != asked:
        set_language_cookie(response, asked, https=request.url.scheme == "https")
    ensure_csrf_cookie(request, response)
    return response


# -- error pages -------------------------------------------------------------------------

#: a text of the pages' catalogue and its placeholders' values
Said = tuple[str, Mapping[str, object]]
#: where the error page's own part goes in ``error.html``
_ERROR_MAIN = re.compile(r'(<main class="page error-page"[^>]*>).*?(</main>)', re.S)
_TITLE = re.compile(r"<title>.*?</title>", re.S)


def _say(lang: str, said: Said) -> str:
    key, params = said
    value = page_catalogue(lang).get(key, page_catalogue(DEFAULT_LANGUAGE).get(key))
    if not isinstance(value, str):
        raise ValueError(f"{key} is not a text of the pages' catalogue")
    return value.format(**params) if params else value


def error_page(
    request: Request,
    status: int,
    heading: Said,
    texts: Sequence[Said],
    links: Sequence[tuple[str, Said]] = (),
) -> Response:
    """``static/error.html`` in the reader's language: ``heading`` (also its title), the
    paragraphs ``texts`` and the ``links`` (address, words), the first one the main way on,
    and a way home last. No live button: nothing on it acts on a play."""
    lang = scope_language(request.scope)
    page = page_html("error.html", lang) or _PLACEHOLDER.format(lang=lang, text="")
    heading_text = _say(lang, heading)
    title = _say(lang, ("edges.title", {"what": heading_text}))
    esc = html.escape
    parts = [f'\n    <h1 id="title">{esc(heading_text)}</h1>\n']
    parts += [f'    <p class="error-text">{esc(_say(lang, text))}</p>\n' for text in texts]
    ways = [*links, ("/", ("edges.home", {}))]
    anchors = [
        f'<a class="button{" primary" if i == 0 else ""}" href="{esc(href)}">'
        f"{esc(_say(lang, words))}</a>"
        for i, (href, words) in enumerate(ways)
    ]
    parts.append(f'    <p class="error-links">{" ".join(anchors)}</p>\n  ')
    body = "".join(parts)
    page = _TITLE.sub(lambda _: f"<title>{esc(title)}</title>", page, count=1)
    page = _ERROR_MAIN.sub(lambda m: m[1] + body + m[2], page, count=1)
    response = HTMLResponse(page, status_code=status, headers={"cache-control": "no-cache"})
    return _served(request, response, lang)


def not_found_page(request: Request, text: Said = ("edges.not_found_text", {})) -> Response:
    """404: there is nothing at this address (``text`` says what is not there)."""
    return error_page(request, 404, ("edges.not_found", {}), [text])


async def _http_error_or_page(request: Request, exc: Exception) -> Response:
    """An address that is not a page: the error page (404), except under ``/api/``, which
    keeps the API's JSON errors (:func:`errors.http_error`)."""
    assert isinstance(exc, HTTPException)
    path = request.url.path
    if exc.status_code == 404 and not (path == "/api" or path.startswith("/api/")):
        return not_found_page(request)
    return await http_error(request, exc)


def install_error_pages(app: FastAPI) -> None:
    """Answer the addresses that are not pages with the error page (after
    :func:`errors.install_error_handlers`, whose handler of HTTP errors this replaces)."""
    app.add_exception_handler(HTTPException, _http_error_or_page)


def player_exists(db: Database, name: str) -> bool:
    """Whether a player (an account, or a guest) is called ``name``."""
    with db.read() as conn:
        found = conn.execute(select(users.c.id).where(users.c.name_key == name_key(name)))
        return found.first() is not None


def _known_game(request: Request, game_id: str) -> Response | None:
    try:
        get_rules(game_id)
    except UnknownGameError:
        return not_found_page(request, ("page.no_game", {"game": repr(game_id)}))
    return None


def safe_next(value: str | None) -> str:
    r"""Where to go after signing in: ``value`` if it is a path of this site, else ``/``.

    A browser drops tabs and newlines from a URL and reads ``\`` as ``/``, so
    ``/<tab>/host`` and ``/\host`` would lead to another site as ``//host`` does: a
    path must start with one ``/`` and hold no control character and no backslash at all.
    (``static/js/next.js`` checks the same in the page.)

    >>> safe_next("/play/klondike?number=3#top"), safe_next(None)
    ('/play/klondike?number=3#top', '/')
    >>> [safe_next(v) for v in ("//evil.example", "/\\evil.example", "/\t/evil.example")]
    ['/', '/', '/']
    >>> [safe_next(v) for v in ("https://evil.example", "javascript:alert(1)", " /x", "x")]
    ['/', '/', '/', '/']
    """
    if not value or not value.startswith("/") or value.startswith("//"):
        return "/"
    if any(c < " " or c in "\x7f\\" for c in value):
        return "/"
    parts = urlsplit(value)
    if parts.scheme or parts.netloc:
        return "/"
    return value


def _auth_page(request: Request, filename: str) -> Response:
    """The sign-in or sign-up page; with a ``next`` that would leave the site, a redirect to
    the page without it (so that the page's script never even sees it)."""
    wanted = request.query_params.get("next")
    if wanted is not None and safe_next(wanted) != wanted:
        return RedirectResponse(request.url.path, status_code=303)
    return _page(request, filename)


router = APIRouter(include_in_schema=False)


@router.get("/")
def lobby(request: Request) -> Response:
    """Every game, with its rules and a way to play it."""
    return _page(request, "lobby.html")


@router.get("/rules/{game_id}")
def rules_page(request: Request, game_id: str) -> Response:
    """A game's rules."""
    return _known_game(request, game_id) or _page(request, "rules.html")


@router.get("/play/{game_id}")
def play_page(request: Request, game_id: str) -> Response:
    """A new deal of a game (``?number=N`` for a given deal)."""
    return _known_game(request, game_id) or _page(request, "play.html")


@router.get("/p/{play_id}")
def resume_page(request: Request, play_id: str, db: DbDep, client: ClientDep) -> Response:
    """A play in progress, for its owner (the page loads it from the API). Anyone else gets
    a page that says whose it is (403), with a link to play the same deal when it is casual
    (a ranked play's deal is never shown: RULES.md, "Fair competition"); no such play, 404."""
    visit = plays.visit(db, client, play_id)
    if visit is None:
        return not_found_page(request, ("edges.no_play", {}))
    if visit.own:
        return _page(request, "play.html")
    texts: list[Said] = [("edges.other_text", {})]
    links: list[tuple[str, Said]] = []
    if visit.number is not None:
        name = get_rules(visit.game_id).name
        texts.append(("edges.other_deal", {"name": name, "number": visit.number}))
        links.append(
            (
                f"/play/{quote(visit.game_id)}?number={visit.number}",
                ("edges.play_same_deal", {"number": visit.number}),
            )
        )
    if not visit.signed_in:
        links.append((f"/signin?next={quote(f'/p/{play_id}', safe='')}", ("signin.heading", {})))
    return error_page(request, 403, ("edges.other_play", {}), texts, links)


@router.get("/stats/{name}")
def stats_page(request: Request, name: str, db: DbDep) -> Response:
    """A player's statistics (404 for no such player)."""
    if not player_exists(db, name):
        return not_found_page(request, ("edges.no_player", {"name": name}))
    return _page(request, "stats.html")


@router.get("/signin")
def signin_page(request: Request) -> Response:
    """Sign in (``?next=/path``: where to go then, a path of this site only)."""
    return _auth_page(request, "signin.html")


@router.get("/signup")
def signup_page(request: Request) -> Response:
    """Create an account (``?next=/path`` as for sign-in)."""
    return _auth_page(request, "signup.html")


class StaticDir(StaticFiles):
    """``/static/*``: the folder's files; a 404 (not a crash) while the folder is missing."""

    async def check_config(self) -> None:
        if not STATIC_DIR.is_dir():
            raise HTTPException(status_code=404)
        await super().check_config()
