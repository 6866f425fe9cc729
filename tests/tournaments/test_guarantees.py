"""Guarantees (docs/rules.md 6): the house holds the guarantee in the pool
from the creation; the prizes split the players' pool or the guarantee,
whichever is more; what the pool did not need goes back when play is over,
and all of it on a cancellation."""

from __future__ import annotations

import pytest

from tests.tournaments.support import Run, definition, of_type, players
from tournaments.rules import (
    AwardPrizes,
    Cancel,
    GuaranteeHeld,
    GuaranteeReleased,
    InvalidDefinition,
    PrizesAwarded,
    Satellite,
    create_tournament,
)
from tournaments.rules import queries as q

GUARANTEED = definition(guarantee=1000)


def test_the_guarantee_is_held_from_the_creation() -> None:
    created = create_tournament(GUARANTEED, "G")
    assert created[1:] == [GuaranteeHeld(1000)]
    assert create_tournament(definition(), "G")[1:] == []
    run = Run(GUARANTEED).register(players(3))
    assert (run.state.pool, run.state.held, q.overlay(run.state)) == (300, 1000, 700)
    assert q.prize_pool(run.state) == 1000
    assert sum(p.cash for p in q.prizes(run.state)) == 1000


def test_a_short_pool_is_made_up_by_the_overlay() -> None:
    run = Run(GUARANTEED).register(players(3)).start()
    run.bust("p01", "p02")
    run.bust("p03", "p02")
    events = run.do(AwardPrizes())
    assert of_type(events, GuaranteeReleased) == [GuaranteeReleased(300)]  # 700 stays: the overlay
    (paid,) = of_type(events, PrizesAwarded)
    assert sum(a.cash for a in paid.awards) == 1000
    assert run.state.held == 700 == q.overlay(run.state)


def test_a_pool_over_the_guarantee_gives_it_all_back() -> None:
    run = Run(definition(guarantee=200)).register(players(3)).start()
    run.bust("p01", "p02")
    run.bust("p03", "p02")
    events = run.do(AwardPrizes())
    assert of_type(events, GuaranteeReleased) == [GuaranteeReleased(200)]
    assert sum(a.cash for a in of_type(events, PrizesAwarded)[0].awards) == 300


def test_a_cancellation_gives_the_guarantee_back() -> None:
    run = Run(GUARANTEED).register(players(3))
    events = run.do(Cancel("rain"))
    assert GuaranteeReleased(1000) in events
    assert run.state.held == 0 and q.overlay(run.state) == 0


def test_a_guaranteed_satellite_awards_the_seats_the_guarantee_buys() -> None:
    d = definition(satellite=Satellite("target", 250), guarantee=1000)
    run = Run(d).register(players(6))
    assert q.seats_awarded(run.state) == 4  # 600 of players' money alone buys 2


def test_a_guarantee_is_money_not_negative() -> None:
    with pytest.raises(InvalidDefinition):
        definition(guarantee=-1)
