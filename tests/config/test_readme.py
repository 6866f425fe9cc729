"""The README and the configuration page stay true to the code: the table
of docs/configuration.md names every environment variable the code reads,
and the README points only at files a clone has.

The variables are found by reading the source (``ast``), not by a list kept
here: ``env.<kind>("NAME", ...)`` and ``env("NAME")`` (django-environ),
``os.environ.get("NAME")``, ``os.environ["NAME"]`` and ``os.getenv("NAME")``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
CONFIGURATION = REPO / "docs" / "configuration.md"
SOURCES = [
    "config",
    "kernel",
    "poker",
    "casino",
    "tournaments",
    "accounts",
    "bench",
    "manage.py",
    "tests/conftest.py",
]
"""The code whose environment reads are configuration: the service, the
benchmarks and the test setup every test shares."""
NOT_CONFIGURATION = {
    "PYTEST_XDIST_TESTRUNUID": "set by pytest-xdist for each run, never by a person",
}
MISSING = object()


def _python_files() -> list[Path]:
    files: list[Path] = []
    for name in SOURCES:
        path = REPO / name
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return [f for f in files if "migrations" not in f.parts]


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _is_os_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and _is_name(node.value, "os")


def _literal(node: ast.AST | None) -> Any:
    if node is None:
        return MISSING
    try:
        return ast.literal_eval(node)
    except ValueError:
        return MISSING


def environment_reads(tree: ast.AST) -> list[tuple[str, Any]]:
    """(name, default) of every environment read in ``tree`` whose name is a
    literal; the default is ``MISSING`` when none is given or it is computed."""
    reads: list[tuple[str, Any]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_os_environ(node.value):
            if isinstance(node.ctx, ast.Load):
                reads.append((_literal(node.slice), MISSING))
            continue
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        django_environ = _is_name(func, "env") or (
            isinstance(func, ast.Attribute) and _is_name(func.value, "env")
        )
        os_read = isinstance(func, ast.Attribute) and (
            (func.attr == "get" and _is_os_environ(func.value))
            or (func.attr == "getenv" and _is_name(func.value, "os"))
        )
        if not (django_environ or os_read):
            continue
        keywords = {k.arg: k.value for k in node.keywords}
        default = keywords.get("default", node.args[1] if len(node.args) > 1 else None)
        reads.append((_literal(node.args[0]), _literal(default)))
    return [(name, default) for name, default in reads if isinstance(name, str)]


def code_variables() -> dict[str, list[Any]]:
    """Each variable the code reads, with the literal defaults it is read with."""
    found: dict[str, list[Any]] = {}
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name, default in environment_reads(tree):
            if name not in NOT_CONFIGURATION:
                found.setdefault(name, []).append(default)
    return found


def readme_table() -> dict[str, tuple[str, str]]:
    """The table of docs/configuration.md: variable -> (default, effect)."""
    text = CONFIGURATION.read_text(encoding="utf-8")
    section = text.split("\n| variable | default | effect |\n", 1)[1].split("\n\n", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`([A-Z][A-Z0-9_]*)`", cells[0]) if len(cells) == 3 else None
        if match:
            rows[match.group(1)] = (cells[1], cells[2])
    return rows


def _shown(default: Any) -> str | None:
    """How the table writes a literal default, or None for one it words."""
    if isinstance(default, bool) or default is MISSING or default in ("", [], None):
        return None
    if isinstance(default, list | tuple):
        return ",".join(str(d) for d in default)
    return str(default)


def test_the_finder_sees_every_kind_of_environment_read():
    tree = ast.parse(
        "env.str('A', default='x')\nenv.int('B', default=3)\nenv('C')\n"
        "os.environ.get('D', 'y')\nos.environ['E']\nos.getenv('F')\n"
        "env.list('G', default=['p', 'q'])\nos.environ.setdefault('H', 'z')\n"
        "os.environ['I'] = '1'\nother.get('J')\n"
    )
    assert sorted(environment_reads(tree), key=lambda r: r[0]) == [
        ("A", "x"), ("B", 3), ("C", MISSING), ("D", "y"), ("E", MISSING), ("F", MISSING),
        ("G", ["p", "q"]),
    ]  # fmt: skip


def test_settings_read_from_the_environment_are_found():
    found = code_variables()
    assert {"DATABASE_URL", "SECRET_KEY", "REDIS_URL", "STATIC_ROOT", "LOG_LEVEL"} <= set(found)


def test_every_environment_variable_the_code_reads_is_in_the_configuration_table():
    missing = sorted(set(code_variables()) - set(readme_table()))
    assert not missing, f"add these to the table of docs/configuration.md: {missing}"


def test_every_row_of_the_configuration_table_gives_a_default_and_an_effect():
    for name, (default, effect) in readme_table().items():
        assert default and effect, name


def test_the_configuration_table_names_no_variable_the_code_does_not_read():
    stale = sorted(set(readme_table()) - set(code_variables()))
    assert not stale, f"docs/configuration.md names unread variables: {stale}"


def test_literal_defaults_in_the_code_are_the_ones_in_the_table():
    table = readme_table()
    for name, defaults in code_variables().items():
        for default in defaults if name in table else ():
            shown = _shown(default)
            if shown is not None:
                assert f"`{shown}`" in table[name][0], (name, default, table[name][0])


def test_the_readme_points_at_no_file_outside_the_repository():
    text = README.read_text(encoding="utf-8")
    assert not re.findall(r"\bshared/", text)


def test_every_docs_file_the_readme_names_exists():
    text = README.read_text(encoding="utf-8")
    named = set(re.findall(r"\bdocs/[\w./-]+\.md\b", text))
    assert "docs/rules.md" in named
    for path in sorted(named):
        assert (REPO / path).is_file(), path


def test_every_link_of_the_readme_leads_to_a_file_of_the_repository():
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[\w-]*)?\)", text)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert "docs/configuration.md" in local
    for target in local:
        assert (REPO / target).exists(), target


def test_the_readme_is_a_front_page():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250
