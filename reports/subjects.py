"""What a ledger movement belongs to, from its transfer's ``ref``.

The room names its own movements after the stream whose event made them
(``table-7@12``: table 7's stream at version 12, ``table-7@12/rake`` its
rake; ``tournament:4`` or ``tournament-4@20``: tournament 4).  The part
before ``@`` is cut in SQL (``subject_of``), so a report groups by it; the
few distinct subjects are then read as ledger references
(``accounts.references.parse``) and named from their rows, one query for
each kind of subject.

A casino table's settlements are ``casino-3@9:2`` (table 3's stream at
version 9, box 2): the subject ``casino_table``.  A new kind of subject is
one more entry of ``SUBJECTS`` with a function reading its ids, names and
game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, CharField, F, Value, When
from django.db.models.expressions import Combinable
from django.db.models.functions import Left, StrIndex

from accounts.references import parse
from casino.models import CasinoTable
from poker.engine.casino import GAME as CASINO_GAME
from poker.models import Table
from tournaments.models import Tournament

Rows = Callable[[list[int]], Iterable[tuple[int, str, str]]]
"""Ids -> each one's (id, name, game)."""


def subject_of(ref: str) -> Combinable:
    """SQL for the part of the field ``ref`` before its first ``@``."""
    at = StrIndex(F(ref), Value("@"))
    return Case(
        When(**{f"{ref}__contains": "@"}, then=Left(F(ref), at - 1)),
        default=F(ref),
        output_field=CharField(),
    )


def _tables(ids: list[int]) -> Any:
    return Table.objects.filter(pk__in=ids).values_list("pk", "name", "game")


def _tournaments(ids: list[int]) -> Any:
    return Tournament.objects.filter(pk__in=ids).values_list("pk", "name", "game")


def _casino_tables(ids: list[int]) -> Any:
    """Casino tables all play the one house game (not a column)."""
    names = CasinoTable.objects.filter(pk__in=ids).values_list("pk", "name")
    return [(pk, name, CASINO_GAME) for pk, name in names]


SUBJECTS: dict[str, tuple[str, Rows]] = {
    "table": ("table", _tables),
    "tournament": ("tournament", _tournaments),
    "casino": ("casino_table", _casino_tables),
}
"""A reference's kind -> the subject's kind in the reports, and its rows."""


@dataclass(frozen=True)
class Subject:
    """A table or a tournament (or nothing: a cashier's movement), named."""

    kind: str = ""
    id: int | None = None
    name: str = ""
    game: str = ""


def subjects_named(refs: Iterable[str]) -> dict[str, Subject]:
    """Each of ``refs`` (cut by ``subject_of``) that names something, as
    the subject it names, with its name and game."""
    wanted = {ref: found for ref in set(refs) if (found := parse(ref))}
    named: dict[tuple[str, int], tuple[str, str]] = {}
    for kind, (_, rows) in SUBJECTS.items():
        ids = sorted({pk for k, pk in wanted.values() if k == kind})
        if ids:
            named.update({(kind, pk): (name, game) for pk, name, game in rows(ids)})
    return {
        ref: Subject(SUBJECTS[kind][0], pk, *named.get((kind, pk), ("", "")))
        for ref, (kind, pk) in wanted.items()
    }
