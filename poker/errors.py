"""Why the table service refuses: typed API errors with stable codes.

The engine's refusals keep their own codes (``accounts.errors.refusal``,
shared with the casino); the service adds its own below.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from kernel.api_errors import ApiError


class NotFound(ApiError):
    status = 404
    code = "not_found"
    message = _("No such table or hand.")


class Forbidden(ApiError):
    status = 403
    code = "forbidden"
    message = _("You may not do that.")
