"""Celery tasks put straight on a Redis broker's queues.

``apply_async`` on the Redis transport costs the sending thread about a
millisecond of CPU a task: Celery's routing and options, kombu's producer
and its declarations, and a redis-py client made for each publish.  The
timer dispatcher (``config.timers``) sends its timers here instead, a
batch in one round trip on a connection it keeps (``config.redis_wire``):

- the message is Celery's own (``app.amqp.create_task_message``), made
  with what ``send_task`` gives it for a task sent from outside a task
  (no parent, no links, the task's result and time-limit options), and
  the three values it would look up or work out for each task worked out
  as it does, once or without its settings lookups (the sender's node
  name, the arguments' repr, and that of no keyword arguments);
- it is wrapped as kombu's Redis transport wraps a message (the body
  serialized with the app's task serializer and base64-encoded, a
  delivery tag of its own) and pushed onto the queue's list, as kombu's
  ``Channel._put`` pushes a message of priority 0 sent to the default
  exchange, which is where Celery sends a task for a queue of its own.

A worker reads them as it reads any task: ``tests/config/test_timers.py``
compares them with what ``apply_async`` puts on the queue.  Only a plain
Redis broker goes here (``usable``): no key prefix, no TLS, no sentinel.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from celery.signals import after_task_publish, before_task_publish
from celery.utils.nodenames import anon_nodename
from celery.utils.saferepr import saferepr
from kombu.entity import DELIVERY_MODES
from kombu.serialization import dumps
from kombu.utils.json import dumps as json_dumps
from kombu.utils.uuid import uuid

from config.redis_wire import Wire


def usable(app: Any) -> bool:
    """Whether ``app``'s broker is a Redis server this module can write to."""
    conf = app.conf
    return (
        str(conf.broker_url).startswith("redis://")
        and not conf.broker_use_ssl
        and not (conf.broker_transport_options or {}).get("global_keyprefix")
    )


class TaskPusher:
    """Tasks for ``app``'s Redis broker, a batch a round trip."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.wire = Wire(app.conf.broker_url)
        mode = app.conf.task_default_delivery_mode
        self.delivery_mode = DELIVERY_MODES.get(mode, mode)
        self.origin = anon_nodename()
        self.maxlevels = app.conf.task_repr_maxlevels
        self.serializer = app.conf.task_serializer
        self.kwargsrepr = self.repr({}, app.amqp.kwargsrepr_maxsize)
        self.argsrepr_maxsize = app.amqp.argsrepr_maxsize
        self.reply_to = app.thread_oid  # the thread's: a pusher is its thread's

    def push(self, tasks: Sequence[tuple[Any, tuple[Any, ...], datetime, str]]) -> None:
        """Queue each (task, args, eta, queue), in order, with Celery's
        signals before and after, as ``apply_async`` sends them."""
        queues: dict[str, list[str]] = {}
        sent = []
        for task, args, eta, queue in tasks:
            name, headers, properties, body = self.message(task, args, eta)
            before_task_publish.send(
                sender=name,
                body=body,
                exchange="",
                routing_key=queue,
                headers=headers,
                properties=properties,
                declare=[],
                retry_policy=None,
            )
            queues.setdefault(queue, []).append(self.envelope(headers, properties, body, queue))
            sent.append((name, body, headers, queue))
        for reply in self.wire.call([("LPUSH", queue, *out) for queue, out in queues.items()]):
            if isinstance(reply, Exception):
                raise reply
        for name, body, headers, queue in sent:
            after_task_publish.send(
                sender=name, body=body, headers=headers, exchange="", routing_key=queue
            )

    def message(self, task: Any, args: tuple[Any, ...], eta: datetime) -> tuple[str, Any, Any, Any]:
        """The task's name and Celery's message of it: headers, properties, body."""
        task = getattr(task, "_get_current_object", lambda: task)()  # a shared task's proxy
        headers, properties, body, _ = self.app.amqp.create_task_message(
            uuid(),
            task.name,
            args,
            {},
            eta=eta,
            reply_to=self.reply_to,
            time_limit=task.time_limit,
            soft_time_limit=task.soft_time_limit,
            ignore_result=task.ignore_result,
            origin=self.origin,
            argsrepr=self.repr(args, self.argsrepr_maxsize),
            kwargsrepr=self.kwargsrepr,
        )
        return task.name, headers, properties, body

    def envelope(self, headers: Any, properties: Any, body: Any, queue: str) -> str:
        """The message as kombu's Redis transport puts it on ``queue``'s list."""
        content_type, encoding, data = dumps(body, serializer=self.serializer)
        raw = data if isinstance(data, bytes) else data.encode(encoding)
        return json_dumps(
            {
                "body": base64.b64encode(raw).decode("ascii"),
                "content-encoding": encoding,
                "content-type": content_type,
                "headers": headers,
                "properties": {
                    **properties,
                    "delivery_mode": self.delivery_mode,
                    "delivery_info": {"exchange": "", "routing_key": queue},
                    "priority": 0,
                    "body_encoding": "base64",
                    "delivery_tag": uuid(),
                },
            }
        )

    def repr(self, value: Any, maxsize: int) -> str:
        """``value`` as the message's headers show it."""
        return saferepr(value, maxsize, maxlevels=self.maxlevels)
