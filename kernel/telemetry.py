"""What a command leaves for the operators: its log context and metrics.

``command`` wraps each command in ``kernel.commands.Aggregate.run`` (the
one command runner: tables, casino tables, tournaments): while one runs,
every log line (of any module) carries its ``command_id``, ``table_id``
(or ``tournament_id``) and ``kind`` (structlog's context variables,
``config/logs.py``); when it ends it counts in ``poker_commands_total`` and
``poker_command_seconds`` (``kernel/metrics.py``), and logs one line at
DEBUG (none at INFO: a line per action would cost more than the rest of
this together).  It is on the hot path, so it is a plain class with slots,
the metrics' children are looked up once per label set, and nothing is
formatted unless logged: about 10 µs a command (tests/poker/test_telemetry.py
holds it under 50).
"""

from __future__ import annotations

import logging
import time
import uuid
from types import TracebackType
from typing import Any

from structlog.contextvars import bind_contextvars, reset_contextvars

from kernel.api_errors import ApiError
from kernel.metrics import COMMAND_SECONDS, COMMANDS

_counts: dict[tuple[str, str], Any] = {}
_times: dict[str, Any] = {}


class command:  # used as a function: ``with command(...):``
    """The context of one command (see the module): ``ids`` name what it
    acts on (``table_id=7``, ``tournament_id=3``); ``log`` writes its line."""

    __slots__ = ("_kind", "_log", "_start", "_tokens")

    def __init__(
        self, kind: str, command_id: uuid.UUID | None, log: logging.Logger, **ids: int
    ) -> None:
        self._kind = kind
        self._log = log
        self._tokens = bind_contextvars(command_id=command_id, kind=kind, **ids)
        self._start = 0.0

    def __enter__(self) -> None:
        self._start = time.perf_counter()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        seconds = time.perf_counter() - self._start
        outcome = "ok" if error is None else "refused" if isinstance(error, ApiError) else "error"
        try:
            count = _counts.get((self._kind, outcome))
            if count is None:
                count = _counts[self._kind, outcome] = COMMANDS.labels(self._kind, outcome)
            count.inc()
            took = _times.get(self._kind)
            if took is None:
                took = _times[self._kind] = COMMAND_SECONDS.labels(self._kind)
            took.observe(seconds)
            if self._log.isEnabledFor(logging.DEBUG):
                self._log.debug("command %s in %.2f ms", outcome, seconds * 1000)
        finally:
            reset_contextvars(**self._tokens)
