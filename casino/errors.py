"""Why the casino refuses, besides the rules' own refusals
(``accounts.errors.refusal``) and the kernel's command errors: typed API
errors with stable codes, the same codes every table answers with."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kernel.api_errors import ApiError


class NotFound(ApiError):
    status = 404
    code = "not_found"
    message = _("No such casino table.")


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
