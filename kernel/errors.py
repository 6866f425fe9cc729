"""The refusals every table's commands share (a command id reused or
taken, a stale version, a lost race, a clock its stream moved past):
typed API errors with stable codes, the same for every stream."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kernel.api_errors import ApiError


class CommandIdTaken(ApiError):
    status = 409
    code = "command_id_taken"
    message = _("This command id was used by someone else.")


class CommandIdReused(ApiError):
    """The id names a command carried out before with other content (kind,
    target or body): answering with that command's answer would tell the
    client his new command was done."""

    status = 409
    code = "command_id_reused"
    message = _("This command id was used for a different command; use a new id.")


class StaleVersion(ApiError):
    status = 409
    code = "stale_version"
    message = _("The hand has moved on since the version you saw.")


class Busy(ApiError):
    status = 409
    code = "conflict"
    message = _("Another command changed the table at the same moment; try again.")


class ClockMoved(ApiError):
    """The timer's stream is no longer at its version: nothing to do."""

    status = 409
    code = "clock_moved"
    message = _("The table has moved on since this clock was set.")
