"""Deals at the final table (docs/rules.md 6): ICM by Malmuth-Harville,
exact, checked against a brute force over every order of finish and a
published example; chip-chop; a custom split; money left to play for;
play stops while a deal is offered and resumes on a decline; the deal pays
exactly the prizes it replaces."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest

from tests.tournaments.support import T0, Run, definition, of_type, players, refusal
from tournaments.rules import (
    AcceptDeal,
    AwardPrizes,
    DealMade,
    DealOffered,
    DeclineDeal,
    Disqualify,
    Finished,
    Paused,
    PayoutTable,
    PayoutTier,
    PlayerAmount,
    ProposeDeal,
    Resumed,
    Satellite,
    StartHand,
    Status,
    TournamentErrorCode,
    can_start_hand,
    replay,
)
from tournaments.rules.deals import icm

PAYS_3 = definition(
    payouts=PayoutTable((PayoutTier(2, (10000,)), PayoutTier(4, (5000, 3000, 2000))))
)
"""From four players, three places paid 50/30/20 of the pool."""


def _brute_force(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    total, n = sum(stacks), len(stacks)
    equity = [Fraction(0)] * n
    for order in permutations(range(n)):
        chance, left = Fraction(1), total
        for k in order:
            chance *= Fraction(stacks[k], left)
            left -= stacks[k]
        for place, k in enumerate(order):
            equity[k] += chance * (prizes[place] if place < len(prizes) else 0)
    return equity


@pytest.mark.parametrize(
    ("stacks", "prizes"),
    [([5000, 3000, 2000], [50, 30, 20]), ([1, 2, 3, 4, 5, 6, 7], [40, 25, 15, 10, 6, 4]),
     ([900, 100, 4500, 2500, 2000, 30, 70, 1100], [500, 300, 200, 100])],
)  # fmt: skip
def test_icm_is_exactly_the_harville_sum_over_every_order(stacks, prizes) -> None:
    assert icm(stacks, prizes) == _brute_force(stacks, prizes)
    assert sum(icm(stacks, prizes)) == sum(prizes[: len(stacks)])


def test_icm_matches_the_published_example() -> None:
    """Stacks 50/30/20 % with prizes 50/30/20, as ICM calculators give it:
    38.39, 32.75, 28.86."""
    shown = [round(float(e), 2) for e in icm([5000, 3000, 2000], [50, 30, 20])]
    assert shown == [38.39, 32.75, 28.86]


def test_icm_for_ten_players_adds_up() -> None:
    stacks = [1000 * k for k in range(1, 11)]
    prizes = [300, 200, 120, 90, 70, 60, 50, 40, 40, 30]
    equity = icm(stacks, prizes)
    assert sum(equity) == sum(prizes)
    assert equity == sorted(equity)  # more chips, more equity


def final_three(d=PAYS_3) -> Run:
    """Four players on one table: p04 busts, three are left (pool 400)."""
    run = Run(d).register(players(4)).start()
    run.bust("p04", "p01")
    run.hand(1, {"p01": -1000, "p03": 1000})
    assert {p: run.state.entrants[p].stack for p in ("p01", "p02", "p03")} == {
        "p01": 1000, "p02": 1000, "p03": 2000,
    }  # fmt: skip
    return run


def test_an_icm_deal_pauses_play_and_pays_each_his_equity() -> None:
    run = final_three()
    events = run.do(ProposeDeal("icm", T0 + 100))
    assert isinstance(events[0], Paused)
    (offer,) = of_type(events, DealOffered)
    # prizes of places 1-3: 200, 120, 80 (pool 400)
    exact = icm([1000, 1000, 2000], [200, 120, 80])
    assert sum(a.amount for a in offer.amounts) == 400
    assert all(abs(a.amount - e) < 1 for a, e in zip(offer.amounts, exact, strict=True))
    assert not can_start_hand(run.state, 1)
    run.do(AcceptDeal("p01", T0 + 110), AcceptDeal("p02", T0 + 120))
    events = run.do(AcceptDeal("p03", T0 + 130))
    assert of_type(events, DealMade) and of_type(events, Resumed)
    assert of_type(events, Finished)  # nothing left to play for: play ends
    awarded = run.do(AwardPrizes())[-1].awards
    dealt = {a.player: a.amount for a in offer.amounts}
    assert {a.player: a.cash for a in awarded} == dealt  # p04, 4th, is paid nothing
    assert replay(run.events) == run.state


def test_a_decline_withdraws_the_offer_and_play_resumes() -> None:
    run = final_three()
    run.do(ProposeDeal("chip_chop", T0 + 100))
    run.do(AcceptDeal("p01", T0 + 110))
    events = run.do(DeclineDeal("p02", T0 + 120))
    assert of_type(events, Resumed) and run.state.deal_offer is None
    assert can_start_hand(run.state, 1)
    assert refusal(run, AcceptDeal("p03", T0 + 130)) is TournamentErrorCode.ILLEGAL_ACTION


def test_a_chip_chop_gives_the_smallest_prize_and_the_rest_by_chips() -> None:
    run = final_three()
    (offer,) = of_type(run.do(ProposeDeal("chip_chop", T0 + 100)), DealOffered)
    # 80 each, then 160 by chips 1000/1000/2000
    assert offer.amounts == (
        PlayerAmount("p01", 120), PlayerAmount("p02", 120), PlayerAmount("p03", 160),
    )  # fmt: skip


def test_money_left_to_play_for_goes_to_the_winner() -> None:
    run = final_three()
    amounts = {"p01": 100, "p02": 100, "p03": 150}
    run.do(ProposeDeal("custom", T0 + 100, left_to_play=50, amounts=amounts))
    for p in ("p01", "p02", "p03"):
        events = run.do(AcceptDeal(p, T0 + 110))
    assert not of_type(events, Finished) and run.state.status is Status.RUNNING
    run.bust("p01", "p03")
    run.bust("p02", "p03")
    awarded = {a.player: a.cash for a in run.do(AwardPrizes())[-1].awards}
    assert awarded == {"p01": 100, "p02": 100, "p03": 150 + 50}


def test_a_dealer_disqualified_after_the_deal_forfeits_to_the_winner() -> None:
    run = final_three()
    amounts = {"p01": 100, "p02": 100, "p03": 150}
    run.do(ProposeDeal("custom", T0 + 100, left_to_play=50, amounts=amounts))
    for p in ("p01", "p02", "p03"):
        run.do(AcceptDeal(p, T0 + 110))
    run.do(Disqualify("p02", 0))
    run.bust("p01", "p03")
    awarded = {a.player: a.cash for a in run.do(AwardPrizes())[-1].awards}
    assert awarded == {"p01": 100, "p03": 150 + 50 + 100}


@pytest.mark.parametrize(
    "command",
    [ProposeDeal("split", T0), ProposeDeal("icm", T0, left_to_play=201),
     ProposeDeal("custom", T0, amounts={"p01": 400}),
     ProposeDeal("custom", T0, amounts={"p01": 100, "p02": 100, "p03": 100}),
     ProposeDeal("icm", T0, amounts={"p01": 1})],
)  # fmt: skip
def test_a_bad_deal_is_refused(command) -> None:
    run = final_three()
    assert refusal(run, command) is TournamentErrorCode.MALFORMED


def test_no_deal_away_from_the_final_table_in_a_hand_or_in_a_satellite() -> None:
    run = Run(definition(table_size=3)).register(players(4)).start()
    assert len(run.state.tables) == 2
    assert refusal(run, ProposeDeal("icm", T0)) is TournamentErrorCode.ILLEGAL_ACTION
    run = final_three()
    run.do(StartHand(1))
    assert refusal(run, ProposeDeal("icm", T0)) is TournamentErrorCode.ILLEGAL_ACTION
    run = Run(definition(satellite=Satellite("t", 150))).register(players(4)).start()
    assert refusal(run, ProposeDeal("icm", T0)) is TournamentErrorCode.ILLEGAL_ACTION


def test_only_the_players_in_the_deal_answer_it_once() -> None:
    run = final_three()
    run.do(ProposeDeal("icm", T0 + 100))
    assert refusal(run, AcceptDeal("p04", T0)) is TournamentErrorCode.NOT_REGISTERED
    run.do(AcceptDeal("p01", T0))
    assert refusal(run, AcceptDeal("p01", T0)) is TournamentErrorCode.ILLEGAL_ACTION
    assert refusal(run, ProposeDeal("icm", T0)) is TournamentErrorCode.ILLEGAL_ACTION
