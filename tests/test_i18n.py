"""The languages: negotiation, and the catalogues checked against each other and against
what the code says.

- the gettext catalogues (``src/patiencekit/locale/<lang>/LC_MESSAGES/<domain>.po``): every
  msgid in every language, non-empty, with the same placeholders; every sentence the server
  marks (``N_``) in ``server.po``; every game's name, blurb, pile words and rules sections
  (``patiencekit.game_texts``, which the server and the terminal say them from) in
  ``games.po``; no refusal written as an f-string (it could not be translated);
- the pages' catalogues (``static/i18n/<lang>.json``): the same keys in every language, each
  text non-empty with the same placeholders (plural forms: an ``other`` each), the same markup
  in the ``_html`` texts; every key a page (``{{key}}``) or a script (``t("key")``) names is
  there.

The last tests plant a fault in a copy of each catalogue, to show that the checks fail.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from patiencekit.i18n import LANGUAGES, LOCALE_DIR, negotiate, translator

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "src" / "patiencekit" / "server"
GAME_TEXTS = ROOT / "src" / "patiencekit" / "game_texts.py"
STATIC = SERVER / "static"
PLACEHOLDER = re.compile(r"\{(\w+)(?:![rsa])?(?::[^{}]*)?\}")
TAG = re.compile(r"</?([a-z][a-z0-9]*)\b[^>]*>")


# -- negotiation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "cookie", "wanted"),
    [
        (None, None, "en"),
        ("", None, "en"),
        ("nl", None, "nl"),
        ("nl-BE", None, "nl"),
        ("es-MX,es;q=0.9,en;q=0.8", None, "es"),
        # quality values decide, not the order
        ("en;q=0.3, nl;q=0.9, es;q=0.5", None, "nl"),
        ("de-DE, fr;q=0.9, es;q=0.2", None, "es"),  # unknown ones are passed over
        ("de, fr", None, "en"),  # nothing known: English
        ("nl;q=0, es;q=0.1", None, "es"),  # q=0: not this one
        ("nl;q=0", None, "en"),
        ("*", None, "en"),
        ("es;q=x, nl;q=0.5", None, "nl"),  # a broken q counts as 0
        ("NL-nl", None, "nl"),
        # the reader's choice (the pk_lang cookie) beats the browser's
        ("nl", "es", "es"),
        ("es;q=1", "nl", "nl"),
        ("es", "xx", "es"),  # a cookie without a catalogue is passed over
        (None, "en", "en"),
    ],
)
def test_negotiate(header: str | None, cookie: str | None, wanted: str) -> None:
    assert negotiate(header, cookie) == wanted


def test_a_language_without_catalogue_says_the_english() -> None:
    assert translator("fr", "server")("sign in first") == "sign in first"
    assert translator("nl", "no-such-domain")("sign in first") == "sign in first"
    assert translator("es", "server")("sign in first") == "inicia sesión primero"


# -- the server's gettext catalogues ---------------------------------------------------------


def read_catalogue(path: Path) -> dict[str, str]:
    """msgid → msgstr of a .po file (fuzzy entries count as empty)."""
    with path.open("rb") as f:
        po = read_po(f)
    return {
        str(m.id): ("" if m.fuzzy else str(m.string or ""))
        for m in po
        if m.id and isinstance(m.id, str)
    }


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def po_problems(catalogues: Mapping[str, Mapping[str, str]]) -> list[str]:
    """What is wrong with a domain's catalogues, one per language."""
    problems: list[str] = []
    ids = set().union(*(c.keys() for c in catalogues.values()))
    for lang, catalogue in catalogues.items():
        for msgid in sorted(ids):
            text = catalogue.get(msgid)
            if text is None:
                problems.append(f"{lang}: no {msgid!r}")
            elif not text.strip():
                problems.append(f"{lang}: {msgid!r} is not translated")
            elif placeholders(text) != placeholders(msgid):
                problems.append(f"{lang}: {msgid!r} has {sorted(placeholders(text))}")
            else:
                try:
                    text.format(**{name: "x" for name in placeholders(text)})
                except (KeyError, IndexError, ValueError) as e:
                    problems.append(f"{lang}: {msgid!r} cannot be filled: {e}")
    return problems


def domains() -> list[str]:
    return sorted({p.stem for p in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")})


def test_there_are_catalogues_of_the_server_in_every_language() -> None:
    assert "server" in domains()
    for lang in LANGUAGES:
        assert (LOCALE_DIR / lang / "LC_MESSAGES" / "server.po").is_file(), lang


@pytest.mark.parametrize("domain", domains())
def test_every_msgid_is_in_every_language_with_the_same_placeholders(domain: str) -> None:
    catalogues = {
        lang: read_catalogue(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po")
        for lang in LANGUAGES
        if (LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").is_file()
    }
    assert set(catalogues) == set(LANGUAGES), f"{domain}: catalogues {sorted(catalogues)}"
    assert po_problems(catalogues) == []


def _marked(path: Path) -> list[tuple[str, int]]:
    """The sentences a module marks for the catalogues: ``N_("...")``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "N_"
            and node.args
        ):
            arg = node.args[0]
            assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                f"{path.name}:{node.lineno}: N_ takes a plain string"
            )
            found.append((arg.value, node.lineno))
    return found


def server_sentences() -> dict[str, str]:
    """Every sentence the server says in the reader's language → where it comes from."""
    wanted: dict[str, str] = {}
    for path in sorted(SERVER.rglob("*.py")):
        for text, line in _marked(path):
            wanted[text] = f"{path.relative_to(SERVER)}:{line}"
    return wanted


def game_sentences() -> dict[str, str]:
    """Every text of a game the faces say in the reader's language → where it comes from."""
    from patiencekit.games import FACTS, GAMES

    wanted = {text: f"game_texts.py:{line}" for text, line in _marked(GAME_TEXTS)}
    for game_id, facts in FACTS.items():
        wanted[GAMES[game_id].name] = f"the name of {game_id}"
        wanted[facts.blurb] = f"the blurb of {game_id}"
        for word in facts.pile_words.values():
            wanted[word] = f"a pile word of {game_id}"
    return wanted


def test_every_sentence_of_the_server_is_in_the_catalogue() -> None:
    english = read_catalogue(LOCALE_DIR / "en" / "LC_MESSAGES" / "server.po")
    missing = {text: where for text, where in server_sentences().items() if text not in english}
    assert missing == {}, "not in server.po (add them in every language)"
    assert len(server_sentences()) > 80


def test_every_text_of_the_games_is_in_the_catalogue_and_no_other() -> None:
    english = read_catalogue(LOCALE_DIR / "en" / "LC_MESSAGES" / "games.po")
    wanted = game_sentences()
    missing = {text: where for text, where in wanted.items() if text not in english}
    assert missing == {}, "not in games.po (add them in every language)"
    assert sorted(set(english) - set(wanted)) == [], "in games.po, but no game says it"
    assert len(wanted) > 80


def test_no_refusal_is_an_f_string() -> None:
    """A refusal's sentence is a msgid with placeholders (``params=``), never an f-string,
    which no catalogue could hold."""
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
            args = {"ApiError": 2, "refused": 0, "_send_error": 3}.get(name)
            if (
                args is not None
                and len(node.args) > args
                and isinstance(node.args[args], ast.JoinedStr)
            ):
                found.append(f"{path.relative_to(SERVER)}:{node.lineno}")
    assert found == []


def test_every_game_has_its_rules_page_in_sections() -> None:
    from patiencekit.game_texts import RULES_SECTIONS, rules_sections, rules_text
    from patiencekit.games import GAMES

    assert set(RULES_SECTIONS) == set(GAMES)
    for rules in GAMES.values():
        for lang in LANGUAGES:
            sections = rules_sections(rules, lang)
            assert len(sections) >= 2 and all(s["heading"] and s["text"] for s in sections)
    dutch = rules_sections(GAMES["klondike"], "nl")
    assert [s["heading"] for s in dutch] == [
        "De opbouw",
        "Zo speel je",
        "De stock",
        "Winnen",
        "Puntentelling",
    ]
    assert "azenstapels" in dutch[1]["text"]
    # the rules in full: the registry's in English, the sections' sentences in the others
    for rules in GAMES.values():
        assert rules_text(rules, "en") == rules.rules_text
        for lang in ("nl", "es"):
            text = rules_text(rules, lang)
            assert text != rules.rules_text
            for section in rules_sections(rules, lang):
                if section["heading"] not in ("Puntentelling", "Puntuación"):
                    assert section["text"] in text, (rules.id, lang)
    klondike = rules_text(GAMES["klondike"], "nl").split("\n\n")
    assert klondike[0].startswith("Eén kaartspel. Zeven rijen")
    assert klondike[1].startswith("Puntentelling: van de gedraaide kaarten naar een rij +25")


# -- the pages' catalogues -------------------------------------------------------------------


def load_pages(lang: str) -> dict[str, Any]:
    words: dict[str, Any] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return words


def _forms(value: Any) -> dict[str, str]:
    """A text as {form: text}: one form ("") for a plain text, its plural forms otherwise."""
    if isinstance(value, str):
        return {"": value}
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return dict(value)
    raise TypeError(f"not a text: {value!r}")


def page_problems(catalogues: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """What is wrong with the pages' catalogues (the first language is the reference)."""
    problems: list[str] = []
    reference_lang, reference = next(iter(catalogues.items()))
    for lang, catalogue in catalogues.items():
        for key in sorted(set(reference) | set(catalogue)):
            if key not in catalogue or key not in reference:
                problems.append(f"{lang}: {key} is in one catalogue only")
                continue
            try:
                forms, reference_forms = _forms(catalogue[key]), _forms(reference[key])
            except TypeError as e:
                problems.append(f"{lang}: {key}: {e}")
                continue
            if ("" in forms) != ("" in reference_forms):
                problems.append(f"{lang}: {key} has plural forms in one language only")
            elif "" not in forms and "other" not in forms:
                problems.append(f"{lang}: {key} has no 'other' form")
            wanted = set().union(*(placeholders(t) for t in reference_forms.values()))
            for form, text in forms.items():
                where = f"{key} [{form}]" if form else key
                found = placeholders(text)
                if not text.strip():
                    problems.append(f"{lang}: {where} is empty")
                if found - wanted or (form in ("", "other") and found != wanted):
                    problems.append(f"{lang}: {where} has {sorted(found)}")
                if key.endswith("_html"):
                    tags = sorted(TAG.findall(text))
                    if tags != sorted(TAG.findall(reference_forms.get(form, ""))):
                        problems.append(f"{lang}: {where} has other tags: {tags}")
                elif "<" in text:
                    problems.append(f"{lang}: {where} has markup but is not an _html key")
    del reference_lang
    return problems


def test_the_pages_catalogues_agree() -> None:
    catalogues = {lang: load_pages(lang) for lang in LANGUAGES}
    assert page_problems(catalogues) == []
    assert len(catalogues["en"]) > 250


def test_the_seed_words_are_the_dutch_ones() -> None:
    nl = load_pages("nl")
    assert nl["col.rank"] == "Rang" and nl["top100.rank"] == "Rang {rank}"
    assert nl["award.no_cups"] == "geen bekers" and nl["award.no_medals"] == "geen medailles"
    assert nl["col.cups"] == "Bekers" and nl["col.medals"] == "Medailles"
    assert nl["card.name"] == "{suit} {rank}" and nl["suit.C"] == "klaveren"
    assert load_pages("es")["card.name"] == "{rank} de {suit}"


#: ``{{key}}`` in a page; ``t("key"`` or ``tr("key"`` in a script; ``t(`prefix.${`` for keys
#: made in the script (rank.A, suit.C, status.open ...)
PAGE_KEY = re.compile(r"\{\{([a-z0-9_.]+)\}\}")
SCRIPT_KEY = re.compile(r"""(?<![.\w])(?:t|tr)\(\s*["']([a-z0-9_.]+)["']""")
SCRIPT_PREFIX = re.compile(r"""(?<![.\w])(?:t|tr)\(\s*`([a-z0-9_.]+)\$\{""")


def used_keys() -> tuple[dict[str, str], dict[str, str]]:
    """The keys the pages and scripts name (key → file), and the prefixes of the keys the
    scripts make."""
    keys: dict[str, str] = {}
    prefixes: dict[str, str] = {}
    for path in sorted(STATIC.glob("*.html")):
        for key in PAGE_KEY.findall(path.read_text(encoding="utf-8")):
            keys.setdefault(key, path.name)
    for path in sorted(STATIC.glob("js/*.js")):
        text = path.read_text(encoding="utf-8")
        for key in SCRIPT_KEY.findall(text):
            keys.setdefault(key, path.name)
        for prefix in SCRIPT_PREFIX.findall(text):
            prefixes.setdefault(prefix, path.name)
    return keys, prefixes


def test_every_key_the_pages_and_scripts_use_is_in_the_catalogues() -> None:
    keys, prefixes = used_keys()
    assert {"lobby.heading", "play.undo", "card.name", "top100.rank"} <= set(keys)
    assert {"rank.", "suit.", "pile.", "status."} <= set(prefixes)
    for lang in LANGUAGES:
        words = load_pages(lang)
        missing = {k: where for k, where in keys.items() if k not in words}
        assert missing == {}, f"{lang}: keys used but not in i18n/{lang}.json"
        for prefix, where in prefixes.items():
            assert any(k.startswith(prefix) for k in words), f"{lang}: no {prefix}* ({where})"
    # and each made key of the cards is there
    english = load_pages("en")
    assert all(f"rank.{r}" in english for r in "A23456789TJQK")
    assert all(f"suit.{s}" in english for s in "CSHD")


def test_no_page_file_keeps_words_outside_the_catalogue() -> None:
    """Between the tags of a page file there is only a marker, a number, a symbol or code
    (and the language menu's names of each language in itself)."""
    allowed = re.compile(
        r"^(?:\{\{[a-z0-9_.]+\}\}|[#0-9:/ \u2013.]+|PatienceKit|English|Nederlands|Español)*$"
    )
    found = []
    for path in sorted(STATIC.glob("*.html")):
        text = re.sub(r"<(script|style)\b.*?</\1>", "", path.read_text("utf-8"), flags=re.S)
        text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
        for chunk in re.split(r"<[^>]*>", text):
            words = " ".join(chunk.split())
            if words and not allowed.match(words.replace("&#x25C0;", "").replace("&#x25B6;", "")):
                found.append(f"{path.name}: {words!r}")
        for attr in re.findall(r'\b(?:title|aria-label|placeholder)="([^"]*)"', text):
            if attr and not PAGE_KEY.fullmatch(attr) and attr != "c3 f, w c5, s":
                found.append(f"{path.name}: {attr!r}")
    assert found == []


# -- the checks can fail -----------------------------------------------------------------------


def test_the_po_check_finds_a_planted_fault() -> None:
    good = {
        "en": {"the name {name!r} is taken": "the name {name!r} is taken", "a": "a"},
        "nl": {"the name {name!r} is taken": "de naam {name!r} is bezet", "a": "een"},
    }
    assert po_problems(good) == []
    bad = {
        "en": good["en"],
        "nl": {"the name {name!r} is taken": "de naam {naam!r} is bezet", "a": ""},
        "es": {"a": "una"},
    }
    assert po_problems(bad) == [
        "nl: 'a' is not translated",
        "nl: 'the name {name!r} is taken' has ['naam']",
        "es: no 'the name {name!r} is taken'",
    ]


def test_the_pages_check_finds_a_planted_fault() -> None:
    en = load_pages("en")
    nl = dict(load_pages("nl"))
    nl.pop("lobby.heading")
    nl["top100.rank"] = "Rang {rang}"
    nl["lobby.decks"] = {"one": "Eén kaartspel"}
    nl["play.help_keys_html"] = nl["play.help_keys_html"].replace("<kbd>Tab</kbd>", "Tab")
    nl["play.undo"] = " "
    assert page_problems({"en": en, "nl": nl}) == [
        "nl: lobby.decks has no 'other' form",
        "nl: lobby.heading is in one catalogue only",
        "nl: play.help_keys_html has other tags: "
        + str(sorted(TAG.findall(nl["play.help_keys_html"]))),
        "nl: play.undo is empty",
        "nl: top100.rank has ['rang']",
    ]
