"""Bounties (docs/rules.md 6): a knockout pays the head to whoever busts the
player, a PKO pays a share now and adds the rest to the winner's head;
several knockers split by the pots they took; the heads left at the end go
to the players still in and to the winner; money is conserved."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.support import Run, definition, of_type, players, random_finish, refusal
from tournaments.rules import (
    AwardPrizes,
    Bounty,
    BountyPaid,
    BountyShare,
    Cancel,
    Disqualify,
    Eliminated,
    FinishHand,
    HandFinished,
    InvalidDefinition,
    Knocker,
    Knockout,
    PotResult,
    StartHand,
    Status,
    TournamentErrorCode,
    replay,
    tables_to_deal,
)

KO = definition(bounty=Bounty(50))
PKO = definition(bounty=Bounty(50, progressive=True, paid_now_percent=50))


def test_an_entry_pays_the_bounty_and_carries_the_head() -> None:
    run = Run(KO).register(players(3))
    assert KO.entry_price == 100 + 50 + 10
    assert run.state.pool == 300  # the prize pool leaves the heads out
    assert all(e.bounty == 50 and e.paid == 160 for e in run.state.entrants.values())


def test_a_knockout_pays_the_whole_head_to_the_player_who_busts() -> None:
    run = Run(KO).register(players(3)).start()
    events = run.bust("p01", "p02")
    knocked = of_type(events, HandFinished)[0].knockouts
    assert knocked == (Knockout("p01", (Knocker("p02", 1000),)),)
    assert of_type(events, BountyPaid) == [BountyPaid("p01", (BountyShare("p02", 50, 0),))]
    assert (
        events.index(of_type(events, BountyPaid)[0])
        == events.index(of_type(events, Eliminated)[0]) + 1
    )  # at the bust, in the hand's own command
    assert run.state.entrants["p02"].bounty == 50  # a knockout's head never grows
    assert run.state.entrants["p02"].bounty_won == 50
    assert run.state.entrants["p01"].bounty == 0


def test_a_pko_pays_a_share_now_and_adds_the_rest_to_the_winners_head() -> None:
    run = Run(PKO).register(players(3)).start()
    events = run.bust("p01", "p02")
    assert of_type(events, BountyPaid) == [BountyPaid("p01", (BountyShare("p02", 25, 25),))]
    assert run.state.entrants["p02"].bounty == 75
    events = run.bust("p02", "p03")
    assert of_type(events, BountyPaid)[0] == BountyPaid("p02", (BountyShare("p03", 37, 38),))


def _bust_by_pots(run: Run, pots: tuple[PotResult, ...], stacks: dict[str, int]) -> list[object]:
    run.do(StartHand(1))
    return run.do(FinishHand(1, stacks, 0, pots=pots))


def test_several_knockers_split_the_head_by_the_pots_they_took() -> None:
    """p01 (300) all in against p02 and p03 (1000 each, more behind): p02
    wins the main pot (900), p03 the side pot p01 was not in; only p02
    busted him and takes the whole head."""
    run = Run(KO).register(players(3)).start()
    run.do(StartHand(1))
    hand = run.state.tables[1].hand
    assert hand is not None
    start = {p.player: p.stack for p in run.state.hands[hand].players}
    assert start == {"p01": 1000, "p02": 1000, "p03": 1000}
    main = PotResult(("p01", "p02", "p03"), {"p02": 3000 - 1000})
    side = PotResult(("p02", "p03"), {"p03": 0})
    events = run.do(FinishHand(1, {"p01": 0, "p02": 3000, "p03": 0}, 0, pots=(main, side)))
    paid = {e.player: e.shares for e in of_type(events, BountyPaid)}
    assert paid["p01"] == (BountyShare("p02", 50),)
    assert paid["p03"] == (BountyShare("p02", 50),)


def test_a_split_pot_splits_the_head_by_chips_taken_odd_unit_to_the_most() -> None:
    run = Run(definition(bounty=Bounty(51))).register(players(3)).start()
    run.do(StartHand(1))
    main = PotResult(("p01", "p02", "p03"), {"p02": 1500, "p03": 1500})
    side = PotResult(("p02", "p03"), {"p02": 1000})
    events = run.do(FinishHand(1, {"p01": 0, "p02": 1500, "p03": 1500}, 0, pots=(main,)))
    assert of_type(events, BountyPaid)[0].shares == (BountyShare("p02", 26), BountyShare("p03", 25))
    assert side.shares  # a pot the busted player was not in counts for nobody


def test_a_bad_pot_report_is_refused_whole() -> None:
    run = Run(KO).register(players(3)).start()
    run.do(StartHand(1))
    stacks = {"p01": 0, "p02": 2000, "p03": 1000}
    bad = FinishHand(1, stacks, 0, pots=(PotResult(("p01", "zz"), {"zz": 2000}),))
    assert refusal(run, bad) is TournamentErrorCode.MALFORMED
    negative = FinishHand(1, stacks, 0, pots=(PotResult(("p01", "p02"), {"p02": -1}),))
    assert refusal(run, negative) is TournamentErrorCode.MALFORMED


def test_the_heads_left_go_to_the_players_still_in_and_the_winner() -> None:
    run = Run(PKO).register(players(3)).start()
    run.do(Disqualify("p03", 0))
    run.bust("p01", "p02")
    assert run.state.status is Status.FINISHED
    events = run.do(AwardPrizes())
    paid = of_type(events, BountyPaid)
    assert paid == [
        BountyPaid("p02", (BountyShare("p02", 75),)),
        BountyPaid("p03", (BountyShare("p02", 50),)),  # nobody won it: to the winner
    ]
    assert all(e.bounty == 0 for e in run.state.entrants.values())


def test_no_cancellation_once_a_head_is_paid() -> None:
    run = Run(KO).register(players(3)).start()
    run.do(Cancel("early"))  # before any head: refunds the heads with the entries
    run = Run(KO).register(players(3)).start()
    run.bust("p01", "p02")
    assert refusal(run, Cancel("late")) is TournamentErrorCode.ILLEGAL_ACTION


def test_a_bounty_needs_a_positive_amount_and_a_percent() -> None:
    with pytest.raises(InvalidDefinition):
        Bounty(0)
    with pytest.raises(InvalidDefinition):
        Bounty(10, progressive=True, paid_now_percent=101)


@pytest.mark.parametrize("d", [KO, PKO], ids=["ko", "pko"])
def test_money_is_conserved_and_the_stream_replays(d: object) -> None:
    """Random hands to the end: what the players paid equals the prize pool,
    the fees and every head paid; replaying the events gives the same state."""
    rng = random.Random(7)
    run = Run(d).register(players(9)).start()  # type: ignore[arg-type]
    for _ in range(2000):
        tables = tables_to_deal(run.state)
        if not tables:
            break
        run.do(StartHand(tables[0]))
        run.do(random_finish(run.state, tables[0], rng))
    assert run.state.status is Status.FINISHED
    run.do(AwardPrizes())
    state = run.state
    paid_in = sum(e.paid for e in state.entrants.values())
    heads = sum(s.cash for e in of_type(run.events, BountyPaid) for s in e.shares)
    prizes = sum(a.cash for a in state.awards or ())
    assert paid_in == prizes + heads + 9 * state.definition.fee
    assert heads == 9 * 50
    assert replay(run.events) == state
