"""Seating rules: the draw, balancing (TDA: the next big blind moves to the
worst position), breaking tables, the final table, newcomers, hand-for-hand."""

from __future__ import annotations

import random

from tournaments.rules.seating import (
    Move,
    TableView,
    balance_moves,
    break_moves,
    draw_seating,
    final_table_draw,
    final_table_due,
    hand_for_hand,
    next_big_blind,
    next_largest_blind,
    seat_newcomer,
    tables_needed,
    tables_to_break,
    worst_seat,
)


def view(seats: dict[int, str], **kw: object) -> TableView:
    return TableView(seats, **kw)  # type: ignore[arg-type]


def full(table: int, n: int, size: int = 6) -> dict[int, str]:
    return {s: f"t{table}s{s}" for s in range(1, n + 1)}


def test_the_draw_uses_the_fewest_tables_with_sizes_within_one() -> None:
    names = [f"p{i}" for i in range(23)]
    layout = draw_seating(names, 6, random.Random(3))
    assert sorted(layout) == [1, 2, 3, 4]
    assert sorted(len(s) for s in layout.values()) == [5, 6, 6, 6]
    seated = [p for seats in layout.values() for p in seats.values()]
    assert sorted(seated) == sorted(names)
    assert all(1 <= seat <= 6 for seats in layout.values() for seat in seats)


def test_the_draw_is_random_and_repeatable_from_its_source() -> None:
    names = [f"p{i}" for i in range(12)]
    assert draw_seating(names, 6, random.Random(1)) == draw_seating(names, 6, random.Random(1))
    draws = {str(draw_seating(names, 6, random.Random(seed))) for seed in range(20)}
    assert len(draws) > 15


def test_tables_needed_is_the_ceiling() -> None:
    assert [tables_needed(n, 6) for n in (0, 1, 6, 7, 12, 13)] == [0, 1, 1, 2, 2, 3]


def test_the_next_big_blind_is_the_first_player_with_chips_after_the_last_one() -> None:
    t = view({1: "a", 3: "b", 5: "c", 6: "d"}, big_blind=3)
    assert next_big_blind(t, 6) == 5
    assert next_big_blind(view(t.seats, big_blind=6), 6) == 1
    assert next_big_blind(view(t.seats, big_blind=3, stuck=frozenset({"c"})), 6) == 6
    assert next_big_blind(view(t.seats), 6) == 1  # no hand yet: the lowest seat


def test_the_worst_seat_is_the_empty_one_the_big_blind_reaches_first() -> None:
    t = view({1: "a", 3: "b", 5: "c"}, big_blind=3)
    assert worst_seat(t, 6) == 4
    assert worst_seat(view(t.seats, big_blind=5), 6) == 6
    assert worst_seat(view(t.seats), 6) == 2  # no hand yet: the lowest empty seat
    assert worst_seat(view(full(1, 6)), 6) is None


OVER_FROM = 4
"""32 Card Draw: an over blind with four or five dealt in."""


def test_with_an_over_blind_the_player_due_to_post_it_next_moves() -> None:
    t = view({1: "a", 2: "b", 3: "c", 4: "d", 5: "e"}, big_blind=2, over_blind=3)
    assert next_big_blind(t, 5) == 3  # posts the big blind next, the over blind last hand
    assert next_largest_blind(t, 5, OVER_FROM) == 4
    assert next_largest_blind(view(t.seats, big_blind=2), 5) == 3  # no over blind: the big


def test_the_last_over_blind_does_not_move_to_post_it_again() -> None:
    t = view({1: "a", 3: "c", 5: "e"}, big_blind=5, over_blind=1)
    assert next_largest_blind(t, 5, OVER_FROM) == 1  # three left: the big blind is the largest
    assert next_largest_blind(t, 5, OVER_FROM, over_there=True) == 3


def test_with_an_over_blind_the_worst_seat_is_after_the_next_big_blind() -> None:
    t = view({1: "a", 3: "b", 4: "c"}, big_blind=1, over_blind=3)
    assert worst_seat(t, 5, OVER_FROM) == 5  # b (seat 3) posts the big blind, the mover the over
    assert worst_seat(t, 5) == 2  # no over blind: the next big blind
    three = view({1: "a", 3: "b"}, big_blind=1)
    assert worst_seat(three, 5, OVER_FROM) == 2  # three dealt in: the big blind is the largest


def test_random_seats_keep_off_those_that_would_hand_the_over_blind_back() -> None:
    tables = {1: view({1: "a", 3: "b"}, big_blind=3), 2: view({1: "x", 2: "y", 3: "z"})}
    for seed in range(10):  # seats 4 and 5 would take the big blind ahead of a
        assert seat_newcomer(tables, 5, random.Random(seed), OVER_FROM) == (1, 2)
        breaking = {**tables, 3: view({2: "p"})}
        (move,) = break_moves(breaking, 3, 5, random.Random(seed), OVER_FROM)
        assert (move.table, move.seat) == (1, 2)


def test_balancing_moves_the_next_big_blind_to_the_worst_seat_of_the_shortest_table() -> None:
    tables = {
        1: view(full(1, 6), big_blind=2),
        2: view({1: "x", 2: "y", 4: "z", 5: "w"}, big_blind=4),
    }
    assert balance_moves(tables, 6) == (Move("t1s3", 1, 3, 2, 6),)


def test_movers_to_one_table_are_seated_for_the_count_they_make_together() -> None:
    short = view({1: "a", 4: "b"}, big_blind=1)  # two more make four: an over blind
    tables = {1: short, 2: view(full(2, 5), big_blind=1), 3: view(full(3, 5), big_blind=1)}
    # The first takes the big blind in seat 2, the last the over blind in seat
    # 3 (b in seat 4, who would post it after the next big blind, posts none).
    assert balance_moves(tables, 5, OVER_FROM) == (
        Move("t2s3", 2, 3, 1, 2),
        Move("t3s3", 3, 3, 1, 3),
    )


def test_the_last_over_blind_stays_when_the_movers_bring_one_where_they_go() -> None:
    seats = {1: "a", 2: "b", 3: "c", 4: "d", 5: "e"}  # d and e have no chips: three play
    giver = view(seats, big_blind=1, over_blind=2, stuck=frozenset({"d", "e"}))
    tables = {1: view({1: "x", 3: "y"}, big_blind=3), 2: giver, 3: view(full(3, 5))}
    moves = balance_moves(tables, 5, OVER_FROM)  # four at table 1: an over blind
    assert [m.player for m in moves if m.from_table == 2] == ["c"]  # b posted the last


def test_tables_within_one_player_are_balanced() -> None:
    tables = {1: view(full(1, 6)), 2: view(full(2, 5)), 3: view(full(3, 5))}
    assert balance_moves(tables, 6) == ()


def test_a_table_in_a_hand_gives_no_player_but_may_receive_one() -> None:
    tables = {1: view(full(1, 6), busy=True), 2: view(full(2, 4))}
    assert balance_moves(tables, 6) == ()
    tables = {1: view(full(1, 6)), 2: view(full(2, 4), busy=True)}
    (move,) = balance_moves(tables, 6)
    assert (move.from_table, move.table) == (1, 2)


def test_another_table_two_over_the_shortest_gives_when_the_fullest_is_busy() -> None:
    tables = {1: view(full(1, 6), busy=True), 2: view(full(2, 5)), 3: view(full(3, 3))}
    (move,) = balance_moves(tables, 6)
    assert (move.from_table, move.table) == (2, 3)


def test_the_highest_numbered_table_breaks_when_the_players_fit_in_one_fewer() -> None:
    tables = {1: view(full(1, 5)), 2: view(full(2, 4)), 3: view(full(3, 3))}
    assert tables_to_break(tables, 6) == (3,)
    tables = {1: view(full(1, 5)), 2: view(full(2, 4)), 3: view(full(3, 4))}
    assert tables_to_break(tables, 6) == ()


def test_the_table_to_break_is_the_highest_numbered_even_in_a_hand() -> None:
    tables = {1: view(full(1, 5)), 2: view(full(2, 4)), 3: view(full(3, 3), busy=True)}
    assert tables_to_break(tables, 6) == (3,)


def test_when_the_players_fit_at_k_tables_fewer_the_k_highest_are_due() -> None:
    tables = {n: view(full(n, 2), busy=n == 4) for n in range(1, 6)}
    assert tables_to_break(tables, 6) == (5, 4, 3)  # 10 players fit at 2 tables
    tables = {n: view(full(n, 4)) for n in range(1, 5)}
    assert tables_to_break(tables, 6) == (4,)  # 16 players need 3
    assert tables_to_break({1: view(full(1, 2))}, 6) == ()


def test_players_of_a_broken_table_fill_the_shortest_tables_in_empty_seats() -> None:
    tables = {1: view(full(1, 5)), 2: view(full(2, 4)), 3: view(full(3, 3))}
    moves = break_moves(tables, 3, 6, random.Random(5))
    assert sorted(m.player for m in moves) == ["t3s1", "t3s2", "t3s3"]
    assert all(m.from_table == 3 for m in moves)
    to = [m.table for m in moves]
    assert sorted(to) == [1, 2, 2]
    for m in moves:
        assert m.seat not in tables[m.table].seats
    assert len({(m.table, m.seat) for m in moves}) == 3


def test_the_final_table_is_due_when_everybody_fits_at_one_table() -> None:
    tables = {1: view(full(1, 3)), 2: view(full(2, 3))}
    assert final_table_due(tables, 6)
    assert not final_table_due({1: view(full(1, 6))}, 6)
    assert not final_table_due({1: view(full(1, 4)), 2: view(full(2, 3))}, 6)


def test_the_final_table_is_drawn_afresh_at_the_lowest_numbered_table() -> None:
    tables = {2: view(full(2, 3)), 4: view(full(4, 2))}
    number, seats = final_table_draw(tables, 6, random.Random(2))
    assert number == 2
    assert sorted(seats.values()) == sorted(["t2s1", "t2s2", "t2s3", "t4s1", "t4s2"])
    assert all(1 <= s <= 6 for s in seats)


def test_a_newcomer_draws_a_seat_at_a_table_with_the_fewest_players() -> None:
    tables = {1: view(full(1, 5)), 2: view(full(2, 4)), 3: view(full(3, 5))}
    for seed in range(10):
        table, seat = seat_newcomer(tables, 6, random.Random(seed))
        assert table == 2 and seat in (5, 6)


def test_a_newcomer_opens_a_new_table_when_every_table_is_full() -> None:
    tables = {1: view(full(1, 6)), 3: view(full(3, 6))}
    table, seat = seat_newcomer(tables, 6, random.Random(1))
    assert table == 4 and 1 <= seat <= 6  # table 2 broke: its number is not reused


def test_a_new_table_is_numbered_after_every_number_used_so_far() -> None:
    tables = {1: view(full(1, 6)), 2: view(full(2, 6))}
    for seed in range(10):
        assert seat_newcomer(tables, 6, random.Random(seed), top_table=5)[0] == 6
        assert seat_newcomer(tables, 6, random.Random(seed), top_table=2)[0] == 3


def test_hand_for_hand_on_the_money_bubble() -> None:
    assert hand_for_hand(players_left=10, tables=2, paid_places=9, seats=None)
    assert not hand_for_hand(players_left=11, tables=2, paid_places=9, seats=None)
    assert not hand_for_hand(players_left=9, tables=2, paid_places=9, seats=None)


def test_no_hand_for_hand_at_one_table() -> None:
    assert not hand_for_hand(players_left=4, tables=1, paid_places=3, seats=None)


def test_a_satellite_plays_hand_for_hand_for_the_last_seat() -> None:
    # 3 seats and cash for 4th: the money bubble is 5 left, the last seat 4 left
    assert hand_for_hand(players_left=5, tables=2, paid_places=4, seats=3)
    assert hand_for_hand(players_left=4, tables=2, paid_places=4, seats=3)
    assert not hand_for_hand(players_left=6, tables=2, paid_places=4, seats=3)
    # no seat covered: only the cash place
    assert not hand_for_hand(players_left=1, tables=2, paid_places=1, seats=0)
