"""What a table command leaves for the operators: its log context and metrics.

``command`` wraps ``poker.commands.run`` (``observed``, its decorator):
while it runs, every log line (of any module) carries its ``command_id``, ``table_id`` and ``kind``
(structlog's context variables, ``config/logs.py``); when it ends it counts
in ``poker_commands_total`` and ``poker_command_seconds``
(``config/metrics.py``), and logs one line at DEBUG (none at INFO: a line
per action would cost more than the rest of this together).  It is on the
hot path, so it is a plain class with slots, the metrics' children are
looked up once per label set, and nothing is formatted unless logged:
about 10 µs a command (tests/poker/test_telemetry.py holds it under 50).
"""

from __future__ import annotations

import functools
import logging
import time
import uuid
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

from structlog.contextvars import bind_contextvars, reset_contextvars

from config.api_errors import ApiError
from config.metrics import COMMAND_SECONDS, COMMANDS

log = logging.getLogger("poker.commands")

Run = TypeVar("Run", bound=Callable[..., Any])

_counts: dict[tuple[str, str], Any] = {}
_times: dict[str, Any] = {}


class command:  # used as a function: ``with command(...):``
    """The context of one table command (see the module)."""

    __slots__ = ("_kind", "_start", "_tokens")

    def __init__(self, kind: str, table_id: int, command_id: uuid.UUID | None) -> None:
        self._kind = kind
        self._tokens = bind_contextvars(command_id=command_id, table_id=table_id, kind=kind)
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
            if log.isEnabledFor(logging.DEBUG):
                log.debug("command %s in %.2f ms", outcome, seconds * 1000)
        finally:
            reset_contextvars(**self._tokens)


def observed(run: Run) -> Run:
    """``poker.commands.run`` inside ``command``, from its own arguments."""

    @functools.wraps(run)
    def observed_run(table_id: int, *, command_id: Any, kind: str, **rest: Any) -> Any:
        with command(kind, table_id, command_id):
            return run(table_id, command_id=command_id, kind=kind, **rest)

    return observed_run  # type: ignore[return-value]
