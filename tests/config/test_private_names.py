"""No module of the product uses a private name (a leading underscore, not
a dunder) of Django, Channels, channels_redis, Celery, kombu, redis-py or
psycopg: every upgrade of one of them would mean checking such a use
again.  The modules are read with ``ast`` (nothing is imported):

- an import of a private module or name of one of them
  (``from django.db import connection`` is public;
  ``from channels_redis.utils import _consistent_hash`` is not);
- an attribute read through a name imported from one of them
  (``connection._cursor``);
- a private attribute of any other object (``layer._serializer``) that
  the product does not define itself and that one of those libraries does.

What remains is ``ALLOWED``, each with its reason, and Django's documented
``Model._meta`` API."""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

from redis.connection import AbstractConnection

REPO = Path(__file__).resolve().parents[2]
LIBRARIES = ("django", "channels", "channels_redis", "celery", "kombu", "redis", "psycopg")
PUBLIC = {
    "_meta": "Django's Model _meta API, documented",
    "_default_manager": "Django's Model._default_manager, documented (Managers)",
    "_replace": "a named tuple's own method (collections.namedtuple, documented)",
    "_asdict": "a named tuple's own method (collections.namedtuple, documented)",
}
"""Names with a leading underscore that are public API, and where that is said."""
ALLOWED: dict[tuple[str, str], str] = {
    ("accounts/api/views.py", "_request"): (
        "Django REST framework's Request (not one of the libraries above) holds "
        "Django's HttpRequest there, which django.contrib.auth's login and "
        "authenticate take"
    ),
}
"""(module, private name) still used, and why."""

WIRE_LEVEL = (
    *(n for n in dir(AbstractConnection) if n.split("_")[0] in ("pack", "send", "read")),
    "make_connection",
)
"""redis-py's connection-level calls (its connection's methods that pack,
send or read commands, and its pool's ``make_connection``), as redis-py
names them: a module using them speaks Redis's protocol by hand (a copy of
a library's wire format), which no name check sees."""
WIRE_COPIES: dict[str, str] = {}
"""The modules that still copy a wire format, and what (none: the copied
group send, receiver and Celery messages are gone)."""


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def product_modules() -> list[Path]:
    """Every Python file of the product: not the tests, not the venv."""
    skip = {"tests", ".venv", "node_modules", ".git"}
    return sorted(
        p
        for p in REPO.rglob("*.py")
        if not skip.intersection(p.relative_to(REPO).parts[:1])
        and not any(part.startswith(".") for part in p.relative_to(REPO).parts)
    )


def library_root(module: str | None) -> str | None:
    root = (module or "").split(".")[0]
    return root if root in LIBRARIES else None


@cache
def library_private_names() -> frozenset[str]:
    """Every private identifier that appears in the libraries' own source."""
    found: set[str] = set()
    for library in LIBRARIES:
        folder = Path(str(importlib.import_module(library).__file__)).parent
        for path in folder.rglob("*.py"):
            text = path.read_text(encoding="utf-8", errors="replace")
            found.update(re.findall(r"\b(_[A-Za-z]\w*)", text))
    return frozenset(n for n in found if is_private(n))


@cache
def product_defined_names() -> frozenset[str]:
    """Private names the product defines itself (functions, classes,
    attributes it assigns, parameters, module names), which a read of
    ``x._name`` may well mean."""
    found: set[str] = set()
    for path in product_modules():
        found.add(path.stem)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                found.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                found.add(node.id)
            elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
                found.add(node.arg)
    return frozenset(n for n in found if is_private(n))


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def private_uses(path: Path) -> list[tuple[int, str]]:
    """(line, what) of each private name of the libraries that ``path`` uses."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    from_library: set[str] = set()
    """Names bound to a library's module or object by an import."""
    other_modules: set[str] = set()
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if library_root(alias.name):
                    from_library.add(bound)
                    if any(is_private(part) for part in alias.name.split(".")):
                        out.append((node.lineno, f"import {alias.name}"))
                else:
                    other_modules.add(bound)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if not library_root(node.module):
                for alias in node.names:
                    other_modules.add(alias.asname or alias.name)
                continue
            module = node.module or ""
            for alias in node.names:
                from_library.add(alias.asname or alias.name)
                parts = [*module.split("."), alias.name]
                if any(is_private(part) for part in parts):
                    out.append((node.lineno, f"from {module} import {alias.name}"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not is_private(node.attr):
            continue
        if node.attr in PUBLIC:
            continue
        root = _root(node.value)
        if root in from_library:
            out.append((node.lineno, f"{root}...{node.attr}"))
        elif root in ("self", "cls") or root in other_modules:
            continue
        elif node.attr in library_private_names() and node.attr not in product_defined_names():
            out.append((node.lineno, f"{root or '<expr>'}...{node.attr}"))
    return out


@cache
def _found() -> dict[tuple[str, str], list[int]]:
    found: dict[tuple[str, str], list[int]] = {}
    for path in product_modules():
        for line, what in private_uses(path):
            name = what.rsplit(".", 1)[-1].rsplit(" ", 1)[-1]
            found.setdefault((str(path.relative_to(REPO)), name), []).append(line)
    return found


def test_no_product_module_uses_a_private_name_of_the_libraries():
    found = _found()
    new = {
        f"{module}:{lines} {name}"
        for (module, name), lines in found.items()
        if (module, name) not in ALLOWED
    }
    assert not new, "private names of libraries (use their public API): " + ", ".join(sorted(new))


def test_every_allowed_name_is_still_used():
    """An allowance the code no longer needs goes (the list says what remains)."""
    found = _found()
    stale = [key for key in ALLOWED if key not in found]
    assert not stale, f"remove from ALLOWED: {stale}"


def test_the_scan_finds_each_kind_of_private_use(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from channels_redis.utils import _consistent_hash\n"
        "import django.db.backends._x\n"
        "from django.db import connection\n"
        "from django.core.cache import cache\n"
        "connection._cursor()\n"
        "cache._expire_info.get('k')\n"
        "def f(layer):\n"
        "    return layer._serializer, layer._meta, layer.__class__\n",
        encoding="utf-8",
    )
    found = {what for _, what in private_uses(module)}
    assert found == {
        "from channels_redis.utils import _consistent_hash",
        "import django.db.backends._x",
        "connection..._cursor",
        "cache..._expire_info",
        "layer..._serializer",
    }


def test_only_the_known_modules_speak_redis_at_the_wire_level():
    """A copied wire format has no private name to find: the product's use
    of redis-py's connection-level calls is, and the modules that use them
    are named in ``WIRE_COPIES`` with what they copy."""
    found: set[str] = set()
    for path in product_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in WIRE_LEVEL:
                found.add(str(path.relative_to(REPO)))
    assert found <= set(WIRE_COPIES), f"wire-level Redis outside WIRE_COPIES: {found}"


def test_every_named_copy_still_exists():
    """A copy deleted leaves ``WIRE_COPIES`` with it."""
    gone = [module for module in WIRE_COPIES if not (REPO / module).is_file()]
    assert not gone, f"remove from WIRE_COPIES: {gone}"
