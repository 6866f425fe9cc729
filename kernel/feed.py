"""What every live stream (a cash table, a casino table, a tournament)
puts on the channel layer, and what each socket takes from it.

A command's publisher cuts its committed events once, on the sender, into
``Cut``s: each event's public frame (every hidden card left out) and the
private frame of each player who sees more of it.  One ``FeedMessage`` with
them all goes to the stream's group: one ``group_send`` per command,
whatever the number of viewers.  The message holds the private frames, so
it travels only between servers (the channel layer); each socket takes
the public frames and its own viewer's private ones (``frames_for``), and
nothing else reaches a client.

Cutting on the sender cuts once per command; cutting on each receiver
(what cash tables did) cut once per server process subscribed to the
table, and needed the hands' players, seats and screen names carried in
the message to do it without reading the store.

A process's sockets of one stream receive the same message within moments
of each other: the frames' JSON is encoded once per message and process
(``frames_for`` keeps the last ``KEPT``).
"""

from __future__ import annotations

import json
import uuid
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any, Literal, NamedTuple, NotRequired, TypedDict, TypeVar

from kernel.eventstore import Recorded

Frame = Mapping[str, Any]
"""A socket frame as a stream passes it on: a JSON object with a ``type``
(a table's ``EventFrame``, a tournament's update, a snapshot)."""

REPLAY_LIMIT = 500
"""Frames a stream replays from the store on a reconnect or after a gap;
further behind, the client starts over from a snapshot."""

FEED: Literal["feed"] = "feed"
"""The ``type`` of a stream's message of a command's frames."""


class Private(NamedTuple):
    """One owner's (a user id) private frame of an event."""

    owner: int
    frame: Frame


class Cut(TypedDict):
    """One event's frames: its public frame and each owner's private one
    (pairs, not a mapping: msgpack keys are strings only)."""

    public: Frame
    private: list[Private]


class FeedMessage(TypedDict):
    """A command's frames for one stream's group.  ``id`` tells one
    message from another, so that a process encodes each once."""

    type: Literal["feed"]
    id: str
    group: str
    cuts: list[Cut]


class EventFrame(TypedDict):
    """A public or private frame of a table's event (cash or casino)."""

    type: Literal["event", "private"]
    table: int
    position: int
    stream: str
    version: int
    clock: dict[str, Any] | None
    event: dict[str, Any]
    private_for: NotRequired[list[int]]
    """Who gets a private frame of this event (no secret: who was dealt)."""
    openings: NotRequired[list[dict[str, Any]]]
    round: NotRequired[int]


def event_frame(
    kind: Literal["event", "private"],
    table: int,
    row: Recorded,
    clock: dict[str, Any] | None,
    event: dict[str, Any],
) -> EventFrame:
    """The frame of a table's event ``row`` (cash or casino): ``event`` as
    its viewer sees it, and ``clock``, the clock running once its command
    was done."""
    assert row.position is not None
    return {
        "type": kind,
        "table": table,
        "position": row.position,
        "stream": row.stream,
        "version": row.version,
        "clock": clock,
        "event": event,
    }


def cut(public: Frame, private: Iterable[tuple[int, EventFrame]] = ()) -> Cut:
    """An event's frames; a public frame with private ones names their
    owners (``private_for``): clients and sockets wait for theirs."""
    owned = [Private(owner, frame) for owner, frame in private]
    if owned:
        public = {**public, "private_for": [p.owner for p in owned]}
    return {"public": public, "private": owned}


def message(group: str, cuts: list[Cut]) -> FeedMessage:
    """The one message of a command's ``cuts`` to ``group``."""
    return {"type": FEED, "id": uuid.uuid4().hex, "group": group, "cuts": cuts}


def visible(cuts: Iterable[Cut], viewer: int | None) -> list[Frame]:
    """What ``viewer`` (a user id, or None) sees of ``cuts``: each public
    frame, and his private frame right after it."""
    return _seen(((c["public"], c["private"]) for c in cuts), viewer)


class Shared(NamedTuple):
    """A frame and its JSON text, encoded once for every socket sending it."""

    frame: Frame
    text: str


KEPT = 256
"""Messages whose encoded frames a process keeps."""

_encoded: OrderedDict[str, list[tuple[Shared, list[tuple[int, Shared]]]]] = OrderedDict()


def frames_for(message: FeedMessage, viewer: int | None) -> list[Shared]:
    """The frames ``viewer`` sees of ``message``, in order, each encoded
    once per message in this process (its sockets run in one event loop)."""
    encoded = _encoded.get(message["id"])
    if encoded is None:
        encoded = _encoded[message["id"]] = [
            (_shared(c["public"]), [(owner, _shared(f)) for owner, f in c["private"]])
            for c in message["cuts"]
        ]
        while len(_encoded) > KEPT:
            _encoded.popitem(last=False)
    return _seen(encoded, viewer)


T = TypeVar("T")


def _seen(cuts: Iterable[tuple[T, Iterable[tuple[int, T]]]], viewer: int | None) -> list[T]:
    out: list[T] = []
    for public, private in cuts:
        out.append(public)
        out += [frame for owner, frame in private if owner == viewer]
    return out


def _shared(frame: Frame) -> Shared:
    return Shared(frame, json.dumps(frame))
