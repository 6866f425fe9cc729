"""Tournament streams read in today's shape (see ``poker.upcast``).

Schema 1 named tournament events by their Python class; this map is the
record of those names and must never follow a class rename.
"""

from __future__ import annotations

from kernel.upcast import Step, Upcaster, register

TOURNAMENT_V1 = Step(
    types={
        "TournamentCreated": "tournament.created",
        "RegistrationOpened": "tournament.registration_opened",
        "Registered": "tournament.player_registered",
        "Unregistered": "tournament.player_unregistered",
        "Started": "tournament.started",
        "Seated": "tournament.player_seated",
        "LevelChanged": "tournament.level_changed",
        "BreakStarted": "tournament.break_started",
        "Paused": "tournament.paused",
        "Resumed": "tournament.resumed",
        "TimeAdded": "tournament.time_added",
        "HandStarted": "tournament.hand_started",
        "HandFinished": "tournament.hand_finished",
        "Rebought": "tournament.player_rebought",
        "RebuyOffered": "tournament.rebuy_offered",
        "AddedOn": "tournament.player_added_on",
        "Eliminated": "tournament.player_eliminated",
        "PlayerMoved": "tournament.player_moved",
        "TableBroken": "tournament.table_broken",
        "FinalTableDrawn": "tournament.final_table_drawn",
        "ButtonDrawn": "tournament.button_drawn",
        "HandForHandStarted": "tournament.hand_for_hand_started",
        "HandForHandEnded": "tournament.hand_for_hand_ended",
        "DisqualificationQueued": "tournament.disqualification_queued",
        "Disqualified": "tournament.player_disqualified",
        "Finished": "tournament.finished",
        "PrizesAwarded": "tournament.prizes_awarded",
        "Cancelled": "tournament.cancelled",
        "Refunded": "tournament.refunded",
    }
)

TOURNAMENTS = Upcaster({1: TOURNAMENT_V1})


def register_upcasters() -> None:
    """Read ``tournament-*`` streams through ``TOURNAMENTS`` (app ready)."""
    register("tournament-", TOURNAMENTS)
