"""A casino table's events as each viewer may see them: the frames of its
live stream and the events of a round's history.

Every event of the table's feed (``casino_feed``: the table stream's and
its rounds', in the order they were written) becomes one public frame, and
a private frame for each player who sees more of it than a spectator:

- a round event goes through the engine's ``casino.redact`` (a box sees
  its own cards; nobody another's; the dealer's cards once turned up), its
  boxes named by the table's box numbers (1 to 4) and players by id; the
  chips a round holds for a box (``stack`` of ``casino.round_started``) are
  shown to its player alone;
- a table event shows what a round holds for a box (``held``) to that
  box's player alone.

Frames carry the openings of their cards (``engine.casino.fairdeal``): a
box's private frame those of the cards dealt or drawn to it, the public
frame of the dealer's turned-up cards theirs; ``casino.round_started`` and
``casino.discards_reshuffled`` carry the ``root`` (and ``count``) of the
order they fix.  The deck order, the seed and every other card stay here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from kernel import feed
from kernel.eventstore import Recorded, load
from poker.casino import streams
from poker.casino.models import CasinoRound, casino_round_stream
from poker.engine import casino
from poker.engine.casino import fairdeal
from poker.engine.casino.events import RoundStarted
from poker.engine.casino.table import (
    BetPlaced,
    BetWithdrawn,
    CasinoTableEvent,
    CasinoTableState,
    RoundFinished,
    evolve_table,
)

Frame = feed.Frame


@dataclass
class RoundSeen:
    """What cutting a round's events needs: its table box numbers by
    position, its players by position, its full events and their trace."""

    boxes: list[int]
    players: list[str]
    events: list[casino.CasinoEvent]
    trace: fairdeal.Trace

    @classmethod
    def load(cls, stream: str, boxes: list[int]) -> RoundSeen:
        events = [streams.decode_round(r) for r in load(stream)]
        first = events[0]
        assert isinstance(first, RoundStarted)
        return cls(boxes, [b.name for b in first.boxes], events, fairdeal.trace(events))

    def position_of(self, player: str | None) -> int | None:
        return self.players.index(player) if player in self.players else None

    def event(self, version: int, viewer: int | None) -> tuple[dict[str, Any], list[Any]]:
        """The event at ``version`` as the box in position ``viewer`` (None:
        a spectator) sees it, and the openings that go with it."""
        event = self.events[version - 1]
        data = casino.redact(event, viewer) | self.trace.commitment(version)
        if isinstance(event, RoundStarted):
            data["boxes"] = [
                {
                    "box": self.boxes[i] + 1,
                    "player": int(entrant.name),
                    "stack": entrant.stack if i == viewer else None,
                    "original": entrant.original,
                }
                for i, entrant in enumerate(event.boxes)
            ]
        elif isinstance(data.get("box"), int):
            data["box"] = self.boxes[data["box"]] + 1
        opened = [o.to_json() for o in self.trace.event_openings(version, event, viewer)]
        return data, opened


@dataclass
class Cutter:
    """Cuts a table's feed rows in order: it folds the table's stream along
    them (whose box is whose) and keeps each round it met."""

    table: int
    state: CasinoTableState | None
    rounds: dict[str, RoundSeen] = field(default_factory=dict)

    def cut(self, row: Recorded, clock: dict[str, Any] | None = None) -> feed.Cut:
        if row.stream.startswith("casino-round-"):
            return self._round(row, clock)
        event = streams.decode_table(row)
        owners = _owners(self.state, event)
        seen = _table_event(row, event, None, owners)
        public = feed.event_frame("event", self.table, row, clock, seen)
        private = [
            (int(owner), feed.event_frame("private", self.table, row, clock, own))
            for owner in sorted(set(owners.values()), key=int)
            for own in [_table_event(row, event, owner, owners)]
        ]
        self.state = evolve_table(self.state, event)
        return feed.cut(public, private)

    def _round(self, row: Recorded, clock: dict[str, Any] | None) -> feed.Cut:
        seen = self.rounds.get(row.stream)
        if seen is None or len(seen.events) < row.version:
            pk = row.stream.removeprefix("casino-round-")
            boxes = list(CasinoRound.objects.values_list("boxes", flat=True).get(pk=pk))
            seen = self.rounds[row.stream] = RoundSeen.load(row.stream, boxes)
        data, opened = seen.event(row.version, None)
        public = _round_frame("event", self.table, row, clock, data, opened)
        private = []
        for position, player in enumerate(seen.players):
            theirs, own = seen.event(row.version, position)
            if theirs != data or own != opened:
                frame = _round_frame("private", self.table, row, clock, theirs, own)
                private.append((int(player), frame))
        return feed.cut(public, private)


def _round_frame(
    kind: Literal["event", "private"],
    table: int,
    row: Recorded,
    clock: dict[str, Any] | None,
    event: dict[str, Any],
    opened: list[Any],
) -> feed.EventFrame:
    """A round event's frame: its round's number, and the openings of the
    cards it shows its viewer."""
    frame = feed.event_frame(kind, table, row, clock, event)
    frame["round"] = _number(row.stream)
    if opened:
        frame["openings"] = opened
    return frame


def _number(stream: str) -> int:
    return int(stream.rsplit("-", 1)[1])


def _owners(state: CasinoTableState | None, event: CasinoTableEvent) -> dict[int, str]:
    """The players of the boxes whose ``held`` ``event`` tells, by box."""
    if isinstance(event, BetPlaced | BetWithdrawn) and state is not None:
        return {event.box: state.seats[event.box].player}
    if isinstance(event, RoundFinished):
        return {paid.box: paid.player for paid in event.paid}
    return {}


def _table_event(
    row: Recorded, event: CasinoTableEvent, viewer: str | None, owners: dict[int, str]
) -> dict[str, Any]:
    """A table event as ``viewer`` (a player id, None: anyone) may see it,
    boxes numbered from 1."""
    data = {"type": row.type, **row.data}
    if isinstance(event, BetPlaced | BetWithdrawn) and (
        viewer is None or owners.get(event.box) != viewer
    ):
        data["held"] = None
    if isinstance(event, RoundFinished):
        data["paid"] = [
            {
                **p,
                "box": p["box"] + 1,
                "held": p["held"] if viewer is not None and p["player"] == viewer else None,
            }
            for p in data["paid"]
        ]
    if isinstance(data.get("box"), int):
        data["box"] = data["box"] + 1
    if isinstance(data.get("boxes"), list):
        data["boxes"] = [b + 1 for b in data["boxes"]]
    return data


def round_events(row: CasinoRound, viewer: str | None) -> tuple[list[dict[str, Any]], list[Any]]:
    """A round's events as ``viewer`` (a player id, or None) may see them,
    and every opening he was given with them (a round's history)."""
    seen = RoundSeen.load(casino_round_stream(row.pk), list(row.boxes))
    position = seen.position_of(viewer)
    events, openings = [], []
    for version in range(1, min(row.version, len(seen.events)) + 1):
        data, opened = seen.event(version, position)
        events.append(data)
        openings += opened
    return events, openings
