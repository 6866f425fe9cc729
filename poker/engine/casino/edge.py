"""A casino configuration's house edge against the best response: the
figures a table's guard reads, computed once per configuration and stored.

A configuration is what the math depends on (``solve.Settings``: jokers,
pay table, the dealer's qualifier, the ANTE's odds when he does not
qualify); ``settings_digest`` names it.  ``edge_figures`` computes its
figures: the solver's model edge, the best response played through the
engine (``report.measure``) with the 95% interval of its edge, the largest
payout of a round, and the best response as a strategy card.  A table
opens only when both the model edge and the simulation's lower bound are
at least the house's floor (``below_floor``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from poker.engine.casino.report import SEED, Size, measure, settings_of
from poker.engine.casino.rules import CasinoRules
from poker.engine.casino.solve import (
    BestResponse,
    Settings,
    largest_payout,
    solve,
    strategy_card,
)


def settings_json(settings: Settings) -> dict[str, Any]:
    """The configuration as plain JSON (the digest's input)."""
    return {
        "jokers": settings.jokers,
        "pay_table": settings.pay_table.to_json(),
        "qualifier": settings.qualifier,
        "not_qualified": str(settings.not_qualified),
    }


def settings_digest(settings: Settings) -> str:
    """The SHA-256 of the configuration's canonical JSON: one name per
    configuration, whatever order its lines were given in."""
    canonical = json.dumps(settings_json(settings), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def rules_digest(rules: CasinoRules) -> str:
    """``settings_digest`` of a table's rules (the qualifier and the
    not-qualified odds are the rules' own: RULES.md 5)."""
    return settings_digest(settings_of(rules))


@dataclass(frozen=True, slots=True)
class EdgeFigures:
    """One configuration's house edge against the best response, as a
    share of the original bet B (positive: the house wins)."""

    digest: str
    jokers: int
    pay_table: dict[str, int]
    qualifier: int
    not_qualified: str
    model_edge: float
    """The solver's figure (``Solution.house_edge``)."""
    simulated_edge: float
    """The best response played through the engine."""
    simulated_low: float
    """The lower end of the simulation's 95% interval: the pessimistic
    side for the house."""
    simulated_high: float
    rounds: int
    """Rounds simulated."""
    dealer_samples: int
    """Dealer hands the solver sampled per number of jokers held."""
    seed: int
    largest_payout: int
    """The most one box can win in a round beyond its stakes, in B."""
    strategy_card: tuple[str, ...]
    """The best response in a few plain lines (``solve.strategy_card``)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"strategy_card": list(self.strategy_card)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EdgeFigures:
        return cls(**data | {"strategy_card": tuple(data["strategy_card"])})


def edge_figures(rules: CasinoRules, size: Size) -> EdgeFigures:
    """Solve a table's configuration and play the best response for
    ``size.rounds`` rounds through the engine (minutes at full size)."""
    settings = settings_of(rules)
    solution = solve(settings, size.dealer_samples)
    house = measure(BestResponse(solution), rules, size.rounds, size.processes)
    low, high = house.confidence
    return EdgeFigures(
        digest=settings_digest(settings),
        **settings_json(settings),
        model_edge=solution.house_edge,
        simulated_edge=house.house_edge,
        simulated_low=low,
        simulated_high=high,
        rounds=house.rounds,
        dealer_samples=size.dealer_samples,
        seed=SEED,
        largest_payout=largest_payout(settings, 1),
        strategy_card=tuple(strategy_card(solution)),
    )


def below_floor(model_edge: float, simulated_low: float, floor: float) -> list[str]:
    """The figures below ``floor`` (none: the configuration may open)."""
    below = []
    if model_edge < floor:
        below.append(f"the model edge {model_edge:.3%}")
    if simulated_low < floor:
        below.append(f"the simulated edge's 95% lower bound {simulated_low:.3%}")
    return below
