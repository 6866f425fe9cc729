"""Log lines with their context: JSON in production, key=value in development.

Every module logs through the standard library (``logging.getLogger``);
structlog only formats.  Its ``merge_contextvars`` puts on each line what
the code running it bound with ``structlog.contextvars``: a table command
binds its ``command_id``, ``table_id`` and ``kind``
(``kernel.telemetry.command``), so every line logged on the command path,
by any module, says which command and which table it belongs to, with no
argument passed down.  ``settings.LOGGING`` names the formatters below;
``LOG_FORMAT`` (``json`` or ``plain``) picks one.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Mapping
from typing import Any

import structlog


def _ids_as_text(logger: Any, method: str, event: dict[str, Any]) -> dict[str, Any]:
    """A bound UUID (a command id) as its text, not its repr."""
    for key, value in event.items():
        if isinstance(value, uuid.UUID):
            event[key] = str(value)
    return event


PRE_CHAIN: list[Any] = [
    structlog.contextvars.merge_contextvars,
    _ids_as_text,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.processors.TimeStamper(fmt="iso", utc=True, key="time"),
]
"""What each line gets before it is rendered, from a ``logging`` call or a
structlog one alike."""


def json_formatter() -> logging.Formatter:
    """One JSON object a line: ``time``, ``level``, ``logger``, ``event`` (the
    message), the bound context, and ``exception`` when there is one."""
    return _rendered(structlog.processors.format_exc_info, structlog.processors.JSONRenderer())


def plain_formatter() -> logging.Formatter:
    """The same fields as ``key=value`` after the message, for a terminal.
    Tracebacks plain: rich's pretty ones cost ~0.4 s each, enough to stall
    the frame publisher's thread while Redis is away."""
    traceback = structlog.dev.plain_traceback
    return _rendered(structlog.dev.ConsoleRenderer(colors=False, exception_formatter=traceback))


def _rendered(*processors: Any) -> logging.Formatter:
    """Lines of ``logging`` and structlog alike, through ``PRE_CHAIN`` and
    then ``processors``."""
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=PRE_CHAIN,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *processors],
    )


SECRET_IN_QUERY = re.compile(r"(?i)\b(ticket|token|password)=[^&\s\"']+")
"""A secret in a URL's query string (a WebSocket ticket, a token a client
still sends there): the servers log each WebSocket's path with its query."""


class RedactSecrets(logging.Filter):
    """Every line the console handler writes, with the value of each secret
    of a query string in it replaced by ``[redacted]``: uvicorn logs every
    WebSocket handshake with its query, daphne and Django an error's
    path, and none of them may write a secret (docs/operations.md)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = SECRET_IN_QUERY.sub(r"\1=[redacted]", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


structlog.configure(
    processors=[*PRE_CHAIN, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
    logger_factory=structlog.stdlib.LoggerFactory(),
    wrapper_class=structlog.stdlib.BoundLogger,
    cache_logger_on_first_use=True,
)
"""A ``structlog.get_logger()`` logger goes through ``logging`` too, so the
handlers and formatters of ``settings.LOGGING`` render it like any other."""
logging.captureWarnings(True)  # Python's warnings too, as lines of ``py.warnings``


SWEEP_TASKS = frozenset({"kernel.tasks.clock_drain", "tournaments.tasks.tournament_sweep"})
"""The clock drain and beat's sweep of lost hand reports: frequent, mostly idle."""


class QuietSweeps(logging.Filter):
    """Celery's lines about a sweep (beat sending it, the worker receiving
    it, its success) at DEBUG unless the sweep did something (returned a
    count above zero): at INFO, four lines every five seconds were a third
    of an idle server's log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not _about_a_sweep(record.args) or _swept_something(record.args):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def _about_a_sweep(args: object) -> bool:
    """Celery logs a task's name among its arguments: a mapping's ``name``
    (received, succeeded), or a tuple's item (beat's "Sending due task")."""
    if isinstance(args, Mapping):
        return args.get("name") in SWEEP_TASKS
    return isinstance(args, tuple) and any(a in SWEEP_TASKS for a in args if isinstance(a, str))


def _swept_something(args: object) -> bool:
    """A sweep's success line with a count above zero (logged as its repr)."""
    return isinstance(args, Mapping) and str(args.get("return_value", "0")) not in ("0", "None")
