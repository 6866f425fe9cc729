"""What every WebSocket of the room shares: JSON frames, outages, refusals,
and the live feed of a stream (``FeedConsumer``) that every live stream (a
cash table, a casino table, a tournament) is.

Frames in: JSON objects with a ``type``.  Anything else gets an error frame
``{"type": "error", "code", "message"}`` and changes nothing.

A socket outlives a short outage of PostgreSQL or Redis (``JsonFrames``):
a command that meets one is answered ``unavailable`` (``kernel.outage``),
the channel layer is read again once Redis is back, and each stream then
catches up from the store on what was published meanwhile.

A logged-in viewer's socket joins his session's group (``session_group``):
a lock of his account ends it, and so does the revocation of the
credential it opened with (``kernel.signals.credentials_checked``).

A refused socket is accepted and closed at once (``refuse``), with an
error frame (``{"type": "error", "code", "message"}``) and a close code and
reason saying why: ASGI servers answer a handshake refused before
acceptance with a bare HTTP 403, and daphne drops close reasons, so the
frame is what every client can read.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NotRequired, Protocol, TypedDict, cast

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer
from django.utils import translation
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from kernel import feed, layer_watch, outage
from kernel.dbthreads import database
from kernel.feed import Frame
from kernel.languages import socket_language
from kernel.layer import LayerMessage
from kernel.signals import credentials_checked
from kernel.snapshots import one_snapshot

MAX_FRAME = 16 * 1024
"""Bytes a client frame may have."""

LAYER_RETRY_S = (0.1, 0.25, 0.5, 1.0, 2.0)
"""Waits between tries to read the channel layer again while Redis is away."""

log = logging.getLogger(__name__)


class ErrorFields(TypedDict, total=False):
    """What a refusal adds to an error frame: the ``extra`` of the
    ``ApiError``s a socket's command may meet, and an outage's."""

    retry_after: int
    """Seconds to wait: over the command rate (``throttled``), ``unavailable``."""
    retryable: bool
    """``unavailable``: the same command may be sent again."""
    current: dict[str, Any]
    """``stale_version``: the table as the player now sees it."""
    detail: str
    """An engine refusal in the engine's words (English)."""
    values: dict[str, Any]
    """The figures an engine refusal's message names."""


class ErrorFrame(ErrorFields):
    """The error frame of every socket: a refused or ended socket's, a
    client frame's that is malformed or refused, a command's refusal (the
    REST API's error body: its ``code``, ``message`` and fields)."""

    type: Literal["error"]
    code: str
    message: str
    command_id: NotRequired[Any]
    """The command id of the client frame refused (None when it had none)."""


class Pong(TypedDict):
    """The answer to a client's ``ping``: on a feed, where it stands."""

    type: Literal["pong"]
    position: NotRequired[int]
    """A table's feed: the position of the last frame sent."""
    version: NotRequired[int]
    """A tournament's feed: the version of the last frame sent."""


@dataclass(frozen=True)
class Refusal:
    """Why a socket is closed as it opens."""

    close_code: int
    code: str
    """The error frame's code (the REST API's code for the same refusal)."""
    why: Any
    """Marked for gettext: the error frame's message in the socket's
    language (``kernel.languages``); the close reason in English."""

    @property
    def reason(self) -> str:
        """The close reason: English, and short enough for a close frame."""
        with translation.override("en"):
            return str(self.why)

    def frame(self, scope: dict[str, Any], *, account: bool = True) -> ErrorFrame:
        """The error frame, its message in the language of the socket
        ``scope`` (``account``: as ``socket_language`` takes it)."""
        with translation.override(socket_language(scope, account=account)):
            return {"type": "error", "code": self.code, "message": str(self.why)}


ACCOUNT_LOCKED = Refusal(4401, "account_locked", _("account locked: this session has ended"))
LOGGED_OUT = Refusal(
    4401, "logged_out", _("logged out: the token or session this socket opened with was revoked")
)


async def refuse(consumer: AsyncJsonWebsocketConsumer, refusal: Refusal) -> None:
    """Accept, say why, and close (see the module's docstring)."""
    await consumer.accept()
    await consumer.send_json(refusal.frame(consumer.scope))
    await consumer.close(code=refusal.close_code, reason=refusal.reason)


async def end(consumer: AsyncJsonWebsocketConsumer, refusal: Refusal) -> None:
    """Say why and close a socket accepted before."""
    await consumer.send_json(refusal.frame(consumer.scope))
    await consumer.close(code=refusal.close_code, reason=refusal.reason)


class SessionMessage(TypedDict):
    """A message to a player's ``session_group``: his account was locked,
    or one of his credentials revoked."""

    type: Literal["account.locked", "credentials.revoked"]


def session_group(user: int) -> str:
    """Every socket a player opened logged in (a table's, his own stream):
    each is closed when his account is locked."""
    return f"session.{user}"


def scope_user(scope: dict[str, Any]) -> Any:
    """The logged-in user of a socket, or None."""
    user = scope.get("user")
    return user if user is not None and user.is_authenticated else None


class JsonFrames(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """Client frames are JSON objects of at most MAX_FRAME bytes: anything
    else gets an error frame and leaves the connection open.

    An outage of PostgreSQL or Redis never closes an open socket: a client
    frame that meets one is answered ``unavailable`` (its command id with
    it); a channel-layer message that meets one is dropped (the streams
    fetch what they skipped from the store with the next one); once the
    process hears the layer again (``kernel.layer_watch``), or a read of
    the layer that failed succeeds again (the socket's groups joined
    again), ``layer_resumed`` lets each stream catch up.  A handshake that
    meets one is closed with 1013 (try again later) by
    ``config.ws_auth.OutageGuard``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.joined: list[str] = []
        self.closed = False
        """A close was sent, or the server found the socket closed."""

    @property
    def base_send(self) -> Any:
        """What channels sends through: the server's ``send`` (set by
        ``AsyncConsumer.__call__``), silent once the socket is closed."""
        return self._send_while_open

    @base_send.setter
    def base_send(self, send: Any) -> None:
        self._server_send = send

    async def _send_while_open(self, message: dict[str, Any]) -> None:
        """Send ``message`` unless the socket is closed: a command's answer
        or a live frame still on its way when the socket closed (a lock
        ended it, the server closed it for a missed ping) is dropped,
        where uvicorn would raise (a ``RuntimeError`` once it sent the
        close: an "Exception in ASGI application")."""
        if self.closed:
            return
        if message["type"] == "websocket.close":
            self.closed = True
        try:
            await self._server_send(message)
        except RuntimeError:
            if message["type"] != "websocket.send":
                raise
            self.closed = True  # the server closed it: nobody to send to

    @cached_property
    def language(self) -> str:
        """The language its error frames' messages are in (``kernel.languages``)."""
        return socket_language(self.scope)

    async def send_error(self, error: ErrorFrame) -> None:
        """An error frame (its ``message`` worded in the socket's language:
        ``receive`` has it active)."""
        await self.send_json(error)

    async def join(self, group: str) -> None:
        """Join ``group``; the socket's first also has it told when the
        layer is heard again after its process may have missed messages
        (``kernel.layer_watch``; not in memory, which loses nothing)."""
        if not self.joined and not isinstance(self.channel_layer, InMemoryChannelLayer):
            layer_watch.watch(self.channel_layer, self.channel_name)
        self.joined.append(group)
        await self.channel_layer.group_add(group, self.channel_name)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self.joined and not isinstance(self.channel_layer, InMemoryChannelLayer):
            layer_watch.unwatch(self.channel_layer, self.channel_name)
        await super().websocket_disconnect(message)

    @property
    def channel_receive(self) -> Any:
        """What channels awaits for the next layer message: the layer's own
        ``receive`` (set by ``AsyncConsumer.__call__``), outliving Redis."""
        return self._receive_through_outages

    @channel_receive.setter
    def channel_receive(self, receive: Any) -> None:
        self._layer_receive = receive

    async def _receive_through_outages(self) -> dict[str, Any]:
        """The next layer message; while Redis is away, tries again until
        it answers, then a ``layer.resumed`` message once the groups are
        joined again (a layer message published meanwhile was lost)."""
        tries = 0
        while True:
            try:
                if tries:
                    for group in self.joined:
                        await self.channel_layer.group_add(group, self.channel_name)
                    return dict(layer_watch.RESUMED)
                message: dict[str, Any] = await self._layer_receive()
                return message
            except outage.OUTAGE_ERRORS as error:
                if not tries:
                    log.warning("channel layer unreachable, reading it again: %s", error)
                await asyncio.sleep(LAYER_RETRY_S[min(tries, len(LAYER_RETRY_S) - 1)])
                tries += 1

    async def layer_resumed(self, message: dict[str, Any]) -> None:
        """The layer is read again: a stream sends what it missed meanwhile."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own, less its ``aclose_old_connections`` before every
        message: that is a hop to the one thread the ORM runs in, queued
        behind whatever command runs there, for each frame and each socket.
        These consumers reach the database only through
        ``kernel.dbthreads.database``, which closes old connections itself.
        A database or Redis out of reach refuses a connect (1013,
        ``ws_auth.OutageGuard``), ends a disconnect, and otherwise only
        loses the message: the socket stays open."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except outage.OUTAGE_ERRORS as error:
            kind = message.get("type")
            if kind == "websocket.connect":
                raise  # refused with 1013 (ws_auth.OutageGuard)
            if kind == "websocket.disconnect":
                raise StopConsumer() from error  # its groups expire by themselves
            log.warning("%s not handled, %s unreachable: %s", kind, type(error).__name__, error)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A client frame, answered in the socket's language (the commands
        it runs too: their refusals are worded where they are raised)."""
        with translation.override(self.language):
            await self._receive(text_data)

    async def _receive(self, text_data: str | None) -> None:
        if text_data is None or len(text_data.encode()) > MAX_FRAME:
            await error_frame(
                self,
                "malformed",
                _("Send JSON text frames of at most %(most)s bytes.") % {"most": MAX_FRAME},
            )
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            content = None
        if not isinstance(content, dict):
            await error_frame(self, "malformed", _("A frame is a JSON object."))
            return
        try:
            await self.receive_json(content)
        except outage.OUTAGE_ERRORS:
            await self.send_error(unavailable(content.get("command_id")))

    async def session_join(self, viewer: Any) -> None:
        """A logged-in viewer's socket hears of his account's lock."""
        if viewer is not None:
            await self.join(session_group(viewer.pk))

    async def session_leave(self, viewer: Any) -> None:
        if viewer is not None:
            await self.channel_layer.group_discard(session_group(viewer.pk), self.channel_name)

    async def account_locked(self, message: SessionMessage) -> None:
        """The viewer's account was locked: this socket ends with him."""
        await end(self, ACCOUNT_LOCKED)

    async def credentials_revoked(self, message: SessionMessage) -> None:
        """One of the viewer's tokens or sessions was revoked: this socket
        ends if it was the one it opened with."""
        answers = await credentials_checked.asend(sender=type(self), scope=self.scope)
        if not all(valid for _, valid in answers):
            await end(self, LOGGED_OUT)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        """Streams that only send answer a ping and refuse the rest."""
        if content.get("type") == "ping":
            pong: Pong = {"type": "pong"}
            await self.send_json(pong)
        else:
            await error_frame(
                self, "read_only", _("This stream only sends; ping is all it answers.")
            )


Place = tuple[int, int]
"""Where a frame goes in its feed: its position (a tournament: its
version), then 0 for a public event frame, 1 for what comes after it (the
viewer's private frame; a snapshot or an update: all of that position)."""


class TableFrames(Protocol):
    """What a table's stream publishes (each app's ``publish``)."""

    def table_group(self, table: int) -> str: ...

    def replay(self, table: int, after: int, viewer: int | None) -> list[Frame]: ...


class FeedConsumer(JsonFrames):
    """A stream's feed, live, with catch-up from a position: what every
    live stream (a cash table, a casino table, a tournament) shares.

    On connect: the frames after the client's ``after`` from the store, or,
    with none given, one beyond the feed or too far behind, a snapshot (the
    stream as the viewer sees it at a position) and the frames after it.
    Then each command's message (``kernel.feed``), the viewer's frames of it.
    Servers publish after their own commits, so messages can arrive out of
    order or not at all: a frame that is not the next one first fetches
    what was skipped from the store, where it is committed; each frame is
    sent once, in feed order.

    A stream supplies which feed (``model``, ``url_key``, ``missing``, and
    ``frames`` or its own ``group``) and, run on a database thread, its ``view`` and ``replay``
    (or its own ``snapshot`` and ``frames_after``); ``place`` and ``first``
    say where a frame goes.  The cut per viewer is the publisher's
    (``kernel.feed``): a socket only picks its viewer's frames."""

    model: ClassVar[type[Any]]
    """The stream's row (its ``position``: how far its feed goes)."""
    frames: TableFrames
    """A table stream's group and replay (a module: ``poker.publish``)."""
    url_key = "table_id"
    """The route's keyword naming the stream's row."""
    missing: Refusal
    """The close of a socket whose stream does not exist."""
    place_key = "position"
    """The key of a frame's place (and of the ``pong`` that tells it)."""

    async def connect(self) -> None:
        self.feed_id = int(self.scope["url_route"]["kwargs"][self.url_key])
        self.user = scope_user(self.scope)
        self.viewer: int | None = None if self.user is None else int(self.user.pk)
        self.last: Place = (0, 1)
        """The place of the last frame sent."""
        self.expected: Place = (1, 0)
        """The place of the next frame: after a public frame with a private
        one for this viewer, that; else the next position's public one."""
        if not await database(self.exists)():
            await refuse(self, self.missing)
            return
        await self.accept()
        await self.join(self.group)
        await self.session_join(self.user)  # a lock of his account ends the socket
        await self._catch_up(query_after(self.scope))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.session_leave(getattr(self, "user", None))

    @property
    def group(self) -> str:
        return self.frames.table_group(self.feed_id)

    def exists(self) -> bool:
        return bool(self.model.objects.filter(pk=self.feed_id).exists())

    def view(self) -> tuple[int, dict[str, Any]]:
        """The stream as the viewer sees it, and the position it is at,
        read in one snapshot of the database (``snapshot`` calls it so)."""
        raise NotImplementedError

    def position(self) -> int:
        """How far the stream's feed goes."""
        return int(self.model.objects.values_list("position", flat=True).get(pk=self.feed_id))

    def replay(self, after: int) -> list[Frame]:
        """The viewer's frames after position ``after``, at most ``feed.REPLAY_LIMIT``."""
        return self.frames.replay(self.feed_id, after, self.viewer)

    def snapshot(self) -> list[Frame]:
        """The stream as the viewer sees it now (a ``snapshot`` frame), then
        the frames after it."""
        with one_snapshot():  # the view agrees with its position, and no row is locked
            position, view = self.view()
        snapshot: feed.Snapshot = {"type": "snapshot", "position": position, "view": view}
        return [snapshot, *self.replay(position)]

    def frames_after(self, after: int) -> list[Frame] | None:
        """The viewer's frames after position ``after``; None when that is
        not a position of the feed or too far behind (a snapshot then)."""
        if after > self.position():
            return None
        frames = self.replay(after)
        return frames if len(frames) < feed.REPLAY_LIMIT else None

    def place(self, frame: Frame) -> Place:
        return frame[self.place_key], 0 if frame["type"] == "event" else 1

    def first(self, frame: Frame) -> Place:
        """The place of the first event ``frame`` brings."""
        return self.place(frame)

    async def _catch_up(self, after: int | None) -> None:
        """On connect, every frame after ``after`` (a tournament's update
        even with no event in it: the tournament as it now stands), or a
        snapshot."""
        frames = None if after is None else await database(self.frames_after)(after)
        if after is None or frames is None:
            await self._start_over()
            return
        self.last, self.expected = (after, 1), (after + 1, 0)
        for frame in frames:
            await self._send(frame)

    async def _start_over(self) -> None:
        for frame in await database(self.snapshot)():
            await self._send(frame)

    async def frame(self, message: LayerMessage) -> None:
        """A command's message to the stream's group: the frames this viewer
        sees of it, encoded once per process for all its sockets."""
        body = message["frame"]
        if body.get("type") != feed.FEED or body.get("group") != self.group:
            return
        for shared in feed.frames_for(cast(feed.FeedMessage, body), self.viewer):
            if self.place(shared.frame) <= self.last:
                continue
            if self.first(shared.frame) != self.expected:
                await self._send_missed()
            await self._send_frame(shared.frame, shared.text)

    async def layer_resumed(self, message: dict[str, Any]) -> None:
        """Frames published while the layer was away are in the store."""
        await self._send_missed()

    async def _send_missed(self) -> None:
        """The frames after the last one sent, from the store (a snapshot
        when too many)."""
        frames = await database(self.frames_after)(self.expected[0] - 1)
        if frames is None:
            await self._start_over()
            return
        for frame in frames:
            await self._send_frame(frame)

    async def _send_frame(self, frame: Frame, text: str | None = None) -> None:
        """Each frame once, in feed order: one at or before the last one
        sent is dropped.  ``text``: the frame already encoded (a live frame)."""
        if self.place(frame) > self.last:
            await self._send(frame, text)

    async def _send(self, frame: Frame, text: str | None = None) -> None:
        place = self.last = self.place(frame)
        owed = frame["type"] == "event" and self.viewer in frame.get("private_for", ())
        self.expected = (place[0], 1) if owed else (place[0] + 1, 0)
        if text is None:
            await self.send_json(frame)
        else:
            await self.send(text_data=text)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        if content.get("type") == "ping":
            await self.send_json(self.pong())
        else:
            await super().receive_json(content, **kwargs)

    def pong(self) -> Pong:
        """The answer to a ping: the last place sent."""
        return {"type": "pong", "position": self.last[0]}


async def error_frame(
    consumer: JsonFrames, code: str, message: Any, command_id: Any = None
) -> None:
    """An error frame with ``code``, ``message`` and the command id it answers."""
    await consumer.send_error(
        {"type": "error", "code": code, "message": str(message), "command_id": command_id}
    )


def unavailable(command_id: Any) -> ErrorFrame:
    """The error frame of a client frame that met an outage
    (``kernel.outage``), with its command id."""
    body = outage.body()
    return {
        "type": "error",
        "code": body["code"],
        "message": body["message"],
        "retryable": body["retryable"],
        "retry_after": body["retry_after"],
        "command_id": command_id,
    }


def query_after(scope: dict[str, Any]) -> int | None:
    """The ``after`` position of the query string, if any."""
    for part in scope.get("query_string", b"").decode(errors="replace").split("&"):
        key, _, value = part.partition("=")
        if key == "after" and value.isascii() and value.isdigit():
            return int(value)
    return None
