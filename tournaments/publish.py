"""Frames for the tournament streams, sent only after each commit.

- ``tournament.<id>``: one ``update`` frame per command (in the message
  every live stream sends, ``kernel.feed``), with the events
  it appended (each with its version) and the tournament as it then
  stands: the clock, players left, the average stack, the standings.
  Versions let a client see every event once, in order, and know when it
  missed some (it then asks for a fresh snapshot).
- the lobby group (``poker.publish.LOBBY_GROUP``, shared with the cash
  tables): a ``tournament`` frame with the tournament's lobby line
  whenever that line changed: a tournament appearing, filling, starting,
  closing registration, finishing or being cancelled.

Tournament events hide nothing (entries, seats and prizes are public), so
every watcher gets the same frames.  The channel layer may drop messages;
the event store is the truth.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction

from kernel import feed
from kernel.eventstore import Recorded
from kernel.layer import Messages, send_all
from poker.publish import LOBBY_GROUP
from tournaments import selectors
from tournaments.rules import TournamentState
from tournaments.timing import seconds
from tournaments.work import Outcome


def tournament_group(tournament: int) -> str:
    """The group of everyone watching one tournament."""
    return f"tournament.{tournament}"


def events_frame(
    tournament: int, rows: Sequence[Recorded], state: TournamentState, at: datetime
) -> dict[str, Any]:
    """An ``update``: stored events (each with its version) and the
    tournament as ``state`` has it at ``at``."""
    return {
        "type": "update",
        "tournament": tournament,
        "version": state.version,
        "events": [{"version": r.version, "type": r.type, **r.data} for r in rows],
        **selectors.live(state, seconds(at)),
    }


def lobby_frame(summary: dict[str, Any]) -> dict[str, Any]:
    """A tournament's lobby line as a frame."""
    return {"type": "tournament", "tournament": summary}


def on_commit(outcome: Outcome) -> None:
    """Send the command's frames once it commits: the lobby line made now,
    from the row as written (a later command of the transaction may write
    it again), the update once committed, from the state and events it
    wrote (its standings' screen names read then, not while the command
    holds the tournament row locked)."""
    if not outcome.recorded:
        return
    pk, rows, state, at = outcome.row.pk, outcome.recorded, outcome.state, outcome.now
    line = selectors.tournament_summary(outcome.row)
    lobby: Messages = []
    if line != outcome.line_before:
        lobby.append((LOBBY_GROUP, lobby_frame(line)))

    def send() -> None:
        group = tournament_group(pk)
        update = feed.cut(events_frame(pk, rows, state, at))
        send_all([(group, feed.message(group, [update])), *lobby])

    transaction.on_commit(send)
