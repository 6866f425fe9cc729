"""A casino table's settings: its name, the game's rules, the bounds of the
original bet, the number of boxes and the clocks."""

from __future__ import annotations

from dataclasses import dataclass, field

from poker.engine.casino.decide import PAY_TABLE_SETTINGS, RULE_SETTINGS
from poker.engine.casino.rules import MAX_BOXES, CasinoRules
from poker.engine.errors import Malformed
from poker.engine.settings import bounded, check_all, settings_of


@dataclass(frozen=True, slots=True)
class CasinoTableConfig:
    """What staff choose when opening a casino table (bounds in each
    field's metadata, ``poker.engine.settings``)."""

    name: str = field(metadata=bounded(1, 64))
    rules: CasinoRules = field(default_factory=CasinoRules)
    min_bet: int = field(default=10, metadata=bounded(1, chips=True))
    """The least original bet B."""
    max_bet: int = field(default=100, metadata=bounded(1, chips=True))
    """The most original bet B."""
    boxes: int = field(default=MAX_BOXES, metadata=bounded(1, MAX_BOXES))
    """Boxes at the table, one player each (RULES.md 5: one to four)."""
    bet_seconds: int = field(default=20, metadata=bounded(1, 600))
    """The betting window, from the first bet of a round."""
    decision_seconds: int = field(default=20, metadata=bounded(1, 600))
    """Each box's clock in an exchange or the decision."""

    def check(self) -> None:
        """Refuse a configuration out of its bounds (``Malformed``)."""
        check_all(self, CONFIG_SETTINGS)
        check_all(self.rules, RULE_SETTINGS)
        check_all(self.rules.pay_table, PAY_TABLE_SETTINGS)
        if self.max_bet < self.min_bet:
            raise Malformed("the most original bet is less than the least")


CONFIG_SETTINGS = settings_of(CasinoTableConfig, skip=("rules",))
"""The casino table's own settings (the rules' are ``RULE_SETTINGS`` and
``PAY_TABLE_SETTINGS``)."""
