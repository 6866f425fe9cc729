"""The admin site: Django's, with its login throttled as the API's is
(per address and per account), and, when ``settings.STAFF_REQUIRE_OTP``
is on, django-otp's login form (a code of the staff member's TOTP device)
and no page for a session that did not give one."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django_otp.admin import OTPAdminAuthenticationForm, OTPAdminSite

from accounts.throttles import login_wait


class RoomAdminSite(admin.AdminSite):
    # AdminSite's attributes, here read from the setting at each use (a
    # read-only property where the stubs declare a writable attribute).
    @property
    def login_form(self) -> Any:  # type: ignore[override]
        return OTPAdminAuthenticationForm if settings.STAFF_REQUIRE_OTP else None

    @property
    def login_template(self) -> str | None:  # type: ignore[override]
        return OTPAdminSite.login_template if settings.STAFF_REQUIRE_OTP else None

    def has_permission(self, request: HttpRequest) -> bool:
        if settings.STAFF_REQUIRE_OTP and not request.user.is_verified():  # type: ignore[union-attr]
            return False
        return super().has_permission(request)

    def login(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        """A password guess (a POST) counts with the API's logins; past the
        rate it is refused with 429 and ``Retry-After``, right or wrong."""
        if request.method == "POST":
            wait = login_wait(request, request.POST.get("username"))
            if wait is not None:
                message = gettext("Too many login attempts: try again in %(wait)s seconds.") % {
                    "wait": wait
                }
                return HttpResponse(message, status=429, headers={"Retry-After": str(wait)})
        return super().login(request, extra_context)
