"""Every app's WebSocket routes, mounted by ``config.asgi`` (as
``config.urls`` mounts their REST routes): no app imports another's.  A
path none of them has is refused with 4404 (``ws_auth.Unrouted``), not an
error of the ASGI application."""

from django.urls import URLPattern, URLResolver, re_path

from casino.routing import websocket_urlpatterns as casino_routes
from config.ws_auth import Unrouted
from poker.routing import websocket_urlpatterns as table_routes
from tournaments.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    *table_routes,
    *casino_routes,
    *tournament_routes,
    re_path(r"", Unrouted.as_asgi()),
]
