"""The live stream of a casino table: ``ws/casino/tables/<id>/?after=<position>``.

Anyone may watch (public frames); a logged-in player also gets his private
frames (his box's cards and chips) until his account is locked, all taken from the one message per
command the table's group gets (``casino.publish``).  On connect it sends
the frames after ``after`` from the store, or, with none given, one
beyond the feed or too far behind, the table's view as a snapshot at its
feed position, then goes live.  Frames arriving out of order, or after a
lost one, first fetch what was skipped from the store, so a client sees
every position once and in order.  The stream only sends: ``ping`` is
answered with the last position sent.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from config.dbthreads import database
from config.ws_auth import Refusal, refuse
from poker.casino import publish
from poker.casino.models import CasinoTable
from poker.casino.selectors import casino_table_view
from poker.consumers import JsonFrames, query_after, scope_user

NO_TABLE = Refusal(4404, "not_found", _("no such casino table"))


class CasinoTableConsumer(JsonFrames):
    """One casino table's feed, live, with catch-up from a position."""

    async def connect(self) -> None:
        self.table = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = scope_user(self.scope)
        self.viewer = None if user is None else user.pk
        self.user = user
        self.last = (0, 1)
        self.owed = False
        """The last public frame has a private one for this viewer, not yet sent."""
        if not await database(CasinoTable.objects.filter(pk=self.table).exists)():
            await refuse(self, NO_TABLE)
            return
        await self.accept()
        await self.join(publish.table_group(self.table))
        await self.session_join(self.user)  # a lock of his account ends the socket
        await self._catch_up(query_after(self.scope))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(publish.table_group(self.table), self.channel_name)
        await self.session_leave(getattr(self, "user", None))

    async def _catch_up(self, after: int | None) -> None:
        if after is not None and after <= await database(_position)(self.table):
            self.last = (after, 1)
            frames = await database(publish.replay)(self.table, after, self.viewer)
            if len(frames) < publish.REPLAY_LIMIT:
                for frame in frames:
                    await self._send_frame(frame)
                return
        snapshot = await database(_snapshot)(self.table, self.user)
        self.last = (snapshot["position"], 1)
        self.owed = False
        await self.send_json(snapshot)
        replayed = await database(publish.replay)(self.table, snapshot["position"], self.viewer)
        for frame in replayed:
            await self._send_frame(frame)

    async def frame(self, message: dict[str, Any]) -> None:
        """A command's message to the table's group: this viewer's frames of it."""
        rows = message["frame"]
        if rows["type"] != publish.ROWS or rows["table"] != self.table:
            return
        for frame in publish.cut(rows, self.viewer):
            await self._live(frame)

    async def _live(self, frame: dict[str, Any]) -> None:
        """A live frame; one that is not the next first fetches what it
        skipped from the store, where it is committed."""
        if _key(frame) <= self.last:
            return
        if not self._is_next(frame):
            await self._send_missed(before=_key(frame))
        await self._send_frame(frame)

    async def layer_resumed(self, message: dict[str, Any]) -> None:
        """Frames published while the layer was away are in the store."""
        await self._send_missed()

    async def _send_missed(self, before: tuple[int, int] | None = None) -> None:
        """The frames after the last one sent (and before ``before``), from the store."""
        after = self.last[0] - 1 if self.owed else self.last[0]
        missed = await database(publish.replay)(self.table, after, self.viewer)
        for earlier in missed:
            if before is None or _key(earlier) < before:
                await self._send_frame(earlier)

    def _is_next(self, frame: dict[str, Any]) -> bool:
        if frame["type"] == "private":
            return self.owed and frame["position"] == self.last[0]
        return not self.owed and frame["position"] == self.last[0] + 1

    async def _send_frame(self, frame: dict[str, Any]) -> None:
        """Each frame once, in feed order: a private frame shares its event's
        position and comes right after the public one."""
        key = _key(frame)
        if key <= self.last:
            return
        self.last = key
        self.owed = frame["type"] == "event" and self.viewer in frame.get("private_for", ())
        await self.send_json(frame)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        if content.get("type") == "ping":
            await self.send_json({"type": "pong", "position": self.last[0]})
        else:
            await super().receive_json(content, **kwargs)


def _key(frame: dict[str, Any]) -> tuple[int, int]:
    """A frame's place: its position, then public before private."""
    return frame["position"], 0 if frame["type"] == "event" else 1


def _position(table: int) -> int:
    return int(CasinoTable.objects.values_list("position", flat=True).get(pk=table))


def _snapshot(table: int, viewer: Any) -> dict[str, Any]:
    """The table as ``viewer`` sees it at exactly its feed position: read
    under the table's lock, so no command commits in between."""
    with transaction.atomic():
        row = CasinoTable.objects.select_for_update().get(pk=table)
        view = casino_table_view(row, viewer)
    return {"type": "snapshot", "position": row.position, "view": view}
