"""Checks shared by the table's commands: seat numbers, seated players,
amounts of chips.  Each returns the checked value or raises the typed
refusal the command gets."""

from __future__ import annotations

from poker.engine.errors import BadAmount, Malformed, NotSeated, SeatTaken
from poker.engine.table.state import SeatState, TableState


def seat_number(state: TableState, seat: object) -> int:
    """``seat`` as a seat of this table (``Malformed`` if there is none)."""
    if type(seat) is not int or not 1 <= seat <= state.config.seats:
        raise Malformed(f"there is no seat {seat!r}: seats are 1 to {state.config.seats}")
    return seat


def occupied(state: TableState, seat: object) -> SeatState:
    """Who sits in ``seat`` (``NotSeated`` if nobody)."""
    number = seat_number(state, seat)
    if number not in state.seats:
        raise NotSeated(f"nobody sits in seat {number}", values={"seat": number})
    return state.seats[number]


def seat_free(state: TableState, number: int, player: str) -> None:
    """Refuse to seat ``player`` in seat ``number`` when it is taken or he
    sits at this table already (``SeatTaken``)."""
    if number in state.seats:
        raise SeatTaken(f"seat {number} is taken", values={"seat": number})
    if state.seat_of(player) is not None:
        raise SeatTaken("{0} already sits at this table", players=[player])


def chips(amount: object, what: str) -> int:
    """``amount`` as a positive whole number of chips (``BadAmount`` if not)."""
    if type(amount) is not int or amount <= 0:
        raise BadAmount(f"{what} must be a positive whole number of chips")
    return amount


def player_id(player: object) -> str:
    """``player`` as a player id: a non-empty string."""
    if not isinstance(player, str) or not player:
        raise Malformed("a player id is a non-empty string")
    return player
