"""Tables as the tournament runs: balancing and breaking as players bust,
the final table, hand-for-hand on the bubble, staff moves, disqualification."""

from __future__ import annotations

from tests.tournaments.support import Run, at, definition, of_type, players, refusal
from tournaments.rules import (
    ButtonDrawn,
    DisqualificationQueued,
    Disqualified,
    Disqualify,
    Eliminated,
    FinalTableDrawn,
    FinishHand,
    HandFinished,
    HandForHandEnded,
    HandForHandStarted,
    HandStarted,
    MovePlayer,
    PayoutTable,
    PayoutTier,
    PlayerMoved,
    PlayerStack,
    Start,
    StartHand,
    TableBroken,
    TournamentErrorCode,
    can_start_hand,
    evolve,
    tables_to_deal,
)
from tournaments.rules import queries as q
from tournaments.rules.seating import next_big_blind


def bust_at(run: Run, table: int) -> list[object]:
    """A hand at ``table`` in which its first player takes all of its last one's chips."""
    here = at(run, table)
    return run.bust(here[-1], here[0])


def sizes(run: Run) -> dict[int, int]:
    return {n: len(t.seats) for n, t in run.state.tables.items()}


def test_a_table_two_short_gets_the_next_big_blind_of_the_fullest_table() -> None:
    run = Run().register(players(12)).start()
    big_blind = sorted(run.state.tables[2].seats)[2]
    run.do(StartHand(2, big_blind=big_blind))
    run.do(FinishHand(2, {p: 1000 for p in at(run, 2)}, 0))
    mover_seat = next_big_blind(q.table_views(run.state)[2], 6)
    assert mover_seat is not None
    mover = run.state.tables[2].seats[mover_seat]
    bust_at(run, 1)
    events = bust_at(run, 1)
    (moved,) = of_type(events, PlayerMoved)
    assert (moved.player, moved.from_table, moved.from_seat, moved.table) == (
        mover,
        2,
        mover_seat,
        1,
    )
    assert sizes(run) == {1: 5, 2: 5}


def test_a_table_in_a_hand_gives_its_player_when_the_hand_ends() -> None:
    run = Run().register(players(12)).start()
    run.do(StartHand(2))
    bust_at(run, 1)
    assert of_type(bust_at(run, 1), PlayerMoved) == []
    assert sizes(run) == {1: 4, 2: 6}
    hand = run.state.tables[2].hand
    assert hand is not None
    events = run.do(FinishHand(2, {p.player: p.stack for p in run.state.hands[hand].players}, 0))
    assert len(of_type(events, PlayerMoved)) == 1
    assert sizes(run) == {1: 5, 2: 5}


def test_the_highest_numbered_table_breaks_when_the_players_fit_at_one_fewer() -> None:
    run = Run().register(players(13)).start()
    assert sorted(sizes(run).values()) == [4, 4, 5]
    events = bust_at(run, 1)
    assert TableBroken(3) in events
    moved = of_type(events, PlayerMoved)
    assert {m.from_table for m in moved} == {3} and {m.table for m in moved} <= {1, 2}
    assert sizes(run) == {1: 6, 2: 6}


def test_the_highest_numbered_table_breaks_even_when_another_finishes_first() -> None:
    run = Run().register(players(13)).start()
    run.do(StartHand(3))
    events = bust_at(run, 1)
    assert of_type(events, TableBroken) == [] and of_type(events, PlayerMoved) == []
    assert sizes(run) == {1: 4, 2: 4, 3: 4}  # nobody moves while table 3 plays on
    hand = run.state.tables[3].hand
    assert hand is not None
    stacks = {p.player: p.stack for p in run.state.hands[hand].players}
    events = run.do(FinishHand(3, stacks, 0))
    assert of_type(events, TableBroken) == [TableBroken(3)]
    assert {m.from_table for m in of_type(events, PlayerMoved)} == {3}
    assert sizes(run) == {1: 6, 2: 6}


def test_while_every_table_is_in_a_hand_the_highest_numbered_still_breaks() -> None:
    run = Run().register(players(13)).start()
    run.do(StartHand(2), StartHand(3))
    assert of_type(bust_at(run, 1), TableBroken) == []
    for table in (2, 3):
        hand = run.state.tables[table].hand
        assert hand is not None
        stacks = {p.player: p.stack for p in run.state.hands[hand].players}
        events = run.do(FinishHand(table, stacks, 0))
        assert of_type(events, TableBroken) == ([] if table == 2 else [TableBroken(3)])
    assert sizes(run) == {1: 6, 2: 6}


def finish(run: Run, table: int) -> list[object]:
    """Finish the hand running at ``table``, nobody's chips changing."""
    hand = run.state.tables[table].hand
    assert hand is not None
    return run.do(FinishHand(table, {p.player: p.stack for p in run.state.hands[hand].players}, 0))


def bust_all_but_one(run: Run, table: int) -> None:
    """A hand at ``table`` in which its first player takes everybody's chips."""
    here = at(run, table)
    run.hand(table, {here[0]: 1000 * (len(here) - 1), **{p: -1000 for p in here[1:]}})


def test_with_two_tables_too_many_the_two_highest_break_each_when_its_hand_ends() -> None:
    run = Run().register(players(19)).start()
    assert sizes(run) == {1: 5, 2: 5, 3: 5, 4: 4}
    run.do(StartHand(3), StartHand(4))
    bust_all_but_one(run, 1)  # 15 left: table 4 is due to break
    bust_all_but_one(run, 2)  # 11 left: tables 4 and 3
    assert sizes(run) == {1: 1, 2: 1, 3: 5, 4: 4}  # nobody moves while they play on
    events = finish(run, 3)
    assert of_type(events, TableBroken) == [TableBroken(3)]  # not waiting for table 4
    assert {(m.from_table, m.table) for m in of_type(events, PlayerMoved)} == {(3, 1), (3, 2)}
    assert sorted(sizes(run).values()) == [3, 4, 4]  # balancing waits while 4 is due to break
    events = finish(run, 4)
    assert of_type(events, TableBroken) == [TableBroken(4)]
    assert sorted(sizes(run).values()) == [5, 6]


def test_tables_due_to_break_between_hands_all_break_in_one_settling() -> None:
    run = Run().register(players(19)).start()
    gone = at(run, 1)[:4] + at(run, 2)[:3]
    for player in gone[:-1]:  # out without settling: 13 left, table 4 due to break
        run.state = evolve(run.state, Eliminated(player, 1, 1000))
    events = run.do(Disqualify(gone[-1], 0))  # 12 left: tables 4 and 3 too many
    assert of_type(events, TableBroken) == [TableBroken(4), TableBroken(3)]
    assert {m.table for m in of_type(events, PlayerMoved)} == {1, 2}
    assert sizes(run) == {1: 6, 2: 6}


def test_a_table_due_to_break_deals_no_hand() -> None:
    run = Run().register(players(19)).start()
    assert tables_to_deal(run.state) == [1, 2, 3, 4]
    for player in at(run, 1)[:4]:  # out without settling: 15 left, table 4 due to break
        run.state = evolve(run.state, Eliminated(player, 1, 1000))
    assert not can_start_hand(run.state, 4)
    assert refusal(run, StartHand(4)) is TournamentErrorCode.ILLEGAL_ACTION
    assert tables_to_deal(run.state) == [2, 3]  # table 1 has one player left


def test_the_final_table_is_drawn_when_everybody_fits_at_one_table() -> None:
    run = Run().register(players(7)).start()
    events = bust_at(run, 1)
    (drawn,) = of_type(events, FinalTableDrawn)
    assert drawn.table == 1
    assert sorted(s.player for s in drawn.seats) == sorted(at(run, 1))
    assert list(run.state.tables) == [1] and run.state.final_table == 1
    assert len(at(run, 1)) == 6


def test_the_final_table_gets_its_button_by_draw_on_a_player_with_chips() -> None:
    buttons = set()
    for seed in range(12):
        run = Run().register(players(7)).start()
        events = run.bust(at(run, 1)[-1], at(run, 1)[0], seed=seed)
        (drawn,) = of_type(events, FinalTableDrawn)
        (button,) = of_type(events, ButtonDrawn)
        assert events.index(button) == events.index(drawn) + 1 and button.table == drawn.table
        assert button.seat in {s.seat for s in drawn.seats}
        buttons.add(run.state.tables[1].seats[button.seat])
    assert len(buttons) > 2  # a draw, not a fixed seat


def test_every_table_of_the_first_draw_gets_its_button_by_draw() -> None:
    run = Run().register(players(13))
    events = run.do(Start(1_000_000, 4))
    buttons = {b.table: b.seat for b in of_type(events, ButtonDrawn)}
    assert sorted(buttons) == [1, 2, 3]
    assert all(seat in run.state.tables[n].seats for n, seat in buttons.items())


def test_the_final_table_waits_for_every_hand_and_no_table_deals_meanwhile() -> None:
    run = Run().register(players(7)).start()
    run.do(StartHand(2))
    assert of_type(bust_at(run, 1), FinalTableDrawn) == []
    assert refusal(run, StartHand(1)) is TournamentErrorCode.ILLEGAL_ACTION
    hand = run.state.tables[2].hand
    assert hand is not None
    stacks = {p.player: p.stack for p in run.state.hands[hand].players}
    assert len(of_type(run.do(FinishHand(2, stacks, 0)), FinalTableDrawn)) == 1


SEVEN_PAID = definition(
    payouts=PayoutTable(
        (
            PayoutTier(2, (10_000,)),
            PayoutTier(12, (3_000, 2_000, 1_500, 1_000, 1_000, 1_000, 500)),
        )
    )
)
"""Twelve players at two tables, seven paid: the bubble is at eight."""


def to_bubble() -> Run:
    run = Run(SEVEN_PAID).register(players(12)).start()
    while q.players_left(run.state) > 9:
        table = max(run.state.tables, key=lambda n: (len(run.state.tables[n].seats), n))
        bust_at(run, table)
    assert not run.state.hand_for_hand
    return run


def test_hand_for_hand_starts_on_the_bubble() -> None:
    run = to_bubble()
    events = bust_at(run, 1)
    assert HandForHandStarted() in events
    assert run.state.hand_for_hand and q.players_left(run.state) == 8


def test_in_hand_for_hand_each_table_deals_once_a_round() -> None:
    run = to_bubble()
    bust_at(run, 1)
    run.hand(1)
    assert refusal(run, StartHand(1)) is TournamentErrorCode.ILLEGAL_ACTION
    run.do(StartHand(2))
    assert refusal(run, StartHand(1)) is TournamentErrorCode.ILLEGAL_ACTION
    hand = run.state.tables[2].hand
    assert hand is not None
    run.do(FinishHand(2, {p.player: p.stack for p in run.state.hands[hand].players}, 0))
    run.do(StartHand(1))  # a new round


def test_a_new_round_waits_for_hands_started_before_hand_for_hand() -> None:
    run = to_bubble()
    run.do(StartHand(2))
    bust_at(run, 1)
    assert run.state.hand_for_hand
    assert refusal(run, StartHand(1)) is TournamentErrorCode.ILLEGAL_ACTION


def test_busts_at_different_tables_in_one_round_rank_by_their_stacks() -> None:
    run = to_bubble()
    bust_at(run, 1)
    run.do(StartHand(1), StartHand(2))
    losers = []
    for table in (1, 2):
        hand = run.state.tables[table].hand
        assert hand is not None
        stacks = {p.player: p.stack for p in run.state.hands[hand].players}
        here = sorted(stacks)
        loser = min(here, key=lambda p: (stacks[p], p)) if table == 1 else here[-1]
        winner = next(p for p in here if p != loser)
        stacks[winner] += stacks[loser]
        stacks[loser] = 0
        losers.append(loser)
        run.do(FinishHand(table, stacks, 0))
    busts = [run.state.entrants[p].bust for p in losers]
    assert busts[0] is not None and busts[1] is not None
    assert busts[0].group == busts[1].group
    assert HandForHandEnded() in run.events


def test_hand_for_hand_ends_when_the_bubble_bursts() -> None:
    run = to_bubble()
    bust_at(run, 1)
    events = bust_at(run, 2)
    assert HandForHandEnded() in events
    assert not run.state.hand_for_hand


def test_staff_move_a_player_to_an_empty_seat() -> None:
    run = Run().register(players(8)).start()
    player = at(run, 1)[0]
    empty = next(s for s in range(1, 7) if s not in run.state.tables[2].seats)
    origin = run.seat_of(player)
    (moved,) = run.do(MovePlayer(player, 2, empty))
    assert moved == PlayerMoved(player, origin[0], origin[1], 2, empty)
    assert run.seat_of(player) == (2, empty)


def test_staff_moves_are_refused_into_a_taken_seat_or_during_the_players_hand() -> None:
    run = Run().register(players(8)).start()
    player = at(run, 1)[0]
    taken = next(iter(run.state.tables[2].seats))
    assert refusal(run, MovePlayer(player, 2, taken)) is TournamentErrorCode.SEAT_TAKEN
    assert refusal(run, MovePlayer(player, 2, 7)) is TournamentErrorCode.MALFORMED
    assert refusal(run, MovePlayer(player, 9, 1)) is TournamentErrorCode.MALFORMED
    run.do(StartHand(1))
    empty = next(s for s in range(1, 7) if s not in run.state.tables[2].seats)
    assert refusal(run, MovePlayer(player, 2, empty)) is TournamentErrorCode.ILLEGAL_ACTION


def test_a_disqualified_players_chips_leave_play_and_he_is_not_placed() -> None:
    run = Run().register(players(3)).start()
    run.hand(1, {"p02": 300, "p03": -300})
    assert run.do(Disqualify("p02", 0)) == [Disqualified("p02", 1300)]
    assert "p02" not in at(run, 1)
    assert sum(e.stack for e in run.state.entrants.values()) == 1700
    run.bust("p03", "p01")
    assert [s.player for s in run.state.standings] == ["p01", "p03"]


def test_disqualification_during_his_hand_waits_for_it_to_end() -> None:
    run = Run().register(players(3)).start()
    run.do(StartHand(1))
    assert run.do(Disqualify("p02", 0)) == [DisqualificationQueued("p02")]
    assert refusal(run, Disqualify("p02", 0)) is TournamentErrorCode.ILLEGAL_ACTION
    stacks = {"p01": 900, "p02": 1100, "p03": 1000}
    events = run.do(FinishHand(1, stacks, 0))
    assert Disqualified("p02", 1100) in events
    assert not run.state.entrants["p02"].alive


def test_the_last_player_in_cannot_be_disqualified() -> None:
    run = Run().register(players(3)).start()
    run.do(Disqualify("p02", 0))
    run.do(Disqualify("p03", 0))
    assert run.state.status.value == "finished"
    run2 = Run().register(players(2)).start()
    run2.do(StartHand(1))
    run2.do(Disqualify("p01", 0))
    assert refusal(run2, Disqualify("p02", 0)) is TournamentErrorCode.ILLEGAL_ACTION


def test_a_hand_for_hand_round_ends_when_the_table_yet_to_deal_breaks() -> None:
    run = Run(definition(table_size=3)).register(players(7)).start()
    assert sizes(run) == {1: 3, 2: 2, 3: 2}
    gone = at(run, 1)[0]
    state = evolve(run.state, Eliminated(gone, 1, 1000))  # six left, at 2 + 2 + 2
    state = evolve(state, HandForHandStarted())
    for number, table in ((1, 1), (2, 2)):
        seated = state.tables[table].seats
        dealt = tuple(PlayerStack(p, s, 1000) for s, p in sorted(seated.items()))
        state = evolve(state, HandStarted(number, table, 1, dealt))
        state = evolve(state, HandFinished(number, table, dealt))
    assert state.round_tables == {1, 2}
    leaving = sorted(state.tables[3].seats.items())
    for (seat, player), table in zip(leaving, (1, 2), strict=True):
        free = next(s for s in (1, 2, 3) if s not in state.tables[table].seats)
        state = evolve(state, PlayerMoved(player, 3, seat, table, free))
    state = evolve(state, TableBroken(3))
    assert state.round_tables == frozenset()
    assert state.round_group is None
