"""Helpers of the browser tests of the languages, a module of their own so that test files can
share them (``from i18n_helpers import TEXTS, english_left``): a Dutch page's texts, and which
of them are English left over."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parents[2] / "src" / "patiencekit" / "server" / "static"


def catalogue(lang: str) -> dict[str, Any]:
    words: dict[str, Any] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return words


def english_left(texts: list[str]) -> list[str]:
    """The texts of a Dutch page that are English sentences or words of the catalogue (an
    English text that Dutch says otherwise)."""
    en, nl = catalogue("en"), catalogue("nl")
    english: set[str] = set()
    for key, value in en.items():
        if key.endswith("_html") or key in ("header.language_name",):
            continue
        forms = value.values() if isinstance(value, dict) else [value]
        dutch = nl[key].values() if isinstance(nl[key], dict) else [nl[key]]
        for form in forms:
            if form not in dutch and "{" not in form and len(form.strip()) > 2:
                english.add(" ".join(form.split()))
    return sorted({t for t in texts if " ".join(t.split()) in english})


#: every text node and every title / aria-label / placeholder of the page
TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent.trim();
    if (t) out.push(t);
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    for (const a of ["title", "aria-label", "placeholder"]) {
      if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
  }
  out.push(document.title);
  return out;
}"""
