"""WebSocket consumers: authenticate, join groups, replay, forward; no rules.

- ``ws/tables/<id>/?after=<position>``: a table's feed for anyone (public
  frames), plus a logged-in player's private frames of that table, all cut
  from the one message per command its table's group gets.  It replays the
  frames after ``after`` from the event store before going live, and
  accepts the same actions as ``POST /api/tables/<id>/actions/``.
- ``ws/me/``: a logged-in player's own frames from every table: his hidden
  cards (``private``) and what happens to his seats (``seat``).
- ``ws/lobby/``: the list of tables, live.

What every socket shares (frames, outages, refusals, a stream's live feed
with catch-up) is ``kernel.consumers``.
"""

from __future__ import annotations

import json
from typing import Any, Literal, TypedDict, cast

from django.utils.translation import gettext_lazy as _

from accounts.frames import player_group, wallet_frame
from accounts.throttles import command_wait
from accounts.tickets import NOT_AUTHENTICATED
from kernel.api_errors import ApiError
from kernel.consumers import (
    ErrorFields,
    ErrorFrame,
    FeedConsumer,
    JsonFrames,
    Refusal,
    error_frame,
    refuse,
    scope_user,
)
from kernel.dbthreads import database
from kernel.layer import LayerMessage
from kernel.lobby import LOBBY_GROUP, lobby_snapshot
from poker import publish, selectors, services
from poker.api.serializers import ActIn
from poker.models import Table

NO_TABLE = Refusal(4404, "not_found", _("no such table"))


class Answer(TypedDict):
    """A command's answer on a table's socket (what REST answers it)."""

    type: Literal["answer"]
    command_id: Any
    answer: dict[str, Any]


class TableConsumer(FeedConsumer):
    """One cash table's feed; a player's actions in, as over REST."""

    model = Table
    frames = publish
    missing = NO_TABLE

    def view(self) -> tuple[int, dict[str, Any]]:
        row = Table.objects.get(pk=self.feed_id)
        return row.position, selectors.table_view(row, self.user)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("type")
        if kind == "ping":
            await super().receive_json(content)
        elif kind == "act":
            await self._act(content)
        else:
            await error_frame(
                self,
                "unknown_type",
                _("Unknown frame type %(kind)s: use act or ping.") % {"kind": repr(kind)},
            )

    async def _act(self, content: dict[str, Any]) -> None:
        command_id = content.get("command_id")
        if self.user is None:
            await error_frame(self, "not_authenticated", _("Log in to play."), command_id)
            return
        if await self._throttled(command_id):
            return
        body = ActIn(data={k: v for k, v in content.items() if k != "type"})
        if not body.is_valid():
            await error_frame(self, "invalid", json.dumps(body.errors), command_id)
            return
        try:
            answer = await database(services.hand_act)(
                by=self.user, table_id=self.feed_id, **body.validated_data
            )
        except ApiError as error:
            await self.send_error(refused(error, command_id))
            return
        done: Answer = {"type": "answer", "command_id": command_id, "answer": answer}
        await self.send_json(done)

    async def _throttled(self, command_id: Any) -> bool:
        """Count the command against the player's rate (with his REST
        commands); over it, an error frame with ``retry_after``, and the
        socket stays open: a flood is refused, not punished."""
        # On the socket's loop (one Redis round trip): never on the one
        # thread the ORM runs in, where it queued every command behind
        # another's count, nor through a hop to a thread of its own.
        wait = await command_wait(self.user)
        if wait is None:
            return False
        await self.send_error(
            {
                "type": "error",
                "code": "throttled",
                "message": str(_("Too many commands: try again in %(wait)s s.") % {"wait": wait}),
                "retry_after": wait,
                "command_id": command_id,
            }
        )
        return True


class LobbyConsumer(JsonFrames):
    """The list of tables: all of it on connect (the cash tables under
    ``tables``, beside the sections the other apps answer to
    ``kernel.lobby.lobby_sections``: the casino's ``casino_tables``), then
    each table that appears, fills, empties or closes, whichever app's it
    is (each publishes its own lines to ``LOBBY_GROUP``)."""

    async def connect(self) -> None:
        await self.accept()
        await self.join(LOBBY_GROUP)
        await self._send_list()

    async def layer_resumed(self, message: dict[str, Any]) -> None:
        """Changes published while the layer was away were lost: the list again."""
        await self._send_list()

    async def _send_list(self) -> None:
        tables = await database(_lobby)()
        sections = await database(lobby_snapshot)()
        snapshot: publish.LobbySnapshot = {"type": "snapshot", "tables": tables}
        await self.send_json({**snapshot, **sections})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def frame(self, message: LayerMessage) -> None:
        await self.send_json(message["frame"])


class PlayerConsumer(JsonFrames):
    """A logged-in player's own frames: his wallet (now, then after each
    transfer that moves it), his cards and his seats at every table."""

    async def connect(self) -> None:
        self.viewer = scope_user(self.scope)
        if self.viewer is None:
            await refuse(self, NOT_AUTHENTICATED)
            return
        await self.accept()
        await self.join(player_group(self.viewer.pk))
        await self.session_join(self.viewer)
        await self._send_wallet()

    async def layer_resumed(self, message: dict[str, Any]) -> None:
        """A transfer published while the layer was away: the wallet again."""
        await self._send_wallet()

    async def _send_wallet(self) -> None:
        await self.send_json(await database(wallet_frame)(self.viewer.pk))

    async def disconnect(self, code: int) -> None:
        if getattr(self, "viewer", None) is not None:
            group = player_group(self.viewer.pk)
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.session_leave(self.viewer)

    async def frame(self, message: LayerMessage) -> None:
        frame = message["frame"]
        if frame["type"] == publish.PRIVATES:
            for private in cast(publish.Privates, frame)["frames"]:
                await self.send_json(private)
        elif frame["type"] in ("seat", "wallet"):
            await self.send_json(frame)


def _lobby() -> list[dict[str, Any]]:
    return [selectors.table_summary(t) for t in selectors.table_list()]


def refused(error: ApiError, command_id: Any) -> ErrorFrame:
    """The error frame of a command the service refused: the REST API's
    error body (its ``extra``: ``ErrorFields``) and the command id."""
    return {
        **cast(ErrorFields, error.extra),
        "type": "error",
        "code": error.code,
        "message": str(error.message),
        "command_id": command_id,
    }
