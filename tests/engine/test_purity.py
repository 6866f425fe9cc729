"""The engine is pure: no Django, no I/O, nothing but the standard library
(and numpy for the casino's game math, which is arithmetic on arrays)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import poker.engine

ENGINE = Path(poker.engine.__file__).parent
ALLOWED_ROOTS = {"poker"} | set(sys.stdlib_module_names)
RANDOMNESS = {"secrets", "random", "os", "time", "datetime"}
GAME_MATH = {ENGINE / "casino" / "solve.py": {"numpy"}}
"""Modules allowed one library more: the casino's best-response solver."""


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_engine_imports_nothing_from_django() -> None:
    offenders = [p.name for p in engine_modules() if "django" in imported_roots(p)]
    assert offenders == []


def test_engine_imports_only_the_standard_library() -> None:
    for path in engine_modules():
        assert imported_roots(path) <= ALLOWED_ROOTS | GAME_MATH.get(path, set()), path


def test_only_the_card_module_touches_randomness() -> None:
    # Shuffling is the one impure step and lives in cards.shuffled, outside
    # the hand logic: a hand is a pure function of (rules, deck, commands).
    users = {p.name for p in engine_modules() if imported_roots(p) & RANDOMNESS}
    assert users <= {"cards.py"}
