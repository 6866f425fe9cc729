"""Tables as pure rules: seats, buy-ins, top-ups, sitting out, the button
and blinds from hand to hand (TDA dead button), missed blinds; and the same
tables in tournament mode (``TableConfig.tournament``), where the tournament
seats and unseats players, adds chips and gives each hand its level
(``poker.engine.table.tournament``).

The same shape as a hand: ``decide_table(state, command) -> events``,
``evolve_table(state, event) -> state``, ``replay_table(events)``; the
stream starts with ``open_table(config)``.  ``plan_hand(state)`` lays out
the next hand for the hand engine (``HandPlan.to_deal``) and
``StartHand``/``FinishHand`` tie the hand's stream to the table's.
"""

from poker.engine.table.commands import (
    AddChips,
    Close,
    DrawButton,
    FinishHand,
    Leave,
    Seat,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    TableCommand,
    TopUp,
    Unseat,
    UseTimeBank,
)
from poker.engine.table.config import Stakes, TableConfig
from poker.engine.table.decide import decide_table, hand_result, open_table, play_table
from poker.engine.table.events import (
    TABLE_EVENT_TYPES,
    ButtonDrawn,
    ChipsAdded,
    CloseQueued,
    HandBegan,
    HandFinished,
    LeaveQueued,
    PlayerArrived,
    PlayerLeft,
    PlayerSeated,
    PlayerUnseated,
    SatIn,
    SatOut,
    SeatPost,
    SeatStack,
    TableClosed,
    TableEvent,
    TableOpened,
    TimeBankUsed,
    ToppedUp,
    TopUpQueued,
    UnseatReason,
    table_event_from_json,
    table_event_to_json,
)
from poker.engine.table.evolve import evolve_table, replay_table
from poker.engine.table.plan import (
    DealtIn,
    HandPlan,
    began,
    dealt_in,
    entry_post,
    plan_hand,
    to_deal,
)
from poker.engine.table.state import SeatState, TableState

__all__ = [
    "TABLE_EVENT_TYPES",
    "AddChips",
    "ButtonDrawn",
    "ChipsAdded",
    "Close",
    "CloseQueued",
    "DealtIn",
    "DrawButton",
    "FinishHand",
    "HandBegan",
    "HandFinished",
    "HandPlan",
    "Leave",
    "LeaveQueued",
    "PlayerArrived",
    "PlayerLeft",
    "PlayerSeated",
    "PlayerUnseated",
    "SatIn",
    "SatOut",
    "Seat",
    "SeatPost",
    "SeatStack",
    "SeatState",
    "Sit",
    "SitIn",
    "SitOut",
    "Stakes",
    "StartHand",
    "TableClosed",
    "TableCommand",
    "TableConfig",
    "TableEvent",
    "TableOpened",
    "TableState",
    "TimeBankUsed",
    "TopUp",
    "TopUpQueued",
    "ToppedUp",
    "Unseat",
    "UnseatReason",
    "UseTimeBank",
    "began",
    "dealt_in",
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
