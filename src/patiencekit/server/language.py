"""The reader's language for every answer: a page, and the ``message`` of an API error.

Chosen in this order: ``?lang=xx`` on the request (the language menu's links), the
``pk_lang`` cookie (the reader's choice, set by a page asked with ``?lang=``), the browser's
``Accept-Language`` (:func:`patiencekit.i18n.negotiate`), English. The API's sentences are
msgids of the gettext domain ``server`` (``src/patiencekit/locale/<lang>/LC_MESSAGES/server.po``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import Response
from starlette.types import Scope

from patiencekit.i18n import LANGUAGES, negotiate, translator

__all__ = [
    "DOMAIN",
    "LANG_COOKIE",
    "LANG_COOKIE_SECONDS",
    "asked_language",
    "say",
    "scope_language",
    "set_language_cookie",
]

LANG_COOKIE = "pk_lang"
#: the choice is remembered for a year
LANG_COOKIE_SECONDS = 365 * 24 * 3600
#: the gettext domain of the server's sentences
DOMAIN = "server"


def asked_language(scope: Scope) -> str | None:
    """The language of the request's ``?lang=`` when there is a catalogue for it."""
    query = scope.get("query_string", b"").decode("latin-1")
    for value in parse_qs(query).get("lang", []):
        if value in LANGUAGES:
            return str(value)
    return None


def scope_language(scope: Scope) -> str:
    """The language to answer a request in (``?lang=``, then the cookie, then
    ``Accept-Language``, then English)."""
    asked = asked_language(scope)
    if asked:
        return asked
    headers = Headers(scope=scope)
    cookie = cookie_parser(headers.get("cookie", "")).get(LANG_COOKIE)
    return negotiate(headers.get("accept-language"), cookie)


def say(lang: str, message: str, params: Mapping[str, Any] | None = None) -> str:
    """A sentence of the server's catalogue in ``lang``, its placeholders filled.

    >>> say("es", "the name {name!r} is taken", {"name": "ann"})
    "el nombre 'ann' ya está ocupado"
    >>> say("en", "the name {name!r} is taken", {"name": "ann"})
    "the name 'ann' is taken"
    """
    text = translator(lang, DOMAIN)(message)
    return text.format(**params) if params else text


def set_language_cookie(response: Response, lang: str, *, https: bool) -> None:
    """Remember the reader's choice of language (a year; the pages and the API read it)."""
    response.set_cookie(
        LANG_COOKIE,
        lang,
        max_age=LANG_COOKIE_SECONDS,
        path="/",
        httponly=False,
        samesite="lax",
        secure=https,
    )
