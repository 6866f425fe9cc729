"""Input shapes of the casino-table API (validation only: the services decide)."""

from __future__ import annotations

from rest_framework import serializers

from accounts.api.serializers import MEMO_MAX_LENGTH, transfer_id
from kernel.api import AnyField, Pattern, Query, StrictInteger, Text, chips, command_id
from poker.engine.cards import CARD_PATTERN
from poker.engine.casino import PAY_TABLE_SETTINGS
from poker.engine.casino.rules import MAX_BOXES, MAX_JOKERS
from poker.engine.casino.table.config import CONFIG_SETTINGS

ROUND_ID = r"^[0-9]{1,18}-[0-9]{1,9}$"
"""A round's id: ``<table id>-<number>``."""


def _bounds(name: str) -> tuple[int | None, int | None]:
    setting = next(s for s in CONFIG_SETTINGS if s.name == name)
    return setting.bounds.low, setting.bounds.high


class PayTableIn(serializers.Serializer[dict[str, object]]):
    """ "N to 1" on BET by hand; a line left out keeps the default (RULES.md 5)."""

    def get_fields(self) -> dict[str, AnyField]:
        return {
            s.name.replace("_", "-"): StrictInteger(
                min_value=s.bounds.low, max_value=s.bounds.high, required=False
            )
            for s in PAY_TABLE_SETTINGS
        }


class CasinoTableIn(serializers.Serializer[dict[str, object]]):
    """A casino table to open (staff)."""

    name = Text(min_length=_bounds("name")[0], max_length=_bounds("name")[1])
    jokers = StrictInteger(min_value=0, max_value=MAX_JOKERS, default=2)
    pay_table = PayTableIn(required=False)
    min_bet = chips(min_value=1, default=10)
    max_bet = chips(min_value=1, default=100)
    boxes = StrictInteger(min_value=1, max_value=MAX_BOXES, default=MAX_BOXES)
    bet_seconds = StrictInteger(
        min_value=_bounds("bet_seconds")[0], max_value=_bounds("bet_seconds")[1], default=20
    )
    decision_seconds = StrictInteger(
        min_value=_bounds("decision_seconds")[0],
        max_value=_bounds("decision_seconds")[1],
        default=20,
    )


class CasinoCommandIn(serializers.Serializer[dict[str, object]]):
    """Any command: an optional client-chosen id makes a retry safe."""

    command_id = command_id(required=False)


class CasinoSitIn(CasinoCommandIn):
    """Take an empty box."""

    box = StrictInteger(min_value=1, max_value=MAX_BOXES)


class CasinoBetIn(CasinoCommandIn):
    """Bet the original bet B on the next round."""

    amount = chips(min_value=1)


class CasinoMoveIn(serializers.Serializer[dict[str, object]]):
    """A move in the running round, at the round version the client saw."""

    round = Pattern(ROUND_ID, max_length=29)
    version = StrictInteger(min_value=0, max_value=2**31 - 1)
    command_id = command_id()


class CasinoExchangeIn(CasinoMoveIn):
    """Exchange 1 to 5 cards (the first exchange) or exactly 1 (the second)."""

    cards = serializers.ListField(child=Pattern(CARD_PATTERN), min_length=1, max_length=5)


class BankrollFundIn(serializers.Serializer[dict[str, object]]):
    """Money into the house's bankroll, under the cashier's transfer id."""

    amount = chips(min_value=1)
    transfer_id = transfer_id()
    memo = Text(max_length=MEMO_MAX_LENGTH, required=False, default="")


class RoundPageQuery(Query):
    """A page of a player's casino rounds."""

    page = serializers.IntegerField(min_value=1, required=False)
    page_size = serializers.IntegerField(min_value=1, max_value=100, required=False)
