"""Why the table service refuses: typed API errors with stable codes.

The engine's refusals keep their own codes (``refusal``); the service adds
its own below.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from config.refusals import engine_message
from kernel.api_errors import ApiError
from poker.engine.errors import EngineError, ErrorCode


class NotFound(ApiError):
    status = 404
    code = "not_found"
    message = _("No such table or hand.")


class Forbidden(ApiError):
    status = 403
    code = "forbidden"
    message = _("You may not do that.")


class StaleVersion(ApiError):
    status = 409
    code = "stale_version"
    message = _("The hand has moved on since the version you saw.")


class Busy(ApiError):
    status = 409
    code = "conflict"
    message = _("Another command changed the table at the same moment; try again.")


_STATUS = {
    ErrorCode.OUT_OF_TURN: 409,
    ErrorCode.ILLEGAL_ACTION: 409,
    ErrorCode.SEAT_TAKEN: 409,
    ErrorCode.TABLE_CLOSED: 409,
    ErrorCode.NOT_SEATED: 409,
    ErrorCode.BET_WINDOW_CLOSED: 409,
}


def refusal(error: EngineError) -> ApiError:
    """An engine refusal as an API error with the same code: ``message`` in
    the reader's language (``config.refusals``), ``detail`` the engine's
    own words (English, for logs and scripts), ``values`` the figures the
    message names (for a client's own wording); the players either names
    are shown by their screen names (the engine knows only their ids)."""
    from poker.selectors import player_name

    extra: dict[str, object] = {"detail": error.named(player_name)}
    if error.values:
        extra["values"] = dict(error.values)
    return ApiError(
        engine_message(error.code.value, error.players, error.values, player_name),
        code=error.code.value,
        status=_STATUS.get(error.code, 400),
        extra=extra,
    )


class ClockMoved(ApiError):
    """The timer's stream is no longer at its version: nothing to do."""

    status = 409
    code = "clock_moved"
    message = _("The table has moved on since this clock was set.")
