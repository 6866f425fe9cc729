"""A tournament definition from the API's plain data, and a satellite's
target resolved to a tournament.

The rules validate (``InvalidDefinition`` names the field); here the
nested parts are built in order and a refusal of one of them is named by
its place in the whole (``structure.levels[2].big_blind``), so a client
sees the same ``fields`` shape as for any invalid input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from poker.engine.rules import AnteBy, Betting, Game, TieBreak
from tournaments.errors import BadTarget, refusal
from tournaments.models import Tournament
from tournaments.rules import (
    BlindLevel,
    Bounty,
    Break,
    Clocks,
    InvalidDefinition,
    PayoutTable,
    PayoutTier,
    Rebuys,
    Satellite,
    Structure,
    TournamentDefinition,
    definition_from_json,
)
from tournaments.rules.presets import standard_structure, thirty_two_card_draw_satellite_structure
from tournaments.rules.structure import MINUTE

T = TypeVar("T")

PRESETS: dict[str, Callable[[int], Structure]] = {
    "standard": standard_structure,
    "satellite": thirty_two_card_draw_satellite_structure,
}
"""Ready-made structures by name (``{"preset": name, "minutes": n}``)."""


def _part(path: str, make: Callable[..., T], data: Mapping[str, Any]) -> T:
    """``make(**data)``, a refusal named under ``path``."""
    try:
        return make(**data)
    except InvalidDefinition as error:
        raise error.within(path) from None


def structure_build(data: Mapping[str, Any]) -> Structure:
    """A preset (``preset``, ``minutes``) or the levels and breaks given."""
    scale = data.get("minute_seconds", MINUTE)
    if data.get("preset"):
        preset = PRESETS[data["preset"]](data.get("minutes") or 20)
        return _part("structure", lambda **f: replace(preset, **f), {"minute_seconds": scale})
    levels = tuple(
        _part(f"structure.levels[{i}]", BlindLevel, level)
        for i, level in enumerate(data.get("levels") or ())
    )
    breaks = tuple(
        _part(f"structure.breaks[{i}]", Break, pause)
        for i, pause in enumerate(data.get("breaks") or ())
    )
    fields = {"levels": levels, "breaks": breaks, "minute_seconds": scale}
    return _part("structure", Structure, fields)


def satellite_for(target: int, seats: int | None) -> Satellite:
    """A satellite into tournament ``target``: each seat is worth the
    target's entry price (buy-in, bounty and fee), so its ticket pays a
    whole entry there (the service checks the target still takes entries)."""
    row = Tournament.objects.filter(pk=target).first()
    if row is None:
        raise BadTarget(extra={"fields": {"satellite.target": [BadTarget.message]}})
    price = definition_from_json(row.definition).entry_price
    fields = {"target": str(row.pk), "target_buy_in": price, "seats": seats}
    return _part("satellite", Satellite, fields)


def definition_build(data: Mapping[str, Any]) -> TournamentDefinition:
    """The rules' definition from validated API data; ``ApiError`` (400,
    with ``fields``) for one the rules refuse."""
    fields = dict(data)
    try:
        fields["game"] = Game(fields["game"])
        fields["betting"] = Betting(fields["betting"])
        fields["ante_by"] = AnteBy(fields.get("ante_by", "all"))
        fields["tie_break"] = TieBreak(fields.get("tie_break", "suit"))
        fields["structure"] = structure_build(fields["structure"])
        if fields.get("rebuys") is not None:
            fields["rebuys"] = _part("rebuys", Rebuys, fields["rebuys"])
        if fields.get("satellite") is not None:
            fields["satellite"] = satellite_for(**fields["satellite"])
        if fields.get("bounty") is not None:
            fields["bounty"] = _part("bounty", Bounty, fields["bounty"])
        if fields.get("payouts") is not None:
            fields["payouts"] = _payouts(fields["payouts"])
        if "clocks" in fields:
            fields["clocks"] = _part("clocks", Clocks, fields["clocks"])
        return TournamentDefinition(**fields)
    except InvalidDefinition as error:
        raise refusal(error) from None


def _payouts(tiers: list[Mapping[str, Any]]) -> PayoutTable:
    built = tuple(
        _part(f"payouts.tiers[{i}]", PayoutTier, {**tier, "shares": tuple(tier["shares"])})
        for i, tier in enumerate(tiers)
    )
    return _part("payouts", PayoutTable, {"tiers": built})
