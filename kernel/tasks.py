"""Celery tasks of the kernel: the clock drain."""

from __future__ import annotations

from celery import shared_task

from kernel import clocks

DRAIN_EXPIRES_S = 60
"""A drain not started by then is dropped: the waker sends another."""


@shared_task(ignore_result=True, acks_late=False, expires=DRAIN_EXPIRES_S)
def clock_drain() -> int:
    """Fire every clock that is due (``kernel.clocks.drain``); how many acted.
    Sent by the waker (``kernel.waker``) when the nearest clock comes due;
    any number may run at once."""
    return clocks.drain()
