"""What a ledger reference names, for people: a transfer's ``ref`` is an
internal key ("table-2@2", "casino-1@5:0", "tournament:1"); a history
shows the table's or tournament's name instead, with its kind and id for
a link.

The apps that own tables and tournaments name theirs when asked
(``names_wanted``, a signal each connects in its ``ready()``), so
accounts names them without importing an app above it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, cast

from django.dispatch import Signal

REF = re.compile(r"^(?P<kind>table|casino|tournament)[-:](?P<id>[0-9]{1,18})(?=$|[@/])")
"""The kinds of reference that name something: ``table-<id>@...``,
``casino-<id>@...``, ``tournament:<id>``."""

names_wanted = Signal()
"""Sent with ``kind`` ("table", "casino", "tournament") and ``ids``: the
app that owns that kind answers their names (an id it does not know left
out), every other receiver an empty dict."""


def names_of(kind: str, ids: set[int]) -> dict[int, str]:
    """The names of the ``ids`` of ``kind``, from whichever app owns it."""
    names: dict[int, str] = {}
    for _, answer in names_wanted.send(sender=None, kind=kind, ids=ids):
        names.update(cast(dict[int, str], answer))
    return names


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
    names = {kind: names_of(kind, ids) for kind, ids in wanted.items()}
    return {
        ref: {"kind": kind, "id": pk, "name": names[kind].get(pk)}
        for ref, (kind, pk) in parsed.items()
    }
