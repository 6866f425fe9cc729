"""The tournament rules are pure: no Django, no I/O, only the standard
library and the game engine; randomness enters in one module, from a seed."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import tournaments.rules

RULES = Path(tournaments.rules.__file__).parent
RANDOMNESS = {"secrets", "random", "os", "time", "datetime", "uuid"}
IO = {"io", "socket", "pathlib", "subprocess", "logging", "sqlite3", "shutil", "tempfile"}


def imports(path: Path) -> set[str]:
    """Every module named by an absolute import in ``path``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def roots(path: Path) -> set[str]:
    return {name.split(".")[0] for name in imports(path)}


def modules() -> list[Path]:
    return sorted(RULES.rglob("*.py"))


def test_rules_import_nothing_from_django() -> None:
    assert [p.name for p in modules() if "django" in roots(p)] == []


def test_rules_import_only_the_standard_library_the_engine_and_themselves() -> None:
    allowed = set(sys.stdlib_module_names) | {"poker", "tournaments"}
    for path in modules():
        assert roots(path) <= allowed, path
        project = {n for n in imports(path) if n.split(".")[0] in {"poker", "tournaments"}}
        assert all(n.startswith(("poker.engine", "tournaments.rules")) for n in project), path


def test_rules_do_no_io() -> None:
    assert [p.name for p in modules() if roots(p) & IO] == []


def test_only_the_draw_module_touches_randomness() -> None:
    users = {p.name for p in modules() if roots(p) & RANDOMNESS}
    assert users <= {"draw.py"}
