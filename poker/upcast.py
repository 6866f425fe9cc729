"""The upcasters of poker's streams (hands and tables): the steps that read
their rows of an older schema in today's shape (``kernel.upcast``)."""

from __future__ import annotations

import hashlib
from typing import Any

from kernel.upcast import Step, Upcaster, register

# --------------------------------------------------------------------------
# Poker's streams.  Schema 1 named events by their Python class; these maps
# are the record of those names and must never follow a class rename.

HAND_V1 = Step(
    types={
        "HandStarted": "hand.started",
        "AntePosted": "hand.ante_posted",
        "BlindPosted": "hand.blind_posted",
        "CardsDealt": "hand.cards_dealt",
        "BettingStarted": "hand.betting_started",
        "Folded": "hand.folded",
        "Checked": "hand.checked",
        "Called": "hand.called",
        "BetPlaced": "hand.bet_placed",
        "Raised": "hand.raised",
        "BetReturned": "hand.bet_returned",
        "DrawStarted": "hand.draw_started",
        "Discarded": "hand.discarded",
        "MuckReshuffled": "hand.muck_reshuffled",
        "CardsDrawn": "hand.cards_drawn",
        "ParoleOffered": "hand.parole_offered",
        "ParoleAccepted": "hand.parole_accepted",
        "ParoleDeclined": "hand.parole_declined",
        "ShowdownStarted": "hand.showdown_started",
        "HandShown": "hand.shown",
        "HandMucked": "hand.mucked",
        "PotAwarded": "hand.pot_awarded",
        "HandEnded": "hand.ended",
    }
)

TABLE_V1 = Step(
    types={
        "TableOpened": "table.opened",
        "PlayerSeated": "table.player_seated",
        "ToppedUp": "table.topped_up",
        "TopUpQueued": "table.top_up_queued",
        "SatOut": "table.sat_out",
        "SatIn": "table.sat_in",
        "LeaveQueued": "table.leave_queued",
        "PlayerLeft": "table.player_left",
        "HandBegan": "table.hand_began",
        "HandFinished": "table.hand_finished",
        "TimeBankUsed": "table.time_bank_used",
        "CloseQueued": "table.close_queued",
        "ButtonDrawn": "table.button_drawn",
        "TableClosed": "table.closed",
        "PlayerArrived": "table.player_arrived",
        "PlayerUnseated": "table.player_unseated",
        "ChipsAdded": "table.chips_added",
    }
)


def _deck_hash(seed: int, deck: list[str]) -> str:
    """The one commitment of a hand dealt before schema 3, as published then:
    ``sha256("<seed>:<card> <card> ...")`` in hex."""
    return hashlib.sha256(f"{seed}:{' '.join(deck)}".encode()).hexdigest()


def _whole_deck_commitments(type: str, data: dict[str, Any]) -> dict[str, Any]:
    """Schema 2 hands committed to the deck as a whole: their ``root`` is
    that hash (what their hand row shows), marked so that nothing opens
    against it; their reshuffles published no commitment."""
    if type == "hand.started":
        root = _deck_hash(data["seed"], data["deck"])
        return {**data, "root": root, "commitment": "deck-hash"}
    if type == "hand.muck_reshuffled":
        return {**data, "root": ""}
    return data


HAND_V2 = Step(convert=_whole_deck_commitments)

HANDS = Upcaster({1: HAND_V1, 2: HAND_V2})
TABLES = Upcaster({1: TABLE_V1})


def register_upcasters() -> None:
    """Read hand and table streams through their upcasters (``PokerConfig.ready``)."""
    register("hand-", HANDS)
    register("table-", TABLES)
