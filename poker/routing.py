"""WebSocket routes of the cash tables, mounted by ``config.asgi``."""

from django.urls import URLPattern, URLResolver, path

from poker import consumers
from tournaments.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/me/", consumers.PlayerConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    *tournament_routes,
]
