"""docs/rules.md is the rules the code cites: every section the code names by
number is there under that number, and every game the engine deals has its
rules there. The docs stand alone: they point at no file a clone lacks."""

import re
from pathlib import Path

from poker.engine.rules import Game

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
RULES = DOCS / "rules.md"
CODE = ["poker", "casino", "tournaments", "accounts", "config", "tests"]


def _sections() -> dict[int, str]:
    text = RULES.read_text(encoding="utf-8")
    return {int(n): title for n, title in re.findall(r"^## (\d+)\. (.+)$", text, re.MULTILINE)}


def _cited_sections() -> set[int]:
    cited: set[int] = set()
    for top in CODE:
        for path in (REPO / top).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for first, more in re.findall(r"RULES\.md (?:sections? )?(\d)((?:-\d)?)", text):
                cited.update(range(int(first), int(more.lstrip("-") or first) + 1))
    return cited


def test_rules_sections_are_numbered_one_to_eight_in_order():
    assert list(_sections()) == list(range(1, 9))


def test_every_section_the_code_cites_is_in_docs_rules():
    assert _cited_sections()
    assert _cited_sections() <= set(_sections())


def test_every_game_the_engine_deals_is_in_docs_rules():
    text = RULES.read_text(encoding="utf-8")
    missing = [game.value for game in Game if f"`{game.value}`" not in text]
    assert not missing


def test_docs_rules_gives_no_drop_for_hands_ended_before_the_draw():
    section = RULES.read_text(encoding="utf-8").split("## 8. ", 1)[1]
    assert "No draw, no drop" in section


def test_the_docs_point_at_no_file_outside_the_repository():
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert not re.findall(r"\bshared/", text), path.name
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[\w-]*)?\)", text):
            if not re.match(r"[a-z]+:", target):  # a web address is not checked
                assert (path.parent / target).exists(), (path.name, target)
