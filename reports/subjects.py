"""What a ledger movement belongs to, from its transfer's ``ref``.

The room names its own movements after the stream whose event made them
(``table-7@12``: table 7's stream at version 12, ``table-7@12/rake`` its
rake; ``tournament:4`` or ``tournament-4@20``: tournament 4).  The part
before ``@`` is cut in SQL (``subject_of``), so a report groups by it; the
few distinct subjects are then matched here against ``SUBJECTS`` and
named from their rows, one query for each kind of subject.

A casino table's settlements are ``casino-3@9:2`` (table 3's stream at
version 9, box 2): the subject ``casino_table``.  A new kind of subject is
one more ``SubjectKind`` with a function reading its ids, names and game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, CharField, F, Value, When
from django.db.models.expressions import Combinable
from django.db.models.functions import Left, StrIndex

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


@dataclass(frozen=True)
class SubjectKind:
    """Refs that ``pattern`` matches (its group 1: the id) name a ``name``."""

    name: str
    pattern: re.Pattern[str]
    rows: Rows


def _tables(ids: list[int]) -> Any:
    return Table.objects.filter(pk__in=ids).values_list("pk", "name", "game")


def _tournaments(ids: list[int]) -> Any:
    return Tournament.objects.filter(pk__in=ids).values_list("pk", "name", "game")


def _casino_tables(ids: list[int]) -> Any:
    """Casino tables all play the one house game (not a column)."""
    names = CasinoTable.objects.filter(pk__in=ids).values_list("pk", "name")
    return [(pk, name, CASINO_GAME) for pk, name in names]


SUBJECTS: tuple[SubjectKind, ...] = (
    SubjectKind("table", re.compile(r"^table-(\d{1,18})$"), _tables),
    SubjectKind("tournament", re.compile(r"^tournament[:-](\d{1,18})$"), _tournaments),
    SubjectKind("casino_table", re.compile(r"^casino-(\d{1,18})$"), _casino_tables),
)


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
    wanted: dict[str, tuple[SubjectKind, int]] = {}
    for ref in set(refs):
        for kind in SUBJECTS:
            if match := kind.pattern.match(ref):
                wanted[ref] = (kind, int(match[1]))
                break
    named: dict[tuple[str, int], tuple[str, str]] = {}
    for kind in SUBJECTS:
        ids = sorted({pk for k, pk in wanted.values() if k is kind})
        if ids:
            named.update({(kind.name, pk): (name, game) for pk, name, game in kind.rows(ids)})
    out = {}
    for ref, (kind, pk) in wanted.items():
        name, game = named.get((kind.name, pk), ("", ""))
        out[ref] = Subject(kind.name, pk, name, game)
    return out
