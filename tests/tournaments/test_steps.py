"""Step satellites (docs/rules.md 6): each step awards seats into the next
(the last into the target event), the places just outside the seats a
consolation ticket into the same step or one below, as far as what the
seats leave of the pool covers them; the rest is cash."""

from __future__ import annotations

import pytest

from tests.tournaments.support import Run, definition, players
from tournaments.rules import (
    AwardPrizes,
    Consolation,
    InvalidDefinition,
    PrizesAwarded,
    Satellite,
    Status,
    StepChain,
    step_ticket,
)
from tournaments.rules import queries as q
from tournaments.rules.payouts import Prize, satellite_prizes
from tournaments.rules.placements import Standing
from tournaments.rules.prizes import award

# Step 1 costs 110, step 2 330, the target 1100.
CHAIN = StepChain((110, 330), 1100, ((), (2, 1)))


def test_each_step_awards_seats_into_the_next_and_the_last_into_the_target() -> None:
    first, last = CHAIN.satellite(7, 1, 99), CHAIN.satellite(7, 2, 99)
    assert first == Satellite(step_ticket(7, 2), 330)
    assert last == Satellite(
        "99", 1100, None, (Consolation("step-7-2", 330), Consolation("step-7-1", 110))
    )
    assert first.ticket_value("step-7-2") == 330
    assert last.ticket_value("step-7-1") == 110


def test_a_consolation_is_the_same_step_or_one_below() -> None:
    with pytest.raises(InvalidDefinition) as raised:
        StepChain((110, 330), 1100, ((2,), ()))
    assert raised.value.field == "steps[1].consolation"
    with pytest.raises(InvalidDefinition):
        StepChain((), 1100)
    with pytest.raises(InvalidDefinition):
        StepChain((110, 0), 1100)


def test_consolations_are_paid_in_place_order_while_the_rest_covers_them() -> None:
    # 2900: two seats of 1100, then 330 and 110, the 260 left in cash.
    prizes = satellite_prizes(2900, 1100, None, 10, [("s2", 330), ("s1", 110)])
    assert prizes.places() == (
        Prize(ticket=True), Prize(ticket=True), Prize(into="s2"), Prize(into="s1"), Prize(cash=260),
    )  # fmt: skip
    # 2500: two seats leave 300, short of the step-2 ticket: no consolation.
    assert satellite_prizes(2500, 1100, None, 10, [("s2", 330), ("s1", 110)]).places() == (
        Prize(ticket=True), Prize(ticket=True), Prize(cash=300),
    )  # fmt: skip


def test_a_consolation_never_takes_the_last_place_of_the_field() -> None:
    prizes = satellite_prizes(1540, 1100, None, 3, [("s2", 330), ("s1", 110)])
    assert prizes.places() == (Prize(ticket=True), Prize(into="s2"), Prize(cash=110))


def test_a_step_plays_down_to_its_seats_and_pays_the_consolation() -> None:
    d = definition(buy_in=300, fee=30, satellite=CHAIN.satellite(7, 2, 99))
    run = Run(d).register(players(13)).start()  # 3900: three seats, 600 left
    assert q.seats_awarded(run.state) == 3
    while run.state.status is Status.RUNNING:
        table = max(run.state.tables, key=lambda n: (len(run.state.tables[n].seats), n))
        seated = sorted(run.state.tables[table].seats.values())
        run.bust(seated[-1], seated[0])
    (paid,) = run.do(AwardPrizes())
    assert isinstance(paid, PrizesAwarded) and paid.target == "99"
    by_place = [(a.place, a.ticket, a.into, a.cash) for a in paid.awards]
    assert by_place == [
        (1, True, "", 0), (2, True, "", 0), (3, True, "", 0),
        (4, False, "step-7-2", 0), (5, False, "step-7-1", 0), (6, False, "", 160),
    ]  # fmt: skip
    assert 3 * 1100 + 330 + 110 + 160 == run.state.pool == 3900


def test_tied_players_share_consolations_of_one_kind_and_cash_otherwise() -> None:
    tied = [Standing("a", 3), Standing("b", 3)]
    same = [Prize(), Prize(), Prize(into="s1"), Prize(into="s1")]
    assert [(a.into, a.cash) for a in award(tied, same, 1100, (), {"s1": 110})] == [
        ("s1", 0), ("s1", 0),
    ]  # fmt: skip
    mixed = [Prize(), Prize(), Prize(into="s2"), Prize(into="s1")]
    assert [(a.into, a.cash) for a in award(tied, mixed, 1100, (), {"s1": 110, "s2": 330})] == [
        ("", 220), ("", 220),
    ]  # fmt: skip
