"""Every app's WebSocket routes, mounted by ``config.asgi`` (as
``config.urls`` mounts their REST routes): no app imports another's."""

from django.urls import URLPattern, URLResolver

from poker.routing import websocket_urlpatterns as table_routes
from tournaments.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns: list[URLPattern | URLResolver] = [*table_routes, *tournament_routes]
