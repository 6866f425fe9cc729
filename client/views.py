"""The one page of the browser client; everything else it does goes
through the public API (``/api/``) and streams (``/ws/``)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_safe

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""What the page may load and run: its own modules, stylesheet and API
(``connect-src 'self'`` covers its same-origin WebSockets), no inline
script or style, no other host."""


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """The client's shell: it routes by the URL's fragment (``#/lobby``,
    ``#/tables/3``), so this page is all the server renders."""
    response = render(request, "client/index.html")
    response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on pages that name no icon
    (the admin's, the API docs'): the client's icon."""
    return redirect(static("client/favicon.svg"))
