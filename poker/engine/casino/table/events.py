"""Casino table events: the facts a casino table's stream is made of, in
the past tense.

A table's state is the fold of these (``evolve_table``); each round runs
in its own stream (``poker.engine.casino``) and meets the table only at
``RoundDealt`` and ``RoundFinished``.  Boxes are numbered from 0, players
named by their id.

Chips move between a player's wallet and the round only on ``BetPlaced``
(``held`` leaves the wallet), ``BetWithdrawn`` (``held`` comes back) and
``RoundFinished`` (each ``BoxPaid``): nothing else moves money.

Every event round-trips through JSON (``table_event_to_json`` /
``table_event_from_json``) with its stored name
(``CASINO_TABLE_EVENT_TYPES``) under ``"type"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from poker.engine.casino.table.config import CasinoTableConfig
from poker.engine.codec import from_typed_json, registry, to_typed_json


@dataclass(frozen=True, slots=True)
class TableOpened:
    """The table opened with ``config``."""

    config: CasinoTableConfig


@dataclass(frozen=True, slots=True)
class PlayerSat:
    """``player`` took box ``box`` (0-based)."""

    box: int
    player: str


@dataclass(frozen=True, slots=True)
class BetPlaced:
    """The box bet ``amount`` (B) on the next round; ``held`` chips left
    the player's wallet for the round."""

    box: int
    amount: int
    held: int


@dataclass(frozen=True, slots=True)
class BetWithdrawn:
    """The box's bet was taken back before the deal: ``held`` chips went
    back to the wallet."""

    box: int
    held: int


@dataclass(frozen=True, slots=True)
class PlayerSatOut:
    """The box takes no part in rounds until it sits in."""

    box: int


@dataclass(frozen=True, slots=True)
class PlayerSatIn:
    """The box may bet again."""

    box: int


@dataclass(frozen=True, slots=True)
class LeaveQueued:
    """The player leaves when the round he is dealt in ends."""

    box: int


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """The box is empty again."""

    box: int


@dataclass(frozen=True, slots=True)
class RoundDealt:
    """Round ``number`` was dealt to ``boxes`` (box numbers, in order: the
    round's box 0 is ``boxes[0]``)."""

    number: int
    boxes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoxPaid:
    """One box's round in money: of the ``held`` chips it ``staked`` some
    and ``won`` came back; the wallet gets ``held - staked + won``."""

    box: int
    player: str
    held: int
    staked: int
    won: int


@dataclass(frozen=True, slots=True)
class RoundFinished:
    """Round ``number`` is settled, each box as ``paid`` says."""

    number: int
    paid: tuple[BoxPaid, ...]


@dataclass(frozen=True, slots=True)
class TableClosing:
    """The table closes when the running round ends."""


@dataclass(frozen=True, slots=True)
class TableClosed:
    """The table takes no more commands."""


CasinoTableEvent = Union[  # noqa: UP007 - typing.get_args lists the members
    TableOpened,
    PlayerSat,
    BetPlaced,
    BetWithdrawn,
    PlayerSatOut,
    PlayerSatIn,
    LeaveQueued,
    PlayerLeft,
    RoundDealt,
    RoundFinished,
    TableClosing,
    TableClosed,
]

CASINO_TABLE_EVENT_TYPES: dict[str, type[Any]] = registry(
    CasinoTableEvent,
    {
        "casino_table.opened": TableOpened,
        "casino_table.player_sat": PlayerSat,
        "casino_table.bet_placed": BetPlaced,
        "casino_table.bet_withdrawn": BetWithdrawn,
        "casino_table.player_sat_out": PlayerSatOut,
        "casino_table.player_sat_in": PlayerSatIn,
        "casino_table.leave_queued": LeaveQueued,
        "casino_table.player_left": PlayerLeft,
        "casino_table.round_dealt": RoundDealt,
        "casino_table.round_finished": RoundFinished,
        "casino_table.closing": TableClosing,
        "casino_table.closed": TableClosed,
    },
)
"""Every casino table event by its stored name, fixed once written."""


def table_event_to_json(event: CasinoTableEvent) -> dict[str, Any]:
    """The event as JSON-ready data with its stored name under ``"type"``."""
    return to_typed_json(event, CASINO_TABLE_EVENT_TYPES)


def table_event_from_json(data: dict[str, Any]) -> CasinoTableEvent:
    """The event ``table_event_to_json`` made; ``Malformed`` for anything else."""
    event: CasinoTableEvent = from_typed_json(CASINO_TABLE_EVENT_TYPES, data, "casino table event")
    return event
