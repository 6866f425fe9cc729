"""Rebuys and the add-on (RULES.md 6): only between hands or for a player not
in the hand, while the window is open, at or below the threshold; the
add-on at the end of the window."""

from __future__ import annotations

from dataclasses import replace

from tests.tournaments.support import (
    T0,
    Run,
    definition,
    of_type,
    players,
    refusal,
    structure,
)
from tournaments.rules import (
    AddedOn,
    AddOn,
    Award,
    AwardPrizes,
    Break,
    DeclineRebuy,
    Disqualify,
    Eliminated,
    FinishHand,
    PrizesAwarded,
    Rebought,
    Rebuy,
    RebuyOffered,
    Rebuys,
    RebuyTimeout,
    Standing,
    StartHand,
    Status,
    Tick,
    TournamentErrorCode,
)
from tournaments.rules import queries as q
from tournaments.rules.play import can_add_on, can_rebuy

REBUYS = definition(
    structure=structure(4, 10, (Break(2, 5),)),
    rebuys=Rebuys(until_level=2, chips=1000, price=100, max_rebuys=2, add_on_chips=1500,
                  add_on_price=120),
)  # fmt: skip
"""Level 1 T0..+600, level 2 ..+1200 (last rebuy level), break ..+1500 (add-on)."""


def running(n: int = 3) -> Run:
    return Run(REBUYS).register(players(n)).start()


def test_a_rebuy_at_the_starting_stack_adds_chips_and_money() -> None:
    run = running()
    assert can_rebuy(run.state, "p01")
    assert run.do(Rebuy("p01")) == [Rebought("p01", 1000, 100)]
    assert run.state.entrants["p01"].stack == 2000
    assert run.state.pool == 300 + 100
    assert run.state.entrants["p01"].paid == 110 + 100


def test_no_rebuy_above_the_threshold() -> None:
    run = running()
    run.hand(1, {"p01": 1, "p02": -1})
    assert refusal(run, Rebuy("p01")) is TournamentErrorCode.REBUY_REFUSED
    assert run.do(Rebuy("p02")) == [Rebought("p02", 1000, 100)]


def test_the_threshold_is_configurable() -> None:
    low = definition(rebuys=Rebuys(2, 1000, 100, threshold=500))
    run = Run(low).register(players(2)).start()
    assert refusal(run, Rebuy("p01")) is TournamentErrorCode.REBUY_REFUSED
    run.hand(1, {"p01": -500, "p02": 500})
    assert run.do(Rebuy("p01")) == [Rebought("p01", 1000, 100)]


def test_no_rebuy_during_a_hand_the_player_is_in() -> None:
    run = running()
    run.do(StartHand(1))
    assert refusal(run, Rebuy("p01")) is TournamentErrorCode.REBUY_REFUSED
    assert not can_rebuy(run.state, "p01")


def test_a_player_not_in_the_hand_may_rebuy_during_it() -> None:
    run = running()
    # p03 loses everything but may rebuy: he is not dealt in to the next hand
    events = run.hand(1, {"p03": -1000, "p01": 1000})
    assert of_type(events, Eliminated) == []
    run.do(StartHand(1))
    assert "p03" not in {p.player for p in run.state.hands[2].players}
    assert run.do(Rebuy("p03")) == [Rebought("p03", 1000, 100)]


def test_a_player_out_of_chips_stays_in_while_he_may_rebuy() -> None:
    run = running()
    run.hand(1, {"p03": -1000, "p01": 1000})
    entrant = run.state.entrants["p03"]
    assert entrant.alive and entrant.stack == 0 and entrant.table == 1
    assert q.players_left(run.state) == 3


def test_declining_the_rebuy_puts_him_out_placed_by_the_hand_he_lost() -> None:
    run = running()
    run.hand(1, {"p03": -1000, "p01": 1000})
    run.hand(1)
    events = run.do(DeclineRebuy("p03", 0))
    assert events[0] == Eliminated("p03", 1, 1000)


def test_only_a_player_out_of_chips_declines() -> None:
    run = running()
    assert refusal(run, DeclineRebuy("p01", 0)) is TournamentErrorCode.ILLEGAL_ACTION


def test_players_who_did_not_rebuy_go_out_when_the_window_closes() -> None:
    run = running()
    run.hand(1, {"p03": -1000, "p01": 1000})
    events = run.do(Tick(T0 + 1200, 0))
    assert Eliminated("p03", 1, 1000) in events
    assert refusal(run, Rebuy("p02")) is TournamentErrorCode.REBUY_REFUSED


def test_rebuys_are_limited_per_entry() -> None:
    run = running()
    run.do(Rebuy("p01"))
    run.hand(1, {"p01": -1500, "p02": 1500})
    run.do(Rebuy("p01"))
    run.hand(1, {"p01": -1000, "p02": 1000})
    assert run.state.entrants["p01"].stack == 500
    assert refusal(run, Rebuy("p01")) is TournamentErrorCode.REBUY_REFUSED


def test_a_player_out_of_rebuys_goes_out_at_once() -> None:
    run = running()
    run.do(Rebuy("p01"))
    run.hand(1, {"p01": -1000, "p02": 1000})
    run.do(Rebuy("p01"))
    events = run.hand(1, {"p01": -2000, "p02": 2000})
    assert [e.player for e in of_type(events, Eliminated)] == ["p01"]


def test_the_add_on_is_taken_once_in_the_break_after_the_window() -> None:
    run = running()
    assert refusal(run, AddOn("p01")) is TournamentErrorCode.REBUY_REFUSED
    run.do(Tick(T0 + 1200, 0))
    assert can_add_on(run.state, "p01")
    assert run.do(AddOn("p01")) == [AddedOn("p01", 1500, 120)]
    assert run.state.entrants["p01"].stack == 2500
    assert run.state.pool == 300 + 120
    assert refusal(run, AddOn("p01")) is TournamentErrorCode.REBUY_REFUSED
    run.do(Tick(T0 + 1500, 0))
    assert refusal(run, AddOn("p02")) is TournamentErrorCode.REBUY_REFUSED


NO_BREAK = definition(
    structure=structure(4, 10),
    rebuys=Rebuys(until_level=2, chips=1000, price=100, add_on_chips=1500, add_on_price=120),
)
"""Rebuys through level 2 (T0..+1200), no break after it."""


def test_no_add_on_while_rebuys_are_open_even_in_the_last_rebuy_level() -> None:
    run = Run(NO_BREAK).register(players(3)).start()
    run.do(Tick(T0 + 600, 0))  # level 2: the last rebuy level
    assert can_rebuy(run.state, "p01") and not can_add_on(run.state, "p01")
    assert refusal(run, AddOn("p01")) is TournamentErrorCode.REBUY_REFUSED


def test_without_a_break_the_add_on_comes_before_each_players_next_hand() -> None:
    run = Run(NO_BREAK).register(players(3)).start()
    run.do(Tick(T0 + 1200, 0))  # level 3: rebuys closed
    assert not can_rebuy(run.state, "p01")
    assert can_add_on(run.state, "p01")
    table = run.table_of("p01")
    run.hand(table)  # everybody at his table played a hand of level 3
    assert refusal(run, AddOn("p01")) is TournamentErrorCode.REBUY_REFUSED
    assert not q.add_on_pending(run.state) and q.pool_final(run.state)


def test_no_add_on_when_rebuys_run_to_the_last_level_which_never_ends() -> None:
    last = len(NO_BREAK.structure.levels)
    d = replace(NO_BREAK, rebuys=Rebuys(last, 1000, 100, add_on_chips=1500))
    run = Run(d).register(players(2)).start()
    run.do(Tick(T0 + 3 * 600, 0))
    assert q.rebuys_open(run.state) and not can_add_on(run.state, "p01")


def test_an_add_on_is_never_followed_by_a_rebuy() -> None:
    run = running()
    run.do(Tick(T0 + 1200, 0))
    run.do(AddOn("p01"))
    assert run.state.entrants["p01"].added_on
    assert refusal(run, Rebuy("p01")) is TournamentErrorCode.REBUY_REFUSED


def test_a_player_broke_when_the_rebuys_close_is_out_not_offered_the_add_on() -> None:
    run = running()
    run.bust("p02", "p01")
    assert not run.state.entrants["p02"].out
    events = run.do(Tick(T0 + 1200, 0))
    assert [e.player for e in of_type(events, Eliminated)] == ["p02"]
    assert refusal(run, AddOn("p02")) is TournamentErrorCode.NOT_REGISTERED


def test_the_add_on_may_be_taken_whatever_the_stack() -> None:
    run = running()
    run.hand(1, {"p01": 900, "p02": -900})
    run.do(Tick(T0 + 1200, 0))
    assert run.do(AddOn("p01")) == [AddedOn("p01", 1500, 120)]


def test_no_rebuys_or_add_on_in_a_freezeout() -> None:
    run = Run().register(players(2)).start()
    assert refusal(run, Rebuy("p01")) is TournamentErrorCode.REBUY_REFUSED
    assert refusal(run, AddOn("p01")) is TournamentErrorCode.REBUY_REFUSED


def test_no_add_on_when_only_rebuys_are_offered() -> None:
    run = Run(definition(rebuys=Rebuys(1, 1000, 100))).register(players(2)).start()
    assert refusal(run, AddOn("p01")) is TournamentErrorCode.REBUY_REFUSED


def test_the_pool_is_final_once_the_add_on_is_over() -> None:
    run = running()
    assert not q.pool_final(run.state)
    run.do(Tick(T0 + 1200, 0))
    assert not q.pool_final(run.state)
    run.do(Tick(T0 + 1500, 0))
    assert q.pool_final(run.state)


def test_unknown_players_do_not_rebuy() -> None:
    run = running()
    assert refusal(run, Rebuy("nobody")) is TournamentErrorCode.NOT_REGISTERED


def test_when_nobody_is_left_with_chips_the_last_busted_finish_first() -> None:
    run = running()
    run.hand(1, {"p02": 2000, "p01": -1000, "p03": -1000})
    run.do(Disqualify("p02", 0))  # his chips leave play; p01 and p03 may still rebuy
    run.do(Tick(T0 + 1200, 0))
    assert run.state.standings == (Standing("p01", 1, 2), Standing("p03", 1, 2))
    (paid,) = run.do(AwardPrizes())
    assert paid == PrizesAwarded((Award("p01", 1, 150), Award("p03", 1, 150)), None)


def bust_at(run: Run, loser: str, winner: str, at: int) -> list[object]:
    """A hand reported at ``at`` in which ``winner`` takes ``loser``'s chips."""
    table = run.table_of(loser)
    run.do(StartHand(table))
    hand = run.state.tables[table].hand
    assert hand is not None
    stacks = {p.player: p.stack for p in run.state.hands[hand].players}
    stacks[winner] += stacks[loser]
    stacks[loser] = 0
    return run.do(FinishHand(table, stacks, 0, at=at))


def test_a_player_out_of_chips_gets_a_clock_to_decide() -> None:
    run = running(2)
    events = bust_at(run, "p02", "p01", T0 + 100)
    assert RebuyOffered("p02", T0 + 160) in events
    assert run.state.entrants["p02"].rebuy_until == T0 + 160
    assert run.state.status is Status.RUNNING  # he holds up the end meanwhile


def test_when_his_clock_runs_out_he_is_out_as_if_he_declined() -> None:
    run = running(2)
    bust_at(run, "p02", "p01", T0 + 100)
    early = RebuyTimeout("p02", T0 + 159, 0)
    assert refusal(run, early) is TournamentErrorCode.ILLEGAL_ACTION
    events = run.do(RebuyTimeout("p02", T0 + 160, 0))
    assert [e.player for e in of_type(events, Eliminated)] == ["p02"]
    assert run.state.status is Status.FINISHED  # no waiting for the window to close


def test_a_decision_stops_his_clock() -> None:
    run = running(2)
    bust_at(run, "p02", "p01", T0 + 100)
    run.do(Rebuy("p02"))
    assert run.state.entrants["p02"].rebuy_until is None
    assert refusal(run, RebuyTimeout("p02", T0 + 999, 0)) is TournamentErrorCode.ILLEGAL_ACTION


def test_the_decision_clock_is_configurable_and_scales_with_the_minute() -> None:
    assert REBUYS.rebuy_decision_seconds == 60
    rebuys = Rebuys(2, 1000, 100, decision_seconds=90)
    fast = replace(REBUYS, rebuys=rebuys, structure=replace(REBUYS.structure, minute_seconds=6))
    assert fast.rebuy_decision_seconds == 9
    run = Run(fast).register(players(2)).start()
    assert RebuyOffered("p02", T0 + 109) in bust_at(run, "p02", "p01", T0 + 100)
