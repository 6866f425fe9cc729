"""WebSocket consumers of tournaments: authenticate, join groups, forward.

- ``ws/tournaments/<id>/?after=<version>``: one tournament, live.  First
  a ``snapshot`` (the tournament as the viewer sees it, at a version, read
  under the tournament lock so no command commits in between), or, for a
  client that names the version it has seen (``after``), one ``update``
  frame with every event since and the tournament as it now stands; then
  an ``update`` frame per command (``tournaments.publish``).  A frame that
  skips versions (the channel layer lost one) brings the missed events the
  same way; a client too far behind gets a snapshot.  Frames at or before
  the version sent are dropped.
- ``ws/tournaments/``: the tournament lobby: a ``snapshot`` of every
  tournament's line, then a ``tournament`` frame per change.  The same
  frames reach ``ws/lobby/``, next to the cash tables' lines.

Both only send: a ``ping`` gets a ``pong``, anything else an error frame.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from kernel.consumers import FeedConsumer, JsonFrames, Place, Refusal
from kernel.dbthreads import database
from kernel.eventstore import load
from kernel.feed import Frame
from poker.publish import LOBBY_GROUP
from tournaments import selectors, timing
from tournaments.models import Tournament
from tournaments.publish import events_frame, tournament_group
from tournaments.timing import seconds
from tournaments.work import lock

NO_TOURNAMENT = Refusal(4404, "not_found", _("no such tournament"))


class TournamentConsumer(FeedConsumer):
    """One tournament's clock, players, stacks and standings, live: every
    frame brings the tournament as it stands, so a gap brings one update
    with every event missed (or a snapshot), not each frame again."""

    model = Tournament
    url_key = "tournament_id"
    missing = NO_TOURNAMENT
    place_key = "version"

    @property
    def group(self) -> str:
        return tournament_group(self.feed_id)

    def snapshot(self) -> list[Frame]:
        return [snapshot(self.feed_id, self.user)]

    def frames_after(self, after: int) -> list[Frame] | None:
        frame = catch_up(self.feed_id, after)
        return None if frame is None else [frame]

    def first(self, frame: Frame) -> Place:
        """An update's first event: its version follows the last one sent."""
        events = frame.get("events") or [frame]
        return events[0]["version"], 0


class TournamentLobbyConsumer(JsonFrames):
    """Every tournament's lobby line: all on connect, then each change."""

    async def connect(self) -> None:
        await self.accept()
        await self.join(LOBBY_GROUP)
        await self._send_lines()

    async def layer_resumed(self, message: dict[str, Any]) -> None:
        """Changes published while the layer was away were lost: the lines again."""
        await self._send_lines()

    async def _send_lines(self) -> None:
        lines = await database(_lobby)()
        await self.send_json({"type": "snapshot", "tournaments": lines})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def frame(self, message: dict[str, Any]) -> None:
        if message["frame"].get("type") == "tournament":
            await self.send_json(message["frame"])


def snapshot(tournament: int, viewer: Any) -> dict[str, Any]:
    """The tournament as ``viewer`` sees it, at exactly one version."""
    with transaction.atomic():
        lock(tournament, shared=True)  # no tournament command commits meanwhile
        row = Tournament.objects.get(pk=tournament)
        state = selectors.state_of(row)
        detail = selectors.tournament_detail(row, viewer, state)
        live = selectors.live(state, seconds(timing.now()))
    return {
        "type": "snapshot",
        "tournament": tournament,
        "version": row.version,
        **live,
        "detail": detail,
    }


MAX_CATCH_UP = 1_000
"""Events one catch-up frame carries at most; further behind, a snapshot."""


def catch_up(tournament: int, after: int) -> dict[str, Any] | None:
    """One ``update`` frame with every event after version ``after`` and
    the tournament as it now stands; None when ``after`` is not a version
    of the stream or is too far behind."""
    with transaction.atomic():
        lock(tournament, shared=True)
        row = Tournament.objects.get(pk=tournament)
        if not 0 < after <= row.version or row.version - after > MAX_CATCH_UP:
            return None
        rows = load(row.stream, after=after)
        return events_frame(tournament, rows, selectors.state_of(row), timing.now())


def _lobby() -> list[dict[str, Any]]:
    return [selectors.tournament_summary(t) for t in selectors.tournament_list()]
