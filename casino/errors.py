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
