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

from kombu.transport import redis


class QoS(redis.QoS):  # type: ignore[misc]
    def restore_unacked_once(self, stderr: Any = None) -> Any:
        """Give the unacknowledged messages back, unless the connection
        was collected (then the broker restores them itself, see above)."""
        if getattr(self.channel.connection, "client", None) is None:
            return None
        return super().restore_unacked_once(stderr)


class Channel(redis.Channel):  # type: ignore[misc]
    QoS = QoS


class Transport(redis.Transport):  # type: ignore[misc]
    Channel = Channel
