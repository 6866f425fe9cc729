"""The Celery application; its settings are the ``CELERY_*`` Django settings."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_init

from kernel import metrics  # noqa: F401 - its task_prerun handler times the timers

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
    from kernel import layer

    layer.flush()


@worker_process_init.connect
def keep_connections(**kwargs: Any) -> None:
    """A pool's process keeps its database connections from task to task
    for ``WORKER_CONN_MAX_AGE`` seconds (``CONN_MAX_AGE`` is for the web
    processes): a timer that reads one row does not open a connection for
    it.  A kept connection is checked (one ``SELECT 1``) before a task's
    first statement, so after a database restart no timer fails on a
    connection that died meanwhile.  Only the pool's own processes: a worker
    run inside another process (tests) keeps that process's setting."""
    from django.conf import settings
    from django.db import connections

    for alias in connections:
        connection = connections[alias]
        connection.settings_dict["CONN_MAX_AGE"] = settings.WORKER_CONN_MAX_AGE
        connection.settings_dict["CONN_HEALTH_CHECKS"] = True
        # What connect() reads from CONN_HEALTH_CHECKS, for a connection
        # already open (the attribute is missing from Django's stubs).
        connection.health_check_enabled = True  # type: ignore[attr-defined]


@task_prerun.connect
@task_postrun.connect
def connections_checked(sender: Any = None, **kwargs: Any) -> None:
    """Around each task, as Django does around each request: a connection
    that failed and is no longer usable, or older than its age, is closed
    (Celery's own fix-up, which would close every connection, is told to
    leave them: ``CELERY_DB_REUSE_MAX``).  Not for a task run in place
    (eager): it may be inside the caller's transaction."""
    from django.db import close_old_connections

    if not getattr(getattr(sender, "request", None), "is_eager", False):
        close_old_connections()


def use_broker(url: str) -> None:
    """Point this process's app at another broker (tests and benchmarks
    that run a worker on Redis); its pools are made again on next use."""
    import kombu.pools

    app.conf["broker_url"] = url  # the setting (``conf.broker_url`` reads it)
    kombu.pools.reset()
    # The app's connection pools, made on first use from the broker URL:
    # Celery has no public way to drop them but ``close``, which also
    # deregisters the app.
    app._pool = None  # type: ignore[attr-defined]
    app.amqp._producer_pool = None  # type: ignore[attr-defined]
