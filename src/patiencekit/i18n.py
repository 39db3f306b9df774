"""The languages of the faces (the web app, the command line): which one a reader gets, and
the gettext catalogues that say a sentence in it.

Not part of the engine: the server and the command line may import it, the engine never
does (``pyproject.toml``'s layering contracts). The engine's own texts are English; the faces
translate them where they show them.

Catalogues are gettext ``.po`` files, one per language and *domain* (a group of messages),
read at run time with Babel (nothing to compile)::

    src/patiencekit/locale/<lang>/LC_MESSAGES/<domain>.po

Each ``msgid`` is the English sentence itself, with ``{name}`` placeholders where the
sentence names something (``str.format`` fills them after translating), so that the code
reads in English and a sentence no catalogue has comes out in English. Mark a sentence
for the catalogues with :func:`N_` where it is written (``pybabel extract -k N_`` finds
them; ``tests/test_i18n.py`` checks that every marked sentence is in every catalogue).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "catalogue",
    "messages",
    "negotiate",
    "translator",
]

#: the languages there are catalogues for, the default first
LANGUAGES: tuple[str, ...] = ("en", "nl", "es")
DEFAULT_LANGUAGE = "en"
#: each language's name in itself (the language menu)
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "nl": "Nederlands", "es": "Español"}

LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues where it is written; translated where it is
    shown (gettext's ``gettext_noop``).

    >>> N_("sign in first")
    'sign in first'
    """
    return message


def _known(tag: str | None) -> str | None:
    """The language of a tag if there is a catalogue for it (``nl-BE`` → ``nl``)."""
    if not tag:
        return None
    primary = tag.strip().replace("_", "-").split("-", 1)[0].lower()
    return primary if primary in LANGUAGES else None


def negotiate(accept_language: str | None, cookie: str | None = None) -> str:
    """The language a reader gets: the one they chose (``cookie``, e.g. ``pk_lang``) when
    there is a catalogue for it, else the best of the browser's ``Accept-Language`` that
    there is one for (the highest quality value; of equal ones the first), else English.

    A region counts for its language (``nl-BE`` is ``nl``); ``q=0`` means "not this one";
    ``*`` is any language, which is English here.

    >>> negotiate("nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7")
    'nl'
    >>> negotiate("de-DE,de;q=0.9,es;q=0.5,en;q=0.4")
    'es'
    >>> negotiate("fr, en;q=0")
    'en'
    >>> negotiate("en;q=0.5, es", cookie="nl"), negotiate(None), negotiate("x;q=oops")
    ('nl', 'en', 'en')
    """
    chosen = _known(cookie)
    if chosen:
        return chosen
    offers: list[tuple[float, int, str]] = []
    for position, item in enumerate((accept_language or "").split(",")):
        tag, _, params = item.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        tag = tag.strip()
        if quality <= 0 or not tag:
            continue
        language = DEFAULT_LANGUAGE if tag == "*" else _known(tag)
        if language:
            offers.append((-quality, position, language))
    return min(offers)[2] if offers else DEFAULT_LANGUAGE


@functools.cache
def messages(lang: str, domain: str) -> dict[tuple[str, str | None], str]:
    """The translations of ``domain`` into ``lang``: (msgid, msgctxt) → msgstr, read once per
    process; empty where there is no catalogue (English: a message is its own English).
    Fuzzy and empty entries are left out (their msgid is shown instead), and so are plural
    entries (no catalogue writes one)."""
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        po = read_po(f, locale=lang, domain=domain)
    table: dict[tuple[str, str | None], str] = {}
    for message in po:
        if not message.id or message.fuzzy or not isinstance(message.id, str):
            continue
        if isinstance(message.string, str) and message.string:
            table[(message.id, message.context)] = message.string
    return table


@functools.cache
def catalogue(lang: str, domain: str) -> dict[str, str]:
    """The translations of ``domain`` into ``lang`` without a context (msgid → msgstr), see
    :func:`messages`."""
    table = messages(lang, domain)
    return {msgid: text for (msgid, context), text in table.items() if context is None}


def translator(lang: str, domain: str) -> Callable[[str], str]:
    """A function that says a msgid of ``domain`` in ``lang`` (the msgid itself, English,
    where the catalogue lacks it, or for a language without catalogues).

    >>> translator("nl", "server")("sign in first")
    'meld je eerst aan'
    >>> translator("xx", "server")("sign in first")
    'sign in first'
    """
    table = catalogue(lang, domain) if lang in LANGUAGES else {}

    def translate(message: str) -> str:
        return table.get(message) or message

    return translate
