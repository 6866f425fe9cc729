"""Cash tables as pure rules: seats, buy-ins, top-ups, sitting out, the
button and blinds from hand to hand (TDA dead button), missed blinds.

The same shape as a hand: ``decide_table(state, command) -> events``,
``evolve_table(state, event) -> state``, ``replay_table(events)``; the
stream starts with ``open_table(config)``.  ``plan_hand(state)`` lays out
the next hand for the hand engine (``HandPlan.to_deal``) and
``StartHand``/``FinishHand`` tie the hand's stream to the table's.
"""

from poker.engine.table.commands import (
    Close,
    FinishHand,
    Leave,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    TableCommand,
    TopUp,
)
from poker.engine.table.config import TableConfig
from poker.engine.table.decide import decide_table, hand_result, open_table, play_table
from poker.engine.table.events import (
    TABLE_EVENT_TYPES,
    CloseQueued,
    HandBegan,
    HandFinished,
    LeaveQueued,
    PlayerLeft,
    PlayerSeated,
    SatIn,
    SatOut,
    SeatPost,
    SeatStack,
    TableClosed,
    TableEvent,
    TableOpened,
    ToppedUp,
    TopUpQueued,
    table_event_from_json,
    table_event_to_json,
)
from poker.engine.table.plan import HandPlan, began, entry_post, plan_hand, to_deal
from poker.engine.table.state import SeatState, TableState, evolve_table, replay_table

__all__ = [
    "TABLE_EVENT_TYPES",
    "Close",
    "CloseQueued",
    "FinishHand",
    "HandBegan",
    "HandFinished",
    "HandPlan",
    "Leave",
    "LeaveQueued",
    "PlayerLeft",
    "PlayerSeated",
    "SatIn",
    "SatOut",
    "SeatPost",
    "SeatStack",
    "SeatState",
    "Sit",
    "SitIn",
    "SitOut",
    "StartHand",
    "TableClosed",
    "TableCommand",
    "TableConfig",
    "TableEvent",
    "TableOpened",
    "TableState",
    "TopUp",
    "TopUpQueued",
    "ToppedUp",
    "began",
    "decide_table",
    "entry_post",
    "evolve_table",
    "hand_result",
    "open_table",
    "plan_hand",
    "play_table",
    "replay_table",
    "table_event_from_json",
    "table_event_to_json",
    "to_deal",
]
