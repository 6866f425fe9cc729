"""Stored events read in today's shape, whatever shape they were written in.

Every stored event carries the schema it was written under (``Event.schema``).
``SCHEMA`` is the one written now; an older row is brought up to it on its
way out of the store (``eventstore.load``, ``load_feed``, ``recorded``) by
the upcaster of its kind of stream, a chain of per-version steps:
``steps[n]`` turns a schema-n row into a schema-(n+1) row.  Nothing but
the store's reads calls it, so decoders, projections and client frames
only ever see the current names and fields; the rows themselves are never
rewritten (events are append-only).

Schema 1 stores the Python class name as the type. Schema 2 writes the
stable ``<kind>.<fact>`` names declared beside each event union. Schema 3
(what the code writes) commits to each card position of a hand's deck and
reshuffles (``HandStarted.root``, ``MuckReshuffled.root``,
docs/fair-deal.md). To change an event's shape later, bump ``SCHEMA`` and
give each kind of stream a step for the old number: renamed types in
``Step.types``, renamed fields in ``Step.fields`` (keyed by the type's name
after the step), anything else in ``Step.convert``.

Each app registers the upcasters of its own streams (``register``): poker
its hands and tables (``poker.upcast``), tournaments its streams when it is
ready.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

SCHEMA = 3
"""The schema new events are written under."""

Row = tuple[str, dict[str, Any]]
"""A stored event's type name and data."""


@dataclass(frozen=True)
class Step:
    """What changed from one schema to the next for one kind of stream."""

    types: Mapping[str, str] = field(default_factory=dict)
    """Old type name -> new type name."""
    fields: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """New type name -> {old field name: new field name}."""
    convert: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None
    """Any other change of the data, given the new type name."""

    def __call__(self, type: str, data: dict[str, Any]) -> Row:
        type = self.types.get(type, type)
        renamed = self.fields.get(type)
        if renamed:
            data = {renamed.get(k, k): v for k, v in data.items()}
        if self.convert is not None:
            data = self.convert(type, data)
        return type, data


@dataclass(frozen=True)
class Upcaster:
    """The steps of one kind of stream: ``steps[n]`` reads schema n as n + 1
    (a schema with no step left nothing of this kind to change)."""

    steps: Mapping[int, Step]

    def __call__(self, type: str, data: dict[str, Any], schema: int, to: int = SCHEMA) -> Row:
        """The row written under ``schema`` as schema ``to`` would have it."""
        if schema > to:
            raise ValueError(f"schema {schema} is newer than this code ({to})")
        for n in range(schema, to):
            step = self.steps.get(n)
            if step is not None:
                type, data = step(type, data)
        return type, data

    def stored_names(self, type: str, to: int = SCHEMA) -> set[str]:
        """Every name a row that reads as ``type`` may be stored under (for
        queries on the ``type`` column)."""
        names = {type}
        for n in range(to - 1, 0, -1):
            step = self.steps.get(n)
            if step is not None:
                names |= {old for old, new in step.types.items() if new in names}
        return names


_upcasters: dict[str, Upcaster] = {}


def register(prefix: str, upcaster: Upcaster) -> None:
    """Read the streams whose names start with ``prefix`` through ``upcaster``."""
    _upcasters[prefix] = upcaster


def upcaster_of(stream: str) -> Upcaster:
    for prefix, upcaster in _upcasters.items():
        if stream.startswith(prefix):
            return upcaster
    raise LookupError(f"no upcaster reads stream {stream}")


def current(stream: str, type: str, data: dict[str, Any], schema: int) -> Row:
    """A row of ``stream`` stored under ``schema``, in today's shape."""
    if schema == SCHEMA:
        return type, data
    return upcaster_of(stream)(type, data, schema)
