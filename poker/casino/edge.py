"""The house edge's guard: a casino table opens only when its
configuration's stored figures (``CasinoMath``) hold the house at or above
the floor (``settings.CASINO_EDGE_FLOOR``, a share of the original bet)
against the best response, on both the solver's model edge and the
simulation's 95% lower bound.

Figures are computed once per configuration, never per request: the
default configuration's ship with the code (``DEFAULT_FIGURES``, stored
after each migrate, read from the file when the database holds none), any
other by ``manage.py casino_math --store``; a
configuration without figures is refused with the command to run.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Final

from django.conf import settings
from django.utils import timezone

from kernel.api_errors import ApiError
from poker.casino.models import CasinoMath
from poker.engine.casino import DEFAULT_PAY_TABLE, CasinoRules, PayTable
from poker.engine.casino.card_lines import card_line_parts
from poker.engine.casino.edge import EdgeFigures, below_floor, rules_digest

DEFAULT_FIGURES: Final = Path(__file__).with_name("default_math.json")
"""The default configuration's figures, written by ``manage.py casino_math
--store --json``."""


class CasinoMathMissing(ApiError):
    """No figures are stored for the configuration: nothing opened."""

    status = 409
    code = "casino_math_missing"


class HouseEdgeBelowFloor(ApiError):
    """The configuration's house edge is below the floor: nothing opened."""

    status = 409
    code = "house_edge_below_floor"


def edge_floor() -> float:
    """The least house edge a table may open with, a share of B."""
    return float(settings.CASINO_EDGE_FLOOR)


def casino_math_store(*, figures: EdgeFigures) -> CasinoMath:
    """Store (or replace) a configuration's figures."""
    fields = figures.to_json()
    digest = fields.pop("digest")
    row, _ = CasinoMath.objects.update_or_create(
        digest=digest, defaults=fields | {"computed_at": timezone.now()}
    )
    return row


def casino_math_of(rules: CasinoRules) -> CasinoMath | None:
    """The stored figures of a table's configuration, if any (one query);
    the default configuration's as shipped when the database holds none
    (emptied since the migrations ran).  Never a write."""
    digest = rules_digest(rules)
    row = CasinoMath.objects.filter(digest=digest).first()
    if row is None and digest == shipped_figures().digest:
        return CasinoMath(**shipped_figures().to_json())
    return row


def casino_math_ship(*, using: str = "default") -> CasinoMath:
    """Store the default configuration's shipped figures (after each
    migrate): they replace stored ones, so a release's regenerated file
    takes effect with its migrate."""
    fields = shipped_figures().to_json()
    rows = CasinoMath.objects.using(using)
    row, _ = rows.update_or_create(digest=fields.pop("digest"), defaults=fields)
    return row


def edge_guard(rules: CasinoRules) -> CasinoMath:
    """The configuration's figures, or a refusal: none stored (with the
    command that computes them), or a figure below the floor."""
    row = casino_math_of(rules)
    if row is None:
        command = store_command(rules)
        raise CasinoMathMissing(
            "No house-edge figures are stored for this configuration; "
            f"compute them first (minutes): {command}",
            extra={"command": command},
        )
    floor = edge_floor()
    below = below_floor(row.model_edge, row.simulated_low, floor)
    if below:
        raise HouseEdgeBelowFloor(
            f"The house edge against the best player is below the floor of {floor:.3%}: "
            + " and ".join(below)
            + ".",
            extra={"house_math": staff_figures(row)},
        )
    return row


def store_command(rules: CasinoRules) -> str:
    """The command that computes and stores ``rules``' figures."""
    changed = {
        line: pays
        for line, pays in rules.pay_table.to_json().items()
        if DEFAULT_PAY_TABLE.to_json()[line] != pays
    }
    pays = "".join(f" --pay {line}={n}" for line, n in changed.items())
    return f"manage.py casino_math --store --jokers {rules.jokers}{pays}"


def casino_math_list() -> list[dict[str, Any]]:
    """Every stored configuration with its figures, for staff, the default
    configuration's first (as shipped when the database holds none)."""
    shipped = shipped_figures().digest
    rows = list(CasinoMath.objects.exclude(digest=shipped).order_by("id"))
    default = casino_math_of(CasinoRules())
    assert default is not None
    return [
        {"jokers": row.jokers, "pay_table": PayTable.from_json(row.pay_table).to_json()}
        | staff_figures(row)
        for row in [default, *rows]
    ]


def staff_figures(row: CasinoMath) -> dict[str, Any]:
    """Every figure the guard read, and the floor, for staff."""
    return {
        "digest": row.digest,
        "model_edge": row.model_edge,
        "simulated_edge": row.simulated_edge,
        "simulated_confidence": [row.simulated_low, row.simulated_high],
        "rounds": row.rounds,
        "largest_payout": row.largest_payout,
        "floor": edge_floor(),
        "computed_at": row.computed_at.isoformat(),
    }


def published_figures(row: CasinoMath | None) -> dict[str, Any]:
    """What a player can learn of the table's configuration: its house
    edge (the simulated best response: what that strategy really wins) and
    the best response as a strategy card (its English lines, and each
    line's kind and values for a client to word in its language); null
    figures when none are stored (a table opened before they were)."""
    if row is None:
        return {"house_edge": None, "strategy_card": [], "strategy_lines": []}
    card = list(row.strategy_card)
    lines = [card_line_parts(line) for line in card]
    return {"house_edge": row.simulated_edge, "strategy_card": card, "strategy_lines": lines}


@cache
def shipped_figures() -> EdgeFigures:
    """The default configuration's figures as shipped."""
    return EdgeFigures.from_json(json.loads(DEFAULT_FIGURES.read_text()))
