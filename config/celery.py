"""The Celery application; its settings are the ``CELERY_*`` Django settings."""

import os

from celery import Celery

from config import metrics  # noqa: F401 - its task_prerun handler times the timers

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pokerroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


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
