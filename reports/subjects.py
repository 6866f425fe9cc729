"""What a ledger movement belongs to, from its transfer's ``ref``.

The room names its own movements after the stream whose event made them
(``table-7@12``: table 7's stream at version 12; ``hand-7-3@9``: hand 3 of
table 7; ``tournament:4`` or ``tournament-4@20``: tournament 4).  The
part before ``@`` is cut in SQL (``subject_of``), so a report groups by
it; the few distinct subjects are then read here and named from the
tables' and tournaments' rows in one query each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Case, CharField, F, Value, When
from django.db.models.expressions import Combinable
from django.db.models.functions import Left, StrIndex

from poker.models import Table
from tournaments.models import Tournament

_TABLE = re.compile(r"^(?:table|hand)-(\d{1,18})(?:-\d+)?$")
_TOURNAMENT = re.compile(r"^tournament[:-](\d{1,18})$")


def subject_of(ref: str) -> Combinable:
    """SQL for the part of the field ``ref`` before its first ``@``."""
    at = StrIndex(F(ref), Value("@"))
    return Case(
        When(**{f"{ref}__contains": "@"}, then=Left(F(ref), at - 1)),
        default=F(ref),
        output_field=CharField(),
    )


@dataclass(frozen=True)
class Subject:
    """A table or a tournament (or neither: a cashier's movement), named."""

    table: int | None = None
    tournament: int | None = None
    name: str = ""
    game: str = ""


def subjects_named(refs: Iterable[str]) -> dict[str, Subject]:
    """Each of ``refs`` (cut by ``subject_of``) as the table or tournament
    it names, with its name and game."""
    tables: dict[str, int] = {}
    tournaments: dict[str, int] = {}
    for ref in set(refs):
        if match := _TABLE.match(ref):
            tables[ref] = int(match[1])
        elif match := _TOURNAMENT.match(ref):
            tournaments[ref] = int(match[1])
    table_rows = Table.objects.filter(pk__in=tables.values()).values_list("pk", "name", "game")
    tournament_rows = Tournament.objects.filter(pk__in=tournaments.values()).values_list(
        "pk", "name", "game"
    )
    table_names = {pk: (name, game) for pk, name, game in table_rows}
    tournament_names = {pk: (name, game) for pk, name, game in tournament_rows}
    out = {ref: Subject(table=pk, **_named(table_names.get(pk))) for ref, pk in tables.items()}
    for ref, pk in tournaments.items():
        out[ref] = Subject(tournament=pk, **_named(tournament_names.get(pk)))
    return out


def _named(row: tuple[str, str] | None) -> dict[str, str]:
    return {} if row is None else {"name": row[0], "game": row[1]}
