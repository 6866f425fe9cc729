"""A casino table between rounds, as pure rules: boxes, bets, and which
round runs.

The round itself is ``poker.engine.casino`` (``decide`` / ``evolve``); this
is the table around it, event-sourced the same way:
``decide_table(state, command) -> events``, ``evolve_table(state, event)
-> state``, ``play_table`` (both at once), ``replay_table(events)``; the
stream starts with ``open_table(config)``.  ``StartRound`` and
``FinishRound`` tie each round's stream to the table's.

- ``config``: ``CasinoTableConfig`` and its bounds (``CONFIG_SETTINGS``);
- ``events``: ``CasinoTableEvent``, stored as ``casino_table.*``
  (``CASINO_TABLE_EVENT_TYPES``);
- ``commands``: ``TableCommand``;
- ``state``: ``CasinoTableState`` and its boxes (``CasinoSeat``);
- ``decide`` and ``evolve``: the write side and the fold;
- ``cover``: what a bet holds for a round (``round_cover``) and what the
  house may lose on it (``exposure``).
"""

from poker.engine.casino.table.commands import (
    Bet,
    Close,
    FinishRound,
    Leave,
    Sit,
    SitIn,
    SitOut,
    StartRound,
    TableCommand,
)
from poker.engine.casino.table.config import CONFIG_SETTINGS, CasinoTableConfig
from poker.engine.casino.table.cover import ROUND_COVER, exposure, round_cover
from poker.engine.casino.table.decide import decide_table, open_table, play_table
from poker.engine.casino.table.events import (
    CASINO_TABLE_EVENT_TYPES,
    BetPlaced,
    BetWithdrawn,
    BoxPaid,
    CasinoTableEvent,
    LeaveQueued,
    PlayerLeft,
    PlayerSat,
    PlayerSatIn,
    PlayerSatOut,
    RoundDealt,
    RoundFinished,
    TableClosed,
    TableClosing,
    TableOpened,
    table_event_from_json,
    table_event_to_json,
)
from poker.engine.casino.table.evolve import evolve_all, evolve_table, replay_table
from poker.engine.casino.table.state import CasinoSeat, CasinoTableState

__all__ = [
    "CASINO_TABLE_EVENT_TYPES",
    "CONFIG_SETTINGS",
    "ROUND_COVER",
    "Bet",
    "BetPlaced",
    "BetWithdrawn",
    "BoxPaid",
    "CasinoSeat",
    "CasinoTableConfig",
    "CasinoTableEvent",
    "CasinoTableState",
    "Close",
    "FinishRound",
    "Leave",
    "LeaveQueued",
    "PlayerLeft",
    "PlayerSat",
    "PlayerSatIn",
    "PlayerSatOut",
    "RoundDealt",
    "RoundFinished",
    "Sit",
    "SitIn",
    "SitOut",
    "StartRound",
    "TableClosed",
    "TableClosing",
    "TableCommand",
    "TableOpened",
    "decide_table",
    "evolve_all",
    "evolve_table",
    "exposure",
    "open_table",
    "play_table",
    "replay_table",
    "round_cover",
    "table_event_from_json",
    "table_event_to_json",
]
