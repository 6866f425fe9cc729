"""Tournament events are values: every type round-trips through the engine's
JSON codec, the fold of a stream is its state, nonsense is refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.tournaments.support import Run, definition, players, random_finish
from tournaments.rules import (
    TOURNAMENT_EVENT_TYPES,
    AddedOn,
    Award,
    Bag,
    BountyPaid,
    BountyShare,
    BreakStarted,
    ButtonDrawn,
    Cancelled,
    DayTwoReady,
    DealAccepted,
    DealDeclined,
    DealMade,
    DealOffered,
    DisqualificationQueued,
    Disqualified,
    Eliminated,
    FinalTableDrawn,
    Finished,
    Flight,
    FlightCarried,
    FlightRules,
    FlightStopped,
    GuaranteeHeld,
    GuaranteeReleased,
    HandFinished,
    HandForHandEnded,
    HandForHandStarted,
    HandStarted,
    Knocker,
    Knockout,
    LevelChanged,
    Paused,
    PlayerAmount,
    PlayerMoved,
    PlayerSeat,
    PlayerStack,
    PrizesAwarded,
    Rebought,
    RebuyOffered,
    Refunded,
    Registered,
    RegistrationOpened,
    Resumed,
    Seated,
    Standing,
    Started,
    StartHand,
    Status,
    TableBroken,
    TimeAdded,
    TournamentCreated,
    TournamentEvent,
    Unregistered,
    create_tournament,
    evolve,
    replay,
    tournament_event_from_json,
    tournament_event_to_json,
)
from tournaments.rules.errors import Malformed, TournamentErrorCode
from tournaments.rules.play import can_start_hand
from tournaments.rules.presets import thirty_two_card_draw_satellite

EXAMPLES: list[TournamentEvent] = [
    TournamentCreated(thirty_two_card_draw_satellite("main", 1000, 100, 10, 2), "Sat", 1_700_000),
    TournamentCreated(definition()),
    RegistrationOpened(),
    Registered("p01", 2, 110),
    Unregistered("p01", 110),
    Started(1_700_000),
    Seated("p01", 3, 5, 1000),
    LevelChanged(4),
    BreakStarted(6, 5),
    Paused(1_700_100),
    Resumed(1_700_200),
    TimeAdded(3, 60),
    HandStarted(7, 2, 3, (PlayerStack("p01", 1, 900), PlayerStack("p02", 4, 1100)), 4),
    HandStarted(8, 2, 3, (PlayerStack("p01", 1, 900), PlayerStack("p02", 4, 1100))),
    HandFinished(7, 2, (PlayerStack("p01", 1, 0), PlayerStack("p02", 4, 2000))),
    Rebought("p01", 1000, 100),
    RebuyOffered("p01", 1_700_060),
    AddedOn("p01", 1500, 120),
    Eliminated("p01", 12, 900),
    HandFinished(
        8,
        1,
        (PlayerStack("p01", 1, 0), PlayerStack("p02", 4, 900)),
        (Knockout("p01", (Knocker("p02", 900),)),),
    ),
    BountyPaid("p01", (BountyShare("p02", 25, 25),)),
    GuaranteeHeld(5000),
    DealOffered("icm", (PlayerAmount("p01", 600), PlayerAmount("p02", 400)), 100, True),
    DealAccepted("p01"),
    DealDeclined("p02"),
    DealMade((PlayerAmount("p01", 600), PlayerAmount("p02", 400)), 0),
    GuaranteeReleased(1200),
    PlayerMoved("p01", 3, 5, 1, 2),
    TableBroken(3),
    FinalTableDrawn(1, (PlayerSeat("p01", 2), PlayerSeat("p02", 5))),
    ButtonDrawn(1, 5),
    HandForHandStarted(),
    HandForHandEnded(),
    DisqualificationQueued("p01"),
    Disqualified("p01", 1300),
    Finished((Standing("p02", 1), Standing("p01", 2, 2), Standing("p03", 2, 2))),
    PrizesAwarded((Award("p02", 1, 0, True), Award("p01", 2, 150)), "main"),
    PrizesAwarded((Award("p02", 1, 500),)),
    TournamentCreated(definition(flight=Flight(FlightRules(15), 3, 2)), "Day 1B"),
    FlightStopped(4, (Bag("p01", 2, 5200), Bag("p02", 2, 800))),
    FlightCarried(2, "17", 1400, 4, (Bag("p01", 2, 5200),)),
    DayTwoReady((Bag("p01", 2, 5200),), (Bag("p01", 1, 300),), 5),
    Cancelled("too few players"),
    Refunded("p01", 110),
]


def test_every_event_type_has_an_example() -> None:
    assert {type(e) for e in EXAMPLES} == set(TOURNAMENT_EVENT_TYPES.values())


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: type(e).__name__)
def test_every_event_round_trips_through_json(event: TournamentEvent) -> None:
    data = json.loads(json.dumps(tournament_event_to_json(event)))
    assert TOURNAMENT_EVENT_TYPES[data["type"]] is type(event)
    assert tournament_event_from_json(data) == event


@pytest.mark.parametrize(
    "data",
    [
        {"type": "Nonsense"},
        {"type": "tournament.player_registered", "player": "p01", "entry": "one", "paid": 110},
        {"type": "tournament.player_seated", "player": "p01"},
        {"type": "tournament.level_changed", "level": True},
    ],
)
def test_nonsense_is_malformed(data: dict[str, Any]) -> None:
    with pytest.raises(Malformed) as caught:
        tournament_event_from_json(data)
    assert caught.value.code is TournamentErrorCode.MALFORMED


def test_a_stored_definition_that_does_not_validate_is_malformed() -> None:
    data = tournament_event_to_json(TournamentCreated(definition()))
    data["definition"]["starting_stack"] = 0
    with pytest.raises(Malformed):
        tournament_event_from_json(data)


def test_the_fold_of_a_tournaments_events_is_its_state() -> None:
    run = Run().register(players(9)).start()
    rng = random.Random(4)
    while run.state.status is Status.RUNNING:
        for table in sorted(run.state.tables):
            if can_start_hand(run.state, table):
                run.do(StartHand(table))
                run.do(random_finish(run.state, table, rng))
    assert replay(run.events) == run.state
    decoded = [tournament_event_from_json(tournament_event_to_json(e)) for e in run.events]
    assert replay(decoded) == run.state
    assert run.state.version == len(run.events)


def test_a_stream_starts_with_tournament_created_once() -> None:
    with pytest.raises(Malformed):
        evolve(None, RegistrationOpened())
    state = replay([TournamentCreated(definition())])
    with pytest.raises(Malformed):
        evolve(state, TournamentCreated(definition()))
    with pytest.raises(Malformed):
        replay([])


def test_a_stream_is_created_from_a_valid_definition_name_and_start() -> None:
    (created,) = create_tournament(definition(), "Sunday", 1_700_000)
    assert created == TournamentCreated(definition(), "Sunday", 1_700_000)
    for bad in (
        lambda: create_tournament("not a definition"),  # type: ignore[arg-type]
        lambda: create_tournament(definition(), "x" * 81),
        lambda: create_tournament(definition(), "ok", -1),
    ):
        with pytest.raises(Malformed):
            bad()
