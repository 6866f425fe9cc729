"""The clock drain and beat's sweep log at DEBUG unless they did something:
Celery's own lines (beat sending a sweep, the worker receiving a drain,
its success), built with
Celery's own formats, go through the console handler's filter."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS

from config.logs import QuietSweeps

SWEEP = "kernel.tasks.clock_drain"


@contextmanager
def level(name: str, value: int) -> Iterator[None]:
    """The logger ``name`` at ``value`` meanwhile."""
    logger = logging.getLogger(name)
    before = logger.level
    logger.setLevel(value)
    try:
        yield
    finally:
        logger.setLevel(before)


def record(logger: str, msg: str, *args: object) -> logging.LogRecord:
    return logging.getLogger(logger).makeRecord(logger, logging.INFO, __file__, 1, msg, args, None)


def success(task: str, value: int) -> logging.LogRecord:
    data = {"id": "x", "name": task, "return_value": repr(value), "runtime": 0.01, "args": ()}
    return record("celery.app.trace", LOG_SUCCESS, data)


def test_the_console_handler_filters_sweeps() -> None:
    (console,) = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    assert any(isinstance(f, QuietSweeps) for f in console.filters)


def test_an_idle_sweep_is_at_debug_and_not_shown_at_info() -> None:
    quiet = QuietSweeps()
    lines = [
        record(
            "celery.beat",
            "Scheduler: Sending due task %s (%s)",
            "tournament-sweep",
            "tournaments.tasks.tournament_sweep",
        ),
        record("celery.worker.strategy", LOG_RECEIVED, {"id": "x", "name": SWEEP}),
        success("tournaments.tasks.tournament_sweep", 0),
    ]
    with level("celery", logging.INFO):
        for line in lines:
            assert not quiet.filter(line)
            assert line.levelno == logging.DEBUG and line.levelname == "DEBUG"


def test_an_idle_sweep_shows_at_debug_when_the_log_is_at_debug() -> None:
    with level("celery", logging.DEBUG):
        assert QuietSweeps().filter(success(SWEEP, 0))


def test_a_sweep_that_fired_clocks_and_other_tasks_stay_at_info() -> None:
    quiet = QuietSweeps()
    for line in (success(SWEEP, 3), success("reports.tasks.not_a_sweep", 0)):
        assert quiet.filter(line)
        assert line.levelno == logging.INFO
