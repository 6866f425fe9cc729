"""The Celery application; its settings are the ``CELERY_*`` Django settings."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun

from config import metrics  # noqa: F401 - its task_prerun handler times the timers

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pokerroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_postrun.connect
def frames_sent(**kwargs: Any) -> None:
    """A task's frames are on the channel layer before it returns, so
    before its worker acknowledges it (``acks_late``) or ends: a prefork
    pool's child exits with ``os._exit``, which runs no ``atexit`` (the
    publisher's flush at exit), and a worker killed after the ack takes
    what its publisher still held with it: every socket of that table
    would miss those frames until the table moved again."""
    from config import layer

    layer.flush()


def use_broker(url: str) -> None:
    """Point this process's app at another broker (tests and benchmarks
    that run a worker on Redis); its pools, and the timer dispatcher's
    connection, are made again on next use."""
    import kombu.pools

    from config import timers

    app.conf.broker_url = url
    kombu.pools.reset()
    app._pool = None
    app.amqp._producer_pool = None
    timers.dispatcher.forget_broker()
