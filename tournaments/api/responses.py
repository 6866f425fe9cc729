"""Output shapes of the tournament API, for the OpenAPI schema (the
selectors build the bodies; these declare them, like ``poker.api.responses``)."""

from __future__ import annotations

from rest_framework import serializers

from kernel.api import AnyField, choice
from poker.api.responses import record_out
from poker.engine.rules import Betting, Game
from tournaments.models import Entrant, Schedule, Tournament
from tournaments.rules.definition import Bounty, Rebuys, Satellite


def still_in() -> serializers.BooleanField:
    """The ``in`` field (a Python keyword, so added in ``get_fields``)."""
    return serializers.BooleanField(help_text="Still in play.")


class TournamentOut(serializers.Serializer[dict[str, object]]):
    """A lobby line."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    game = choice(Game)
    betting = choice(Betting)
    buy_in = serializers.IntegerField()
    fee = serializers.IntegerField()
    starting_stack = serializers.IntegerField()
    sit_and_go = serializers.BooleanField()
    satellite_target = serializers.CharField(allow_null=True)
    starts_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    min_players = serializers.IntegerField(allow_null=True)
    max_players = serializers.IntegerField(allow_null=True)
    entries = serializers.IntegerField()
    players_left = serializers.IntegerField()
    prize_pool = serializers.IntegerField(help_text="With the overlay of a guarantee.")
    guarantee = serializers.IntegerField(help_text="The least prize pool (0: none).")
    registration_open = serializers.BooleanField()
    level = serializers.IntegerField()
    on_break = serializers.BooleanField()
    level_ends_at = serializers.DateTimeField(allow_null=True)
    tables = serializers.IntegerField()


class NextLevelOut(serializers.Serializer[dict[str, object]]):
    level = serializers.IntegerField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()


class LevelOut(NextLevelOut):
    minutes = serializers.IntegerField()


class BreakOut(serializers.Serializer[dict[str, object]]):
    after_level = serializers.IntegerField()
    minutes = serializers.IntegerField()


class StructureOut(serializers.Serializer[dict[str, object]]):
    levels = LevelOut(many=True)
    breaks = BreakOut(many=True)
    minute_seconds = serializers.IntegerField()


class PrizeOut(serializers.Serializer[dict[str, object]]):
    place = serializers.IntegerField()
    cash = serializers.IntegerField()
    ticket = serializers.BooleanField()
    consolation = serializers.CharField(
        help_text="A step satellite's consolation ticket: the step it enters (empty: none)."
    )


class TournamentClockOut(NextLevelOut):
    """The clock while play runs (null before the start and after the end):
    the level in force, and what comes next."""

    on_break = serializers.BooleanField()
    paused = serializers.BooleanField()
    seconds_left = serializers.IntegerField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)
    next_level = NextLevelOut(allow_null=True)


class TableInPlayOut(serializers.Serializer[dict[str, object]]):
    number = serializers.IntegerField()
    table_id = serializers.IntegerField(allow_null=True, help_text="The poker table to watch.")
    players = serializers.IntegerField()


class OwnEntryOut(serializers.Serializer[dict[str, object]]):
    """Your own entry, as you alone see it."""

    entries = serializers.IntegerField()
    stack = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    table_id = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    rebuys = serializers.IntegerField()
    added_on = serializers.BooleanField()
    paid = serializers.IntegerField()
    bounty = serializers.IntegerField(help_text="The head on the player (0: no bounties).")
    bounty_won = serializers.IntegerField(help_text="Bounty money won so far.")
    disqualified = serializers.BooleanField()
    may_rebuy = serializers.BooleanField()
    may_add_on = serializers.BooleanField()
    rebuy_until = serializers.DateTimeField(allow_null=True)

    def get_fields(self) -> dict[str, AnyField]:
        return {**super().get_fields(), "in": still_in()}


class TableClocksOut(serializers.Serializer[dict[str, object]]):
    """The clocks the tournament's tables run (its own, else the defaults)."""

    action_seconds = serializers.IntegerField()
    draw_seconds = serializers.IntegerField()
    time_bank_seconds = serializers.IntegerField()
    time_bank_refill_hands = serializers.IntegerField()


class DealAmountOut(serializers.Serializer[dict[str, object]]):
    player = serializers.IntegerField()
    amount = serializers.IntegerField()


class DealOut(serializers.Serializer[dict[str, object]]):
    """A deal at the final table: offered (waiting for every player left
    to accept) or made."""

    status = serializers.ChoiceField(choices=["offered", "made"])
    kind = serializers.CharField(allow_null=True, help_text="icm, chip_chop or custom (offered).")
    amounts = DealAmountOut(many=True)
    left_to_play = serializers.IntegerField(help_text="Kept out of the deal for the winner.")
    accepted = serializers.ListField(child=serializers.IntegerField())


class TournamentFlightEventOut(serializers.Serializer[dict[str, object]]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    flight = serializers.IntegerField(help_text="Its flight (1 for Day 1A, ...), 0 for Day 2.")


class TournamentDetailOut(TournamentOut):
    """One tournament: its line, structure and options, the prizes as the
    pool stands, the clock, and your own entry (null: none)."""

    version = serializers.IntegerField()
    seats_per_table = serializers.IntegerField()
    late_registration_level = serializers.IntegerField(allow_null=True)
    re_entries = serializers.IntegerField(allow_null=True)
    rebuys = record_out(Rebuys, "Tournament")(allow_null=True)
    satellite = record_out(Satellite, "Tournament")(allow_null=True)
    bounty = record_out(Bounty, "Tournament")(allow_null=True)
    structure = StructureOut()
    table_clocks = TableClocksOut()
    prizes = PrizeOut(many=True)
    hand_for_hand = serializers.BooleanField()
    final_table = serializers.BooleanField()
    clock = TournamentClockOut(allow_null=True)
    tables_in_play = TableInPlayOut(many=True)
    deal = DealOut(allow_null=True)
    flight_event = TournamentFlightEventOut(
        allow_null=True, help_text="The multi-flight event it belongs to (null: none)."
    )
    you = OwnEntryOut(allow_null=True)


class TournamentEntrantOut(serializers.Serializer[dict[str, object]]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Entrant.Status.choices)
    entries = serializers.IntegerField()
    stack = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    rebuys = serializers.IntegerField()
    added_on = serializers.BooleanField()
    bounty = serializers.IntegerField(help_text="The head on the player (0: no bounties).")
    bounty_won = serializers.IntegerField(help_text="Bounty money won so far.")


class StandingOut(serializers.Serializer[dict[str, object]]):
    place = serializers.IntegerField()
    shared = serializers.IntegerField(help_text="Players tied for places place..place+shared-1.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    stack = serializers.IntegerField()
    bounty = serializers.IntegerField(help_text="The head on the player (0: no bounties).")
    bounty_won = serializers.IntegerField(help_text="Bounty money won so far.")

    def get_fields(self) -> dict[str, AnyField]:
        return {**super().get_fields(), "in": still_in()}


class ResultOut(serializers.Serializer[dict[str, object]]):
    place = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    prize = serializers.IntegerField()
    ticket = serializers.BooleanField()
    consolation = serializers.CharField(
        help_text="A step satellite's consolation ticket: the step it enters (empty: none)."
    )
    bounty_won = serializers.IntegerField(help_text="Bounty money won.")


class StepTournamentOut(serializers.Serializer[dict[str, object]]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    entries = serializers.IntegerField()


class StepTargetOut(StepTournamentOut):
    price = serializers.IntegerField(help_text="The target's entry price: a last step's seat.")
    tickets_outstanding = serializers.IntegerField()


class StepOut(serializers.Serializer[dict[str, object]]):
    step = serializers.IntegerField()
    ticket = serializers.CharField(help_text="The step's ticket reference.")
    price = serializers.IntegerField(help_text="The step's entry price: one ticket's value.")
    consolation = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The steps the places just outside the seats win a ticket into.",
    )
    tickets_outstanding = serializers.IntegerField(
        help_text="Tickets into the step handed out and not yet spent or cashed out."
    )
    tournaments = StepTournamentOut(many=True)


class StepChainOut(serializers.Serializer[dict[str, object]]):
    """A step chain as its director sees it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    expires_at = serializers.DateTimeField()
    expired = serializers.BooleanField()
    closed = serializers.BooleanField(help_text="Expired and its tickets cashed out.")
    target = StepTargetOut()
    steps = StepOut(many=True)


class HeldTicketOut(serializers.Serializer[dict[str, object]]):
    """Tickets the player holds into one tournament or step."""

    ticket = serializers.CharField()
    count = serializers.IntegerField()
    value = serializers.IntegerField(help_text="What one ticket is worth: the entry it pays.")
    enters = serializers.CharField()
    tournament = serializers.IntegerField(allow_null=True)
    step_chain = serializers.IntegerField(allow_null=True)
    step = serializers.IntegerField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)
    expires = serializers.CharField(help_text="When the ticket can no longer be played.")


class ComingUpOut(TournamentOut):
    """A tournament still to start, in the lobby's coming up."""

    schedule = serializers.CharField(
        allow_null=True, help_text="The schedule that created it (null: a director did)."
    )


class ScheduledTournamentOut(serializers.Serializer[dict[str, object]]):
    day = serializers.DateField(help_text="The day in the schedule's time zone.")
    tournament = serializers.IntegerField()
    starts_at = serializers.DateTimeField(allow_null=True)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    entries = serializers.IntegerField()


class ScheduleOut(serializers.Serializer[dict[str, object]]):
    """A recurring tournament and the tournaments it created that are still
    to start."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    every = serializers.ChoiceField(choices=Schedule.Every.choices)
    weekdays = serializers.ListField(child=serializers.IntegerField())
    time = serializers.CharField(help_text="HH:MM in ``time_zone``.")
    time_zone = serializers.CharField()
    horizon_days = serializers.IntegerField()
    paused = serializers.BooleanField()
    problem = serializers.CharField(
        allow_null=True, help_text="Why its last occurrence could not be created (tried again)."
    )
    template = serializers.DictField(help_text="The tournament create body it creates from.")
    guarantee = serializers.IntegerField()
    next_start = serializers.DateTimeField(allow_null=True)
    tournaments = ScheduledTournamentOut(many=True)
    created_at = serializers.DateTimeField()


class FlightOut(serializers.Serializer[dict[str, object]]):
    """One starting flight of a multi-flight event."""

    id = serializers.IntegerField(help_text="The flight's tournament.")
    flight = serializers.IntegerField(help_text="1 for Day 1A, 2 for Day 1B, ...")
    # A declared field: DRF's metaclass takes it out of the class, so it is
    # not the Field's own ``label`` the stubs see it replace.
    label = serializers.CharField()  # type: ignore[assignment]
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    starts_at = serializers.DateTimeField(allow_null=True)
    late_registration_level = serializers.IntegerField(allow_null=True)
    registration_open = serializers.BooleanField()
    entries = serializers.IntegerField()
    players_left = serializers.IntegerField()
    mark = serializers.IntegerField(help_text="The players left at which it stops.")
    prize_pool = serializers.IntegerField(help_text="Its pool, which goes to Day 2's.")
    stopped = serializers.BooleanField()
    stopped_level = serializers.IntegerField(allow_null=True)
    bags = serializers.IntegerField(help_text="Players who bagged chips.")
    chips_bagged = serializers.IntegerField()
    carried = serializers.BooleanField(help_text="Day 2 has taken it in (bags and pool).")
    may_enter = serializers.BooleanField(help_text="You may enter it now.")


class DayTwoOut(serializers.Serializer[dict[str, object]]):
    id = serializers.IntegerField(help_text="Day 2's tournament.")
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    starts_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    ready = serializers.BooleanField(help_text="Every flight is carried: it waits for its start.")
    flights_carried = serializers.IntegerField()
    players = serializers.IntegerField(help_text="The bags that go through (so far).")
    players_left = serializers.IntegerField()
    chips = serializers.IntegerField(help_text="The chips that go through (so far).")
    forfeited_chips = serializers.IntegerField(help_text="The bags that do not go through.")
    prize_pool = serializers.IntegerField(help_text="The flights' pools carried so far.")
    resume_level = serializers.IntegerField(allow_null=True)


class BagOut(serializers.Serializer[dict[str, object]]):
    flight = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # declared (see FlightOut)
    stack = serializers.IntegerField()
    goes_through = serializers.BooleanField(help_text="This is the bag you carry into Day 2.")


class FlightEventYouOut(serializers.Serializer[dict[str, object]]):
    bags = BagOut(many=True)
    day_two_stack = serializers.IntegerField(allow_null=True)


class FlightEventOut(serializers.Serializer[dict[str, object]]):
    """A multi-flight event: its flights, Day 2 and your bags."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    advance_percent = serializers.IntegerField()
    re_entry = serializers.BooleanField()
    carry = serializers.ChoiceField(choices=["best", "latest"])
    prize_pool = serializers.IntegerField(help_text="Every flight's pool together.")
    flights = FlightOut(many=True)
    day_two = DayTwoOut()
    you = FlightEventYouOut(allow_null=True, help_text="Null when not logged in.")
