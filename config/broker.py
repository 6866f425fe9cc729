"""The Redis broker transport, with one repair: a worker outlives its
broker's restart.

When a worker loses Redis, Celery (5.7) first *collects* the broken
connection (which drops the transport's client) and then *closes* it; the
close gives the worker's unacknowledged timers back (``restore_unacked``),
which needs the client it no longer has: ``AttributeError: 'NoneType'
object has no attribute 'hostname'`` escapes as an "Unrecoverable error"
and the worker exits, with every timer it held.  Nothing need be given
back then: those timers are still in the broker's ``unacked`` hash, and
the broker hands them out again once the visibility timeout passes (as
after a killed worker; the clock sweeps fire any due before that).

``CELERY_BROKER_TRANSPORT`` names this class (``config.settings``); the
``redis://`` URL still says where.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis, virtual


class QoS(redis.QoS):
    def collected(self) -> bool:
        """Whether Celery collected this channel's connection (lost Redis)."""
        return getattr(self.channel.connection, "client", None) is None

    def restore_unacked_once(self, stderr: Any = None) -> Any:
        """Give the unacknowledged messages back, unless the connection
        was collected (then the broker restores them itself, see above)."""
        if self.collected():
            return None
        return super().restore_unacked_once(stderr)

    def ack(self, delivery_tag: Any) -> None:
        """Acknowledge, unless the connection was collected: a task of the
        lost connection that ends after the worker reconnected acknowledged
        on it, met the same missing client and the worker exited (the
        chaos run's Redis restart).  Its message stays in ``unacked`` and is
        handed out again after the visibility timeout (a timer run twice
        does nothing the second time; a sweep has expired by then)."""
        if self.collected():
            virtual.QoS.ack(self, delivery_tag)  # forgotten here, left in Redis
            return
        super().ack(delivery_tag)

    def reject(self, delivery_tag: Any, requeue: bool = False) -> None:
        """As ``ack``: on a collected connection, left to the broker."""
        if self.collected():
            virtual.QoS.reject(self, delivery_tag, requeue=False)
            return
        super().reject(delivery_tag, requeue)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
