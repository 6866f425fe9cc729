"""What a ledger reference names, for people: a transfer's ``ref`` is an
internal key ("table-2@2", "casino-1@5:0", "tournament:1"); a history
shows the table's or tournament's name instead, with its kind and id for
a link.

The apps that own tables and tournaments register how to name theirs
(``namer_register``, from their ``ready()``), so accounts names them
without importing an app above it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

Namer = Callable[[set[int]], dict[int, str]]
"""Ids of one kind -> their names (an id it does not know is left out)."""

REF = re.compile(r"^(?P<kind>table|casino|tournament)[-:](?P<id>[0-9]{1,18})(?=$|[@/])")
"""The kinds of reference that name something: ``table-<id>@...``,
``casino-<id>@...``, ``tournament:<id>``."""

_namers: dict[str, Namer] = {}


def namer_register(kind: str, namer: Namer) -> None:
    """Name the references of ``kind`` ("table", "casino", "tournament")."""
    _namers[kind] = namer


def parse(ref: str) -> tuple[str, int] | None:
    """The kind and id ``ref`` names, or None (a cashier's memo, say)."""
    match = REF.match(ref or "")
    return (match["kind"], int(match["id"])) if match else None


def subjects(refs: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Each reference that names something -> ``{"kind", "id", "name"}``,
    one query per kind for all of them."""
    parsed = {ref: p for ref in set(refs) if (p := parse(ref))}
    wanted: dict[str, set[int]] = {}
    for kind, pk in parsed.values():
        wanted.setdefault(kind, set()).add(pk)
    names = {kind: _namers[kind](ids) if kind in _namers else {} for kind, ids in wanted.items()}
    return {
        ref: {"kind": kind, "id": pk, "name": names[kind].get(pk)}
        for ref, (kind, pk) in parsed.items()
    }
