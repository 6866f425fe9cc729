"""Random valid table configurations for hypothesis, drawn within each
setting's declared bounds (``poker.engine.settings``) and the rules that tie
settings together (the game's seats, the buy-ins' order, the bet window)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from poker.engine.rules import AnteBy, Betting, Game, Rules, TieBreak
from poker.engine.table import TableConfig
from poker.engine.table.config import setting

CHIPS = 10**12
"""The most chips drawn (the API's cap, far below what a column holds)."""

NAMES = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    max_size=setting("name").bounds.high,
)
"""Any text a table name may be (PostgreSQL stores no NUL)."""


def within(name: str, low: int | None = None, high: int | None = None) -> st.SearchStrategy[int]:
    """Whole numbers setting ``name`` allows, narrowed to ``low``/``high``."""
    bounds = setting(name).bounds
    least = max(x for x in (bounds.low, low) if x is not None)
    most = min(x for x in (bounds.high, high, CHIPS) if x is not None)
    return st.integers(least, most)


@st.composite
def rules(draw: Any) -> Rules:
    """Any game, betting and stakes."""
    small = draw(within("small_blind", high=10**6))
    return Rules(
        draw(st.sampled_from(Game)),
        draw(st.sampled_from(Betting)),
        small,
        draw(within("big_blind", low=small, high=10**7)),
        draw(within("ante", high=10**6)),
        draw(st.sampled_from(AnteBy)),
        draw(st.sampled_from(TieBreak)),
    )


@st.composite
def configs(draw: Any) -> TableConfig:
    """Any valid configuration: a cash table or a tournament's."""
    table_rules = draw(rules())
    low = draw(within("min_buy_in"))
    action = draw(within("action_seconds"))
    tournament = draw(st.none() | within("tournament", high=2**62))
    return TableConfig(
        table_rules,
        draw(within("seats", high=table_rules.variant.max_players)),
        low,
        draw(st.none() | within("max_buy_in", low=low)),
        name=draw(NAMES),
        action_seconds=action,
        draw_seconds=draw(within("draw_seconds")),
        bet_seconds=draw(within("bet_seconds", high=action)),
        parole_seconds=draw(within("parole_seconds")),
        time_bank_seconds=draw(within("time_bank_seconds")),
        time_bank_refill_hands=draw(within("time_bank_refill_hands")),
        pause_seconds=draw(within("pause_seconds")),
        rake_basis_points=draw(within("rake_basis_points")),
        rake_cap=draw(st.none() | within("rake_cap")),
        rake_min_pot=draw(within("rake_min_pot")),
        tournament=tournament,
        tournament_table=None
        if tournament is None
        else draw(st.none() | within("tournament_table")),
    )
