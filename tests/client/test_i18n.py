"""The client's words come from its catalogues (``client/i18n/<lang>.js``):
every catalogue has every key with the same ``{placeholders}``, every key a
module asks for is there, and no module writes a word for people itself.

The scan reads each module's string literals (quotes and the text parts of
template literals, comments left out) and fails on one that reads as words
(a capitalised word, or two words with a space): those belong in the
catalogues.  A lone lower-case word reads like the keys and names the
code is full of, so the scan lets it by: the e2e test in German
(``tests/e2e/test_languages.py``) catches one that reaches the page.
What is not for people (DOM and event names, HTTP headers) is listed in
``NOT_WORDS``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "client" / "static" / "client"
CATALOGUES = CLIENT / "i18n"
MODULES = sorted(p for p in CLIENT.glob("*.js") if p.name != "i18n.js")

NOT_WORDS = {
    "Accept-Language",  # an HTTP header's name
    "Authorization",
    "Content-Type",
    "Token ",  # the Authorization scheme
    "Notification",  # the browser's API, tested for with `in window`
    "Enter",  # KeyboardEvent.key values
    "ArrowRight",
    "ArrowLeft",
    "SHA-256",  # WebCrypto's digest name
    "card face",  # class attributes
    "num neg",
    "num pos",
}
"""Literals that look like words but never reach the page."""

ENTRY = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*:\s*("(?:[^"\\]|\\.)*"),\s*$')
PLACEHOLDER = re.compile(r"\{(\w+)\}")
WORDS = re.compile(r"[A-Z][a-z]{2,}|[A-Za-z]{2,}\s+[A-Za-z]{2,}")


def catalogue(language: str) -> dict[str, str]:
    entries: dict[str, str] = {}
    for line in (CATALOGUES / f"{language}.js").read_text(encoding="utf-8").splitlines():
        match = ENTRY.match(line)
        if match:
            key, text = (json.loads(part) for part in match.groups())
            assert key not in entries, f"{language}: {key} twice"
            entries[key] = text
    assert entries, language
    return entries


def literals(source: str) -> list[str]:
    """The string literals of a module, each template literal as its text
    parts (what lies outside its ``${...}``), comments skipped."""
    found: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i) % (n + 1) or n
        elif source.startswith("/*", i):
            i = source.index("*/", i) + 2
        elif c in "\"'":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            found.append(source[i + 1 : j])
            i = j + 1
        elif c == "`":
            i = _template(source, i + 1, found)
        else:
            i += 1
    return found


def _template(source: str, i: int, found: list[str]) -> int:
    """Read a template literal from after its backtick; returns the index after its end."""
    text = ""
    while source[i] != "`":
        if source[i] == "\\":
            text += source[i : i + 2]
            i += 2
        elif source.startswith("${", i):
            found.append(text)
            text = ""
            i = _expression(source, i + 2, found)
        else:
            text += source[i]
            i += 1
    found.append(text)
    return i + 1


def _expression(source: str, i: int, found: list[str]) -> int:
    """Skip a ``${...}`` (its own literals collected); the index after its ``}``."""
    depth = 1
    while depth:
        c = source[i]
        if c in "\"'":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            found.append(source[i + 1 : j])
            i = j + 1
            continue
        if c == "`":
            i = _template(source, i + 1, found)
            continue
        depth += {"{": 1, "}": -1}.get(c, 0)
        i += 1
    return i


def test_every_catalogue_has_every_key_with_the_same_placeholders() -> None:
    english = catalogue("en")
    languages = sorted(p.stem for p in CATALOGUES.glob("*.js"))
    assert "de" in languages
    for language in languages:
        other = catalogue(language)
        assert sorted(set(english) - set(other)) == [], f"missing in {language}"
        assert sorted(set(other) - set(english)) == [], f"only in {language}"
        for key, text in english.items():
            assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (
                language,
                key,
            )
            assert other[key].strip(), (language, key)


def test_every_language_the_client_offers_has_a_catalogue() -> None:
    source = (CLIENT / "i18n.js").read_text()
    offered = set(re.findall(r'import (\w+) from "\./i18n/(\w+)\.js"', source))
    assert offered == {(p.stem, p.stem) for p in CATALOGUES.glob("*.js")}


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_every_key_a_module_asks_for_is_in_the_catalogue(module: Path) -> None:
    english = catalogue("en")
    source = module.read_text()
    for key in re.findall(r'\btr\("([^"]+)"', source):
        assert key in english, f"{module.name}: {key}"
    for prefix in re.findall(r"\btr\(`([\w.-]*)\$\{", source):
        assert any(k.startswith(prefix) for k in english), f"{module.name}: {prefix}..."


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_no_module_writes_words_for_people_itself(module: Path) -> None:
    worded = [s for s in literals(module.read_text()) if WORDS.search(s) and s not in NOT_WORDS]
    assert worded == [], f"{module.name}: put these in client/i18n/*.js and use tr()"


def test_the_scan_sees_words_in_quotes_and_templates_but_not_in_comments() -> None:
    source = (
        '// Say "Hello there"\nh("p", {}, "Fold");\n'
        'x = `Raise to ${n} more chips`;\n/* "Not this" */'
    )
    assert [s for s in literals(source) if WORDS.search(s)] == ["Fold", "Raise to ", " more chips"]
