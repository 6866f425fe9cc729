"""ASGI entry point: HTTP goes to Django, WebSockets to the Channels routes."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Set Django up before anything imports models (the routes import consumers).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from config.ws_auth import (  # noqa: E402
    OriginGuard,
    OutageGuard,
    SocketSession,
    TicketAuthMiddleware,
)
from kernel.metrics import open_sockets  # noqa: E402

# Embedded defaults: the worker that runs the clocks lives in this process.
if settings.EMBEDDED_WORKER:
    from kernel import embedded_worker

    embedded_worker.start()

application = ProtocolTypeRouter(
    {
        # Static files too, DEBUG on or off (WhiteNoise, in the middleware).
        "http": django_asgi_app,
        # Counted while open (poker_open_sockets).  A session cookie (read,
        # never saved: ws_auth.SocketSession) works only from this site's
        # pages (a WebSocket is not covered by CSRF protection); a ticket
        # needs no Origin (ws_auth).
        # A handshake that meets PostgreSQL or Redis out of reach: 1013.
        "websocket": open_sockets(
            OutageGuard(
                OriginGuard(
                    CookieMiddleware(
                        SocketSession(
                            AuthMiddleware(TicketAuthMiddleware(URLRouter(websocket_urlpatterns)))
                        )
                    )
                )
            )
        ),
    }
)

# The hand evaluators' lookup tables, built now: built on a table's first
# showdown instead, they held the process (every socket, every command) for
# as long as the build took (docs/capacity.md).  Then what start-up built
# stays for the process's life, out of the collector's way (kernel.stalls).
from kernel import stalls  # noqa: E402
from poker.engine.evaluate import load_tables  # noqa: E402

load_tables()
stalls.settle()
