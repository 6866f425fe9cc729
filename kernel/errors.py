"""The runner's refusals of a command id (``kernel.commands``): typed API
errors with stable codes, the same for every stream."""

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
