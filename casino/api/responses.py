"""Output shapes of the casino-table API, for the OpenAPI schema (the
selectors build the bodies; schemathesis and the tests hold the two
together)."""

from __future__ import annotations

from rest_framework import serializers

from accounts.cards import OpeningOut, cards_out, roots_out
from casino.models import CasinoTable
from kernel.api import AnyField, choice
from poker.engine.casino import PAY_TABLE_SETTINGS, Action, Hand, Phase, Result

ACTIONS = [a.value for a in Action]
HANDS = [h.value for h in Hand]
PHASES = [p.value for p in Phase]
RESULTS = [r.value for r in Result]
CLOCK_KINDS = ["bet-window", "decision"]
"""Choices named once in the schema (``ENUM_NAME_OVERRIDES``): the pot
games' fields of the same names hold other values."""


class PayTableOut(serializers.Serializer[dict[str, object]]):
    """ "N to 1" on BET by hand."""

    def get_fields(self) -> dict[str, AnyField]:
        return {s.name.replace("_", "-"): serializers.IntegerField() for s in PAY_TABLE_SETTINGS}


class CasinoTableOut(serializers.Serializer[dict[str, object]]):
    """A casino table in the list."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    jokers = serializers.IntegerField()
    pay_table = PayTableOut()
    min_bet = serializers.IntegerField()
    max_bet = serializers.IntegerField()
    boxes = serializers.IntegerField()
    bet_seconds = serializers.IntegerField()
    decision_seconds = serializers.IntegerField()
    status = choice(CasinoTable.Status)
    version = serializers.IntegerField()
    round_number = serializers.IntegerField()
    players_seated = serializers.IntegerField()
    boxes_taken = serializers.ListField(
        child=serializers.IntegerField(), help_text="The boxes players sit in (1 to 4)."
    )


class CasinoSeatOut(serializers.Serializer[dict[str, object]]):
    """An occupied box."""

    box = serializers.IntegerField(help_text="1 to the table's boxes.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    bet = serializers.IntegerField(help_text="The original bet on the next or running round.")
    held = serializers.IntegerField(
        allow_null=True, help_text="What the round holds from your wallet (yours only)."
    )
    sitting_out = serializers.BooleanField()
    leaving = serializers.BooleanField()


class CasinoRoundBoxOut(serializers.Serializer[dict[str, object]]):
    """A box in the round; cards only your own."""

    box = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    stack = serializers.IntegerField(allow_null=True, help_text="Yours only.")
    original = serializers.IntegerField()
    ante = serializers.IntegerField()
    bet = serializers.IntegerField()
    exchanges = serializers.IntegerField()
    folded = serializers.BooleanField()
    card_count = serializers.IntegerField()
    cards = cards_out(allow_null=True)
    hand = choice(Hand, allow_null=True)
    result = choice(Result, allow_null=True)
    won = serializers.IntegerField(allow_null=True)


class CasinoDealerOut(serializers.Serializer[dict[str, object]]):
    """The dealer's hand: its cards only once he has turned them up."""

    card_count = serializers.IntegerField()
    cards = cards_out(allow_null=True)
    discarded = cards_out(allow_null=True)
    hand = choice(Hand, allow_null=True)
    qualifies = serializers.BooleanField(allow_null=True)


class CasinoLegalOut(serializers.Serializer[dict[str, object]]):
    """What you may do now."""

    actions = serializers.ListField(child=choice(Action))
    stake = serializers.IntegerField()
    max_exchange = serializers.IntegerField(required=False)


class CasinoRoundOut(serializers.Serializer[dict[str, object]]):
    """The latest round, as you may see it."""

    id = serializers.RegexField(r"^[0-9]{1,18}-[0-9]{1,9}$")
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    game = serializers.CharField()
    jokers = serializers.IntegerField()
    pay_table = PayTableOut()
    phase = choice(Phase)
    to_act = serializers.IntegerField(allow_null=True, help_text="The box to act.")
    your_box = serializers.IntegerField(allow_null=True)
    boxes = CasinoRoundBoxOut(many=True)
    dealer = CasinoDealerOut()
    legal = CasinoLegalOut(allow_null=True)


class CasinoClockOut(serializers.Serializer[dict[str, object]]):
    """The clock running: the betting window, or a box's decision clock."""

    kind = serializers.ChoiceField(choices=CLOCK_KINDS)
    box = serializers.IntegerField(allow_null=True)
    expires = serializers.DateTimeField()


class HouseMathOut(serializers.Serializer[dict[str, object]]):
    """The configuration's stored house edge against the best response,
    shares of the original bet (positive: the house wins), as the guard
    read it (staff)."""

    digest = serializers.RegexField(r"^[0-9a-f]{64}$", help_text="The configuration's.")
    model_edge = serializers.FloatField(help_text="The solver's figure.")
    simulated_edge = serializers.FloatField(
        help_text="The best response played through the engine."
    )
    simulated_confidence = serializers.ListField(
        child=serializers.FloatField(), help_text="Its 95% interval, low and high."
    )
    rounds = serializers.IntegerField(help_text="Rounds simulated.")
    largest_payout = serializers.IntegerField(
        help_text="The most a box can win in a round beyond its stakes, in original bets."
    )
    floor = serializers.FloatField(help_text="The least edge a table opens with.")
    computed_at = serializers.DateTimeField()


class CasinoMathOut(HouseMathOut):
    """A stored configuration and its figures (staff)."""

    jokers = serializers.IntegerField()
    pay_table = PayTableOut()


class CasinoTableViewOut(serializers.Serializer[dict[str, object]]):
    """A casino table as the viewer may see it."""

    table = CasinoTableOut()
    boxes = CasinoSeatOut(many=True)
    your_box = serializers.IntegerField(allow_null=True)
    round = CasinoRoundOut(allow_null=True)
    clock = CasinoClockOut(allow_null=True)
    house_math = HouseMathOut(allow_null=True, help_text="Staff only.")


class CardLineOut(serializers.Serializer[dict[str, object]]):
    """One line of the strategy card: its kind (``text``: a line no
    template writes, in ``values.text``) and the values it names."""

    kind = serializers.CharField()
    values = serializers.DictField(child=serializers.CharField())


class CasinoStrategyOut(serializers.Serializer[dict[str, object]]):
    """What a player can learn of a table's configuration."""

    table = serializers.IntegerField()
    name = serializers.CharField()
    jokers = serializers.IntegerField()
    pay_table = PayTableOut()
    house_edge = serializers.FloatField(
        allow_null=True,
        help_text="The house's edge against the best response, a share of the original bet.",
    )
    strategy_card = serializers.ListField(
        child=serializers.CharField(), help_text="The best response in a few plain lines."
    )
    strategy_lines = serializers.ListField(
        child=CardLineOut(),
        help_text="The same lines as kinds and values, to word in the reader's language.",
    )


class BankrollOut(serializers.Serializer[dict[str, object]]):
    """The house's bankroll and the most its open boxes could cost it."""

    balance = serializers.IntegerField()
    exposure = serializers.IntegerField()


class CasinoRoundSummaryOut(serializers.Serializer[dict[str, object]]):
    """A round in a player's history."""

    id = serializers.RegexField(r"^[0-9]{1,18}-[0-9]{1,9}$")
    table = serializers.IntegerField()
    table_name = serializers.CharField()
    number = serializers.IntegerField()
    game = serializers.CharField()
    phase = choice(Phase)
    boxes = serializers.ListField(
        child=serializers.IntegerField(), help_text="The boxes dealt in, in the round's order."
    )
    your_box = serializers.IntegerField(allow_null=True)
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


class CasinoSettlementOut(serializers.Serializer[dict[str, object]]):
    """A box's settlement as the ledger moved it."""

    box = serializers.IntegerField()
    player = serializers.IntegerField()
    staked = serializers.IntegerField(help_text="Everything it staked in the round.")
    won = serializers.IntegerField(help_text="What came back to it (stakes returned and wins).")
    net = serializers.IntegerField(help_text="won - staked: the house lost what the box won.")
    held = serializers.IntegerField(allow_null=True, help_text="Yours only.")


class CasinoRoundEndOut(serializers.Serializer[dict[str, object]]):
    """The round as it stands (as it ended): stakes, results, the dealer."""

    jokers = serializers.IntegerField()
    pay_table = PayTableOut()
    boxes = CasinoRoundBoxOut(many=True)
    dealer = CasinoDealerOut()


class CasinoRoundDetailOut(CasinoRoundSummaryOut):
    """A round's history as the viewer may see it, with its deck commitment."""

    kind = serializers.ChoiceField(choices=["casino_round"])
    version = serializers.IntegerField()
    round = CasinoRoundEndOut()
    settlement = CasinoSettlementOut(
        many=True, allow_null=True, help_text="Once the round is settled."
    )
    commitment = serializers.RegexField(r"^[0-9a-f]{64}$", help_text="The deck's root.")
    roots = roots_out()
    openings = OpeningOut(many=True, help_text="Of the cards you got or saw turned up.")
    events = serializers.ListField(
        child=serializers.DictField(),
        help_text="The round's events as you saw them (casino.*): hidden cards null.",
    )
