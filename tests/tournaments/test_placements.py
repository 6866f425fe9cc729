"""Finishing places from eliminations, and prizes shared by ties."""

from __future__ import annotations

import pytest

from tournaments.rules import Award, Bust, Prize, Standing, award, standings
from tournaments.rules.errors import Malformed


def test_the_last_player_standing_wins_and_busts_count_back_from_the_last() -> None:
    places = standings([Bust("a", 1, 100), Bust("b", 2, 100)], {"c": 300})
    assert places == (Standing("c", 1), Standing("b", 2), Standing("a", 3))


def test_players_busted_in_the_same_hand_rank_by_their_stacks_at_its_start() -> None:
    places = standings([Bust("a", 5, 100), Bust("b", 5, 400), Bust("c", 5, 250)], {"w": 750})
    assert [s.player for s in places] == ["w", "b", "c", "a"]
    assert [s.place for s in places] == [1, 2, 3, 4]


def test_equal_stacks_in_the_same_hand_tie_and_share_their_places() -> None:
    places = standings([Bust("a", 5, 200), Bust("b", 5, 200), Bust("c", 4, 900)], {"w": 1})
    assert places == (
        Standing("w", 1),
        Standing("a", 2, shared=2),
        Standing("b", 2, shared=2),
        Standing("c", 4),
    )


def test_equal_stacks_in_different_hands_do_not_tie() -> None:
    places = standings([Bust("a", 1, 200), Bust("b", 2, 200)], {"w": 400})
    assert [s.place for s in places] == [1, 2, 3]


def test_several_survivors_rank_by_chips() -> None:
    places = standings([Bust("a", 1, 10)], {"x": 100, "y": 300, "z": 100})
    assert places == (
        Standing("y", 1),
        Standing("x", 2, shared=2),
        Standing("z", 2, shared=2),
        Standing("a", 4),
    )


def test_a_player_is_placed_once() -> None:
    with pytest.raises(Malformed):
        standings([Bust("a", 1, 10)], {"a": 10})


def test_prizes_follow_places() -> None:
    places = standings([Bust("a", 1, 10), Bust("b", 2, 10)], {"c": 20})
    assert award(places, (Prize(600), Prize(400))) == (Award("c", 1, 600), Award("b", 2, 400))


def test_tied_players_share_the_combined_prizes_of_their_places_exactly() -> None:
    places = standings([Bust("b", 3, 50), Bust("a", 3, 50), Bust("c", 2, 99)], {"w": 1})
    awards = award(places, (Prize(500), Prize(301), Prize(200)))
    # a and b tie for 2nd-3rd: (301 + 200) / 2 = 250 each, the odd unit to a (player order)
    assert awards == (Award("w", 1, 500), Award("a", 2, 251), Award("b", 2, 250))


def test_a_tie_covering_only_seats_gives_each_a_ticket() -> None:
    places = standings([Bust("a", 2, 50), Bust("b", 2, 50), Bust("c", 1, 9)], {"w": 1})
    prizes = (Prize(ticket=True),) * 3 + (Prize(cash=300),)
    awards = award(places, prizes, seat_value=1000)
    assert awards == (
        Award("w", 1, ticket=True),
        Award("a", 2, ticket=True),
        Award("b", 2, ticket=True),
        Award("c", 4, cash=300),
    )


def test_a_tie_for_the_last_seat_shares_its_value_in_cash() -> None:
    places = standings([Bust("a", 2, 50), Bust("b", 2, 50)], {"w": 1})
    prizes = (Prize(ticket=True), Prize(ticket=True), Prize(cash=301))
    awards = award(places, prizes, seat_value=1000)
    assert awards == (Award("w", 1, ticket=True), Award("a", 2, 651), Award("b", 2, 650))


def test_a_winner_already_in_the_target_gets_the_buy_in_in_cash() -> None:
    places = standings([Bust("a", 1, 10)], {"w": 20, "v": 10})
    prizes = (Prize(ticket=True), Prize(ticket=True), Prize(cash=50))
    awards = award(places, prizes, seat_value=1000, in_target={"v"})
    assert awards == (Award("w", 1, ticket=True), Award("v", 2, cash=1000), Award("a", 3, 50))


def test_places_beyond_the_paid_ones_win_nothing() -> None:
    places = standings([Bust("a", 1, 10), Bust("b", 2, 10)], {"w": 20})
    assert award(places, (Prize(100),)) == (Award("w", 1, 100),)
